"""Read a protocol workbook's sheets into raw tables that remember every cell's address.

Any workbook laid out per SPEC §2 is accepted, not only our template: sheet and column
names in RU or EN in any mix and order, the header on any of the first rows, extra
columns and sheets ignored, fully blank rows skipped. Values stay exactly as the reader
gives them (typing is `parse`'s job). Formulas are read as their cached values.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from .. import vocab
from ..errors import ProtocolReadError
from ..findings import Finding, define, finding
from ..model import Places, Reading, Source
from ..text import MAX_CELL_TEXT, Text, utf16_length
from .columns import COLUMNS, REQUIRED_COLUMNS, column_lookup

HEADER_SEARCH_ROWS = 10  # a title or a blank line above the header is common in club files

MISSING_SHEET = define(
    "missing-sheet", "error",
    Text("Нет листа «{expected}»",
         "Sheet “{expected}” is missing"),
    Text("лист «{expected}»; найдены листы: {found}",
         "a sheet “{expected}”; sheets found: {found}"),
    Text("Добавьте лист «{expected}» (или переименуйте свой) — см. шаблон: mafia-sheets template",
         "Add the sheet “{expected}” (or rename yours) — see the template: mafia-sheets template"),
)
MISSING_COLUMN = define(
    "missing-column", "error",
    Text("На листе «{sheet}» нет столбца «{expected}»",
         "Sheet “{sheet}” has no column “{expected}”"),
    Text("столбец «{expected}» в строке заголовков; найдены: {found}",
         "a column “{expected}” in the header row; found: {found}"),
    Text("Добавьте столбец «{expected}» в строку заголовков листа «{sheet}»",
         "Add the column “{expected}” to the header row of sheet “{sheet}”"),
)
DUPLICATE_SHEET = define(
    "duplicate-sheet", "warning",
    Text("Два листа одного назначения: «{value}» и «{other}»",
         "Two sheets with one purpose: “{value}” and “{other}”"),
    Text("один такой лист",
         "one such sheet"),
    Text("Удалите или переименуйте лишний лист; учтён «{value}»",
         "Delete or rename the extra sheet; “{value}” is used"),
)
TEXT_TOO_LONG = define(
    "text-too-long", "error",
    Text("Текст в ячейке длиннее предела Excel: {length} символов",
         "The cell's text is longer than Excel's limit: {length} characters"),
    Text("не больше 32 767 символов в ячейке",
         "at most 32,767 characters in a cell"),
    Text("Сократите текст: Excel и итоги хранят в ячейке не больше 32 767 символов, а "
        "обрезанные ники слились бы в одного игрока",
         "Shorten the text: Excel and the results keep at most 32,767 characters in a "
        "cell, and cut nicknames would merge into one player"),
)
DUPLICATE_COLUMN = define(
    "duplicate-column", "warning",
    Text("Столбец «{value}» встречается дважды",
         "Column “{value}” appears twice"),
    Text("один столбец с таким заголовком",
         "one column with this header"),
    Text("Удалите или переименуйте лишний столбец; учтён первый",
         "Delete or rename the extra column; the first one is used"),
)


@dataclass(frozen=True)
class RawSheet:
    """One recognised sheet: its header position and its data columns, as read."""

    code: str
    name: str
    header_row: int  # 1-based Excel row of the header
    letters: dict[str, str]  # column code → Excel letter
    columns: dict[str, list[object]]  # column code → values of the data rows
    rows: list[int]  # 1-based Excel row of each data row (blank rows removed)
    places: Places | None = None  # the other layouts: each value's own sheet and cell

    def locate(self, column: str, index: int) -> tuple[str, str, int]:
        """(sheet, cell, Excel row) of `column`'s value in data row `index` (0-based)."""
        if self.places is not None:
            return self.places.locate(column, self.rows[index])
        letter = self.letters.get(column)
        row = self.rows[index]
        return self.name, f"{letter}{row}" if letter else "", row


@dataclass(frozen=True)
class RawWorkbook:
    source: str
    sheets: dict[str, RawSheet]
    sheet_names: tuple[str, ...]  # every sheet of the workbook, in order
    reading: Reading | None = None  # the layout the games were found in


def column_letter(index: int) -> str:
    """0 → 'A', 25 → 'Z', 26 → 'AA'."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def read_workbook(source: Source) -> tuple[RawWorkbook, list[Finding]]:
    """Open the bytes, find the protocol sheets, return their raw columns and findings."""
    from python_calamine import CalamineWorkbook

    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(source.data))
        names = tuple(workbook.sheet_names)
    except _READER_ERRORS as exc:  # calamine raises its own types for every corrupt part
        raise ProtocolReadError(
            Text(f"{source.name}: книгу не удаётся прочитать ({_short(exc)}). "
            "Откройте её в Excel или LibreOffice и сохраните заново как .xlsx.",
                 f"{source.name}: the workbook cannot be read ({_short(exc)}). "
            "Open it in Excel or LibreOffice and save it again as .xlsx."),
        ) from exc
    findings: list[Finding] = []
    sheets: dict[str, RawSheet] = {}
    lookup = vocab.sheet_lookup()
    others: list[str] = []  # sheets for the other layouts' readers (game sheets, rows)
    for name in names:
        code = lookup.get(vocab.fold(name))
        if code is None:
            others.append(name)
            continue
        if code in sheets:
            findings.append(finding(DUPLICATE_SHEET, name, value=sheets[code].name, other=name,
                                    source=source.name))
            continue
        try:  # only the library's work: a bug of ours is an internal error, not "save again"
            rows = workbook.get_sheet_by_name(name)
            grid: list[list[object]] = rows.to_python()  # type: ignore[assignment]
            start = rows.start
        except _READER_ERRORS as exc:
            raise ProtocolReadError(
                Text(f"{source.name}: лист «{name}» не читается ({_short(exc)}). "
                "Откройте файл в Excel или LibreOffice и сохраните заново как .xlsx.",
                 f"{source.name}: sheet “{name}” cannot be read ({_short(exc)}). "
                "Open the file in Excel or LibreOffice and save it again as .xlsx."),
            ) from exc
        sheets[code] = _read_sheet(code, name, grid, start, findings, source.name)
    from .layouts import read_layouts

    reading = read_layouts(workbook, others, sheets, findings, source.name)
    for code in vocab.REQUIRED_SHEETS:
        if code not in sheets:
            expected = f"{vocab.SHEETS[code].ru} / {vocab.SHEETS[code].en}"
            findings.append(finding(MISSING_SHEET, expected, expected=expected,
                                    found=", ".join(names) or "—", source=source.name))
    return RawWorkbook(source.name, sheets, names, reading), findings


def _reader_errors() -> tuple[type[BaseException], ...]:
    """What python-calamine raises for a file it cannot read (its own types, and the
    builtin ones its bindings map Rust errors to)."""
    import python_calamine

    own = tuple(value for value in vars(python_calamine).values()
                if isinstance(value, type) and issubclass(value, Exception))
    return (*own, ValueError, OSError, UnicodeError, OverflowError)


_READER_ERRORS = _reader_errors()


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:120]


def _read_sheet(code: str, name: str, grid: list[list[object]],
                start: tuple[int, int] | None, findings: list[Finding],
                source: str) -> RawSheet:
    row0, col0 = start or (0, 0)
    lookup = column_lookup(code)
    header_index, positions = _find_header(grid, lookup)
    header_row = row0 + header_index + 1
    letters: dict[str, str] = {}
    chosen: dict[str, int] = {}
    for index, column in positions:
        letter = column_letter(col0 + index)
        if column in chosen:
            findings.append(finding(DUPLICATE_COLUMN, name, f"{letter}{header_row}",
                                    grid[header_index][index], row=header_row, source=source))
            continue
        chosen[column] = index
        letters[column] = letter
    _report_missing_columns(code, name, grid, header_index, header_row, letters, findings,
                            source)
    data = grid[header_index + 1:]
    first_data_row = header_row + 1
    cells = _transpose(data, sorted(set(chosen.values())))
    kept = _filled_rows(len(data), list(cells.values()))
    if len(kept) == len(data):
        columns = {column: list(cells[j]) for column, j in chosen.items()}
    else:
        columns = {column: [cells[j][i] for i in kept] for column, j in chosen.items()}
    excel_rows = [first_data_row + i for i in kept]
    for column in chosen:
        _report_long_texts(name, letters[column], columns[column], excel_rows, findings,
                           source)
    return RawSheet(code, name, header_row, letters, columns,
                    excel_rows)


def _report_long_texts(sheet: str, letter: str, values: Sequence[object], rows: list[int],
                       findings: list[Finding], source: str) -> None:
    """Text past Excel's cell limit: an error at its cell, never cut in silence.

    A text of n UTF-16 units has at least n/2 characters, so only texts over half the
    limit are measured (one length check per cell, in C for the common case)."""
    half = MAX_CELL_TEXT // 2
    long = [i for i, value in enumerate(values)
            if value.__class__ is str and len(value) > half]  # type: ignore[arg-type]
    for i in long:
        length = utf16_length(str(values[i]))
        if length > MAX_CELL_TEXT:
            findings.append(finding(TEXT_TOO_LONG, sheet, f"{letter}{rows[i]}",
                                    str(values[i])[:40] + "…", row=rows[i], source=source,
                                    length=length))


def _transpose(rows: Sequence[Sequence[object]],
               wanted: list[int]) -> dict[int, Sequence[object]]:
    """The wanted columns of a grid, each as one list (itemgetter runs in C)."""
    if not rows or not wanted:  # no known column found: nothing to take
        return {j: () for j in wanted}
    width = wanted[-1] + 1
    if min(map(len, rows)) >= width:  # calamine's grid is rectangular: the usual case
        return {j: list(map(itemgetter(j), rows)) for j in wanted}
    return {j: [row[j] if j < len(row) else "" for row in rows] for j in wanted}


def _filled_rows(count: int, columns: list[Sequence[object]]) -> list[int]:
    """Indices of the rows with a value in at least one of `columns` (blank rows skipped).

    Only the rows blank in the column with the fewest blanks can be blank everywhere,
    so a full column (the usual case) answers at once.
    """
    if not columns:
        return []
    fewest = min(columns, key=lambda column: column.count(""))
    candidates = [i for i, value in enumerate(fewest) if value == ""]
    if not candidates:
        return list(range(count))
    blank = {i for i in candidates if all(column[i] == "" for column in columns)}
    return [i for i in range(count) if i not in blank]


def _find_header(grid: Sequence[Sequence[object]],
                 lookup: dict[str, str]) -> tuple[int, list[tuple[int, str]]]:
    """The row among the first few with the most known headers, and its (index, code) pairs."""
    best_index, best = 0, list[tuple[int, str]]()
    for index, row in enumerate(grid[:HEADER_SEARCH_ROWS]):
        found = [(j, lookup[vocab.fold(v)]) for j, v in enumerate(row)
                 if isinstance(v, str) and vocab.fold(v) in lookup]
        if len(found) > len(best):
            best_index, best = index, found
    return best_index, best


def _report_missing_columns(code: str, name: str, grid: Sequence[Sequence[object]],
                            header_index: int, header_row: int, letters: dict[str, str],
                            findings: list[Finding], source: str) -> None:
    missing = [c for c in REQUIRED_COLUMNS[code] if c not in letters]
    if not missing:
        return
    header = grid[header_index] if grid else []
    found = ", ".join(f"«{v}»" for v in header if v != "") or "—"
    for column in missing:
        findings.append(finding(MISSING_COLUMN, name, f"A{header_row}", "", row=header_row,
                                expected=COLUMNS[code][column].both(),
                                found=found, source=source))
