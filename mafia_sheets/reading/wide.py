"""One row per game with ten seat columns: how seating schedules and federation exports
are shaped (FIELD.md §2B).

`Тур | Стол | Игра | Судья | Результат | 1 … 10` — the nicknames in seat order — then
optional blocks of ten: roles, fouls, extra points, departures, phases, each block named
by a label over it (a merged `Роли` above `1 … 10`) or in every header (`Роль 3`, `3 роль`),
and columns for the first-night victim and the three best-move seats (`ЛХ 1 … ЛХ 3`, or
one `Лучший ход` cell `3 5 7`). Each row becomes a :class:`~.raw.GameSheet`, every value
with its own cell, exactly as a game sheet does; every other filled cell of the sheet is
reported (:func:`.page.report_unread`). A departure typed as a phase alone (`Н1`, `Д2`)
is a kill or a vote-out in that phase, said aloud.
"""

from __future__ import annotations

import re

from .. import vocab
from .blank_fields import BestMove, attach_best_move, seat_text
from .first_killed import take_first_killed
from .grid import Grid
from .labels import GAME_ROW, SEAT, is_title, label_of
from .page import Page, report_unread
from .phase_rows import departure_in_cell, report_read_from_phase
from .raw import GameSheet, Located, SheetRead
from .rows import TOTAL_WORDS, TOTALS_ROW

HEADER_SEARCH_ROWS = 10
_NUMBERED = re.compile(r"^(\D*?)\s*(\d{1,2})\s*(\D*)$")
_GAME_COLUMNS = (
    "round",
    "table",
    "game",
    "judge",
    "result",
    "ended",
    "annulled",
    "departures",
    "first_killed",
    "date",
    "tournament",
    "club",
)
_SEAT_KINDS = ("player", "role", "fouls", "bonus", "left", "when")


class _Header:
    """Where each field of a game row sits: game columns, seat blocks, best-move cells."""

    def __init__(self) -> None:
        self.game: dict[str, int] = {}
        self.seats: dict[str, dict[int, int]] = {}  # kind → seat → column
        self.best_move: list[int] = []
        self.groups: list[tuple[int, int]] = []  # the block labels over `1 … 10`

    @property
    def score(self) -> int:
        return len(self.game) + sum(map(len, self.seats.values()))

    def columns(self) -> set[int]:
        found = {*self.game.values(), *self.best_move}
        for block in self.seats.values():
            found |= set(block.values())
        return found


class WideReader:
    """Rows of games with ten seat columns, found by their header row."""

    layout = "wide"

    def detect(self, grid: Grid) -> object | None:
        return find_header(grid)

    def read(self, grid: Grid, found: object, source: str) -> SheetRead:
        assert isinstance(found, tuple)
        page = Page(grid, source)
        games = read_game_rows(page, found)
        return SheetRead(grid.name, self.layout, games=games, findings=page.findings)


READER = WideReader()


def find_header(grid: Grid) -> tuple[int, _Header] | None:
    """The header row of a games-by-row sheet: ten seat columns and a game column."""
    best: tuple[int, _Header] | None = None
    if grid.width < 11:
        return None  # ten seat columns and a game column at the least: a game sheet is not
    for r in range(min(grid.height, HEADER_SEARCH_ROWS)):
        row = grid.cells[r]
        if len(row) - row.count("") < 11 or sum(1 for v in row if not _blank(v)) < 11:
            continue  # cheap to rule out: `count` runs in C over calamine's empty cells
        header = _read_header(grid, r)
        players = header.seats.get("player", {})
        if (
            len(players) >= 10
            and ({"result", "game", "table", "round"} & set(header.game))
            and (best is None or header.score > best[1].score)
        ):
            best = (r, header)
    return best


def _read_header(grid: Grid, r: int) -> _Header:
    header = _Header()
    group: str | None = None
    for c in range(len(grid.cells[r])):
        value = grid.value(r, c)
        numbered = _numbered(value)
        if numbered is not None:
            kind, number = numbered
            if kind is None:
                if number == 1:
                    group = _group_over(grid, r, c, header)
                kind = group
            if kind == "best_move":
                header.best_move.append(c)
            elif kind in _SEAT_KINDS and 1 <= number <= 10:
                header.seats.setdefault(kind, {}).setdefault(number, c)
            continue
        name = GAME_ROW.field(value)
        if name == "best_move":
            header.best_move.append(c)
        elif name in _GAME_COLUMNS and name not in header.game:
            header.game[name] = c
    return header


def _numbered(value: object) -> tuple[str | None, int] | None:
    """`3` → (None, 3); `Роль 3`, `3 роль`, `role3` → ('role', 3); `ЛХ 2` → ('best_move', 2);
    `Место 3` → ('player', 3)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return (None, int(value)) if float(value).is_integer() and 1 <= value <= 10 else None
    if not isinstance(value, str):
        return None
    match = _NUMBERED.match(label_of(value) if not value.strip().isdigit() else value.strip())
    if match is None:
        return None
    words = (match.group(1) + " " + match.group(3)).strip()
    number = int(match.group(2))
    if not words:
        return None if not 1 <= number <= 10 else (None, number)
    kind = SEAT.field(words)
    if kind == "points":
        kind = None
    elif kind == "seat":  # `Место 3`, `Seat 3` over a row of games: who sits there
        kind = "player"
    return (kind, number) if kind is not None else None


def _group_over(grid: Grid, r: int, c: int, header: _Header) -> str | None:
    """The block's label over its `1`: in the row above (a merge starts there or left of
    it); the first unlabelled block holds the nicknames."""
    if r > 0:
        for j in range(c, max(-1, c - 10), -1):
            if not grid.blank(r - 1, j):
                if j == c or grid.right_end(r - 1, j) >= c:
                    kind = SEAT.field(grid.value(r - 1, j))
                    if kind is not None and kind != "points":
                        header.groups.append((r - 1, j))
                        return kind
                break
    return "player" if "player" not in header.seats else None


def is_games_sheet(grid: Grid) -> bool:
    return find_header(grid) is not None


def read_game_rows(page: Page, found: tuple[int, _Header]) -> list[GameSheet]:
    """One :class:`GameSheet` per filled row under the header (blank rows skipped, a
    totals row noted; a row with no result and nothing but nicknames or its numbers is
    not played yet); every other filled cell of the sheet reported, once."""
    grid = page.grid
    r0, header = found
    _take_header(page, r0, header)
    games: list[GameSheet] = []
    columns = header.columns()
    for r in range(r0 + 1, grid.height):
        row = grid.cells[r]
        if len(row) - row.count("") == 0 or all(grid.blank(r, c) for c in columns):
            continue  # a blank line (what else it holds is reported)
        total = _totals_word(grid, r)
        if total is not None:
            page.add(TOTALS_ROW, r, total, grid.value(r, total))
            for c in range(len(grid.cells[r])):
                page.take(r, c)
            continue
        games.append(_game_row(page, r, header))
    report_read_from_phase(page)
    report_unread(page)
    return games


def _take_header(page: Page, r0: int, header: _Header) -> None:
    """The header row's cells that name a column, the block labels over them, a title."""
    grid = page.grid
    for c in header.columns():
        page.take(r0, c)
    for r, c in header.groups:
        page.take(r, c)
    for r in range(r0):
        for c in range(len(grid.cells[r])):
            value = grid.value(r, c)
            if isinstance(value, str) and (is_title(value) or grid.right_end(r, c) - c >= 2):
                page.take(r, c)  # a title merged over the header


_TOTAL_STARTS = tuple(f"{word} " for word in TOTAL_WORDS)  # «Итого игр: 12»


def _totals_word(grid: Grid, r: int) -> int | None:
    """The column of a word that makes the row a totals line («Итого», «Итого игр:»)."""
    for c, value in enumerate(grid.cells[r]):
        if value.__class__ is str and value:
            folded = vocab.fold(value)
            if folded in TOTAL_WORDS or folded.startswith(_TOTAL_STARTS):
                return c
    return None


def _game_row(page: Page, r: int, header: _Header) -> GameSheet:
    grid = page.grid
    cells, take, number = grid.cells[r], page.used.add, str(grid.excel_row(r))

    def at(c: int) -> Located:
        value = cells[c] if c < len(cells) else ""
        if value != "" and value is not None:
            take((r, c))
        return ("" if value is None else value), grid.letter(c) + number

    values = {name: at(c) for name, c in header.game.items()}
    game = GameSheet(grid.name, first_row=grid.excel_row(r))
    game.header = {k: v for k, v in values.items() if k != "first_killed"}
    blocks = list(header.seats.items())
    for seat in range(1, 11):
        row: dict[str, Located] = {"seat": (seat, "")}
        for kind, columns in blocks:
            if seat in columns:
                row[kind] = at(columns[seat])
        if row.get("left", ("", ""))[0] != "":
            departure_in_cell(page, row)
        game.seats.append(row)
        game.seat_rows.append(grid.excel_row(r))
    victim = values.get("first_killed")
    victim = victim if victim and not _blank(victim[0]) else None
    take_first_killed(page, game, victim)
    typed = [(v, cell) for v, cell in map(at, header.best_move) if not _blank(v)]
    if typed:
        move = BestMove(", ".join(seat_text(v) for v, _ in typed), typed[0][1], None)
        attach_best_move(page, game, move, victim)
    game.played = not _blank(values.get("result", ("", ""))[0]) or any(
        not _blank(seat.get(kind, ("", ""))[0])
        for seat in game.seats
        for kind in ("role", "fouls", "bonus", "left", "when")
    )
    return game


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())
