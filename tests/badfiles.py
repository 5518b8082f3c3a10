"""Builders of every kind of bad (and a few good) protocol files, made from scratch.

Each builder takes a folder and returns the path of the file it wrote there, so tests can
hand the bytes to `inspect_workbook` or the path to `load_source` and the CLI.
"""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import xlsxwriter

Builder = Callable[[Path], Path]

GAMES = [["Игра", "Результат"], [1, "Красные"]]
SEATS = [["Игра", "Место", "Игрок", "Роль"]] + [
    [1, seat, f"Игрок {seat}", role]
    for seat, role in enumerate(["Мирный"] * 6 + ["Шериф", "Мафия", "Мафия", "Дон"], start=1)
]


# ---- good workbooks ----------------------------------------------------------------------


def _openpyxl_book(path: Path, edit: Callable[[openpyxl.Workbook], None] | None = None) -> Path:
    book = openpyxl.Workbook()
    games = book.active
    games.title = "Игры"
    for row in GAMES:
        games.append(row)
    seats = book.create_sheet("Протокол")
    for row in SEATS:
        seats.append(row)
    if edit is not None:
        edit(book)
    book.save(path)
    return path


def valid_openpyxl(folder: Path) -> Path:
    return _openpyxl_book(folder / "valid_openpyxl.xlsx")


def valid_xlsxwriter(folder: Path) -> Path:
    path = folder / "valid_xlsxwriter.xlsx"
    with xlsxwriter.Workbook(path) as book:
        for name, rows in (("Games", GAMES), ("Seats", SEATS)):
            sheet = book.add_worksheet(name)
            for r, row in enumerate(rows):
                sheet.write_row(r, 0, row)
    return path


def formulas_with_values(folder: Path) -> Path:
    """xlsxwriter stores the value given to write_formula, as Excel does on save."""
    path = folder / "formulas_with_values.xlsx"
    with xlsxwriter.Workbook(path) as book:
        sheet = book.add_worksheet("Протокол")
        for r, row in enumerate(SEATS):
            sheet.write_row(r, 0, row)
        sheet.write_formula("B12", "=1+2", None, 3)
        sheet.write_formula("C12", '="x"&A2', None, "x1")
    return path


def merged_elsewhere(folder: Path) -> Path:
    """Merged cells on a sheet that is no protocol sheet: a title page, say."""

    def edit(book: openpyxl.Workbook) -> None:
        notes = book.create_sheet("Notes")
        notes["A1"] = "Кубок города"
        notes.merge_cells("A1:F2")

    return _openpyxl_book(folder / "merged_elsewhere.xlsx", edit)


# ---- protocol sheets a reader would misread ------------------------------------------------


def formulas_without_values(folder: Path) -> Path:
    """openpyxl writes formulas with an empty <v/>: no reader sees their result."""

    def edit(book: openpyxl.Workbook) -> None:
        book["Протокол"]["E2"] = "=1+1"
        book["Протокол"]["E3"] = "=SUM(B2:B3)"

    return _openpyxl_book(folder / "formulas.xlsx", edit)


def merged_protocol(folder: Path) -> Path:
    """The game id merged down its ten seat rows, as on the paper form."""

    def edit(book: openpyxl.Workbook) -> None:
        book["Протокол"].merge_cells("A2:A11")

    return _openpyxl_book(folder / "merged.xlsx", edit)


def hidden_protocol(folder: Path, state: str = "hidden") -> Path:
    def edit(book: openpyxl.Workbook) -> None:
        book["Игры"].sheet_state = state

    return _openpyxl_book(folder / f"{state}.xlsx", edit)


def very_hidden_protocol(folder: Path) -> Path:
    return hidden_protocol(folder, "veryHidden")


# ---- not an xlsx at all ------------------------------------------------------------------

_FREE, _END, _FAT_SECTOR, _NO_STREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def ole2(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE2 (Compound File v3) container: FAT in sector 0, directory in sector 1,
    each stream padded to 4,096 bytes so it lives in ordinary sectors (no mini stream)."""
    assert len(streams) <= 3
    fat = [_FAT_SECTOR, _END]
    entries = [_dir_entry("Root Entry", 5, _END, 0, child=1)]
    payload = b""
    for index, (name, content) in enumerate(streams.items(), start=1):
        content = content.ljust(4096, b"\0")
        first, count = len(fat), len(content) // 512
        fat += [*range(first + 1, first + count), _END]
        right = index + 1 if index < len(streams) else _NO_STREAM
        entries.append(_dir_entry(name, 2, first, len(content), right=right))
        payload += content
    entries += [_dir_entry("", 0, 0, 0)] * (4 - len(entries))
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        bytes(16),
        0x3E,
        3,
        0xFFFE,
        9,
        6,
        bytes(6),
        0,
        1,
        1,
        0,
        4096,
        _END,
        0,
        _END,
        0,
    )
    header += struct.pack("<109I", 0, *[_FREE] * 108)
    fat_sector = struct.pack("<128I", *(fat + [_FREE] * (128 - len(fat))))
    return header + fat_sector + b"".join(entries) + payload


def _dir_entry(
    name: str, kind: int, start: int, size: int, *, child: int = _NO_STREAM, right: int = _NO_STREAM
) -> bytes:
    raw = name.encode("utf-16-le") + b"\0\0" if name else b""
    return struct.pack(
        "<64sHBBIII16sIQQIQ",
        raw,
        len(raw),
        kind,
        1,
        _NO_STREAM,
        right,
        child,
        bytes(16),
        0,
        0,
        0,
        start,
        size,
    )


def legacy_xls(folder: Path) -> Path:
    path = folder / "old.xls"
    path.write_bytes(ole2({"Workbook": b"\x09\x08\x10\x00\x00\x06\x05\x00"}))
    return path


def password_protected(folder: Path) -> Path:
    """How Office stores an encrypted xlsx: an OLE2 file, whatever the extension says."""
    path = folder / "secret.xlsx"
    path.write_bytes(
        ole2(
            {
                "EncryptionInfo": b"\x04\x00\x04\x00\x40\x00\x00\x00",
                "EncryptedPackage": b"\x00" * 64,
            }
        )
    )
    return path


def old_word_document(folder: Path) -> Path:
    path = folder / "letter.xlsx"
    path.write_bytes(ole2({"WordDocument": b"\xec\xa5\xc1\x00"}))
    return path


def xml_spreadsheet_2003(folder: Path) -> Path:
    path = folder / "export2003.xlsx"
    path.write_text(
        '<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n'
        '<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>',
        encoding="utf-8",
    )
    return path


def _zip(path: Path, parts: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return path


def ods(folder: Path) -> Path:
    return _zip(
        folder / "season.ods",
        {
            "mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
            "content.xml": b"<office:document-content/>",
            "META-INF/manifest.xml": b"<manifest:manifest/>",
        },
    )


def xlsb(folder: Path) -> Path:
    return _zip(
        folder / "binary.xlsb",
        {
            "[Content_Types].xml": b"<Types/>",
            "xl/workbook.bin": b"\x83\x01\x00",
            "xl/worksheets/sheet1.bin": b"\x81\x01\x00",
        },
    )


def csv_renamed(folder: Path) -> Path:
    path = folder / "protocol.xlsx"
    lines = ["Игра;Место;Игрок;Роль"] + [f"1;{s};Игрок {s};Мирный" for s in range(1, 11)]
    path.write_bytes("\r\n".join(lines).encode("cp1251"))
    return path


def text_renamed(folder: Path) -> Path:
    path = folder / "notes.xlsx"
    path.write_text("Протокол игры 1\nпобеда красных\n", encoding="utf-8")
    return path


def html_renamed(folder: Path) -> Path:
    path = folder / "export.xlsx"
    path.write_text(
        "<!DOCTYPE html><html><body><table><tr><td>1</td></tr></table></body></html>",
        encoding="utf-8",
    )
    return path


def picture_renamed(folder: Path) -> Path:
    path = folder / "photo.xlsx"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4)
    return path


def empty_file(folder: Path) -> Path:
    path = folder / "empty.xlsx"
    path.write_bytes(b"")
    return path


# ---- damaged archives --------------------------------------------------------------------


def truncated(folder: Path) -> Path:
    data = valid_openpyxl(folder).read_bytes()
    path = folder / "truncated.xlsx"
    path.write_bytes(data[: len(data) // 2])
    return path


def _rezip(source: Path, path: Path, compression: int, edit: Callable[[str, bytes], bytes]) -> Path:
    with zipfile.ZipFile(source) as archive:
        parts = {name: edit(name, archive.read(name)) for name in archive.namelist()}
    return _zip(path, parts, compression)


def stored_parts(folder: Path) -> Path:
    """A sound workbook whose parts are stored, not deflated (allowed, if rare)."""
    return _rezip(
        valid_openpyxl(folder),
        folder / "stored.xlsx",
        zipfile.ZIP_STORED,
        lambda _, content: content,
    )


def bad_crc(folder: Path) -> Path:
    """Stored parts, then one byte of the protocol sheet changed in place."""
    path = stored_parts(folder).rename(folder / "bad_crc.xlsx")
    data = bytearray(path.read_bytes())
    at = data.index(b"<v>", data.index(b'<c r="B8"'))  # seat 7 of the protocol sheet
    data[at + 3] = ord("8")
    path.write_bytes(bytes(data))
    return path


def broken_deflate(folder: Path) -> Path:
    """The protocol sheet's compressed bytes overwritten: zlib cannot unpack them."""
    path = valid_openpyxl(folder).rename(folder / "broken.xlsx")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("xl/worksheets/sheet2.xml")
    name_len, extra_len = struct.unpack_from("<HH", data, info.header_offset + 26)
    start = info.header_offset + 30 + name_len + extra_len
    data[start : start + info.compress_size] = b"\xff" * info.compress_size
    path.write_bytes(bytes(data))
    return path


def not_a_workbook(folder: Path) -> Path:
    return _zip(folder / "archive.xlsx", {"readme.txt": b"hello", "photo.jpg": b"\xff\xd8"})


def word_document(folder: Path) -> Path:
    return _zip(
        folder / "letter.xlsx",
        {"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"},
    )


# ---- decompression bombs -----------------------------------------------------------------


def bomb_ratio(folder: Path) -> Path:
    """A workbook whose protocol sheet is 32 MB of blanks: it packs about 1000:1."""

    def edit(name: str, content: bytes) -> bytes:
        return content + b" " * (32 * 1024**2) if name == "xl/worksheets/sheet2.xml" else content

    return _rezip(valid_openpyxl(folder), folder / "bomb_ratio.xlsx", zipfile.ZIP_DEFLATED, edit)


def bomb_declared_total(folder: Path) -> Path:
    """Two parts whose central-directory entries declare almost 4 GiB each."""
    path = valid_openpyxl(folder).rename(folder / "bomb_total.xlsx")
    data = path.read_bytes()
    for part in ("xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"):
        data = set_declared_size(data, part, 0xF0000000)
    path.write_bytes(data)
    return path


def bomb_entries(folder: Path, count: int = 10_001) -> Path:
    parts = {f"xl/media/{i}.bin": b"" for i in range(count)}
    return _zip(folder / "bomb_entries.xlsx", parts, zipfile.ZIP_STORED)


def lying_header(folder: Path) -> Path:
    """The protocol sheet declares 1,000 bytes but inflates to 32 MB."""
    path = bomb_ratio(folder).rename(folder / "lying.xlsx")
    path.write_bytes(set_declared_size(path.read_bytes(), "xl/worksheets/sheet2.xml", 1000))
    return path


def set_declared_size(data: bytes, part: str, size: int) -> bytes:
    """Rewrite the uncompressed size a central-directory entry declares for `part`."""
    out = bytearray(data)
    at = out.find(b"PK\x01\x02")
    while at != -1:
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", out, at + 28)
        if out[at + 46 : at + 46 + name_len] == part.encode():
            struct.pack_into("<I", out, at + 24, size)
            return bytes(out)
        at = out.find(b"PK\x01\x02", at + 46 + name_len + extra_len + comment_len)
    raise KeyError(part)


# ---- hand-written workbooks, for XML that libraries do not write ---------------------------

_CONTENT_TYPES = (
    b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    b'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
    b"</Types>"
)


def minimal_workbook(
    folder: Path, sheet_xml: bytes, sheet: str = "Протокол", target: str = "/xl/worksheets/data.xml"
) -> Path:
    """A workbook of one sheet whose XML is given as is (prefixes, cached values …);
    `target` is how the workbook's rels point at it (absolute, or relative to xl/)."""
    workbook = (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats'
        '.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
        f'officeDocument/2006/relationships"><sheets><sheet name="{sheet}" sheetId="1" '
        'r:id="rId7"/></sheets></workbook>'
    ).encode()
    rels = (
        b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        b'openxmlformats.org/package/2006/relationships"><Relationship Id="rId7" Type="http://'
        b'schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        b'Target="' + target.encode() + b'"/></Relationships>'
    )
    return _zip(
        folder / "minimal.xlsx",
        {
            "[Content_Types].xml": _CONTENT_TYPES,
            "xl/workbook.xml": workbook,
            "xl/_rels/workbook.xml.rels": rels,
            "xl/worksheets/data.xml": sheet_xml,
        },
    )


def sheet_xml(rows: str, prefix: str = "", tail: str = "") -> bytes:
    """Sheet XML around `rows` (already in the prefix's tags), with an optional tail."""
    p = f"{prefix}:" if prefix else ""
    xmlns = f"xmlns:{prefix}" if prefix else "xmlns"
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><{p}worksheet {xmlns}="http://schemas.'
        f'openxmlformats.org/spreadsheetml/2006/main"><{p}sheetData>{rows}</{p}sheetData>'
        f"{tail}</{p}worksheet>"
    ).encode()
