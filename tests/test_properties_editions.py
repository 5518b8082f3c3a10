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

import pytest
from builders import Proto
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_editions import (
    SITE,
    TEAM,
    Custom,
    Game,
    Seat,
    app_scores,
    custom_edition,
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


def workbook(games: list[Game], edition: str, rows: tuple[tuple[str, str], ...] = ()) -> Proto:
    proto = Proto(settings=[("Правила", presets()[edition].edition.name("ru")), *rows])
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


def test_every_edition_shipped_has_its_reference_scorer() -> None:
    """A preset file added without its independent scorer fails here: the regulation's is
    `reference.py` (test_properties.py), the app's `app_scores`, the rating site's `SITE`."""
    assert set(presets()) == {"regulation", "app-2026", *SITE}


@pytest.mark.parametrize("code", sorted(SITE))  # each of the rating site's editions
@SLOW
@given(made=tournaments)
def test_the_rating_sites_editions(code: str, made: tuple[SynthProtocol, int]) -> None:
    check_site(code, made)


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


# ---- values of one's own ---------------------------------------------------------------

ROLES_EN = ("civilian", "sheriff", "mafia", "don")
_points = st.integers(-20, 60).map(lambda n: Fraction(n, 20))  # −1 … 3 in steps of 0.05
_penalty = st.integers(-20, 0).map(lambda n: Fraction(n, 20))
_small = st.integers(0, 16).map(lambda n: Fraction(n, 20))  # 0 … 0.8
customs = st.builds(
    Custom,
    win=st.fixed_dictionaries({r: _points for r in ROLES_EN}),
    loss=st.fixed_dictionaries({r: _penalty | _small for r in ROLES_EN}),
    draw=st.fixed_dictionaries({r: _penalty | _small for r in ROLES_EN}),
    best_move=st.tuples(_small, _small, _small),
    best_move_anyone=st.booleans(),
    auto_bonus=_small,
    title=_small,
    fouled=_penalty,
    kicked=_penalty,
    team=_penalty,
    gave_up=_penalty,
    ci_when=st.sampled_from(["lost", "half_red_win", "half_black_win"]),
    ci_share=_small,
    ci_cap=_small,
    ci_from=st.integers(1, 6),
)
BY_NAME = "extras, wins, deaths on night 1 as red"  # the letters ewk
_CI_WHEN = {
    "lost": "in lost games",
    "half_red_win": "half when red won",
    "half_black_win": "half when black won",
}


def typed(value: Fraction) -> str:
    """A value as a Russian Excel shows it: a decimal comma."""
    return format(float(value), "g").replace(".", ",")


def custom_rows(values: Custom, limits: bool, order: str, shared: str) -> tuple:
    """The «Турнир» rows that set every value, in English beside the Russian edition name."""
    rows = [(f"Win points: {r}", typed(v)) for r, v in values.win.items()]
    rows += [(f"Loss points: {r}", typed(v)) for r, v in values.loss.items()]
    rows += [(f"Draw points: {r}", typed(v)) for r, v in values.draw.items()]
    three, two, one = values.best_move
    rows += [
        ("Лучший ход: 3 чёрных", typed(three)),
        ("Best move: 2 black", typed(two)),
        ("Лучший ход: 1 чёрный", typed(one)),
        ("Best move: who earns it", "anyone" if values.best_move_anyone else "красным"),
        ("Автодопы", typed(values.auto_bonus)),
        ("Judge's best move", typed(values.title)),
        ("Штраф за 4 фола", typed(values.fouled)),
        ("Disqualification penalty", typed(values.kicked)),
        ("Штраф за удаление команды", typed(values.team)),
        ("Give-up penalty", typed(values.gave_up)),
        ("Ci: когда", _CI_WHEN[values.ci_when]),
        ("Ci: share", typed(values.ci_share)),
        ("Ci: предел", typed(values.ci_cap)),
        ("Ci: from games", str(values.ci_from)),
        ("Порядок показателей", order),
        ("Shared places", shared),
    ]
    if limits:  # the typed numbers reach ±0.8 in tenths: at the limits, never past them
        rows += [("Доп: минимум", "-0,8"), ("Extras: maximum", "0.8"), ("Доп: шаг", "0,1")]
    return tuple(rows)


def black_best_moves(games: list[Game], seed: int) -> None:
    """Where anyone earns the best move, a black first-night victim sometimes names seats."""
    rng = random.Random(seed)
    for game in games:
        for number, seat in enumerate(game.seats, start=1):
            victim = seat.left == "killed" and seat.when == 2
            if victim and TEAM[seat.role] == "black" and rng.random() < 0.7:
                others = [n for n in range(1, 11) if n != number]
                seat.best_move = tuple(rng.sample(others, 3))


@SLOW
@given(
    made=tournaments,
    values=customs,
    limits=st.booleans(),
    order=st.sampled_from(["(epg)wsk", "wsk", "m(ep)gnk", "n(mg)pw", BY_NAME]),
    shared=st.sampled_from(["no", "yes", "dense"]),
)
def test_values_of_ones_own_agree_with_the_reference(
    made: tuple[SynthProtocol, int], values: Custom, limits: bool, order: str, shared: str
) -> None:
    proto, seed = made
    games = typed_as(games_of(proto), "mr-fiim-3", seed)
    if values.best_move_anyone:
        black_best_moves(games, seed)
    rating = rated(workbook(games, "mr-fiim-3", custom_rows(values, limits, order, shared)))
    want = site_scores(games, custom_edition(values))
    got = {s.player: s for s in rating.standings}
    assert set(got) == set(want)
    for player, row in want.items():
        mine = got[player]
        assert (mine.win_points, mine.awards, mine.best_move, mine.penalties, mine.ci) == (
            row["main"],
            row["extra"],
            row["legacy"],
            row["penalty"],
            row["night1"],
        ), player
        assert mine.total == row["total"] == mine.win_points + mine.additional, player
    places = {p: s.place_range for p, s in got.items()}
    totals = {p: row["total"] for p, row in want.items()}
    if shared == "dense":
        assert places == dense_places(totals)
    elif shared == "yes":
        assert places == place_ranges({p: (t,) for p, t in totals.items()})
    else:
        letters = "ewk" if order == BY_NAME else order
        assert places == place_ranges({p: site_key(r, letters) for p, r in want.items()})


# ---- invariants under every edition --------------------------------------------------------


def _first(place_range: str) -> int:
    return int(place_range.split("–")[0])


@SLOW
@given(made=tournaments, code=st.sampled_from(sorted(presets())), order=st.randoms())
def test_every_edition_sums_orders_and_ignores_row_order(
    made: tuple[SynthProtocol, int], code: str, order: random.Random
) -> None:
    """Whatever the edition: each total is its parts, K within 1…2, the rows by total with
    places that only grow, and the same standings with the rows typed in another order."""
    proto, seed = made
    book = workbook(typed_as(games_of(proto), code, seed), code)
    rating = rated(book)
    if rating.k.applied:
        assert 1 <= rating.k.value <= 2
    for row in rating.standings:
        assert row.additional == row.best_move + row.awards + row.penalties + row.ci
        assert row.total == row.win_points + row.additional
    totals = [row.total for row in rating.standings]
    assert totals == sorted(totals, reverse=True)
    firsts = [_first(row.place_range) for row in rating.standings]
    assert firsts == sorted(firsts) and firsts[0] == 1
    for index, row in enumerate(rating.standings):  # a place follows the players above it
        above = [other.total for other in rating.standings if other.total > row.total]
        if rating.rules.shared_places == "dense":  # numbered without gaps
            assert firsts[index] == len(set(above)) + 1
        else:
            assert len(above) < firsts[index] <= index + 1
    order.shuffle(book.games)
    order.shuffle(book.seats)
    again = rated(book)
    assert [(s.player, s.place_range, s.total, s.decided_by) for s in again.standings] == [
        (s.player, s.place_range, s.total, s.decided_by) for s in rating.standings
    ]
