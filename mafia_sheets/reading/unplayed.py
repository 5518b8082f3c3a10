"""Games not played yet: mid-tournament, the template holds games nobody has typed in,
and the seating is often typed in advance.

A game listed with no result (and not annulled) whose seat rows carry nothing but seats
and nicknames — no role, foul, departure, phase, best move or award — is not played yet:
it is left out of the protocol with one note for all such games («игры 3–5 ещё не
сыграны») instead of a dozen errors each, and the rating covers what was played. The
other layouts skip such game sheets and rows the same way: the standings of the same
games never depend on the layout.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from ..findings import Finding, define, finding
from ..model import Table
from ..text import Text
from .values import is_blank

NOT_PLAYED = define(
    "games-not-played",
    "warning",
    Text(
        "Игры {games} ещё не сыграны: нет ни результата, ни ролей, ни выбываний (только "
        "рассадка) — не учтены",
        "Games {games} are not played yet: no result, no roles, no departures (the seating "
        "only) — not counted",
    ),
    Text(
        "результат и игроки каждой сыгранной игры", "a result and the players of every game played"
    ),
    Text(
        "Впишите игры, когда они сыграны; итоги пока промежуточные",
        "Enter the games once played; the standings so far are interim",
    ),
)


def drop_unplayed(
    tables: dict[str, Table], findings: list[Finding]
) -> tuple[dict[str, Table], list[Finding]]:
    """The tables without the games not played yet, the findings without their cells."""
    games, seats = tables.get("games"), tables.get("seats")
    if games is None or seats is None:
        return tables, findings
    waiting = _unplayed(games, seats)
    if not waiting:
        return tables, findings
    dropped_games = games.frame["game"].isin(waiting)
    dropped_seats = seats.frame["game"].isin(waiting)
    gone = {(games.sheet, int(r)) for r in games.frame.loc[dropped_games, "_row"]}
    gone |= {(seats.sheet, int(r)) for r in seats.frame.loc[dropped_seats, "_row"]}
    kept = [f for f in findings if (f.sheet, f.row) not in gone]
    first = games.frame[dropped_games].iloc[0]
    sheet, cell, row = games.locate("game", int(first["_row"]))
    kept.append(
        finding(
            NOT_PLAYED,
            sheet,
            cell,
            games.raw["game"].iat[int(games.frame.index[dropped_games][0])],
            row=row,
            source=games.source,
            games=_ranges(waiting),
        )
    )
    tables = {
        **tables,
        "games": _without(games, dropped_games),
        "seats": _without(seats, dropped_seats),
    }
    return tables, kept


def _unplayed(games: Table, seats: Table) -> list[object]:
    frame = games.frame
    result_blank = (
        [is_blank(v) for v in games.raw["result"]] if "result" in games.raw else [True] * len(frame)
    )
    open_games = frame[
        pd.Series(result_blank, index=frame.index)
        & ~frame["annulled"].eq(True)
        & frame["game"].notna()
    ]
    if open_games.empty:
        return []
    typed = pd.Series(False, index=seats.frame.index)
    for column in _PLAYED_COLUMNS:
        if column in seats.raw:
            typed |= pd.Series([not is_blank(v) for v in seats.raw[column]], index=typed.index)
    played = set(seats.frame.loc[typed, "game"])
    return [g for g in open_games["game"].drop_duplicates() if g not in played]


# What only a game played has: the seating (seat and nickname) may be typed in advance.
_PLAYED_COLUMNS = ("role", "fouls", "left", "when", "best_move", "bonus")


def _without(table: Table, dropped: pd.Series) -> Table:
    keep = ~dropped.to_numpy()
    frame = table.frame[keep].reset_index(drop=True)
    raw = table.raw[keep].reset_index(drop=True)
    return dataclasses.replace(table, frame=frame, raw=raw)


def _ranges(games: list[object]) -> str:
    """`[3, 4, 5, 7]` → `3–5, 7`; ids that are not numbers are listed as typed."""
    numbers = sorted(int(str(g)) for g in games if str(g).isdigit())
    others = [str(g) for g in games if not str(g).isdigit()]
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return ", ".join(parts + others)
