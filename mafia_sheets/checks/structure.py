"""SPEC §5.1: the protocol's structure — games, seats, roles, roster. All errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, define
from ..model import Protocol, Table
from ..reading.columns import SCHEMA
from ..reading.values import BAD
from ..text import LANGS, Text
from . import check
from .gate import (
    PHASELESS,
    Context,
    at_rows,
    blank_mask,
    blank_rows,
    departure_quoted,
    first_row_per_game,
    game_ids,
)

GAME_NOT_IN_GAMES = define(
    "game-not-in-games",
    "error",
    Text(
        "Игра {game} есть в протоколе, но её нет на листе «Игры»",
        "Game {game} is in the seats sheet but not in the Games sheet",
    ),
    Text("строка игры {game} на листе «Игры»", "a row for game {game} in Games"),
    Text(
        "Добавьте игру {game} на лист «Игры» с результатом или исправьте номер игры",
        "Add game {game} to the Games sheet with its result, or fix the game id",
    ),
)
GAME_WITHOUT_SEATS = define(
    "game-without-seats",
    "error",
    Text(
        "Игра {game} есть на листе «Игры», но в протоколе нет ни одного её места",
        "Game {game} is in Games but has no seats in the protocol",
    ),
    Text("10 строк игры {game} на листе «Протокол»", "10 rows of game {game} in the seats sheet"),
    Text(
        "Внесите места 1–10 игры {game} в протокол или удалите строку",
        "Enter seats 1–10 of game {game} or delete the row",
    ),
)
DUPLICATE_GAME = define(
    "duplicate-game",
    "error",
    Text("Номер игры {game} повторяется на листе «Игры»", "Game id {game} appears twice in Games"),
    Text("уникальный номер игры", "a unique game id"),
    Text(
        "Дайте игре другой номер или удалите повтор",
        "Give the game another id or delete the duplicate",
    ),
)
DUPLICATE_SEAT = define(
    "duplicate-seat",
    "error",
    Text("Место {value} дважды в игре {game}", "Seat {value} appears twice in game {game}"),
    Text("каждое место 1–10 ровно один раз", "each seat 1–10 exactly once"),
    Text("Исправьте номер места", "Fix the seat number"),
)
MISSING_SEATS = define(
    "missing-seats",
    "error",
    Text("В игре {game} нет мест: {missing}", "Game {game} lacks seats: {missing}"),
    Text("места 1–10, каждое ровно один раз", "seats 1–10, each exactly once"),
    Text("Добавьте строки недостающих мест", "Add rows for the missing seats"),
)
PLAYER_TWICE = define(
    "player-twice",
    "error",
    Text(
        "Игрок «{value}» дважды за столом в игре {game}",
        "Player “{value}” sits twice in game {game}",
    ),
    Text("каждый игрок один раз в игре", "each player once per game"),
    Text("Исправьте ник на одном из мест", "Fix the nickname on one of the seats"),
)
ROLE_COUNT = define(
    "role-count",
    "error",
    Text("В игре {game} роли: {found}", "Game {game} has roles: {found}"),
    Text("6 мирных, 1 шериф, 2 мафии, 1 дон", "6 civilians, 1 sheriff, 2 mafia, 1 don"),
    Text(
        "Исправьте роли игры {game} (пустая роль = мирный)",
        "Fix the roles of game {game} (a blank role is a civilian)",
    ),
)
MISSING_RESULT = define(
    "missing-result",
    "error",
    Text("У игры {game} нет результата", "Game {game} has no result"),
    Text("Красные, Чёрные или Ничья", "Red, Black or Draw"),
    Text("Впишите результат игры {game}", "Enter the result of game {game}"),
)
NOT_IN_ROSTER = define(
    "not-in-roster",
    "error",
    Text("Игрока «{value}» нет на листе «Игроки»", "Player “{value}” is not in the Players sheet"),
    Text("ник из списка игроков{suggestion}", "a nickname from the roster{suggestion}"),
    Text(
        "Исправьте ник или добавьте игрока на лист «Игроки»",
        "Fix the nickname or add the player to the Players sheet",
    ),
)
LEFT_WITHOUT_WHEN = define(
    "left-without-when",
    "error",
    Text("Указано, как выбыл игрок, но не когда", "How the player left is given, but not when"),
    Text("{phase_place}", "{phase_place}"),
    Text("{phase_fix}", "{phase_fix}"),
)
# Where a sheet takes the phase of a departure, and how to give it there: a «Когда»
# column; a game sheet without one (the phase beside the departure, or the rows of
# kills by night and votes by day); a sheet of game rows, or of seat rows whose «Выбыл»
# gives phases, without one; a seats sheet without one that gives none.
_IN_CELL = Text(
    "фаза рядом с выбыванием: «убит Н1», «заголосован Д2» (столбца «Когда» на листе нет)",
    "the phase beside the departure: “killed N1”, “voted out D2” (the sheet has no When column)",
)
_PHASE_ADVICE = {
    "column": (
        Text("фаза в столбце «Когда»: Д1, Н1 …", "a phase in “When”: D1, N1 …"),
        Text("Впишите фазу выбывания или очистите «Выбыл»", "Enter the phase or clear “Left”"),
    ),
    "blank": (
        _IN_CELL,
        Text(
            "Допишите фазу в эту ячейку («убит Н1») или запишите место игрока в строку "
            "убитых по ночам или заголосованных по дням (номера ночей и дней над ней); "
            "если игрок не выбывал, очистите ячейку",
            "Add the phase to this cell (“killed N1”) or write the player's seat in the row "
            "of kills by night or of votes by day (the nights' and days' numbers over it); "
            "if the player did not leave, clear the cell",
        ),
    ),
    "wide": (
        _IN_CELL,
        Text(
            "Допишите фазу в эту ячейку («убит Н1», «заголосован Д2») или добавьте блок "
            "столбцов «Когда» 1–10; если игрок не выбывал, очистите ячейку",
            "Add the phase to this cell (“killed N1”, “voted out D2”) or add a block of "
            "When columns 1–10; if the player did not leave, clear the cell",
        ),
    ),
    "rows": (
        _IN_CELL,
        Text(
            "Допишите фазу в эту ячейку («убит Н1», «заголосован Д2») или добавьте столбец "
            "«Когда»; если игрок не выбывал, очистите ячейку",
            "Add the phase to this cell (“killed N1”, “voted out D2”) or add a When column; "
            "if the player did not leave, clear the cell",
        ),
    ),
    "absent": (
        Text(
            "фаза в столбце «Когда»: Д1, Н1 … (на листе его нет)",
            "a phase in a When column: D1, N1 … (the sheet has none)",
        ),
        Text(
            "Добавьте столбец «Когда» и впишите в него фазу каждого выбывания",
            "Add a When column and enter each departure's phase in it",
        ),
    ),
}
WHEN_WITHOUT_LEFT = define(
    "when-without-left",
    "error",
    Text("Указано, когда выбыл игрок, но не как", "When the player left is given, but not how"),
    Text("значение в «Выбыл»: убит, заголосован …", "a value in “Left”: killed, voted out …"),
    Text(
        "Впишите, как игрок выбыл, или очистите «Когда»",
        "Enter how the player left or clear “When”",
    ),
)
DUPLICATE_PLAYER = define(
    "duplicate-roster",
    "error",
    Text("Игрок «{value}» дважды на листе «Игроки»", "Player “{value}” is listed twice in Players"),
    Text("уникальный ник", "a unique nickname"),
    Text(
        "Удалите повтор или дайте игрокам разные ники",
        "Delete the duplicate or give the players distinct nicknames",
    ),
)


@check(DUPLICATE_GAME, GAME_NOT_IN_GAMES, GAME_WITHOUT_SEATS)
def game_references(context: Context) -> Iterator[Finding]:
    games, seats = context.protocol.table("games"), context.protocol.table("seats")
    if games is None or seats is None:
        return
    known = set(games.frame["game"].dropna())
    seated = seats.frame[seats.frame["game"].notna()]
    orphans = seated.loc[~seated["game"].isin(known), "game"].unique()
    yield from at_rows(seats, GAME_NOT_IN_GAMES, "game", first_row_per_game(seated, orphans))
    empty = games.frame[games.frame["game"].notna() & ~games.frame["game"].isin(game_ids(seated))]
    yield from at_rows(games, GAME_WITHOUT_SEATS, "game", empty)
    repeated = games.frame[
        games.frame["game"].notna() & games.frame.duplicated("game", keep="first")
    ]
    yield from at_rows(games, DUPLICATE_GAME, "game", repeated)


@check(MISSING_RESULT)
def results(context: Context) -> Iterator[Finding]:
    games = context.protocol.table("games")
    if games is None:
        return
    frame = games.frame
    raw_blank = frame["result"].isna().to_numpy().copy()
    if "result" in games.raw:  # an unknown value is reported by the parser, not here
        raw_blank &= blank_mask(games.raw["result"])
    missing = frame[raw_blank & ~frame["annulled"].eq(True) & frame["game"].notna()]
    yield from at_rows(games, MISSING_RESULT, "result", missing)


@check(DUPLICATE_SEAT, MISSING_SEATS)
def seats_of_each_game(context: Context) -> Iterator[Finding]:
    seats = context.protocol.table("seats")
    if seats is None:
        return
    frame = seats.frame[seats.frame["game"].notna()]
    valid = frame[frame["seat"].notna()]
    repeated = valid.duplicated(["game", "seat"], keep="first").to_numpy()
    yield from at_rows(seats, DUPLICATE_SEAT, "seat", valid[repeated])
    # what drop_duplicates keeps, from the same pass: the rows not repeated
    distinct = valid[~repeated].groupby("game", sort=False).size()
    complete = set(distinct[distinct == 10].index)
    for game in frame.loc[~frame["game"].isin(complete), "game"].unique():
        rows = frame[frame["game"] == game]
        missing = sorted(set(range(1, 11)) - set(rows["seat"].dropna()))
        yield from at_rows(
            seats, MISSING_SEATS, "seat", rows.iloc[[0]], missing=", ".join(map(str, missing))
        )


@check(DUPLICATE_PLAYER, NOT_IN_ROSTER, PLAYER_TWICE)
def players_at_table(context: Context) -> Iterator[Finding]:
    seats = context.protocol.table("seats")
    if seats is None:
        return
    frame = seats.frame[seats.frame["game"].notna() & seats.frame["player"].notna()]
    yield from at_rows(
        seats, PLAYER_TWICE, "player", frame[frame.duplicated(["game", "player"], keep="first")]
    )
    roster = context.protocol.table("players")
    if roster is None:
        return
    names = roster.frame["player"].dropna()
    yield from at_rows(
        roster,
        DUPLICATE_PLAYER,
        "player",
        roster.frame[
            roster.frame["player"].notna() & roster.frame.duplicated("player", keep="first")
        ],
    )
    known = set(names)
    by_fold = {vocab.fold(n): n for n in names}
    strangers = frame[~frame["player"].isin(known)]
    for name, rows in strangers.groupby("player", sort=False):
        near = by_fold.get(vocab.fold(name))
        yield from at_rows(seats, NOT_IN_ROSTER, "player", rows, suggestion=_perhaps(near))


@check(ROLE_COUNT)
def role_counts(context: Context) -> Iterator[Finding]:
    seats = context.protocol.table("seats")
    if seats is None:
        return
    frame = seats.frame[seats.frame["game"].notna() & ~_misspelt_role_games(context)]
    counts = (
        frame.groupby(["game", "role"], sort=False)
        .size()
        .unstack(fill_value=0)
        .reindex(columns=list(vocab.ROLE_COUNTS), fill_value=0)
    )
    target = pd.Series(vocab.ROLE_COUNTS)
    wrong = counts[(counts != target).any(axis=1)]
    for game, row in wrong.iterrows():
        found = Text(
            *(
                ", ".join(
                    f"{vocab.display_value('role', r, lang)} {row[r]}" for r in vocab.ROLE_COUNTS
                )
                for lang in LANGS
            )
        )
        yield from at_rows(
            seats, ROLE_COUNT, "role", first_row_per_game(frame, np.array([game])), found=found
        )


def _misspelt_role_games(context: Context) -> np.ndarray:
    """The rows of the games where a role was typed but not read (`unknown-value` says it
    at its cell): their count of roles would only repeat that typo in other words."""
    seats, columns = context.protocol.table("seats"), context.seat_columns
    assert seats is not None
    frame = seats.frame
    if columns is None or "role" not in seats.raw:
        return np.zeros(len(frame), dtype=bool)
    parse = SCHEMA["seats"]["role"].parse  # a role not read is typed blank: a civilian
    unread = columns.raw.of(seats.raw.index, "role").where(lambda v: parse(v) is BAD)
    games = frame["game"].to_numpy(dtype=object)
    return np.asarray(pd.Series(games).isin(set(games[unread])).to_numpy(), dtype=bool)


@check(LEFT_WITHOUT_WHEN, WHEN_WITHOUT_LEFT)
def departures_complete(context: Context) -> Iterator[Finding]:
    seats, columns = context.protocol.table("seats"), context.seat_columns
    if seats is None or columns is None:
        return
    frame = seats.frame
    # A misspelt value is the parser's finding, not a missing one: look at what was typed.
    when_typed = ~columns.typed.of(frame, "when").missing()
    if "when" in seats.raw:
        when_typed |= ~blank_rows(columns.raw, seats.raw.index, "when")
    left_typed = ~columns.typed.of(frame, "left").missing()
    if "left" in seats.raw:
        left_typed |= ~blank_rows(columns.raw, seats.raw.index, "left")
    if "when" in seats.raw:  # `?` says the phase is unknown: enough for a foul-out only
        unknown = columns.raw.of(seats.raw.index, "when").where(vocab.phase_unknown)
        when_typed &= ~(unknown & ~columns.typed.of(frame, "left").isin(PHASELESS))
    yield from _without_when(context.protocol, seats, frame[left_typed & ~when_typed])
    no_left = frame[when_typed & ~left_typed]
    yield from at_rows(seats, WHEN_WITHOUT_LEFT, ("left", "when"), no_left)


def _without_when(protocol: Protocol, seats: Table, rows: pd.DataFrame) -> Iterator[Finding]:
    """`left-without-when` at each row, its advice fitting the sheet: where the phase
    has no cell of its own (the departure's cell stands for it), how to give it on that
    sheet's layout."""
    layouts = {sheet: layout for read in protocol.reading for sheet, layout in read.sheets}
    kinds = []
    for key in rows["_row"]:
        if seats.places is None:  # one sheet of seat rows: the same advice for every row
            kinds.append(_seat_rows_kind(seats.letters))
            continue
        sheet, cell, _ = seats.locate("when", int(key))
        own = not cell or cell != seats.locate("left", int(key))[1]
        kinds.append("column" if own else "wide" if layouts.get(sheet) == "wide" else "blank")
    for kind, group in rows.groupby(pd.Series(kinds, index=rows.index, dtype=object), sort=False):
        place, fix = _PHASE_ADVICE[str(kind)]
        at = "left" if kind == "absent" else "when"
        found = at_rows(seats, LEFT_WITHOUT_WHEN, at, group, phase_place=place, phase_fix=fix)
        quoted = departure_quoted(seats, found, group, beside=kind != "column")
        if kind != "absent":
            yield from quoted
            continue
        # the sheet has no place for a phase at all: one finding, every departure in `also`
        first, *rest = quoted
        yield dataclasses.replace(first, also=tuple((f.sheet, f.cell) for f in rest))


def _seat_rows_kind(letters: dict[str, str]) -> str:
    """A sheet of seat rows: its «Когда» column, none (said at «Выбыл»), or the phases
    read from «Выбыл» (its letter stands for the phase's own)."""
    if "when" not in letters:
        return "absent"
    return "rows" if letters["when"] == letters.get("left") else "column"


def _perhaps(near: str | None) -> Text:
    """` (может быть, «Кот»?)`: the roster's closest spelling, when there is one."""
    return Text(f" (может быть, «{near}»?)", f" (perhaps “{near}”?)") if near else Text("", "")
