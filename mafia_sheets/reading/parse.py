"""Type the raw cells: game ids, seats, vocabulary codes, phases, numbers, times.

Each column is parsed over its *unique* values (a million seat rows hold a few hundred
distinct spellings), so the cost stays close to one `pandas.factorize` per column. A value
that cannot be understood becomes a finding at its cell, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
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


def objects(values: Sequence[object] | np.ndarray) -> np.ndarray:
    """The values as one object array, each kept as it is (a list given to numpy or
    pandas as it is would be inferred: 1 and 2.0 would become floats)."""
    if not isinstance(values, np.ndarray):
        # taken one by one, as they come: an assignment would first ask each value
        # whether it is a sequence to unpack (twice the time for a column of texts)
        return np.fromiter(values, dtype=object, count=len(values))
    if values.dtype == object:
        return values
    array = np.empty(len(values), dtype=object)
    array[:] = values  # numpy's scalars become Python's
    return array


def parse_column(
    values: Sequence[object] | np.ndarray, parser: Callable[[object], object]
) -> tuple[np.ndarray, np.ndarray]:
    """Parse every distinct value once; return (parsed values, mask of bad values).

    Equal values share a parse (1, 1.0 and True are one value, the first one met stands
    for them), found by one factorize in C. None and NaN, which a factorize would make
    one value, are told apart as a dict tells them (each NaN its own, but as the same
    object), so that a parser that keeps the value as typed keeps each.
    """
    array = objects(values)
    codes, found = pd.factorize(array, use_na_sentinel=True)
    uniques = list(found)
    missing = np.flatnonzero(codes < 0)
    if len(missing):
        rest = array[missing].tolist()
        distinct = {value: code for code, value in enumerate(dict.fromkeys(rest), len(uniques))}
        codes[missing] = np.fromiter(map(distinct.__getitem__, rest), np.intp, len(rest))
        uniques.extend(distinct)
    parsed_uniques = [parser(u) for u in uniques]
    bad_uniques = np.array([p is BAD for p in parsed_uniques], dtype=bool)
    table = np.empty(len(parsed_uniques), dtype=object)
    table[:] = [None if p is BAD else p for p in parsed_uniques]
    return table[codes], bad_uniques[codes]


def parse_sheet(raw: RawSheet, source: str) -> tuple[Table, list[Finding]]:
    """Typed frame for one sheet plus a finding for every value that cannot be understood.

    Each column is written once into one object block per frame (the typed, the raw),
    which the frame then holds as it is: no column copied again into pandas' block."""
    schema = SCHEMA[raw.code]
    names = list(schema)
    present = [column for column in names if column in raw.columns]
    typed = np.full((len(names), len(raw.rows)), None, dtype=object)
    as_typed = _as_typed([raw.columns[column] for column in present], len(raw.rows))
    unread: dict[str, np.ndarray] = {}  # values that could not be read: their own finding
    findings: list[Finding] = []
    games = raw.columns.get("game")
    for place, column in enumerate(present):
        values = raw.columns[column]
        parsed, unread[column] = parse_column(as_typed[place], schema[column].parse)
        typed[names.index(column)] = parsed
        for indices in _same_values(values, np.flatnonzero(unread[column])):
            first = indices[0]
            game = parse_text(games[first]) if games is not None else None
            findings.append(_bad_value(raw, column, indices, values[first], source, game))
    parsed_games = typed[names.index("game")] if "game" in schema else None
    for column in (code for code in present if schema[code].value_required):
        empty = pd.isna(typed[names.index(column)]) & ~unread[column]
        if empty.any():
            in_games = parsed_games if column != "game" else None
            findings.append(
                _missing_value(raw, column, np.flatnonzero(empty).tolist(), in_games, source)
            )
    frame = _object_frame(typed, names)
    frame.insert(0, "_row", np.asarray(raw.rows, dtype=np.int64))
    raw_frame = _object_frame(as_typed, present) if present else pd.DataFrame({}, index=frame.index)
    table = Table(
        raw.code, raw.name, frame, raw_frame, dict(raw.letters), raw.header_row, source, raw.places
    )
    return table, findings


def _as_typed(columns: list[list[object]], length: int) -> np.ndarray:
    """The columns as the rows of one object block, each value kept as it is: all taken
    in one pass, one by one (a copy into the block would touch every value again)."""
    if all(values.__class__ is list and len(values) == length for values in columns):
        flat = np.fromiter(chain.from_iterable(columns), dtype=object, count=len(columns) * length)
        return flat.reshape(len(columns), length)
    block = np.empty((len(columns), length), dtype=object)
    for place, values in enumerate(columns):
        block[place] = objects(values)
    return block


def _object_frame(block: np.ndarray, columns: list[str]) -> pd.DataFrame:
    """Columns of one object block (a row each) as a frame that keeps them object:
    inferring Arrow strings costs more than it saves here."""
    return pd.DataFrame(block.T, columns=columns, dtype=object, copy=False)


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
