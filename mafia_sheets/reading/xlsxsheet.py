"""One worksheet's XML and the shared-strings table, scanned as python-calamine reads them.

The facts a reader's memory depends on are taken exactly as the reader takes them: a
cell is every start tag whose local name is `c` between the first `sheetData` start tag
and its end tag (under any prefix: the reader matches local names), placed by its `r`
attribute or, without one, after the cell before it in its row; rows advance by their `r`
or one at a time. The range those positions span is what the reader allocates (`Grid`).

Dense facts (cells, references, formulas) are counted by C-level passes over a region:
one `findall` yields every cell start tag — its reference when the tag is written as every
common writer writes it, b"" when not — and a region with any other tag is read again by a
strict cell-tag pattern whose count must agree: a cell tag the strict pattern does not
read is refused, so no reader can read a cell differently. Formulas are counted by
`bytes.count` on a copy whose name-ending bytes are spaces, made only when a region holds
an `f` at all; a region without a `:` holds no tag under another prefix. A sheet with a
cell without a reference is scanned again token by token (`loose`; rare: every common
writer writes `r`). Sparse facts (the dimension, columns, merged ranges, the first few
bare formulas) are read tag by tag with strict attributes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..text import Text
from .archive import Malformed
from .cellref import MAX_COL, MAX_ROW, column_number, in_grid, parse_ref
from .xmlscan import (
    ANY_PREFIX,
    ATTR_NAME,
    ATTR_VALUE,
    ATTRIBUTE,
    NAME_ENDS,
    TAG_BODY,
    attributes,
    tag_pattern,
)

_ROOT = re.compile(rb"<(" + ANY_PREFIX + rb")(?:worksheet|chartsheet|dialogsheet)(?=[\s/>])")
_SST_ROOT = re.compile(rb"<(" + ANY_PREFIX + rb")sst(?=[\s/>])(" + TAG_BODY + rb")>")
_SHEETDATA = tag_pattern(ANY_PREFIX, b"sheetData")
_SHEETDATA_END = re.compile(rb"</" + ANY_PREFIX + rb"sheetData\s*+>")
_SPARSE = {name: tag_pattern(ANY_PREFIX, name) for name in (b"dimension", b"mergeCell", b"col")}
_ANY = {name: re.compile(rb"<" + ANY_PREFIX + name + rb"(?=[\s/>])") for name in (b"f", b"si")}
_REFS = re.compile(rb"(?>(?:\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?: |\Z))+)")
_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))


@dataclass
class Grid:
    """Where a sheet's cells are, as the reader places them (1-based), and how many."""

    cells: int = 0
    min_row: int = 0  # 0 while no cell is placed
    max_row: int = 0
    min_col: int = 0
    max_col: int = 0
    outside: str = ""  # the first reference (cell, row or dimension) outside Excel's grid
    dimension: str = ""  # the declared <dimension ref>, as written

    def add_span(self, cols: tuple[int, int] | None, rows: tuple[int, int] | None) -> None:
        """Widen the range by the (lowest, highest) columns and rows of some cells."""
        if cols is not None and rows is not None:
            self.min_col = min(self.min_col or cols[0], cols[0])
            self.max_col = max(self.max_col, cols[1])
            self.min_row = min(self.min_row or rows[0], rows[0])
            self.max_row = max(self.max_row, rows[1])

    def area(self) -> int:
        """Cells of the range the reader allocates."""
        if not self.max_row:
            return 0
        return (self.max_row - self.min_row + 1) * (self.max_col - self.min_col + 1)


@dataclass
class Scan:
    """What one sheet's XML holds that the checks and the reading stage need."""

    bare_cells: list[str] = field(default_factory=list)  # the first few, for the message
    bare_count: int = 0  # formula cells without a saved value
    merges: list[str] = field(default_factory=list)  # merged ranges, as written
    grid: Grid = field(default_factory=Grid)
    hidden_columns: frozenset[int] = frozenset()  # 0-based
    columns: int = 0  # <col> records


@dataclass
class Strings:
    """The shared-strings table: what it declares and what it holds."""

    items: int = 0  # <si> elements
    unique_count: int | None = None  # uniqueCount="…", when declared
    count: int | None = None  # count="…" (references from cells), when declared


def malformed(part: str, what: Text, shown: bytes = b"") -> Malformed:
    tag = f" ({shown[:60].decode('utf-8', 'replace')})" if shown else ""
    return Malformed(
        Text(
            f"в {part} {what.ru} записан не так, как пишут Excel и LibreOffice{tag}",
            f"{part} holds {what.en} not written as Excel or LibreOffice write one{tag}",
        )
    )


CELL_TAG = Text("тег ячейки", "a cell tag")
ROW_TAG = Text("тег строки", "a row tag")
TAG = Text("тег", "a tag")


# ---- the patterns, under the root's prefix (fast: a literal start) or any -----------------


def _without(name: bytes) -> bytes:
    """Any number of strict attributes but `name`, never given back once taken (an atomic
    group: see `xmlscan` on why never `(?:…)*+`)."""
    other = rb"\s++(?!" + name + rb"\s*+=)" + ATTR_NAME + rb"\s*+=\s*+" + ATTR_VALUE
    return rb"(?>(?:" + other + rb")*)"


def _cell(p: bytes, marker: bool = False) -> bytes:
    """A strict cell start tag: attributes, at most one `r` (its value the last group)."""
    other = _without(b"r")
    ref = rb"\s++r\s*+=\s*+[\"']([^\"'<>&]*+)[\"']"
    name = rb"(<" + p + rb"c)" if marker else rb"<" + p + rb"c"
    return name + rb"(?=[\s/>])" + other + rb"(?>(?:" + ref + other + rb")?)\s*+/?+>"


@dataclass(frozen=True)
class _Patterns:
    tagged: re.Pattern[bytes]  # every cell start tag → its r as common writers write it, or b""
    cell: re.Pattern[bytes]  # every strict cell tag → its r (b"" without one)
    cell_tag: re.Pattern[bytes]  # any cell start tag: the count to agree with
    formula_valued: re.Pattern[bytes]
    formula_str_empty: re.Pattern[bytes]
    formula_cell: re.Pattern[bytes]  # → (cell attributes, value or b"" or None)
    token: re.Pattern[bytes]  # rows, row ends and cells, in order (cells without r)

    @classmethod
    def of(cls, prefix: bytes | None) -> _Patterns:
        """Patterns for the literal `prefix` (b"" or b"x:"), or for any prefix (None)."""
        found = _PATTERNS.get(prefix)
        if found is None:
            found = cls._compile(ANY_PREFIX if prefix is None else re.escape(prefix))
            if len(_PATTERNS) < 64:  # the prefix comes from the file: the cache is bounded
                _PATTERNS[prefix] = found
        return found

    @classmethod
    def _compile(cls, p: bytes) -> _Patterns:
        attrs = rb"(?>(?:" + ATTRIBUTE + rb")*)\s*+"
        open_c = rb"<" + p + rb"c(?=[\s/>])"
        formula = rb"\s*+<" + p + rb"f(?=[\s/>])" + attrs + rb"(?:/>|>[^<]*+</" + p + rb"f\s*+>)"
        value = rb"\s*+<" + p + rb"v(?=[\s/>])" + attrs
        other_t = _without(b"t")
        text_type = other_t + rb"\s++t\s*+=\s*+(?:\"str\"|'str')" + other_t + rb"\s*+>"
        empty_value = rb"(?:/>|>\s*+</" + p + rb"v\s*+>)"
        row = rb"(<" + p + rb"row)(?=[\s/>])(" + attrs + rb"/?+)>|(</" + p + rb"row\s*+>)|"
        return cls(
            # r first, then only the attributes a cell has: one fast pass for the usual
            # sheet (a reference past the grid's three letters or seven digits is not it);
            # any other cell start tag matches empty, so the matches count every cell tag
            tagged=re.compile(
                rb"<"
                + p
                + rb'c(?: r="([A-Z]{1,3}[0-9]{1,7})"(?>(?: (?:s|t|cm|vm|ph)="[^"<]*+")*)/?+>'
                rb"|(?=[\s/>]))"
            ),
            cell=re.compile(_cell(p)),
            cell_tag=re.compile(open_c),
            formula_valued=re.compile(open_c + attrs + b">" + formula + value + rb">[^<]++"),
            formula_str_empty=re.compile(open_c + text_type + formula + value + empty_value),
            formula_cell=re.compile(
                open_c + b"(" + attrs + b")>" + formula + rb"(?:" + value + rb"(/>|>[^<]*+<))?"
            ),
            token=re.compile(row + _cell(p, marker=True)),
        )


_PATTERNS: dict[bytes | None, _Patterns] = {}


class Loose(Exception):
    """A cell without a reference: the sheet must be scanned again token by token."""


class LooseCells:
    """How many cells without a reference the sheets of one workbook may still hold: each
    is placed by a step of its own (every common writer writes `r`, so this is rare), and
    past the limit the workbook is refused, before the steps are taken."""

    def __init__(self, limit: int) -> None:
        self.limit, self.left = limit, limit

    def take(self, cells: int, part: str) -> None:
        self.left -= cells
        if self.left < 0:
            limit = f"{self.limit:,}"
            raise Malformed(
                Text(
                    f"в {part} больше {limit.replace(',', ' ')} ячеек без адреса (во всём файле)",
                    f"{part} holds more than {limit} cells without a reference (in the whole file)",
                )
            )


# ---- the sheet ------------------------------------------------------------------------------


def scan_sheet(
    regions: Iterator[bytes], part: str, max_cell: int, loose: LooseCells | None = None
) -> Scan:
    """The facts of one sheet from its XML regions (`xmlscan.regions`). Raises `Loose`
    at a cell without a reference unless `loose` (then every cell is placed in turn, and
    counted against it)."""
    scanner = _SheetScanner(part, max_cell, loose)
    for region in regions:
        scanner.feed(region)
    return scanner.finish()


class _SheetScanner:
    """Head (before `sheetData`: dimension, columns), data (cells), tail (merged cells)."""

    def __init__(self, part: str, max_cell: int, loose: LooseCells | None) -> None:
        self.part, self.max_cell, self.loose = part, max_cell, loose
        self.scan = Scan()
        self.prefix: bytes | None = None  # the root element's, once seen
        self.phase = "head"
        self.pending: list[bytes] = []  # data from the last cell start on: it may go on
        self.waiting = 0
        self.row, self.col = 0, 0  # where the reader puts a cell without a reference (0-based)
        self.hidden: set[int] = set()

    def feed(self, region: bytes) -> None:
        if self.prefix is None and (root := _ROOT.search(region)) is not None:
            self.prefix = root.group(1)
        if self.phase == "head":
            start = _SHEETDATA.search(region)
            self._sparse(region if start is None else region[: start.start()], head=True)
            if start is None:
                return
            self.phase = "tail" if start.group(1).endswith(b"/") else "data"
            region = region[start.end() :]
        if self.phase == "data":
            end = _data_end(region)
            self._data(region if end is None else region[:end], final=end is not None)
            if end is None:
                return
            self.phase, region = "tail", region[end:]
        self._sparse(region, head=False)

    def finish(self) -> Scan:
        if self.phase == "data":
            self._data(b"", final=True)
        self.scan.hidden_columns = frozenset(self.hidden)
        return self.scan

    @property
    def _p(self) -> bytes:
        return self.prefix or b""

    # ---- cells ---------------------------------------------------------------------------

    def _data(self, region: bytes, final: bool) -> None:
        """Count and place the cells of whole cells: a cell may go on in the next region,
        so the data from the last cell start waits (bounded by `max_cell`)."""
        cut = len(region) if final else _last_cell_start(region, self._p)
        if cut < 0 and self.pending:  # the waiting cell goes on
            self._wait(region)
            return
        if cut < 0:  # no cell starts here: nothing can go on past it
            cut = len(region)
        # the region's part joined to the waiting data without a copy of its own
        parts: list[bytes | memoryview] = [*self.pending, memoryview(region)[:cut]]
        body = b"".join(parts) if self.pending else region[:cut]
        self.pending, self.waiting = [], 0
        self._wait(region[cut:])
        if body:
            self._body(body)

    def _wait(self, data: bytes) -> None:
        if data:
            self.pending.append(data)
            self.waiting += len(data)
            if self.waiting > self.max_cell:
                raise _too_big_cell(self.part, self.max_cell)

    def _body(self, body: bytes) -> None:
        p = self._p
        # with no prefix and no `:`, no tag can stand under another prefix
        names = body.translate(NAME_ENDS) if p or b":" in body else None
        foreign = names is not None and _foreign_any(names, p)
        patterns = _Patterns.of(None if foreign else p)
        if self.loose is not None:  # cells placed in turn: counted first, in one C pass
            if foreign:
                tags = len(patterns.cell_tag.findall(body))
            else:
                tags = (names or body.translate(NAME_ENDS)).count(b"<" + p + b"c ")
            self.loose.take(tags, self.part)
            self._tokens(body, patterns, tags)
        else:
            self._cells(body, patterns, patterns.tagged.findall(body))
        self._formulas(body, names, patterns, foreign)
        # not where they belong, but a reader would take them (`g`: a quick look first)
        if b"g" in body and b"mergeCell" in body:
            self._merges(body)

    def _cells(self, body: bytes, patterns: _Patterns, found: list[bytes]) -> None:
        """`found`: every cell start tag's reference, b"" for a tag not written as usual."""
        if not found:
            return
        refs = found
        canonical = all(found)
        if not canonical:
            refs = patterns.cell.findall(body)
            if len(refs) != len(found):
                raise self._odd_cell(body, patterns)
            if b"" in refs:
                raise Loose
        grid = self.scan.grid
        grid.cells += len(refs)
        joined = b" ".join(refs)
        if not canonical and _REFS.fullmatch(joined) is None:
            self._odd_refs(refs)
        grid.add_span(*_spans(joined.replace(b"$", b"")))
        if not grid.outside and not (in_grid(grid.max_col, grid.max_row) and grid.min_row >= 1):
            grid.outside = _first_outside(refs)

    def _odd_refs(self, refs: list[bytes]) -> None:
        """References the quick check does not read: past the grid, or no reference."""
        for ref in refs:
            if _REFS.fullmatch(ref) is None:
                if parse_ref(ref.decode("ascii", "replace")) is None:
                    raise malformed(self.part, CELL_TAG, b'r="' + ref + b'"')
                self.scan.grid.outside = self.scan.grid.outside or _shown(ref)
                return

    def _odd_cell(self, body: bytes, patterns: _Patterns) -> Malformed:
        strict = {match.start() for match in patterns.cell.finditer(body)}
        for tag in patterns.cell_tag.finditer(body):
            if tag.start() not in strict:
                return malformed(self.part, CELL_TAG, body[tag.start() : tag.start() + 60])
        return malformed(self.part, CELL_TAG)

    def _tokens(self, body: bytes, patterns: _Patterns, tags: int) -> None:
        """Every row and cell in order, placed as the reader places them."""
        count = 0
        for row, row_attrs, row_end, cell, ref in patterns.token.findall(body):
            if row:
                self._row_start(row_attrs)
            elif row_end:
                self.row, self.col = self.row + 1, 0
            elif cell:
                count += 1
                self._place(ref)
        if count != tags:
            raise self._odd_cell(body, patterns)
        self.scan.grid.cells += count

    def _row_start(self, row_attrs: bytes) -> None:
        closed = row_attrs.endswith(b"/")
        attrs = attributes(row_attrs[:-1] if closed else row_attrs)
        if attrs is None:
            raise malformed(self.part, ROW_TAG, row_attrs)
        number = attrs.get(b"r")
        if number is not None:
            if not number.isdigit() or not 1 <= int(number) <= MAX_ROW:
                self.scan.grid.outside = self.scan.grid.outside or f"row {_shown(number)}"
                return
            self.row = int(number) - 1
        if closed:  # <row/> is a row start and its end
            self.row, self.col = self.row + 1, 0

    def _place(self, ref: bytes) -> None:
        if ref:
            place = parse_ref(ref.decode("ascii", "replace"))
            if place is None:
                raise malformed(self.part, CELL_TAG, b'r="' + ref + b'"')
            col, row = place
        else:
            col, row = self.col + 1, self.row + 1
        self.col = col  # the next cell without a reference takes the column after this one
        grid = self.scan.grid
        grid.add_span((col, col), (row, row))
        if not grid.outside and not in_grid(col, row):
            grid.outside = _shown(ref) if ref else f"row {row}"

    # ---- formulas ------------------------------------------------------------------------

    def _formulas(
        self, body: bytes, names: bytes | None, patterns: _Patterns, foreign: bool
    ) -> None:
        """Formula cells without a saved value: each counted, the first few named.

        An empty <v> is a real cached value only for a text result (Excel's `=""`)."""
        if b"f" not in body:  # every formula tag holds one
            return
        if foreign:
            tags = len(_ANY[b"f"].findall(body))
        else:
            names = body.translate(NAME_ENDS) if names is None else names
            tags = names.count(b"<" + self._p + b"f ")
        if not tags:
            return
        valued = len(patterns.formula_valued.findall(body))
        bare = tags - valued - len(patterns.formula_str_empty.findall(body))
        if bare <= 0:
            return
        scan = self.scan
        scan.bare_count += bare
        for match in patterns.formula_cell.finditer(body):
            if len(scan.bare_cells) >= 3:
                break
            attrs = attributes(match.group(1)) or {}
            value = match.group(2)  # `/>`, `>text<` or None (no value at all)
            if value is None or (len(value) <= 2 and attrs.get(b"t") != b"str"):
                scan.bare_cells.append(attrs.get(b"r", b"").decode("ascii", "replace"))

    # ---- sparse tags ---------------------------------------------------------------------

    def _sparse(self, region: bytes, head: bool) -> None:
        if head and b"dimension" in region:
            for attrs in self._tags(region, b"dimension"):
                self._dimension(attrs.get(b"ref", b""))
        if b"mergeCell" in region:
            self._merges(region)
        if b"col" in region:
            for attrs in self._tags(region, b"col"):
                self._column(attrs)

    def _merges(self, region: bytes) -> None:
        self.scan.merges += [
            attrs.get(b"ref", b"").decode("ascii", "replace")
            for attrs in self._tags(region, b"mergeCell")
        ]

    def _tags(self, region: bytes, name: bytes) -> Iterator[dict[bytes, bytes]]:
        for tag in _SPARSE[name].finditer(region):
            attrs = attributes(tag.group(1).removesuffix(b"/"))
            if attrs is None:
                raise malformed(self.part, TAG, tag.group(0))
            yield attrs

    def _dimension(self, ref: bytes) -> None:
        grid = self.scan.grid
        grid.dimension = ref.decode("ascii", "replace").strip()
        for corner in grid.dimension.split(":")[:2]:
            place = parse_ref(corner)
            if place is None or not in_grid(*place):
                grid.outside = grid.outside or grid.dimension[:40]

    def _column(self, attrs: dict[bytes, bytes]) -> None:
        scan = self.scan
        scan.columns += 1
        if scan.columns > MAX_COL:  # each record covers at least one of Excel's columns
            raise Malformed(
                Text(
                    f"в {self.part} больше описаний столбцов, чем столбцов в Excel",
                    f"{self.part} describes more columns than Excel has",
                )
            )
        if attrs.get(b"hidden", b"0").lower() not in (b"1", b"true"):
            return
        low, high = attrs.get(b"min", b""), attrs.get(b"max", attrs.get(b"min", b""))
        if low.isdigit() and high.isdigit() and len(low) < 7 and len(high) < 7:
            self.hidden.update(range(int(low) - 1, min(int(high), int(low) + MAX_COL)))


def _data_end(region: bytes) -> int | None:
    """Where `</sheetData>` starts in `region` (found by its name, then checked)."""
    if b"h" not in region:  # a quick look: the name holds an `h`
        return None
    at = region.find(b"sheetData")
    while at != -1:
        start = region.rfind(b"<", max(0, at - 64), at)
        if start != -1 and _SHEETDATA_END.match(region, start):
            return start
        at = region.find(b"sheetData", at + 9)
    return None


def _last_cell_start(region: bytes, prefix: bytes) -> int:
    """Where the last cell tag starts (under any prefix); -1 when there is none."""
    mine = _rfind_name(region, b"<" + prefix + b"c")
    other = _rfind_name(region, b":c") if b":" in region else -1
    if other > mine:
        mine = max(mine, region.rfind(b"<", max(0, other - 64), other))
    return mine


# the bytes that end a name: those NAME_ENDS makes spaces, and the space
_NAME_END = frozenset(byte for byte in range(256) if NAME_ENDS[byte] == ord(" "))


_LOOKS = 8  # `name`s followed by another byte looked at one by one, before one pass


def _rfind_name(data: bytes, name: bytes) -> int:
    """Where the last `name` followed by a byte that ends a name starts; -1 when none.
    Each look goes on from before the last one; past a few (`<col>` after `<cols>`, a
    text full of `:c`), one pass over a copy with name-ending bytes as spaces answers:
    a region of such tags costs what it cost before, not a step of its own per tag."""
    end = len(data)
    for _ in range(_LOOKS):
        at = data.rfind(name, 0, end)
        if at == -1:
            return -1
        after = at + len(name)
        if after < len(data) and data[after] in _NAME_END:
            return at
        end = after - 1
    return data.translate(NAME_ENDS).rfind(name + b" ", 0, end + 1)


def _foreign(names: bytes, prefix: bytes, tail: bytes) -> bool:
    """Whether tags ending `tail` (`c `, `f `) may stand under a prefix other than
    `prefix`: `x:c ` in a text says yes too, and sends the region to the slower patterns."""
    if not prefix:
        return b":" + tail in names
    own = names.count(b"<" + prefix + tail)
    return names.count(b":" + tail) != own or b"<" + tail in names


_FOREIGN_TAGS = re.compile(rb":(?:c|f|v|row) ")


def _foreign_any(names: bytes, prefix: bytes) -> bool:
    """Whether a cell's tags (`c`, `f`, `v`, `row`) may stand under another prefix."""
    if not prefix:
        return _FOREIGN_TAGS.search(names) is not None
    return any(_foreign(names, prefix, tail) for tail in (b"c ", b"f ", b"v ", b"row "))


def _too_big_cell(part: str, limit: int) -> Malformed:
    mb = limit // 1024**2
    return Malformed(
        Text(
            f"в {part} ячейка занимает больше {mb} МБ (в Excel не больше 32 767 символов)",
            f"{part} holds a cell of over {mb} MB (Excel holds 32,767 characters at most)",
        )
    )


def _shown(ref: bytes) -> str:
    return ref[:40].decode("ascii", "replace")


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
            _span(_columns(joined.translate(None, b"0123456789"))),
            _span({int(t) for t in set(joined.translate(None, _LETTERS).split())}),
        )
        if len(joined) <= _SPANS_KEY_MAX:
            if len(_SPANS) >= _SPANS_MAX:
                _SPANS.clear()
            _SPANS[joined] = spans
    return spans


def _columns(letters: bytes) -> set[int]:
    """The columns of the letters `A B AA …`. Each one letter long, as on a protocol's
    sheet (every other byte a space): the distinct bytes name them, no token made."""
    if len(letters) % 2 and letters[::2].isalpha() and letters[1::2] == b" " * (len(letters) // 2):
        return {column_number(bytes((letter,))) for letter in set(letters[::2])}
    return {column_number(t) for t in set(letters.split())}


def _span(found: set[int]) -> tuple[int, int] | None:
    return (min(found), max(found)) if found else None


def _first_outside(found: list[bytes]) -> str:
    for ref in found:
        place = parse_ref(ref.decode("ascii", "replace"))
        if place is None or not in_grid(*place):
            return _shown(ref)
    return "?"


# ---- the shared strings ---------------------------------------------------------------------


def scan_strings(regions: Iterator[bytes], part: str) -> Strings:
    """Count the table's items (every `si` start tag, under any prefix) and read what its
    root declares (the first `sst` start tag, read strictly: no attribute twice)."""
    strings, prefix = Strings(), None
    for region in regions:
        if prefix is None:
            root = _SST_ROOT.search(region)
            if root is None:
                continue
            prefix = root.group(1)
            attrs = attributes(root.group(2).removesuffix(b"/"))
            if attrs is None:
                raise malformed(part, TAG, root.group(0))
            strings.unique_count = _declared(attrs.get(b"uniqueCount"))
            strings.count = _declared(attrs.get(b"count"))
            region = region[root.end() :]
        names = region.translate(NAME_ENDS)
        if _foreign(names, prefix, b"si "):
            strings.items += len(_ANY[b"si"].findall(region))
        else:
            strings.items += names.count(b"<" + prefix + b"si ")
    return strings


def _declared(value: bytes | None) -> int | None:
    """A declared count; a value that is not a number counts as past every limit."""
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.isdigit() and len(text) < 20 else 10**20
