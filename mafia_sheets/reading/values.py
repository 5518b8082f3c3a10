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
from ..text import cell_text


class Unreadable(enum.Enum):
    """The type of :data:`BAD`, so that a parser's answer can be told from any value."""

    VALUE = "unreadable"


BAD: Final = Unreadable.VALUE  # a parser's answer for a value it cannot understand


def is_blank(value: object) -> bool:
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, float) and value != value)
    )


def whole_number(value: object) -> int | None:
    """A whole number as typed: `3`, `3.0` (Excel's numbers), `' 3 '`; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


# A seat number as a printed form numbers its rows: `1.`, `1)`, `№1`, `№ 1`, `#1` — one
# number, one mark of numbering around it, nothing else (`1.5` or `1-2` are no seat).
_NUMBERED = re.compile(r"(?:№|#)?\s*(\d{1,2})\s*[.)]?")


def seat_number(value: object) -> int | None:
    """A seat's number as typed: a whole number (:func:`whole_number`), or one written as
    forms number their rows — `'1.'`, `'1)'`, `'№1'`, `'#1'`; None otherwise."""
    number = whole_number(value)
    if number is not None or not isinstance(value, str):
        return number
    match = _NUMBERED.fullmatch(value.strip())
    return int(match.group(1)) if match else None


def parse_text(value: object) -> object:
    """A text with its runs of spaces made one, a number as typed, a date in ISO form;
    None for a blank cell. Texts and numbers, nearly every cell, are answered first."""
    if value.__class__ is str:  # blank when nothing but spaces: then it splits to nothing
        return " ".join(value.split()) or None
    if value.__class__ is float:  # as `cell_text` writes it; NaN is blank
        return None if value != value else cell_text(value)
    if is_blank(value):
        return None
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return " ".join(value.split()) if isinstance(value, str) else cell_text(value)


def parse_number(value: object) -> object:
    """A number typed as a number, as text, or with a decimal comma → Fraction-ready Decimal."""
    if is_blank(value):
        return None
    if isinstance(value, bool):
        return BAD
    if isinstance(value, float) and not math.isfinite(value):
        return BAD  # 1.8e308 typed in a cell reads back as infinity
    if isinstance(value, int | float):
        return (
            Decimal(repr(float(value))).normalize() if isinstance(value, float) else Decimal(value)
        )
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


_ROUND_NUMBER = re.compile(r"\d+")


def parse_round(value: object) -> object:
    """A round as clubs head it: `3`, `Тур 3`, `3 тур`, `Отбор 2` → 3 / 2; a stage named
    without a number (`Финал`) is no round number; two numbers (`1/8`) are not one."""
    if isinstance(value, str) and not _ROUND_NUMBER.fullmatch(value.strip()):
        numbers = _ROUND_NUMBER.findall(value)
        if not numbers:
            return None
        if len(numbers) > 1:
            return BAD
        value = numbers[0]
    return _ROUND_RANGE(value)


def vocabulary(name: str) -> Callable[[object], object]:
    table = vocab.value_lookup(name)

    def parse(value: object) -> object:
        if is_blank(value):
            return None
        text = parse_text(value)
        return table.get(vocab.fold(text), table.get(vocab.fold_key(text), BAD))

    return parse


def parse_phase(value: object) -> object:
    if is_blank(value) or vocab.phase_unknown(value):
        return None  # a phase the sheet has no place for: unknown, said where it matters
    ordinal = vocab.parse_phase(str(value))
    return BAD if ordinal is None else ordinal


_SEPARATORS = re.compile(r"[\s,;/.\-\u2013\u2014+]+")  # an en or em dash too: `3–7–9`


def parse_seat_list(value: object) -> object:
    """`'3 5 7'`, `'3,5,7'`, `'3/5/8'`, `'3.5.8'`, a single number → tuple of ints.

    Excel keeps `2,7` typed in a Russian locale as the number 2.7, and `379` as 379: the
    digits are the seats typed (a `10` stays one seat). A seat list is never a sum.
    """
    if is_blank(value):
        return None
    if isinstance(value, bool | dt.date | dt.time | dt.timedelta):
        return BAD  # `3.7.9` that Excel took for the date 03.07.2009: not read as 2009
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return BAD
        text = repr(float(value)).removesuffix(".0") if isinstance(value, float) else str(value)
        if "." in text or "e" in text:  # 2.7 was typed `2,7`: a seat each side of the comma
            whole, _, fraction = text.partition(".")
            if not (whole.isdigit() and fraction.isdigit()):
                return BAD
            return (*seats_of(whole), *seats_of(fraction))
    else:
        text = str(value).strip()
    parts = [p for p in _SEPARATORS.split(text) if p]
    if not parts or not all(p.isdigit() for p in parts):
        return BAD
    if len(parts) == 1:  # digits typed together: `379`, or a number Excel made of `2,7`
        return tuple(seats_of(parts[0]))
    return tuple(int(part) for part in parts)


def seats_of(part: str) -> list[int]:
    """Seats typed as one run of digits, as judges write them in one cell:
    `'7'` → [7], `'10'` → [10], `'379'` → [3, 7, 9], `'3710'` → [3, 7, 10]."""
    if int(part) <= 10:
        return [int(part)]
    seats: list[int] = []
    index = 0
    while index < len(part):
        if part.startswith("10", index):
            seats.append(10)
            index += 2
        else:
            seats.append(int(part[index]))
            index += 1
    return seats


# «3 ф.», «3ф», «3 фола», «3 fouls»: the number of fouls with its unit
_FOULS = re.compile(
    r"^\s*(\d+(?:[.,]0+)?)\s*(?:ф|фол|фола|фолов|f|fouls?)?\s*\.?\s*$", re.IGNORECASE
)


def marks_in(value: object) -> int | None:
    """`'xx'`, `'+++'`, `'||'`, sticks `'III'` (Latin or Cyrillic) in one cell → the number
    of marks, as judges count fouls on paper."""
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" ", "").lower()
    if text and len(text) <= 4 and all(ch in "xх+|/v✓*iіl" for ch in text):
        return len(text)
    return None


def parse_fouls(value: object) -> object:
    """Fouls 0–4: a number, a number with its unit (`3 ф.`, `2 фола`, `1 foul`), or marks
    (`III`, `xx`: one a foul)."""
    if isinstance(value, str):
        marks = marks_in(value)
        if marks is not None:
            return marks
        match = _FOULS.match(value.replace("ё", "е"))
        if match:
            value = match.group(1)
    return _FOULS_RANGE(value)


def parse_bonus(value: object) -> object:
    """ЛИ/ЛИ2/ЛИП and the other «Доп» words as codes; a number stays a Decimal until the
    edition and the player's team are known (a bare 1 or 0.5 may be an award)."""
    if is_blank(value):
        return None
    code = _BONUS(value)
    if code is not BAD:
        return code
    number = parse_number(value)
    return BAD if number is None else number


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
    for pattern in (
        "%H:%M",
        "%H:%M:%S",
        "%d.%m.%Y %H:%M",
        "%d.%m.%Y %H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
    ):
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
    code = _YES_NO(value)
    return BAD if code is BAD else code == "yes"


_FOULS_RANGE = integer_in(0, 4)
_BONUS = vocabulary("bonus")
_YES_NO = vocabulary("yesno")
_ROUND_RANGE = integer_in(0, 100_000)
