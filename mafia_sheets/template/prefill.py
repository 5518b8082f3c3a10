"""A protocol pre-filled from a seating: every game with its round, table and the ten
nicknames in seat order, ready for the results, in any layout.

Games are numbered 1 … N through the tournament, round by round and table by table; the
roster carries each player's club, team, judged rounds and other spellings, so that the
protocol knows them when the results come in.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..seating.model import Entrant, Schedule
from .layouts import GameData, SeatData, write_games
from .roster import PlayerRow


def seated_games(schedule: Schedule) -> list[tuple[int, int, int, tuple[str, ...]]]:
    """(game, round, table, ten nicknames) of every game of the schedule."""
    games: list[tuple[int, int, int, tuple[str, ...]]] = []
    for r, tables in enumerate(schedule.rounds):
        for number, table in zip(schedule.table_numbers[r], tables, strict=True):
            names = tuple(schedule.names[p] for p in table)
            games.append((len(games) + 1, r + 1, number, names))
    return games


def roster_of(schedule: Schedule, entrants: Sequence[Entrant]) -> list[PlayerRow]:
    """The schedule's players as roster rows, with what the roster said about each."""
    known = {e.name: e for e in entrants}
    rows = []
    for name in schedule.names:
        entrant = known.get(name, Entrant(name))
        rows.append(
            PlayerRow(
                name,
                entrant.club,
                entrant.city,
                entrant.team,
                rounds_text(entrant.judges),
                ", ".join(entrant.aliases),
            )
        )
    return rows


def rounds_text(rounds: frozenset[int]) -> str:
    """{1, 3, 4, 5} → `1, 3–5`.

    >>> rounds_text(frozenset({1, 3, 4, 5}))
    '1, 3–5'
    """
    runs: list[list[int]] = []
    for number in sorted(rounds):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def prefilled_protocol(
    schedule: Schedule, entrants: Sequence[Entrant], layout: str, lang: str
) -> bytes:
    """The protocol workbook of the schedule in `layout` (rows, blank or wide)."""
    games = seated_games(schedule)
    players = roster_of(schedule, entrants)
    data = [
        GameData(str(game), round=rnd, table=table, seats=[SeatData(n) for n in names])
        for game, rnd, table, names in games
    ]
    return write_games(layout, data, lang, players)
