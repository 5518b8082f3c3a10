"""One sheet per game («бланк»): the paper protocol as a club types it.

Fields are found by their labels, never at fixed cells (FIELD.md §2A: templates shift,
merge and wrap cells, and even one club's generator and parser disagree on addresses):

* a seat grid — a header row with a player label and a seat, role or fouls label, then
  ten seat rows, numbered as forms number them (`1`, `1.`, `1)`, `№1`); fouls are a
  number, marks or sticks in one cell, or 1–4 boxes marked «x», «+», «I» or numbered
  1, 2, 3, 4 (a merged «Фолы» header spans its boxes); extra points, departure and phase
  when the grid has them;
* everything else by its label wherever it sits — above, below, beside the grid, in the
  right half of the page, across merged cells — with the value beside it, below it or in
  its own cell (:mod:`.blank_fields`): header fields, the result, the best move, the
  protest line; rows (or columns) of kills by night, votes by day and disqualified
  seats (:mod:`.phase_rows`).

Every filled cell is read or reported (:func:`.page.report_unread`). A player with four
fouls and no departure recorded left on fouls, as a judge means it; a departure whose
phase the sheet has no place for keeps the phase unknown (`?`), said where it matters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import vocab
from ..text import Text
from .blank_fields import attach_best_move, find_labels, read_fields
from .first_killed import take_first_killed
from .grid import Grid, mark
from .labels import GAME, RESULT_WORDS, SEAT, label_of
from .page import Page, report_unread
from .phase_rows import departure_in_cell, read_phase_rows, report_read_from_phase
from .raw import GameSheet, Located, SheetRead
from .values import marks_in, seat_number, whole_number

_DUPLICATE = Text("второй столбец этого поля", "a second column of this field")


@dataclass(frozen=True)
class SeatGrid:
    """Where the seat grid sits: its header row, columns and ten seat rows."""

    header: int  # 0-based row of the header
    columns: dict[str, int]  # field → column (the first header naming it)
    extra: dict[int, str]  # other header columns naming a field: column → field
    fouls: tuple[int, ...]  # the foul boxes (one column: a number or marks)
    rows: tuple[int, ...]  # 0-based rows of the seats, in seat order as written
    left: int  # the grid's first and last column
    right: int

    def holds(self, r: int, c: int) -> bool:
        """Inside the grid's rectangle: its header, sub-header and seat rows, its columns."""
        return self.header <= r <= self.rows[-1] and self.left <= c <= self.right


class BlankReader:
    """One game on one sheet, found by its seat grid."""

    layout = "blank"

    def detect(self, grid: Grid) -> object | None:
        return seat_grid(grid)

    def read(self, grid: Grid, found: object, source: str) -> SheetRead:
        assert isinstance(found, SeatGrid)
        return SheetRead(grid.name, self.layout, games=[read_game_sheet(grid, found, source)])


READER = BlankReader()


def read_game_sheet(grid: Grid, found: SeatGrid, source: str) -> GameSheet:
    """A game sheet's fields; `played` is False for a sheet not filled in yet."""
    page = Page(grid, source)
    game = GameSheet(grid.name)
    _read_grid(page, found, game)
    labels = find_labels(page, found.holds, found.header)
    named = read_fields(page, labels, game)
    read_phase_rows(page, labels, game, (found.header, found.left, found.right))
    first = named.get("first_killed")
    take_first_killed(page, game, first if isinstance(first, tuple) else None)
    best = named.get("best_move")
    if best is not None:
        attach_best_move(page, game, best, first)
    for label in labels:  # a known label is read, filled in or not: its values are what counts
        if label.kind != "result":  # an option nobody marked, nor wrote, may be a role word
            page.take(label.r, label.c)
    _fouled_out(game)
    from_sheet_name(grid.name, game.header)
    game.played = _played(game)
    report_read_from_phase(page)
    game.unread = report_unread(page, game=None)
    game.findings = page.findings
    return game


def _played(game: GameSheet) -> bool:
    result = game.header.get("result")
    return (result is not None and not _blank(result[0])) or any(
        _typed(seat.get(name))
        for seat in game.seats
        for name in ("role", "fouls", "left", "when", "bonus", "best_move")
    )


def _fouled_out(game: GameSheet) -> None:
    """Four fouls and no departure recorded: the player left on fouls (the blank has no
    place for the phase)."""
    for row in game.seats:
        fouls = row.get("fouls")
        if fouls is None or whole_number(fouls[0]) != 4:
            continue
        if _typed(row.get("left")) or _typed(row.get("when")):
            continue
        row["left"] = ("4 фола", fouls[1])
        row["when"] = (vocab.PHASE_NOT_WRITTEN, fouls[1])


# ---- the seat grid ---------------------------------------------------------------------------


def seat_grid(grid: Grid) -> SeatGrid | None:
    """The sheet's seat grid, found once per sheet (detection and reading both ask)."""
    if "seat_grid" not in grid.memo:
        grid.memo["seat_grid"] = _find_seat_grid(grid)
    found = grid.memo["seat_grid"]
    return found if isinstance(found, SeatGrid) else None


def _find_seat_grid(grid: Grid) -> SeatGrid | None:
    # only a row with a player label can head the grid
    heads = sorted({r for r, _, text in grid.texts if _player_label(text)})
    for r in heads:
        columns, extra, unknown = _side_by_side(grid, r, *_header_columns(grid.cells[r]))
        if "player" in columns and ({"seat", "role", "fouls"} & set(columns)):
            rows = _seat_rows(grid, r, columns)
            if len(rows) >= 5:
                fouls = _foul_boxes(grid, r, columns, rows)
                # an unknown header's column is the grid's too: its cells are reported,
                # never read as something else (a role «Мафия» as a result option)
                used = [*columns.values(), *extra, *fouls, *unknown]
                right = max(grid.right_end(r, c) for c in used)
                return SeatGrid(r, columns, extra, fouls, tuple(rows), min(used), right)
    return None


_PLAYERS: dict[str, bool] = {}  # text → a player label, by text: sheets repeat them


def _player_label(text: str) -> bool:
    known = _PLAYERS.get(text)
    if known is None:
        if len(_PLAYERS) >= _HEADERS_MAX * 16:
            _PLAYERS.clear()
        known = _PLAYERS[text] = SEAT.field(text) == "player"
    return known


# A header row's columns by the row's cells: game sheets from one template repeat the same
# header row on every sheet. Bounded: cleared when full.
_HEADERS: dict[tuple[object, ...], tuple[dict[str, int], dict[int, str]]] = {}
_HEADERS_MAX = 4096


def _header_columns(cells: list[object]) -> tuple[dict[str, int], dict[int, str]]:
    """Seat field → its column in a header row (the first column naming it), and every
    other column naming a field: a second one, or one that is not counted."""
    key = tuple(cells)
    try:
        found = _HEADERS.get(key)
    except TypeError:  # an unhashable cell value: no memo
        key, found = (), None
    if found is None:
        columns: dict[str, int] = {}
        extra: dict[int, str] = {}
        for c, value in enumerate(cells):
            name = SEAT.field(value)
            if name is None:
                continue
            if name in columns or name == "points":
                extra[c] = name
            else:
                columns[name] = c
        found = (columns, extra)
        if key:
            if len(_HEADERS) >= _HEADERS_MAX:
                _HEADERS.clear()
            _HEADERS[key] = found
    return dict(found[0]), dict(found[1])


def _side_by_side(
    grid: Grid, r: int, columns: dict[str, int], extra: dict[int, str]
) -> tuple[dict[str, int], dict[int, str], set[int]]:
    """The header cells that stand together with the player's: a header further than one
    empty column from its neighbour (four foul boxes count as the fouls' own) heads
    something else beside the grid (a block of rounds: «Круг | Убит | Ушёл»). A header
    the reader does not know stands in the grid too: its column is the grid's, reported."""
    if "player" not in columns:
        return columns, extra, set()
    names = {c: name for name, c in columns.items()} | extra
    unknown = {c for c, value in enumerate(grid.cells[r]) if _unknown_header(value)}
    order = sorted(set(names) | unknown)

    def end(c: int) -> int:
        return max(grid.right_end(r, c), c + 4 if names.get(c) == "fouls" else c)

    at = order.index(columns["player"])
    low = high = at
    while high + 1 < len(order) and order[high + 1] - end(order[high]) <= 2:
        high += 1
    while low > 0 and order[low] - end(order[low - 1]) <= 2:
        low -= 1
    kept = set(order[low : high + 1])
    return (
        {name: c for name, c in columns.items() if c in kept},
        {c: name for c, name in extra.items() if c in kept},
        kept & unknown,
    )


def _unknown_header(value: object) -> bool:
    """A text heading a column the reader does not know (a game field's label heads
    something of its own, and a number is no header)."""
    if value.__class__ is not str or not value:
        return False
    known = _UNKNOWN.get(value)
    if known is None:
        text: str = value
        if len(_UNKNOWN) >= _HEADERS_MAX * 16:
            _UNKNOWN.clear()
        known = _UNKNOWN[text] = (
            bool(text.strip())
            and SEAT.field(text) is None
            and GAME.split(text) is None
            and label_of(text) not in RESULT_WORDS
        )
    return known


_UNKNOWN: dict[str, bool] = {}  # by text, as the other memos: sheets repeat their headers


def _foul_boxes(
    grid: Grid, header: int, columns: dict[str, int], rows: list[int]
) -> tuple[int, ...]:
    """The fouls header's own columns: its merge, else up to the next labelled column —
    columns whose seat cells hold marks, numbers or nothing (a label typed on a seat row
    beside the grid is no box)."""
    if "fouls" not in columns:
        return ()
    start = columns["fouls"]
    end = grid.right_end(header, start)
    if end == start:
        later = [c for c in columns.values() if c > start]
        limit = min([*later, start + 4]) if later else start + 4
        # boxes under an unmerged header: sub-headers 1 … 4 below it, or blank header cells
        while (
            end + 1 < limit
            and grid.blank(header, end + 1)
            and _box_column(grid, header, end + 1)
            and all(_box_value(grid.value(r, end + 1)) for r in rows)
        ):
            end += 1
    return tuple(range(start, end + 1))


def _box_value(value: object) -> bool:
    return (
        value == "" or mark(value) or marks_in(value) is not None or whole_number(value) is not None
    )


def _box_column(grid: Grid, header: int, column: int) -> bool:
    below = grid.value(header + 1, column)
    return (
        (isinstance(below, int | float) and 1 <= below <= 4)
        or mark(below)
        or grid.blank(header + 1, column)
    )


def _seat_rows(grid: Grid, header: int, columns: dict[str, int]) -> list[int]:
    """Ten rows under the header: by their seat numbers, else the first ten after any
    sub-header row (the 1 2 3 4 over foul boxes)."""
    seat = columns.get("seat")
    rows: list[int] = []
    if seat is not None:
        player = columns["player"]
        cells = grid.cells
        for r in range(header + 1, min(grid.height, header + 16)):
            row = cells[r]
            value = row[seat] if seat < len(row) else ""
            number = value if value.__class__ is int else seat_number(value)
            if number is not None and 1 <= number <= 10:
                rows.append(r)
                if len(rows) == 10:
                    break
            elif rows and grid.blank(r, player):
                break
        if len(rows) >= 5:
            return rows
    r = header + 1
    while r < grid.height and grid.blank(r, columns["player"]) and _sub_header(grid, r):
        r += 1
    return list(range(r, min(grid.height, r + 10)))


def _sub_header(grid: Grid, r: int, columns: range | None = None) -> bool:
    """Box numbers 1 … 4 and nothing else (within `columns`, when given)."""
    span = columns if columns is not None else range(len(grid.cells[r]))
    values = [grid.value(r, c) for c in span if not grid.blank(r, c)]
    return all(isinstance(v, int | float) and 1 <= v <= 4 for v in values) or not values


def _read_grid(page: Page, found: SeatGrid, game: GameSheet) -> None:
    """The header, any sub-header and the ten seat rows: each value with its cell."""
    grid = page.grid
    for c in (*found.columns.values(), *found.extra):
        page.take(found.header, c)
    for r in range(found.header + 1, found.rows[0]):  # a sub-header: box numbers 1 … 4
        if _sub_header(grid, r, range(found.left, found.right + 1)):
            for c in range(found.left, found.right + 1):
                if not grid.blank(r, c):
                    page.take(r, c)
    plain = [
        (name, c, grid.letter(c))
        for name, c in found.columns.items()
        if name not in ("fouls", "points")
    ]
    boxes = [(c, grid.letter(c)) for c in found.fouls]
    game.seats = _seat_rows_read(page, plain, boxes, found.rows)
    for c, name in found.extra.items():
        why = SEAT_NOT_COUNTED.get(name, _DUPLICATE)
        for r in found.rows:
            if not grid.blank(r, c):
                page.note(r, c, why)
    game.seat_rows = [grid.excel_row(r) for r in found.rows]
    game.first_row = game.seat_rows[0]


SEAT_NOT_COUNTED = {
    "points": Text("суммы судьи: баллы считает программа", "the judge's sums: computed here")
}


def _seat_rows_read(
    page: Page,
    plain: list[tuple[str, int, str]],
    boxes: list[tuple[int, str]],
    rows: tuple[int, ...],
) -> list[dict[str, Located]]:
    """The seat rows; `plain`: the grid's (field, column, letters) other than fouls and sums;
    `boxes`: the foul boxes' (column, letters)."""
    grid = page.grid
    take = page.used.add
    out: list[dict[str, Located]] = []
    for position, r in enumerate(rows, 1):
        cells = grid.cells[r]
        width = len(cells)
        number = str(grid.excel_row(r))
        row: dict[str, Located] = {}
        for name, c, letters in plain:
            value = cells[c] if c < width else ""
            if value != "" and value is not None:
                take((r, c))
            row[name] = ("" if value is None else value, letters + number)
        if "seat" in row:
            row["seat"] = _numbered_seat(row["seat"])
        else:
            row["seat"] = (position, "")
        if boxes:
            for c, _ in boxes:
                if c < width and cells[c] != "":
                    take((r, c))
            row["fouls"] = fouls_in(cells, number, boxes)
        if row.get("left", ("", ""))[0] != "":
            departure_in_cell(page, row)
        out.append(row)
    return out


def _numbered_seat(seat: Located) -> Located:
    """A seat numbered as forms number their rows (`1.`, `1)`, `№1`) is that seat: read as
    the number, so that every field naming the seat (the kills, the first killed, the best
    move's victim) finds its row."""
    value, cell = seat
    number = seat_number(value) if isinstance(value, str) else None
    return (number, cell) if number is not None and 1 <= number <= 10 else seat


def fouls_in(cells: list[object], number: str, boxes: list[tuple[int, str]]) -> Located:
    """A number, marks or sticks in one cell, or the count of filled boxes — marked or
    numbered 1, 2, 3 … in order; what is none of these goes on to the parser."""
    width = len(cells)
    first = boxes[0][1] + number
    if len(boxes) == 1:
        c = boxes[0][0]
        value = cells[c] if c < width else ""
        if value is None:
            value = ""
        marks = marks_in(value)
        return (marks if marks is not None else value), first
    filled = [
        (letters, v)
        for c, letters in boxes
        if c < width and (v := cells[c]) != "" and not _blank(v)
    ]
    if not filled:
        return "", first
    if all(v.__class__ is str and mark(v) for _, v in filled):
        return len(filled), first  # boxes marked «x», «+», «I»: the usual row
    numbers = [whole_number(v) for _, v in filled]
    if numbers == list(range(1, len(filled) + 1)):
        return len(filled), first  # the judge numbers each foul: 1, 2, 3
    if len(filled) == 1 and numbers[0] is not None and numbers[0] != 1:
        return filled[0][1], filled[0][0] + number  # a count typed in a box
    for letters, value in filled:
        if not mark(value) and marks_in(value) is None:
            return value, letters + number
    return sum(marks_in(v) or 1 for _, v in filled), first


# ---- the sheet's own name ---------------------------------------------------------------------


_TABLE_IN_NAME = re.compile(r"(?:стол|стіл|table|t)\s*№?\s*(\d+)")
_GAME_IN_NAME = re.compile(r"(?:игра|гра|game|g|партия)\s*№?\s*(\d+)")


def from_sheet_name(name: str, header: dict[str, Located]) -> None:
    """`Игра 3`, `Стол1Игра2`, `Стіл2Гра5`, `3`: table and game when the header lacks them."""
    folded = vocab.fold(name)
    table, game = _TABLE_IN_NAME.search(folded), _GAME_IN_NAME.search(folded)
    if game is None and folded.strip().isdigit():
        game = re.match(r"\s*(\d+)", folded)
    if table is not None and _blank(header.get("table", ("", ""))[0]):
        header["table"] = (table.group(1), header.get("table", ("", ""))[1])
    if game is not None and _blank(header.get("game", ("", ""))[0]):
        header["game"] = (game.group(1), header.get("game", ("", ""))[1])


def _blank(value: object) -> bool:
    return value is None or value == "" or (isinstance(value, str) and not value.strip())


def _typed(located: Located | None) -> bool:
    return located is not None and not _blank(located[0])
