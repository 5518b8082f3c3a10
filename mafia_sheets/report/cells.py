"""Values → cells: the rating's data as the values a sheet's cells hold (layer 1 of the report).

Exact points become floats here, for display only; codes become words in the output
language; blanks become None (xlsxwriter refuses NaN). Nothing here knows a sheet or a
workbook: the sheets (:mod:`.sheets`) lay these cells out, the engine (:mod:`.engine`)
writes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..model import Standing, Stats
from ..vocab import game_name

LINE_HEIGHT = 15


def row_height(cells: Iterable[tuple[Any, float]]) -> float | None:
    """Height for wrapped texts (text, column width), or None when one line is enough.

    Neither xlsxwriter nor LibreOffice's import sizes wrapped rows, so a long text would be
    cut or overlap the next row on paper; the estimate errs on the generous side.
    """
    lines = 1
    for text, width in cells:
        if isinstance(text, str) and text:
            per_line = max(1.0, width - 1)
            lines = max(
                lines, sum(-(-len(part) // int(per_line)) or 1 for part in text.split("\n"))
            )
    return LINE_HEIGHT * lines + 2 if lines > 1 else None


def header_width(header: str, width: float) -> float:
    """A column at least as wide as the longest word of its (bold) header, so the header
    wraps only at spaces: «Нарастающий итог» never splits as «Нарастаю / щий итог».

    >>> header_width("Нарастающий итог", 9)
    14.7
    >>> header_width("Место", 9)
    9
    """
    longest = max((len(word) for word in header.split()), default=0)
    return max(width, round(longest * 1.2 + 1.5, 1)) if longest else width


def header_lines(header: str, width: float) -> tuple[str, float]:
    """A header as the lines it wraps into at spaces, for :func:`row_height`."""
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= (width - 1.5) / 1.2:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines), max(width, max((len(x) for x in lines), default=0) + 1.0)


def shown_points(frame: pd.DataFrame, code: str, scale: int) -> pd.Series:
    """The points shown for `code`: its exact units (`<code>_u`) as a number of points.

    This is where the rating's exact values become floats: for display only, never to
    decide anything (places and ties are decided on the exact values in the rating).
    """
    units = frame.get(f"{code}_u")
    return pd.Series(None, index=frame.index, dtype=float) if units is None else units / scale


def shown_k(series: pd.Series) -> pd.Series:
    """The exact K of each game as the number shown in its cell."""
    return series.map(float, na_action="ignore")


def number_cells(series: pd.Series, *, blank_zero: bool = False) -> list[float | None]:
    """Numbers as floats, blanks and non-numbers as None (xlsxwriter refuses NaN).

    With `blank_zero`, zeros are blanks too (the points sheet's components).
    """

    numeric = pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    cells = numeric.astype(object)
    gaps = np.isnan(numeric)
    if blank_zero:
        gaps |= numeric == 0
    cells[gaps] = None
    return cells.tolist()


def _plain(value: Any) -> Any:
    """numpy scalars → Python scalars; whole floats → int (so `3.0` shows as `3`)."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _per_value(series: pd.Series, convert: Callable[[Any], Any]) -> list[Any]:
    """`convert` applied to each distinct value once, blanks as None.

    A million rows hold a few thousand distinct values, so this costs one factorize.
    In an object column holding anything but text, a distinct value is a value and its
    type: factorize alone would take 1, 1.0 and True for one value.

    >>> _per_value(pd.Series([1, 1.0, True, None, 1], dtype=object), repr)
    ['1', '1.0', 'True', None, '1']
    """

    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    if series.dtype == object and not all(u.__class__ is str for u in uniques):
        return _per_typed_value(series.to_numpy(dtype=object), codes, convert)
    table = np.empty(len(uniques) + 1, dtype=object)  # the last slot is code -1: a blank
    table[:-1] = [convert(value) for value in uniques]
    return list(table[codes].tolist())


def _per_typed_value(
    values: np.ndarray, codes: np.ndarray, convert: Callable[[Any], Any]
) -> list[Any]:
    """`convert` of each distinct (value, type) once; `codes` are the values' factorized
    codes (-1: a blank)."""
    kinds, _ = pd.factorize(np.fromiter(map(type, values), dtype=object, count=len(values)))
    keys = codes.astype(np.int64) * (int(kinds.max(initial=0)) + 1) + kinds
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    table = np.empty(len(first), dtype=object)
    table[:] = [None if codes[at] < 0 else convert(values[at]) for at in first.tolist()]
    return list(table[inverse.reshape(-1)].tolist())


def text_cells(series: pd.Series) -> list[str | None]:
    """Anything as text: a nickname stays text even when it looks like a number."""
    return _per_value(series, _text)


def _text(value: Any) -> str:
    return value if value.__class__ is str else str(_plain(value))


def _whole(text: str) -> int | None:
    """`"12"` → 12; `"012"`, `"A1"`, `"1.5"` stay text (a leading zero may be meaningful)."""
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    return None


def _mixed(value: Any) -> Any:
    if value.__class__ is str:  # a text as it is (what `_plain` and `str` leave it)
        whole = _whole(value)
        return value if whole is None else whole
    value = _plain(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    whole = _whole(text)
    return text if whole is None else whole


def mixed_cells(series: pd.Series) -> list[Any]:
    """A game id, round or table: numbers (and whole-number texts) as numbers, else text.

    A number stored as text sorts as text (1, 10, 2) and Excel flags it on every cell.
    """
    return _per_value(series, _mixed)


def game_cells(series: pd.Series, lang: str) -> list[Any]:
    """Game ids as :func:`mixed_cells`, a per-table key in the output language."""
    return _per_value(
        series, lambda value: _mixed(game_name(value, lang) if isinstance(value, str) else value)
    )


def word_cells(series: pd.Series, words: dict[Any, str]) -> list[str | None]:
    """Codes (or booleans) → display words; unknown codes are shown as they are."""

    def word(value: Any) -> str:
        found = words.get(_plain(value))
        return found if found is not None else str(value)

    return _per_value(series, word)


def text_width(texts: Iterable[str | None], minimum: float, maximum: float) -> float:
    """A column width that fits the longest text, within bounds."""
    longest = max(map(len, filter(None, texts)), default=0)
    return max(minimum, min(maximum, longest + 2))


Counts = Sequence[int] | np.ndarray | pd.Series  # a column of whole numbers


def counts(values: Counts) -> list[int | None]:
    """Integers, zeros blank.

    >>> counts([0, 2, 5])
    [None, 2, 5]
    """
    return [int(v) or None for v in np.asarray(values).tolist()]


def shares(part: Counts, whole: Counts) -> list[float | None]:
    """part / whole as floats for a `%` format; blank where the share is 0 or undefined.

    >>> shares([1, 0, 3], [4, 2, 0])
    [0.25, None, None]
    """
    part, whole = np.asarray(part, dtype=np.int64), np.asarray(whole, dtype=np.int64)
    out = np.full(len(part), None, dtype=object)
    shown = (whole > 0) & (part > 0)
    out[shown] = (part[shown] / whole[shown]).tolist()
    return list(out.tolist())


def unit_points(units: Counts, denominator: int) -> list[float]:
    """Integer units of 1/`denominator` point as the points shown: each `u / denominator`
    in Python's integers, the float nearest the exact value — what `float(Fraction(u, d))`
    gives (both round the one exact quotient), without a Fraction per cell.

    >>> unit_points([3, -2, 0], 4)
    [0.75, -0.5, 0.0]
    """
    return [int(u) / denominator for u in np.asarray(units).tolist()]


def stat_points(stats: Stats, units: Counts) -> list[float | None]:
    """Integer units of the statistics as points, zeros blank."""
    d = stats.denominator
    return [int(u) / d if u else None for u in np.asarray(units).tolist()]


def place(standing: Standing) -> int | str | None:
    """A single place as a number; a shared range such as `5–6` as text."""
    if standing.removed or standing.place is None:
        return standing.place_range or None
    if standing.place_range and standing.place_range != str(standing.place):
        return standing.place_range
    return standing.place


def two_lines(first: list[Any], second: list[Any]) -> list[Any]:
    """`a1, a2 …` and `b1, b2 …` as `a1, b1, a2, b2 …`: a game's two lines in turn.

    >>> two_lines([1, 2], ["a", "b"])
    [1, 'a', 2, 'b']
    """
    cells: list[Any] = [None] * (2 * len(first))
    cells[0::2], cells[1::2] = first, second
    return cells


def spread(cells: list[Any], where: np.ndarray) -> list[Any]:
    """`cells[where[i]]` for each i; -1 (not found) is a blank."""
    table = np.empty(len(cells) + 1, dtype=object)  # the last slot: a game not found
    table[:-1] = cells
    return list(table[where].tolist())


def column(frame: pd.DataFrame, code: str) -> pd.Series:
    """A column of the frame, or a blank one when an older frame lacks it."""
    if code in frame.columns:
        return frame[code]
    return pd.Series([None] * len(frame), index=frame.index, dtype=object)
