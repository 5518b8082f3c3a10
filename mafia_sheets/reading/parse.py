"""Type the raw cells: game ids, seats, vocabulary codes, phases, numbers, times.

Each column is parsed over its *unique* values (a million seat rows hold a few hundred
distinct spellings), so the cost stays close to one `pandas.factorize` per column. A value
that cannot be understood becomes a finding at its cell, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, define, finding
from ..model import Table
from ..text import Text
from .columns import SCHEMA
from .matching import closest_value
from .raw import RawSheet
from .values import BAD, parse_text

UNKNOWN_VALUE = define(
    "unknown-value",
    "error",
    Text(
        "Непонятное значение «{value}» в столбце «{column}»{suggestion}{where}",
        "Unknown value “{value}” in column “{column}”{suggestion}{where}",
    ),
    Text("одно из: {allowed}", "one of: {allowed}"),
    Text(
        "Выберите значение из списка (в шаблоне есть выпадающий список)",
        "Pick a value from the list (the template has a dropdown)",
    ),
)
BAD_NUMBER = define(
    "bad-number",
    "error",
    Text(
        "«{value}» в столбце «{column}» — не подходящее число{where}",
        "“{value}” in column “{column}” is not a valid number{where}",
    ),
    Text("{allowed}", "{allowed}"),
    Text("Впишите число {allowed}", "Type a number {allowed}"),
)
BAD_PHASE = define(
    "bad-phase",
    "error",
    Text("«{value}» — не фаза игры{where}", "“{value}” is not a game phase{where}"),
    Text("Д1, Н1, Д2, Н2 … (день 1, ночь 1 …)", "D1, N1, D2, N2 … (day 1, night 1 …)"),
    Text(
        "Запишите фазу выбывания как Д2 (день 2) или Н1 (ночь 1)",
        "Write the phase the player left in as D2 (day 2) or N1 (night 1)",
    ),
)
BAD_SEATS_LIST = define(
    "bad-best-move",
    "error",
    Text("Лучший ход «{value}» не читается{where}", "Best move “{value}” cannot be read{where}"),
    Text("номера мест через пробел: 3 5 7", "seat numbers separated by spaces: 3 5 7"),
    Text(
        "Запишите три номера мест через пробел, запятую или точку с запятой",
        "Write three seat numbers separated by spaces, commas or semicolons",
    ),
)
BAD_TIME = define(
    "bad-time",
    "warning",
    Text(
        "«{value}» в столбце «{column}» — не время{where}",
        "“{value}” in column “{column}” is not a time{where}",
    ),
    Text("время ЧЧ:ММ или дата и время", "a time HH:MM or a date and time"),
    Text(
        "Впишите время как 21:45 (нужно для срока подачи протеста)",
        "Type the time as 21:45 (needed for the protest deadline)",
    ),
)
MISSING_VALUE = define(
    "missing-value",
    "error",
    Text(
        "Пустая ячейка в обязательном столбце «{column}»{where}",
        "Empty cell in the required column “{column}”{where}",
    ),
    Text("значение", "a value"),
    Text("Заполните ячейку или удалите лишнюю строку", "Fill the cell or delete the stray row"),
)


# ---- columns -------------------------------------------------------------------------------


def parse_column(
    values: list[object], parser: Callable[[object], object]
) -> tuple[np.ndarray, np.ndarray]:
    """Parse every distinct value once; return (parsed values, mask of bad values).

    The distinct values are a dict's keys, each row's code a lookup (both in C): equal
    values share a parse as they would in a factorize (1, 1.0 and True are one value).
    """
    distinct = {value: code for code, value in enumerate(dict.fromkeys(values))}
    codes = np.fromiter(map(distinct.__getitem__, values), dtype=np.intp, count=len(values))
    parsed_uniques = [parser(u) for u in distinct]
    bad_uniques = np.array([p is BAD for p in parsed_uniques], dtype=bool)
    table = np.empty(len(parsed_uniques), dtype=object)
    table[:] = [None if p is BAD else p for p in parsed_uniques]
    return table[codes], bad_uniques[codes]


def parse_sheet(raw: RawSheet, source: str) -> tuple[Table, list[Finding]]:
    """Typed frame for one sheet plus a finding for every value that cannot be understood."""
    schema = SCHEMA[raw.code]
    data: dict[str, Any] = {"_row": np.asarray(raw.rows, dtype=np.int64)}
    raw_data: dict[str, Any] = {}
    unread: dict[str, np.ndarray] = {}  # values that could not be read: their own finding
    findings: list[Finding] = []
    for column, declared in schema.items():
        values = raw.columns.get(column)
        if values is None:
            data[column] = np.full(len(raw.rows), None, dtype=object)
            continue
        raw_data[column] = values
        parsed, bad = parse_column(values, declared.parse)
        data[column] = parsed
        unread[column] = bad
        games = raw.columns.get("game")
        for indices in _same_values(values, np.flatnonzero(bad)):
            first = indices[0]
            game = parse_text(games[first]) if games is not None else None
            findings.append(_bad_value(raw, column, indices, values[first], source, game))
    for column in (code for code, declared in schema.items() if declared.value_required):
        if column in raw.columns:
            empty = pd.isna(pd.Series(data[column], dtype=object)).to_numpy() & ~unread[column]
            if empty.any():
                games = data["game"] if "game" in data and column != "game" else None
                findings.append(
                    _missing_value(raw, column, np.flatnonzero(empty).tolist(), games, source)
                )
    # object columns stay object: inferring Arrow strings costs more than it saves here
    frame = pd.DataFrame(
        {k: pd.Series(v, dtype=object) if v.dtype == object else v for k, v in data.items()}
    )
    raw_frame = pd.DataFrame(
        {k: pd.Series(v, dtype=object) for k, v in raw_data.items()}, index=frame.index
    )
    table = Table(
        raw.code, raw.name, frame, raw_frame, dict(raw.letters), raw.header_row, source, raw.places
    )
    return table, findings


# The finding for a value a column's parser cannot read, by the column's kind.
_BAD_VALUE_CODES = {
    "number": BAD_NUMBER,
    "phase": BAD_PHASE,
    "seats": BAD_SEATS_LIST,
    "time": BAD_TIME,
}


def _column_name(sheet: str, column: str) -> str:
    return SCHEMA[sheet][column].name.both()


def _same_values(values: list[object], bad: np.ndarray) -> list[list[int]]:
    """The bad rows grouped by what was typed (folded): one problem, one finding."""
    groups: dict[str, list[int]] = {}
    for index in bad:
        groups.setdefault(vocab.fold(values[int(index)]), []).append(int(index))
    return list(groups.values())


CELLS_LISTED = 30  # a finding names this many cells, then says how many more


def _where(cells: list[str]) -> Text:
    """` (ячейки D2, D12, D22)`: every cell of a repeated value; nothing for one cell."""
    if len(cells) == 1:
        return Text("", "")
    listed = ", ".join(cells[:CELLS_LISTED])
    more = len(cells) - CELLS_LISTED
    return Text(
        f" (ячеек: {len(cells)} — {listed}{f' и ещё {more}' if more > 0 else ''})",
        f" ({len(cells)} cells: {listed}{f' and {more} more' if more > 0 else ''})",
    )


where_text = _where  # the checks that say one mark once, at every cell, word it the same


def _at(raw: RawSheet, column: str, index: int) -> str:
    """`D14`, or `Игра 3!C12` when the value sits on another sheet (a sheet per game)."""
    sheet, cell, _ = raw.locate(column, index)
    return cell if sheet == raw.name else f"{sheet}!{cell}"


def _bad_value(
    raw: RawSheet, column: str, indices: list[int], value: object, source: str, game: object
) -> Finding:
    sheet, cell, row = raw.locate(column, indices[0])
    name = _column_name(raw.code, column)
    where = _where([_at(raw, column, i) for i in indices])

    also = [raw.locate(column, i)[:2] for i in indices[1:]]

    def at(code: str, **params: object) -> Finding:
        return finding(
            code,
            sheet,
            cell,
            value,
            row=row,
            source=source,
            column=name,
            game=game if column != "game" else None,
            where=where,
            also=also,
            **params,
        )

    declared = SCHEMA[raw.code][column]
    if declared.vocab is not None:
        allowed = "; ".join(_forms(s) for s in vocab.VALUES[declared.vocab].values())
        if declared.kind == "bonus":
            allowed += ", 1, 0.5"
        return at(UNKNOWN_VALUE, allowed=allowed, suggestion=_suggestion(declared.vocab, value))
    return at(
        _BAD_VALUE_CODES[declared.kind],
        allowed=Text(declared.accepts("ru"), declared.accepts("en")),
    )


def _missing_value(
    raw: RawSheet, column: str, indices: list[int], games: Any, source: str
) -> Finding:
    """Every empty cell of one required column as one finding, at the first of them."""
    sheet, cell, row = raw.locate(column, indices[0])
    in_games = {str(games[i]) for i in indices} if games is not None else set()
    game = games[indices[0]] if games is not None and len(in_games) == 1 else None
    return finding(
        MISSING_VALUE,
        sheet,
        cell,
        row=row,
        source=source,
        game=game,
        column=_column_name(raw.code, column),
        where=_where([_at(raw, column, i) for i in indices]),
        also=[raw.locate(column, i)[:2] for i in indices[1:]],
    )


def _forms(spellings: tuple[str, ...]) -> str:
    """`Мирный/Civilian (к, c, мирн …)`: the display names, then every other accepted form."""
    main = "/".join(dict.fromkeys(spellings[:2]))
    return f"{main} ({', '.join(spellings[2:])})" if spellings[2:] else main


def _suggestion(vocab_name: str, value: object) -> Text:
    """` — может быть, «Мирный»?`: the nearest accepted value, suggested, never applied."""
    code = closest_value(vocab_name, value)
    if code is None:
        return Text("", "")
    ru, en = (
        vocab.display_value(vocab_name, code, "ru"),
        vocab.display_value(vocab_name, code, "en"),
    )
    return Text(f" — может быть, «{ru}»?", f" — did you mean “{en}”?")
