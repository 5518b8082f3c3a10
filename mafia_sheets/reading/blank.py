"""One sheet per game («бланк»): the paper protocol as a club types it.

Fields are found by their labels, never at fixed cells (FIELD.md §2A: templates shift,
merge and wrap cells, and even one club's generator and parser disagree on addresses):

* a seat grid — a header row with a player label and a seat, role or fouls label, then
  ten seat rows; fouls are a number or 1–4 boxes marked «x», «+», «1» (a merged «Фолы»
  header spans its boxes); extra points, departure and phase when the grid has them;
* header fields (tournament, stage or round, date, table, game, judge), the value in the
  label's own cell (`Стол № 2`), right of it, or below it;
* the result written beside its label, or marked beside printed «красные» / «чёрные» /
  «ничья»;
* the best move (three seats in cells or in one cell, the first-night victim's seat
  beside «Игрок №», as a fourth number before them, or the player killed on night 1);
* rows of kills by night and votes by day (one cell a phase; `37` is seats 3 and 7),
  disqualified seats, and the protest line.

A sheet is read into a :class:`GameSheet`: plain values, each with its own cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import vocab
from ..findings import define, finding
from ..text import LANGS, Text, cell_text
from .grid import Grid, mark, seats_in
from .labels import GAME, RESULT_DISPLAY, RESULT_WORDS, SEAT, label_of
from .raw import GameSheet, Located, SheetRead

# a label or result word outside the seat grid: (row, column, text, (field, rest) or None)
Labelled = list[tuple[int, int, str, "tuple[str, str] | None"]]

RESULT_MARKED_TWICE = define(
    "result-marked-twice",
    "error",
    Text(
        "Отмечено несколько результатов игры {game}: {found}",
        "Several results are marked for game {game}: {found}",
    ),
    Text("одна отметка: красные, чёрные или ничья", "one mark: red, black or draw"),
    Text("Оставьте отметку только у одного результата", "Keep the mark beside one result only"),
)
BEST_MOVE_WITHOUT_VICTIM = define(
    "best-move-without-victim",
    "error",
    Text(
        "Лучший ход записан, но неизвестно, чей он", "A best move is recorded, but not whose it is"
    ),
    Text(
        "номер места убитого в первую ночь рядом с лучшим ходом или его выбывание (убит, Н1)",
        "the seat of the player killed on night 1 beside the best move, or their departure "
        "(killed, N1)",
    ),
    Text(
        "Впишите место первого убитого («Игрок №») или отметьте его выбывание",
        "Write the first-night victim's seat («Player #») or record their departure",
    ),
)
PROTEST_ON_SHEET = define(
    "protest-on-game-sheet",
    "warning",
    Text(
        "На бланке игры {game} записан протест: «{value}»",
        "A protest is written on the sheet of game {game}: “{value}”",
    ),
    Text(
        "протест со временем подачи и решением на листе «Протесты»",
        "the protest with its time and decision in the Protests sheet",
    ),
    Text(
        "Перенесите протест на лист «Протесты» (место, время, решение): бланк его не решает",
        "Copy the protest to the Protests sheet (seat, time, decision): the game sheet "
        "cannot decide it",
    ),
)
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

_KILLS_ROW = Text("Убит ночью", "Killed at night")
_VOTES_ROW = Text("Заголосован днём", "Voted out by day")
_DQ_ROW = Text("Дисквалифицирован", "Disqualified")
_LEFT_WORD = {"kills": "убит", "votes": "заголосован", "disqualified": "дисквалифицирован"}
_VICTIM_LABELS = frozenset(
    {
        "игрок",
        "место",
        "player",
        "seat",
        "гравець",
        "місце",
        "пу",
        "первый убитый",
        "first killed",
        "убит",
        "killed",
        "victim",
    }
)


@dataclass(frozen=True)
class _SeatGrid:
    header: int  # 0-based row of the header
    columns: dict[str, int]  # field → column
    fouls: tuple[int, ...]  # the foul boxes (one column: a number or marks)
    rows: tuple[int, ...]  # 0-based rows of the seats, in seat order as written


# What a text is to this reader, found once per distinct text (a workbook of game sheets
# repeats its labels, nicknames and roles on every sheet): a player label heads the seat
# grid; a result word or a game-field label is read outside it. Bounded: cleared when full.
_PLAYER, _RESULT, _FIELD = 1, 2, 4
_KINDS: dict[str, int] = {}
_KINDS_MAX = 65_536


def _kind(text: str) -> int:
    kind = _KINDS.get(text)
    if kind is None:
        label = label_of(text)
        kind = (_PLAYER if SEAT.field(text) == "player" else 0) | (
            _RESULT if label in RESULT_WORDS else _FIELD if GAME.split(text) is not None else 0
        )
        if len(_KINDS) >= _KINDS_MAX:
            _KINDS.clear()
        _KINDS[text] = kind
    return kind


def _label_cells(grid: Grid) -> list[tuple[int, int, str, int]]:
    """The sheet's label cells, once: (row, column, text, kind) in reading order. One pass
    over the cells with a lookup per text; the rest of the sheet is nicknames and marks."""
    memo = grid.memo.get("label_cells")
    if memo is not None:
        return memo  # type: ignore[return-value]
    found: list[tuple[int, int, str, int]] = []
    get = _KINDS.get
    for r, row in enumerate(grid.cells):
        for c, value in enumerate(row):
            if value and value.__class__ is str:  # calamine's empty cells are ''
                text: str = value  # type: ignore[assignment]
                kind = get(text)
                if kind is None:
                    kind = _kind(text)
                if kind:
                    found.append((r, c, text, kind))
    grid.memo["label_cells"] = found
    return found


def _labelled(grid: Grid, inside: set[int]) -> Labelled:
    """The label cells outside the seat grid that are labels or result words:
    (row, column, text, (field, text after the label) or None for a result word)."""
    out: Labelled = []
    for r, c, value, kind in _label_cells(grid):
        if r in inside or not kind & (_RESULT | _FIELD):
            continue
        out.append((r, c, value, None if kind & _RESULT else GAME.split(value)))
    return out


class BlankReader:
    """One game on one sheet, found by its seat grid."""

    layout = "blank"

    def detect(self, grid: Grid) -> object | None:
        return _seat_grid(grid)

    def read(self, grid: Grid, found: object, source: str) -> SheetRead:
        game = read_game_sheet(grid, source)
        return SheetRead(grid.name, self.layout, games=[game])


READER = BlankReader()


def is_game_sheet(grid: Grid) -> bool:
    return _seat_grid(grid) is not None


def read_game_sheet(grid: Grid, source: str) -> GameSheet:
    """A game sheet's fields; `played` is False for a sheet not filled in yet."""
    seat_grid = _seat_grid(grid)
    assert seat_grid is not None
    game = GameSheet(grid.name)
    inside = set(range(seat_grid.header, max(seat_grid.rows) + 1))
    plain = [
        (name, c, grid.letter(c))
        for name, c in seat_grid.columns.items()
        if name not in ("fouls", "points")
    ]
    boxes = [(c, grid.letter(c)) for c in seat_grid.fouls]
    game.seats = _seat_rows_read(grid, plain, boxes, seat_grid.rows)
    game.seat_rows = [grid.excel_row(r) for r in seat_grid.rows]
    game.first_row = game.seat_rows[0]
    labelled = _labelled(grid, inside)
    fields = _labelled_fields(grid, labelled)
    for name in (
        "tournament",
        "round",
        "date",
        "table",
        "game",
        "judge",
        "ended",
        "annulled",
        "departures",
    ):
        if name in fields:
            game.header[name] = fields[name]
    _from_sheet_name(grid.name, game.header)
    result = _result(grid, labelled, fields, game, source)
    if result is not None:
        game.header["result"] = result
    _departures(grid, labelled, game, source)
    _best_move(grid, labelled, game, fields.get("first_killed"), source)
    if "protest" in fields and fields["protest"][0] not in ("", None):
        value, cell = fields["protest"]
        game.findings.append(
            finding(PROTEST_ON_SHEET, grid.name, cell, value, row=_row_of(cell), source=source)
        )
    game.played = (result is not None and not _blank(result[0])) or any(
        _typed(seat.get(name))
        for seat in game.seats
        for name in ("role", "fouls", "left", "when", "bonus", "best_move")
    )
    return game


# ---- the seat grid ---------------------------------------------------------------------------


def _seat_grid(grid: Grid) -> _SeatGrid | None:
    """The sheet's seat grid, found once per sheet (detection and reading both ask)."""
    if "seat_grid" not in grid.memo:
        grid.memo["seat_grid"] = _find_seat_grid(grid)
    found = grid.memo["seat_grid"]
    return found if isinstance(found, _SeatGrid) else None


def _find_seat_grid(grid: Grid) -> _SeatGrid | None:
    # only a row with a player label can head the grid: found among the label cells at once
    for r in sorted({r for r, _, _, kind in _label_cells(grid) if kind & _PLAYER}):
        columns = _header_columns(grid.cells[r])
        if "player" in columns and ({"seat", "role", "fouls"} & set(columns)):
            rows = _seat_rows(grid, r, columns)
            if len(rows) >= 5:
                return _SeatGrid(r, columns, _foul_boxes(grid, r, columns), tuple(rows))
    return None


# A header row's columns by the row's cells: game sheets from one template repeat the same
# header row on every sheet. Bounded: cleared when full.
_HEADERS: dict[tuple[object, ...], dict[str, int]] = {}
_HEADERS_MAX = 4096


def _header_columns(cells: list[object]) -> dict[str, int]:
    """Seat field → its column in a header row (the first column naming it)."""
    key = tuple(cells)
    try:
        found = _HEADERS.get(key)
    except TypeError:  # an unhashable cell value: no memo
        key, found = (), None
    if found is None:
        found = {}
        for c, value in enumerate(cells):
            name = SEAT.field(value)
            if name is not None and name not in found:
                found[name] = c
        if key:
            if len(_HEADERS) >= _HEADERS_MAX:
                _HEADERS.clear()
            _HEADERS[key] = found
    return dict(found)


def _foul_boxes(grid: Grid, header: int, columns: dict[str, int]) -> tuple[int, ...]:
    """The fouls header's own columns: its merge, else up to the next labelled column."""
    if "fouls" not in columns:
        return ()
    start = columns["fouls"]
    end = grid.right_end(header, start)
    if end == start:
        later = [c for c in columns.values() if c > start]
        limit = min([*later, start + 4]) if later else start + 4
        end = start
        # boxes under an unmerged header: sub-headers 1 … 4 below it, or blank header cells
        while (
            end + 1 < limit and grid.blank(header, end + 1) and _box_column(grid, header, end + 1)
        ):
            end += 1
    return tuple(range(start, end + 1))


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
            number = value if value.__class__ is int else _whole(value)
            if number is not None and 1 <= number <= 10:
                rows.append(r)
                if len(rows) == 10:
                    break
            elif rows and grid.blank(r, player):
                break
        if len(rows) >= 5:
            return rows
    r = header + 1
    while r < grid.height and grid.blank(r, columns["player"]) and _sub_header(grid, r, columns):
        r += 1
    return list(range(r, min(grid.height, r + 10)))


def _sub_header(grid: Grid, r: int, columns: dict[str, int]) -> bool:
    values = [grid.value(r, c) for c in range(len(grid.cells[r])) if not grid.blank(r, c)]
    return all(isinstance(v, int | float) and 1 <= v <= 4 for v in values) or not values


def _seat_rows_read(
    grid: Grid,
    plain: list[tuple[str, int, str]],
    boxes: list[tuple[int, str]],
    rows: tuple[int, ...],
) -> list[dict[str, Located]]:
    """The seat rows; `plain`: the grid's (field, column, letters) other than fouls and sums;
    `boxes`: the foul boxes' (column, letters)."""
    out: list[dict[str, Located]] = []
    box_columns = [c for c, _ in boxes]
    many = len(boxes) > 1
    for position, r in enumerate(rows, 1):
        cells = grid.cells[r]
        width = len(cells)
        number = str(grid.excel_row(r))
        row: dict[str, Located] = {}
        for name, c, letters in plain:
            value = cells[c] if c < width else ""
            row[name] = ("" if value is None else value, letters + number)
        if "seat" not in row:
            row["seat"] = (position, "")
        if many and all(c >= width or cells[c] == "" for c in box_columns):
            row["fouls"] = ("", boxes[0][1] + number)  # no box marked: the usual row
        elif boxes:
            row["fouls"] = _fouls(cells, number, boxes)
        out.append(row)
    return out


def _fouls(cells: list[object], number: str, boxes: list[tuple[int, str]]) -> Located:
    """A number, or the count of marked boxes; what is neither goes on to the parser."""
    width = len(cells)
    first = boxes[0][1] + number
    if len(boxes) == 1:
        c = boxes[0][0]
        value = cells[c] if c < width else ""
        if value is None:
            value = ""
        marks = _marks_in(value)
        return (marks if marks is not None else value), first
    filled = [
        (letters, v)
        for c, letters in boxes
        if c < width and (v := cells[c]) != "" and not _blank(v)
    ]
    if not filled:
        return "", first
    if len(filled) == 1 and _whole(filled[0][1]) is not None and filled[0][1] != 1:
        return filled[0][1], filled[0][0] + number  # a count typed in a box
    for letters, value in filled:
        if not mark(value):
            return value, letters + number
    return len(filled), first


def _marks_in(value: object) -> int | None:
    """`'xx'`, `'+++'`, `'||'` in one cell → the number of marks."""
    if not isinstance(value, str):
        return None
    text = value.strip().replace(" ", "")
    if text and len(text) <= 4 and all(ch.lower() in "xх+|/v✓*" for ch in text):
        return len(text)
    return None


# ---- labelled fields ----------------------------------------------------------------------


def _labelled_fields(grid: Grid, labelled: Labelled) -> dict[str, Located]:
    """Every game field's value: in the label's cell, right of it, or below it."""
    found: dict[str, Located] = {}
    for r, c, _, split in labelled:
        if split is None or split[0] in found:
            continue
        name, inline = split
        if name in ("kills", "votes", "disqualified", "best_move"):
            continue  # rows of cells: read by their own code
        if inline:
            found[name] = (_first_word(name, inline), grid.address(r, c))
            continue
        found[name] = _value_near(grid, r, c, words=name == "result")
    return found


def _first_word(name: str, inline: str) -> str:
    """`Стол № 2 Игра 3` in one cell: the table is `2`."""
    return inline.split()[0] if name in ("table", "game", "round") else inline


def _value_near(grid: Grid, r: int, c: int, words: bool = False) -> Located:
    """The value right of a label, else below it; `words`: a result word is a value."""

    def value(v: object) -> bool:
        if v.__class__ is not str:
            return not _is_label(v)
        kind = _kind(v)  # type: ignore[arg-type]
        return not kind & (_RESULT | _FIELD) or (words and bool(kind & _RESULT))

    row = grid.cells[r] if 0 <= r < grid.height else []
    start = grid.right_end(r, c) + 1
    for column in range(start, min(grid.width, start + 4)):  # grid.next_filled, inline
        right = row[column] if column < len(row) else ""
        if _blank(right):
            continue
        if value(right):
            return right, grid.address(r, column)
        break
    below = grid.value(r + 1, c)
    if not _blank(below) and value(below):
        return below, grid.address(r + 1, c)
    # nothing typed yet: the cell a value belongs in, for a finding to point at
    return "", grid.address(r, grid.right_end(r, c) + 1)


def _is_label(value: object) -> bool:
    return isinstance(value, str) and (
        GAME.split(value) is not None or label_of(value) in RESULT_WORDS
    )


_TABLE_IN_NAME = re.compile(r"(?:стол|стіл|table|t)\s*№?\s*(\d+)")
_GAME_IN_NAME = re.compile(r"(?:игра|гра|game|g|партия)\s*№?\s*(\d+)")


def _from_sheet_name(name: str, header: dict[str, Located]) -> None:
    """`Игра 3`, `Стол1Игра2`, `Стіл2Гра5`, `3`: table and game when the header lacks them."""
    folded = vocab.fold(name)
    table, game = _TABLE_IN_NAME.search(folded), _GAME_IN_NAME.search(folded)
    if game is None and folded.strip().isdigit():
        game = re.match(r"\s*(\d+)", folded)
    if table is not None and _blank(header.get("table", ("", ""))[0]):
        header["table"] = (table.group(1), header.get("table", ("", ""))[1])
    if game is not None and _blank(header.get("game", ("", ""))[0]):
        header["game"] = (game.group(1), header.get("game", ("", ""))[1])


# ---- the result ---------------------------------------------------------------------------


def _result(
    grid: Grid, labelled: Labelled, fields: dict[str, Located], game: GameSheet, source: str
) -> Located | None:
    options = [
        (r, c, RESULT_WORDS[label_of(text)]) for r, c, text, split in labelled if split is None
    ]
    if len({outcome for _, _, outcome in options}) >= 2:
        return _marked(grid, options, game, source)
    written = fields.get("result")
    if written is not None and not _blank(written[0]):
        word = RESULT_WORDS.get(label_of(written[0]))
        return (RESULT_DISPLAY[word] if word else written[0]), written[1]
    if written is not None:
        return written  # the label is there, its cell still empty
    if len(options) == 1:
        r, c, outcome = options[0]
        return RESULT_DISPLAY[outcome], grid.address(r, c)
    return None


def _marked(
    grid: Grid, options: list[tuple[int, int, str]], game: GameSheet, source: str
) -> Located | None:
    """The option with a mark beside it: right, else left, else below, else above."""
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        marked = []
        for r, c, outcome in options:
            at = (r, grid.right_end(r, c) + 1) if dc == 1 else (r + dr, c + dc)
            if mark(grid.value(*at)):
                marked.append((outcome, grid.address(*at)))
        if marked:
            if len({o for o, _ in marked}) > 1:
                names = Text(
                    *(
                        ", ".join(vocab.display_value("result", o, lang) for o, _ in marked)
                        for lang in LANGS
                    )
                )
                game.findings.append(
                    finding(
                        RESULT_MARKED_TWICE,
                        grid.name,
                        marked[1][1],
                        "",
                        row=_row_of(marked[1][1]),
                        source=source,
                        found=names,
                    )
                )
            outcome, cell = marked[0]
            return RESULT_DISPLAY[outcome], cell
    r, c, _ = options[0]
    return "", grid.address(r, grid.right_end(r, c) + 1)  # nothing marked yet


# ---- departures from rows of phases ---------------------------------------------------------


def _departures(grid: Grid, labelled: Labelled, game: GameSheet, source: str) -> None:
    """Kills by night, votes by day, disqualifications: onto the seats that have no
    departure of their own in the grid."""
    for r, c, _, split in labelled:
        # «Ночь 1» over a column is a sub-header; the row's label stands alone
        if split is None or split[0] not in ("kills", "votes", "disqualified") or split[1]:
            continue
        kind = split[0]
        for index, column in enumerate(_phase_columns(grid, r, c)):
            cell_value = grid.value(r, column)
            seats = seats_in(cell_value)
            if seats is None:
                game.findings.append(
                    finding(
                        BAD_SEAT_CELL,
                        grid.name,
                        grid.address(r, column),
                        cell_value,
                        row=grid.excel_row(r),
                        source=source,
                        field={"kills": _KILLS_ROW, "votes": _VOTES_ROW}.get(kind, _DQ_ROW),
                    )
                )
                continue
            phase = 2 * index + 2 if kind == "kills" else 2 * index + 1 if kind == "votes" else None
            for seat in seats:
                _depart(game, seat, kind, phase, grid.address(r, column))


def _phase_columns(grid: Grid, r: int, c: int) -> list[int]:
    """The cells of a phases row: from past the label's merge to the row's last value."""
    start = grid.right_end(r, c) + 1
    row = grid.cells[r]
    last = max((j for j in range(start, len(row)) if not grid.blank(r, j)), default=start - 1)
    columns = []
    j = start
    while j <= last:
        columns.append(j)
        j = grid.right_end(r, j) + 1  # a night written in a merged pair of cells is one
    return columns


def _depart(game: GameSheet, seat: int, kind: str, phase: int | None, cell: str) -> None:
    for row in game.seats:
        if _whole(row.get("seat", ("", ""))[0]) != seat:
            continue
        if _typed(row.get("left")) or _typed(row.get("when")):
            return  # the grid says it already
        row["left"] = (_LEFT_WORD[kind], cell)
        row["when"] = (vocab.phase_name(phase, "ru") if phase else "", cell)
        return


# ---- the best move --------------------------------------------------------------------------


def _best_move(
    grid: Grid, labelled: Labelled, game: GameSheet, named: Located | None, source: str
) -> None:
    for r, c, _, split in labelled:
        if split is None or split[0] != "best_move":
            continue
        seats, victim = _best_move_cells(grid, r, c, split[1])
        if not seats:
            return
        if victim is None and len(seats) == 4:  # victim's seat first, then the three named
            victim, seats = seats[0], seats[1:]
        attach_best_move(
            game, ", ".join(seat_text(v) for v, _ in seats), seats[0][1], victim or named, source
        )
        return


def attach_best_move(
    game: GameSheet, text: str, cell: str, victim: Located | None, source: str
) -> None:
    """Put the best move on its maker's seat row: the victim named beside it, else the
    player the departures show killed on night 1."""
    if victim is None or _blank(victim[0]):
        victim = _first_night_victim(game)
    if victim is None:
        game.findings.append(
            finding(
                BEST_MOVE_WITHOUT_VICTIM, game.sheet, cell, text, row=_row_of(cell), source=source
            )
        )
        return
    for row in game.seats:
        if _whole(row.get("seat", ("", ""))[0]) == _whole(victim[0]):
            row["best_move"] = (text, cell)
            return
    game.findings.append(
        finding(
            BEST_MOVE_WITHOUT_VICTIM,
            game.sheet,
            victim[1] or cell,
            victim[0],
            row=_row_of(victim[1] or cell),
            source=source,
        )
    )


def _best_move_cells(
    grid: Grid, r: int, c: int, inline: str
) -> tuple[list[Located], Located | None]:
    """The seats right of the label (one cell or several) and the victim's seat, when a
    label such as «Игрок №» precedes it."""
    seats: list[Located] = []
    if inline:
        seats = [(s, grid.address(r, c)) for s in inline.replace(",", " ").split()]
    victim: Located | None = None
    j = grid.right_end(r, c) + 1
    expecting_victim = False
    while j < len(grid.cells[r]):
        value = grid.value(r, j)
        if not _blank(value):
            label = label_of(value)
            if isinstance(value, str) and label in _VICTIM_LABELS:
                expecting_victim = True
            elif isinstance(value, str) and GAME.split(value) is not None:
                break
            elif expecting_victim:
                victim = (value, grid.address(r, j))
                expecting_victim = False
            else:
                found = seats_in(value)
                if found is not None and len(found) > 1 and isinstance(value, str):
                    seats += [(s, grid.address(r, j)) for s in found]
                else:
                    seats.append((value, grid.address(r, j)))
        j = grid.right_end(r, j) + 1
    return seats, victim


def _first_night_victim(game: GameSheet) -> Located | None:
    for row in game.seats:
        left = vocab.value_lookup("left").get(vocab.fold(row.get("left", ("", ""))[0]))
        if left == "killed" and vocab.parse_phase(str(row.get("when", ("", ""))[0])) == 2:
            return row["seat"]
    return None


# ---- small helpers --------------------------------------------------------------------------


def _blank(value: object) -> bool:
    return value is None or value == "" or (isinstance(value, str) and not value.strip())


def _typed(located: Located | None) -> bool:
    return located is not None and not _blank(located[0])


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def seat_text(value: object) -> str:
    """A seat as text: Excel gives the number 3 back as 3.0."""
    return cell_text(value).strip()


def _row_of(cell: str) -> int:
    digits = "".join(ch for ch in cell if ch.isdigit())
    return int(digits) if digits else 0
