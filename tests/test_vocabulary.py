"""One field vocabulary for every layout: a column's name and each of its aliases is read
as that column in the row layout, as that label on a game sheet and as that header of a
game row; the templates print only declared spellings; each sheet goes to one reader."""

from __future__ import annotations

from typing import Any

import pytest

from mafia_sheets.reading import labels
from mafia_sheets.reading.columns import SCHEMA, SHEET_FIELDS
from mafia_sheets.reading.grid import Grid
from mafia_sheets.reading.layouts import READERS, detect, read_sheets, register
from mafia_sheets.reading.raw import SheetRead

GAME_COLUMNS = ("game", "round", "table", "judge", "result", "ended", "annulled")
SEAT_COLUMNS = ("seat", "player", "role", "fouls", "left", "when", "best_move", "bonus")
# A typed value for each field, as the reader passes it on (typing is parse's job)
VALUES: dict[str, Any] = {
    "game": 7,
    "round": 2,
    "table": 3,
    "judge": "Орлова",
    "result": "Красные",
    "ended": "21:40",
    "annulled": "нет",
    "seat": 1,
    "player": "Кот",
    "role": "Шериф",
    "fouls": 2,
    "left": "убит",
    "when": "Н1",
    "best_move": "3 7 9",
    "bonus": "ЛИ",
}


def spellings(sheet: str, code: str) -> list[str]:
    column = SCHEMA[sheet][code]
    return [column.name.ru, column.name.en, *column.aliases]


def cases(sheet: str, codes: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(code, spelling) for code in codes for spelling in spellings(sheet, code)]


def grid(name: str, rows: list[list[object]]) -> Grid:
    width = max(map(len, rows))
    return Grid(name, [[*row, *[""] * (width - len(row))] for row in rows])


# ---- the row layout -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sheet", "code", "spelling"),
    [
        *(("games", c, s) for c, s in cases("games", GAME_COLUMNS)),
        *(("seats", c, s) for c, s in cases("seats", SEAT_COLUMNS)),
    ],
)
def test_every_spelling_is_read_as_its_column_in_the_row_layout(sheet, code, spelling):
    name = {"games": "Игры", "seats": "Протокол"}[sheet]
    others = [c for c in (GAME_COLUMNS if sheet == "games" else SEAT_COLUMNS) if c != code]
    header = [spelling, *(SCHEMA[sheet][c].name.ru for c in others)]
    data = [VALUES[code], *(VALUES[c] for c in others)]
    read = read_sheets([grid(name, [header, data])], "x.xlsx")
    typed = next(h for h in read.headers if h.typed == spelling)
    assert (typed.column, typed.status) == (code, "column")
    assert read.sheets[sheet].columns[code] == [VALUES[code]]


# ---- one sheet per game ------------------------------------------------------------------


def blank_rows(header_cells: dict[str, str], fields: dict[str, str]) -> list[list[object]]:
    """A small game sheet: header fields labelled at the top, then the seat grid."""
    top = [[label, VALUES[code]] for code, label in fields.items()]
    order = list(SEAT_COLUMNS)
    header = [header_cells.get(c, SCHEMA["seats"][c].name.ru) for c in order]
    seats = []
    for seat in range(1, 11):
        row: list[object] = []
        for code in order:
            value = {"seat": seat, "player": f"Игрок{seat}"}.get(code, "")
            if seat == 1 and code not in ("seat", "player"):
                value = VALUES[code]
            row.append(value)
        seats.append(row)
    return [*top, [], header, *seats]


@pytest.mark.parametrize(("code", "spelling"), cases("seats", SEAT_COLUMNS))
def test_every_spelling_heads_its_column_of_a_game_sheets_seat_grid(code, spelling):
    read = read_sheets([grid("Игра 1", blank_rows({code: spelling}, {}))], "x.xlsx")
    (game,) = read.games
    assert game.seats[0][code][0] == (VALUES[code] if code != "player" else "Игрок1")


@pytest.mark.parametrize(
    ("code", "spelling"),
    [
        (code, spelling)
        for code, spelling in cases("games", GAME_COLUMNS)
        if spelling.strip("№#")  # a bare `№` on a game sheet heads the seat column
    ],
)
def test_every_spelling_labels_its_field_on_a_game_sheet(code, spelling):
    read = read_sheets([grid("Игра 1", blank_rows({}, {code: spelling}))], "x.xlsx")
    (game,) = read.games
    value = game.header[code][0]
    assert value == VALUES[code] or (code == "result" and value == "Красные")


@pytest.mark.parametrize(
    ("code", "spelling"),
    [
        (c, s)
        for c, field in SHEET_FIELDS.items()
        if c in ("tournament", "date")
        for s in (field.name.ru, field.name.en, *field.aliases)
    ],
)
def test_the_game_sheets_own_fields_are_read_by_every_spelling(code, spelling):
    value = {"tournament": "Кубок осени", "date": "01.10.2026"}[code]
    rows = blank_rows({}, {})
    rows[0] = [spelling, value]
    read = read_sheets([grid("Игра 1", rows)], "x.xlsx")
    assert read.games[0].header[code][0] == value


# ---- one row per game ---------------------------------------------------------------------

WIDE_BLOCKS = ("role", "fouls", "bonus", "left", "when")


def wide_rows(game_head: dict[str, str], block_head: dict[str, str]) -> list[list[object]]:
    header: list[object] = [game_head.get(c, SCHEMA["games"][c].name.ru) for c in GAME_COLUMNS]
    header += list(range(1, 11))
    for code in WIDE_BLOCKS:
        label = block_head.get(code, SCHEMA["seats"][code].name.ru)
        header += [f"{label} {n}" for n in range(1, 11)]
    row: list[object] = [VALUES[c] for c in GAME_COLUMNS]
    row += [f"Игрок{n}" for n in range(1, 11)]
    for code in WIDE_BLOCKS:
        row += [VALUES[code], *[""] * 9]
    return [header, row]


@pytest.mark.parametrize(("code", "spelling"), cases("games", GAME_COLUMNS))
def test_every_spelling_heads_its_column_of_a_game_row(code, spelling):
    read = read_sheets([grid("Сезон", wide_rows({code: spelling}, {}))], "x.xlsx")
    (game,) = read.games
    value = game.header[code][0]
    assert value == VALUES[code]


@pytest.mark.parametrize(
    ("code", "spelling"),
    [(c, s) for c, s in cases("seats", (*WIDE_BLOCKS, "player")) if not s[-1].isdigit()],
)
def test_every_spelling_names_its_block_of_ten_in_a_game_row(code, spelling):
    if code == "player":
        rows = wide_rows({}, {})
        rows[0][len(GAME_COLUMNS) : len(GAME_COLUMNS) + 10] = [
            f"{spelling} {n}" for n in range(1, 11)
        ]
        expected = "Игрок1"
    else:
        rows, expected = wide_rows({}, {code: spelling}), VALUES[code]
    read = read_sheets([grid("Сезон", rows)], "x.xlsx")
    (game,) = read.games
    assert game.seats[0][code][0] == expected


# ---- declarations --------------------------------------------------------------------------


def test_no_spelling_names_two_fields_of_one_level(monkeypatch):
    """The lookup tables are built at import and refuse a spelling of two fields; the row
    layout's own sheets are held to it too."""
    from mafia_sheets.reading.columns import Field
    from mafia_sheets.reading.matching import header_key
    from mafia_sheets.text import Text

    for sheet, columns in SCHEMA.items():
        seen: dict[str, str] = {}
        for code in columns:
            for spelling in spellings(sheet, code):
                key = header_key(spelling)
                assert seen.setdefault(key, code) == code, (sheet, spelling, seen[key], code)
    monkeypatch.setitem(SHEET_FIELDS, "twin", Field(Text("Судья", "Judge"), Text("", "")))
    with pytest.raises(ValueError, match="names both judge and twin"):
        labels.Labels("game", ("judge", "twin"), symbols=False)


def test_a_template_label_that_is_not_declared_is_refused():
    assert labels.printed("game", "table", "Стол №", "Table #")("en") == "Table #"
    with pytest.raises(ValueError, match="not a label of table"):
        labels.printed("game", "table", "Столик", "Table #")


# ---- one reader per sheet -----------------------------------------------------------------


def test_each_sheet_is_claimed_by_one_reader_before_it_is_read():
    wide = grid("Игры", wide_rows({}, {}))  # named as a protocol sheet, laid out as rows of games
    rows = grid("Протокол", [["Игра", "Место", "Игрок", "Роль"], [1, 1, "Кот", ""]])
    blank = grid("Игра 1", blank_rows({}, {}))
    assert [detect(g)[0].layout for g in (wide, rows, blank)] == ["wide", "rows", "blank"]
    assert detect(grid("Заметки", [["кто принесёт карты"]])) is None


def test_a_new_layout_reader_plugs_into_the_same_detection():
    class Notes:
        layout = "notes"

        def detect(self, g: Grid) -> object | None:
            return "mine" if g.name == "Заметки" else None

        def read(self, g: Grid, found: object, source: str) -> SheetRead:
            return SheetRead(g.name, self.layout)

    before = list(READERS)
    try:
        register(Notes(), before="blank")
        assert [r.layout for r in READERS] == ["wide", "rows", "notes", "blank"]
        read = read_sheets([grid("Заметки", [["кто принесёт карты"]])], "x.xlsx")
        assert read.findings == [] and read.reading.sheets == (("Заметки", "notes"),)
    finally:
        READERS[:] = before
