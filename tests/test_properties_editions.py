"""Generated tournaments under every scoring edition against the independent reference
scorers of `reference_editions.py` (the regulation's own is `test_properties.py`).

Each tournament is a valid generated one, then typed the way the edition's clubs type
it: the judge's awards become numbers within the edition's limits, some players give up
instead of being voted out, the game's last departure is sometimes a team removal, worst
moves and the judge's best-move title appear. Every player's points, group by group, and
every place must agree.
"""

from __future__ import annotations

import random
from fractions import Fraction

from builders import Proto
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_editions import (
    TEAM,
    Game,
    Seat,
    app_scores,
    dense_places,
    place_ranges,
    site_key,
    site_scores,
)

from mafia_sheets.pipeline import evaluate
from mafia_sheets.rules import presets
from mafia_sheets.testing.synth import BONUSES, LEFT, RESULTS, ROLES, SynthProtocol, generate
from mafia_sheets.vocab import display_value, phase_name

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RU = {"result": {"red": "Красные", "black": "Чёрные", "draw": "Ничья"}}


def games_of(proto: SynthProtocol) -> list[Game]:
    out = []
    seats = proto.seats
    for g in range(proto.n_games):
        game = Game(str(int(proto.games["game"][g])), RESULTS[int(proto.games["result"][g])])
        for i in range(g * 10, g * 10 + 10):
            named = tuple(int(s) for s in seats["best_move"][i] if s)
            code = BONUSES[int(seats["bonus"][i])] or None
            game.seats.append(
                Seat(
                    proto.players[int(seats["player"][i])],
                    ROLES[int(seats["role"][i])],
                    LEFT[int(seats["left"][i])],
                    int(seats["when"][i]),
                    named,
                    code,
                    int(seats["fouls"][i]),
                )
            )
        out.append(game)
    return out


def typed_as(games: list[Game], code: str, seed: int) -> list[Game]:
    """The games as the edition's clubs type them (see the module's docstring)."""
    rng = random.Random(seed)
    numeric = presets()[code].extras_numeric
    for game in games:
        for seat in game.seats:
            if seat.left == "voted" and rng.random() < 0.1:
                seat.left = "gave_up"
            if numeric and seat.bonus in ("bp", "bp2", "bpl"):
                seat.bonus = _number(rng, code, positive=rng.random() < 0.8)
            elif seat.bonus is None and rng.random() < 0.06:
                seat.bonus = rng.choice(["worst_move", "best_move_title"])
            if numeric and seat.bonus is None and rng.random() < 0.04:
                seat.bonus = _number(rng, code, positive=False)  # a negative extra, in a draw too
        _team_removal(game, rng)
    return games


def _number(rng: random.Random, code: str, positive: bool) -> Fraction:
    if code == "app-2026":  # ±0.2 … ±1.0 in tenths, and −1.5, −2.1, −2.5
        magnitude = Fraction(rng.randint(2, 7), 10)  # at most 3 positive a game: ≤ 2.1 < 4
        return magnitude if positive else rng.choice([-magnitude, Fraction(-3, 2)])
    value = Fraction(rng.randint(1, 8), 10)
    return value if positive else -value


def _team_removal(game: Game, rng: random.Random) -> None:
    """The departure that decided a won game, now a team removal of that player: the game
    still ends there with the same winner."""
    if game.result == "draw" or rng.random() > 0.15:
        return
    last = max(s.when for s in game.seats if s.left)
    deciding = [s for s in game.seats if s.left and s.when == last]
    if len(deciding) == 1 and TEAM[deciding[0].role] != game.result:
        deciding[0].left = "team_removal"


_LEFT = {
    "killed": "убит",
    "voted": "заголосован",
    "fouled": "4 фола",
    "disqualified": "дисквалифицирован",
    "team_removal": "удалён с поражением команды",
    "gave_up": "отказ от игры",
}


def workbook(games: list[Game], edition: str) -> Proto:
    proto = Proto(settings=[("Правила", presets()[edition].edition.name("ru"))])
    for game in games:
        proto.games.append({"game": game.game, "result": RU["result"][game.result]})
        for number, seat in enumerate(game.seats, start=1):
            bonus, shown = seat.bonus, ""
            if isinstance(bonus, Fraction):  # typed with a decimal comma, as in a Russian Excel
                shown = format(float(bonus), "g").replace(".", ",")
            elif bonus:
                shown = display_value("bonus", bonus, "ru")
            proto.seats.append(
                {
                    "game": game.game,
                    "seat": number,
                    "player": seat.player,
                    "role": display_value("role", seat.role, "ru"),
                    "fouls": seat.fouls or "",
                    "left": _LEFT.get(seat.left, ""),
                    "when": phase_name(seat.when, "ru") if seat.when else "",
                    "best_move": " ".join(map(str, seat.best_move)),
                    "bonus": shown,
                }
            )
    return proto


def rated(proto: Proto):
    outcome = evaluate([proto.source()], stats=False)
    errors = [(f.code, f.cell) for f in outcome.findings if f.severity == "error"]
    assert errors == []
    return outcome.rating


tournaments = st.builds(
    lambda games, seed, draws: (generate(games, players=14, seed=seed, draws=draws), seed),
    games=st.integers(3, 14),
    seed=st.integers(0, 10**6),
    draws=st.sampled_from([0.0, 0.2]),
)


def check_site(code: str, made: tuple[SynthProtocol, int]) -> None:
    proto, seed = made
    games = typed_as(games_of(proto), code, seed)
    rating = rated(workbook(games, code))
    want = site_scores(games, code)
    got = {s.player: s for s in rating.standings}
    assert set(got) == set(want)
    for player, row in want.items():
        mine = got[player]
        assert (
            mine.total,
            mine.win_points,
            mine.awards,
            mine.best_move,
            mine.penalties,
            mine.ci,
        ) == (
            row["total"],
            row["main"],
            row["extra"],
            row["legacy"],
            row["penalty"],
            row["night1"],
        ), player
    keys = {p: site_key(row, "(epg)wsk") for p, row in want.items()}
    assert {s.player: s.place_range for s in rating.standings} == place_ranges(keys)


@SLOW
@given(made=tournaments)
def test_the_rating_sites_fiim_7(made: tuple[SynthProtocol, int]) -> None:
    check_site("mr-fiim-7", made)


@SLOW
@given(made=tournaments)
def test_the_rating_sites_fiim_3(made: tuple[SynthProtocol, int]) -> None:
    check_site("mr-fiim-3", made)


@SLOW
@given(made=tournaments)
def test_the_rating_sites_fiim_1_with_difficulty(made: tuple[SynthProtocol, int]) -> None:
    check_site("mr-fiim-1", made)


@SLOW
@given(made=tournaments)
def test_the_rating_sites_club_main(made: tuple[SynthProtocol, int]) -> None:
    check_site("mr-club-main", made)


@SLOW
@given(made=tournaments)
def test_the_2026_judge_app(made: tuple[SynthProtocol, int]) -> None:
    proto, seed = made
    games = typed_as(games_of(proto), "app-2026", seed)
    rating = rated(workbook(games, "app-2026"))
    want = app_scores(games)
    got = {s.player: s for s in rating.standings}
    assert set(got) == set(want)
    for player, row in want.items():
        mine = got[player]
        assert mine.total * 100 == row["total"], player
        assert (mine.win_points * 100, mine.awards * 100, mine.best_move * 100, mine.ci * 100) == (
            row["game"],
            row["extra"],
            row["turn"],
            row["ci"],
        ), player
    assert {p: s.place_range for p, s in got.items()} == dense_places(
        {p: row["total"] for p, row in want.items()}
    )
