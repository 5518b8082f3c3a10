"""What every sheet of the results workbook shares: its styles, its top lines, its page
setup and the way a table is laid out (layer 2 of the report: no xlsxwriter here).

Cell styles are explicit (borders, number formats) rather than Excel table styles,
because LibreOffice does not draw table styles and the printout must look the same
everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...model import Rating
from ..cells import LINE_HEIGHT, header_lines, header_width, row_height
from ..engine import Column, Page, Sheet, Style
from ..labels import TEXT
from ..phrases import title

# Excel refuses page headers longer than 255 characters, formatting codes included:
# name 100 + notice 60 + dates 50 + codes 32 stays below it.
_NAME_LIMIT, _NOTICE_LIMIT, _DATES_LIMIT, _NOTE_LIMIT = 100, 60, 50, 80

_BORDER = Style(border=1, border_color="#BFBFBF", valign="top")


class LOOK:
    """Every cell style of the results workbook, in one place."""

    banner = Style(bold=True, font_color="#C00000", font_size=13)
    title = Style(bold=True, font_size=14)
    subtitle = Style(italic=True, font_color="#404040")
    notice = Style(font_color="#1F3864")
    alert = Style(bold=True, font_color="#C00000")
    alert_cell = replace(_BORDER, bold=True, font_color="#C00000", text_wrap=True)
    section = Style(bold=True, font_size=12, bottom=1)
    header = replace(
        _BORDER, bold=True, bg_color="#D9E1F2", text_wrap=True, align="center", valign="vcenter"
    )
    # header text turned upwards: the statistics' many narrow columns
    turned = replace(header, rotation=90, valign="bottom")
    text = _BORDER
    center = replace(_BORDER, align="center")
    wrap = replace(_BORDER, text_wrap=True)
    integer = replace(_BORDER, num_format="0", align="center")
    # display only: values are written unrounded, Excel shows two decimals
    number = replace(_BORDER, num_format="0.00")
    k = replace(_BORDER, num_format="0.00##")
    percent = replace(_BORDER, num_format="0.0%", align="center")
    general = replace(_BORDER, num_format="General", align="left")
    code = replace(_BORDER, num_format="General", align="center")
    gap = Style(border=1, border_color="#BFBFBF")  # the border of a cell left blank
    card_title = Style(bold=True, font_size=13)


# Every style of the book in a fixed order, numbered before any sheet is written: the
# numbers then do not depend on which sheet uses a style first, nor on which process.
STYLES = tuple(value for value in vars(LOOK).values() if isinstance(value, Style))


# A cell written by a call of its own costs about as much as this many streamed cells
# (what :func:`~..engine.write_sheets` balances the sheets by).
OWN_CALL = 15


def page_text(text: str, limit: int) -> str:
    """User text inside a page header: `&` starts a code there, so it is doubled.

    Cut to `limit` characters after doubling, never between the two `&` of a pair.

    >>> page_text("A&B", 10), page_text("A&B", 2)
    ('A&&B', 'A')
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


def page(
    rating: Rating,
    lang: str,
    *,
    landscape: bool,
    header_row: int | None,
    named: str = "",
    note: str = "",
) -> Page:
    """A4, one page wide, header rows repeated, name and dates on top, page numbers below.

    A sheet whose pages across repeat its first columns prints its title and `note` in
    the page's header and footer instead (`named`: the sheet's name after the title):
    a title row under repeated columns would be cut at their edge on every page but the
    first.
    """
    tournament = rating.tournament
    shown = title(tournament, lang)
    if named:
        shown = f"{shown} — {named}" if shown else named
    # sections in the order L, C, R: some readers parse them only in that order
    header = f'&L&"-,Bold"{page_text(shown, _NAME_LIMIT)}'
    if rating.provisional:
        notice = page_text(TEXT["provisional"](lang), _NOTICE_LIMIT)
        header += f'&C&"-,Bold"&KC00000{notice}'
    header += f"&R{page_text(tournament.dates, _DATES_LIMIT)}"
    footer = f"&L{page_text(note, _NOTE_LIMIT)}" if note else ""
    return Page(
        landscape=landscape,
        margins=(0.4, 0.4, 0.75, 0.7),
        header=header,
        footer=f"{footer}&C{TEXT['footer'](lang)}",
        repeat_rows=None if header_row is None else (header_row, header_row),
        freeze=None if header_row is None else (header_row + 1, 0),
    )


def write_top(sheet: Sheet, rating: Rating, lang: str, name: str) -> int:
    """Banner (when provisional), title and tournament line; returns the next free row."""
    row = 0
    if rating.provisional:
        sheet.text(row, 0, TEXT["provisional"](lang), LOOK.banner)
        row += 1
    tournament = rating.tournament
    shown = title(tournament, lang)
    sheet.text(row, 0, f"{shown} — {name}" if shown else name, LOOK.title)
    row += 1
    details = [tournament.city, tournament.dates]
    if tournament.chief_judge:
        details.append(f"{TEXT['chief_judge'](lang)}: {tournament.chief_judge}")
    line = " · ".join(part for part in details if part)
    if line:
        sheet.text(row, 0, line, LOOK.subtitle)
        row += 1
    return row + 1


def write_header(
    sheet: Sheet, row: int, columns: Sequence[Column], style: Style = LOOK.header
) -> None:
    """The header row; each column as wide as its header's longest word."""
    widths = [header_width(column.header, column.width) for column in columns]
    for col, (column, width) in enumerate(zip(columns, widths, strict=True)):
        sheet.text(row, col, column.header, style)
        sheet.width(col, col, width)
    height = row_height(header_lines(c.header, w) for c, w in zip(columns, widths, strict=True))
    sheet.height(row, max(height or 0, 2 * LINE_HEIGHT + 2))


def write_table(
    sheet: Sheet, row: int, columns: Sequence[Column], *, autofilter: bool = True
) -> int:
    """Header at `row`, cells below it, an autofilter over both; returns the next free row."""
    write_header(sheet, row, columns)
    count = sheet.table(row + 1, columns)
    if autofilter and columns:
        sheet.autofilter(row, 0, row + max(count, 1), len(columns) - 1)
    return row + 1 + count


def write_wrapped(sheet: Sheet, row: int, columns: Sequence[Column]) -> int:
    """A short table whose texts wrap: each row as tall as its longest text needs."""
    write_header(sheet, row, columns)
    widths = [c.width for c in columns]
    count = len(columns[0].cells) if columns else 0
    for offset in range(count):
        values = [c.cells[offset] for c in columns]
        height = row_height(zip(values, widths, strict=True))
        if height:
            sheet.height(row + 1 + offset, height)
        for col, (value, c) in enumerate(zip(values, columns, strict=True)):
            style = c.text_format if value is None or isinstance(value, str) else c.number_format
            sheet.write(row + 1 + offset, col, value, style)
    return row + 1 + count
