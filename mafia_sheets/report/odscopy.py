"""An OpenDocument spreadsheet as an openpyxl workbook, for the annotated copy.

openpyxl cannot open an .ods, so `check --annotate` on one marks a copy made here: every
sheet in the .ods's order, every value in the cell it sits in (the addresses the findings
name), merged ranges as the .ods merges them; the .ods's own formatting (fonts, widths,
colours) is not carried over, and the output says so. The values come from the reader the
protocol was read with (python-calamine), after the safety scan bounded the file.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import Any

import openpyxl
from openpyxl.workbook.child import avoid_duplicate_name
from python_calamine import CalamineWorkbook

from ..model import Source
from ..text import cell as cell_text

ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"


def is_ods(data: bytes) -> bool:
    """An OpenDocument spreadsheet: a zip whose `mimetype` entry names the type (the
    bytes are the safety scan's judged archive)."""
    if not data.startswith(b"PK"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.getinfo("mimetype")
            return info.file_size < 200 and archive.read(info).strip() == ODS_MIME
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def ods_workbook(source: Source, merges: dict[str, list[Any]] | None = None) -> Any:
    """The openpyxl workbook of the .ods's values; `merges` (sheet name → ranges, 0-based
    ((row, column), (row, column)) pairs) are merged again in the copy."""
    reader = CalamineWorkbook.from_filelike(io.BytesIO(source.data))
    book = openpyxl.Workbook()
    book.remove(book.worksheets[0])
    for name in reader.sheet_names:
        sheet = book.create_sheet(_title(name, book.sheetnames))
        grid = reader.get_sheet_by_name(name)
        top, left = grid.start or (0, 0)
        for r, row in enumerate(grid.to_python()):
            for c, value in enumerate(row):
                if value != "" and value is not None:
                    _put(sheet, top + r + 1, left + c + 1, value)
        for (r0, c0), (r1, c1) in (merges or {}).get(name, ()):
            sheet.merge_cells(
                start_row=r0 + 1, start_column=c0 + 1, end_row=r1 + 1, end_column=c1 + 1
            )
    return book


def _title(name: str, taken: list[str]) -> str:
    """openpyxl keeps Excel's rules for a sheet's name (31 characters, no `[]:*?/\\`); an
    .ods allows more. The findings name the .ods's sheets, so a name is changed only when
    Excel could not hold it."""
    plain = "".join("_" if ch in "[]:*?/\\" else ch for ch in name)[:31] or "Sheet"
    return avoid_duplicate_name(taken, plain)


def _put(sheet: Any, row: int, column: int, value: object) -> None:
    cell = sheet.cell(row=row, column=column)
    if isinstance(value, str):
        cell.value = cell_text(value)
        cell.data_type = "s"  # `=1+1` typed as a nickname stays a text, not a formula
    elif isinstance(value, dt.timedelta):
        cell.value = (dt.datetime(1899, 12, 30) + value).time() if value.days == 0 else value
    else:
        cell.value = value
