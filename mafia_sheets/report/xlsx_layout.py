"""Formats, print setup and table writing shared by every sheet of the results workbook.

Cell formats are explicit (borders, number formats) rather than Excel table styles,
because LibreOffice does not draw table styles and the printout must look the same
everywhere. Every user-supplied text is stored as a string (`write_string`, or the same
inline string from :mod:`.xlsx_bulk`), so a nickname such as `=1+1` or `@cmd` stays text
and never becomes a formula.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import Rating
from . import xlsx_bulk
from .labels import TEXT

if TYPE_CHECKING:
    import pandas as pd

A4 = 9
# Excel's hard limit; the points sheet continues on a second sheet past it.
MAX_ROWS = 1_048_576
# Excel refuses page headers longer than 255 characters, formatting codes included:
# name 100 + notice 60 + dates 50 + codes 32 stays below it.
_NAME_LIMIT, _NOTICE_LIMIT, _DATES_LIMIT = 100, 60, 50

_BORDER = {"border": 1, "border_color": "#BFBFBF", "valign": "top"}


@dataclass(frozen=True)
class Formats:
    """Every cell format of the workbook, created once per workbook."""

    banner: Any
    title: Any
    subtitle: Any
    notice: Any
    alert: Any
    alert_cell: Any
    section: Any
    header: Any
    text: Any
    center: Any
    wrap: Any
    integer: Any
    number: Any
    k: Any
    general: Any
    code: Any
    gap: Any  # a conditional format: the border of a cell left blank


def make_formats(workbook: Any) -> Formats:
    add = workbook.add_format
    return Formats(
        banner=add({"bold": True, "font_color": "#C00000", "font_size": 13}),
        title=add({"bold": True, "font_size": 14}),
        subtitle=add({"italic": True, "font_color": "#404040"}),
        notice=add({"font_color": "#1F3864"}),
        alert=add({"bold": True, "font_color": "#C00000"}),
        alert_cell=add({**_BORDER, "bold": True, "font_color": "#C00000", "text_wrap": True}),
        section=add({"bold": True, "font_size": 12, "bottom": 1}),
        header=add(
            {
                **_BORDER,
                "bold": True,
                "bg_color": "#D9E1F2",
                "text_wrap": True,
                "align": "center",
                "valign": "vcenter",
            }
        ),
        text=add(_BORDER),
        center=add({**_BORDER, "align": "center"}),
        wrap=add({**_BORDER, "text_wrap": True}),
        integer=add({**_BORDER, "num_format": "0", "align": "center"}),
        # Display only: values are written unrounded, Excel shows two decimals.
        number=add({**_BORDER, "num_format": "0.00"}),
        k=add({**_BORDER, "num_format": "0.00##"}),
        general=add({**_BORDER, "num_format": "General", "align": "left"}),
        code=add({**_BORDER, "num_format": "General", "align": "center"}),
        gap=add({"border": 1, "border_color": _BORDER["border_color"]}),
    )


def _header_text(text: str, limit: int) -> str:
    """User text inside a page header: `&` starts a code there, so it is doubled.

    Cut to `limit` characters after doubling, never between the two `&` of a pair.
    """
    out: list[str] = []
    used = 0
    for char in text:
        piece = "&&" if char == "&" else char
        if used + len(piece) > limit:
            break
        out.append(piece)
        used += len(piece)
    return "".join(out)


def page_setup(
    ws: Any,
    rating: Rating,
    lang: str,
    *,
    landscape: bool,
    header_row: int | None,
    fit_height: int = 0,
) -> None:
    """A4, one page wide, header rows repeated, name and dates on top, page numbers below."""
    ws.set_paper(A4)
    if landscape:
        ws.set_landscape()
    else:
        ws.set_portrait()
    ws.fit_to_pages(1, fit_height)
    ws.set_margins(left=0.4, right=0.4, top=0.75, bottom=0.7)
    if header_row is not None:
        ws.repeat_rows(header_row)
        ws.freeze_panes(header_row + 1, 0)
    tournament = rating.tournament
    # Sections in the order L, C, R: some readers parse them only in that order.
    header = f'&L&"-,Bold"{_header_text(tournament.title(lang), _NAME_LIMIT)}'
    if rating.provisional:
        notice = _header_text(TEXT["provisional"](lang), _NOTICE_LIMIT)
        header += f'&C&"-,Bold"&KC00000{notice}'
    header += f"&R{_header_text(tournament.dates, _DATES_LIMIT)}"
    ws.set_header(header, {"margin": 0.3})
    ws.set_footer(f"&C{TEXT['footer'](lang)}", {"margin": 0.3})


def write_top(ws: Any, fmt: Formats, rating: Rating, lang: str, title: str) -> int:
    """Banner (when provisional), title and tournament line; returns the next free row."""
    row = 0
    if rating.provisional:
        ws.write_string(row, 0, TEXT["provisional"](lang), fmt.banner)
        row += 1
    tournament = rating.tournament
    name = tournament.title(lang)
    ws.write_string(row, 0, f"{name} — {title}" if name else title, fmt.title)
    row += 1
    details = [tournament.city, tournament.dates]
    if tournament.chief_judge:
        details.append(f"{TEXT['chief_judge'](lang)}: {tournament.chief_judge}")
    line = " · ".join(part for part in details if part)
    if line:
        ws.write_string(row, 0, line, fmt.subtitle)
        row += 1
    return row + 1


@dataclass
class Column:
    """One table column: header, width, the formats of its numbers and texts, its cells.

    `cells` hold final values: `str`, a number, or None for a blank.
    """

    header: str
    width: float
    number_format: Any = None
    text_format: Any = None
    cells: list[Any] = field(default_factory=list)


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


def write_header(ws: Any, fmt: Formats, row: int, columns: Sequence[Column]) -> None:
    widths = [header_width(column.header, column.width) for column in columns]
    for col, (column, width) in enumerate(zip(columns, widths, strict=True)):
        ws.write_string(row, col, column.header, fmt.header)
        ws.set_column(col, col, width)
    height = row_height(_header_lines(c.header, w) for c, w in zip(columns, widths, strict=True))
    ws.set_row(row, max(height or 0, 2 * LINE_HEIGHT + 2))


def _header_lines(header: str, width: float) -> tuple[str, float]:
    """A header as the lines it wraps into at spaces, for :func:`row_height`."""
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= (width - 1.5) / 1.2:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines), max(width, max((len(x) for x in lines), default=0) + 1.0)


def _cell_writer(ws: Any, column: Column) -> tuple[Any, Any]:
    """(write method, format) for a column whose cells are all text or all numbers, or a
    small dispatcher (and no format) for a column that mixes them, such as game ids."""
    write_string, write_number = ws.write_string, ws.write_number
    kinds = set(map(type, column.cells)) - {type(None)}
    if kinds <= {str}:
        return write_string, column.text_format
    if str not in kinds:
        return write_number, column.number_format
    text_format, number_format = column.text_format, column.number_format

    def write_mixed(row: int, col: int, value: Any, _: Any) -> None:
        if value.__class__ is str:
            write_string(row, col, value, text_format)
        else:
            write_number(row, col, value, number_format)

    return write_mixed, None


def write_rows(
    ws: Any,
    first_row: int,
    columns: Sequence[Column],
    *,
    wrapped: bool = False,
    blanks: bool = True,
) -> int:
    """Write the cells row by row (required by constant-memory mode); returns rows written.

    A None cell is written as a bordered blank, or skipped when `blanks` is off (the
    points sheet: the cheapest cell is the one never written). A large workbook
    (constant-memory mode) gets whole rows of XML from :mod:`.xlsx_bulk`; otherwise each
    column's write method and format are chosen once, so a cell costs one None check and
    one write call.
    """
    count = len(columns[0].cells) if columns else 0
    if not wrapped and xlsx_bulk.can_bulk(ws, first_row, count, len(columns)):
        return xlsx_bulk.write_bulk(
            ws,
            first_row,
            [c.cells for c in columns],
            [c.text_format for c in columns],
            [c.number_format for c in columns],
            blanks,
        )
    write_blank = ws.write_blank
    plan = [_cell_writer(ws, column) for column in columns]
    writers = [writer for writer, _ in plan]
    formats = [cell_format for _, cell_format in plan]
    blank_formats = [c.text_format for c in columns]
    widths = [c.width for c in columns]
    count = 0
    for row, values in enumerate(zip(*(c.cells for c in columns), strict=True), first_row):
        if wrapped:  # only for short tables: it costs a pass over every text
            height = row_height(zip(values, widths, strict=True))
            if height:
                ws.set_row(row, height)
        for col, value in enumerate(values):
            if value is not None:
                writers[col](row, col, value, formats[col])
            elif blanks:
                write_blank(row, col, None, blank_formats[col])
        count += 1
    return count


def write_table(
    ws: Any,
    fmt: Formats,
    row: int,
    columns: Sequence[Column],
    *,
    autofilter: bool = True,
    wrapped: bool = False,
) -> int:
    """Header at `row`, cells below it, an autofilter over both; returns the next free row."""
    write_header(ws, fmt, row, columns)
    count = write_rows(ws, row + 1, columns, wrapped=wrapped)
    if autofilter and columns:
        ws.autofilter(row, 0, row + max(count, 1), len(columns) - 1)
    return row + 1 + count


def shown_points(frame: pd.DataFrame, code: str, scale: int) -> pd.Series:
    """The points shown for `code`: its exact units (`<code>_u`) as a number of points.

    This is where the rating's exact values become floats: for display only, never to
    decide anything (places and ties are decided on the exact values in the rating).
    """
    import pandas as pd

    units = frame.get(f"{code}_u")
    return pd.Series(None, index=frame.index, dtype=float) if units is None else units / scale


def shown_k(series: pd.Series) -> pd.Series:
    """The exact K of each game as the number shown in its cell."""
    return series.map(float, na_action="ignore")


def number_cells(series: pd.Series, *, blank_zero: bool = False) -> list[float | None]:
    """Numbers as floats, blanks and non-numbers as None (xlsxwriter refuses NaN).

    With `blank_zero`, zeros are blanks too (the points sheet's components).
    """
    import numpy as np
    import pandas as pd

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
    An object column holding anything but text is converted cell by cell instead:
    factorize would take 1, 1.0 and True for one value.
    """
    import numpy as np
    import pandas as pd

    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    if series.dtype == object and not all(u.__class__ is str for u in uniques):
        missing = series.isna().tolist()
        return [
            None if gap else convert(value)
            for value, gap in zip(series.tolist(), missing, strict=True)
        ]
    table = np.empty(len(uniques) + 1, dtype=object)  # the last slot is code -1: a blank
    table[:-1] = [convert(value) for value in uniques]
    return table[codes].tolist()


def text_cells(series: pd.Series) -> list[str | None]:
    """Anything as text: a nickname stays text even when it looks like a number."""
    return _per_value(series, lambda value: str(_plain(value)))


def _whole(text: str) -> int | None:
    """`"12"` → 12; `"012"`, `"A1"`, `"1.5"` stay text (a leading zero may be meaningful)."""
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    return None


def _mixed(value: Any) -> Any:
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
    from ..vocab import game_name

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
    longest = max((len(t) for t in texts if t), default=0)
    return max(minimum, min(maximum, longest + 2))
