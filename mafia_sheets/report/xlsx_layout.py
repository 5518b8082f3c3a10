"""Formats, print setup and table writing shared by every sheet of the results workbook.

Cell formats are explicit (borders, number formats) rather than Excel table styles,
because LibreOffice does not draw table styles and the printout must look the same
everywhere. Every user-supplied text goes through `write_string`, so a nickname such as
`=1+1` or `@cmd` is stored as text and never becomes a formula.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model import Rating
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
        header=add({**_BORDER, "bold": True, "bg_color": "#D9E1F2", "text_wrap": True,
                    "align": "center", "valign": "vcenter"}),
        text=add(_BORDER),
        center=add({**_BORDER, "align": "center"}),
        wrap=add({**_BORDER, "text_wrap": True}),
        integer=add({**_BORDER, "num_format": "0", "align": "center"}),
        # Display only: values are written unrounded, Excel shows two decimals.
        number=add({**_BORDER, "num_format": "0.00"}),
        k=add({**_BORDER, "num_format": "0.00##"}),
        general=add({**_BORDER, "num_format": "General", "align": "left"}),
        code=add({**_BORDER, "num_format": "General", "align": "center"}),
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


def page_setup(ws: Any, rating: Rating, lang: str, *, landscape: bool,
               header_row: int | None, fit_height: int = 0) -> None:
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
    header = f'&L&"-,Bold"{_header_text(tournament.name, _NAME_LIMIT)}'
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
    ws.write_string(row, 0, f"{tournament.name} — {title}" if tournament.name else title,
                    fmt.title)
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
            lines = max(lines, sum(-(-len(part) // int(per_line)) or 1
                                   for part in text.split("\n")))
    return LINE_HEIGHT * lines + 2 if lines > 1 else None


def write_header(ws: Any, fmt: Formats, row: int, columns: Sequence[Column]) -> None:
    for col, column in enumerate(columns):
        ws.write_string(row, col, column.header, fmt.header)
        ws.set_column(col, col, column.width)
    height = row_height((c.header, c.width) for c in columns)
    ws.set_row(row, max(height or 0, 2 * LINE_HEIGHT + 2))


def write_rows(ws: Any, first_row: int, columns: Sequence[Column], *,
               wrapped: bool = False) -> int:
    """Write the cells row by row (required by constant-memory mode); returns rows written.

    The loop is the hot path for a million-row points sheet: methods and formats are
    looked up once, and each cell costs one class check and one write call.
    """
    write_string, write_number, write_blank = ws.write_string, ws.write_number, ws.write_blank
    text_formats = [c.text_format for c in columns]
    number_formats = [c.number_format for c in columns]
    count = 0
    widths = [c.width for c in columns]
    for row, values in enumerate(zip(*(c.cells for c in columns), strict=True), first_row):
        if wrapped:  # only for short tables: it costs a pass over every text
            height = row_height(zip(values, widths, strict=True))
            if height:
                ws.set_row(row, height)
        for col, value in enumerate(values):
            if value is None:
                write_blank(row, col, None, text_formats[col])
            elif value.__class__ is str:
                write_string(row, col, value, text_formats[col])
            else:
                write_number(row, col, value, number_formats[col])
        count += 1
    return count


def write_table(ws: Any, fmt: Formats, row: int, columns: Sequence[Column], *,
                autofilter: bool = True, wrapped: bool = False) -> int:
    """Header at `row`, cells below it, an autofilter over both; returns the next free row."""
    write_header(ws, fmt, row, columns)
    count = write_rows(ws, row + 1, columns, wrapped=wrapped)
    if autofilter and columns:
        ws.autofilter(row, 0, row + max(count, 1), len(columns) - 1)
    return row + 1 + count


def number_cells(series: pd.Series) -> list[float | None]:
    """Numbers as floats, blanks and non-numbers as None (xlsxwriter refuses NaN)."""
    import pandas as pd

    numeric = pd.to_numeric(series, errors="coerce").astype("float64")
    return numeric.astype(object).where(numeric.notna(), None).tolist()


def _plain(value: Any) -> Any:
    """numpy scalars → Python scalars; whole floats → int (so `3.0` shows as `3`)."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def text_cells(series: pd.Series) -> list[str | None]:
    """Anything as text: a nickname stays text even when it looks like a number."""
    missing = series.isna().tolist()
    return [None if gap else str(_plain(value))
            for value, gap in zip(series.tolist(), missing, strict=True)]


def _whole(text: str) -> int | None:
    """`"12"` → 12; `"012"`, `"A1"`, `"1.5"` stay text (a leading zero may be meaningful)."""
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    return None


def mixed_cells(series: pd.Series) -> list[Any]:
    """A game id, round or table: numbers (and whole-number texts) as numbers, else text.

    A number stored as text sorts as text (1, 10, 2) and Excel flags it on every cell.
    """
    missing = series.isna().tolist()
    out: list[Any] = []
    for value, gap in zip(series.tolist(), missing, strict=True):
        if gap:
            out.append(None)
            continue
        value = _plain(value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append(value)
            continue
        text = str(value)
        whole = _whole(text)
        out.append(text if whole is None else whole)
    return out


def word_cells(series: pd.Series, words: dict[Any, str]) -> list[str | None]:
    """Codes (or booleans) → display words; unknown codes are shown as they are."""
    missing = series.isna().tolist()
    out: list[str | None] = []
    for value, gap in zip(series.tolist(), missing, strict=True):
        if gap:
            out.append(None)
        else:
            word = words.get(_plain(value))
            out.append(word if word is not None else str(value))
    return out


def text_width(texts: Iterable[str | None], minimum: float, maximum: float) -> float:
    """A column width that fits the longest text, within bounds."""
    longest = max((len(t) for t in texts if t), default=0)
    return max(minimum, min(maximum, longest + 2))
