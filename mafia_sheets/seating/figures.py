"""The quality of a schedule, in the order it is optimised, with the lower bounds.

1. **games** — each player's games: the spread (most − fewest) cannot be below 1 when the
   seats do not divide by the players;
2. **restrictions** — pairs kept apart that met, pairs kept together that did not, judges
   seated in a round they judge;
3. **pairs** — how often two unrestricted players share a table: the spread cannot be
   below what each player's own average forces (a player with g games meets 9g others
   over P − 1 players), nor below what the variance of the meetings forces: the tables of
   two rounds overlap at least evenly, so Σ M² over the pairs has a floor, and a spread
   of s on integers holds at most a variance (μ − a)(a + s − μ); among spreads alike, the
   fewer pairs far from the average the better (Σ M² least: when no pair meets more than
   twice, the pairs meeting twice are the pairs never met plus a constant, so the fewest
   pairs that never meet); a player with g games meets at most 9g others, so at least
   (partners − 9g) of its pairs never meet;
4. **seats** — the times a player sits on one seat number: at least ⌈g/10⌉;
5. **seat groups** — each player's games on seats 1–3, 4–7 and 8–10: the spread between
   players cannot be below 1 when the group's seats do not divide by the players.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ..text import Text
from .model import SEAT_GROUPS, SEATS, Restrictions, Schedule, Shape


@dataclass(frozen=True)
class Spread:
    """Fewest, most, and the lower bound of most − fewest (None when none is known)."""

    low: int
    high: int
    bound: int | None = None

    @property
    def spread(self) -> int:
        return self.high - self.low


@dataclass(frozen=True)
class Break:
    """One restriction not honoured: its pair (or the judge alone), the round and table."""

    kind: str  # apart | together | judging
    players: tuple[int, ...]
    round: int  # from 0
    table: int | None  # the table number shown, None for a pair split across tables
    reason: Text | None  # the restriction's reason (None for a judge)


@dataclass(frozen=True)
class Figures:
    """Every quality figure of one schedule."""

    games: Spread
    per_player_games: tuple[int, ...]
    rested_twice: int  # a player sitting out two rounds running, counted once each time
    rested_bound: int
    breaks: tuple[Break, ...]
    apart_pairs: int
    breaks_bound: int  # the fewest breaks any schedule with these games has
    together_pairs: int
    judges: int
    pairs: Spread
    average: float
    never_met: int
    never_met_bound: int  # the fewest pairs that never meet any schedule with these games has
    histogram: tuple[int, ...]  # pairs meeting 0, 1, 2 … times (unrestricted pairs)
    seat_max: int
    seat_bound: int
    seat_spread: int  # largest (most − fewest) of one player's seat counts
    groups: tuple[Spread, ...]  # per seat group, between players


def measure(schedule: Schedule, restrictions: Restrictions | None = None) -> Figures:
    """The figures of `schedule`, with their lower bounds."""
    restrictions = restrictions or Restrictions()
    shape = schedule.shape
    seats = seat_counts(schedule)
    games = seats.sum(axis=1)
    met = meeting_matrix(schedule)
    free = _unrestricted(shape.players, restrictions)
    upper = np.triu_indices(shape.players, 1)
    values = met[upper][free[upper]]
    groups = np.stack([seats[:, [s - 1 for s in g]].sum(axis=1) for g in SEAT_GROUPS], axis=1)
    return Figures(
        games=Spread(int(games.min()), int(games.max()), games_bound(shape, restrictions)),
        per_player_games=tuple(int(g) for g in games),
        rested_twice=_rested_twice(schedule, restrictions),
        rested_bound=sum(
            max(0, len(schedule.out(r)) + len(schedule.out(r + 1)) - shape.players)
            for r in range(shape.rounds - 1)
        ),
        breaks=tuple(_breaks(schedule, restrictions)),
        apart_pairs=len(restrictions.apart),
        breaks_bound=breaks_bound(games, shape.tables, restrictions),
        together_pairs=len(restrictions.together),
        judges=len({p for p, _ in restrictions.away}),
        pairs=Spread(
            int(values.min()) if len(values) else 0,
            int(values.max()) if len(values) else 0,
            pair_bound(games, free, shape.tables),
        ),
        average=float(values.mean()) if len(values) else 0.0,
        never_met=int((values == 0).sum()),
        never_met_bound=never_met_bound(games, free),
        histogram=tuple(int(n) for n in np.bincount(values)) if len(values) else (),
        seat_max=int(seats.max()),
        seat_bound=int(-(-games.max() // SEATS)),
        seat_spread=int((seats.max(axis=1) - seats.min(axis=1)).max()),
        groups=tuple(
            Spread(
                int(groups[:, i].min()),
                int(groups[:, i].max()),
                int((len(g) * shape.games) % shape.players != 0),
            )
            for i, g in enumerate(SEAT_GROUPS)
        ),
    )


def breaks_bound(games: np.ndarray, tables: tuple[int, ...], restrictions: Restrictions) -> int:
    """The fewest apart pairs at one table that any schedule with these games must have.

    For a group that must sit apart pairwise (a club, a team, an `--apart A,B,C`) whose
    members play G games in all over R rounds, the round holding m of them at T tables
    puts at least Σ C(n_t, 2) pairs together (n_t spread evenly); that is convex in m,
    so spreading the G games evenly over the rounds is the least.

    >>> from mafia_sheets.text import Text
    >>> from mafia_sheets.seating.model import Pair
    >>> club = tuple(Pair(a, b, Text("", "")) for a in range(4) for b in range(a + 1, 4))
    >>> breaks_bound(np.array([7, 7, 7, 7]), (3,) * 9, Restrictions(apart=club))
    1
    """
    total = 0
    for members in _cliques(restrictions):
        played = int(sum(int(games[p]) for p in members))
        per, extra = divmod(played, len(tables))
        rounds = sorted(tables)  # the extra games go to the rounds with most tables
        for r, count in enumerate(rounds):
            total += _together(per + (r >= len(rounds) - extra), count)
    return total


def _together(players: int, tables: int) -> int:
    """Pairs at one table when `players` spread as evenly as they can over `tables`."""
    per, extra = divmod(players, tables)
    return extra * (per + 1) * per // 2 + (tables - extra) * per * (per - 1) // 2


def _cliques(restrictions: Restrictions) -> list[list[int]]:
    """The groups of players kept apart pairwise: the apart pairs of one reason that form
    a complete group (a club, a team, one `--apart A,B,C`)."""
    by_reason: dict[object, set[tuple[int, int]]] = {}
    for pair in restrictions.apart:
        by_reason.setdefault(pair.reason, set()).add((pair.a, pair.b))
    groups: list[list[int]] = []
    for pairs in by_reason.values():
        members: dict[int, set[int]] = {}
        for a, b in pairs:
            members.setdefault(a, set()).add(b)
            members.setdefault(b, set()).add(a)
        seen: set[int] = set()
        for start in sorted(members):
            if start in seen:
                continue
            group = [start, *sorted(members[start])]
            complete = all(set(group) - {p} <= members.get(p, set()) for p in group)
            if complete:
                seen.update(group)
                groups.append(group)
    return groups


def _rested_twice(schedule: Schedule, restrictions: Restrictions) -> int:
    """Times a player sits out two rounds running (a judge judging is not resting)."""
    judging = restrictions.away
    resting = [
        {p for p in schedule.out(r) if (p, r) not in judging} for r in range(len(schedule.rounds))
    ]
    return sum(len(a & b) for a, b in pairwise(resting))


def seat_counts(schedule: Schedule) -> np.ndarray:
    """counts[player, seat − 1]: how often each player sits on each seat number."""
    counts = np.zeros((len(schedule.names), SEATS), dtype=np.int64)
    for tables in schedule.rounds:
        for table in tables:
            for s, p in enumerate(table):
                counts[p, s] += 1
    return counts


def meeting_matrix(schedule: Schedule) -> np.ndarray:
    """M[i, j]: the rounds i and j share a table."""
    players = len(schedule.names)
    met = np.zeros((players, players), dtype=np.int64)
    for tables in schedule.rounds:
        for table in tables:
            seated = np.array(table, dtype=np.int64)
            met[np.ix_(seated, seated)] += 1
    np.fill_diagonal(met, 0)
    return met


def games_bound(shape: Shape, restrictions: Restrictions) -> int:
    """0 when the seats divide evenly among the players free to play them, else 1."""
    judges = {p for p, _ in restrictions.away}
    if judges:
        return 1
    return int(shape.seats % shape.players != 0)


def pair_bound(games: np.ndarray, free: np.ndarray, tables: tuple[int, ...]) -> int:
    """The least spread of the unrestricted pairs' meetings any schedule with these games
    per player can have."""
    players = len(games)
    partners = free.sum(axis=1)
    own = [((SEATS - 1) * int(g), int(n)) for g, n in zip(games, partners, strict=True) if n and g]
    if not own:
        return 0
    bound = max(math.ceil(m / n) for m, n in own) - min(m // n for m, n in own)
    if free[np.triu_indices(players, 1)].all():
        bound = max(bound, variance_bound(games, tables))
    return bound


def never_met_bound(games: np.ndarray, free: np.ndarray) -> int:
    """The fewest unrestricted pairs that never meet: a player with g games has 9g seats
    beside it, so at least (its unrestricted partners − 9g) of them it never meets; each
    such pair is counted by both its players.

    >>> never_met_bound(np.full(100, 5), ~np.eye(100, dtype=bool))
    2700
    >>> never_met_bound(np.full(100, 12), ~np.eye(100, dtype=bool))
    0
    """
    partners = free.sum(axis=1)
    alone = np.maximum(partners - (SEATS - 1) * games, 0)
    return int(-(-int(alone.sum()) // 2))


def variance_bound(games: np.ndarray, tables: tuple[int, ...]) -> int:
    """The spread the variance of the meetings forces when every pair counts.

    M_full = Σ over tables of the table's indicator times its transpose has M_ij off the
    diagonal and g_i on it; its squared norm is Σ over pairs of tables of their overlap².
    A table meets itself in 10 players, two tables of one round in none, and the tables
    of two rounds r ≠ r' share c_rr' players (those playing both), at best evenly spread,
    so Σ overlap² ≥ c_rr'² / (T_r·T_r'). Summed (Cauchy–Schwarz), with Σ c_rr' = Σ
    g_i(g_i − 1) whatever the sit-outs:

        Σ_{i≠j} M_ij² ≥ 100·Σ T_r + (Σ g_i(g_i − 1))² / Σ_{r≠r'} T_r·T_r' − Σ g_i².

    >>> variance_bound(np.full(20, 10), (2,) * 10)
    3
    """
    players = len(games)
    total, square = sum(tables), sum(t * t for t in tables)
    if players < 2 or total * total == square:
        return 0
    g = games.astype(float)
    overlap = float((g * (g - 1)).sum()) ** 2 / (total * total - square)
    squares = SEATS * SEATS * total + overlap - float((g * g).sum())
    ordered = players * (players - 1)
    mean = (SEATS - 1) * float(g.sum()) / ordered
    return variance_spread(mean, squares / ordered - mean * mean)


def variance_spread(mean: float, variance: float) -> int:
    """The least s such that some integers a … a + s with mean `mean` hold `variance`.

    >>> variance_spread(4.7368, 1.25)
    3
    """
    s = 0
    while True:
        for a in range(math.floor(mean) - s, math.floor(mean) + 1):
            if a <= mean <= a + s and (mean - a) * (a + s - mean) >= variance - 1e-9:
                return s
        s += 1


def _unrestricted(players: int, restrictions: Restrictions) -> np.ndarray:
    free = np.ones((players, players), dtype=bool)
    np.fill_diagonal(free, False)
    for pair in (*restrictions.apart, *restrictions.together):
        free[pair.a, pair.b] = free[pair.b, pair.a] = False
    return free


def _breaks(schedule: Schedule, restrictions: Restrictions) -> list[Break]:
    found: list[Break] = []
    for r, tables in enumerate(schedule.rounds):
        where = {p: i for i, table in enumerate(tables) for p in table}
        for pair in restrictions.apart:
            i = where.get(pair.a)
            if i is not None and where.get(pair.b) == i:
                number = schedule.table_numbers[r][i]
                found.append(Break("apart", (pair.a, pair.b), r, number, pair.reason))
        for pair in restrictions.together:
            i, j = where.get(pair.a), where.get(pair.b)
            if i is not None and j is not None and i != j:
                found.append(Break("together", (pair.a, pair.b), r, None, pair.reason))
    for p, r in sorted(restrictions.away, key=lambda item: (item[1], item[0])):
        if r < len(schedule.rounds):
            seat = schedule.seat_of(p, r)
            if seat is not None:
                found.append(Break("judging", (p,), r, seat[0], None))
    return found
