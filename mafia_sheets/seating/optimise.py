"""The two searches chained: table groups (tabu search, then the spread squeezed), then
seat numbers (edge colouring, then seat groups balanced).

A run is reproducible: everything random comes from one generator seeded with `seed`,
and the work done depends on the shape alone, never on the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .figures import pair_bound
from .model import Restrictions, Schedule, Shape
from .rotation import first_groups, game_bounds, sit_outs
from .seats import assign_seats
from .tables import (
    APART,
    NORMAL,
    TOGETHER,
    Problem,
    Search,
    meetings,
    normal_values,
    pair_curve,
)

Progress = Callable[[float], None]
CHECK_EVERY = 256  # iterations between looks at whether the bound is reached


def problem_of(shape: Shape, restrictions: Restrictions) -> Problem:
    """The search's arrays for a shape and its restrictions."""
    players = shape.players
    available = np.ones((shape.rounds, players), dtype=bool)
    for p, r in restrictions.away:
        if r < shape.rounds:
            available[r, p] = False
    kind = np.full((players, players), NORMAL, dtype=np.int64)
    for code, pairs in ((APART, restrictions.apart), (TOGETHER, restrictions.together)):
        for pair in pairs:
            kind[pair.a, pair.b] = kind[pair.b, pair.a] = code
    low, high = game_bounds(shape, available)
    return Problem(shape, low, high, available, kind)


def iterations(shape: Shape, effort: float = 1.0) -> int:
    """The tabu search's length: a step prices every swap of a round (≈ P² numbers), so
    large rosters get fewer steps; about three seconds of one core here. `effort` scales
    it (the tests use a small one)."""
    cost = 60e-6 + 2e-8 * shape.players * shape.players
    return max(1, int(effort * max(1500, min(12000, int(2.5 / cost)))))


def seat_players(
    names: Sequence[str],
    shape: Shape,
    restrictions: Restrictions,
    seed: int,
    progress: Progress | None = None,
    effort: float = 1.0,
) -> Schedule:
    """A schedule for `names` in `shape`: restrictions honoured first, then even pairs,
    then even seats."""
    rng = np.random.default_rng(seed)
    problem = problem_of(shape, restrictions)
    group = first_groups(problem, sit_outs(problem, rng), rng)
    total = iterations(shape, effort)
    group = _search_groups(problem, group, rng, total, progress or (lambda _: None))
    games = [
        np.flatnonzero(group[r] == t).tolist()
        for r, tables in enumerate(shape.tables)
        for t in range(tables)
    ]
    seated = assign_seats(games, shape.players, rng)
    rounds, start = [], 0
    for tables in shape.tables:
        rounds.append(tuple(tuple(seated[start + t]) for t in range(tables)))
        start += tables
    return Schedule(tuple(names), tuple(rounds))


def _search_groups(
    problem: Problem, group: np.ndarray, rng: np.random.Generator, total: int, progress: Progress
) -> np.ndarray:
    """Tabu search for a third of the budget, then the spread squeezed with the rest."""
    done = 0

    def tick() -> None:
        progress(min(1.0, (done + search.it - begun) / total))

    search = Search(problem, group, rng)
    bound = _bound(problem, group)
    begun = search.it
    best = _run(search, total // 3, bound, tick)
    done = total // 3
    while done < total:
        values = normal_values(problem, best)
        if not len(values) or values.max() - values.min() <= max(bound, 1):
            break
        low, high = int(values.min()), int(values.max())
        rarer_high = (values == high).sum() <= (values == low).sum()
        band = (low, high - 1) if rarer_high else (low + 1, high)
        chunk = min(total - done, max(total // 6, 200))
        search.load(best, pair_curve(problem.average, problem.shape.rounds, band))
        begun = search.it
        candidate = _run(search, chunk, bound, tick)
        done += chunk
        found = normal_values(problem, candidate)
        inside = found.min() >= band[0] and found.max() <= band[1]
        if inside and _restriction_cost(problem, candidate) <= _restriction_cost(problem, best):
            best = candidate
    progress(1.0)
    return best


def _run(search: Search, steps: int, bound: int, tick: Callable[[], None]) -> np.ndarray:
    """`steps` of tabu search in slices, stopping once the spread meets its bound and
    every restriction holds."""
    best = search.group.copy()
    best_cost = search.cost
    left = steps
    while left > 0:
        slice_ = min(CHECK_EVERY, left)
        group, cost = search.run(slice_, tick)
        left -= slice_
        if cost < best_cost:
            best, best_cost = group, cost
        if _at_bound(search.problem, best, bound):
            break
    return best


def _at_bound(problem: Problem, group: np.ndarray, bound: int) -> bool:
    values = normal_values(problem, group)
    spread = int(values.max() - values.min()) if len(values) else 0
    return spread <= bound and _restriction_cost(problem, group) == 0


def _restriction_cost(problem: Problem, group: np.ndarray) -> int:
    """Meetings of pairs kept apart plus rounds a pair kept together is split."""
    met = meetings(group, problem.shape.tables)
    apart = int(met[problem.kind == APART].sum()) // 2
    playing = (group >= 0).astype(np.int64)
    both = playing.T @ playing
    together = problem.kind == TOGETHER
    return apart + int((both - met)[together].sum()) // 2


def _bound(problem: Problem, group: np.ndarray) -> int:
    """The pair-spread bound for the games each player gets in this grouping."""
    games = (group >= 0).sum(axis=0)
    free = problem.kind == NORMAL
    np.fill_diagonal(free, False)
    return pair_bound(games, free, problem.shape.tables)
