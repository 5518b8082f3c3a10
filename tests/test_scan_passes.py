"""The sheet scan's quick passes find exactly what a pass over every byte finds.

Each quick look (a byte that must be there, a count made only when it can be non-zero,
one pattern for a cell's count and its reference) is held here against the plain pass it
stands for, on regions made of the pieces where they could part ways."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mafia_sheets.reading import safety, xlsxsheet, xmlscan
from mafia_sheets.reading.xmlscan import NAME_ENDS

_PIECES = [
    b'<c r="A1">',
    b'<c r="B22" s="1" t="s"/>',
    b"<c>",
    b"<c/>",
    b"<c\tr='C3'>",
    b'<c r="a1">',  # not as common writers write it
    b'<c r="A1" x="y">',
    b"<col ",
    b"<cols>",
    b"<x:c ",
    b"<x:c>",
    b":c ",
    b":cx",
    b"</c>",
    b"<f>",
    b"<x:f ",
    b"<v>1</v>",
    b"12:30",
    b"<c",
    b"c ",
    b"<",
    b"!",
    b"<!",
    b"?",
    b"<?",
    b" ",
    b"\xd0\x98",
]
_REGION = st.lists(st.sampled_from(_PIECES), max_size=30).map(b"".join)
# the pattern a region's cells were counted against before, as `bytes.count` counted them
_CANONICAL = re.compile(rb'<c r="([A-Z]{1,3}[0-9]{1,7})"(?: (?:s|t|cm|vm|ph)="[^"<]*+")*+/?+>')


def _last_cell_start_by_names(region: bytes, prefix: bytes) -> int:
    names = region.translate(NAME_ENDS)
    mine = names.rfind(b"<" + prefix + b"c ")
    other = names.rfind(b":c ")
    if other > mine:
        mine = max(mine, names.rfind(b"<", max(0, other - 64), other))
    return mine


@settings(max_examples=300, deadline=None)
@given(region=_REGION, prefix=st.sampled_from([b"", b"x:"]))
def test_the_last_cell_start_is_found_as_on_the_names(region: bytes, prefix: bytes) -> None:
    assert xlsxsheet._last_cell_start(region, prefix) == _last_cell_start_by_names(region, prefix)


@settings(max_examples=100, deadline=None)
@given(
    head=_REGION,
    many=st.sampled_from([b"<cx/>", b"<col ", b":cx", b"<x:cy>", b"12:c"]),
    times=st.integers(min_value=0, max_value=40),
    tail=_REGION,
    prefix=st.sampled_from([b"", b"x:"]),
)
def test_the_last_cell_start_behind_many_lookalikes_is_found_as_on_the_names(
    head: bytes, many: bytes, times: int, tail: bytes, prefix: bytes
) -> None:
    """Past a few tags that only start like a cell's, one pass over the names answers."""
    region = head + many * times + tail
    assert xlsxsheet._last_cell_start(region, prefix) == _last_cell_start_by_names(region, prefix)


def test_a_region_of_lookalikes_has_no_cell_start() -> None:
    for many in (b"<cx/>", b"<v>a:c</v>"):
        region = b'<c r="A1"><v>1</v></c>' + many * 100_000
        assert xlsxsheet._last_cell_start(region, b"") == 0
        assert xlsxsheet._last_cell_start(region[22:], b"") == -1


@settings(max_examples=300, deadline=None)
@given(region=_REGION)
def test_one_pattern_counts_every_cell_tag_and_reads_the_usual_ones(region: bytes) -> None:
    found = xlsxsheet._Patterns.of(b"").tagged.findall(region)
    tags = region.translate(NAME_ENDS).count(b"<c ")
    assert len(found) == tags
    usual = _CANONICAL.findall(region)
    assert all(found) == (len(usual) == tags)
    if all(found):
        assert found == usual


@settings(max_examples=300, deadline=None)
@given(region=_REGION)
def test_cell_tags_under_any_prefix_are_counted_alike(region: bytes) -> None:
    found = xlsxsheet._Patterns.of(None).tagged.findall(region)
    assert len(found) == len(xlsxsheet._Patterns.of(None).cell_tag.findall(region))


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(_REGION, max_size=6))
def test_comments_and_the_like_are_counted_as_every_byte_is_read(chunks: list[bytes]) -> None:
    markup = xmlscan.Markup(10**6)
    for chunk in chunks:
        markup.take(chunk, "part.xml")
    expected = sum(chunk.count(b"<!") + chunk.count(b"<?") for chunk in chunks)
    assert markup.limit - markup.left == expected


def _scan(xml: bytes, size: int) -> xlsxsheet.Scan:
    pieces = [xml[at : at + size] for at in range(0, len(xml), size)]
    return xlsxsheet.scan_sheet(
        xmlscan.regions(iter(pieces), "sheet.xml", safety.MAX_TAG_BYTES),
        "sheet.xml",
        safety.MAX_CELL_BYTES,
    )


def _sheet(rows: bytes) -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats'
        b'.org/spreadsheetml/2006/main"><sheetData>' + rows + b"</sheetData>"
        b'<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>'
    )


def test_a_cell_under_another_prefix_is_counted() -> None:
    rows = b"".join(b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (r, r) for r in range(1, 300))
    for size in (7, 64, 1000, 10**6):
        scan = _scan(_sheet(rows + b'<row r="300"><y:c r="Z9"/></row>'), size)
        assert (scan.grid.cells, scan.grid.max_col, scan.grid.max_row) == (300, 26, 299)
        assert scan.merges == ["A1:B1"]


def test_text_with_colons_and_letters_changes_nothing() -> None:
    """A `:`, an `f`, an `h` or a `g` in a text sends a region to the full passes."""
    cells = b'<c r="B%d" t="inlineStr"><is><t>fgh 12:30</t></is></c>'
    rows = b"".join(
        b'<row r="%d"><c r="A%d"><f>1+1</f><v/></c>' % (r, r) + cells % r + b"</row>"
        for r in range(1, 200)
    )
    for size in (5, 333, 10**6):
        scan = _scan(_sheet(rows), size)
        assert (scan.grid.cells, scan.grid.max_col, scan.grid.max_row) == (398, 2, 199)
        assert (scan.bare_count, scan.bare_cells) == (199, ["A1", "A2", "A3"])
        assert scan.merges == ["A1:B1"]


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(
        st.sampled_from([b"A", b"B", b"z", b"AA", b"XFD", b"", b"-", b"\t"]), max_size=20
    ),
    spaces=st.sampled_from([b" ", b"  ", b"\n"]),
)
def test_the_columns_of_one_letter_references_are_read_as_every_token_is(
    tokens: list[bytes], spaces: bytes
) -> None:
    letters = spaces.join(tokens)
    expected = {xlsxsheet.column_number(t) for t in set(letters.split())}
    assert xlsxsheet._columns(letters) == expected
