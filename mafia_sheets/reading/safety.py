"""Bad files answered calmly (SPEC §5.5): one clear line instead of a traceback.

:func:`load_source` reads a protocol from disk; :func:`inspect_workbook` judges the bytes
before any spreadsheet library does, so that a legacy .xls, a password, a zip bomb, an
archive built to be read one way by one reader and another way by another, or a formula
without a stored value is named plainly, in RU and EN, with what to do about it. What
kind of file it is, the limits and the messages live here; the zip mechanics live in
:mod:`~mafia_sheets.reading.archive`, the scan of the package and its XML in
:mod:`~mafia_sheets.reading.xlsxscan`, whose result — the facts, and the very bytes
judged — the readers are handed.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import struct
from collections.abc import Collection, Iterable
from pathlib import Path

from ..errors import ProtocolReadError
from ..model import Source
from ..text import Text
from ..vocab import fold, sheet_lookup
from .archive import Archive, Damaged, Malformed, Unsafe, ZipLimits
from .archive import megabytes as _mb
from .archive import number as _n
from .cellref import range_area
from .odsscan import OdsLimits, OdsScan, Protected, is_ods, scan_ods
from .xlsxscan import WORKBOOK, ScanLimits, Sheet, WorkbookScan, scan_workbook
from .xlsxsheet import Strings

# What the safety scan returns, for either format: the facts and the judged bytes.
PackageScan = WorkbookScan | OdsScan

# A real 100,000-game protocol is ~1M rows: 30–60 MB zipped, ~350 MB of XML.
# The limits let that through with room to spare and stop what no protocol can be.
MAX_FILE_BYTES = 200 * 1024**2
MAX_UNCOMPRESSED_BYTES = 1024**3  # every part together
# Sheet XML packs 10–40:1; a bomb packs ~1000:1. Small archives (styles, an empty sheet)
# may pack tighter without harm, so the ratio is applied only above RATIO_MIN_BYTES, to
# each part and to the whole archive (480 parts just under the floor are one bomb).
MAX_RATIO = 100
RATIO_MIN_BYTES = 4 * 1024**2
# A workbook has a few dozen parts; millions of tiny entries exhaust memory on their own.
MAX_ZIP_ENTRIES = 10_000
# No tag a spreadsheet writes comes near this (a long list of ranges is a few KB); a
# longer one is built to be slow to read. A cell holds 32,767 characters at most (~200 KB
# of XML, rich text ~3 MB).
MAX_TAG_BYTES = 1024**2
MAX_CELL_BYTES = 8 * 1024**2
MAX_RELATIONSHIPS = 100_000
MAX_SHEETS = MAX_ZIP_ENTRIES
# Excel, LibreOffice and the libraries write no comments, processing instructions or CDATA
# sections past the XML declaration; the scan pays a step for each, so a package of
# millions of `<!---->` (100 MB of XML from a 1.3 MB file) is refused before it costs.
MAX_MARKUP = 100_000
# Cells without a reference (`<c>` with no `r`: no common writer omits it) are placed one
# by one, a step each: two million (8 MB of `<c/>`) take a few seconds.
MAX_LOOSE_CELLS = 2_000_000
# The sizes above bound bytes, not cells: a 9 KB sheet with one cell at GR1048576 makes the
# reader allocate 200 × 1,048,576 cells (8 GB). Readers size a sheet's grid from the range
# its cells span, so that range is bounded before any reader runs. A 100,000-game protocol
# (1M seat rows × ~15 columns) spans 15M cells: twice that is the most a sheet may span,
# ~1.3 GB in python-calamine's grid.
MAX_GRID_AREA = 32_000_000
# A range far larger than the cells in it is a sparse-grid bomb; one stray note far from
# the table is not, so ranges up to SPARSE_FREE_AREA (~0.2 GB) pass whatever they hold and
# larger ones may be at most MAX_SPARSENESS times the cells they hold (a real protocol: ~2).
SPARSE_FREE_AREA = 4_000_000
MAX_SPARSENESS = 16
# Every cell of every sheet, for the same reason as MAX_GRID_AREA.
MAX_CELLS = MAX_GRID_AREA
# A protocol's shared strings are nicknames, roles and notes: a few thousand, even in a
# 100,000-game file. The reader keeps each one (~100 bytes in python-calamine, more in
# openpyxl), so 40 million tiny strings — 9 MB zipped — cost 2 GB; 4 million cost ~0.4 GB.
MAX_SHARED_STRINGS = 4_000_000
# The annotated copy goes through openpyxl, ~40 µs and ~1 KB per cell on a busy machine
# (10,000 games: 0.7M cells, 20–40 s, 0.5 GB): past 500,000 cells (~7,000 games) or 64 MB
# of XML (a cell holds up to 32,767 characters) the copy would take minutes and GBs.
MAX_ANNOTATE_CELLS = 500_000
MAX_ANNOTATE_BYTES = 64 * 1024**2
# An .ods keeps every sheet in one content.xml, each cell placed by counting, and may stand
# a run of cells or rows for any number of copies: the grid and cell limits above apply to
# the cells repeats stand for; these bound the walk itself and what repeats make the
# reader build. A 100,000-game protocol is ~1.1M rows, ~10M cells and ~1 GB of content.xml
# (LibreOffice writes ~10 KB a game); a cell holds 32,767 characters at most.
MAX_ODS_ROW_BYTES = 16 * 1024**2
MAX_ODS_ROWS = 4_000_000
MAX_ODS_CELLS = 24_000_000
MAX_ODS_SPACE_RUN = 32_767
MAX_ODS_SPACES = 16_000_000
MAX_ODS_COPIED_TEXT = 256 * 1024**2

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_STREAMS = ("EncryptedPackage", "EncryptionInfo")
_LEGACYWORKBOOK_STREAMS = ("Workbook", "Book")
# The last few scans, by the bytes object scanned: `check --annotate` and the page judge a
# file for the copy, then read it; bytes cannot change, so one scan serves both.
_SCANS: list[tuple[bytes, PackageScan]] = []


def _fail(message: Text) -> ProtocolReadError:
    return ProtocolReadError(message)


# ---- reading from disk -------------------------------------------------------------------


def load_source(path: str | os.PathLike[str]) -> Source:
    """Read a protocol file; missing, a folder, not a regular file, unreadable, a symlink
    loop, empty or too large → one line naming it.

    Only the file is checked here; pass the bytes to :func:`inspect_workbook` for the rest.
    """
    file, shown = Path(path), os.fspath(path)
    try:
        data = _read_regular(file, shown)
    except (FileNotFoundError, NotADirectoryError):
        raise _fail(
            Text(
                f"{shown}: файл не найден. Проверьте имя файла и папку.",
                f"{shown}: file not found. Check the file name and the folder.",
            )
        ) from None
    except PermissionError:
        raise _fail(
            Text(
                f"{file.name} не читается: нет прав доступа. Проверьте права на файл "
                "или скопируйте его в доступную папку.",
                f"{file.name} cannot be read: no permission. Check the file's access "
                "rights, or copy it to a folder you can read.",
            )
        ) from None
    except OSError as exc:  # a symlink loop, a name too long, an I/O error …
        raise _fail(
            Text(
                f"{shown} не читается ({exc.strerror or exc}). Проверьте файл и попробуйте снова.",
                f"{shown} cannot be read ({exc.strerror or exc}). Check the file and try again.",
            )
        ) from None
    _check_size(len(data), file.name)
    return Source(file.name, data)


def _read_regular(file: Path, shown: str) -> bytes:
    """The bytes of a regular file. Opened without blocking (a FIFO would wait forever for
    a writer) and judged again by the open file, not by a name that may change between."""
    if stat.S_ISDIR(file.stat().st_mode):
        raise _fail(
            Text(
                f"{shown} — это папка, а не файл. Укажите путь к файлу протокола (.xlsx).",
                f"{shown} is a folder, not a file. Give the path of the protocol workbook (.xlsx).",
            )
        )
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    with os.fdopen(os.open(file, flags), "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _fail(
                Text(
                    f"{shown} — не обычный файл. Укажите путь к файлу протокола (.xlsx).",
                    f"{shown} is not a regular file. Give the path of the protocol "
                    "workbook (.xlsx).",
                )
            )
        _check_size(info.st_size, file.name)
        return stream.read(MAX_FILE_BYTES + 1)  # the file may grow after fstat()


def _check_size(size: int, name: str) -> None:
    if size == 0:
        raise _fail(
            Text(
                f"{name} пуст (0 байт). Откройте протокол в Excel и сохраните заново "
                "или выберите правильный файл.",
                f"{name} is empty (0 bytes). Open the protocol in Excel and save it "
                "again, or choose the right file.",
            )
        )
    if size > MAX_FILE_BYTES:
        raise _fail(
            Text(
                f"{name} весит {_mb(size, 'ru')}, больше предела "
                f"{_mb(MAX_FILE_BYTES, 'ru')}. Проверьте, что это файл протокола; удалите "
                "картинки и лишние листы.",
                f"{name} is {_mb(size, 'en')}, over the {_mb(MAX_FILE_BYTES, 'en')} "
                "limit. Check that it is the protocol workbook; remove pictures and extra "
                "sheets.",
            )
        )


# ---- what kind of file it is -------------------------------------------------------------


def inspect_workbook(data: bytes, name: str, annotate: bool = False) -> PackageScan:
    """Judge `data` and return what the scan found, with the bytes the readers are to be
    given (:meth:`WorkbookScan.reader_archive`, :meth:`WorkbookScan.copy_archive`).

    Raises ProtocolReadError (one line, RU+EN, naming `name`) unless `data` is a sound
    xlsx or .ods whose protocol sheets are visible and hold values, not bare formulas, and
    whose every sheet and string table is bounded as a protocol is (MAX_GRID_AREA …). With
    `annotate`, also unless openpyxl can make the annotated copy in bounded time."""
    scan = next((found for seen, found in _SCANS if seen is data), None)
    if scan is None:
        scan = _scan(data, name)
        _SCANS[:] = [*_SCANS[-1:], (data, scan)]
    _judge(scan, name, annotate)
    return scan


def adopt_scans(scans: Iterable[tuple[bytes, PackageScan]]) -> None:
    """Scans made elsewhere (a child process, while this one imported what it needs): kept
    as this process's own, each for the very bytes object it was made of, so that judging
    those bytes — done again here — scans nothing."""
    _SCANS.extend(scans)


def without_bytes(scan: PackageScan) -> PackageScan:
    """`scan` less the file's bytes, for the process that holds them (see
    :meth:`~mafia_sheets.reading.archive.Archive.without_bytes`)."""
    return dataclasses.replace(scan, archive=scan.archive.without_bytes())


def with_bytes(scan: PackageScan, data: bytes) -> PackageScan:
    """A scan sent :func:`without_bytes`, with `data` — the bytes it was made of — again."""
    return dataclasses.replace(scan, archive=scan.archive.with_bytes(data))


def forget_scans() -> None:
    """Drop the scans kept for the bytes last judged (the page, between requests)."""
    _SCANS.clear()


def _scan(data: bytes, name: str) -> PackageScan:
    _check_size(len(data), name)
    if data.startswith(_OLE2):
        raise _ole2_error(data, name)
    if not data.startswith(b"PK"):
        raise _not_zip_error(data, name)
    limits = ZipLimits(MAX_ZIP_ENTRIES, MAX_UNCOMPRESSED_BYTES, MAX_RATIO, RATIO_MIN_BYTES)
    try:
        archive = Archive(data, limits)
        if is_ods(archive) and not archive.encrypted:
            return scan_ods(archive, _ODS_LIMITS)
        _check_container_kind(archive, name)
        return scan_workbook(
            archive,
            ScanLimits(
                limits,
                MAX_TAG_BYTES,
                MAX_CELL_BYTES,
                MAX_RELATIONSHIPS,
                MAX_SHEETS,
                MAX_MARKUP,
                MAX_LOOSE_CELLS,
            ),
        )
    except Protected:
        raise _password(name, ods=True) from None
    except Unsafe as why:  # the scan says why; the message and what to do are worded here
        raise _bomb(name, why.why) from None
    except Damaged as why:
        raise _corrupt(name, why.why) from None
    except Malformed as why:
        raise _malformed(name, why.why) from None


_ODS_LIMITS = OdsLimits(
    MAX_TAG_BYTES,
    MAX_ODS_ROW_BYTES,
    MAX_ODS_ROWS,
    MAX_ODS_CELLS,
    MAX_SHEETS,
    MAX_ODS_SPACE_RUN,
    MAX_ODS_SPACES,
    MAX_ODS_COPIED_TEXT,
    MAX_MARKUP,
)


def _judge(scan: PackageScan, name: str, annotate: bool) -> None:
    """The limits on what the scan found: the protocol sheets, every sheet's grid, the
    strings; with `annotate`, what openpyxl's copy would cost."""
    wanted = sheet_lookup()
    protocol = [sheet for sheet in scan.sheets if fold(sheet.name) in wanted]
    for sheet in protocol:
        if sheet.scan is None:
            raise _corrupt(
                name,
                Text(
                    f"нет данных листа «{sheet.name}»", f"the data of sheet {sheet.name} is missing"
                ),
            )
        _check_visible(sheet, name)
    if scan.strings is not None:
        _check_strings(scan.strings, name)
    cells = merged = 0
    for sheet in scan.sheets:
        if sheet.scan is None:
            continue
        _check_grid(sheet, name)
        cells += sheet.scan.grid.cells
        _check_cells(cells, MAX_CELLS, name)
    _check_scans(protocol, name)
    if annotate:  # merged cells cost openpyxl an object each: only the copy counts them
        for part in {sheet.part: sheet for sheet in scan.sheets if sheet.scan}.values():
            merged += sum(map(range_area, part.scan.merges if part.scan else ()))
        size = sum(scan.archive.entries[part].size for part in scan.parts)
        _check_annotatable(cells + merged, size, name)


def _check_strings(strings: Strings, name: str) -> None:
    """The shared strings: at most MAX_SHARED_STRINGS, and as many as the table says.

    Readers reserve memory for the declared uniqueCount before reading a single string;
    a table may declare fewer than it holds (harmless), never more.
    """
    held = strings.items
    if held > MAX_SHARED_STRINGS or (strings.unique_count or 0) > MAX_SHARED_STRINGS:
        shown = max(held, strings.unique_count or 0)
        verb = (
            Text("содержит", "holds") if held > MAX_SHARED_STRINGS else Text("заявляет", "declares")
        )
        raise _bomb(
            name,
            Text(
                f"его таблица строк {verb.ru} {_count(shown, 'ru')} текстов "
                f"(предел {_n(MAX_SHARED_STRINGS, 'ru')})",
                f"its shared-strings table {verb.en} {_count(shown, 'en')} texts "
                f"(limit {_n(MAX_SHARED_STRINGS, 'en')})",
            ),
        )
    if strings.unique_count is not None and strings.unique_count > held:
        raise _corrupt(
            name,
            Text(
                f"таблица строк заявляет {_count(strings.unique_count, 'ru')} "
                f"текстов, а содержит {_n(held, 'ru')}",
                f"the shared-strings table declares "
                f"{_count(strings.unique_count, 'en')} texts but holds "
                f"{_n(held, 'en')}",
            ),
        )
    if strings.count is not None and strings.count > MAX_CELLS:
        raise _corrupt(
            name,
            Text(
                f"таблица строк заявляет {_count(strings.count, 'ru')} "
                "использований — больше, чем может быть в книге",
                f"the shared-strings table declares "
                f"{_count(strings.count, 'en')} uses, more than a workbook can hold",
            ),
        )


def _count(value: int, lang: str) -> str:
    """A declared number as shown: absurd ones (not even a number) stay short."""
    return _n(value, lang) if value < 10**15 else _ABSURD(lang)


_ABSURD = Text("немыслимое число", "an absurd number")


def _check_grid(sheet: Sheet, name: str) -> None:
    """Refuse a sheet whose cells lie outside Excel's grid or span a range far beyond them."""
    assert sheet.scan is not None
    grid = sheet.scan.grid
    if grid.outside:
        raise _bomb(
            name,
            Text(
                f"лист «{sheet.name}» ссылается на ячейку {grid.outside} за "
                "пределами "
                "листа Excel (1 048 576 строк × 16 384 столбца)",
                f"sheet {sheet.name} refers to cell {grid.outside}, outside "
                "Excel's grid (1,048,576 rows × 16,384 columns)",
            ),
        )
    area = grid.area()
    if area <= SPARSE_FREE_AREA:
        return
    if area > MAX_GRID_AREA or area > MAX_SPARSENESS * max(grid.cells, 1):
        rows, cols = grid.max_row - grid.min_row + 1, grid.max_col - grid.min_col + 1
        span = Text(f"{_n(rows, 'ru')} × {_n(cols, 'ru')}", f"{_n(rows, 'en')} × {_n(cols, 'en')}")
        raise _bomb(
            name,
            Text(
                f"лист «{sheet.name}» занимает {span.ru} ячеек "
                f"({_n(area, 'ru')}), а "
                f"заполнено {_n(grid.cells, 'ru')} (предел {_n(MAX_GRID_AREA, 'ru')} "
                f"ячеек или в {MAX_SPARSENESS} раз больше заполненных сверх "
                f"{_n(SPARSE_FREE_AREA, 'ru')})",
                f"sheet {sheet.name} spans {span.en} cells ({_n(area, 'en')}) but "
                f"holds {_n(grid.cells, 'en')} (limit {_n(MAX_GRID_AREA, 'en')} cells, "
                f"or {MAX_SPARSENESS} times the cells held past "
                f"{_n(SPARSE_FREE_AREA, 'en')})",
            ),
        )


def _check_cells(cells: int, limit: int, name: str) -> None:
    if cells > limit:
        raise _bomb(
            name,
            Text(f"в нём больше {_n(limit, 'ru')} ячеек", f"it holds over {_n(limit, 'en')} cells"),
        )


def _check_annotatable(cells: int, size: int, name: str) -> None:
    if cells > MAX_ANNOTATE_CELLS:
        raise _fail(
            Text(
                f"{name}: копия с пометками делается для книг до "
                f"{_n(MAX_ANNOTATE_CELLS, 'ru')} ячеек, а в этой {_n(cells, 'ru')}. "
                "Запустите check без --annotate: у каждого замечания указана ячейка.",
                f"{name}: an annotated copy is made for workbooks of up to "
                f"{_n(MAX_ANNOTATE_CELLS, 'en')} cells; this one has {_n(cells, 'en')}. "
                "Run check without --annotate: every finding names its cell.",
            )
        )
    if size > MAX_ANNOTATE_BYTES:
        raise _fail(
            Text(
                f"{name}: копия с пометками делается для книг до "
                f"{_mb(MAX_ANNOTATE_BYTES, 'ru')} в распакованном виде, а эта занимает "
                f"{_mb(size, 'ru')}. Запустите check без --annotate: у каждого замечания "
                "указана ячейка.",
                f"{name}: an annotated copy is made for workbooks of up to "
                f"{_mb(MAX_ANNOTATE_BYTES, 'en')} unpacked; this one is {_mb(size, 'en')}. "
                "Run check without --annotate: every finding names its cell.",
            )
        )


def _password(name: str, ods: bool = False) -> ProtocolReadError:
    """A document saved with a password cannot be read; how to remove it, by program."""
    if ods:
        return _fail(
            Text(
                f"{name} защищён паролем, его нельзя прочитать. Снимите пароль: в LibreOffice "
                "«Файл → Сохранить как», снимите флажок «Сохранить с паролем» и сохраните.",
                f"{name} is password-protected, so it cannot be read. Remove the password: in "
                "LibreOffice, File → Save As, clear “Save with password” and save.",
            )
        )
    return _fail(
        Text(
            f"{name} защищён паролем, его нельзя прочитать. Снимите пароль: в Excel "
            "«Файл → Сведения → Защита книги → Зашифровать с использованием "
            "пароля», очистите поле и сохраните.",
            f"{name} is password-protected, so it cannot be read. Remove the "
            "password: in Excel, File → Info → Protect Workbook → Encrypt with "
            "Password, clear it and save.",
        )
    )


def _ole2_error(data: bytes, name: str) -> ProtocolReadError:
    """Office keeps both a legacy .xls and an encrypted .xlsx in an OLE2 container."""
    if all(_has_ole2_stream(data, stream) for stream in _ENCRYPTION_STREAMS):
        return _password(name)
    if any(_has_ole2_stream(data, stream) for stream in _LEGACYWORKBOOK_STREAMS):
        return _fail(
            Text(
                f"{name} — файл Excel старого формата (.xls). Откройте файл в Excel или "
                "LibreOffice и сохраните как книгу Excel (.xlsx).",
                f"{name} is an old-format Excel file (.xls). Open it in Excel or "
                "LibreOffice and save it as an Excel workbook (.xlsx).",
            )
        )
    return _fail(
        Text(
            f"{name} — файл Office старого формата, а не книга Excel. Сохраните протокол "
            "как книгу Excel (.xlsx).",
            f"{name} is an old-format Office file, not an Excel workbook. Save the "
            "protocol as an Excel workbook (.xlsx).",
        )
    )


def _has_ole2_stream(data: bytes, stream: str) -> bool:
    """True when an OLE2 directory entry carries this name.

    Entries are 128 bytes, 128-aligned in the file, the UTF-16 name first and its byte
    length (terminator included) at +64: checking both keeps cell text from matching.
    """
    needle = stream.encode("utf-16-le") + b"\0\0"
    at = data.find(needle)
    while at != -1:
        if at % 128 == 0 and data[at + 64 : at + 66] == struct.pack("<H", len(needle)):
            return True
        at = data.find(needle, at + 1)
    return False


def _not_zip_error(data: bytes, name: str) -> ProtocolReadError:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if b"mso-application" in head and b"excel.sheet" in head:
        kind = Text("таблица Excel 2003 в формате XML", "an Excel 2003 XML spreadsheet")
    elif b"<office:document" in head and b"opendocument" in head:
        return _fail(
            Text(
                f"{name} — плоская таблица OpenDocument (.fods, один файл XML). В LibreOffice "
                "выберите «Файл → Сохранить как → Электронная таблица ODF (.ods)».",
                f"{name} is a flat OpenDocument spreadsheet (.fods, one XML file). In "
                "LibreOffice choose File → Save As → ODF Spreadsheet (.ods).",
            )
        )
    elif head.startswith((b"<!doctype html", b"<html")) or b"<table" in head:
        kind = Text(
            "веб-страница (HTML), сохранённая под именем файла Excel",
            "a web page (HTML) saved with an Excel file name",
        )
    elif _looks_like_text(data[:65536]):
        kind = Text(
            "CSV или текстовый файл, а не книга Excel (возможно, его переименовали в .xlsx)",
            "a CSV or text file, not an Excel workbook (perhaps renamed to .xlsx)",
        )
        return _fail(
            Text(
                f"{name} похож на {kind.ru}. Откройте файл в Excel и сохраните как книгу "
                "Excel (.xlsx).",
                f"{name} looks like {kind.en}. Open it in Excel and save it as an Excel "
                "workbook (.xlsx).",
            )
        )
    else:
        kind = Text(
            "не книга Excel (.xlsx): содержимое не в формате xlsx",
            "not an Excel workbook (.xlsx): its contents are not in the xlsx format",
        )
    return _fail(
        Text(
            f"{name} — {kind.ru}. Откройте файл в Excel и сохраните как книгу Excel (.xlsx).",
            f"{name} is {kind.en}. Open it in Excel and save it as an Excel workbook (.xlsx).",
        )
    )


def _looks_like_text(head: bytes) -> bool:
    """UTF-8, UTF-16 (Excel's "Unicode text") or cp1251 text without control bytes."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    if b"\0" in head:
        return False
    for encoding in ("utf-8", "cp1251"):
        try:
            text = head.decode(encoding)
        except UnicodeDecodeError:
            continue  # a UTF-8 sequence cut at 64 KB also lands here, then cp1251 reads it
        controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\r\n\f")
        return controls <= len(text) // 100
    return False


def _check_container_kind(archive: Archive, name: str) -> None:
    """A zip, but is it an xlsx? .ods, .xlsb, .docx and plain archives are zips too."""
    infos = archive.entries
    if archive.encrypted:
        raise _fail(
            Text(
                f"{name} — зашифрованный zip-архив, его нельзя прочитать. Снимите пароль "
                "и сохраните протокол как книгу Excel (.xlsx).",
                f"{name} is an encrypted zip archive, so it cannot be read. Remove the "
                "password and save the protocol as an Excel workbook (.xlsx).",
            )
        )
    mimetype = infos.get("mimetype")
    if mimetype is not None and mimetype.size < 200 and b"opendocument" in archive.read("mimetype"):
        odf = archive.read("mimetype").decode("ascii", "replace").rsplit(".", 1)[-1].strip()
        raise _fail(
            Text(
                f"{name} — документ OpenDocument ({odf[:20]}), а не таблица. Сохраните "
                "протокол как таблицу LibreOffice (.ods) или книгу Excel (.xlsx).",
                f"{name} is an OpenDocument {odf[:20]} document, not a spreadsheet. Save the "
                "protocol as a LibreOffice spreadsheet (.ods) or an Excel workbook (.xlsx).",
            )
        )
    if "xl/workbook.bin" in infos:
        raise _fail(
            Text(
                f"{name} — двоичная книга Excel (.xlsb). Откройте её в Excel и сохраните "
                "как книгу Excel (.xlsx).",
                f"{name} is a binary Excel workbook (.xlsb). Open it in Excel and save it "
                "as an Excel workbook (.xlsx).",
            )
        )
    if WORKBOOK not in infos:
        if "word/document.xml" in infos:
            kind = Text("документ Word", "a Word document")
        elif "ppt/presentation.xml" in infos:
            kind = Text("презентация PowerPoint", "a PowerPoint presentation")
        else:
            kind = Text("zip-архив", "a zip archive")
        raise _fail(
            Text(
                f"{name} — {kind.ru}, а не книга Excel (нет {WORKBOOK}). Сохраните "
                "протокол в Excel как книгу Excel (.xlsx).",
                f"{name} is {kind.en}, not an Excel workbook (no {WORKBOOK}). Save the "
                "protocol in Excel as an Excel workbook (.xlsx).",
            )
        )


def _malformed(name: str, why: Text) -> ProtocolReadError:
    return _fail(
        Text(
            f"{name} не читается безопасно: {why.ru}. Откройте его в Excel или LibreOffice и "
            "сохраните заново как .xlsx.",
            f"{name} cannot be read safely: {why.en}. Open it in Excel or LibreOffice and "
            "save it again as .xlsx.",
        )
    )


def _bomb(name: str, why: Text) -> ProtocolReadError:
    return _fail(
        Text(
            f"{name} отклонён как опасный: {why.ru}. Протокол намного меньше; проверьте, "
            "что это нужный файл, или сохраните его заново в Excel или LibreOffice.",
            f"{name} is refused as unsafe: {why.en}. A protocol is far smaller; check "
            "that this is the right file, or save it again in Excel or LibreOffice.",
        )
    )


def _corrupt(name: str, why: Text) -> ProtocolReadError:
    return _fail(
        Text(
            f"{name} повреждён или неполон: {why.ru}. Скопируйте или скачайте его снова "
            "либо откройте в Excel и сохраните новую копию.",
            f"{name} is damaged or incomplete: {why.en}. Copy or download it again, or "
            "open it in Excel and save a new copy.",
        )
    )


# ---- what the protocol sheets hold: hidden, merged, formulas without values -----------


def judge_game_sheets(
    scan: PackageScan | None, read: Collection[str], played: Collection[str], name: str
) -> None:
    """The sheets a layout read games from by their content, not by their name (a sheet
    per game, a row per game), judged as the protocol sheets are: formulas without a saved
    value in any of them, or a hidden one holding a played game, is refused in one line."""
    if scan is None:
        return
    sheets = [sheet for sheet in scan.sheets if sheet.name in read and sheet.scan is not None]
    for sheet in sheets:
        if sheet.name in played:
            _check_visible(sheet, name)
    _check_scans(sheets, name)


def _check_visible(sheet: Sheet, name: str) -> None:
    if sheet.state not in ("hidden", "veryHidden"):
        return
    how = Text("", "")
    if sheet.state == "veryHidden":
        how = Text(
            " (он «очень скрыт»: покажите его в свойствах листа в редакторе VBA)",
            ' (it is "very hidden": unhide it in the VBA editor\'s sheet properties)',
        )
    raise _fail(
        Text(
            f"{name}: лист протокола «{sheet.name}» скрыт{how.ru}. Покажите его или "
            "удалите: судья должен видеть всё, что считается.",
            f"{name}: the protocol sheet {sheet.name} is hidden{how.en}. Unhide it or "
            "delete it: a judge must see what is counted.",
        )
    )


def _check_scans(sheets: list[Sheet], name: str) -> None:
    """Formulas without a saved value: every protocol sheet that has them, each with its
    first cells, in one message (fixing one sheet only to find the next is a judge's lost
    hour).

    Merges are judged by the reader, which knows where the header is: a title merged
    above it is layout, a merge over data rows is refused there (reading.rows)."""
    parts = []
    for sheet in sheets:
        scan = sheet.scan
        if scan is None or not scan.bare_count:
            continue
        named = [cell for cell in scan.bare_cells if cell]
        cells = ", ".join(f"{sheet.name}!{cell}" for cell in named) or sheet.name
        parts.append((cells, _more(scan.bare_count - max(len(named), 1))))
    if not parts:
        return
    ru = "; ".join(cells + more.ru for cells, more in parts)
    en = "; ".join(cells + more.en for cells, more in parts)
    raise _fail(
        Text(
            f"{name}: формулы без сохранённого значения в {ru}. Откройте "
            "файл в Excel или LibreOffice и сохраните, чтобы значения записались, или "
            "вставьте значения («Специальная вставка → Значения»).",
            f"{name}: formulas without a saved value in {en}. Open "
            "the file in Excel or LibreOffice and save it, so the values are stored, "
            "or paste values (Paste Special → Values).",
        )
    )


def _more(count: int) -> Text:
    if count <= 0:
        return Text("", "")
    return Text(f" (и ещё {_n(count, 'ru')})", f" (and {_n(count, 'en')} more)")
