"""Type the raw cells: game ids, seats, vocabulary codes, phases, numbers, times.

Each column is parsed over its *unique* values (a million seat rows hold a few hundred
distinct spellings), so the cost stays close to one `pandas.factorize` per column. A value
that cannot be understood becomes a finding at its cell, never an exception.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, define, finding
from ..model import Table
from .sheets import RawSheet

BAD = object()  # a parser's answer for a value it cannot understand

UNKNOWN_VALUE = define(
    "unknown-value", "error",
    ru=("Непонятное значение «{value}» в столбце «{column}»", "одно из: {allowed}",
        "Выберите значение из списка (в шаблоне есть выпадающий список)"),
    en=("Unknown value “{value}” in column “{column}”", "one of: {allowed}",
        "Pick a value from the list (the template has a dropdown)"),
)
BAD_NUMBER = define(
    "bad-number", "error",
    ru=("«{value}» в столбце «{column}» — не подходящее число", "{allowed}",
        "Впишите число {allowed}"),
    en=("“{value}” in column “{column}” is not a valid number", "{allowed}",
        "Type a number {allowed}"),
)
BAD_PHASE = define(
    "bad-phase", "error",
    ru=("«{value}» — не фаза игры", "Д1, Н1, Д2, Н2 … (день 1, ночь 1 …)",
        "Запишите фазу выбывания как Д2 (день 2) или Н1 (ночь 1)"),
    en=("“{value}” is not a game phase", "D1, N1, D2, N2 … (day 1, night 1 …)",
        "Write the phase the player left in as D2 (day 2) or N1 (night 1)"),
)
BAD_SEATS_LIST = define(
    "bad-best-move", "error",
    ru=("Лучший ход «{value}» не читается", "номера мест через пробел: 3 5 7",
        "Запишите три номера мест через пробел, запятую или точку с запятой"),
    en=("Best move “{value}” cannot be read", "seat numbers separated by spaces: 3 5 7",
        "Write three seat numbers separated by spaces, commas or semicolons"),
)
BAD_TIME = define(
    "bad-time", "warning",
    ru=("«{value}» в столбце «{column}» — не время", "время ЧЧ:ММ или дата и время",
        "Впишите время как 21:45 (нужно для срока подачи протеста)"),
    en=("“{value}” in column “{column}” is not a time", "a time HH:MM or a date and time",
        "Type the time as 21:45 (needed for the protest deadline)"),
)
MISSING_VALUE = define(
    "missing-value", "error",
    ru=("Пустая ячейка в обязательном столбце «{column}»", "значение",
        "Заполните ячейку или удалите лишнюю строку"),
    en=("Empty cell in the required column “{column}”", "a value",
        "Fill the cell or delete the stray row"),
)


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, float) and value != value)


# ---- single-value parsers: value → parsed, or BAD ------------------------------------------

def parse_text(value: object) -> object:
    if is_blank(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split()) if isinstance(value, str) else str(value)


def parse_number(value: object) -> object:
    """A number typed as a number, as text, or with a decimal comma → Fraction-ready Decimal."""
    if is_blank(value):
        return None
    if isinstance(value, bool):
        return BAD
    if isinstance(value, float) and not math.isfinite(value):
        return BAD  # 1.8e308 typed in a cell reads back as infinity
    if isinstance(value, int | float):
        return Decimal(repr(float(value))).normalize() if isinstance(value, float) else \
            Decimal(value)
    text = str(value).strip().replace(",", ".").replace("\u2212", "-").replace(" ", "")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return BAD
    return number if number.is_finite() else BAD


def integer_in(low: int, high: int) -> Callable[[object], object]:
    def parse(value: object) -> object:
        number = parse_number(value)
        if number is None or number is BAD:
            return number
        assert isinstance(number, Decimal)
        if number != number.to_integral_value() or not low <= int(number) <= high:
            return BAD
        return int(number)
    return parse


def vocabulary(name: str) -> Callable[[object], object]:
    table = vocab.value_lookup(name)

    def parse(value: object) -> object:
        if is_blank(value):
            return None
        text = parse_text(value)
        return table.get(vocab.fold(text), BAD)
    return parse


def parse_phase(value: object) -> object:
    if is_blank(value):
        return None
    ordinal = vocab.parse_phase(str(value))
    return BAD if ordinal is None else ordinal


_SEPARATORS = re.compile(r"[\s,;/.]+")


def parse_seat_list(value: object) -> object:
    """`'3 5 7'`, `'3,5,7'`, `'3;5;7'`, a single number → tuple of ints."""
    if is_blank(value):
        return None
    if isinstance(value, float):
        return (int(value),) if value.is_integer() else BAD
    parts = [p for p in _SEPARATORS.split(str(value).strip()) if p]
    if not parts or not all(p.isdigit() for p in parts):
        return BAD
    return tuple(int(p) for p in parts)


def parse_bonus(value: object) -> object:
    """ЛИ/ЛИ2/ЛИП codes; a bare 1 or 0.5 stays numeric until the player's team is known."""
    if is_blank(value):
        return None
    code = vocabulary("bonus")(value)
    if code is not BAD:
        return code
    number = parse_number(value)
    if number == Decimal(1):
        return "num1"
    if number == Decimal("0.5"):
        return "num05"
    return BAD


def parse_time(value: object) -> object:
    """Excel times and date-times, serial numbers, or text `21:45` / `01.12.2026 21:45`."""
    if is_blank(value):
        return None
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.time):
        return dt.datetime.combine(dt.date(1900, 1, 1), value)
    if isinstance(value, dt.timedelta):
        return dt.datetime(1900, 1, 1) + value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _from_serial(float(value))
    text = str(value).strip()
    for pattern in ("%H:%M", "%H:%M:%S", "%d.%m.%Y %H:%M", "%d.%m.%Y %H:%M:%S",
                    "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S"):
        try:
            parsed = dt.datetime.strptime(text, pattern)
        except ValueError:
            continue
        return parsed if parsed.year != 1900 else parsed.replace(year=1900)
    return BAD


def _from_serial(serial: float) -> object:
    if not 0 <= serial < 2958466:
        return BAD
    return dt.datetime(1899, 12, 30) + dt.timedelta(days=serial)


def parse_yes_no(value: object) -> object:
    if is_blank(value):
        return None
    code = vocabulary("yesno")(value)
    return BAD if code is BAD else code == "yes"


# ---- columns -------------------------------------------------------------------------------

def parse_column(values: list[object], parser: Callable[[object], object]) -> tuple[
        np.ndarray, np.ndarray]:
    """Parse every distinct value once; return (parsed values, mask of bad values)."""
    codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
    parsed_uniques = [parser(u) for u in uniques]
    bad_uniques = np.array([p is BAD for p in parsed_uniques], dtype=bool)
    table = np.empty(len(parsed_uniques), dtype=object)
    table[:] = [None if p is BAD else p for p in parsed_uniques]
    return table[codes], bad_uniques[codes]


COLUMN_PARSERS: dict[str, dict[str, Callable[[object], object]]] = {
    "games": {"game": parse_text, "round": integer_in(0, 10_000), "table": parse_text,
              "judge": parse_text, "result": vocabulary("result"), "ended": parse_time,
              "annulled": parse_yes_no},
    "seats": {"game": parse_text, "seat": integer_in(1, 10), "player": parse_text,
              "role": vocabulary("role"), "fouls": integer_in(0, 4), "left": vocabulary("left"),
              "when": parse_phase, "best_move": parse_seat_list, "bonus": parse_bonus},
    "players": {"player": parse_text, "club": parse_text, "city": parse_text,
                "removed": parse_yes_no},
    "protests": {"game": parse_text, "seat": integer_in(1, 10), "filed": parse_time,
                 "text": parse_text, "decision": vocabulary("decision"),
                 "decided_by": vocabulary("decided_by")},
    "lot": {"player": parse_text, "order": integer_in(1, 100_000)},
    "tournament": {"setting": parse_text, "value": lambda v: v},
}

_REQUIRED_VALUES = {"games": ("game",), "seats": ("game", "player"),
                    "players": ("player",), "lot": ("player",), "protests": ("game",)}


def parse_sheet(raw: RawSheet, source: str) -> tuple[Table, list[Finding]]:
    """Typed frame for one sheet plus a finding for every value that cannot be understood."""
    parsers = COLUMN_PARSERS[raw.code]
    data: dict[str, Any] = {"_row": np.asarray(raw.rows, dtype=np.int64)}
    raw_data: dict[str, Any] = {}
    findings: list[Finding] = []
    for column, parser in parsers.items():
        values = raw.columns.get(column)
        if values is None:
            data[column] = np.full(len(raw.rows), None, dtype=object)
            continue
        raw_data[column] = values
        parsed, bad = parse_column(values, parser)
        data[column] = parsed
        games = raw.columns.get("game")
        for index in np.flatnonzero(bad):
            game = parse_text(games[index]) if games is not None else None
            findings.append(_bad_value(raw, column, int(index), values[index], source, game))
    for column in _REQUIRED_VALUES.get(raw.code, ()):
        if column in raw.columns:
            games = data["game"] if "game" in data and column != "game" else None
            for index in np.flatnonzero(pd.isna(pd.Series(data[column], dtype=object))):
                findings.append(finding(
                    MISSING_VALUE, raw.name, f"{raw.letters[column]}{raw.rows[index]}",
                    row=raw.rows[index], column=_column_name(raw.code, column),
                    source=source, game=None if games is None else games[index]))
    # object columns stay object: inferring Arrow strings costs more than it saves here
    frame = pd.DataFrame({k: pd.Series(v, dtype=object) if v.dtype == object else v
                          for k, v in data.items()})
    raw_frame = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in raw_data.items()},
                             index=frame.index)
    table = Table(raw.code, raw.name, frame, raw_frame, dict(raw.letters), raw.header_row,
                  source)
    return table, findings


def _column_name(sheet: str, column: str) -> str:
    name = vocab.COLUMNS[sheet][column]
    return f"{name.ru} / {name.en}"


def _bad_value(raw: RawSheet, column: str, index: int, value: object, source: str,
               game: object) -> Finding:
    row = raw.rows[index]
    cell = f"{raw.letters[column]}{row}"
    name = _column_name(raw.code, column)

    def at(code: str, **params: object) -> Finding:
        return finding(code, raw.name, cell, value, row=row, source=source, column=name,
                       game=game if column != "game" else None, **params)

    vocab_name = vocab.VOCAB_OF_COLUMN.get((raw.code, column))
    if vocab_name is not None:
        allowed = ", ".join(f"{s[0]}/{s[1]}" for s in vocab.VALUES[vocab_name].values())
        if column == "bonus":
            allowed += ", 1, 0.5"
        return at(UNKNOWN_VALUE, allowed=allowed)
    if column in ("seat",):
        return at(BAD_NUMBER, allowed="1–10")
    if column == "fouls":
        return at(BAD_NUMBER, allowed="0–4")
    if column in ("round", "order"):
        return at(BAD_NUMBER, allowed="≥ 1")
    if column == "when":
        return at(BAD_PHASE)
    if column == "best_move":
        return at(BAD_SEATS_LIST)
    return at(BAD_TIME)
