"""The records of the seating stage: who is seated, the shape, the restrictions, the plan.

Players are numbered 0 … P−1 in roster order inside the stage; names appear only at the
edges (reading a roster or a schedule, writing one), so the searches work on arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text import Text

SEATS = 10  # players at a table, seats 1–10
# Seat groups that play alike: the first speakers, the middle, the last speakers.
SEAT_GROUPS: tuple[tuple[int, ...], ...] = ((1, 2, 3), (4, 5, 6, 7), (8, 9, 10))
GROUP_NAMES = ("1-3", "4-7", "8-10")
# A player known by number only (a player count, or a schedule of numbers)
PLAYER_NAME = Text("Игрок {n}", "Player {n}")


@dataclass(frozen=True)
class Entrant:
    """One roster line as seating reads it: a nickname and what restricts its seating.

    `judges` are the rounds this player judges a table and so cannot play; `aliases` are
    the other spellings of the nickname (carried into the pre-filled protocol's roster)."""

    name: str
    club: str = ""
    team: str = ""
    city: str = ""
    judges: frozenset[int] = frozenset()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Shape:
    """How many players and, round by round, how many tables of ten."""

    players: int
    tables: tuple[int, ...]

    @property
    def rounds(self) -> int:
        return len(self.tables)

    @property
    def games(self) -> int:
        return sum(self.tables)

    @property
    def seats(self) -> int:
        """Seats over the whole tournament: each game seats ten."""
        return SEATS * self.games


@dataclass(frozen=True)
class Pair:
    """Two players (by number, `a` < `b`) and why they must sit apart or together."""

    a: int
    b: int
    reason: Text


@dataclass(frozen=True)
class Restrictions:
    """What the schedule must honour before anything else.

    `apart`: never at one table (one club or team, `--apart`); `together`: at one table in
    every round both play (`--together`); `away`: (player, round) pairs — a judge who is
    also a player judges that round and does not play it (round numbers from 0)."""

    apart: tuple[Pair, ...] = ()
    together: tuple[Pair, ...] = ()
    away: frozenset[tuple[int, int]] = frozenset()

    @property
    def empty(self) -> bool:
        return not (self.apart or self.together or self.away)


@dataclass(frozen=True)
class Schedule:
    """A seating plan: per round, per table, the ten players in seat order (1 … 10).

    `table_numbers` are the numbers shown for each round's tables (1 … T unless a schedule
    read from a file numbers them otherwise)."""

    names: tuple[str, ...]
    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    table_numbers: tuple[tuple[int, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.table_numbers:
            numbers = tuple(tuple(range(1, len(r) + 1)) for r in self.rounds)
            object.__setattr__(self, "table_numbers", numbers)

    @property
    def shape(self) -> Shape:
        return Shape(len(self.names), tuple(len(tables) for tables in self.rounds))

    def out(self, round_index: int) -> tuple[int, ...]:
        """Who sits out a round, in roster order."""
        seated = {p for table in self.rounds[round_index] for p in table}
        return tuple(p for p in range(len(self.names)) if p not in seated)

    def seat_of(self, player: int, round_index: int) -> tuple[int, int] | None:
        """(table number, seat 1–10) of a player in a round; None when sitting out."""
        for index, table in enumerate(self.rounds[round_index]):
            if player in table:
                return self.table_numbers[round_index][index], table.index(player) + 1
        return None
