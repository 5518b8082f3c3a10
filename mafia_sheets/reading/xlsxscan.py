"""The zip and XML machinery under :func:`mafia_sheets.reading.safety.inspect_workbook`.

It reads the archive's end record, unpacks entries with their declared sizes enforced,
resolves the protocol sheets to their parts and scans their XML for merged cells and
formulas without a stored value. The scan streams the protocol sheets through zlib and
searches the XML with bytes regexes: it runs on every file, including 100,000-game
workbooks, so it must cost little more than unpacking them.

Nothing here words a message for the judge: a refused archive raises :class:`Unsafe` or
:class:`Damaged` with the reason only, and :mod:`mafia_sheets.reading.safety` says what to do.
"""

from __future__ import annotations

import html
import posixpath
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..text import Text
from ..vocab import fold, sheet_lookup

# workbook.xml and its rels are read whole; no real workbook has them this large.
_MAX_INDEX_PART = 64 * 1024**2

_CHUNK_IN = 1 << 16  # compressed bytes fed to zlib at a time
_CHUNK_OUT = 1 << 20  # unpacked bytes handed to the scanner at a time
_OVERLAP = 1 << 17  # a cell with the longest formula (8,192 chars, XML-escaped) fits in it
_LOOKBACK = 4096  # a cell's opening tag fits in it

WORKBOOK = "xl/workbook.xml"
_WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"

_NAME = rb"(?:[A-Za-z_][\w.\-]*:)?"
# the tag's attributes, a closing `/` included (`_body` drops it): a greedy `[^>]*` runs in
# one step, where a lazy one stops at every byte to look for the end
_SHEET_TAG = re.compile(rb"<" + _NAME + rb"sheet\s([^>]*)>")
_REL_TAG = re.compile(rb"<" + _NAME + rb"Relationship\s([^>]*)>")
# an attribute of a tag decoded once (ASCII classes: what the bytes pattern would match)
_ATTR = re.compile(r"(?:[\w.\-]+:)?([\w.\-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.ASCII)
_ROOT = re.compile(rb"<([A-Za-z_][\w.\-]*:)?worksheet\b")
_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
_TAG_ENDS = (b" ", b">", b"/", b"\t", b"\n", b"\r")  # what may follow an element's name
_SST_ROOT = re.compile(rb"<([A-Za-z_][\w.\-]*:)?sst\b([^>]*)>")


class Refused(Exception):
    """Why the archive cannot be read (a clause, not a whole message)."""

    def __init__(self, why: Text) -> None:
        super().__init__(why.en)
        self.why = why


class Unsafe(Refused):
    """The archive unpacks to more than it declares or than a protocol can be."""


class Damaged(Refused):
    """The archive is truncated, corrupt or misses a part."""


_THOUSANDS = Text("\u00a0", ",")  # 10 001 in Russian, 10,001 in English
_MEGABYTES = Text("МБ", "MB")


def number(value: int, lang: str) -> str:
    """10001 → `10,001` (en) / `10 001` (ru)."""
    return f"{value:,}".replace(",", _THOUSANDS(lang))


def megabytes(size: int, lang: str) -> str:
    return f"{number(round(size / 1024**2), lang)} {_MEGABYTES(lang)}"


# ---- the archive's directory -------------------------------------------------------------


def declared_entries(data: bytes) -> int | None:
    """Count entries from the end-of-archive record, before zipfile builds one object each.

    None when there is no record (or a look-alike in the comment): zipfile judges the archive.
    """
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if (
        end == -1
        or end + 22 > len(data)
        or struct.unpack_from("<H", data, end + 20)[0] != len(data) - end - 22
    ):
        return None
    (entries,) = struct.unpack_from("<H", data, end + 10)
    locator = end - 20
    if entries == 0xFFFF and locator >= 0 and data[locator : locator + 4] == b"PK\x06\x07":
        (zip64_end,) = struct.unpack_from("<Q", data, locator + 8)
        if zip64_end + 40 <= len(data) and data[zip64_end : zip64_end + 4] == b"PK\x06\x06":
            (entries,) = struct.unpack_from("<Q", data, zip64_end + 32)
    return int(entries)


# ---- unpacking, with the declared sizes enforced ------------------------------------------


def unpack(data: bytes, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """Yield one entry's bytes in chunks, verifying its size and CRC.

    zlib is driven here rather than through zipfile so that an entry producing more than
    its header declares (a lying header) is stopped at once, whatever reads it later.
    """
    raw = _payload(data, info)
    chunks = (
        (bytes(raw[at : at + _CHUNK_OUT]) for at in range(0, len(raw), _CHUNK_OUT))
        if info.compress_type == zipfile.ZIP_STORED
        else _inflate(raw)
    )
    produced, crc = 0, 0
    try:
        for chunk in chunks:
            produced += len(chunk)
            if produced > info.file_size:
                raise Unsafe(
                    Text(
                        f"{info.filename} распаковывается больше заявленных "
                        f"{number(info.file_size, 'ru')} байт",
                        f"{info.filename} unpacks to more than its declared "
                        f"{number(info.file_size, 'en')} bytes",
                    )
                )
            crc = zlib.crc32(chunk, crc)
            yield chunk
    except zlib.error:
        raise Damaged(
            Text(f"{info.filename} не распаковывается", f"{info.filename} cannot be unpacked")
        ) from None
    if produced != info.file_size or crc != info.CRC:
        raise Damaged(
            Text(
                f"контрольная сумма {info.filename} не совпадает",
                f"the checksum of {info.filename} does not match",
            )
        )


def _payload(data: bytes, info: zipfile.ZipInfo) -> memoryview:
    offset = info.header_offset
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise Damaged(
            Text(
                f"{info.filename} сжат способом, которым Excel не пользуется",
                f"{info.filename} uses a compression Excel does not write",
            )
        )
    if data[offset : offset + 4] != b"PK\x03\x04" or offset + 30 > len(data):
        raise Damaged(Text(f"нет части {info.filename}", f"{info.filename} is missing"))
    name_len, extra_len = struct.unpack_from("<HH", data, offset + 26)
    start = offset + 30 + name_len + extra_len
    if start + info.compress_size > len(data):
        raise Damaged(Text("архив обрезан", "the archive is truncated"))
    return memoryview(data)[start : start + info.compress_size]


def _inflate(raw: memoryview) -> Iterator[bytes]:
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    for at in range(0, len(raw), _CHUNK_IN):
        pending: bytes | memoryview = raw[at : at + _CHUNK_IN]
        while pending and not inflater.eof:
            chunk = inflater.decompress(pending, _CHUNK_OUT)
            pending = inflater.unconsumed_tail
            if chunk:
                yield chunk
        if inflater.eof:
            return
    while not inflater.eof:  # output held back by the _CHUNK_OUT cap
        chunk = inflater.decompress(b"", _CHUNK_OUT)
        if not chunk:
            raise zlib.error("truncated deflate stream")
        yield chunk


# ---- the protocol sheets and their parts --------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    name: str
    part: str  # the zip entry holding the sheet's XML
    state: str  # visible | hidden | veryHidden


@dataclass
class Grid:
    """Where a sheet's cells are, as far as a reader will place them.

    Readers size their grid from the cells' own references (python-calamine allocates
    rows × columns of the range they span), not from `<dimension>`; a cell or row without
    a reference takes the next position, so each can stretch the range by one at most.
    """

    cells: int = 0  # every <c> element
    referenced: int = 0  # those with an r="A1"-style reference
    rows: int = 0  # every <row> element
    min_row: int = 0  # 1-based; 0 while no reference was seen
    max_row: int = 0
    min_col: int = 0
    max_col: int = 0
    outside: str = ""  # the first reference (cell, row or dimension) outside Excel's grid
    dimension: str = ""  # the declared <dimension ref>, as written

    def add_refs(self, letters: Iterable[bytes], numbers: Iterable[bytes]) -> None:
        self.add_span(
            _span({column_number(text) for text in set(letters)}),
            _span({int(text) for text in set(numbers)}),
        )

    def add_span(self, cols: tuple[int, int] | None, rows: tuple[int, int] | None) -> None:
        """Widen the range by the (lowest, highest) columns and rows of some cells."""
        if cols is not None:
            low, high = cols
            self.min_col = min(self.min_col or low, low)
            self.max_col = max(self.max_col, high)
        if rows is not None:
            low, high = rows
            self.min_row = min(self.min_row or low, low)
            self.max_row = max(self.max_row, high)

    def area(self) -> int:
        """Cells of the range a reader allocates (unreferenced cells counted as spread)."""
        if not self.cells:
            return 0
        loose_cells = self.cells - self.referenced
        height = (self.max_row - self.min_row + 1 if self.max_row else 1) + self.rows
        width = (self.max_col - self.min_col + 1 if self.max_col else 1) + loose_cells
        if self.referenced == self.cells:  # the usual case: positions are all explicit
            height -= self.rows
        return height * width


@dataclass
class Scan:
    bare_cells: list[str] = field(default_factory=list)  # the first few, for the message
    bare_count: int = 0
    merges: list[str] = field(default_factory=list)
    grid: Grid = field(default_factory=Grid)


@dataclass
class Strings:
    """The shared-strings table: what it declares and what it holds."""

    items: int = 0  # <si> elements
    unique_count: int | None = None  # uniqueCount="…", when declared
    count: int | None = None  # count="…" (references from cells), when declared


MAX_ROW = 1_048_576  # Excel's grid: rows 1…1,048,576, columns A…XFD (16,384)
MAX_COL = 16_384


def _span(found: set[int]) -> tuple[int, int] | None:
    return (min(found), max(found)) if found else None


def column_number(letters: bytes) -> int:
    """b'A' → 1, b'XFD' → 16384 (any length: a hostile reference may be long)."""
    number = 0
    for byte in letters[:8]:  # past 8 letters the value is out of the grid anyway
        number = number * 26 + (byte & 0x1F)
    return number if len(letters) <= 8 else MAX_COL * 26


def protocol_sheets(
    data: bytes, infos: dict[str, zipfile.ZipInfo], every: bool = False
) -> list[Sheet]:
    """Sheets named as in §2 (RU or EN), resolved to their parts via the workbook's rels.

    With `every`, all the workbook's worksheets whose parts exist (what openpyxl loads).
    """
    protocol, others = workbook_sheets(data, infos)
    return others if every else protocol


def workbook_sheets(
    data: bytes, infos: dict[str, zipfile.ZipInfo]
) -> tuple[list[Sheet], list[Sheet]]:
    """Both of :func:`protocol_sheets`' answers from one reading of the workbook's index:
    (the protocol sheets, every worksheet whose part exists).

    The safety scan and the reader both ask, so an answer is kept by what it was read
    from: the index parts' bytes as stored, their checksums and the archive's part names."""
    key = _index_key(data, infos)
    known = _INDEXES.get(key) if key is not None else None
    if known is not None:
        return list(known[0]), list(known[1])
    protocol, every = _workbook_sheets(data, infos)
    if key is not None:
        if len(_INDEXES) >= 8:
            _INDEXES.clear()
        _INDEXES[key] = (tuple(protocol), tuple(every))
    return protocol, every


_INDEXES: dict[tuple[object, ...], tuple[tuple[Sheet, ...], tuple[Sheet, ...]]] = {}
_INDEX_KEY_MAX = 1 << 18  # stored bytes of an index part kept in a key, at most


def _index_key(data: bytes, infos: dict[str, zipfile.ZipInfo]) -> tuple[object, ...] | None:
    """What :func:`workbook_sheets` reads, as stored; None when an index part is missing,
    damaged or too large to keep."""
    key: list[object] = [tuple(infos)]
    for name in (WORKBOOK, _WORKBOOK_RELS):
        info = infos.get(name)
        if info is None:
            if name == WORKBOOK:
                return None
            key.append(None)
            continue
        if info.compress_size > _INDEX_KEY_MAX:
            return None
        try:
            stored = bytes(_payload(data, info))
        except Refused:
            return None
        key.append((stored, info.file_size, info.CRC, info.compress_type))
    return tuple(key)


def _workbook_sheets(
    data: bytes, infos: dict[str, zipfile.ZipInfo]
) -> tuple[list[Sheet], list[Sheet]]:
    wanted = sheet_lookup()
    workbook = _read_index(data, infos, WORKBOOK)
    rels = _read_index(data, infos, _WORKBOOK_RELS) if _WORKBOOK_RELS in infos else b""
    parts = {part.lower(): part for part in infos}  # OPC part names ignore case
    targets = {}
    for tag in _REL_TAG.finditer(rels):
        attrs = _attrs(_body(tag))
        if "Id" in attrs and "Target" in attrs:
            targets[attrs["Id"]] = parts.get(_resolve(attrs["Target"]).lower(), "")
    protocol, every = [], []
    for tag in _SHEET_TAG.finditer(workbook):
        attrs = _attrs(_body(tag))
        sheet = attrs.get("name", "")
        part = targets.get(attrs.get("id", ""), "")
        if part in infos:
            every.append(Sheet(sheet, part, attrs.get("state", "visible")))
        if _fold_name(sheet) not in wanted:
            continue
        if part not in infos:
            raise Damaged(
                Text(f"нет данных листа «{sheet}»", f"the data of sheet {sheet} is missing")
            )
        protocol.append(Sheet(sheet, part, attrs.get("state", "visible")))
    return protocol, every


def _body(tag: re.Match[bytes]) -> bytes:
    body = tag.group(1)
    return body[:-1] if body.endswith(b"/") else body


_NAMES: dict[str, str] = {}  # folded sheet names: the index is read twice per workbook


def _fold_name(name: str) -> str:
    folded = _NAMES.get(name)
    if folded is None:
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        folded = _NAMES[name] = fold(name)
    return folded


def _read_index(data: bytes, infos: dict[str, zipfile.ZipInfo], part: str) -> bytes:
    if infos[part].file_size > _MAX_INDEX_PART:
        raise Unsafe(
            Text(
                f"{part} занимает {megabytes(infos[part].file_size, 'ru')}",
                f"{part} is {megabytes(infos[part].file_size, 'en')}",
            )
        )
    return b"".join(unpack(data, infos[part]))


def _attrs(text: bytes) -> dict[str, str]:
    """XML attributes by local name (`r:id` → `id`), entities decoded.

    The tag is decoded once: an invalid UTF-8 byte never takes a quote or an ASCII name
    with it, so each value decodes as it would on its own."""
    return {
        key: _unescape(double if double is not None else single)
        for key, double, single in _ATTR.findall(text.decode("utf-8", "replace"))
    }


def _unescape(text: str) -> str:
    return html.unescape(text) if "&" in text else text  # no entity: nothing to decode


def _resolve(target: str) -> str:
    """A relationship target (relative to xl/, or absolute from the root) → zip entry name."""
    if target.startswith("/"):
        return target.lstrip("/")
    if target and "/." not in "/" + target and "//" not in target and target[-1] != "/":
        return "xl/" + target  # nothing to normalise: the usual `worksheets/sheet1.xml`
    return posixpath.normpath(posixpath.join("xl", target))


# ---- the sheet's XML: merged cells, formulas without values -------------------------------


@dataclass(frozen=True)
class _Patterns:
    """The sheet's XML searched with its own namespace prefix (`x:c` from some writers).

    Two plain patterns with a literal start run about twice as fast as one alternation.
    """

    formula: re.Pattern[bytes]
    merge: re.Pattern[bytes]
    cell_open: re.Pattern[bytes]
    value: re.Pattern[bytes]
    cell_end: bytes
    ref: re.Pattern[bytes]
    far_row: re.Pattern[bytes]
    dimension: re.Pattern[bytes]
    cell_tags: tuple[bytes, ...]
    loose_cell: re.Pattern[bytes]
    row_tags: tuple[bytes, ...]

    @classmethod
    def of(cls, prefix: bytes) -> _Patterns:
        """The patterns for `prefix`, compiled once (a workbook's sheets share one)."""
        found = _PATTERNS.get(prefix)
        if found is None:
            found = cls._compile(prefix)
            if len(_PATTERNS) < 64:  # the prefix comes from the file: the cache is bounded
                _PATTERNS[prefix] = found
        return found

    @classmethod
    def _compile(cls, prefix: bytes) -> _Patterns:
        p = re.escape(prefix)
        return cls(
            formula=re.compile(b"<" + p + rb"f[\s/>]"),
            merge=re.compile(b"<" + p + rb"mergeCell\s[^>]*?\bref\s*=\s*[\"']([^\"']*)"),
            cell_open=re.compile(b"<" + p + rb"c\s([^>]*)>\s*"),
            value=re.compile(b"<" + p + rb"v(?:\s[^>]*)?(?:/>|>([^<]*)<)"),
            cell_end=b"</" + prefix + b"c>",
            ref=re.compile(b"<" + p + rb"c\s[^>]*?\br\s*=\s*[\"']\$?([A-Za-z]+\$?[0-9]+)"),
            # a row number past the grid (7+ digits are checked exactly) or row 0
            far_row=re.compile(
                b"<" + p + rb"row\s[^>]*?\br\s*=\s*[\"']\s*"
                rb"([0-9]{7,}|0+|[^0-9\"'][^\"']*)[\"']"
            ),
            dimension=re.compile(b"<" + p + rb"dimension\s[^>]*?\bref\s*=\s*[\"']([^\"']*)"),
            cell_tags=tuple(b"<" + prefix + b"c" + end for end in _TAG_ENDS),
            loose_cell=re.compile(b"<" + p + rb"c[>/\t\n\r]"),
            row_tags=tuple(b"<" + prefix + b"row" + end for end in _TAG_ENDS),
        )


_PATTERNS: dict[bytes, _Patterns] = {}


def scan_sheet(chunks: Iterator[bytes], contents: bool = True) -> Scan:
    """Find merges and formula cells without a value in a stream of sheet XML; without
    `contents`, only where the cells are (`scan.grid`), for a sheet whose merges and
    formulas nobody asks about.

    Matches are taken only when they start before `limit`, _OVERLAP short of the buffer's
    end, so a match (and the rest of its cell) split across chunks is seen whole in the
    next round; _LOOKBACK bytes before `limit` are kept so a cell's opening tag stays in view.
    """
    scan, buf, start, ref_at = Scan(), b"", 0, 0
    patterns: _Patterns | None = None

    def take(limit: int) -> None:
        assert patterns is not None
        if not contents:
            return
        for match in patterns.merge.finditer(buf, start):
            if match.start() >= limit:
                break
            scan.merges.append(match.group(1).decode("ascii", "replace"))
        for match in patterns.formula.finditer(buf, start):
            if match.start() >= limit:
                break
            _record_formula(buf, match.start(), patterns, scan)

    for chunk in chunks:
        buf += chunk
        if patterns is None:
            root = _ROOT.search(buf, 0, 4096)
            patterns = _Patterns.of((root.group(1) or b"") if root else b"")
            _find_dimension(buf, patterns, scan.grid)
        ref_at = _place_cells(buf, ref_at, buf.rfind(b"<", ref_at), patterns, scan.grid)
        limit = len(buf) - _OVERLAP
        if limit > start:
            take(limit)
            cut = max(0, limit - _LOOKBACK)
            buf, start, ref_at = buf[cut:], limit - cut, max(0, ref_at - cut)
    if patterns is not None:
        take(len(buf))
        _place_cells(buf, ref_at, len(buf), patterns, scan.grid)
    return scan


def _find_dimension(buf: bytes, patterns: _Patterns, grid: Grid) -> None:
    """The declared used range, which comes before the cells (CT_Worksheet's order)."""
    found = patterns.dimension.search(buf, 0, 1 << 16)
    if found is None:
        return
    grid.dimension = found.group(1).decode("ascii", "replace").strip()
    for part in grid.dimension.split(":")[:2]:
        ref = re.fullmatch(r"\$?([A-Za-z]+)\$?([0-9]+)", part.strip())
        if ref is None or not _in_grid(column_number(ref.group(1).encode()), int(ref.group(2))):
            grid.outside = grid.outside or grid.dimension[:40]


def _place_cells(buf: bytes, at: int, end: int, patterns: _Patterns, grid: Grid) -> int:
    """Count and place the cells in buf[at:end]; `end` is a `<` (or the buffer's end), so
    no tag is split. Returns where the next round starts."""
    if end <= at:
        return at
    # `<c ` is nearly every cell; the rare other spellings (`<c>`, `<c/>`, `<c\t…`) are
    # found by one regex whose matches are rare, so the usual cost is one count
    grid.cells += buf.count(patterns.cell_tags[0], at, end) + len(
        patterns.loose_cell.findall(buf, at, end)
    )
    grid.rows += buf.count(patterns.row_tags[0][:-1], at, end)  # <rowBreaks> too: harmless
    found = patterns.ref.findall(buf, at, end)
    if found:
        grid.referenced += len(found)
        joined = b" ".join(found).replace(b"$", b"")  # split in C: one list per part
        grid.add_span(*_spans(joined))
        if not grid.outside and not (_in_grid(grid.max_col, grid.max_row) and grid.min_row >= 1):
            grid.outside = _first_outside(found)
    if not grid.outside:
        for row in patterns.far_row.finditer(buf, at, end):
            number = row.group(1)
            if not number.isdigit() or not 1 <= int(number) <= MAX_ROW:
                grid.outside = f"row {number[:20].decode('ascii', 'replace')}"
                break
    return end


# The spans of a small sheet's cell references, by the references: the game sheets of
# one template place their cells alike, sheet after sheet. Bounded in entries and in the
# length of each (a big sheet's references are not kept): at most ~1 MB.
_SPANS: dict[bytes, tuple[tuple[int, int] | None, tuple[int, int] | None]] = {}
_SPANS_MAX = 512
_SPANS_KEY_MAX = 2048


def _spans(joined: bytes) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(lowest, highest) column and row of the references `A1 B2 …` in `joined`."""
    spans = _SPANS.get(joined)
    if spans is None:
        spans = (
            _span({column_number(t) for t in set(joined.translate(None, b"0123456789").split())}),
            _span({int(t) for t in set(joined.translate(None, _LETTERS).split())}),
        )
        if len(joined) <= _SPANS_KEY_MAX:
            if len(_SPANS) >= _SPANS_MAX:
                _SPANS.clear()
            _SPANS[joined] = spans
    return spans


def _in_grid(col: int, row: int) -> bool:
    return 1 <= col <= MAX_COL and 1 <= row <= MAX_ROW


def _first_outside(found: list[bytes]) -> str:
    for ref in found:
        letters = ref.rstrip(b"0123456789$").replace(b"$", b"")
        if not _in_grid(column_number(letters), int(ref[len(ref.rstrip(b"0123456789")) :])):
            return ref[:40].decode("ascii", "replace")
    return "?"


def scan_strings(chunks: Iterator[bytes]) -> Strings:
    """Count the shared-strings table's items and read what its root element declares."""
    strings, data, tags = Strings(), b"", tuple[bytes, ...]()
    for chunk in chunks:
        data += chunk
        if not tags:
            root = _SST_ROOT.search(data, 0, 1 << 16)
            if root is None and len(data) < 1 << 16:
                continue  # the root tag is not complete yet
            prefix = (root.group(1) or b"") if root else b""
            attrs = _attrs(root.group(2)) if root else {}
            strings.unique_count = _declared(attrs.get("uniqueCount"))
            strings.count = _declared(attrs.get("count"))
            tags = tuple(b"<" + prefix + b"si" + end for end in _TAG_ENDS)
        strings.items += sum(data.count(tag) for tag in tags)
        data = data[-(len(tags[0]) - 1) :]  # too short to hold a whole tag: none counted twice
    return strings


def _declared(value: str | None) -> int | None:
    """A declared count; a value that is not a number counts as past every limit."""
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.isdigit() and len(text) < 20 else 10**20


def _record_formula(buf: bytes, at: int, patterns: _Patterns, scan: Scan) -> None:
    tag = buf.rfind(b"<", max(0, at - _LOOKBACK), at)  # <f> is a cell's first child (CT_Cell)
    opened = patterns.cell_open.fullmatch(buf, tag, at) if tag != -1 else None
    end = buf.find(patterns.cell_end, at)
    if opened is None or end == -1:
        return  # not a cell formula: nothing a reader would take as a value
    value = patterns.value.search(buf, at, end)
    attrs = _attrs(opened.group(1))
    # An empty <v> is a real cached value only for a text result (Excel's `=""`).
    if value is None or (not value.group(1) and attrs.get("t") != "str"):
        scan.bare_count += 1
        if len(scan.bare_cells) < 3:
            scan.bare_cells.append(attrs.get("r", ""))
