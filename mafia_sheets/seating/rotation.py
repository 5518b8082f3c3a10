"""The constructive start: who plays each round, and a first grouping at the tables.

Games per player are shared out as evenly as the seats allow (water-filling over each
player's available rounds: a judge who is also a player plays only the rounds they do not
judge); then each round seats the players most behind their share, so that sit-outs
rotate; then each player in turn joins the table where it costs least.
"""

from __future__ import annotations

import numpy as np

from .model import SEATS, Shape
from .tables import APART, NORMAL, Problem, Search

TIE = 1e-5  # urgencies this close are equal (the random tie-break is below it)


def game_bounds(shape: Shape, available: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fewest, most) games of each player when the seats are shared out evenly.

    With q the largest count such that every player playing min(available rounds, q)
    games leaves no seat empty, each player plays min(available, q) games and the seats
    left over go one each to players who can play q + 1.

    >>> low, high = game_bounds(Shape(27, (2,) * 10), np.ones((10, 27), dtype=bool))
    >>> int(low[0]), int(high[0])
    (7, 8)
    """
    rounds_free = available.sum(axis=0)
    seats = shape.seats
    level = 0
    while level < shape.rounds and np.minimum(rounds_free, level + 1).sum() <= seats:
        level += 1
    low = np.minimum(rounds_free, level)
    spare = seats - int(low.sum())
    high = np.minimum(rounds_free, level + 1) if spare else low.copy()
    return low, high


def sit_outs(problem: Problem, rng: np.random.Generator) -> np.ndarray:
    """playing[round, player]: each round the players furthest behind their share play.

    Targets: everyone gets the lower count, and the seats left over go to players drawn
    at random among those who may play one more. Urgency = games still owed / rounds
    still available; ties are drawn at random, which rotates the sit-outs; a player whose
    seat would force a restricted pair to one table waits when others are as urgent."""
    shape = problem.shape
    target = problem.low.copy()
    spare = shape.seats - int(target.sum())
    if spare > 0:
        extra = np.flatnonzero(problem.high > problem.low)
        target[rng.choice(extra, size=min(spare, len(extra)), replace=False)] += 1
    owed = target.astype(float)
    free_left = problem.available.sum(axis=0).astype(float)
    apart = problem.kind == APART
    playing = np.zeros((shape.rounds, shape.players), dtype=bool)
    rested = np.zeros(shape.players, dtype=bool)  # sat out the round before
    for r, tables in enumerate(shape.tables):
        can = problem.available[r]
        urgency = np.where(can, owed / np.maximum(free_left, 1.0), -np.inf)
        urgency = urgency + rng.random(shape.players) * 1e-6
        chosen = _seat_round(urgency, apart, tables, rested)
        rested = can & ~np.isin(np.arange(shape.players), chosen)
        playing[r, chosen] = True
        owed[chosen] -= 1
        free_left[can] -= 1
    return playing


def _seat_round(
    urgency: np.ndarray, apart: np.ndarray, tables: int, rested: np.ndarray
) -> np.ndarray:
    """The round's players, most urgent first; among players equally urgent, one whose
    seat would put an apart pair at one table (`tables` or more of its apart-partners
    already seated) waits, and one who sat out the round before goes first (nobody sits
    out twice running while others have not)."""
    chosen = np.zeros(len(urgency), dtype=bool)
    partners = np.zeros(len(urgency))
    for _ in range(SEATS * tables):
        open_ = np.where(chosen, -np.inf, urgency)
        level = open_.max()
        crowded = np.maximum(partners - (tables - 1), 0)
        tied = np.where(open_ >= level - TIE, -crowded + 0.5 * rested + open_ * 1e-3, -np.inf)
        p = int(np.argmax(tied))
        chosen[p] = True
        partners += apart[p]
    return np.flatnonzero(chosen)


def first_groups(problem: Problem, playing: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """group[round, player]: each playing player joins the open table where the pairs it
    makes cost least (restricted pairs first: they are placed before the others)."""
    shape = problem.shape
    search = Search(problem, np.full((shape.rounds, shape.players), -1, dtype=np.int64), rng)
    restricted = (problem.kind != NORMAL).sum(axis=1)
    for r, tables in enumerate(shape.tables):
        seated = np.flatnonzero(playing[r])
        seated = seated[np.lexsort((rng.random(len(seated)), -restricted[seated]))]
        filled = np.zeros(tables, dtype=np.int64)
        for p in seated:
            at = search.group[r]
            price = np.bincount(at[at >= 0], search.up[p, at >= 0], tables).astype(float)
            price[filled >= SEATS] = np.inf
            t = int(np.argmin(price + rng.random(tables) * 1e-6))
            search.seat(r, int(p), t)
            filled[t] += 1
    return search.group
