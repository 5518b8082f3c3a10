"""The seating stage: shapes, restrictions, the optimiser's figures against their bounds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafia_sheets.seating.figures import (
    measure,
    never_met_bound,
    pair_bound,
    variance_bound,
    variance_spread,
)
from mafia_sheets.seating.model import SEATS, Entrant, Restrictions, Schedule, Shape
from mafia_sheets.seating.optimise import iterations, seat_players
from mafia_sheets.seating.restrict import (
    entrant_of,
    numbered,
    parse_rounds,
    restrictions_for,
    split_aliases,
)
from mafia_sheets.seating.rotation import game_bounds
from mafia_sheets.seating.seats import assign_seats
from mafia_sheets.seating.shape import SeatingError, shape_for

QUICK = 0.03  # a short search: the tests check what holds for any search length


def seat(names, shape, restrictions=None, seed=1, effort=QUICK):
    return seat_players(names, shape, restrictions or Restrictions(), seed, effort=effort)


def names(count):
    return [e.name for e in numbered(count, "ru")]


# ---- shapes ---------------------------------------------------------------------------


def test_shape_by_rounds_and_by_games_per_player():
    assert shape_for(27, 2, 10, None).tables == (2,) * 10
    assert shape_for(27, None, 3, None).tables == (2, 2, 2)  # as many tables as fill
    # 27 × 10 = 270 seats: 13 rounds of two tables and one of one
    assert shape_for(27, 2, None, 10).tables == (2,) * 13 + (1,)
    # 27 × 3 = 81 seats: the last game is filled up, so some play 4
    assert shape_for(27, 2, None, 3).seats == 90


@pytest.mark.parametrize(
    ("players", "tables", "rounds", "games", "words"),
    [
        (9, None, 3, None, "at least 10"),
        (27, 3, 3, None, "cannot fill 3 tables"),
        (27, 2, None, None, "--rounds R or --games-per-player G"),
        (27, 2, 3, 3, "--rounds R or --games-per-player G"),
    ],
)
def test_impossible_shapes_are_refused_in_one_line(players, tables, rounds, games, words):
    with pytest.raises(SeatingError) as caught:
        shape_for(players, tables, rounds, games)
    assert words in caught.value.en and caught.value.ru


def test_game_bounds_share_the_seats_evenly():
    low, high = game_bounds(Shape(27, (2,) * 10), np.ones((10, 27), dtype=bool))
    assert set(low) == {7} and set(high) == {8}
    free = np.ones((10, 27), dtype=bool)
    free[:4, 0] = False  # a judge who judges rounds 1–4 plays at most 6
    low, high = game_bounds(Shape(27, (2,) * 10), free)
    assert (low[0], high[0]) == (6, 6) and low[1:].min() == 7


# ---- restrictions ------------------------------------------------------------------------


def test_parse_rounds_and_aliases():
    assert parse_rounds("1, 3 - 5;7") == frozenset({1, 3, 4, 5, 7})
    assert parse_rounds("") == frozenset()
    assert parse_rounds("two") is None and parse_rounds("0") is None
    assert split_aliases("Котик; Kot,  Кот  Учёный") == ("Котик", "Kot", "Кот Учёный")


def test_clubs_teams_and_options_become_pairs():
    roster = [
        entrant_of("Кот", club="Маски"),
        entrant_of("Пёс", club="маски "),  # one club, however typed
        entrant_of("Ёж", team="Север"),
        entrant_of("Lynx", team="Север"),
        *numbered(16, "ru"),
    ]
    shape = shape_for(20, 2, 3, None)
    found = restrictions_for(roster, shape, apart=[("ёж", "Игрок 1")], together=[("Кот", "Пёс")])
    apart = {(p.a, p.b): p.reason.en for p in found.apart}
    assert apart == {(2, 3): "team “Север”", (2, 4): "--apart"}  # --together wins over a club
    assert [(p.a, p.b) for p in found.together] == [(0, 1)]


@pytest.mark.parametrize(
    ("apart", "together", "words"),
    [
        ([("Кот", "Нет")], [], "“Нет” is not in the roster"),
        ([("Кот", "кот")], [], "are one player"),
        ([("Кот", "Пёс")], [("Пёс", "Кот")], "both --apart and --together"),
    ],
)
def test_bad_restrictions_are_refused(apart, together, words):
    roster = [Entrant("Кот"), Entrant("Пёс"), *numbered(18, "ru")]
    with pytest.raises(SeatingError) as caught:
        restrictions_for(roster, shape_for(20, 2, 2, None), apart, together)
    assert words in caught.value.en


def test_judging_leaves_enough_players_or_is_refused():
    roster = [entrant_of(f"P{i}", judges="2") for i in range(3)] + numbered(17, "ru")
    with pytest.raises(SeatingError, match="Round 2 has 17 players free"):
        restrictions_for(roster, shape_for(20, 2, 3, None))
    with pytest.raises(SeatingError, match="judges round 5, but there are 3 rounds"):
        restrictions_for(
            [entrant_of("P", judges="5"), *numbered(19, "ru")], shape_for(20, 2, 3, None)
        )
    with pytest.raises(SeatingError, match="round numbers are needed"):
        entrant_of("P", judges="всегда")


# ---- the optimiser -----------------------------------------------------------------------


def test_the_same_seed_gives_the_same_schedule():
    shape = Shape(27, (2,) * 5)
    assert seat(names(27), shape, seed=7) == seat(names(27), shape, seed=7)
    assert seat(names(27), shape, seed=7) != seat(names(27), shape, seed=8)


def test_27_players_on_two_tables_play_7_or_8_games_and_rotate():
    schedule = seat(names(27), Shape(27, (2,) * 10), effort=0.2)
    figures = measure(schedule)
    assert (figures.games.low, figures.games.high, figures.games.bound) == (7, 8, 1)
    assert figures.per_player_games.count(8) == 11  # 200 seats − 27 × 7
    assert all(len(schedule.out(r)) == 7 for r in range(10))
    assert figures.seat_max == 1 and figures.pairs.low >= 1
    assert figures.rested_bound == 0 and figures.rested_twice <= 2  # the sit-outs rotate


def test_every_pair_within_one_of_the_average_where_the_arithmetic_allows():
    # 100 players at 10 tables for 3 rounds: 27 meetings over 99 others — every pair
    # meets 0 or 1 times (the bound is 1), and the search reaches it
    figures = measure(seat(names(100), Shape(100, (10,) * 3), effort=0.3))
    assert figures.pairs.bound == 1 and figures.pairs.spread == 1
    assert figures.seat_max == 1
    # each player meets 27 of 99 others: 100 × 72 / 2 pairs never meet, and no fewer
    assert figures.never_met == figures.never_met_bound == 3600
    # 40 players at 4 tables cannot: two tables of consecutive rounds share at least
    # three players (10 over 4 tables), who meet twice — the bound says 2
    figures = measure(seat(names(40), Shape(40, (4,) * 3), effort=0.3))
    assert figures.pairs.bound == 2 and figures.pairs.spread == 2


def test_the_spread_held_the_fewest_pairs_never_meet():
    # 100 players at 10 tables for 12 rounds: 5400 meetings over 4950 pairs, so with no
    # pair meeting three times the pairs meeting twice are the pairs never met + 450.
    # Minimising the spread alone left about 840 pairs that never met; the best published
    # optimiser leaves 765. Even a short search here, spread first, leaves fewer.
    figures = measure(seat(names(100), Shape(100, (10,) * 12), effort=0.3))
    assert figures.pairs.spread == 2 and figures.pairs.bound == 1
    assert len(figures.histogram) == 3  # nobody meets anybody three times
    assert figures.histogram[2] == figures.never_met + 450
    assert figures.never_met_bound == 0 and figures.never_met < 765
    assert figures.seat_max == figures.seat_bound
    assert all(group.spread <= group.bound for group in figures.groups)


def test_the_never_met_bound_counts_the_seats_beside_each_player():
    free = ~np.eye(20, dtype=bool)
    assert never_met_bound(np.full(20, 1), free) == 20 * 10 // 2  # 9 of 19 met at most
    assert never_met_bound(np.full(20, 3), free) == 0
    free[0, 1] = free[1, 0] = False  # a restricted pair is not counted
    assert never_met_bound(np.full(20, 1), free) == (18 * 10 + 2 * 9) // 2


def test_restrictions_are_honoured_first():
    roster = [entrant_of(f"M{i}", club="Маски") for i in range(2)]  # two tables: can split
    roster += [entrant_of(f"T{i}", team="Север") for i in range(2)]
    roster += [entrant_of("Judge", judges="1-2"), *numbered(17, "ru")]
    shape = shape_for(len(roster), 2, 6, None)
    restrictions = restrictions_for(roster, shape, together=[("Игрок 1", "Игрок 2")])
    schedule = seat([e.name for e in roster], shape, restrictions)
    figures = measure(schedule, restrictions)
    assert figures.breaks == ()
    assert schedule.seat_of(4, 0) is None and schedule.seat_of(4, 1) is None
    assert (figures.apart_pairs, figures.together_pairs, figures.judges) == (2, 1, 1)


def test_a_club_too_big_to_split_breaks_as_little_as_possible():
    roster = [entrant_of(f"M{i}", club="Маски") for i in range(5)] + numbered(15, "ru")
    shape = shape_for(20, 2, 4, None)
    restrictions = restrictions_for(roster, shape)
    figures = measure(seat([e.name for e in roster], shape, restrictions), restrictions)
    # five of one club at two tables of ten: at best 3 + 2, i.e. 3 + 1 = 4 pairs a round
    assert len(figures.breaks) == 4 * 4 == figures.breaks_bound
    assert {b.kind for b in figures.breaks} == {"apart"}


def test_a_club_one_more_than_the_tables_sits_out_in_turn():
    # four of one club at three tables: all four playing forces a pair together, and with
    # 37 players they can sit out in turn only in 8 of 9 rounds — the bound is 1, reached
    roster = [entrant_of(f"A{i}", club="Альфа") for i in range(4)] + numbered(33, "ru")
    shape = shape_for(37, 3, 9, None)
    restrictions = restrictions_for(roster, shape)
    figures = measure(seat([e.name for e in roster], shape, restrictions, effort=0.3), restrictions)
    assert figures.breaks_bound == 1 and len(figures.breaks) == 1
    assert figures.games.spread == figures.games.bound == 1


def test_iterations_depend_on_the_shape_only():
    assert iterations(Shape(100, (10,) * 12)) < iterations(Shape(20, (2,) * 10))
    assert iterations(Shape(20, (2,) * 10), 0.5) == iterations(Shape(20, (2,) * 10)) // 2


shapes = st.integers(10, 34).flatmap(
    lambda players: st.tuples(st.just(players), st.integers(1, players // SEATS), st.integers(1, 6))
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=shapes, seed=st.integers(0, 2**32 - 1))
def test_figures_meet_their_bounds_on_small_shapes(shape, seed):
    players, tables, rounds = shape
    figures = measure(seat(names(players), Shape(players, (tables,) * rounds), seed=seed))
    assert figures.games.spread == figures.games.bound  # equal games, ±1 only when forced
    assert figures.rested_twice >= figures.rested_bound
    assert figures.seat_max == figures.seat_bound  # no seat more than ⌈g/10⌉ times
    assert figures.seat_spread <= 1
    for group in figures.groups:
        assert group.bound <= group.spread <= 2
    assert figures.pairs.bound <= figures.pairs.spread  # the bound is a true bound
    assert figures.pairs.spread <= figures.pairs.bound + 2


# ---- seats and bounds ------------------------------------------------------------------


def test_seats_are_coloured_evenly_for_any_grouping():
    rng = np.random.default_rng(3)
    games = [rng.permutation(23)[:10].tolist() for _ in range(37)]
    seated = assign_seats(games, 23, rng)
    assert [sorted(g) for g in seated] == [sorted(g) for g in games]
    counts = np.zeros((23, SEATS), dtype=int)
    for game in seated:
        for s, p in enumerate(game):
            counts[p, s] += 1
    played = counts.sum(axis=1)
    assert (counts.max(axis=1) == -(-played // SEATS)).all()
    assert (counts.min(axis=1) == played // SEATS).all()


def test_the_variance_bound():
    assert variance_spread(4.7368, 1.25) == 3
    assert variance_bound(np.full(20, 10), (2,) * 10) == 3  # 20 players, 2 tables, 10 rounds
    assert variance_bound(np.array([8] * 11 + [7] * 16), (2,) * 10) == 2
    assert variance_bound(np.full(100, 12), (10,) * 12) <= 1
    free = ~np.eye(20, dtype=bool)
    assert pair_bound(np.full(20, 10), free, (2,) * 10) == 3


def test_figures_of_a_hand_made_schedule():
    rounds = (
        (tuple(range(10)), tuple(range(10, 20))),
        (tuple(range(10)), tuple(range(10, 20))),
    )
    figures = measure(Schedule(tuple(names(20)), rounds))
    assert (figures.pairs.low, figures.pairs.high) == (0, 2)
    assert figures.never_met == 100 and figures.histogram == (100, 0, 90)
    assert figures.seat_max == 2 and figures.seat_bound == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=shapes,
    clubs=st.lists(st.integers(0, 3), min_size=10, max_size=34),
    seed=st.integers(0, 99),
)
def test_games_stay_even_first_whatever_the_clubs(shape, clubs, seed):
    players, tables, rounds = shape
    marks = (clubs * 4)[:players]
    roster = [entrant_of(f"P{i}", club=f"C{c}" if c else "") for i, c in enumerate(marks)]
    real = shape_for(players, tables, rounds, None)
    restrictions = restrictions_for(roster, real)
    figures = measure(seat([e.name for e in roster], real, restrictions, seed=seed), restrictions)
    assert figures.games.spread == figures.games.bound  # games come before restrictions
    assert len(figures.breaks) >= figures.breaks_bound  # the bound is a true bound
    assert figures.seat_max == figures.seat_bound
