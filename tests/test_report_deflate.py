"""Rows deflated while they are written (report.deflate) unpack to exactly the parts that
xlsxwriter's own store zips from its row files, however the rows are cut into chunks."""

from __future__ import annotations

import io
import zipfile
import zlib

import pytest
from rating_fixture import make_rating

from mafia_sheets.report import deflate, engine
from mafia_sheets.report.xlsx import results_workbook


def parts(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None  # every part's CRC and size as stored
    return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def stored(rating, monkeypatch) -> bytes:
    """The same workbook through xlsxwriter's row files and zipfile."""
    with monkeypatch.context() as patch:
        patch.setattr(engine, "_rows_deflatable", lambda: False)
        return results_workbook(rating, "ru")


@pytest.mark.parametrize("flush_at", [1, 300, deflate.FLUSH_AT])
def test_deflated_rows_unpack_to_the_stored_parts(monkeypatch, flush_at):
    rating = make_rating()
    monkeypatch.setattr(deflate, "FLUSH_AT", flush_at)
    fast = results_workbook(rating, "ru")
    assert parts(fast) == parts(stored(rating, monkeypatch))
    names = zipfile.ZipFile(io.BytesIO(fast)).namelist()
    assert names == zipfile.ZipFile(io.BytesIO(stored(rating, monkeypatch))).namelist()


def test_a_sheet_without_rows_and_a_sheet_of_public_calls():
    with engine.open_book(streamed=True) as book:
        book.sheet("empty")
        sheet = book.sheet("cells")
        sheet.text(0, 0, "header")
        sheet.number(1, 0, 2.5)
        sheet.table(2, [engine.Column("x", 8, None, None, ["a", 1, None])])
        data = book.close()
    sheets = parts(data)
    assert b"<sheetData/>" in sheets["xl/worksheets/sheet1.xml"]
    second = sheets["xl/worksheets/sheet2.xml"]
    assert b"\x00" not in second and second.count(b"<row ") == 4


def test_a_failure_while_deflating_is_raised_not_hung(monkeypatch):
    class Broken:
        def compress(self, data: bytes) -> bytes:
            raise zlib.error("disk full")

        def flush(self, mode: int) -> bytes:
            return b""

    real = deflate.DeflatedRows.__init__

    def broken(self, *args):
        real(self, *args)
        self._compressor = Broken()

    monkeypatch.setattr(deflate.DeflatedRows, "__init__", broken)
    with pytest.raises(zlib.error, match="disk full"), engine.open_book(streamed=True) as book:
        book.sheet("x").table(0, [engine.Column("x", 8, None, None, list(range(10)))])
        book.close()


def test_crc_of_joined_pieces():
    pieces = [b"", b"<row>", "Ёж".encode() * 5000, b"</row>" * 3]
    crc, whole = 0, b""
    for piece in pieces:
        crc = deflate.crc32_combine(crc, zlib.crc32(piece), len(piece))
        whole += piece
    assert crc == zlib.crc32(whole)


def test_a_package_past_four_gigabytes_is_refused_as_zipfile_refuses_it(monkeypatch):
    monkeypatch.setattr(deflate, "_LIMIT", 100)
    with pytest.raises(zipfile.LargeZipFile):
        deflate.Package(io.BytesIO(), streams={}).writestr("a.xml", b"x" * 200)
