"""An attacker's corpus: workbooks built, part by part, to break a reader or the scan.

Each shape is a function of a size factor returning the file's bytes, registered in
:data:`SHAPES` with its family and what a sound product does with it (refuse it in one
line, or read it). The tests run every shape through the scan and the commands; the
scaling test times the linear-time shapes at 1×, 4× and 16×; `benchmarks/hostile.py`
runs all of them through the real CLI under `/usr/bin/time`.

Families: `mismatch` (the scan judges one thing, a reader opens another), `quadratic`
(XML that made pattern-based scans slow), `cost` (bytes and cells a reader pays for),
`page` is in the web tests.
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import ods

MAIN = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL_NS = b'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
R_NS = b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
OFFICE = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
XML = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
Parts = list[tuple[str, bytes]]
MAIN_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


@dataclass(frozen=True)
class Shape:
    build: Callable[[int], bytes]
    family: str
    refused: bool  # a sound product refuses it (one line, exit 2); else it reads it
    words: str = ""  # what the English refusal says
    suffix: str = ".xlsx"  # the file's kind: an .ods shape is named so


# ---- a package, part by part -------------------------------------------------------------


def zip_bytes(parts: Parts, stored: bool = False) -> bytes:
    """The parts as a zip, in order, duplicates and odd names kept as given; each distinct
    bytes object is compressed once (480 equal sheets cost one)."""
    body, directory, packed = bytearray(), bytearray(), {}
    for name, data in parts:
        if id(data) not in packed:
            raw = data if stored else zlib.compress(data, 6)[2:-4]
            packed[id(data)] = (raw, zlib.crc32(data), len(data))
        raw, crc, size = packed[id(data)]
        raw_name = name.encode()
        method, flags = (0 if stored else 8), 0x800
        header = struct.pack(
            "<HHHHHLLLHH", 20, flags, method, 0, 0x21, crc, len(raw), size, len(raw_name), 0
        )
        directory += (
            b"PK\x01\x02"
            + struct.pack("<H", 20)
            + header
            + struct.pack("<HHHLL", 0, 0, 0, 0, len(body))
            + raw_name
        )
        body += b"PK\x03\x04" + header + raw_name + raw
    count = len(parts)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory), len(body), 0)
    return bytes(body + directory + end)


def text_cell(ref: str, text: str) -> bytes:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'.encode()


def sheet_xml(rows: bytes, head: bytes = b"", tail: bytes = b"", prefix: bytes = b"") -> bytes:
    p = prefix + b":" if prefix else b""
    ns = MAIN.replace(b"xmlns=", b"xmlns:" + prefix + b"=") if prefix else MAIN
    return (
        XML
        + b"<"
        + p
        + b"worksheet "
        + ns
        + b">"
        + head
        + b"<"
        + p
        + b"sheetData>"
        + rows
        + b"</"
        + p
        + b"sheetData>"
        + tail
        + b"</"
        + p
        + b"worksheet>"
    )


def games_sheet() -> bytes:
    rows = b'<row r="1">' + text_cell("A1", "Игра") + text_cell("B1", "Результат") + b"</row>"
    rows += b'<row r="2"><c r="A2"><v>1</v></c>' + text_cell("B2", "Ничья") + b"</row>"
    return sheet_xml(rows)


def seats_sheet(extra: bytes = b"") -> bytes:
    roles = ["Мирный"] * 6 + ["Шериф", "Мафия", "Мафия", "Дон"]
    head = [("A", "Игра"), ("B", "Место"), ("C", "Игрок"), ("D", "Роль")]
    rows = b'<row r="1">' + b"".join(text_cell(f"{c}1", t) for c, t in head) + b"</row>"
    for seat, role in enumerate(roles, start=1):
        r = seat + 1
        rows += f'<row r="{r}"><c r="A{r}"><v>1</v></c><c r="B{r}"><v>{seat}</v></c>'.encode()
        rows += text_cell(f"C{r}", f"Игрок {seat}") + text_cell(f"D{r}", role) + b"</row>"
    return sheet_xml(rows + extra)


def bomb_sheet() -> bytes:
    """A1 and XFD1048576: python-calamine sized its grid from that and aborted."""
    return sheet_xml(
        b'<row r="1">' + text_cell("A1", "x") + text_cell("XFD1048576", "x") + b"</row>"
    )


def workbook_xml(sheets: list[tuple[str, str]], body: bytes = b"") -> bytes:
    """`sheets`: (name, relationship id)."""
    tags = b"".join(
        f'<sheet name="{name}" sheetId="{i}" r:id="{rid}"/>'.encode()
        for i, (name, rid) in enumerate(sheets, start=1)
    )
    return (
        XML
        + b"<workbook "
        + MAIN
        + b" "
        + R_NS
        + b"><sheets>"
        + tags
        + b"</sheets>"
        + body
        + b"</workbook>"
    )


def rels_xml(rels: list[tuple[str, str, str]]) -> bytes:
    """`rels`: (id, type's last word, target)."""
    tags = b"".join(
        b'<Relationship Id="'
        + rid.encode()
        + b'" Type="'
        + OFFICE
        + b"/"
        + kind.encode()
        + b'" Target="'
        + target.encode()
        + b'"/>'
        for rid, kind, target in rels
    )
    return XML + b"<Relationships " + REL_NS + b">" + tags + b"</Relationships>"


def content_types(overrides: Sequence[tuple[str, str]] = ()) -> bytes:
    tags = b"".join(
        f'<Override PartName="{name}" ContentType="{kind}"/>'.encode() for name, kind in overrides
    )
    return (
        XML + b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" '
        b'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        + tags
        + b"</Types>"
    )


def package(
    sheets: list[tuple[str, str, bytes]] | None = None,
    extra: Sequence[tuple[str, bytes]] = (),
    root: str = "xl/workbook.xml",
) -> Parts:
    """A workbook of `sheets` — (name, target relative to xl/, XML) — the protocol's two
    sheets by default; `extra` parts appended as they are."""
    sheets = sheets or two_sheets(seats_sheet())
    ids = [(name, f"rId{i}") for i, (name, _, _) in enumerate(sheets, start=1)]
    rels = [(f"rId{i}", "worksheet", target) for i, (_, target, _) in enumerate(sheets, start=1)]
    parts: Parts = [
        ("[Content_Types].xml", content_types([("/xl/workbook.xml", MAIN_TYPE)])),
        ("_rels/.rels", rels_xml([("rId1", "officeDocument", root)])),
        ("xl/workbook.xml", workbook_xml(ids)),
        ("xl/_rels/workbook.xml.rels", rels_xml(rels)),
    ]
    for _, target, xml in sheets:
        parts.append((target[1:] if target.startswith("/") else "xl/" + target, xml))
    return parts + list(extra)


def protocol(extra: Sequence[tuple[str, bytes]] = ()) -> bytes:
    return zip_bytes(package(extra=extra))


def two_sheets(second: bytes, name: str = "Протокол") -> list[tuple[str, str, bytes]]:
    """The games sheet and `second` (the protocol sheet by default) as `package` takes them."""
    return [
        ("Игры", "worksheets/sheet1.xml", games_sheet()),
        (name, "worksheets/sheet2.xml", second),
    ]


def with_rel(parts: Parts, kind: str, target: str) -> Parts:
    """`parts` with one more relationship of the workbook (rId9)."""
    rels = parts[3][1].replace(
        b"</Relationships>", _rel(b"rId9", kind.encode(), target.encode()) + b"</Relationships>"
    )
    return [*parts[:3], (parts[3][0], rels), *parts[4:]]


# ---- the scan judges one part, a reader opens another -----------------------------------


def _literal(target: str, literal: str | None = None) -> Callable[[int], bytes]:
    """The protocol sheet's target written `target`; the part under the normalised name
    is harmless, another under the literal name (what python-calamine opens) is a bomb."""

    def build(_: int) -> bytes:
        sheets = [
            ("Игры", "worksheets/sheet1.xml", games_sheet()),
            ("Протокол", "worksheets/sheet4.xml", seats_sheet()),
        ]
        parts = package(sheets)
        parts[3] = (
            parts[3][0],
            rels_xml(
                [("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", target)]
            ),
        )
        name = literal or (target[1:] if target.startswith("/") else "xl/" + target)
        return zip_bytes([*parts, (name, bomb_sheet())])

    return build


def duplicate_entry(_: int) -> bytes:
    """Two entries of one name: zipfile reads the last, another reader may read the first."""
    parts = package()
    return zip_bytes([*parts[:4], ("xl/worksheets/sheet2.xml", bomb_sheet()), *parts[4:]])


def case_twins(_: int) -> bytes:
    """`sheet2.xml` and `SHEET2.xml`: one reader folds case, the other does not."""
    return zip_bytes([*package(), ("xl/worksheets/SHEET2.xml", bomb_sheet())])


def other_workbook_folder(_: int) -> bytes:
    """The package's main part in `book/`: python-calamine reads `book/workbook.xml`."""
    parts = package(root="book/workbook.xml")
    bomb = [
        ("book/workbook.xml", workbook_xml([("Протокол", "rId1")])),
        ("book/_rels/workbook.xml.rels", rels_xml([("rId1", "worksheet", "s.xml")])),
        ("book/s.xml", bomb_sheet()),
    ]
    return zip_bytes(parts + bomb)


def unreached_bomb(_: int) -> bytes:
    return zip_bytes([*package(), ("xl/worksheets/sheet9.xml", bomb_sheet())])


def prefixed_cells(_: int) -> bytes:
    """Cells under a prefix the root does not use: the reader matches local names."""
    extra = b'<row r="12"><x:c r="XFD1048576" t="inlineStr"><x:is><x:t>x</x:t></x:is></x:c></row>'
    return protocol_with_seats(extra)


def protocol_with_seats(extra: bytes) -> bytes:
    sheets = two_sheets(seats_sheet(extra))
    return zip_bytes(package(sheets))


def comment_in_a_value(_: int) -> bytes:
    """`<!--` inside a quoted value: a scan that strips comments would lose the real cell
    that follows; the reader sees it."""
    extra = b'<row r="12"><c r="A12" t="x&lt;" foo="<!--"/><c r="XFD1048576"/>'
    return protocol_with_seats(extra + b'<c r="B12" foo="-->"/></row>')


def r_twice(_: int) -> bytes:
    return protocol_with_seats(b'<row r="12"><c r="A12" r="XFD1048576"><v>1</v></c></row>')


def r_without_space(_: int) -> bytes:
    return protocol_with_seats(b'<row r="12"><c s="0"r="XFD1048576"><v>1</v></c></row>')


def r_inside_a_value(_: int) -> bytes:
    return protocol_with_seats(b'<row r="12"><c t="n x r=\'A1\'" r="XFD1048576"><v>1</v></c></row>')


def loose_cells_far_down(_: int) -> bytes:
    """Cells without a reference in row 1,048,576: they reach column XFD."""
    cells = b"<c><v>1</v></c>" * 16_384
    return protocol_with_seats(b'<row r="1048576">' + cells + b"</row>")


def utf16_sheet(_: int) -> bytes:
    sheet = bomb_sheet().replace(b'encoding="UTF-8"', b'encoding="UTF-16"').decode()
    return zip_bytes(package(two_sheets(b"\xff\xfe" + sheet.encode("utf-16-le"))))


def unique_count_twice(_: int) -> bytes:
    sst = (
        XML + b"<sst " + MAIN + b' uniqueCount="4294967295" uniqueCount="1"><si><t>x</t></si></sst>'
    )
    parts = package(extra=[("xl/sharedStrings.xml", sst)])
    parts[3] = (
        parts[3][0],
        parts[3][1].replace(
            b"</Relationships>",
            _rel(b"rId9", b"sharedStrings", b"sharedStrings.xml") + b"</Relationships>",
        ),
    )
    return zip_bytes(parts)


def _rel(rid: bytes, kind: bytes, target: bytes) -> bytes:
    return (
        b'<Relationship Id="'
        + rid
        + b'" Type="'
        + OFFICE
        + b"/"
        + kind
        + b'" Target="'
        + target
        + b'"/>'
    )


def entity_target(_: int) -> bytes:
    """`&#52;` is `4` to one reader and five characters to the other."""
    return _literal("worksheets/sheet&#52;.xml", "xl/worksheets/sheet&#52;.xml")(1)


def local_name_differs(_: int) -> bytes:
    """The local header names another part than the central directory."""
    data = bytearray(protocol())
    at = data.find(b"xl/worksheets/sheet2.xml")  # the local header comes first
    data[at : at + 24] = b"xl/worksheets/sheet3.xml"
    return bytes(data)


def overlapping_entries(_: int) -> bytes:
    """One stored part whose bytes hold another part whole: two records, shared bytes
    (how the overlap zip bomb declares gigabytes in kilobytes)."""
    inner = _local_header(b"xl/media/b.bin", b"x" * 100) + b"x" * 100
    outer = _local_header(b"xl/media/a.bin", inner) + inner
    data = protocol()
    end = data.rfind(b"PK\x05\x06")
    cd_start, count = (
        struct.unpack_from("<L", data, end + 16)[0],
        struct.unpack_from("<H", data, end + 10)[0],
    )
    at = cd_start  # the outer part goes where the directory was
    records = _central_record(b"xl/media/a.bin", inner, at)
    records += _central_record(b"xl/media/b.bin", b"x" * 100, at + 30 + 14)
    directory = data[cd_start:end] + records
    tail = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, count + 2, count + 2, len(directory), at + len(outer), 0
    )
    return data[:cd_start] + outer + directory + tail


def _local_header(name: bytes, payload: bytes) -> bytes:
    return (
        b"PK\x03\x04"
        + struct.pack(
            "<HHHHHLLLHH",
            20,
            0,
            0,
            0,
            0x21,
            zlib.crc32(payload),
            len(payload),
            len(payload),
            len(name),
            0,
        )
        + name
    )


def _central_record(name: bytes, payload: bytes, offset: int) -> bytes:
    fixed = struct.pack(
        "<HHHHHHLLLHHHHHLL",
        20,
        20,
        0,
        0,
        0,
        0x21,
        zlib.crc32(payload),
        len(payload),
        len(payload),
        len(name),
        0,
        0,
        0,
        0,
        0,
        offset,
    )
    return b"PK\x01\x02" + fixed + name


def doctype_entities(_: int) -> bytes:
    """A billion-laughs document type in the styles: no spreadsheet part declares one."""
    laughs = (
        b'<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(
            b'<!ENTITY %c "%s">' % (98 + i, (b"&" + bytes([97 + i]) + b";") * 10) for i in range(9)
        )
        + b"]>"
    )
    styles = (
        XML
        + laughs
        + b"<styleSheet "
        + MAIN
        + b'><numFmts><numFmt numFmtId="1" formatCode="&j;"/></numFmts></styleSheet>'
    )
    return zip_bytes(package(extra=[("xl/styles.xml", styles)]))


def content_types_elsewhere(_: int) -> bytes:
    """openpyxl reads the workbook the content types name; python-calamine another."""
    parts = package()
    parts[0] = (
        parts[0][0],
        content_types(
            [
                (
                    "/xl/other.xml",
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                )
            ]
        ),
    )
    return zip_bytes(parts)


def nul_in_name(_: int) -> bytes:
    return zip_bytes([*package(), ("xl/worksheets/sheet2.xml\0.bin", bomb_sheet())])


def two_main_parts(_: int) -> bytes:
    parts = package()
    parts[1] = (
        parts[1][0],
        rels_xml(
            [
                ("rId1", "officeDocument", "xl/workbook.xml"),
                ("rId2", "officeDocument", "xl/workbook.xml"),
            ]
        ),
    )
    return zip_bytes(parts)


# ---- XML that made pattern-based scans slow (timed at 1×, 4×, 16×) ----------------------

_UNIT = 100_000  # repetitions at 1×


def comment_full_of_cells(size: int) -> bytes:
    """`<c ` repeated inside comments: valid XML, no cell in it."""
    comments = (b"<!-- " + b"<c " * 1000 + b"-->") * (size * _UNIT // 1000)
    return zip_bytes(
        package(two_sheets(seats_sheet(comments))),
        stored=True,
    )


def unclosed_cell_tags(size: int) -> bytes:
    return protocol_with_seats_stored(b"<c " * (size * _UNIT))


def protocol_with_seats_stored(extra: bytes) -> bytes:
    sheets = two_sheets(seats_sheet(extra))
    return zip_bytes(package(sheets), stored=True)


def _long_name(size: int) -> bytes:
    return b"a" * (size * _UNIT // 4)  # well under a tag's bound at 16×


def long_name_in_sheet_tag(size: int) -> bytes:
    parts = package()
    parts[2] = (
        parts[2][0],
        parts[2][1].replace(b"<sheet ", b"<sheet " + _long_name(size) + b" ", 1),
    )
    return zip_bytes(parts, stored=True)


def long_name_in_relationship(size: int) -> bytes:
    parts = package()
    parts[3] = (
        parts[3][0],
        parts[3][1].replace(b"<Relationship ", b"<Relationship " + _long_name(size) + b" ", 1),
    )
    return zip_bytes(parts, stored=True)


def long_name_in_sst(size: int) -> bytes:
    sst = XML + b"<sst " + _long_name(size) + b" " + MAIN + b"><si><t>x</t></si></sst>"
    return zip_bytes(package(extra=[("xl/sharedStrings.xml", sst)]), stored=True)


def long_name_in_formula(size: int) -> bytes:
    return protocol_with_seats_stored(
        b'<row r="12"><c r="E12"><f ' + _long_name(size) + b"></f></c></row>"
    )


def formula_tags_without_end(size: int) -> bytes:
    return protocol_with_seats_stored(b'<row r="12"><c r="E12">' + b"<f>" * (size * _UNIT))


def long_values_many_cells(size: int) -> bytes:
    """Valid XML: many cells, each with a long attribute value (read, not refused)."""
    value = b"v" * 200
    rows = b"".join(
        b'<row r="%d"><c r="Z%d" s="0" foo="%s"><v>1</v></c></row>' % (r, r, value)
        for r in range(20, 20 + size * _UNIT // 20)
    )
    return protocol_with_seats_stored(rows)


def many_tiny_parts(size: int) -> bytes:
    count = size * 200
    sheets = two_sheets(seats_sheet())
    sheets += [(f"Лист {i}", f"worksheets/n{i}.xml", sheet_xml(b"")) for i in range(count)]
    return zip_bytes(package(sheets))


def many_merges(size: int) -> bytes:
    merges = b"".join(b'<mergeCell ref="K%d:L%d"/>' % (r, r) for r in range(1, size * _UNIT // 10))
    sheets = [
        ("Игры", "worksheets/sheet1.xml", games_sheet()),
        (
            "Заметки",
            "worksheets/sheet2.xml",
            sheet_xml(b"", tail=b"<mergeCells>" + merges + b"</mergeCells>"),
        ),
    ]
    return zip_bytes(package(sheets), stored=True)


# ---- bytes and cells a reader pays for -------------------------------------------------------


def _under_the_floor(count: int) -> bytes:
    blank = sheet_xml(b" " * (3_900_000 - 200))  # one object: compressed once
    sheets = [("Игры", "worksheets/sheet1.xml", games_sheet())]
    sheets += [(f"Лист {i}", f"worksheets/n{i}.xml", blank) for i in range(count)]
    return zip_bytes(package(sheets))


def sheets_under_the_ratio_floor(_: int) -> bytes:
    """480 sheets of 3.9 MB blanks: each under the per-part ratio floor, 1.8 GB together."""
    return _under_the_floor(480)


def fewer_sheets_under_the_floor(_: int) -> bytes:
    """250 such sheets: under the total, refused by the whole archive's ratio."""
    return _under_the_floor(250)


def _letters(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size).translate(bytes(97 + b % 26 for b in range(256)))


def attribute_of_40_mb(_: int) -> bytes:
    big = _letters(40 * 1024 * 1024, 1)
    sheets = [
        ("Игры", "worksheets/sheet1.xml", games_sheet()),
        (
            "Протокол",
            "worksheets/sheet2.xml",
            seats_sheet().replace(b"<sheetData>", b'<sheetPr codeName="' + big + b'"/><sheetData>'),
        ),
    ]
    return zip_bytes(package(sheets))


def text_of_40_mb(_: int) -> bytes:
    big = _letters(40 * 1024 * 1024, 2)
    return protocol_with_seats(
        b'<row r="12">' + b'<c r="E12" t="inlineStr"><is><t>' + big + b"</t></is></c></row>"
    )


def empty_strings_million_rows(_: int) -> bytes:
    """A million rows of one empty shared string: cheap to read, costly to annotate."""
    rows = b"".join(
        b'<row r="%d"><c r="F%d" t="s"><v>0</v></c></row>' % (r, r) for r in range(12, 1_000_012)
    )
    sst = XML + b"<sst " + MAIN + b' count="1000000" uniqueCount="1"><si><t></t></si></sst>'
    parts = package(
        [
            ("Игры", "worksheets/sheet1.xml", games_sheet()),
            ("Протокол", "worksheets/sheet2.xml", seats_sheet()),
            ("Заметки", "worksheets/sheet3.xml", sheet_xml(rows)),
        ],
        extra=[("xl/sharedStrings.xml", sst)],
    )
    parts[3] = (
        parts[3][0],
        parts[3][1].replace(
            b"</Relationships>",
            _rel(b"rId9", b"sharedStrings", b"sharedStrings.xml") + b"</Relationships>",
        ),
    )
    return zip_bytes(parts)


def comment_flood(_: int) -> bytes:
    """150,000 `<!---->` in a sheet: valid XML, and a step of the scan each (15 million of
    them, 100 MB from a 1.3 MB file padded with noise, held `check` a minute)."""
    return zip_bytes(package(two_sheets(seats_sheet(b"<!---->" * 150_000))))


def comments_in_many_parts(_: int) -> bytes:
    """40 sheets of 3,000 comments each: every part under the limit, the file over it."""
    notes = sheet_xml(b"<?x?>" * 3_000)  # one object: compressed once
    sheets = two_sheets(seats_sheet())
    sheets += [(f"Лист {i}", f"worksheets/n{i}.xml", notes) for i in range(40)]
    return zip_bytes(package(sheets))


def cells_without_references(_: int) -> bytes:
    """2.1 million `<c/>` in rows of 16,000: in the grid, and a step of the scan each
    (noise in a comment keeps the file under the ratio)."""
    row = b"<c/>" * 16_000
    rows = b"".join(b'<row r="%d">%s</row>' % (r, row) for r in range(20, 20 + 132))
    noise = b"<!--" + _letters(300_000, 7) + b"-->"
    return zip_bytes(package(two_sheets(seats_sheet(rows + noise))))


def styles_of_a_million_formats(_: int) -> bytes:
    styles = (
        XML
        + b"<styleSheet "
        + MAIN
        + b'><cellXfs count="1000000">'
        + b'<xf numFmtId="0"/>' * 1_000_000
        + b"</cellXfs></styleSheet>"
    )
    parts = package(extra=[("xl/styles.xml", styles)])
    parts[3] = (
        parts[3][0],
        parts[3][1].replace(
            b"</Relationships>", _rel(b"rId9", b"styles", b"styles.xml") + b"</Relationships>"
        ),
    )
    return zip_bytes(parts)


SHAPES: dict[str, Shape] = {
    # the scan judges one part, a reader opens another
    "literal_dotdot": Shape(
        _literal("worksheets/../worksheets/sheet4.xml"), "mismatch", True, "cannot be read safely"
    ),
    "literal_dot": Shape(
        _literal("./worksheets/sheet4.xml"), "mismatch", True, "cannot be read safely"
    ),
    "literal_double_slash": Shape(
        _literal("worksheets//sheet4.xml"), "mismatch", True, "cannot be read safely"
    ),
    "absolute_dotdot": Shape(
        _literal("/xl/worksheets/../worksheets/sheet4.xml"),
        "mismatch",
        True,
        "cannot be read safely",
    ),
    "backslash": Shape(
        _literal("worksheets\\sheet4.xml"), "mismatch", True, "cannot be read safely"
    ),
    "entity_target": Shape(entity_target, "mismatch", True, "cannot be read safely"),
    "duplicate_entry": Shape(duplicate_entry, "mismatch", True, "two parts of one name"),
    "case_twins": Shape(case_twins, "mismatch", True, "two parts of one name"),
    "other_workbook_folder": Shape(
        other_workbook_folder, "mismatch", True, "not where Excel keeps it"
    ),
    "unreached_bomb": Shape(unreached_bomb, "mismatch", True, "does not use"),
    "prefixed_cells": Shape(prefixed_cells, "mismatch", True, "spans 1,048,576 × 16,384"),
    "comment_in_a_value": Shape(comment_in_a_value, "mismatch", True, "markup inside a tag"),
    "r_twice": Shape(r_twice, "mismatch", True, "cell tag"),
    "r_without_space": Shape(r_without_space, "mismatch", True, "cell tag"),
    "r_inside_a_value": Shape(r_inside_a_value, "mismatch", True, "spans 1,048,576 × 16,384"),
    "loose_cells_far_down": Shape(loose_cells_far_down, "mismatch", True, "spans"),
    "utf16_sheet": Shape(utf16_sheet, "mismatch", True, "not UTF-8"),
    "unique_count_twice": Shape(unique_count_twice, "mismatch", True, "tag"),
    "local_name_differs": Shape(local_name_differs, "mismatch", True, "cannot be read safely"),
    "overlapping_entries": Shape(overlapping_entries, "mismatch", True, "share the same bytes"),
    "doctype_entities": Shape(doctype_entities, "mismatch", True, "document type"),
    "content_types_elsewhere": Shape(
        content_types_elsewhere, "mismatch", True, "cannot be read safely"
    ),
    "nul_in_name": Shape(nul_in_name, "mismatch", True, "cannot be read safely"),
    "two_main_parts": Shape(two_main_parts, "mismatch", True, "not where Excel keeps it"),
    # XML that made pattern-based scans slow
    "comment_full_of_cells": Shape(comment_full_of_cells, "quadratic", False),
    "unclosed_cell_tags": Shape(unclosed_cell_tags, "quadratic", True, "cell tag"),
    "long_name_in_sheet_tag": Shape(long_name_in_sheet_tag, "quadratic", True, "tag"),
    "long_name_in_relationship": Shape(long_name_in_relationship, "quadratic", True, "tag"),
    "long_name_in_sst": Shape(long_name_in_sst, "quadratic", True, "tag"),
    "long_name_in_formula": Shape(
        long_name_in_formula, "quadratic", True, "formulas without a saved value"
    ),
    "formula_tags_without_end": Shape(
        formula_tags_without_end, "quadratic", True, "formulas without a saved value"
    ),
    "long_values_many_cells": Shape(long_values_many_cells, "quadratic", False),
    "many_tiny_parts": Shape(many_tiny_parts, "quadratic", False),
    "many_merges": Shape(many_merges, "quadratic", False),
    # bytes and cells a reader pays for
    "sheets_under_the_ratio_floor": Shape(
        sheets_under_the_ratio_floor, "cost", True, "would unpack to"
    ),
    "fewer_sheets_under_the_floor": Shape(
        fewer_sheets_under_the_floor, "cost", True, "together are packed"
    ),
    "attribute_of_40_mb": Shape(attribute_of_40_mb, "cost", True, "a tag longer than"),
    "text_of_40_mb": Shape(text_of_40_mb, "cost", True, "a cell of over"),
    "empty_strings_million_rows": Shape(empty_strings_million_rows, "cost", False),
    "styles_of_a_million_formats": Shape(styles_of_a_million_formats, "cost", True, "packed"),
    "cells_without_references": Shape(
        cells_without_references, "cost", True, "more than 2,000,000 cells without a reference"
    ),
    "comment_flood": Shape(comment_flood, "cost", True, "more than 100,000 comments"),
    "comments_in_many_parts": Shape(
        comments_in_many_parts, "cost", True, "more than 100,000 comments"
    ),
}


def _ods(name: str) -> Callable[[int], bytes]:
    return lambda _: ods.hostile()[name]


# an OpenDocument spreadsheet's own ways: repeats, runs of spaces, entities (`testing.ods`)
SHAPES.update(
    {
        f"ods_{name.replace('-', '_')}": Shape(_ods(name), "ods", refused, words, ".ods")
        for name, refused, words in (
            ("repeated-cells", True, "repeated cells copy"),
            ("repeated-rows", True, "outside"),
            ("far-cell", False, ""),
            ("spaces", True, "repeats a space"),
            ("entities", True, "document type"),
            ("dtd", True, "document type"),
            ("copied-text", True, "repeated cells copy"),
            ("long-tag", True, "a tag longer than"),
            ("huge-content", True, "packed"),
            ("comment-flood", True, "more than 100,000 comments"),
        )
    }
)
LINEAR = [name for name, shape in SHAPES.items() if shape.family == "quadratic"]
