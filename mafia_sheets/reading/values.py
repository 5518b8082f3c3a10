"""Single-value parsers: one cell as typed → its meaning, or :data:`BAD`.

Each parser takes the value exactly as the reader gave it (text, number, date-time or
None) and never raises for bad data: a value it cannot understand is :data:`BAD`, and
the caller turns that into a finding at its cell.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Final

from .. import vocab


class Unreadable(enum.Enum):
    """The type of :data:`BAD`, so that a parser's answer can be told from any value."""

    VALUE = "unreadable"


BAD: Final = Unreadable.VALUE  # a parser's answer for a value it cannot understand


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, float) and value != value)


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
