"""Seat numbers for table groups already fixed.

Players and games form a bipartite graph (an edge where a player plays a game); a seat
numbering is a colouring of its edges with the ten seats in which every game uses each
seat once. Splitting each player into copies of at most ten consecutive games leaves a
graph of largest degree ten, and a bipartite graph can always be edge-coloured with as
many colours as its largest degree (König; here by alternating-path recolouring). Every
copy then holds each seat at most once: a player with g games sits on each seat number
⌊g/10⌋ or ⌈g/10⌉ times — the best possible — and never twice on one seat within ten
consecutive games.

Then the seat groups 1–3 / 4–7 / 8–10 are evened out between players by flipping
alternating paths of two seats s and t (a Kempe chain): every game keeps each seat once,
and only the two ends of the path change — one player trades a seat of one group for one
of the other, and so does the player at the far end, the other way. Only the last copy
of a player misses seats, so every seat count stays ⌊g/10⌋ … ⌈g/10⌉.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .model import SEAT_GROUPS, SEATS

Games = Sequence[Sequence[int]]  # each game's ten players, in any order
GROUP_OF_SEAT = tuple(next(i for i, g in enumerate(SEAT_GROUPS) if s + 1 in g) for s in range(10))
MAX_FLIPS = 20_000
NEUTRAL_WALKS = 30  # times to wander when no flip improves
NEUTRAL_STEPS = 3  # neutral flips a wander makes


def _spread(counts: np.ndarray) -> int:
    """The largest spread between players over the seat groups."""
    return int((counts.max(axis=0) - counts.min(axis=0)).max())


class Colouring:
    """The seat of every (copy of a player, game) edge, kept from both ends."""

    def __init__(self, games: Games, players: int) -> None:
        copy_of: dict[tuple[int, int], int] = {}
        played = [0] * players
        self.edges: list[tuple[int, int]] = []  # (copy, game)
        for g, game in enumerate(games):
            for p in game:
                key = (p, played[p] // SEATS)
                played[p] += 1
                self.edges.append((copy_of.setdefault(key, len(copy_of)), g))
        self.owner = [0] * len(copy_of)
        for (p, _), copy in copy_of.items():
            self.owner[copy] = p
        self.players = players
        self.at_copy: list[list[int | None]] = [[None] * SEATS for _ in copy_of]  # seat → game
        self.at_game: list[list[int | None]] = [[None] * SEATS for _ in games]  # seat → copy

    def colour_all(self, rng: np.random.Generator) -> None:
        for e in rng.permutation(len(self.edges)):
            self._colour(self.edges[int(e)], rng)

    def _colour(self, edge: tuple[int, int], rng: np.random.Generator) -> None:
        """Colour one edge, flipping an alternating path when no seat is free at both ends."""
        copy, game = edge
        free_copy = [c for c in range(SEATS) if self.at_copy[copy][c] is None]
        both = [c for c in free_copy if self.at_game[game][c] is None]
        if both:
            seat = both[int(rng.integers(len(both)))]
        else:
            free_game = [c for c in range(SEATS) if self.at_game[game][c] is None]
            seat = free_copy[int(rng.integers(len(free_copy)))]
            other = free_game[int(rng.integers(len(free_game)))]
            self._flip(self._path(game, seat, other, from_game=True), seat, other)
        self.at_copy[copy][seat] = game
        self.at_game[game][seat] = copy

    def _path(self, start: int, a: int, b: int, from_game: bool) -> list[tuple[int, int, int]]:
        """The (game, copy, seat) edges of the path that leaves `start` by its a-edge and
        alternates a, b. It leaves a game by a and a copy by b when `from_game`, the other
        way round otherwise; it cannot come back to `start`, which misses b."""
        path: list[tuple[int, int, int]] = []
        node, seat, on_game = start, a, from_game
        while True:
            nxt = (self.at_game if on_game else self.at_copy)[node][seat]
            if nxt is None:
                return path
            path.append((node, nxt, seat) if on_game else (nxt, node, seat))
            node, seat, on_game = nxt, (b if seat == a else a), not on_game

    def _flip(self, path: list[tuple[int, int, int]], a: int, b: int) -> None:
        for game, copy, seat in path:
            self.at_game[game][seat] = None
            self.at_copy[copy][seat] = None
        for game, copy, seat in path:
            swapped = b if seat == a else a
            self.at_game[game][swapped] = copy
            self.at_copy[copy][swapped] = game

    def seated(self) -> list[list[int]]:
        """Each game's players in seat order."""
        return [[self.owner[c] for c in seats if c is not None] for seats in self.at_game]

    # ---- the seat groups evened out ---------------------------------------------------

    def group_counts(self) -> np.ndarray:
        counts = np.zeros((self.players, len(SEAT_GROUPS)), dtype=np.int64)
        for copy, seats in enumerate(self.at_copy):
            for seat, game in enumerate(seats):
                if game is not None:
                    counts[self.owner[copy], GROUP_OF_SEAT[seat]] += 1
        return counts

    def balance(self, rng: np.random.Generator) -> None:
        """Flip improving Kempe chains until none is left; when stuck, a few flips that
        change nothing (an extra seat passed on to another player) let the next improving
        one be found (at most MAX_FLIPS flips, NEUTRAL_WALKS walks)."""
        counts = self.group_counts()
        target = counts.mean(axis=0)
        partial = [c for c, seats in enumerate(self.at_copy) if None in seats]
        floor = int(any(not float(t).is_integer() for t in target))  # the least spread
        walks = 0
        for _ in range(MAX_FLIPS):
            if self._improve(partial, counts, target, rng):
                continue
            walks += 1
            if walks > NEUTRAL_WALKS or _spread(counts) <= floor:
                return
            for _ in range(NEUTRAL_STEPS):
                self._improve(partial, counts, target, rng, slack=1e-9)

    def _improve(
        self,
        partial: list[int],
        counts: np.ndarray,
        target: np.ndarray,
        rng: np.random.Generator,
        slack: float = -1e-9,
    ) -> bool:
        """One flip from some partial copy that changes the squared distance from the
        average by less than `slack` (improving by default), if there is one."""
        for copy in rng.permutation(partial):
            copy = int(copy)
            seats = self.at_copy[copy]
            held = [s for s in range(SEATS) if seats[s] is not None]
            missing = [s for s in range(SEATS) if seats[s] is None]
            for a in rng.permutation(held):
                for b in rng.permutation(missing):
                    a, b = int(a), int(b)
                    if GROUP_OF_SEAT[a] != GROUP_OF_SEAT[b] and self._try(
                        copy, (a, b), counts, target, slack
                    ):
                        return True
        return False

    def _try(
        self,
        copy: int,
        seats: tuple[int, int],
        counts: np.ndarray,
        target: np.ndarray,
        slack: float,
    ) -> bool:
        """Flip the a/b chain from `copy` when the two players at its ends gain by it."""
        a, b = seats
        path = self._path(copy, a, b, from_game=False)
        end = path[-1][1]  # the path leaves copies by a, so it ends at a copy after b
        u, v = self.owner[copy], self.owner[end]
        ga, gb = GROUP_OF_SEAT[a], GROUP_OF_SEAT[b]
        if u == v:
            return False
        change = np.zeros_like(counts[[u, v]])
        change[0, ga], change[0, gb] = -1, 1
        change[1, ga], change[1, gb] = 1, -1
        before = ((counts[[u, v]] - target) ** 2).sum()
        after = ((counts[[u, v]] + change - target) ** 2).sum()
        if after >= before + slack:
            return False
        self._flip(path, a, b)
        counts[[u, v]] += change
        return True


def assign_seats(games: Games, players: int, rng: np.random.Generator) -> list[list[int]]:
    """Each game's players in seat order: every seat count even, the seat groups evened.

    `games` in playing order (round by round), so that a player's copies are runs of ten
    consecutive games."""
    colouring = Colouring(games, players)
    colouring.colour_all(rng)
    colouring.balance(rng)
    return colouring.seated()
