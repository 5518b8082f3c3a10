"""An OpenDocument spreadsheet (.ods) read once, from its bytes, as its reader will read it.

An .ods is a zip (`archive.Archive` judges it) whose sheets are all in one `content.xml`.
A cell there has no address: its place is the count of the rows and cells before it, and
`table:number-rows-repeated` / `number-columns-repeated` stand for as many copies of a
row or a cell — a few hundred bytes for billions of cells, which python-calamine would
build one by one; `<text:s text:c="N"/>` stands for N spaces. Every XML part is streamed
through `xmlscan.regions` (UTF-8, no document type — so no entity can expand —, bounded
tags, comments out), and `content.xml` is walked row by row in time linear in its bytes:
per sheet, the span of the cells that hold something and how many they are with every
repeat expanded (the reader's memory), the merged ranges, the hidden columns, whether the
sheet is hidden, and the formulas without a saved value. The limits are judged in
`reading/safety.py`, as for an xlsx; the reader is handed exactly the parts judged
(:meth:`OdsScan.reader_archive`).

Cells are found by the names python-calamine looks for (`table:table-cell` …); a document
that binds the table, text or office namespace to another prefix is refused, so the
reader and this scan can never read it apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..text import Text
from .archive import Archive, Damaged, Malformed, Refused, Unsafe, number
from .cellref import MAX_COL, MAX_ROW, column_letter
from .xlsxscan import Sheet
from .xlsxsheet import Grid, Scan
from .xmlscan import TAG_BODY, Markup, attributes, regions, text_of

MIME = b"application/vnd.oasis.opendocument.spreadsheet"
CONTENT = "content.xml"
MANIFEST = "META-INF/manifest.xml"
# what python-calamine opens (content.xml), and the parts an office program reads beside it
_READER_PARTS = ("mimetype", MANIFEST, CONTENT, "styles.xml", "meta.xml", "settings.xml")


@dataclass(frozen=True)
class OdsLimits:
    max_tag: int  # bytes of one tag, comment or CDATA section
    max_row_bytes: int  # bytes of one row's XML
    max_rows: int  # row elements the walk takes one by one, in the whole document
    max_cells: int  # cell elements, likewise
    max_sheets: int
    max_space_run: int  # spaces one `<text:s text:c>` stands for
    max_spaces: int  # all of them together
    max_copied_text: int  # bytes of text that repeated cells make the reader copy
    max_markup: int  # comments, processing instructions and CDATA sections, in the package


class Protected(Refused):
    """The document is encrypted (saved with a password)."""


@dataclass
class OdsScan:
    """The facts of an .ods, with the face of `xlsxscan.WorkbookScan`."""

    archive: Archive
    sheets: tuple[Sheet, ...]
    parts: tuple[str, ...]
    merges: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]]  # 0-based, per sheet
    strings: None = None

    def sheet(self, name: str) -> Sheet | None:
        return next((sheet for sheet in self.sheets if sheet.name == name), None)

    def hidden_columns(self) -> dict[str, frozenset[int]]:
        return {s.name: s.scan.hidden_columns for s in self.sheets if s.scan is not None}

    def reader_archive(self) -> bytes:
        """The archive python-calamine is given: the parts it reads, as judged."""
        return self.archive.rebuild(p for p in _READER_PARTS if p in self.parts)

    def copy_archive(self) -> bytes:
        return self.reader_archive()


def is_ods(archive: Archive) -> bool:
    """The package says it is an OpenDocument spreadsheet (its `mimetype` entry)."""
    entry = archive.entries.get("mimetype")
    return entry is not None and entry.size < 200 and archive.read("mimetype").strip() == MIME


def scan_ods(archive: Archive, limits: OdsLimits) -> OdsScan:
    """Read the package (see the module's docstring); raises `archive.Refused`."""
    if CONTENT not in archive.entries:
        raise Damaged(Text(f"нет части {CONTENT}", f"{CONTENT} is missing"))
    markup = Markup(limits.max_markup)  # shared by every part of the package
    if MANIFEST in archive.entries:
        manifest = b"".join(regions(archive.unpack(MANIFEST), MANIFEST, limits.max_tag, markup))
        if b"encryption-data" in manifest:
            raise Protected(Text("он защищён паролем", "it is password-protected"))
    parts = [p for p in _READER_PARTS if p in archive.entries]
    for part in parts:
        if part not in ("mimetype", CONTENT, MANIFEST):
            for _ in regions(archive.unpack(part), part, limits.max_tag, markup):
                pass  # well-formed enough for any reader: UTF-8, no DTD, bounded tags
    walk = _Content(limits)
    for region in regions(archive.unpack(CONTENT), CONTENT, limits.max_tag, markup):
        walk.feed(region)
    walk.finish()
    # every sheet is in content.xml; each is named apart, as an xlsx's sheets are parts
    sheets = tuple(
        Sheet(s.name, f"{CONTENT}#{n}", "hidden" if s.hidden else "visible", s.scan)
        for n, s in enumerate(walk.sheets, start=1)
    )
    return OdsScan(archive, sheets, tuple(parts), {s.name: s.merges for s in walk.sheets})


# ---- content.xml --------------------------------------------------------------------------

# The start of a table, a column definition, a row (`table:table-row-group`,
# `table:table-rows` … are wrappers: their names go on, so they are not these), and a
# whole tag from its `<`, quoted values (which may hold `>`) as one piece.
_TABLE = re.compile(rb"<table:table[\s/>]")
_COLUMN = re.compile(rb"<table:table-column[\s/>]")
_ROW = re.compile(rb"<table:table-row[\s/>]")
_ROW_END = b"</table:table-row>"
_WHOLE = re.compile(rb"<[^\s/>]++(" + TAG_BODY + rb")>")
_CELL = re.compile(rb"<table:(covered-)?table-cell(?=[\s/>])(" + TAG_BODY + rb")>")
_CELL_END = b"</table:table-cell>"
_SPACE = re.compile(rb"<text:s(?=[\s/>])(" + TAG_BODY + rb")>")
_STYLE = re.compile(
    rb"<style:style(?=[\s/>])([^<>]*+)>\s*+<style:table-properties(?=[\s/>])([^<>]*+)>"
)
_NAMESPACE = re.compile(
    rb"xmlns:([\w.\-]+)\s*=\s*[\"']urn:oasis:names:tc:opendocument:xmlns:(table|text|office):1\.0[\"']"
)
_COUNT = re.compile(rb"\s*=\s*[\"']\s*([0-9]{1,12})\s*[\"']")
# what sends a row to the cell-by-cell walk
_SLOW = re.compile(rb"-repeated|-spanned|table:formula")


@dataclass
class _Sheet:
    name: str
    hidden: bool
    scan: Scan = field(default_factory=Scan)
    merges: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    row: int = 0  # 0-based position of the next row
    column: int = 0  # 0-based position of the next column definition
    hidden_columns: set[int] = field(default_factory=set)


class _Content:
    """The walk over content.xml's regions: rows are read whole, once the next structural
    tag is in view; everything before the rest kept is read exactly once."""

    def __init__(self, limits: OdsLimits) -> None:
        self.limits = limits
        self.buf = b""
        self.body = False
        self.styles: dict[str, bool] = {}  # table style → hides its sheet
        self.sheets: list[_Sheet] = []
        self.rows = self.cells = self.spaces = self.copied = 0

    def feed(self, region: bytes) -> None:
        self.buf += region
        if not self.body:
            at = self.buf.find(b"<office:body")
            if at == -1:
                self._bound(self.buf, Text("оформления до листов", "styles before the sheets"))
                return
            self._head(self.buf[:at])
            self.body, self.buf = True, self.buf[at:]
        self._walk(final=False)

    def finish(self) -> None:
        if not self.body:
            raise Damaged(Text(f"в {CONTENT} нет листов", f"{CONTENT} holds no sheets"))
        self._walk(final=True)
        for sheet in self.sheets:
            sheet.scan.hidden_columns = frozenset(sheet.hidden_columns)

    def _head(self, head: bytes) -> None:
        for prefix, name in _NAMESPACE.findall(head):
            if prefix != name:
                raise Malformed(
                    Text(
                        f"в {CONTENT} пространство имён {name.decode()} под приставкой "
                        f"«{prefix.decode('ascii', 'replace')}»",
                        f"{CONTENT} binds the {name.decode()} namespace to the prefix "
                        f"“{prefix.decode('ascii', 'replace')}”",
                    )
                )
        for style in _STYLE.finditer(head):
            attrs, props = _attrs(style.group(1)), _attrs(style.group(2))
            if attrs.get(b"style:family") == b"table" and b"style:name" in attrs:
                hidden = props.get(b"table:display") == b"false"
                self.styles[text_of(attrs[b"style:name"]) or ""] = hidden

    def _walk(self, final: bool) -> None:
        """Tables, their column definitions and rows, in order, found by literal searches
        (each `<` is looked at by C code only); a row is read once its end is in view."""
        buf, pos = self.buf, 0
        table, column = _TABLE.search(buf), _COLUMN.search(buf)
        while True:
            row = _ROW.search(buf, pos)
            if table is not None and table.start() < pos:
                table = _TABLE.search(buf, pos)
            if column is not None and column.start() < pos:
                column = _COLUMN.search(buf, pos)
            found = row
            if table is not None and (found is None or table.start() < found.start()):
                found = table
            if column is not None and (found is None or column.start() < found.start()):
                found = column
            if found is None:
                break
            tag = _WHOLE.match(buf, found.start())
            if tag is None:
                break  # the tag goes on in the next region
            if found is not row:
                (self._table if found is table else self._column)(tag.group(1))
                pos = tag.end()
                continue
            after = close = tag.end()
            if not tag.group(1).endswith(b"/"):
                close = buf.find(_ROW_END, tag.end())
                if close == -1:
                    break  # the row goes on in the next region
                after = close + len(_ROW_END)
            self._row(tag.group(1), buf, tag.end(), close)
            pos = after
        if final:
            pos = len(buf)
        self._spaces(buf, pos)
        self.buf = buf[pos:]
        self._bound(self.buf, Text("одной строки листа", "one row of a sheet"))

    def _bound(self, pending: bytes, what: Text) -> None:
        limit = self.limits.max_row_bytes // 1024**2
        if len(pending) > self.limits.max_row_bytes:
            raise Unsafe(
                Text(
                    f"в {CONTENT} больше {number(limit, 'ru')} МБ {what.ru}",
                    f"{CONTENT} holds over {number(limit, 'en')} MB of {what.en}",
                )
            )

    def _spaces(self, buf: bytes, end: int) -> None:
        """`<text:s text:c="N"/>` before `end` (no tag crosses it): N spaces to build."""
        limits = self.limits
        for tag in _SPACE.finditer(buf, 0, end):
            run = _count(tag.group(1), b"text:c", limits.max_space_run)
            if run > limits.max_space_run:
                raise Unsafe(
                    Text(
                        f"в {CONTENT} ячейка с повтором пробела больше "
                        f"{number(limits.max_space_run, 'ru')} раз",
                        f"{CONTENT} repeats a space in one cell over "
                        f"{number(limits.max_space_run, 'en')} times",
                    )
                )
            self.spaces += run
        if self.spaces > limits.max_spaces:
            raise Unsafe(
                Text(
                    f"в {CONTENT} больше {number(limits.max_spaces, 'ru')} повторённых пробелов",
                    f"{CONTENT} repeats over {number(limits.max_spaces, 'en')} spaces",
                )
            )

    def _table(self, attrs: bytes) -> None:
        if len(self.sheets) >= self.limits.max_sheets:
            raise Unsafe(
                Text(
                    f"в книге больше {number(self.limits.max_sheets, 'ru')} листов",
                    f"the workbook holds over {number(self.limits.max_sheets, 'en')} sheets",
                )
            )
        named = _attrs(attrs)
        name = text_of(named.get(b"table:name", b"")) or ""
        style = text_of(named.get(b"table:style-name", b"")) or ""
        self.sheets.append(_Sheet(name, self.styles.get(style, False)))

    def _current(self) -> _Sheet:
        if not self.sheets:
            raise Damaged(
                Text(f"в {CONTENT} строки вне листа", f"{CONTENT} has rows outside a sheet")
            )
        return self.sheets[-1]

    def _column(self, attrs: bytes) -> None:
        sheet = self._current()
        count = _count(attrs, b"table:number-columns-repeated", MAX_COL)
        if b"table:visibility" in attrs and _attrs(attrs).get(b"table:visibility") in (
            b"collapse",
            b"filter",
        ):
            sheet.hidden_columns.update(range(sheet.column, min(sheet.column + count, MAX_COL)))
        sheet.column += count

    def _row(self, attrs: bytes, buf: bytes, start: int, end: int) -> None:
        """One row and its cells: which positions hold something, repeats expanded."""
        sheet = self.sheets[-1] if self.sheets else self._current()
        elements = buf.count(b"<table:table-cell", start, end)
        if buf.find(b"<table:covered", start, end) != -1:
            elements += buf.count(b"<table:covered-table-cell", start, end)
        self.rows += 1
        self.cells += elements
        if self.rows > self.limits.max_rows or self.cells > self.limits.max_cells:
            raise self._too_many()
        repeat = _count(attrs, b"table:number-rows-repeated", MAX_ROW) if attrs else 1
        stop = _trailing(buf, start, end)
        if _SLOW.search(buf, start, stop) is not None:
            held, first, last = self._cells(sheet, buf, start, end, repeat)
        else:  # the usual row: no repeat but its trailing empty cells, nothing merged
            held = elements - (stop != end)
            first, last = 1, held  # every cell may hold something: the widest span
            if held and repeat > 1:
                self._copied(buf, start, stop, repeat - 1)
        if held:
            self._place(sheet, held * repeat, (first, last), (sheet.row + 1, sheet.row + repeat))
        sheet.row += repeat

    def _too_many(self) -> Unsafe:
        limits = self.limits
        return Unsafe(
            Text(
                f"в {CONTENT} больше {number(limits.max_rows, 'ru')} строк или "
                f"{number(limits.max_cells, 'ru')} ячеек",
                f"{CONTENT} holds over {number(limits.max_rows, 'en')} rows or "
                f"{number(limits.max_cells, 'en')} cells",
            )
        )

    def _cells(
        self, sheet: _Sheet, buf: bytes, start: int, end: int, repeat: int
    ) -> tuple[int, int, int]:
        """A row with repeated, merged or formula cells, cell by cell: (cells holding
        something, repeats expanded; the first and last column they reach, 1-based)."""
        held, first, last, column = 0, 0, 0, 0
        for cell in _CELL.finditer(buf, start, end):
            tag = cell.group(2)
            count = (
                _count(tag, b"table:number-columns-repeated", MAX_COL) if b"-repeated" in tag else 1
            )
            valued = b"office:value-type" in tag
            formula = b"table:formula" in tag
            if cell.group(1) is None and (not tag.endswith(b"/") or valued or formula):
                held += count
                first, last = first or column + 1, column + count
                if count > 1 or repeat > 1:
                    self._copied(buf, cell.end(), end, count * repeat - 1)
                if b"-spanned" in tag:
                    self._merge(tag, sheet, column)
                if formula and not valued:  # no saved value: the reader reads nothing
                    self._bare(sheet, column, repeat)
            column += count
        return held, first, last

    def _place(
        self, sheet: _Sheet, cells: int, cols: tuple[int, int], rows: tuple[int, int]
    ) -> None:
        grid: Grid = sheet.scan.grid
        grid.cells += cells
        if cols[0] < grid.min_col or not grid.min_col:
            grid.min_col = cols[0]
        if rows[0] < grid.min_row or not grid.min_row:
            grid.min_row = rows[0]
        grid.max_col = max(grid.max_col, cols[1])
        grid.max_row = max(grid.max_row, rows[1])
        if not grid.outside and (cols[1] > MAX_COL or rows[1] > MAX_ROW):
            grid.outside = _address(min(rows[1], MAX_ROW + 1) - 1, min(cols[1], MAX_COL + 1) - 1)

    def _copied(self, buf: bytes, start: int, end: int, copies: int) -> None:
        """The text a repeated cell makes the reader copy into every copy."""
        close = buf.find(_CELL_END, start, end)
        self.copied += ((close if close != -1 else end) - start) * copies
        if self.copied > self.limits.max_copied_text:
            limit = self.limits.max_copied_text // 1024**2
            raise Unsafe(
                Text(
                    f"повторённые ячейки копируют больше {number(limit, 'ru')} МБ текста",
                    f"repeated cells copy over {number(limit, 'en')} MB of text",
                )
            )

    def _merge(self, tag: bytes, sheet: _Sheet, column: int) -> None:
        rows = _count(tag, b"table:number-rows-spanned", MAX_ROW)
        columns = _count(tag, b"table:number-columns-spanned", MAX_COL)
        if (rows > 1 or columns > 1) and len(sheet.merges) < 100_000:
            top, bottom = (sheet.row, column), (sheet.row + rows - 1, column + columns - 1)
            sheet.merges.append((top, bottom))
            sheet.scan.merges.append(f"{_address(*top)}:{_address(*bottom)}")

    def _bare(self, sheet: _Sheet, column: int, repeat: int) -> None:
        sheet.scan.bare_count += repeat
        if len(sheet.scan.bare_cells) < 3:
            sheet.scan.bare_cells.append(_address(sheet.row, column))


def _trailing(buf: bytes, start: int, end: int) -> int:
    """Where a row's trailing empty cell begins (LibreOffice ends every row with one,
    repeated to the last column); `end` when the last cell holds something."""
    tail = buf.rfind(b"<table:table-cell", start, end)
    if tail == -1:
        return end
    last = _CELL.match(buf, tail, end)
    if last is None or not last.group(2).endswith(b"/") or b"office:value-type" in last.group(2):
        return end
    return tail


def _attrs(body: bytes) -> dict[bytes, bytes]:
    found = attributes(body)
    if found is None:
        raise Malformed(
            Text(
                f"в {CONTENT} тег с неправильными атрибутами",
                f"{CONTENT} has a tag whose attributes are malformed",
            )
        )
    return found


def _count(attrs: bytes, name: bytes, limit: int) -> int:
    """A repeat, span or space count (1 when absent); past `limit`: limit + 1."""
    at = attrs.find(name)
    if at == -1:
        return 1
    match = _COUNT.match(attrs, at + len(name))
    if match is None:
        raise Malformed(
            Text(
                f"в {CONTENT} {name.decode()} не число",
                f"{CONTENT} has a {name.decode()} that is not a number",
            )
        )
    return max(1, min(int(match.group(1)), limit + 1))


def _address(row: int, column: int) -> str:
    """0-based (row, column) → `A1`, as the .ods shows the cell."""
    return f"{column_letter(column)}{row + 1}"


def iter_regions(archive: Archive, part: str, max_tag: int) -> Iterator[bytes]:
    return regions(archive.unpack(part), part, max_tag)
