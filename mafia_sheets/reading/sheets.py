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
from ..errors import SAVE_AGAIN, ProtocolReadError
from ..findings import Finding, define, finding
from ..model import HeaderRead, Places, Reading, Source
from ..text import MAX_CELL_TEXT, Text, cell_text, utf16_length
from .cellref import column_letter
from .columns import COLUMNS, REQUIRED_COLUMNS, SCHEMA
from .matching import (
    closest_column,
    is_counter_header,
    is_note_header,
    is_running_count,
    match_header,
)
from .values import is_blank
from .xlsxscan import WorkbookScan

HEADER_SEARCH_ROWS = 10  # a title or a blank line above the header is common in club files

MISSING_SHEET = define(
    "missing-sheet",
    "error",
    Text("Нет листа «{expected}»", "Sheet “{expected}” is missing"),
    Text(
        "лист «{expected}»; найдены листы: {found}", "a sheet “{expected}”; sheets found: {found}"
    ),
    Text(
        "Добавьте лист «{expected}» (или переименуйте свой) — см. шаблон: mafia-sheets template",
        "Add the sheet “{expected}” (or rename yours) — see the template: mafia-sheets template",
    ),
)
MISSING_COLUMN = define(
    "missing-column",
    "error",
    Text(
        "На листе «{sheet}» нет столбца «{expected}»", "Sheet “{sheet}” has no column “{expected}”"
    ),
    Text(
        "столбец «{expected}» в строке заголовков; найдены: {found}",
        "a column “{expected}” in the header row; found: {found}",
    ),
    Text(
        "Добавьте столбец «{expected}» в строку заголовков листа «{sheet}»",
        "Add the column “{expected}” to the header row of sheet “{sheet}”",
    ),
)
DUPLICATE_SHEET = define(
    "duplicate-sheet",
    "warning",
    Text(
        "Два листа одного назначения: «{value}» и «{other}»",
        "Two sheets with one purpose: “{value}” and “{other}”",
    ),
    Text("один такой лист", "one such sheet"),
    Text(
        "Удалите или переименуйте лишний лист; учтён «{value}»",
        "Delete or rename the extra sheet; “{value}” is used",
    ),
)
TEXT_TOO_LONG = define(
    "text-too-long",
    "error",
    Text(
        "Текст в ячейке длиннее предела Excel: {length} символов",
        "The cell's text is longer than Excel's limit: {length} characters",
    ),
    Text("не больше 32 767 символов в ячейке", "at most 32,767 characters in a cell"),
    Text(
        "Сократите текст: Excel и итоги хранят в ячейке не больше 32 767 символов, а "
        "обрезанные ники слились бы в одного игрока",
        "Shorten the text: Excel and the results keep at most 32,767 characters in a "
        "cell, and cut nicknames would merge into one player",
    ),
)
DUPLICATE_COLUMN = define(
    "duplicate-column",
    "warning",
    Text(
        "Столбец «{value}» повторяет уже прочитанный столбец {kept}",
        "Column “{value}” repeats the column already read at {kept}",
    ),
    Text("один столбец с таким заголовком", "one column with this header"),
    Text(
        "Удалите или переименуйте лишний столбец; учтён {kept}",
        "Delete or rename the extra column; {kept} is used",
    ),
)
UNKNOWN_COLUMN = define(
    "unknown-column",
    "warning",
    Text(
        "Столбец {header} не прочитан: такого столбца нет; ближе всего — «{closest}»",
        "Column {header} is not read: no such column; the nearest is “{closest}”",
    ),
    Text("один из столбцов листа: {known}", "one of the sheet's columns: {known}"),
    Text(
        "Если это «{closest}», переименуйте заголовок в «{closest}»; если столбец "
        "вспомогательный — его можно оставить, он не считается",
        "If it is “{closest}”, rename the header to “{closest}”; a helper column may stay, "
        "it is not counted",
    ),
)
ABSENT_COLUMN = define(
    "column-absent",
    "warning",
    Text("Нет столбца «{column}»: {lost}", "No column “{column}”: {lost}"),
    Text(
        "столбец «{column}» в строке заголовков; найдены: {found}",
        "a column “{column}” in the header row; found: {found}",
    ),
    Text(
        "Если эти данные есть, назовите их столбец «{column}»; если их нет — так и "
        "задумано, замечание можно не исправлять",
        "If the data exists, head its column “{column}”; if not, this note needs no fix",
    ),
)
TOTALS_ROW = define(
    "totals-row",
    "warning",
    Text(
        "Строка итогов «{value}» пропущена: это не игра",
        "Totals row “{value}” skipped: it is not a game",
    ),
    Text("строки игр; итоги считает программа", "rows of games; the program computes the totals"),
    Text("Ничего делать не нужно; строку можно удалить", "Nothing to do; the row may be deleted"),
)


# What reading a sheet by its header row reports (dropped when it holds another layout)
_HEADER_CODES = frozenset(
    {MISSING_COLUMN, DUPLICATE_COLUMN, UNKNOWN_COLUMN, ABSENT_COLUMN, TOTALS_ROW}
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
    headers: tuple[HeaderRead, ...] = ()  # how every header cell was read
    reading: Reading | None = None  # the layout the games were found in


def read_workbook(
    source: Source, scan: WorkbookScan | None = None
) -> tuple[RawWorkbook, list[Finding]]:
    """Open the bytes, find the protocol sheets, return their raw columns and findings.

    With the safety scan's `scan`, the reader is handed exactly the parts the scan judged,
    and the facts python-calamine does not give (hidden columns) come from the scan."""
    from python_calamine import CalamineWorkbook

    try:
        data = scan.reader_archive() if scan is not None else source.data
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = tuple(workbook.sheet_names)
    except _READER_ERRORS as exc:  # calamine raises its own types for every corrupt part
        raise ProtocolReadError(
            Text(
                f"{source.name}: книгу не удаётся прочитать ({_short(exc)}). {SAVE_AGAIN.ru}",
                f"{source.name}: the workbook cannot be read ({_short(exc)}). {SAVE_AGAIN.en}",
            ),
        ) from exc
    findings: list[Finding] = []
    sheets: dict[str, RawSheet] = {}
    headers: list[HeaderRead] = []
    hidden = scan.hidden_columns() if scan is not None else {}
    lookup = vocab.sheet_lookup()
    others: list[str] = []  # sheets for the other layouts' readers (game sheets, rows)
    for name in names:
        code = lookup.get(vocab.fold(name))
        if code is None:
            others.append(name)
            continue
        if code in sheets:
            findings.append(
                finding(
                    DUPLICATE_SHEET, name, value=sheets[code].name, other=name, source=source.name
                )
            )
            continue
        try:  # only the library's work: a bug of ours is an internal error, not "save again"
            rows = workbook.get_sheet_by_name(name)
            grid: list[list[object]] = rows.to_python()  # type: ignore[assignment]
            start = rows.start
            merges = list(rows.merged_cell_ranges or [])
        except _READER_ERRORS as exc:
            raise ProtocolReadError(
                Text(
                    f"{source.name}: лист «{name}» не читается ({_short(exc)}). {SAVE_AGAIN.ru}",
                    f"{source.name}: sheet “{name}” cannot be read ({_short(exc)}). "
                    f"{SAVE_AGAIN.en}",
                ),
            ) from exc
        sheets[code] = _read_sheet(
            code,
            name,
            grid,
            start,
            findings,
            source.name,
            hidden.get(name, frozenset()),
            headers,
            merges,
        )
    from .layouts import read_layouts

    as_rows = {sheet.name for sheet in sheets.values()}
    reading = read_layouts(workbook, others, sheets, findings, source.name)
    # a sheet found to hold another layout (rows of games) was not read by its headers
    gone = {name for name, _ in reading.sheets} & as_rows
    if gone:
        findings[:] = [f for f in findings if f.sheet not in gone or f.code not in _HEADER_CODES]
        headers[:] = [read for read in headers if read.sheet not in gone]
    for code in vocab.REQUIRED_SHEETS:
        if code not in sheets:
            expected = f"{vocab.SHEETS[code].ru} / {vocab.SHEETS[code].en}"
            findings.append(
                finding(
                    MISSING_SHEET,
                    expected,
                    expected=expected,
                    found=", ".join(names) or "—",
                    source=source.name,
                )
            )
    workbook_read = RawWorkbook(source.name, sheets, names, reading=reading, headers=tuple(headers))
    return workbook_read, findings


def _reader_errors() -> tuple[type[BaseException], ...]:
    """What python-calamine raises for a file it cannot read (its own types, and the
    builtin ones its bindings map Rust errors to)."""
    import python_calamine

    own = tuple(
        value
        for value in vars(python_calamine).values()
        if isinstance(value, type) and issubclass(value, Exception)
    )
    return (*own, ValueError, OSError, UnicodeError, OverflowError)


_READER_ERRORS = _reader_errors()


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:120]


def _read_sheet(
    code: str,
    name: str,
    grid: list[list[object]],
    start: tuple[int, int] | None,
    findings: list[Finding],
    source: str,
    hidden: frozenset[int] = frozenset(),
    headers: list[HeaderRead] | None = None,
    merges: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
) -> RawSheet:
    row0, col0 = start or (0, 0)
    header_index = _find_header(code, grid, hidden, col0)
    header_row = row0 + header_index + 1
    data = grid[header_index + 1 :]
    _refuse_data_merges(merges, name, source, row0 + header_index)
    header = grid[header_index] if grid else []
    reads = _read_header(code, header, data, hidden, col0)
    chosen = {
        read.column: j
        for j, read in reads.items()
        if read.status == "column" and read.column is not None
    }
    letters = {column: column_letter(col0 + j) for column, j in chosen.items()}
    for j, read in reads.items():
        cell = f"{column_letter(col0 + j)}{header_row}"
        typed = cell_text(header[j]) if j < len(header) else ""
        if headers is not None:
            headers.append(HeaderRead(source, code, name, cell, typed, read.column, read.status))
        _report_header(code, name, cell, header_row, typed, read, letters, findings, source)
    _report_missing_columns(code, name, header, header_row, letters, col0, findings, source)
    first_data_row = header_row + 1
    cells = _transpose(data, sorted(set(chosen.values())))
    kept = _filled_rows(len(data), list(cells.values()))
    kept = _without_totals(data, kept, name, first_data_row, col0, findings, source)
    if len(kept) == len(data):
        columns = {column: list(cells[j]) for column, j in chosen.items()}
    else:
        columns = {column: [cells[j][i] for i in kept] for column, j in chosen.items()}
    excel_rows = [first_data_row + i for i in kept]
    for column in chosen:
        _report_long_texts(name, letters[column], columns[column], excel_rows, findings, source)
    return RawSheet(code, name, header_row, letters, columns, excel_rows)


def _report_long_texts(
    sheet: str,
    letter: str,
    values: Sequence[object],
    rows: list[int],
    findings: list[Finding],
    source: str,
) -> None:
    """Text past Excel's cell limit: an error at its cell, never cut in silence.

    A text of n UTF-16 units has at least n/2 characters, so only texts over half the
    limit are measured (one length check per cell, in C for the common case)."""
    half = MAX_CELL_TEXT // 2
    long = [i for i, value in enumerate(values) if value.__class__ is str and len(value) > half]  # type: ignore[arg-type]
    for i in long:
        length = utf16_length(str(values[i]))
        if length > MAX_CELL_TEXT:
            findings.append(
                finding(
                    TEXT_TOO_LONG,
                    sheet,
                    f"{letter}{rows[i]}",
                    str(values[i])[:40] + "…",
                    row=rows[i],
                    source=source,
                    length=length,
                )
            )


@dataclass(frozen=True)
class _Read:
    """How one header cell is read (see :class:`~mafia_sheets.model.HeaderRead`)."""

    status: str
    column: str | None = None  # the column read, or (a duplicate) the one it repeats


def _read_header(
    code: str,
    header: Sequence[object],
    data: Sequence[Sequence[object]],
    hidden: frozenset[int],
    col0: int,
) -> dict[int, _Read]:
    """Every header cell that holds text or heads data, read as a column or not.

    A header that names a column already named keeps the better name (the canonical
    before an alias, then the earlier); a running count 1, 2, 3 … under an alias of the
    seat (`№`, `#`) is a row counter, not the seat.
    """
    reads: dict[int, _Read] = {}
    candidates: dict[str, list[tuple[int, int]]] = {}  # column → [(rank, index)]
    for j, value in enumerate(header):
        if col0 + j in hidden:
            if not is_blank(value):
                reads[j] = _Read("hidden")
            continue
        match = match_header(code, value)
        if match is not None:
            candidates.setdefault(match.code, []).append((match.rank, j))
        elif is_counter_header(value):
            reads[j] = _Read("counter")
        elif is_note_header(value):
            reads[j] = _Read("note")
        elif not is_blank(value) or _has_data(data, j):
            counter = is_running_count(_column(data, j), minimum=3)
            reads[j] = _Read("counter" if counter else "unknown")
    for column, found in candidates.items():
        if code == "seats" and column == "seat":
            counters = [
                (rank, j)
                for rank, j in found
                if rank > 0 and is_running_count(_column(data, j), minimum=11)
            ]
            for _, j in counters:
                reads[j] = _Read("counter")
            found = [item for item in found if item not in counters]
            if not found:
                continue
        j = min(found)[1]
        reads[j] = _Read("column", column)
        for _, other in found:
            if other != j:
                reads[other] = _Read("duplicate", column)
    return dict(sorted(reads.items()))


def _column(data: Sequence[Sequence[object]], j: int) -> list[object]:
    return [row[j] if j < len(row) else "" for row in data]


def _has_data(data: Sequence[Sequence[object]], j: int) -> bool:
    return any(not is_blank(value) for value in _column(data, j))


def _report_header(
    code: str,
    name: str,
    cell: str,
    header_row: int,
    typed: str,
    read: _Read,
    letters: dict[str, str],
    findings: list[Finding],
    source: str,
) -> None:
    if read.status == "duplicate":
        assert read.column is not None
        findings.append(
            finding(
                DUPLICATE_COLUMN,
                name,
                cell,
                typed,
                row=header_row,
                source=source,
                kept=f"{letters[read.column]}{header_row}",
            )
        )
    elif read.status == "unknown":
        closest = SCHEMA[code][closest_column(code, typed)].name
        findings.append(
            finding(
                UNKNOWN_COLUMN,
                name,
                cell,
                typed,
                row=header_row,
                source=source,
                header=Text(f"«{typed}»", f"“{typed}”")
                if typed
                else Text("без заголовка", "without a header"),
                closest=closest,
                known=Text(_known(code, "ru"), _known(code, "en")),
            )
        )


def _known(code: str, lang: str) -> str:
    return ", ".join(column.name(lang) for column in SCHEMA[code].values())


def _refuse_data_merges(
    merges: Sequence[tuple[tuple[int, int], tuple[int, int]]],
    name: str,
    source: str,
    header_index: int,
) -> None:
    """A merge above or within the header (a title) is layout; one that covers data rows
    keeps its value in the first cell only, so those rows would lose data: refuse it."""
    covering = [
        f"{column_letter(c0)}{r0 + 1}:{column_letter(c1)}{r1 + 1}"
        for (r0, c0), (r1, c1) in sorted(merges)
        if r1 > header_index
    ]
    if not covering:
        return
    ranges = ", ".join(covering[:3])
    more = len(covering) - 3
    also = Text(f" (и ещё {more})", f" (and {more} more)") if more > 0 else Text("", "")
    raise ProtocolReadError(
        Text(
            f"{source}: на листе «{name}» объединены ячейки {ranges}{also.ru} под заголовком; "
            "значение хранится только в первой из них, и строки теряют данные. Отмените "
            "объединение («Главная → Объединить и поместить в центре → Отменить объединение») "
            "и заполните каждую строку.",
            f"{source}: sheet {name} has merged cells {ranges}{also.en} below the header; a "
            "merged cell keeps its value in its first cell only, so rows lose data. Unmerge "
            "them (Home → Merge & Center → Unmerge Cells) and fill in every row.",
        )
    )


# A row that sums the sheet up, not a game: «Итого», «Всего», «Total», «Sum» …
TOTAL_WORDS = frozenset(
    vocab.fold(word)
    for word in (
        "итого",
        "итог",
        "всего",
        "сумма",
        "итого по турниру",
        "total",
        "totals",
        "sum",
        "grand total",
        "subtotal",
    )
)


def _without_totals(
    data: Sequence[Sequence[object]],
    kept: list[int],
    name: str,
    first_row: int,
    col0: int,
    findings: list[Finding],
    source: str,
) -> list[int]:
    """The kept rows less any totals row, each skipped with one note at its word."""
    rows = []
    for i in kept:
        word = next(
            (
                j
                for j, value in enumerate(data[i])
                if isinstance(value, str) and vocab.fold(value) in TOTAL_WORDS
            ),
            None,
        )
        if word is None:
            rows.append(i)
            continue
        cell = f"{column_letter(col0 + word)}{first_row + i}"
        findings.append(
            finding(TOTALS_ROW, name, cell, data[i][word], row=first_row + i, source=source)
        )
    return rows


def _transpose(rows: Sequence[Sequence[object]], wanted: list[int]) -> dict[int, Sequence[object]]:
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


def _find_header(
    code: str, grid: Sequence[Sequence[object]], hidden: frozenset[int], col0: int
) -> int:
    """The row among the first few with the most known headers (a title may sit above)."""
    best_index, best = 0, 0
    for index, row in enumerate(grid[:HEADER_SEARCH_ROWS]):
        found = len(
            {
                match.code
                for j, value in enumerate(row)
                if col0 + j not in hidden and (match := match_header(code, value)) is not None
            }
        )
        if found > best:
            best_index, best = index, found
    return best_index


def _report_missing_columns(
    code: str,
    name: str,
    header: Sequence[object],
    header_row: int,
    letters: dict[str, str],
    col0: int,
    findings: list[Finding],
    source: str,
) -> None:
    """One error per missing required column, one note per absent column that carries
    points or the timeline, each at the header row."""
    found = ", ".join(f"«{cell_text(v)}»" for v in header if not is_blank(v)) or "—"
    first = f"{column_letter(col0)}{header_row}"
    for column, declared in SCHEMA[code].items():
        if column in letters:
            continue
        if declared.header_required:
            findings.append(
                finding(
                    MISSING_COLUMN,
                    name,
                    first,
                    "",
                    row=header_row,
                    expected=COLUMNS[code][column].both(),
                    found=found,
                    source=source,
                )
            )
        elif declared.absent is not None and not _missing_required(code, letters):
            findings.append(
                finding(
                    ABSENT_COLUMN,
                    name,
                    first,
                    "",
                    row=header_row,
                    column=declared.name,
                    lost=declared.absent,
                    found=found,
                    source=source,
                )
            )


def _missing_required(code: str, letters: dict[str, str]) -> bool:
    return any(column not in letters for column in REQUIRED_COLUMNS[code])
