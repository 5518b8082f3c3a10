"""The two searches chained: table groups (tabu search, then the spread squeezed, then
the pairs far from the average thinned), then seat numbers (edge colouring, then seat
groups balanced).

The table groups are judged lexicographically: restrictions broken, then the spread of
the pair meetings, then Σ (meetings − average)², which, the spread held, is least with the
fewest pairs that never meet (and the fewest well above the average). Squeezing the
spread at a hard price from the plain search's best is reliable but trades many pairs that
never meet for the few pushed inside; the last stage therefore starts again from the
plain search's best and prices the pairs outside the reached band in steps (`RAMP`),
gently first, so that the search settles inside the band with far fewer empty pairs.

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
    BAND_WEIGHT,
    NORMAL,
    NOWHERE,
    TOGETHER,
    Key,
    Problem,
    Search,
    meetings,
    normal_values,
    pair_curve,
)

Progress = Callable[[float], None]
CHECK_EVERY = 256  # iterations between looks at whether the bound is reached
RAMP = (0.25, 0.5, 1.0, 2.0, 4.0, BAND_WEIGHT)  # the squeeze's prices outside the band
RARE = 0.1  # share of the pairs at the rarer extreme up to which a squeeze is tried


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


class _Budget:
    """The iterations left and the progress line they feed."""

    def __init__(self, total: int, progress: Progress) -> None:
        self.total, self.done, self.progress = total, 0, progress

    @property
    def left(self) -> int:
        return self.total - self.done

    def run(self, search: Search, steps: int) -> tuple[np.ndarray, Key]:
        """`steps` of `search` (fewer when the budget is short), counted."""
        steps = min(steps, self.left)
        begun = search.it
        found = search.run(steps, lambda: self.progress(self.share(search.it - begun)))
        self.done += steps
        return found

    def share(self, extra: int = 0) -> float:
        return min(1.0, (self.done + extra) / max(self.total, 1))


def _search_groups(
    problem: Problem, group: np.ndarray, rng: np.random.Generator, total: int, progress: Progress
) -> np.ndarray:
    """Tabu search on the plain curve for a third of the budget; then the spread
    squeezed a step at a time while that works; then, the spread held, the rest spent on
    the fewest pairs far from the average (fewest that never meet)."""
    budget = _Budget(total, progress)
    search = Search(problem, group, rng)
    bound = _bound(problem, group)
    best = _run(search, budget, total // 3, bound)
    origin = best
    while budget.left and _spread(problem, best) > max(bound, 1) and _hopeful(problem, best):
        candidate, strays = _squeeze(search, budget, best, _narrower(problem, best), total // 6)
        if candidate is not None:
            best = candidate
        elif strays > _few(problem):
            break
    if budget.left and not _perfect(problem, best):
        # the ramp from before the squeeze: a squeeze at the hard price trades many pairs
        # that never meet for the few it pushed inside
        polished, _ = _squeeze(search, budget, origin, _band(problem, best), budget.left, False)
        if polished is not None and _score(problem, polished) < _score(problem, best):
            best = polished
    progress(1.0)
    return best


def _squeeze(
    search: Search,
    budget: _Budget,
    start: np.ndarray,
    band: tuple[int, int],
    steps: int,
    narrow: bool = True,
) -> tuple[np.ndarray | None, float]:
    """The best groups inside `band` the search finds from `start` in `steps` iterations
    (None when it finds none keeping the restrictions as well as `start` does) and the
    fewest pairs it left outside: the price of a pair outside the band rises in stages,
    so that the search first drifts towards the band, then keeps to it."""
    problem = search.problem
    ramp = (BAND_WEIGHT,) if narrow else RAMP
    soft = max(steps // (2 * len(ramp) - 1), 1)  # the last, hard price gets half
    found, found_key, group, strays = None, NOWHERE, start, np.inf
    for i, weight in enumerate(ramp):
        search.load(group, pair_curve(problem.average, problem.shape.rounds, band, weight), band)
        last = i == len(ramp) - 1
        group, key = _run_band(search, budget, steps - soft * i if last else soft, last and narrow)
        strays = min(strays, key[0])
        if key[0] == 0 and key[1] < found_key[1]:
            found, found_key = group, key
    if found is None or _restriction_cost(problem, found) > _restriction_cost(problem, start):
        return None, strays
    return found, 0


def _hopeful(problem: Problem, group: np.ndarray) -> bool:
    """Whether narrowing the band is worth a try: the rarer extreme value is rare."""
    values = normal_values(problem, group)
    band = _narrower(problem, group)
    outside = int(((values < band[0]) | (values > band[1])).sum())
    return outside <= RARE * len(values)


def _few(problem: Problem) -> int:
    """Pairs left outside a band that make another try at it worthwhile."""
    return max(3, int(np.triu(problem.kind == NORMAL, 1).sum()) // 100)


def _run_band(
    search: Search, budget: _Budget, steps: int, inside: bool = False
) -> tuple[np.ndarray, Key]:
    """`steps` of tabu search in slices: the best groups seen and their key; `inside`:
    stop as soon as groups inside the band are found."""
    best, best_key = search.group.copy(), NOWHERE
    while steps > 0 and budget.left and not (inside and best_key[0] == 0):
        slice_ = min(CHECK_EVERY, steps)
        group, key = budget.run(search, slice_)
        steps -= slice_
        if key < best_key:
            best, best_key = group, key
    return best, best_key


def _run(search: Search, budget: _Budget, steps: int, bound: int) -> np.ndarray:
    """`steps` of tabu search in slices, stopping once the spread meets its bound and
    every restriction holds."""
    best, best_key = search.group.copy(), (0.0, search.cost)
    while steps > 0 and budget.left:
        slice_ = min(CHECK_EVERY, steps)
        group, key = budget.run(search, slice_)
        steps -= slice_
        if key < best_key:
            best, best_key = group, key
        if _at_bound(search.problem, best, bound):
            break
    return best


def _spread(problem: Problem, group: np.ndarray) -> int:
    values = normal_values(problem, group)
    return int(values.max() - values.min()) if len(values) else 0


def _band(problem: Problem, group: np.ndarray) -> tuple[int, int]:
    values = normal_values(problem, group)
    return (int(values.min()), int(values.max())) if len(values) else (0, 0)


def _narrower(problem: Problem, group: np.ndarray) -> tuple[int, int]:
    """The band one narrower than the grouping's, without its rarer extreme value."""
    values = normal_values(problem, group)
    low, high = int(values.min()), int(values.max())
    rarer_high = (values == high).sum() <= (values == low).sum()
    return (low, high - 1) if rarer_high else (low + 1, high)


def _perfect(problem: Problem, group: np.ndarray) -> bool:
    """Every restriction kept and the pairs' meetings within one of each other: with
    their total fixed, no grouping spreads them more evenly."""
    return _spread(problem, group) <= 1 and _restriction_cost(problem, group) == 0


def _score(problem: Problem, group: np.ndarray) -> tuple[int, int, float]:
    """What the groups are judged by, in order: restrictions, spread, the plain cost."""
    search = Search(problem, group, np.random.default_rng(0))
    return _restriction_cost(problem, group), _spread(problem, group), search.cost


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
