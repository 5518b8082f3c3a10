"""The XML scan of an OpenDocument spreadsheet (.ods), before any reader runs.

An .ods keeps every sheet in one `content.xml`, and a cell has no address: its place is
the count of the rows and cells before it, and `table:number-rows-repeated` /
`number-columns-repeated` stand for as many copies of a row or a cell. A few hundred bytes
can so stand for billions of cells, a `<text:s text:c="…">` for a billion spaces, and a
DTD for entities that expand without end — each of which the reader would build in
memory. This scan streams `content.xml` once, in time linear in its bytes (every pattern
is anchored at a tag's `<` and cannot cross the next one; a tag longer than MAX_TAG is
refused), and returns per sheet what the reader would build: the span of the cells that
hold something and how many they are, repeats expanded, the merged ranges, the hidden
columns and whether the sheet is hidden, and the formulas without a value. The limits
themselves are judged in :mod:`.safety`, as for an xlsx.

Nothing here words a message for the judge: a refused document raises
:class:`~.xlsxscan.Unsafe` or :class:`~.xlsxscan.Damaged` with the reason only.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..text import Text
from .xlsxscan import MAX_COL, MAX_ROW, Damaged, Grid, Unsafe, number

MAX_TAG = 1 << 16  # no tag of a spreadsheet's XML is this long; a longer one is refused
# A row's XML, at most: 16,384 cells of a protocol's short texts are well under 8 MB.
MAX_ROW_BYTES = 16 * 1024**2
# Elements the scan walks one by one (each costs the scan, and the reader, a step): a
# 100,000-game protocol has ~1.1M rows and ~10M cells.
MAX_ROW_ELEMENTS = 4_000_000
MAX_CELL_ELEMENTS = 24_000_000
MAX_SHEETS = 10_000  # as many as an xlsx may hold parts
# `<text:s text:c="N"/>` stands for N spaces: no cell holds more than Excel's 32,767
# characters, and a protocol has few runs of spaces at all.
MAX_SPACE_RUN = 32_767
MAX_SPACES = 16_000_000
# The text that repeated cells copy (a cell's text × its repeats − 1): the reader keeps a
# copy in every cell.
MAX_COPIED_TEXT = 256 * 1024**2

# Tags the scan reads; each is matched from its `<`, its attributes cannot hold `<` or `>`.
_STRUCT = re.compile(rb"<(/?)table:(table|table-column|table-row)(?=[\s/>])([^<>]{0,65536})>")
_CELL = re.compile(rb"<table:(covered-)?table-cell(?=[\s/>])([^<>]{0,65536})>")
_CELL_END = b"</table:table-cell>"
_SPACES = re.compile(rb"<text:s(?=[\s/>])[^<>]{0,65536}?\btext:c\s*=\s*[\"']\s*([^\"']*)[\"']")
_STYLE = re.compile(
    rb"<style:style(?=[\s/>])([^<>]{0,65536})>\s*<style:table-properties(?=[\s/>])([^<>]{0,65536})>"
)
_ATTR = re.compile(rb"(?:^|\s)([\w.\-]+:[\w.\-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
# What makes an XML document expand or reach outside itself.
_DTD = (b"<!DOCTYPE", b"<!ENTITY")
_NS = re.compile(
    rb"xmlns:([\w.\-]+)\s*=\s*[\"']urn:oasis:names:tc:opendocument:xmlns:(table|text|office):1\.0[\"']"
)


@dataclass
class OdsSheet:
    """One sheet (`<table:table>`) as the reader will build it."""

    name: str
    style: str
    grid: Grid = field(default_factory=Grid)
    written: int = 0  # the cell elements holding something, as written (before repeats)
    hidden_columns: set[int] = field(default_factory=set)  # 0-based
    merges: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    bare_cells: list[str] = field(default_factory=list)  # formulas without a value
    bare_count: int = 0
    hidden: bool = False


@dataclass
class OdsScan:
    sheets: list[OdsSheet] = field(default_factory=list)
    spaces: int = 0
    copied_text: int = 0
    rows: int = 0  # row elements
    cells: int = 0  # cell elements


class _Cursor:
    """Where the scan is inside the current sheet."""

    def __init__(self, sheet: OdsSheet) -> None:
        self.sheet = sheet
        self.row = 0  # 0-based position of the next row
        self.column = 0  # 0-based position of the next table-column definition


def check_dtd(chunks: Iterator[bytes], part: str) -> None:
    """Refuse a part that declares a DTD or entities: a reader could expand them without
    end. `part` names it in the reason."""
    tail = b""
    for chunk in chunks:
        data = tail + chunk
        if any(mark in data for mark in _DTD):
            raise Unsafe(
                Text(
                    f"{part} объявляет DTD или сущности (<!DOCTYPE, <!ENTITY)",
                    f"{part} declares a DTD or entities (<!DOCTYPE, <!ENTITY)",
                )
            )
        tail = data[-16:]


def scan_content(chunks: Iterator[bytes]) -> OdsScan:
    """Every sheet of `content.xml`, read from a stream of its bytes."""
    scan = OdsScan()
    styles: dict[str, bool] = {}  # table style name → hidden
    buf, cursor = b"", None
    body = False
    for chunk in chunks:
        buf += chunk
        if not body:
            at = buf.find(b"<office:body")
            if at == -1:
                _refuse_dtd(buf)
                _long_head(buf)
                continue
            head, buf, body = buf[:at], buf[at:], True
            _refuse_dtd(head)
            _namespaces(head)
            styles = _styles(head)
        buf, cursor = _body(buf, scan, cursor, styles, final=False)
    if not body:
        raise Damaged(Text("в content.xml нет листов", "content.xml holds no sheets"))
    _body(buf, scan, cursor, styles, final=True)
    return scan


def _refuse_dtd(buf: bytes) -> None:
    if any(mark in buf for mark in _DTD):
        raise Unsafe(
            Text(
                "content.xml объявляет DTD или сущности (<!DOCTYPE, <!ENTITY)",
                "content.xml declares a DTD or entities (<!DOCTYPE, <!ENTITY)",
            )
        )


def _long_head(buf: bytes) -> None:
    """The styles before the sheets are kilobytes; past MAX_ROW_BYTES it is no protocol."""
    if len(buf) > MAX_ROW_BYTES:
        raise Unsafe(
            Text(
                "в content.xml до листов больше "
                f"{number(MAX_ROW_BYTES // 1024**2, 'ru')} МБ оформления",
                f"content.xml holds over {number(MAX_ROW_BYTES // 1024**2, 'en')} MB of "
                "styles before its sheets",
            )
        )


def _namespaces(head: bytes) -> None:
    """The reader finds cells by their usual prefixes (`table:`, `text:`, `office:`); a
    document binding those names to other prefixes would be read differently by it and
    by this scan: refused."""
    for prefix, name in _NS.findall(head):
        if prefix != name:
            raise Damaged(
                Text(
                    f"пространство имён {name.decode()} записано под приставкой "
                    f"«{prefix.decode()}»",
                    f"the {name.decode()} namespace is bound to the prefix “{prefix.decode()}”",
                )
            )


def _styles(head: bytes) -> dict[str, bool]:
    """Table styles (by name) and whether they hide the sheet (`table:display="false"`)."""
    styles = {}
    for match in _STYLE.finditer(head):
        attrs, props = _attrs(match.group(1)), _attrs(match.group(2))
        if attrs.get("style:family") == "table" and "style:name" in attrs:
            styles[attrs["style:name"]] = props.get("table:display") == "false"
    return styles


def _body(
    buf: bytes,
    scan: OdsScan,
    cursor: _Cursor | None,
    styles: dict[str, bool],
    final: bool,
) -> tuple[bytes, _Cursor | None]:
    """Read the complete structures in `buf`; return what is left (a row whose end is not
    in view yet) and where the scan is. Every byte before the returned rest is read once,
    its runs of spaces counted once."""
    tags = list(_STRUCT.finditer(buf))
    done = 0
    for index, tag in enumerate(tags):
        closing, kind, attrs = tag.group(1), tag.group(2), tag.group(3)
        following = tags[index + 1].start() if index + 1 < len(tags) else None
        if kind == b"table-row" and not closing:
            if following is None and not final:
                break  # the row may go on in the next chunk
            end = following if following is not None else len(buf)
            _row(attrs, buf[tag.end() : end], scan, _need(cursor))
            done = end
            continue
        if kind == b"table" and not closing:
            cursor = _table(attrs, scan, styles)
        elif kind == b"table-column" and not closing:
            _column(attrs, _need(cursor))
        done = tag.end()
    if final:
        done = len(buf)
    _spaces(buf, done, scan)
    rest = buf[done:]
    if not final:
        _long_tag(rest)
        if len(rest) > MAX_ROW_BYTES:
            raise Unsafe(
                Text(
                    "строка листа в content.xml длиннее "
                    f"{number(MAX_ROW_BYTES // 1024**2, 'ru')} МБ",
                    "a row of a sheet in content.xml is over "
                    f"{number(MAX_ROW_BYTES // 1024**2, 'en')} MB",
                )
            )
    return rest, cursor


def _long_tag(rest: bytes) -> None:
    """A `<` with no `>` within MAX_TAG bytes: no reader should walk such a tag."""
    at = rest.rfind(b"<")
    if at != -1 and len(rest) - at > MAX_TAG and rest.find(b">", at) == -1:
        raise Unsafe(
            Text(
                f"в content.xml тег длиннее {number(MAX_TAG, 'ru')} байт",
                f"content.xml has a tag longer than {number(MAX_TAG, 'en')} bytes",
            )
        )


def _need(cursor: _Cursor | None) -> _Cursor:
    if cursor is None:
        raise Damaged(Text("строки вне листа в content.xml", "rows outside a sheet in content.xml"))
    return cursor


def _spaces(buf: bytes, end: int, scan: OdsScan) -> None:
    """`<text:s text:c="N"/>` in buf[:end]: N spaces the reader will build (no tag crosses
    `end`, which is a tag's `<` or the buffer's end)."""
    for text in _SPACES.findall(buf, 0, end):
        run = int(text) if text.strip().isdigit() and len(text) < 12 else MAX_SPACE_RUN + 1
        if run > MAX_SPACE_RUN:
            raise Unsafe(
                Text(
                    f"в content.xml {_big(run, 'ru')} пробелов подряд в одной ячейке (предел "
                    f"{number(MAX_SPACE_RUN, 'ru')})",
                    f"content.xml has a run of {_big(run, 'en')} spaces in one cell (limit "
                    f"{number(MAX_SPACE_RUN, 'en')})",
                )
            )
        scan.spaces += run
    if scan.spaces > MAX_SPACES:
        raise Unsafe(
            Text(
                f"в content.xml больше {number(MAX_SPACES, 'ru')} повторённых пробелов",
                f"content.xml repeats over {number(MAX_SPACES, 'en')} spaces",
            )
        )


def _big(value: int, lang: str) -> str:
    return (
        number(value, lang)
        if value < 10**15
        else Text("немыслимое число", "an absurd number")(lang)
    )


def _attrs(text: bytes) -> dict[str, str]:
    """Attributes by their qualified name, entities decoded."""
    found = {}
    for name, double, single in _ATTR.findall(text):
        value = (double if double or not single else single).decode("utf-8", "replace")
        found[name.decode("ascii", "replace")] = html.unescape(value) if "&" in value else value
    return found


_COUNT = re.compile(rb"\s*=\s*[\"']\s*([0-9]{1,12})\s*[\"']")


def _repeat(attrs: bytes, name: bytes, limit: int) -> int:
    """A repeat or span count (1 when absent); past `limit` (or not a number): limit + 1."""
    at = attrs.find(name)
    if at == -1:
        return 1
    match = _COUNT.match(attrs, at + len(name))
    if match is None:
        return limit + 1
    return max(1, min(int(match.group(1)), limit + 1))


def _table(attrs: bytes, scan: OdsScan, styles: dict[str, bool]) -> _Cursor:
    if len(scan.sheets) >= MAX_SHEETS:
        raise Unsafe(
            Text(
                f"в книге больше {number(MAX_SHEETS, 'ru')} листов",
                f"the workbook holds over {number(MAX_SHEETS, 'en')} sheets",
            )
        )
    named = _attrs(attrs)
    style = named.get("table:style-name", "")
    sheet = OdsSheet(named.get("table:name", ""), style, hidden=styles.get(style, False))
    scan.sheets.append(sheet)
    return _Cursor(sheet)


def _column(attrs: bytes, cursor: _Cursor) -> None:
    count = _repeat(attrs, b"table:number-columns-repeated", MAX_COL)
    if b"collapse" in attrs and _attrs(attrs).get("table:visibility") in ("collapse", "filter"):
        cursor.sheet.hidden_columns.update(
            range(cursor.column, min(cursor.column + count, MAX_COL))
        )
    cursor.column += count


def _row(attrs: bytes, segment: bytes, scan: OdsScan, cursor: _Cursor) -> None:
    """One `<table:table-row>` and its cells: where the cells holding something are."""
    scan.rows += 1
    scan.cells += segment.count(b"<table:table-cell") + segment.count(b"<table:covered-table-cell")
    if scan.rows > MAX_ROW_ELEMENTS or scan.cells > MAX_CELL_ELEMENTS:
        raise Unsafe(
            Text(
                f"в content.xml больше {number(MAX_ROW_ELEMENTS, 'ru')} строк или "
                f"{number(MAX_CELL_ELEMENTS, 'ru')} ячеек",
                f"content.xml holds over {number(MAX_ROW_ELEMENTS, 'en')} rows or "
                f"{number(MAX_CELL_ELEMENTS, 'en')} cells",
            )
        )
    repeat = _repeat(attrs, b"table:number-rows-repeated", MAX_ROW)
    sheet, grid, row = cursor.sheet, cursor.sheet.grid, cursor.row
    column = first = last = 0
    held = 0
    for cell in _CELL.finditer(segment):
        tag = cell.group(2)
        count = (
            _repeat(tag, b"table:number-columns-repeated", MAX_COL) if b"-repeated" in tag else 1
        )
        full = not tag.endswith(b"/") or b"office:value-type" in tag
        if cell.group(1) is None and full:
            held += count
            sheet.written += 1
            first = first or column + 1
            last = column + count
            if count > 1 or repeat > 1:
                _copied(segment, cell.end(), count * repeat - 1, scan)
            if b"-spanned" in tag:
                _merge(tag, row, column, sheet)
            if b"table:formula" in tag and b"office:value-type" not in tag:
                _bare(row, column, repeat, sheet)
        column += count
    if held:
        grid.cells += held * repeat
        grid.referenced = grid.cells
        grid.add_span((first, last), (row + 1, row + repeat))
        if not grid.outside and (last > MAX_COL or row + repeat > MAX_ROW):
            grid.outside = _address(row + repeat - 1 if row + repeat > MAX_ROW else row, last - 1)
    cursor.row += repeat


def _copied(segment: bytes, start: int, copies: int, scan: OdsScan) -> None:
    """The text a repeated cell makes the reader copy."""
    end = segment.find(_CELL_END, start)
    size = (end if end != -1 else len(segment)) - start
    scan.copied_text += size * copies
    if scan.copied_text > MAX_COPIED_TEXT:
        raise Unsafe(
            Text(
                "повторённые ячейки копируют больше "
                f"{number(MAX_COPIED_TEXT // 1024**2, 'ru')} МБ текста",
                f"repeated cells copy over {number(MAX_COPIED_TEXT // 1024**2, 'en')} MB of text",
            )
        )


def _merge(tag: bytes, row: int, column: int, sheet: OdsSheet) -> None:
    rows = _repeat(tag, b"table:number-rows-spanned", MAX_ROW)
    columns = _repeat(tag, b"table:number-columns-spanned", MAX_COL)
    if (rows > 1 or columns > 1) and len(sheet.merges) < 100_000:
        sheet.merges.append(((row, column), (row + rows - 1, column + columns - 1)))


def _bare(row: int, column: int, repeat: int, sheet: OdsSheet) -> None:
    sheet.bare_count += repeat
    if len(sheet.bare_cells) < 3:
        sheet.bare_cells.append(_address(row, column))


def _address(row: int, column: int) -> str:
    """0-based (row, column) → `A1` as the .ods shows it."""
    letters, index = "", min(column, 26**4) + 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row + 1}"
