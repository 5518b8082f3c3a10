"""Rows of phases on a game sheet: kills by night, votes by day, disqualified seats — and
the fields a form prints that carry no points (the sheriff's checks, the misses).

A row is read where it is: its cells right of the label (one cell a night or a day;
`37` is seats 3 and 7; blank, «-» or «х» for nobody), or, with nothing beside the label,
the cells below it (a column beside the seat rows). The night or day of each cell comes
from the cell itself (`Н1: 5`, `5 Д3`), else from numbers over the cells — in the row
above (`1 2 3 …`, `Ночь 1 …`) or printed in the label's own row with the seats under
them — else from the cell's place (the first cell is night 1 / day 1). A days row
numbered from 0 (the first day before any night, as some judges count) is read so.
A disqualification whose phase the sheet does not give keeps it unknown (`?`).
"""

from __future__ import annotations

from .. import vocab
from ..findings import define
from ..text import Text, cell_text
from .blank_fields import PHASE_FIELDS, Label
from .columns import SHEET_FIELDS
from .grid import NOTHING, mark, seats_in
from .labels import GAME
from .page import Cell, Page
from .phase_text import departure_and_phase, phase_in, read_from_phase
from .raw import GameSheet
from .values import seat_number, whole_number

BAD_SEAT_CELL = define(
    "bad-seat-cell",
    "error",
    Text(
        "«{value}» в строке «{field}» — не номер места",
        "“{value}” in the row “{field}” is not a seat number",
    ),
    Text(
        "номер места 1–10 (несколько — через пробел: 3 7); пусто или «-» — никто",
        "a seat number 1–10 (several separated by spaces: 3 7); blank or «-» for nobody",
    ),
    Text("Впишите номер места или очистите ячейку", "Type the seat number or clear the cell"),
)

BAD_PHASE_CELL = define(
    "bad-phase-cell",
    "error",
    Text(
        "«{value}» в столбце «{field}» — не отметка и не фаза",
        "“{value}” in the column “{field}” is neither a mark nor a phase",
    ),
    Text(
        "на строке игрока: отметка (x), фаза (Н1, Д2) или номер ночи или дня",
        "on the player's row: a mark (x), a phase (N1, D2) or the night's or day's number",
    ),
    Text(
        "Впишите фазу выбывания или отметку, или очистите ячейку",
        "Type the phase or a mark, or clear the cell",
    ),
)
DEPARTURES_DISAGREE = define(
    "departures-disagree",
    "error",
    Text(
        "Место {seat}: в строке «{field}» — {said}, а в {where} записано «{typed}»",
        "Seat {seat}: the row “{field}” says {said}, but {where} says “{typed}”",
    ),
    Text(
        "одно выбывание места: таблица мест и строки убитых, заголосованных и "
        "дисквалифицированных говорят одно и то же",
        "one departure a seat: the seat grid and the rows of kills, votes and "
        "disqualified seats saying the same",
    ),
    Text(
        "Исправьте выбывание в {where} или в строке «{field}», чтобы они совпали",
        "Fix the departure at {where} or in the row “{field}” so that they agree",
    ),
)
_LEFT_WORD = {"kills": "убит", "votes": "заголосован", "disqualified": "дисквалифицирован"}
_LEFT_SHOWN = {
    "kills": Text("убит", "killed"),
    "votes": Text("заголосован", "voted out"),
    "disqualified": Text("дисквалифицирован", "disqualified"),
}
# The departure codes a row of phases agrees with («удалён» reads as a disqualification).
_SAME_WAY = {
    "kills": ("killed",),
    "votes": ("voted",),
    "disqualified": ("disqualified", "removed"),
}
_NOT_IN_GRID = Text("места {seat} нет в таблице мест", "seat {seat} is not in the seat grid")
_NOT_COUNTED = Text("не влияет на баллы", "carries no points")
Entry = tuple[int, int, list[int], int | None]  # row, column, seats, phase ordinal (None: ?)


def read_phase_rows(
    page: Page, labels: list[Label], game: GameSheet, grid_box: tuple[int, int, int] = (-1, 0, 0)
) -> None:
    """The kills, votes and disqualified rows onto the seats that have no departure of
    their own in the grid; the fields not counted noted at their cells. A label in the
    grid's header row, beside its columns (`grid_box`: header row, first and last
    column), heads a column of the seat rows: a mark, a phase or a night's or day's
    number on a seat's own row."""
    header, left, right = grid_box
    for label in labels:
        if label.kind != "field" or page.taken(label.r, label.c):
            continue
        beside = label.r == header and left - 2 <= label.c <= right + 2
        if label.field in PHASE_FIELDS and beside and _heads_a_column(page, label):
            _per_seat(page, label, game)
        elif label.field in PHASE_FIELDS and not _number_header(label):
            entries = _phase_row(page, label)
            for r, c, seats, phase in entries or ():
                for seat in seats:
                    _depart(page, game, seat, label.field, phase, (r, c))
        elif label.field in SHEET_FIELDS and not SHEET_FIELDS[label.field].counted:
            _not_counted(page, label)
    for label in labels:  # «Ночь 1 | Ночь 2 …» over cells no row label has read
        if label.kind == "field" and label.field in PHASE_FIELDS and _number_header(label):
            _under_header(page, label, game)


def _heads_a_column(page: Page, label: Label) -> bool:
    """A label in the grid's header row with nothing of its own to its right: it heads a
    column of the seat rows («Ночь 1 2 3 …» to its right is a row of phases instead)."""
    if label.rest:
        return False
    grid = page.grid
    return not _run(page, label.r, grid.right_end(label.r, label.c) + 1, across=True)


def _per_seat(page: Page, label: Label, game: GameSheet) -> None:
    """A departures column beside the grid's own: on each seat's row a mark (phase
    unknown), a phase (`Н1`) or the night's or day's number."""
    grid = page.grid
    page.take(label.r, label.c)
    field = SHEET_FIELDS[label.field].name
    for row, excel_row in zip(game.seats, game.seat_rows, strict=True):
        r, c = excel_row - grid.row0 - 1, label.c
        if grid.blank(r, c) or page.taken(r, c):
            continue
        value = grid.value(r, c)
        page.take(r, c)
        number = whole_number(value)
        if number is not None and 0 < number <= LAST_ROUND:
            phase: int | None = _position(number - 1, label.field)
        elif mark(value):
            phase = None
        else:
            phase = split_phase(value)[0] if isinstance(value, str) else None
            if phase is None:
                page.add(BAD_PHASE_CELL, r, c, value, field=field)
                continue
        seat = seat_number(row.get("seat", ("", ""))[0])
        if seat is not None:
            _depart(page, game, seat, label.field, phase, (r, c))


LAST_ROUND = 12  # a night's or day's number, not more (the template's phases end at Н12)


def _number_header(label: Label) -> bool:
    return bool(label.rest) and whole_number(label.rest) is not None


# ---- one row (or column) ---------------------------------------------------------------------


def _phase_row(page: Page, label: Label) -> list[Entry] | None:
    """The row's cells with their phases; None when the label heads no seats (left unread)."""
    grid = page.grid
    r, c = label.r, label.c
    if label.rest:
        page.take(r, c)
        return _entries(page, label, [(r, c, 0)], {}, inline=label.rest)
    run = _run(page, r, grid.right_end(r, c) + 1, across=True)
    columns = [j for j, _ in run]
    if columns:
        values = [grid.value(r, j) for j in columns]
        if _numbers_row(page, r, columns, values):  # numbers printed here, seats under them
            numbers = dict(zip(columns, _phases(values, label.field), strict=True))
            cells = [(r + 1, j, slot) for j, slot in run if not page.taken(r + 1, j)]
            found = _entries(page, label, cells, numbers)
            if found is not None:
                for j in columns:
                    page.take(r, j)
                _take_row_label(page, r + 1, c, label.field)
            return found
        cells = [(r, j, slot) for j, slot in run]
        start = [grid.right_end(r, c) + 1]  # the printed numbers start over the first slot
        return _entries(page, label, cells, _numbers_over(page, r, start, label.field))
    if _numbers_over(page, r, [grid.right_end(r, c) + 1], label.field):
        page.take(r, c)
        return []  # the printed nights or days of a row nobody left in
    down = _run(page, grid.bottom_end(r, c) + 1, c, across=False)
    if not down:
        return None
    numbers = _numbers_left(page, [i for i, _ in down], c, label.field)
    if numbers:  # the rounds numbered beside the column end it: below is something else
        down = [(i, slot) for i, slot in down if i <= max(numbers)]
    cells = [(i, c, slot) for i, slot in down]
    return _entries(page, label, cells, numbers, by_row=True)


def _run(page: Page, r: int, c: int, across: bool) -> list[tuple[int, int]]:
    """From (r, c) rightwards (across) or downwards: (column or row, its place in the run)
    of each filled cell, over blank cells (a night without a kill), up to another label,
    a cell already read, or three blank cells in a row."""
    grid = page.grid
    found: list[tuple[int, int]] = []
    blanks = slot = 0
    while blanks < 3 and r < grid.height and c < grid.width:
        if (r, c) in page.labels or page.taken(r, c):
            break
        if grid.blank(r, c):
            blanks += 1
        else:
            blanks = 0
            found.append((c if across else r, slot))
        slot += 1
        if across:
            c = grid.right_end(r, c) + 1
        else:
            r = grid.bottom_end(r, c) + 1
    return found


def _entries(
    page: Page,
    label: Label,
    cells: list[tuple[int, int, int]],
    numbers: dict[int, int],
    inline: str = "",
    by_row: bool = False,
) -> list[Entry] | None:
    """Each cell's seats and phase; a cell that is not seats is an error at it — unless no
    cell is, and then this is no row of seats at all. `cells`: (row, column, place in the
    row); `numbers`: the phase over each column (or beside each row, `by_row`)."""
    grid = page.grid
    read: list[Entry] = []
    bad: list[tuple[int, int]] = []
    for r, c, slot in cells:
        value = inline if inline else grid.value(r, c)
        if not inline and grid.blank(r, c):
            continue
        own, seats = split_phase(value)
        if seats is None:
            bad.append((r, c))
            continue
        phase = own if own is not None else numbers.get(r if by_row else c)
        if phase is None and label.field != "disqualified":
            phase = _position(slot, label.field)
        read.append((r, c, seats, phase))
    if not read:
        return None if bad else []
    page.take(label.r, label.c)
    for r, c, _, _ in read:
        page.take(r, c)
    field = SHEET_FIELDS[label.field].name
    for r, c in bad:
        page.take(r, c)
        page.add(BAD_SEAT_CELL, r, c, grid.value(r, c), field=field)
    return read


def _numbers_row(page: Page, r: int, columns: list[int], values: list[object]) -> bool:
    """`1 2 3 …` in the label's row is printed numbers, not seats, when it starts at 0,
    runs on to 5 or more, or has seats typed under it (kills 1, 2 are seats 1 and 2)."""
    first = _running(values)
    if first is None:
        return False
    under = any(_seats_only(page.grid.value(r + 1, j)) for j in columns)
    return first == 0 or len(values) >= 5 or under


def _seats_only(value: object) -> bool:
    """Seats and nothing else (`5`, `37`): not a phase header (`Д1`) nor a word."""
    own, seats = split_phase(value)
    return own is None and bool(seats)


def _position(index: int, field: str) -> int:
    """The phase of the `index`-th cell of a row: night index+1 or day index+1."""
    return 2 * index + 2 if field == "kills" else 2 * index + 1


def _running(values: list[object]) -> int | None:
    """1, 2, 3 … or 0, 1, 2 … (two or more): the first number, else None."""
    numbers = [whole_number(v) for v in values]
    if len(numbers) < 2 or None in numbers:
        return None
    first = numbers[0]
    if first not in (0, 1) or numbers != list(range(first, first + len(numbers))):
        return None
    return first


def _phases(values: list[object], field: str) -> list[int]:
    """Numbers over a row → phase ordinals: night n, day n; days from 0 are days n+1."""
    start = _running(values)
    if start is None:
        start = whole_number(values[0]) or 0
    shift = 1 if start == 0 else 0
    if field == "kills":
        return [2 * (int(whole_number(v) or 0) + shift) for v in values]
    return [2 * (int(whole_number(v) or 0) + shift) - 1 for v in values]


def _numbers_over(page: Page, r: int, columns: list[int], field: str) -> dict[int, int]:
    """Numbers or phases printed in the row above the cells (`1 2 3 … 9`, `Ночь 1 …`, `Н1`),
    the whole line of them taken — also over the nights nobody was killed in."""
    if not columns:
        return {}
    line = _line(page, r - 1, columns[0], across=True)
    return _numbers(page, [(r - 1, j) for j in line], line, field)


def _numbers_left(page: Page, rows: list[int], c: int, field: str) -> dict[int, int]:
    """Numbers or phases in the column left of a column of cells (`Круг 1 2 3`), taken
    with the word heading them."""
    if not rows:
        return {}
    line = _line(page, rows[0], c - 1, across=False)
    found = _numbers(page, [(i, c - 1) for i in line], line, field)
    head = (rows[0] - 1, c - 1)
    heading = head[0] >= 0 and isinstance(page.grid.value(*head), str)
    if found and heading and not page.taken(*head) and head not in page.labels:
        page.take(*head)
    return found


def _line(page: Page, r: int, c: int, across: bool) -> list[int]:
    """The unbroken line of filled cells from (r, c) on: columns (across) or rows."""
    grid = page.grid
    found: list[int] = []
    while 0 <= r < grid.height and 0 <= c < grid.width:
        if grid.blank(r, c) or (r, c) in page.labels or page.taken(r, c):
            break
        found.append(c if across else r)
        if across:
            c = grid.right_end(r, c) + 1
        else:
            r = grid.bottom_end(r, c) + 1
    return found


def _numbers(
    page: Page, cells: list[tuple[int, int]], keys: list[int], field: str
) -> dict[int, int]:
    """A line of numbers (`1 2 3`, `0 1 2` for days counted from 0) or of phases (`Н1`,
    `Ночь 2`) → key → phase ordinal; taken. Nothing when the line is neither."""
    grid = page.grid
    values = [grid.value(*cell) for cell in cells]
    if not values:
        return {}
    phases: list[int] | None = None
    if _running(values) is not None or (len(values) == 1 and whole_number(values[0]) in (0, 1)):
        phases = _phases(values, field)  # a game of one round numbers it «1» alone
    else:
        parsed = [_phase_word(v) for v in values]
        if all(p is not None for p in parsed):
            phases = [p for p in parsed if p is not None]
    if phases is None:
        return {}
    for cell in cells:
        page.take(*cell)
    return dict(zip(keys, phases, strict=True))


def _phase_word(value: object) -> int | None:
    """`Ночь 1`, `Н1`, `День 2` → the phase; a label with a number (`Убит 1`) → None."""
    if not isinstance(value, str):
        return None
    return vocab.parse_phase(value)


def _take_row_label(page: Page, r: int, c: int, field: str) -> None:
    """The label of the seats row under a row of numbers («Ночь 1 2 3» over «Убит 5 2 8»)."""
    for j in range(max(0, c - 1), c + 2):
        if (r, j) in page.labels and _field_at(page, r, j) in PHASE_FIELDS:
            page.take(r, j)


def _field_at(page: Page, r: int, c: int) -> str | None:
    split = GAME.split(page.grid.value(r, c))
    return split[0] if split else None


def _under_header(page: Page, label: Label, game: GameSheet) -> None:
    """A «Ночь 1» / «День 2» header cell: the seats under it."""
    grid = page.grid
    number = whole_number(label.rest)
    if number is None or page.taken(label.r, label.c):
        return
    page.take(label.r, label.c)
    below = (grid.bottom_end(label.r, label.c) + 1, label.c)
    if page.taken(*below) or grid.blank(*below):
        return
    phase = 2 * number if label.field == "kills" else 2 * number - 1
    found = _entries(page, label, [(*below, 0)], {label.c: phase})
    for r, c, seats, own in found or ():
        for seat in seats:
            _depart(page, game, seat, label.field, own, (r, c))


def split_phase(value: object) -> tuple[int | None, list[int] | None]:
    """(phase written in the cell, seats) — `'Н1: 5'` → (2, [5]); `'5 Д3'` → (5, [5]);
    `7` → (None, [7]); `'-'` → (None, []); seats None when the cell holds no seats."""
    if not isinstance(value, str):
        return None, seats_in(value)
    folded = vocab.fold(value)
    if folded in NOTHING:
        return None, []
    found = phase_in(folded)
    if found is None:
        return None, seats_in(value)
    phase, rest = found[0], found[1].strip(" -–—:()")
    seats = seats_in(rest) if rest else []
    if phase is None or seats is None:
        return None, seats_in(value)
    return phase, seats


def _depart(page: Page, game: GameSheet, seat: int, kind: str, phase: int | None, at: Cell) -> None:
    """The seat's departure from a row of phases. Where its row already records one (the
    grid's «Выбыл»/«Когда», or another cell of these rows), the two must agree: an error at
    both cells otherwise — never a silent choice. A seat the grid does not hold is listed
    with its reason among the cells not read."""
    cell = page.grid.address(*at)
    row = next(
        (row for row in game.seats if seat_number(row.get("seat", ("", ""))[0]) == seat), None
    )
    if row is None:
        page.used.discard(at)
        page.note(*at, _NOT_IN_GRID.format(seat=seat))
        return
    if _typed(row.get("left")) or _typed(row.get("when")):
        _agree(page, row, (seat, kind, phase), at)
        return
    row["left"] = (_LEFT_WORD[kind], cell)
    row["when"] = (vocab.phase_name(phase, "ru") if phase else vocab.PHASE_NOT_WRITTEN, cell)


def _agree(
    page: Page, row: dict[str, tuple[object, str]], said: tuple[int, str, int | None], at: Cell
) -> None:
    """A departure written twice: what one leaves out the other may give (a grid's «убит»
    with no phase, a «Когда» with no departure word); what they both give must be one."""
    seat, kind, phase = said
    left, when = row.get("left", ("", "")), row.get("when", ("", ""))
    code = vocab.value_lookup("left").get(vocab.fold(cell_text(left[0])))
    typed = vocab.parse_phase(cell_text(when[0])) if _typed(when) else None
    same_way = code in _SAME_WAY[kind] or (code is None and not _typed(left))
    if same_way and (phase is None or typed is None or typed == phase):
        cell = page.grid.address(*at)
        if not _typed(left):
            row["left"] = (_LEFT_WORD[kind], cell)
        if phase is not None and (not _typed(when) or vocab.phase_unknown(when[0])):
            row["when"] = (vocab.phase_name(phase, "ru"), cell)  # a phase unreadable stays
        return
    grid = page.grid
    where = left[1] if _typed(left) and left[1] else when[1]
    written = " ".join(cell_text(v[0]).strip() for v in (left, when) if _typed(v))
    page.add(
        DEPARTURES_DISAGREE,
        *at,
        grid.value(*at),
        also=[(grid.name, where)] if where and where != grid.address(*at) else [],
        seat=seat,
        field=SHEET_FIELDS[kind].name,
        said=_said(kind, phase),
        where=where,
        typed=written,
    )


def _said(kind: str, phase: int | None) -> Text:
    """«убит в Н2», «дисквалифицирован»: what a row of phases says of a seat."""
    word = _LEFT_SHOWN[kind]
    if phase is None:
        return word
    return Text(
        f"{word.ru} в {vocab.phase_name(phase, 'ru')}",
        f"{word.en} in {vocab.phase_name(phase, 'en')}",
    )


def _typed(located: tuple[object, str] | None) -> bool:
    return located is not None and not (
        located[0] is None or (isinstance(located[0], str) and not located[0].strip())
    )


# ---- fields not counted ---------------------------------------------------------------------


def _not_counted(page: Page, label: Label) -> None:
    """A field that carries no points: its label read, its printed numbers too, whatever
    is typed in it listed with the reason among the cells not read."""
    grid = page.grid
    r, c = label.r, label.c
    page.take(r, c)
    name = SHEET_FIELDS[label.field].name
    why = Text(f"{name.ru} — {_NOT_COUNTED.ru}", f"{name.en} — {_NOT_COUNTED.en}")
    columns = [j for j, _ in _run(page, r, grid.right_end(r, c) + 1, across=True)]
    cells = [(r, j) for j in columns]
    values = [grid.value(r, j) for j in columns]
    if columns and _running(values) is not None:
        for j in columns:
            page.take(r, j)
        cells = [(r + 1, j) for j in columns]
    elif columns and all(isinstance(v, str) and whole_number(v) is None for v in values):
        for j in columns:  # a table of its own: printed sub-headers over its rows
            page.take(r, j)
        cells = _block_below(page, r, [c, *columns])
    elif not columns:
        below = grid.bottom_end(r, c) + 1
        cells = [(below, j) for j, _ in _run(page, below, c, across=True)]
    for cell in cells:
        if not grid.blank(*cell) and cell not in page.labels and not page.taken(*cell):
            page.note(*cell, why)


def _block_below(page: Page, r: int, columns: list[int]) -> list[tuple[int, int]]:
    """The rows of a small table under its header row `r`, up to a blank row or a label."""
    grid = page.grid
    cells: list[tuple[int, int]] = []
    for row in range(r + 1, min(grid.height, r + 11)):
        line = [(row, j) for j in columns if not grid.blank(row, j)]
        if not line or any(cell in page.labels for cell in line):
            break
        cells += line
    return cells


# ---- a departure and its phase in one cell ----------------------------------------------------


def departure_in_cell(page: Page, row: dict[str, tuple[object, str]]) -> None:
    """A seat's departure cell holding its phase too: `убит Н1` is killed in Н1; `Н1`
    alone is killed in Н1 (`Д2`: voted out in Д2), said aloud — when no phase of its
    own is written beside it. A departure that may happen at any moment («4 фола»,
    «дисквалифицирован») with no phase written has it unknown (`?`), as a blank's own
    disqualification row; a kill or a vote-out without its phase is an error at its
    phase's cell, or at the departure's own where the sheet has no place for a phase."""
    _phase_in_cell(page, row)
    left, when = row["left"], row.get("when")
    if _typed(when) or not isinstance(left[0], str):
        return
    code = vocab.value_lookup("left").get(vocab.fold(left[0]))
    at = when[1] if when is not None and when[1] else left[1]
    row["when"] = (vocab.PHASE_NOT_WRITTEN if code in vocab.PHASELESS else "", at)


def _phase_in_cell(page: Page, row: dict[str, tuple[object, str]]) -> None:
    left, when = row.get("left"), row.get("when")
    if left is None or not isinstance(left[0], str) or _typed(when):
        return
    split = departure_and_phase(left[0])
    if split is None:
        return
    word, phase, alone = split
    row["when"] = (vocab.phase_name(phase, "ru"), left[1])
    row["left"] = (word, left[1])
    if alone:
        r, c = page.grid.cell_of(left[1])
        page.from_phase.append((r, c, phase))


def report_read_from_phase(page: Page) -> None:
    """The departures read from a phase alone, one warning per sheet at the first of them
    (see :func:`read_from_phase`)."""
    if not page.from_phase:
        return
    grid = page.grid
    page.findings.append(
        read_from_phase(
            grid.name,
            [
                (grid.address(r, c), grid.value(r, c), phase, grid.excel_row(r))
                for r, c, phase in sorted(page.from_phase)
            ],
            page.source,
        )
    )
