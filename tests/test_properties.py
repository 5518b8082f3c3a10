"""Random tournaments against an independent computation; invariants under shuffling."""

from __future__ import annotations

import dataclasses
import io
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rating_fixture import shown
from reference import reference

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.testing.synth import LEFT, RESULTS, ROLES, SynthProtocol, generate

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def workbook(
    proto: SynthProtocol, lang: str = "ru", shuffle: bool = False, seed: int = 0
) -> Source:
    buffer = io.BytesIO()
    proto.to_xlsx(buffer, lang=lang, shuffle_columns=shuffle, seed=seed)
    return Source("random.xlsx", buffer.getvalue())


def with_options(
    proto: SynthProtocol, apply_k: bool, draws_in_n: bool, win_when_disqualified: bool = True
) -> SynthProtocol:
    flags = {
        "apply_k": "yes" if apply_k else "no",
        "draws_in_n": "yes" if draws_in_n else "no",
        "win_when_disqualified": "yes" if win_when_disqualified else "no",
    }
    settings_ = tuple((k, flags.get(k, v)) for k, v in proto.settings)
    return dataclasses.replace(proto, settings=settings_)


tournaments = st.builds(
    lambda games, players, seed, draws: generate(games, players=players, seed=seed, draws=draws),
    games=st.integers(2, 24),
    players=st.integers(10, 16),
    seed=st.integers(0, 10**6),
    draws=st.sampled_from([0.0, 0.15, 0.4]),
)


@SLOW
@given(
    proto=tournaments,
    lang=st.sampled_from(["ru", "en"]),
    shuffle=st.booleans(),
    apply_k=st.booleans(),
    draws_in_n=st.booleans(),
    keep_win=st.booleans(),
)
def test_random_tournaments_agree_with_an_independent_computation(
    proto, lang, shuffle, apply_k, draws_in_n, keep_win
):
    proto = with_options(proto, apply_k, draws_in_n, keep_win)
    outcome = evaluate([workbook(proto, lang, shuffle)])
    # generated with the five-phase reading of situation 9: nothing to report at all
    assert outcome.findings == (), [f.code + " " + f.where for f in outcome.findings]
    expected = reference(proto, apply_k, draws_in_n, keep_win)
    rating = outcome.rating
    assert rating.k.value == expected["k"] and rating.k.heavy_side == expected["heavy"]
    for row in rating.standings:
        want = expected["players"][row.player]
        assert (row.total, row.additional, row.win_points) == (
            want["total"],
            want["additional"],
            want["win_points"],
        )
        assert (row.wins, row.wins_don_sheriff, row.killed_first_night) == (
            want["wins"],
            want["wins_ds"],
            want["killed_n1"],
        )
        assert row.place_range == expected["places"][row.player]
    assert {r.player for r in rating.standings} == set(expected["players"])


def permuted(proto: SynthProtocol, seed: int) -> SynthProtocol:
    """The same games with the game rows and the seat rows in another order."""
    rng = np.random.default_rng(seed)
    game_order = rng.permutation(proto.n_games)
    seat_order = rng.permutation(len(proto.seats["game"]))
    games = {k: v[game_order] for k, v in proto.games.items()}
    seats = {k: v[seat_order] for k, v in proto.seats.items()}
    return dataclasses.replace(proto, games=games, seats=seats)


@SLOW
@given(proto=tournaments, seed=st.integers(0, 1000))
def test_shuffling_rows_or_games_never_changes_places(proto, seed):
    before = evaluate([workbook(proto)]).rating
    after = evaluate([workbook(permuted(proto, seed))]).rating
    assert [(s.player, s.place_range, s.total, s.decided_by) for s in before.standings] == [
        (s.player, s.place_range, s.total, s.decided_by) for s in after.standings
    ]


@SLOW
@given(proto=tournaments)
def test_win_points_of_a_game_are_winners_times_two_times_k(proto):
    rating = evaluate([workbook(proto)]).rating
    points = shown(rating)
    k = rating.k.value if rating.k.applied else Fraction(1)
    exact = Fraction(0)
    for _, rows in points.groupby("game"):
        winners = int(rows["win"].sum())
        heavy = bool(rows["heavy"].any())
        assert abs(rows["win_points"].sum() - winners * 2 * float(k if heavy else 1)) < 1e-9
        exact += winners * 2 * (k if heavy else 1)
    assert sum((s.win_points for s in rating.standings), Fraction(0)) == exact


def test_voided_win_points_of_disqualified_winners_agree_with_the_reference():
    proto = generate(400, seed=5)
    left = proto.by_game("left") == LEFT.index("disqualified")
    black = np.isin(proto.by_game("role"), [ROLES.index("mafia"), ROLES.index("don")])
    won = np.where(
        black,
        proto.games["result"][:, None] == RESULTS.index("black"),
        proto.games["result"][:, None] == RESULTS.index("red"),
    )
    assert (left & won).any()  # the seed has disqualified winners to void
    for keep in (True, False):
        outcome = evaluate([workbook(with_options(proto, True, True, keep))])
        assert outcome.findings == ()
        expected = reference(proto, True, True, keep)
        for row in outcome.rating.standings:
            want = expected["players"][row.player]
            assert (row.total, row.win_points, row.wins) == (
                want["total"],
                want["win_points"],
                want["wins"],
            )
