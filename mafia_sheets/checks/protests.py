"""SPEC §4.3, regulation 8.7: protests — the filing deadline, unknown games, pending ones.

«Окончание» and «Подан» are often typed as bare times (21:45), sometimes as date-times;
a bare time is read on 1900-01-01 (an Excel serial below 1 on 1899-12-30). When either is
a bare time, only the clock is compared, and a protest filed at 00:03 for a game that
ended at 23:55 was filed 8 minutes later, the next day. A protest whose time is more than
12 hours *before* the end on the clock is read as filed the next day; one a few minutes
before the end is reported as filed before the end (most likely a typo in one of them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pandas as pd

from ..findings import Finding, define
from ..model import Table
from ..reading.values import is_blank
from ..text import Text
from . import check
from .gate import Context, at_rows

DAY_SECONDS = 24 * 60 * 60

UNKNOWN_GAME = define(
    "protest-unknown-game",
    "error",
    Text(
        "Протест по игре «{value}», которой нет на листе «Игры»",
        "A protest about game “{value}”, which is not in the Games sheet",
    ),
    Text("номер игры с листа «Игры»", "a game id from the Games sheet"),
    Text("Исправьте номер игры в протесте", "Fix the game id of the protest"),
)
LATE = define(
    "protest-late",
    "warning",
    Text(
        "Протест подан через {minutes} мин после окончания игры {game} ({ended})",
        "The protest was filed {minutes} min after game {game} ended ({ended})",
    ),
    Text(
        "не позднее {deadline} мин после окончания игры (регламент 8.7.1)",
        "within {deadline} min of the end of the game (rule 8.7.1)",
    ),
    Text(
        "Протест подан с опозданием: главный судья может его не рассматривать; "
        "проверьте время подачи и окончания игры",
        "The protest is late: the chief judge may decline it; check the filing and end times",
    ),
)
BEFORE_END = define(
    "protest-before-end",
    "warning",
    Text(
        "Протест подан за {minutes} мин до окончания игры {game} ({ended})",
        "The protest was filed {minutes} min before game {game} ended ({ended})",
    ),
    Text(
        "протест подаётся по окончании игры (регламент 8.7.1)",
        "a protest is filed after the game ends (rule 8.7.1)",
    ),
    Text(
        "Проверьте время подачи протеста и время окончания игры",
        "Check the filing time of the protest and the end time of the game",
    ),
)
PENDING = define(
    "protest-pending",
    "warning",
    Text(
        "Протест по игре {game} ещё на рассмотрении — итоги предварительные",
        "The protest about game {game} is pending — the results are provisional",
    ),
    Text("решение по протесту: отклонён или удовлетворён", "a decision: rejected or upheld"),
    Text(
        "Впишите решение, когда главный судья или апелляционная комиссия его примут",
        "Enter the decision once the chief judge or the appeals commission makes it",
    ),
)
NO_DECISION = define(
    "protest-no-decision",
    "warning",
    Text(
        "У протеста по игре {game} не записано решение: до решения итоги предварительные",
        "The protest about game {game} has no decision: the results are provisional until it "
        "is decided",
    ),
    Text("на рассмотрении, отклонён или удовлетворён", "pending, rejected or upheld"),
    Text(
        "Впишите решение; пока протест не решён, пишите «на рассмотрении»",
        "Enter the decision; while it is open, write “pending”",
    ),
)
NO_FILED_TIME = define(
    "protest-no-time",
    "warning",
    Text("Не указано время подачи протеста", "The protest has no filing time"),
    Text(
        "время ЧЧ:ММ (срок — {deadline} мин после игры)",
        "a time HH:MM (due within {deadline} min of the game)",
    ),
    Text("Впишите время подачи с бланка протокола", "Enter the filing time from the paper form"),
)
NO_END_TIME = define(
    "game-end-missing",
    "warning",
    Text(
        "По игре {game} подан протест, но не указано время окончания игры",
        "Game {game} has a protest but no end time",
    ),
    Text(
        "время окончания ЧЧ:ММ — от него считается срок протеста",
        "an end time HH:MM — the protest deadline counts from it",
    ),
    Text("Впишите время окончания игры {game}", "Enter the end time of game {game}"),
)


@check(BEFORE_END, LATE, NO_DECISION, NO_END_TIME, NO_FILED_TIME, PENDING, UNKNOWN_GAME)
def protests(context: Context) -> Iterator[Finding]:
    table = context.protocol.table("protests")
    if table is None:
        return
    frame = table.frame[table.frame["game"].notna()]
    games = context.protocol.table("games")
    listed = (
        games.frame[games.frame["game"].notna()].drop_duplicates("game")
        if games is not None
        else pd.DataFrame(columns=["game", "ended", "_row"])
    )
    known = frame["game"].isin(set(listed["game"]))
    yield from at_rows(table, UNKNOWN_GAME, "game", frame[~known])
    yield from at_rows(table, PENDING, "decision", frame[frame["decision"].eq("pending")])
    undecided = frame["decision"].isna() & ~_typed(table, "decision", frame)
    yield from at_rows(table, NO_DECISION, "decision", frame[undecided])
    deadline = context.protocol.rules.protest_deadline_minutes
    untimed = frame["filed"].isna() & ~_typed(table, "filed", frame)
    yield from at_rows(table, NO_FILED_TIME, "filed", frame[untimed], deadline=deadline)
    if games is not None:
        yield from _deadlines(table, games, frame[known], listed, deadline)


def _typed(table: Table, column: str, frame: pd.DataFrame) -> pd.Series:
    """Something was typed in the cell (an unreadable value is the parser's finding)."""
    if column not in table.raw:
        return pd.Series(False, index=frame.index)
    raw = table.raw[column].reindex(frame.index)
    return raw.map(lambda value: not is_blank(value)).astype(bool)


def _deadlines(
    table: Table, games: Table, frame: pd.DataFrame, listed: pd.DataFrame, deadline: int
) -> Iterator[Finding]:
    ended = listed.set_index("game")["ended"]
    no_end = listed[listed["game"].isin(set(frame["game"])) & listed["ended"].isna()]
    yield from at_rows(games, NO_END_TIME, "ended", no_end[~_typed(games, "ended", no_end)])
    # a protests sheet has a handful of rows: plain Python per protest is clear and cheap
    for index, game, filed in zip(frame.index, frame["game"], frame["filed"], strict=True):
        end = ended.get(game)
        minutes = minutes_after(_datetime(filed), _datetime(end))
        if minutes is None:
            continue
        row = frame.loc[[index]]
        shown = _clock(_datetime(end))
        if minutes > deadline:
            yield from at_rows(
                table, LATE, "filed", row, minutes=_number(minutes), deadline=deadline, ended=shown
            )
        elif minutes < 0:
            yield from at_rows(
                table, BEFORE_END, "filed", row, minutes=_number(-minutes), ended=shown
            )


def minutes_after(filed: dt.datetime | None, ended: dt.datetime | None) -> float | None:
    """Minutes from the end of the game to the protest; negative when filed before the end.

    >>> minutes_after(dt.datetime(1900, 1, 1, 0, 3), dt.datetime(1900, 1, 1, 23, 55))
    8.0
    """
    if filed is None or ended is None:
        return None
    if _time_only(filed) or _time_only(ended):
        seconds = (_seconds(filed) - _seconds(ended)) % DAY_SECONDS
        if seconds > DAY_SECONDS / 2:  # on the clock, before the end: the same evening
            seconds -= DAY_SECONDS
        return seconds / 60
    return (filed - ended).total_seconds() / 60


def _time_only(moment: dt.datetime) -> bool:
    return moment.year <= 1900


def _seconds(moment: dt.datetime) -> float:
    return moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 1e6


def _datetime(value: object) -> dt.datetime | None:
    if value is None or value is pd.NaT or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    return value if isinstance(value, dt.datetime) else None


def _clock(moment: dt.datetime | None) -> str:
    if moment is None:
        return ""
    return moment.strftime("%H:%M") if _time_only(moment) else moment.strftime("%d.%m.%Y %H:%M")


def _number(minutes: float) -> str:
    return f"{minutes:g}" if minutes != int(minutes) else str(int(minutes))
