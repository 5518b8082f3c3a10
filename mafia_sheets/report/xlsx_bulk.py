"""Whole rows appended to a constant-memory worksheet as XML: the path of large tables.

xlsxwriter spends about 5 µs on every cell (argument checks, a cell tuple, escaping its
attributes, one file write), so the points sheet of a 10,000-game season — 700,000 cells
— cost more than reading, checking and rating the season together. In constant-memory
mode a finished row is plain XML appended to the worksheet's temporary file, so here a
table's rows are rendered whole and appended, with the markup xlsxwriter gives the same
cells (the tests compare both paths byte for byte) and with xlsxwriter's own escaping of
text. A worksheet this cannot serve exactly — in-memory mode, a row with its own height
or a comment, an xlsxwriter whose internals differ — is written the ordinary way.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from .. import text

log = logging.getLogger("mafia_sheets.report")

_INTERNALS = (
    "fh",
    "table",
    "previous_row",
    "row_info",
    "col_info",
    "comments",
    "default_row_height",
    "original_row_height",
    "excel_version",
    "xls_rowmax",
    "xls_colmax",
    "xls_strmax",
    "_write_single_row",
    "_check_dimensions",
    "_escape_control_characters",
    "_escape_data",
)
_NONE = type(None)
# xlsxwriter 3.3's rules for inline strings, kept here rather than imported from its private
# helpers: text with leading or trailing white space needs xml:space="preserve".
_EDGE_SPACE = re.compile(r"^\s|\s$")
_ROWS_PER_WRITE = 5_000  # rows rendered and joined before they go to the temp file


def bulk_available(ws: Any) -> bool:
    """Whether this xlsxwriter has the worksheet internals the fast path writes through.

    Pinned to the tested 3.3 series; should another release lack them, every table is
    written cell by cell (correct, about 3× slower) and the log says so once.
    """
    missing = [name for name in _INTERNALS if not hasattr(ws, name)]
    if missing and not _WARNED:
        _WARNED.append(True)
        log.warning(
            "mafia-sheets: this xlsxwriter lacks %s; results are written cell by cell (slower)",
            ", ".join(missing),
        )
    return not missing


_WARNED: list[bool] = []


def can_bulk(ws: Any, first_row: int, count: int, width: int) -> bool:
    """True when rows first_row … first_row+count-1 can be appended as XML exactly."""
    if not getattr(ws, "constant_memory", False) or count == 0:
        return False
    if not bulk_available(ws):
        return False
    last = first_row + count - 1
    return (
        first_row > ws.previous_row
        and last < ws.xls_rowmax
        and width <= ws.xls_colmax
        and ws.default_row_height == ws.original_row_height
        and ws.excel_version != 2010
        and not any(first_row <= row <= last for row in ws.row_info)
        and not any(first_row <= row <= last for row in ws.comments)
    )


def write_bulk(
    ws: Any,
    first_row: int,
    cells: Sequence[list[Any]],
    text_formats: Sequence[Any],
    number_formats: Sequence[Any],
    blanks: bool,
) -> int:
    """Append the rows (cells given column by column) to `ws`; returns the rows written.

    A str is an inline string in the column's text format, anything else a number in
    its number format, None a blank in the text format (when `blanks`) or nothing —
    exactly what `write_string`, `write_number` and `write_blank` would store.
    """
    count = len(cells[0]) if cells else 0
    if any(len(column) != count for column in cells):
        raise ValueError("columns of different lengths")
    ws._write_single_row(first_row)  # the header row, still pending, goes out first
    text_styles, number_styles = _styles(ws, cells, text_formats, number_formats, blanks)
    # write_blank stores nothing without a format of its own
    blank_styles = [
        style if blanks and cell_format is not None else None
        for style, cell_format in zip(text_styles, text_formats, strict=True)
    ]
    renderers = [
        _Column(ws, xl_col_to_name(col), text_styles[col], number_styles[col], blank_styles[col])
        for col in range(len(cells))
    ]
    first = last = None
    for start in range(0, count, _ROWS_PER_WRITE):
        stop = min(count, start + _ROWS_PER_WRITE)
        labels = [str(row + 1) for row in range(first_row + start, first_row + stop)]
        parts = [
            renderer.render(column[start:stop], labels)
            for renderer, column in zip(renderers, cells, strict=True)
        ]
        bodies = list(map("".join, zip(*parts, strict=True)))
        ws.fh.write(
            "".join(
                [
                    f'<row r="{label}">{body}</row>'
                    for label, body in zip(labels, bodies, strict=True)
                    if body
                ]
            )
        )
        filled = (
            [index for index, body in enumerate(bodies) if body]
            if "" in bodies
            else [0, len(bodies) - 1]
        )
        if filled:
            first = first_row + start + filled[0] if first is None else first
            last = first_row + start + filled[-1]
    if first is not None and last is not None:
        used = [col for col, renderer in enumerate(renderers) if renderer.used]
        ws._check_dimensions(first, used[0])
        ws._check_dimensions(last, used[-1])
        ws.previous_row = last  # rows above it are final, as after ordinary writes
    return count


class _Column:
    """Renders one column's cells; each distinct text's markup is built once."""

    def __init__(
        self, ws: Any, letter: str, text_style: str, number_style: str, blank_style: str | None
    ) -> None:
        self.used = False
        self.cell = f'<c r="{letter}'
        self.text = _Texts(ws, f'"{text_style} t="inlineStr"><is>')
        self.number = f'"{number_style}><v>'
        self.blank = None if blank_style is None else f'"{blank_style}/>'

    def render(self, values: list[Any], rows: list[str]) -> list[str]:
        """`<c …>` of each cell ("" for a cell not written); `rows` are the row labels.

        Numbers are formatted as xlsxwriter formats them (`.16G`), inline in the
        comprehension: most of them (running totals) are distinct.
        """
        kinds = set(map(type, values))
        if not kinds:
            return []
        if kinds != {_NONE} or self.blank is not None:
            self.used = True
        cell, text, number, blank = self.cell, self.text, self.number, self.blank
        if kinds == {str}:
            return [f"{cell}{row}{text[value]}" for row, value in zip(rows, values, strict=True)]
        if kinds - {str, _NONE}:
            _refuse_nan(
                [v for v in values if v is not None and v.__class__ is not str]
                if kinds & {str, _NONE}
                else values
            )
        shown = _shown_numbers(values)
        if shown is None:  # mostly distinct numbers: each formatted where it stands
            return [
                ("" if blank is None else f"{cell}{row}{blank}")
                if value is None
                else f"{cell}{row}{text[value]}"
                if value.__class__ is str
                else f"{cell}{row}{number}{value:.16G}</v></c>"
                for row, value in zip(rows, values, strict=True)
            ]
        if not kinds & {str, _NONE}:  # zeros are formatted apart: 0.0 and -0.0 are one key
            return [
                f"{cell}{row}{number}{shown[value] if value else f'{value:.16G}'}</v></c>"
                for row, value in zip(rows, values, strict=True)
            ]
        return [
            ("" if blank is None else f"{cell}{row}{blank}")
            if value is None
            else f"{cell}{row}{text[value]}"
            if value.__class__ is str
            else f"{cell}{row}{number}{shown[value] if value else f'{value:.16G}'}</v></c>"
            for row, value in zip(rows, values, strict=True)
        ]


class _Texts(dict):  # type: ignore[type-arg]
    """text → the rest of its cell's markup, built on first use (hits are dict lookups)."""

    def __init__(self, ws: Any, head: str) -> None:
        super().__init__()
        self.ws = ws
        self.head = head

    def __missing__(self, value: str) -> str:
        markup = self[value] = f"{self.head}{_inline_text(self.ws, value)}</is></c>"
        return markup


def _shown_numbers(values: list[Any]) -> dict[Any, str] | None:
    """The `.16G` texts of the distinct non-zero numbers among `values`, when they repeat.

    Equal numbers share one key (1 and 1.0), and so does their text; zeros are left out
    because 0.0 and -0.0 are equal but written differently. None for mostly distinct
    numbers (running totals): a table would cost more than it saves.
    """
    distinct = set(values)
    if len(distinct) * 4 > len(values):
        return None
    return {
        value: f"{value:.16G}"
        for value in distinct
        if value is not None and value.__class__ is not str and value
    }


def _refuse_nan(values: list[Any]) -> None:
    """NaN and infinities are refused, as xlsxwriter refuses them (one C-level sum)."""
    if not math.isfinite(sum(values, 0.0)):  # else: a NaN, an infinity or an overflow
        for value in values:
            if not math.isfinite(value):
                raise TypeError(f"NAN/INF not supported in write_number(): {value}")


def _styles(
    ws: Any,
    cells: Sequence[list[Any]],
    text_formats: Sequence[Any],
    number_formats: Sequence[Any],
    blanks: bool,
) -> tuple[list[str], list[str]]:
    """Each column's ` s="…"` attribute for text (and blanks) and for numbers.

    Excel numbers formats in the order cells first use them; the formats are numbered
    here in that same order (row by row, then column by column) so that the workbook's
    styles come out as the ordinary path would number them.
    """
    firsts: list[tuple[int, int, Any]] = []
    for col, column in enumerate(cells):
        kinds = set(map(type, column))
        found = []
        if str in kinds:
            found.append((_first(column, lambda value: value.__class__ is str), text_formats[col]))
        if kinds - {str, type(None)}:
            found.append(
                (
                    _first(column, lambda value: value is not None and value.__class__ is not str),
                    number_formats[col],
                )
            )
        if blanks and type(None) in kinds:
            found.append((column.index(None), text_formats[col]))
        firsts += [(at, col, cell_format) for at, cell_format in found if cell_format is not None]
    for _, _, cell_format in sorted(firsts, key=lambda first: first[:2]):
        cell_format._get_xf_index()

    def style(col: int, cell_format: Any) -> str:
        if cell_format is None:  # a column format applies, as in xlsxwriter's _write_cell
            cell_format = getattr(ws.col_info.get(col), "column_format", None)
        return "" if cell_format is None else f' s="{cell_format._get_xf_index()}"'

    return (
        [style(col, f) for col, f in enumerate(text_formats)],
        [style(col, f) for col, f in enumerate(number_formats)],
    )


def _first(column: list[Any], wanted: Callable[[Any], bool]) -> int:
    return next(index for index, value in enumerate(column) if wanted(value))


def _inline_text(ws: Any, value: str) -> str:
    """`<t>…</t>` of an inline string, escaped as xlsxwriter escapes it.

    Unlike xlsxwriter, a text that happens to look like rich-text markup (`<r>…</r>`)
    is escaped too: a nickname is never markup. Control characters are shown as their
    visible escapes (`\\x1b`), as the worksheet's ordinary path shows them.
    """
    value = text.cell(value)
    if len(value) > ws.xls_strmax // 2 and text.utf16_length(value) > ws.xls_strmax:
        value = _utf16_truncate(value, ws.xls_strmax)
    value = ws._escape_control_characters(value)
    preserve = ' xml:space="preserve"' if _EDGE_SPACE.search(value) else ""
    return f"<t{preserve}>{ws._escape_data(value)}</t>"


def _utf16_truncate(value: str, limit: int) -> str:
    """The longest start of `value` within `limit` UTF-16 units, never half a character."""
    length = 0
    for index, char in enumerate(value):
        length += 2 if ord(char) > 0xFFFF else 1
        if length > limit:
            return value[:index]
    return value
