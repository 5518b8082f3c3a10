"""Games whose course the protocol does not record: no departure written, or only the
first night's victim — the left half of the paper form, a sheet without «Выбыл», a row
of games with the first-killed seat alone.

A decided game has at least three departures, so a file none of whose games records any
is no typo: the judge kept the result, the roles and the best move, not the games'
course (where some games record them, one that does not is an omission, judged as such).
Such a game is marked as recording no departures (`departures = "none"`), so that no
rule reading an absence (the end state, a quiet window, who stayed to the end) judges
it — said by the check `departures-not-recorded`. The best move is the first night's
victim's, so its maker is read as killed on night 1, said at the best move's cell: the
best move is paid and the first-night death counted, as the judge meant.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ..findings import Finding, define, finding
from ..model import Table
from ..text import Text
from .values import is_blank

BEST_MOVE_READ = define(
    "best-move-read-as-departure",
    "warning",
    Text(
        "Лучший ход записан месту {seat}, а выбывания игры не записаны: место {seat} "
        "прочитано как «убит в Н1»",
        "A best move is written for seat {seat} and the game's departures are not: seat "
        "{seat} is read as killed on N1",
    ),
    Text(
        "выбывание первого убитого записано в его строке (убит, Н1)",
        "the first victim's departure recorded on their row (killed, N1)",
    ),
    Text(
        "Если это верно, ничего делать не нужно; иначе запишите выбывания игры",
        "If that is right, nothing to do; otherwise record the game's departures",
    ),
)
KILLED, NIGHT_1 = "killed", 2
NOT_RECORDED = "none"  # the games sheet's `departures`: the protocol records none of them
# the `departures` of games that leave some departure unwritten: said by the judge, or read
NOT_ALL = ("partial", NOT_RECORDED)


def read_unrecorded(seats: Table, games: Table | None) -> tuple[Table, Table | None, list[Finding]]:
    """The games recording no departures (beyond the first night's victim) marked so, and
    in those with none at all the best move's maker read as killed on night 1."""
    if games is None or "departures" not in games.frame:
        return seats, games, []
    bare, none_at_all = _unrecorded_games(seats, games.frame)
    if not bare:
        return seats, games, []
    seats, found = _best_move_makers(seats, none_at_all)
    listed = games.frame.copy()
    listed.loc[listed["game"].isin(bare), "departures"] = NOT_RECORDED
    return seats, dataclasses.replace(games, frame=listed), found


def _unrecorded_games(table: Table, games: pd.DataFrame) -> tuple[set[object], set[object]]:
    """When no game of the file records a departure beyond a kill on night 1: its games
    whose judge did not say how many are recorded («Записаны выбывания»), and those of
    them with no departure at all."""
    seats = table.frame
    how = seats["left"].to_numpy(dtype=object)
    left = pd.notna(how)
    first = left & (how == KILLED) & (seats["when"].to_numpy(dtype=object) == NIGHT_1)
    if (left & ~first).any() or _unread_departures(table, left):
        return set(), set()  # departures are kept (some perhaps misspelt): judged by them
    # every departure left is a kill on night 1: one a game at most, or they are typed
    departed = (
        pd.Series(left, index=seats["game"].to_numpy(dtype=object))
        .groupby(level=0, sort=False)
        .sum()
    )
    if (departed > 1).any():
        return set(), set()
    said = set(games.loc[games["departures"].notna(), "game"])
    chosen = {game for game in departed.index if game not in said}
    return chosen, {game for game in departed.index[departed == 0] if game in chosen}


def _unread_departures(seats: Table, read: np.ndarray) -> bool:
    """Whether a «Выбыл» cell holds something its reading did not take (a misspelt
    departure is a departure written, not a game without them)."""
    raw = seats.raw.get("left")
    if raw is None:
        return False
    typed = raw.to_numpy(dtype=object)[~read]
    return any(not is_blank(value) for value in typed[pd.notna(typed)])


def _best_move_makers(seats: Table, games: set[object]) -> tuple[Table, list[Finding]]:
    """In each of `games` (no departure at all), the one row holding a best move read as
    killed on night 1 (more than one: the best move's own checks say so)."""
    frame = seats.frame
    holders = frame[frame["game"].isin(games) & frame["best_move"].notna()]
    makers = holders[~holders["game"].duplicated(keep=False)]
    if makers.empty:
        return seats, []
    frame = frame.copy()
    frame.loc[makers.index, "left"] = KILLED
    frame.loc[makers.index, "when"] = NIGHT_1
    found = []
    for index, key, game, seat in makers[["_row", "game", "seat"]].itertuples():
        sheet, cell, row = seats.locate("best_move", int(key))
        value = seats.raw.at[index, "best_move"]
        found.append(
            finding(
                BEST_MOVE_READ,
                sheet,
                cell,
                value,
                row=row,
                source=seats.source,
                game=game,
                seat=str(seat),
            )
        )
    return dataclasses.replace(seats, frame=frame), found
