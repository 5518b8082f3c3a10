"""The row layout of SPEC §2: a protocol sheet named as its purpose, one header row, one
row per record (`Игры`, `Протокол`, `Игроки`, `Турнир`, `Протесты`, `Жребий`).

Any sheet laid out so is read, not only our template's: names in RU or EN in any mix and
order, the header on any of the first rows, extra columns reported and left out, fully
blank rows skipped. Values stay exactly as calamine gives them (typing is `parse`'s
job); formulas are read as their cached values. Every header cell is read as a column or
reported at its cell (SPEC §2.7).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Any

from .. import vocab
from ..errors import ProtocolReadError
from ..findings import Finding, define, finding
from ..model import HeaderRead
from ..text import MAX_CELL_TEXT, Text, cell_text, utf16_length
from .columns import COLUMNS, REQUIRED_COLUMNS, SCHEMA
from .grid import Grid
from .matching import (
    closest_column,
    is_counter_header,
    is_note_header,
    is_running_count,
    match_header,
)
from .page import GROUPS_LISTED
from .phase_text import departure_and_phase, phase_in, read_from_phase
from .raw import RawSheet, SheetRead, column_letter
from .values import is_blank

HEADER_SEARCH_ROWS = 10  # a title or a blank line above the header is common in club files

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
DUPLICATE_COLUMN_DIFFERS = define(
    "duplicate-column-differs",
    "error",
    Text(
        "Столбец «{value}» повторяет столбец {kept}, но значения в них разные ({rows})",
        "Column “{value}” repeats the column at {kept}, but their values differ ({rows})",
    ),
    Text("одно значение в одном столбце", "one value in one column"),
    Text(
        "Сведите значения в один столбец и удалите лишний: сейчас учтён бы только {kept}",
        "Merge the values into one column and delete the other: only {kept} would count",
    ),
)
HIDDEN_COLUMN = define(
    "hidden-column",
    "error",
    Text(
        "Столбец «{value}» скрыт, а в нём есть значения: судья должен видеть всё, что считается",
        "Column “{value}” is hidden but holds values: the judge must see everything that counts",
    ),
    Text("видимый столбец", "a visible column"),
    Text(
        "Покажите столбец (выделите соседние → «Показать») или удалите его",
        "Unhide the column (select its neighbours → Unhide) or delete it",
    ),
)
UNKNOWN_COLUMN = define(
    "unknown-column",
    "warning",
    Text(
        "Столбец {header} не прочитан: такого столбца нет{nearest}",
        "Column {header} is not read: no such column{nearest}",
    ),
    Text("один из столбцов листа: {known}", "one of the sheet's columns: {known}"),
    Text(
        "{rename}; если столбец вспомогательный — его можно оставить, он не считается",
        "{rename}; a helper column may stay, it is not counted",
    ),
)
# What `unknown-column` says of the nearest known column, when one is near enough.
_NEAREST = (
    Text("; ближе всего — «{closest}»", "; the nearest is “{closest}”"),
    Text(
        "Если это «{closest}», переименуйте заголовок в «{closest}»",
        "If it is “{closest}”, rename the header to “{closest}”",
    ),
)
_NONE_NEAR = (
    Text("", ""),
    Text(
        "Если это столбец протокола, назовите его, как в шаблоне (mafia-sheets template)",
        "If it is a column of the protocol, name it as the template does (mafia-sheets template)",
    ),
)
UNHEADED_CELLS = define(
    "cells-without-header",
    "warning",
    Text(
        "Не прочитано: {cells} — над этими ячейками нет заголовка столбца",
        "Not read: {cells} — these cells have no column header above them",
    ),
    Text(
        "заголовок над каждым заполненным столбцом: {known}",
        "a header over every filled column: {known}",
    ),
    Text(
        "Если эти ячейки влияют на итоги, впишите над ними заголовок столбца; пометки "
        "для себя можно оставить, они не считаются",
        "If these cells change the standings, head their column; notes to yourself may "
        "stay, they are not counted",
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


class RowsReader:
    """A protocol sheet of the row layout, found by its name (either language)."""

    layout = "rows"

    def __init__(self) -> None:
        self._lookup = vocab.sheet_lookup()

    def detect(self, grid: Grid) -> str | None:
        """The protocol sheet's code (`games`, `seats` …) when the name says it is one;
        SEATS_BY_HEADERS for a sheet of another name (Excel's `Лист1`) headed as the seat
        rows are — a game, a seat and a player column in one row — which is taken for
        `Протокол` only where the workbook has none (see reading.layouts)."""
        named = self._lookup.get(vocab.fold(grid.name))
        if named is None and _headed_as_seats(grid):
            return SEATS_BY_HEADERS
        return named

    def read(self, grid: Grid, found: object, source: str) -> SheetRead:
        assert isinstance(found, str)
        return read_rows("seats" if found == SEATS_BY_HEADERS else found, grid, source)


READER = RowsReader()
SEATS_BY_HEADERS = "seats-by-headers"
_SEAT_ROW_COLUMNS = frozenset({"game", "seat", "player"})


@functools.lru_cache(maxsize=4096)
def _seats_column(header: str) -> str | None:
    """The seats sheet's column a header names (each sheet of 200 game sheets asks it of
    the same few labels: answered once)."""
    match = match_header("seats", header)
    return None if match is None else match.code


def _headed_as_seats(grid: Grid) -> bool:
    """Whether one of the first rows names a game, a seat and a player column over the
    rows of more than one game: a game sheet («бланк») has ten seat rows at most, and
    heads them without a game column as a rule (its id is a label)."""
    for index, row in enumerate(grid.cells[:HEADER_SEARCH_ROWS]):
        named = {_seats_column(v) for v in row if v.__class__ is str and v}
        if named >= _SEAT_ROW_COLUMNS:
            below = grid.cells[index + 1 : index + 12]
            return sum(1 for cells in below if sum(not is_blank(v) for v in cells) >= 2) > 10
    return False


@dataclass
class _Sheet:
    """One protocol sheet while its header and rows are read."""

    code: str
    grid: Grid
    source: str
    header_index: int = 0  # 0-based row of the header within the grid
    findings: list[Finding] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.grid.name

    @property
    def header_row(self) -> int:
        return self.grid.row0 + self.header_index + 1

    @property
    def header(self) -> list[object]:
        return self.grid.cells[self.header_index] if self.grid.cells else []

    @property
    def data(self) -> list[list[object]]:
        return self.grid.cells[self.header_index + 1 :]

    def cell(self, j: int, row: int | None = None) -> str:
        return f"{column_letter(self.grid.col0 + j)}{self.header_row if row is None else row}"

    def add(self, code: str, cell: str, value: object = "", **params: Any) -> None:
        row = int("".join(ch for ch in cell if ch.isdigit()) or 0)
        self.findings.append(
            finding(code, self.name, cell, value, row=row, source=self.source, **params)
        )


def read_rows(code: str, grid: Grid, source: str) -> SheetRead:
    """One protocol sheet: its header read cell by cell, its data rows as raw columns."""
    sheet = _Sheet(code, grid, source)
    sheet.header_index = _find_header(code, grid)
    _refuse_data_merges(sheet)
    reads = _read_header(sheet)
    chosen = {
        read.column: j
        for j, read in reads.items()
        if read.status == "column" and read.column is not None
    }
    letters = {column: column_letter(grid.col0 + j) for column, j in chosen.items()}
    headers = _report_header(sheet, reads, chosen)
    raw = _data(sheet, chosen, letters)
    if code == "seats":
        raw = _phases_in_left(sheet, raw)
    _report_missing_columns(sheet, raw.letters)
    return SheetRead(
        grid.name, "rows", code=code, raw=raw, findings=sheet.findings, headers=headers
    )


def _data(sheet: _Sheet, chosen: dict[str, int], letters: dict[str, str]) -> RawSheet:
    """The chosen columns' data rows, blank and totals rows left out."""
    data = sheet.data
    first_data_row = sheet.header_row + 1
    cells = _transpose(data, sorted(set(chosen.values())))
    # every distinct value of the data rows, of the rows left out too, in one pass row by
    # row (the order the cells lie in memory): for the totals rows and the long texts
    every = set(chain.from_iterable(data))
    kept = _filled_rows(len(data), list(cells.values()))
    kept = _without_totals(sheet, kept, every)
    if len(kept) == len(data):  # each column's own list, made by `_transpose` just now
        columns = {column: _as_list(cells[j]) for column, j in chosen.items()}
    else:
        columns = {column: [cells[j][i] for i in kept] for column, j in chosen.items()}
    excel_rows = [first_data_row + i for i in kept]
    over = _over_half(every)
    if over:  # nearly never: a text that may pass Excel's limit
        for column in chosen:
            _report_long_texts(sheet, letters[column], columns[column], excel_rows, over)
    return RawSheet(sheet.code, sheet.name, sheet.header_row, letters, columns, excel_rows)


def _phases_in_left(sheet: _Sheet, raw: RawSheet) -> RawSheet:
    """A seats sheet without «Когда» whose «Выбыл» gives the phase too («убит Н1», or a
    phase alone: «Н1» — killed in Н1, said aloud): each departure read with its phase,
    the «Выбыл» cell standing for the phase's own. Each distinct value is split once.
    With «Когда», see :func:`_phases_beside_when`."""
    left = raw.columns.get("left")
    if left is not None and "when" in raw.letters:
        return _phases_beside_when(raw)
    if left is None:
        return raw
    split = {v: departure_and_phase(v) for v in set(left) if v.__class__ is str}
    if not any(split.values()):
        return raw
    read = [split.get(value) if value.__class__ is str else None for value in left]
    letter = raw.letters["left"]
    alone = [
        (f"{letter}{row}", value, got[1], row)
        for value, got, row in zip(left, read, raw.rows, strict=True)
        if got is not None and got[2]
    ]
    if alone:
        sheet.findings.append(read_from_phase(sheet.name, alone, sheet.source))
    columns: dict[str, list[object]] = {
        **raw.columns,
        "left": [value if got is None else got[0] for value, got in zip(left, read, strict=True)],
        "when": ["" if got is None else vocab.phase_name(got[1], "ru") for got in read],
    }
    return dataclasses.replace(raw, letters={**raw.letters, "when": letter}, columns=columns)


def _phases_beside_when(raw: RawSheet) -> RawSheet:
    """«убит Н1» in «Выбыл» beside a «Когда» that is blank or says the same phase: the
    departure and its phase, read as typed (a «Когда» that says another phase is left to
    the checks: the departure stays unread, an error at its cell)."""
    left, when = raw.columns["left"], raw.columns["when"]
    split = {v: departure_and_phase(v) for v in set(left) if v.__class__ is str}
    if not any(got and not got[2] for got in split.values()):
        return raw
    new_left, new_when = list(left), list(when)
    for i, value in enumerate(left):
        got = split.get(value) if value.__class__ is str else None
        if got is None or got[2]:  # no phase in it, or a phase alone: not this reading
            continue
        word, phase, _ = got
        if is_blank(when[i]):
            new_left[i], new_when[i] = word, vocab.phase_name(phase, "ru")
        elif (typed := phase_in(vocab.fold(str(when[i])))) is not None and typed[0] == phase:
            new_left[i] = word
    columns = {**raw.columns, "left": new_left, "when": new_when}
    return dataclasses.replace(raw, columns=columns)


def _as_list(values: Sequence[object]) -> list[object]:
    return values if isinstance(values, list) else list(values)


def _over_half(distinct: set[object]) -> set[object]:
    """The texts among `distinct` over half of Excel's cell limit: a text of n UTF-16
    units has at least n/2 characters, so only these can pass the limit."""
    half = MAX_CELL_TEXT // 2
    return {v for v in distinct if v.__class__ is str and len(v) > half}


def _report_long_texts(
    sheet: _Sheet, letter: str, values: Sequence[object], rows: list[int], over: set[object]
) -> None:
    """Text past Excel's cell limit: an error at its cell, never cut in silence. Only the
    values among `over` (:func:`_over_half` of the sheet's distinct values) are measured."""
    long = [i for i, value in enumerate(values) if value in over]
    for i in long:
        length = utf16_length(str(values[i]))
        if length > MAX_CELL_TEXT:
            cell = f"{letter}{rows[i]}"
            sheet.add(TEXT_TOO_LONG, cell, str(values[i])[:40] + "…", length=length)


@dataclass(frozen=True)
class _Read:
    """How one header cell is read (see :class:`~mafia_sheets.model.HeaderRead`)."""

    status: str
    column: str | None = None  # the column read, or (a duplicate) the one it repeats


def _read_header(sheet: _Sheet) -> dict[int, _Read]:
    """Every header cell that holds text or heads data, read as a column or not.

    A header that names a column already named keeps the better name (the canonical
    before an alias, then the earlier); a running count 1, 2, 3 … under an alias of a
    column named by another header (`№` beside `Игра`) or of the seat is a row counter.
    """
    reads: dict[int, _Read] = {}
    candidates: dict[str, list[tuple[int, int]]] = {}  # column → [(rank, index)]
    data, hidden, col0 = sheet.data, sheet.grid.hidden, sheet.grid.col0
    for j, value in enumerate(sheet.header):
        match = match_header(sheet.code, value)
        if col0 + j in hidden:
            # not read; a column of the sheet's own hidden with values in it is an error
            # (see _report_header), a helper column (formulas, notes) is shown as hidden
            filled = _has_data(data, j)
            if match is not None and filled:
                reads[j] = _Read("hidden", match.code)
            elif filled or not is_blank(value):
                reads[j] = _Read("hidden")
            continue
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
        found = _without_counters(sheet, column, found, reads)
        if not found:
            continue
        j = min(found)[1]
        reads[j] = _Read("column", column)
        for _, other in found:
            if other != j:
                reads[other] = _Read("duplicate", column)
    return dict(sorted(reads.items()))


def _without_counters(
    sheet: _Sheet, column: str, found: list[tuple[int, int]], reads: dict[int, _Read]
) -> list[tuple[int, int]]:
    """The headers of one column less those under an alias that count the rows 1, 2, 3 …
    (seat numbers never run past 10; another header of the column says it is not this)."""
    seat = sheet.code == "seats" and column == "seat"
    if not seat and len(found) < 2:
        return found
    minimum = 11 if seat else 3
    counters = [
        (rank, j)
        for rank, j in found
        if rank > 0 and is_running_count(_column(sheet.data, j), minimum=minimum)
    ]
    if not seat and len(counters) == len(found):  # every header counts: the best-named stays
        counters = [item for item in counters if item != min(found)]
    for _, j in counters:
        reads[j] = _Read("counter")
    return [item for item in found if item not in counters]


def _column(data: Sequence[Sequence[object]], j: int) -> list[object]:
    return [row[j] if j < len(row) else "" for row in data]


def _has_data(data: Sequence[Sequence[object]], j: int) -> bool:
    return any(not is_blank(value) for value in _column(data, j))


def _report_header(
    sheet: _Sheet, reads: dict[int, _Read], chosen: dict[str, int]
) -> list[HeaderRead]:
    """How each header cell was read, and a finding at each one not read as a column."""
    headers = []
    header = sheet.header
    for j, read in reads.items():
        cell = sheet.cell(j)
        typed = cell_text(header[j]) if j < len(header) else ""
        column = None if read.status == "hidden" else read.column  # a hidden one is not read
        headers.append(
            HeaderRead(sheet.source, sheet.code, sheet.name, cell, typed, column, read.status)
        )
        if read.status == "duplicate":
            assert read.column is not None
            _report_duplicate(sheet, j, chosen[read.column], typed)
        elif read.status == "hidden" and read.column is not None:
            sheet.add(HIDDEN_COLUMN, cell, typed)
        elif read.status == "unknown":
            known = Text(_known(sheet.code, "ru"), _known(sheet.code, "en"))
            if j >= len(header) or is_blank(header[j]):  # read for its data: say the data
                _report_unheaded(sheet, j, known)
                continue
            shown = Text(f"«{typed}»", f"“{typed}”")
            nearest, rename = _nearest(sheet.code, typed)
            sheet.add(
                UNKNOWN_COLUMN,
                cell,
                typed,
                header=shown,
                nearest=nearest,
                rename=rename,
                known=known,
            )
    return headers


def _nearest(code: str, typed: str) -> tuple[Text, Text]:
    """What `unknown-column` says of the known column nearest to a header: its name and
    a rename, or — none being near (`ЛИ`, `Дата`) — the template's names."""
    closest = closest_column(code, typed)
    if closest is None:
        return _NONE_NEAR
    name = SCHEMA[code][closest].name
    found, fix = _NEAREST
    return (
        Text(found.ru.format(closest=name.ru), found.en.format(closest=name.en)),
        Text(fix.ru.format(closest=name.ru), fix.en.format(closest=name.en)),
    )


def _report_duplicate(sheet: _Sheet, j: int, kept: int, typed: str) -> None:
    """A second column of one meaning: a warning when it holds nothing the kept one does
    not, an error when their values differ (the second's would be lost), naming the rows."""
    first_row = sheet.header_row + 1
    differ = [
        first_row + i
        for i, (ours, theirs) in enumerate(
            zip(_column(sheet.data, kept), _column(sheet.data, j), strict=True)
        )
        if not is_blank(theirs) and cell_text(theirs).strip() != cell_text(ours).strip()
    ]
    shown = f"{column_letter(sheet.grid.col0 + kept)}{sheet.header_row}"
    if not differ:
        sheet.add(DUPLICATE_COLUMN, sheet.cell(j), typed, kept=shown)
        return
    rows = ", ".join(map(str, differ[:12])) + (" …" if len(differ) > 12 else "")
    sheet.add(DUPLICATE_COLUMN_DIFFERS, sheet.cell(j), typed, kept=shown, rows=rows)


def _report_unheaded(sheet: _Sheet, j: int, known: Text) -> None:
    """A column filled under an empty header (a judge's note beside the table): one
    warning at its first filled cell, listing the cells with what they hold."""
    first_row = sheet.header_row + 1
    filled = [
        (sheet.cell(j, first_row + i), value)
        for i, value in enumerate(_column(sheet.data, j))
        if not is_blank(value)
    ]
    listed = ", ".join(f"{ref} «{cell_text(value)}»" for ref, value in filled[:GROUPS_LISTED])
    more = len(filled) - GROUPS_LISTED
    cells = Text(
        listed + (f" и ещё {more}" if more > 0 else ""),
        listed + (f" and {more} more" if more > 0 else ""),
    )
    ref, value = filled[0]
    also = [(sheet.name, other) for other, _ in filled[1:]]
    sheet.add(UNHEADED_CELLS, ref, value, also=also, cells=cells, known=known)


def _known(code: str, lang: str) -> str:
    return ", ".join(column.name(lang) for column in SCHEMA[code].values())


def _refuse_data_merges(sheet: _Sheet) -> None:
    """A merge above or within the header (a title) is layout; one that covers data rows
    keeps its value in the first cell only, so those rows would lose data: refuse it."""
    header_index = sheet.grid.row0 + sheet.header_index
    covering = [
        f"{column_letter(c0)}{r0 + 1}:{column_letter(c1)}{r1 + 1}"
        for (r0, c0), (r1, c1) in sorted(sheet.grid.merges)
        if r1 > header_index
    ]
    if not covering:
        return
    ranges = ", ".join(covering[:3])
    more = len(covering) - 3
    also = Text(f" (и ещё {more})", f" (and {more} more)") if more > 0 else Text("", "")
    name, source = sheet.name, sheet.source
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


def _without_totals(sheet: _Sheet, kept: list[int], distinct: set[object]) -> list[int]:
    """The kept rows less any totals row, each skipped with one note at its word
    (`distinct`: every value of the data rows, of the rows not kept too)."""
    rows = []
    data, first_row = sheet.data, sheet.header_row + 1
    # the texts that are a totals word, found once among the distinct values: a row
    # without any of them (nearly all) is kept at C speed
    totals = {v for v in distinct if isinstance(v, str) and vocab.fold(v) in TOTAL_WORDS}
    if not totals:
        return list(kept)
    for i in kept:
        if totals.isdisjoint(data[i]):
            rows.append(i)
            continue
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
        sheet.add(TOTALS_ROW, sheet.cell(word, first_row + i), data[i][word])
    return rows


def _transpose(rows: Sequence[Sequence[object]], wanted: list[int]) -> dict[int, Sequence[object]]:
    """The wanted columns of a grid, each as one list, made in C: calamine's grid is
    rectangular, so its cells laid end to end, row by row, hold column j at every
    width-th place from j (one slice each); ragged rows are read row by row."""
    if not rows or not wanted:  # no known column found: nothing to take
        return {j: () for j in wanted}
    width = len(rows[0])
    if width > wanted[-1] and min(map(len, rows)) >= width:
        flat = list(chain.from_iterable(rows))
        if len(flat) == width * len(rows):  # no row is longer: every row is `width` long
            return {j: flat[j::width] for j in wanted}
    if min(map(len, rows)) > wanted[-1]:
        return {j: list(map(itemgetter(j), rows)) for j in wanted}
    return {j: [row[j] if j < len(row) else "" for row in rows] for j in wanted}


def _filled_rows(count: int, columns: list[Sequence[object]]) -> list[int]:
    """Indices of the rows with a value in at least one of `columns` (blank rows skipped).

    Only the rows blank in the column with the fewest blanks can be blank everywhere,
    so a full column (the usual case) answers at once: a column is searched only up to
    its first blank, and the blanks are counted only when no column is full.
    """
    if not columns:
        return []
    if any("" not in column for column in columns):  # a full column: no row is blank
        return list(range(count))
    blanks = [column.count("") for column in columns]
    fewest = columns[blanks.index(min(blanks))]
    candidates = [i for i, value in enumerate(fewest) if value == ""]
    blank = {i for i in candidates if all(column[i] == "" for column in columns)}
    return [i for i in range(count) if i not in blank]


def _find_header(code: str, grid: Grid) -> int:
    """The row among the first few with the most known headers (a title may sit above)."""
    best_index, best = 0, 0
    hidden, col0 = grid.hidden, grid.col0
    for index, row in enumerate(grid.cells[:HEADER_SEARCH_ROWS]):
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


def _report_missing_columns(sheet: _Sheet, letters: dict[str, str]) -> None:
    """One error per missing required column, one note per absent column that carries
    points or the timeline, each at the header row."""
    found = ", ".join(f"«{cell_text(v)}»" for v in sheet.header if not is_blank(v)) or "—"
    first = sheet.cell(0)
    missing_required = any(column not in letters for column in REQUIRED_COLUMNS[sheet.code])
    for column, declared in SCHEMA[sheet.code].items():
        if column in letters:
            continue
        if declared.header_required:
            expected = COLUMNS[sheet.code][column].both()
            sheet.add(MISSING_COLUMN, first, expected=expected, found=found)
        elif declared.absent is not None and not missing_required:
            sheet.add(ABSENT_COLUMN, first, column=declared.name, lost=declared.absent, found=found)
