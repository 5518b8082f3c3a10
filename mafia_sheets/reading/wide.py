"""One row per game with ten seat columns: how seating schedules and federation exports
are shaped (FIELD.md §2B).

`Тур | Стол | Игра | Судья | Результат | 1 … 10` — the nicknames in seat order — then
optional blocks of ten: roles, fouls, extra points, departures, phases, each block named
by a label over it (a merged `Роли` above `1 … 10`) or in every header (`Роль 3`, `3 роль`),
and columns for the first-night victim and the three best-move seats (`ЛХ 1 … ЛХ 3`, or
one `Лучший ход` cell `3 5 7`). Each row becomes a :class:`~.blank.GameSheet`, every
value with its own cell, exactly as a game sheet does.
"""

from __future__ import annotations

import re

from .blank import attach_best_move, seat_text
from .grid import Grid
from .labels import GAME_ROW, SEAT, label_of
from .raw import GameSheet, Located, SheetRead

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
)
_SEAT_KINDS = ("player", "role", "fouls", "bonus", "left", "when")


class _Header:
    """Where each field of a game row sits: game columns, seat blocks, best-move cells."""

    def __init__(self) -> None:
        self.game: dict[str, int] = {}
        self.seats: dict[str, dict[int, int]] = {}  # kind → seat → column
        self.best_move: list[int] = []

    @property
    def score(self) -> int:
        return len(self.game) + sum(map(len, self.seats.values()))


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
    """`3` → (None, 3); `Роль 3`, `3 роль`, `role3` → ('role', 3); `ЛХ 2` → ('best_move', 2)."""
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
                        return kind
                break
    return "player" if "player" not in header.seats else None


class WideReader:
    """Rows of games with ten seat columns, found by their header row."""

    layout = "wide"

    def detect(self, grid: Grid) -> object | None:
        return find_header(grid)

    def read(self, grid: Grid, found: object, source: str) -> SheetRead:
        return SheetRead(grid.name, self.layout, games=read_game_rows(grid, source))


READER = WideReader()


def is_games_sheet(grid: Grid) -> bool:
    return find_header(grid) is not None


def read_game_rows(grid: Grid, source: str) -> list[GameSheet]:
    """One :class:`GameSheet` per filled row under the header (blank rows and totals
    rows skipped; a row with no result and nothing but nicknames is not played yet)."""
    found = find_header(grid)
    assert found is not None
    r0, header = found
    games: list[GameSheet] = []
    players = header.seats["player"]
    for r in range(r0 + 1, grid.height):
        typed_players = [not grid.blank(r, c) for c in players.values()]
        game_values = {
            name: (grid.value(r, c), grid.address(r, c)) for name, c in header.game.items()
        }
        named = [game_values.get(k, ("", ""))[0] for k in ("game", "table", "round")]
        if not any(typed_players) and all(_blank(v) for v in named):
            continue  # a blank line, or a totals row
        game = GameSheet(grid.name, first_row=grid.excel_row(r))
        game.header = {k: v for k, v in game_values.items() if k != "first_killed"}
        for seat in range(1, 11):
            row: dict[str, Located] = {"seat": (seat, "")}
            for kind, columns in header.seats.items():
                if seat in columns:
                    row[kind] = (grid.value(r, columns[seat]), grid.address(r, columns[seat]))
            game.seats.append(row)
            game.seat_rows.append(grid.excel_row(r))
        _best_move(grid, r, header, game, game_values.get("first_killed"), source)
        has_result = not _blank(game_values.get("result", ("", ""))[0])
        game.played = has_result or any(
            not _blank(seat.get(kind, ("", ""))[0])
            for seat in game.seats
            for kind in ("role", "fouls", "bonus", "left", "when")
        )
        if not any(typed_players) and not game.played:
            continue
        games.append(game)
    return games


def _best_move(
    grid: Grid, r: int, header: _Header, game: GameSheet, victim: Located | None, source: str
) -> None:
    cells = [(grid.value(r, c), grid.address(r, c)) for c in header.best_move]
    typed = [(v, cell) for v, cell in cells if not _blank(v)]
    if not typed:
        return
    text = ", ".join(seat_text(v) for v, _ in typed)
    attach_best_move(game, text, typed[0][1], victim, source)


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())
