"""Who plays with whom: the table groups of every round, before any seat is numbered.

The groups are searched as one array `group[round, player]` (the table, or −1 for a
player sitting out) and judged by the meetings matrix `M[i, j]` (rounds that i and j
share a table). Each pair costs `curve[M]`, a convex curve around the average meeting
count, so that the most even spread costs least; pairs that must sit apart cost `BIG`
per meeting, pairs that must sit together earn it.

The search is tabu search over swaps of two players between two groups of one round
(one of them may be the players sitting out). For one round every swap is priced at once
with numpy: with `F1[p, z]` the cost of one more meeting of p and z and `F0[p, z]` of
one less, moving x from group A to B and y from B to A costs

    L[x] + L[y] + G[x, B] + G[y, A] − F1[x, y]·(A real + B real)

where `G[p, k]` sums F1 of p over group k and `L[p]` sums F0 of p over its own group
(a group of players sitting out meets nobody). A swap with a player sitting out changes
two players' games: a count outside the player's bounds costs `GAMES_WEIGHT` per game
squared (with restrictions, as much as a broken one), so the search may pass through
uneven counts (strategic oscillation: where the
counts must be exactly equal, the sit-outs of two rounds trade places in two steps), but
only groupings with every count within bounds are kept as results.

After the plain search the spread of the meetings is squeezed: the rarer extreme value
is priced out (`band`), and the result kept only when no pair is left outside it. A search
with a band remembers the groups with the fewest pairs outside it first and the lowest
cost second, so that a band priced gently can be crossed on the way and still kept to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .model import SEATS, Shape

Progress = Callable[[float], None]
NORMAL, APART, TOGETHER = 0, 1, 2
EPS = 1e-9
BAND_WEIGHT = 40.0
GAMES_WEIGHT = 3.0
TENURE_SWAPS = 400.0  # swaps in a round (≈ players²) up to which the full tabu list holds
RESTING_WEIGHT = 5.0  # a player sitting out two rounds running: rotation, after the pairs


Key = tuple[float, float]  # (pairs outside the band, cost): the smaller the better
NOWHERE: Key = (np.inf, np.inf)


def tenure(shape: Shape) -> float:
    """Steps a swapped player stays off its old group, per unit of the drawn 4 … 9: a
    few visits of the round on small rosters, where a short tabu list cycles; under one
    visit on large ones, where each step has thousands of swaps to choose from and the
    random order of the rounds is diversification enough."""
    return len(shape.tables) * TENURE_SWAPS / max(TENURE_SWAPS, shape.players * shape.players)


@dataclass(frozen=True)
class Problem:
    """The search's input: the shape, per-player game bounds, who may play each round and
    the kind of every pair (NORMAL, APART, TOGETHER)."""

    shape: Shape
    low: np.ndarray  # fewest games each player may get
    high: np.ndarray  # most games each player may get
    available: np.ndarray  # bool [rounds, players]
    kind: np.ndarray  # int [players, players]

    @property
    def average(self) -> float:
        """Average meetings of a pair that carries no restriction."""
        pairs = self.shape.players * (self.shape.players - 1) / 2
        return 45.0 * self.shape.games / max(pairs, 1)


def pair_curve(
    average: float, top: int, band: tuple[int, int] | None = None, weight: float = BAND_WEIGHT
) -> np.ndarray:
    """The cost of a pair meeting c times, c = 0 … top + 2: (c − average)², and a rise of
    `weight` per step outside `band` when one is given.

    With the total of the meetings fixed, Σ (c − average)² orders groupings as Σ c² does:
    when no pair meets more than twice, Σ c² = 2·(pairs meeting twice) + the total, and
    the pairs meeting twice are the pairs never met plus a constant, so the least cost is
    the fewest pairs that never meet."""
    c = np.arange(top + 3, dtype=float)
    cost = (c - average) ** 2
    if band is not None:
        cost = cost + weight * (outside_band(c, band) ** 2 + outside_band(c, band))
    return cost


def outside_band(c: np.ndarray, band: tuple[int, int]) -> np.ndarray:
    """How far each count lies outside `band` (0 inside)."""
    return np.asarray(np.maximum(band[0] - c, 0) + np.maximum(c - band[1], 0))


def meetings(group: np.ndarray, tables: tuple[int, ...]) -> np.ndarray:
    """M[i, j]: the rounds i and j share a table (0 on the diagonal)."""
    players = group.shape[1]
    met = np.zeros((players, players), dtype=np.int64)
    for r, count in enumerate(tables):
        for t in range(count):
            seated = np.flatnonzero(group[r] == t)
            met[np.ix_(seated, seated)] += 1
    np.fill_diagonal(met, 0)
    return met


def normal_values(problem: Problem, group: np.ndarray) -> np.ndarray:
    """The meeting counts of every unrestricted pair."""
    met = meetings(group, problem.shape.tables)
    upper = np.triu_indices(problem.shape.players, 1)
    return np.asarray(met[upper][problem.kind[upper] == NORMAL])


class Search:
    """The state of one tabu search: groups, meetings, per-pair price rows, tabu list."""

    def __init__(self, problem: Problem, group: np.ndarray, rng: np.random.Generator) -> None:
        self.problem = problem
        self.rng = rng
        self.tables = problem.shape.tables
        players = problem.shape.players
        self.normal = problem.kind == NORMAL
        np.fill_diagonal(self.normal, False)
        self.big = 0.0
        self.games_weight = GAMES_WEIGHT
        self.sign = np.zeros((players, players))
        self.tabu = np.zeros((len(self.tables), players, max(self.tables) + 1), dtype=np.int64)
        self.it = 0
        self.tenure = tenure(problem.shape)
        self.load(group, pair_curve(problem.average, len(self.tables)))

    def load(
        self, group: np.ndarray, curve: np.ndarray, band: tuple[int, int] | None = None
    ) -> None:
        """Start from `group` priced by `curve` (also resets the totals); `band`, when
        given, is the range the unrestricted pairs' meetings are to keep to."""
        self.group = group.copy()
        counts = np.arange(len(curve))
        self.outside = (
            np.zeros(len(curve), dtype=bool) if band is None else (outside_band(counts, band) > 0)
        )
        self.games = (group >= 0).sum(axis=0)
        self.met = meetings(group, self.tables)
        self.curve = curve
        # a restriction outweighs every unrestricted pair a swap can touch
        self.big = 100.0 * 4 * SEATS * float(np.abs(np.diff(curve)).max() + 1.0)
        kind = self.problem.kind
        self.sign = np.where(kind == APART, self.big, np.where(kind == TOGETHER, -self.big, 0.0))
        np.fill_diagonal(self.sign, 0.0)
        # with restrictions, an uneven count weighs as much as a broken one: the search may
        # still trade them in passing, but never settles on uneven games to spare a pair
        restricted = bool((kind != NORMAL).any())
        self.games_weight = max(GAMES_WEIGHT, self.big / 2) if restricted else GAMES_WEIGHT
        met = self.met
        self.up = np.where(self.normal, curve[met + 1] - curve[met], self.sign)
        self.down = np.where(self.normal, curve[np.maximum(met - 1, 0)] - curve[met], -self.sign)
        self.cost = self.total()

    def total(self) -> float:
        upper = np.triu_indices(self.problem.shape.players, 1)
        priced = np.where(self.normal, self.curve[self.met], self.sign * self.met)
        resting = (self.group < 0) & self.problem.available  # sitting out, free to play
        twice = float((resting[1:] & resting[:-1]).sum()) * RESTING_WEIGHT
        return float(priced[upper].sum()) + float(self._uneven(self.games).sum()) + twice

    def _uneven(self, games: np.ndarray) -> np.ndarray:
        """The price of each player's game count: 0 within bounds."""
        off = np.maximum(self.problem.low - games, 0) + np.maximum(games - self.problem.high, 0)
        return np.asarray(self.games_weight * off * off)

    def strays(self) -> int:
        """Unrestricted pairs whose meetings lie outside the band."""
        return int(np.count_nonzero(self.outside[self.met] & self.normal)) // 2

    @property
    def even(self) -> bool:
        """Every player's game count within its bounds."""
        return bool(((self.games >= self.problem.low) & (self.games <= self.problem.high)).all())

    def _refresh(self, p: int) -> None:
        row, curve = self.met[p], self.curve
        self.up[p] = np.where(self.normal[p], curve[row + 1] - curve[row], self.sign[p])
        self.up[:, p] = self.up[p]
        low = curve[np.maximum(row - 1, 0)] - curve[row]
        self.down[p] = np.where(self.normal[p], low, -self.sign[p])
        self.down[:, p] = self.down[p]

    def seat(self, r: int, p: int, t: int) -> None:
        """Seat p (sitting out so far) at table t of round r: the constructive start."""
        mates = np.flatnonzero(self.group[r] == t)
        self.met[p, mates] += 1
        self.met[mates, p] += 1
        self.group[r, p] = t
        self.games[p] += 1
        self._refresh(p)

    # ---- one round's swaps, all priced at once ------------------------------------------

    def _members(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Each player's group in round r (sitting out = the last group) and the tables'
        members as a [tables, 10] array."""
        count = self.tables[r]
        group = np.where(self.group[r] < 0, count, self.group[r])
        order = np.argsort(group, kind="stable")
        return group, order[: count * SEATS].reshape(count, SEATS)

    def _prices(self, r: int, best: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Δcost of every swap of round r (inf where not allowed), groups and members."""
        players, count = self.problem.shape.players, self.tables[r]
        group, members = self._members(r)
        real = group < count
        gain = np.zeros((players, count + 1))
        gain[:, :count] = self.up[:, members].sum(axis=2)
        own = self.down[:, members].sum(axis=2)
        loss = np.where(real, own[np.arange(players), np.minimum(group, count - 1)], 0.0)
        half = loss[:, None] + gain[:, group]
        flags = real.astype(float)
        delta = half + half.T - self.up * (flags[:, None] + flags[None, :])
        blocked = group[:, None] == group[None, :]
        if not real.all():
            delta += self._game_prices(r, real)
            blocked |= ~self._allowed(r, real)
        tabu = self.tabu[r][:, group]
        later = tabu > self.it
        forbidden = later | later.T
        forbidden &= self.cost + delta >= best - EPS  # aspiration: a new best is never tabu
        delta[blocked | forbidden] = np.inf
        return delta, group, members

    def _game_prices(self, r: int, real: np.ndarray) -> np.ndarray:
        """Δ of the game-count prices for every swap of a seated and a sitting-out player."""
        now = self._uneven(self.games)
        leave = np.where(real, self._uneven(self.games - 1) - now, 0.0)
        join = np.where(real, 0.0, self._uneven(self.games + 1) - now)
        out_in = leave[:, None] + join[None, :]
        out_in = out_in + self._resting_prices(r, real)
        crossing = real[:, None] & ~real[None, :]
        prices = np.where(crossing, out_in, 0.0)
        return prices + prices.T

    def _resting_prices(self, r: int, real: np.ndarray) -> np.ndarray:
        """Δ of sitting out twice running when x (seated) and y (sitting out) trade places
        in round r: x now rests beside its resting neighbours, y no longer does."""
        beside = np.zeros(len(real))
        for other in (r - 1, r + 1):
            if 0 <= other < self.group.shape[0]:
                beside += (self.group[other] < 0) & self.problem.available[other]
        beside = beside * RESTING_WEIGHT
        return np.asarray(
            np.where(real, beside, 0.0)[:, None] - np.where(real, 0.0, beside)[None, :]
        )

    def _allowed(self, r: int, real: np.ndarray) -> np.ndarray:
        """A player sitting out may take a seat only in a round they are free to play."""
        join = ~real & self.problem.available[r]
        out_in = real[:, None] & join[None, :]
        return np.asarray((real[:, None] & real[None, :]) | out_in | out_in.T)

    def step(self, r: int, best: float) -> None:
        """The best allowed swap of round r, then any other improving swaps between
        groups it did not touch (their prices are unchanged)."""
        delta, group, members = self._prices(r, best)
        players, moved = self.problem.shape.players, 0
        while True:
            price = float(delta.min())
            if not np.isfinite(price) or (moved and price >= -EPS):
                break
            ties = np.flatnonzero(delta <= price + EPS)
            x, y = divmod(int(ties[self.rng.integers(len(ties))]), players)
            gx, gy = int(group[x]), int(group[y])
            self._swap(r, x, y, members)
            self.cost += price
            moved += 1
            tenure = int((4 + int(self.rng.integers(6))) * self.tenure)
            self.tabu[r, x, gx] = self.tabu[r, y, gy] = self.it + tenure
            touched = (group == gx) | (group == gy)
            delta[touched, :] = np.inf
            delta[:, touched] = np.inf
            if price >= 0:
                break
        self.it += 1

    def _swap(self, r: int, x: int, y: int, members: np.ndarray) -> None:
        """x takes y's place in round r and y takes x's."""
        gx, gy = self.group[r, x], self.group[r, y]
        a = members[gx] if gx >= 0 else np.empty(0, dtype=np.int64)
        b = members[gy] if gy >= 0 else np.empty(0, dtype=np.int64)
        a, b = a[a != x], b[b != y]
        met = self.met
        for stay, leaving, coming in ((a, x, y), (b, y, x)):
            met[leaving, stay] -= 1
            met[stay, leaving] -= 1
            met[coming, stay] += 1
            met[stay, coming] += 1
        self.group[r, x], self.group[r, y] = gy, gx
        self.games[x] += int(gx < 0) - int(gy < 0)
        self.games[y] += int(gy < 0) - int(gx < 0)
        self._refresh(x)
        self._refresh(y)
        if gx >= 0:
            members[gx][members[gx] == x] = y
        if gy >= 0:
            members[gy][members[gy] == y] = x

    def run(self, iterations: int, tick: Callable[[], None]) -> tuple[np.ndarray, Key]:
        """`iterations` steps over the rounds in random order; the best groups seen with
        every player's games within bounds: fewest pairs outside the band, then the lowest
        cost (`NOWHERE` when none was)."""
        aspire = self.cost if self.even else np.inf  # a move below it is never tabu
        best, key = self.group.copy(), (self.strays(), self.cost) if self.even else NOWHERE
        rounds = len(self.tables)
        order = self.rng.permutation(rounds)
        for i in range(iterations):
            if i and i % rounds == 0:
                order = self.rng.permutation(rounds)
            self.step(int(order[i % rounds]), aspire)
            if self.even:
                aspire = min(aspire, self.cost)
                # counting the strays costs a pass over the pairs: only when it can matter
                if key[0] or self.cost < key[1] - EPS:
                    now = (self.strays(), self.cost)
                    if now[0] < key[0] or (now[0] == key[0] and now[1] < key[1] - EPS):
                        best, key = self.group.copy(), now
            if i % 64 == 63:
                tick()
        return best, key
