"""Workbooks in the other two layouts: one sheet per game («бланк») and one row per game.

`mafia-sheets template --layout blank|wide` writes them empty (table and game numbers
pre-filled; with `--players` the roster's nicknames in the nickname dropdowns), and
:func:`write_games` fills them with played games — the samples and the tests write one
tournament in every layout this way and read it back.

The blank is the paper protocol: one A4 landscape page per game, a merged title, labelled
header fields, ten seat rows with four foul boxes, the result marked beside «Красные» /
«Чёрные» / «Ничья», and the best move as three seat cells and the victim's seat. It is
written with xlsxwriter: each text once in the shared-strings table and an empty box as a
bare styled cell, as Excel saves it, so a season of game sheets stays small to keep and
quick to read (openpyxl would repeat every label inline on every sheet).
"""

from __future__ import annotations

import datetime as dt
import io
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..reading.columns import COLUMNS, dropdown
from ..reading.labels import printed
from ..text import Text
from ..vocab import SHEETS, display_value, phase_name
from .roster import PlayerRow
from .workbook import HEADER_FILL, LIST_ERROR, _list_validation, roster_rows

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.workbook import Workbook as XlsxBook
    from xlsxwriter.worksheet import Worksheet as XlsxSheet

    from ..model import Protocol

LAYOUT_CHOICES = ("rows", "blank", "wide")
BLANK_TITLE = Text("ПРОТОКОЛ ИГРЫ", "GAME PROTOCOL")
# Every label the blank and the wide template print is one of its field's own spellings
# (reading.columns): `printed` refuses any other, so the product reads what it writes.
_L = {
    "tournament": printed("game", "tournament", "Турнир", "Tournament"),
    "round": printed("game", "round", "Тур", "Round"),
    "date": printed("game", "date", "Дата", "Date"),
    "table": printed("game", "table", "Стол №", "Table #"),
    "game": printed("game", "game", "Игра №", "Game #"),
    "judge": printed("game", "judge", "Судья", "Judge"),
    "seat": printed("seat", "seat", "№", "#"),
    "player": printed("seat", "player", "Игрок", "Player"),
    "role": printed("seat", "role", "Роль", "Role"),
    "fouls": printed("seat", "fouls", "Фолы", "Fouls"),
    "bonus": printed("seat", "bonus", "Доп. баллы", "Extra points"),
    "left": printed("seat", "left", "Выбыл", "Left"),
    "when": printed("seat", "when", "Когда", "When"),
    "result": printed("game", "result", "Победила команда", "Winning team"),
    "best_move": printed("game", "best_move", "Лучший ход", "Best move"),
    "victim": printed("seat", "player", "Игрок №", "Player #"),
    "ended": printed("game", "ended", "Окончание", "Ended"),
    "protest": printed("game", "protest", "Протест", "Protest"),
    "first_killed": printed("game", "first_killed", "Первый убитый", "First killed"),
}
_WIDE_BLOCKS = ("player", "role", "fouls", "bonus", "left", "when")
_WIDE_GROUPS = {
    "player": printed("seat", "player", "Игрок", "Player"),
    "role": printed("seat", "role", "Роль", "Role"),
    "fouls": printed("seat", "fouls", "Фол", "Foul"),
    "bonus": printed("seat", "bonus", "Доп", "Extra"),
    "left": printed("seat", "left", "Выбыл", "Left"),
    "when": printed("seat", "when", "Когда", "When"),
}
_BEST_MOVE_SEAT = printed("seat", "best_move", "ЛХ", "BM")
_RESULTS = ("red", "black", "draw")
MARK = "x"
FOUL_BOXES = 4


@dataclass
class SeatData:
    player: str = ""
    role: str | None = None  # civilian | sheriff | mafia | don; None = not typed
    fouls: int = 0
    left: str | None = None
    when: int | None = None  # phase ordinal
    best_move: tuple[int, ...] = ()
    bonus: str | None = None


@dataclass
class GameData:
    game: str
    round: object = None
    table: object = None
    judge: str = ""
    result: str | None = None
    ended: dt.datetime | None = None
    seats: list[SeatData] = field(default_factory=lambda: [SeatData() for _ in range(10)])


def games_of(protocol: Protocol) -> list[GameData]:
    """The games of a typed protocol, for writing them in another layout."""
    games = protocol.tables["games"].frame
    seats = protocol.tables["seats"].frame
    by_game = {game: rows.sort_values("seat") for game, rows in seats.groupby("game", sort=False)}
    out: list[GameData] = []
    for row in games.to_dict("records"):
        data = GameData(
            str(row["game"]),
            row["round"],
            row["table"],
            str(row["judge"] or ""),
            _code(row["result"]),
            row["ended"],
        )
        for seat in by_game.get(row["game"], seats.iloc[:0]).to_dict("records"):
            role = _code(seat["role"])
            data.seats[int(seat["seat"]) - 1] = SeatData(
                str(seat["player"] or ""),
                None if role == "civilian" else role,
                int(seat["fouls"] or 0),
                _code(seat["left"]),
                int(seat["when"]) if seat["when"] else None,
                tuple(seat["best_move"]) if seat["best_move"] else (),
                _code(seat["bonus"]),
            )
        out.append(data)
    return out


def write_games(
    layout: str,
    games: Sequence[GameData],
    lang: str = "ru",
    players: Sequence[PlayerRow] = (),
    protocol: Protocol | None = None,
) -> bytes:
    """A workbook of `games` in the `blank` or `wide` layout; with `protocol`, its
    settings, roster, protests and lot sheets are copied as they are."""
    if layout == "blank":
        return _blank_book(games, lang, players, protocol)
    if layout != "wide":
        raise ValueError(f"unknown layout {layout!r}")
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.worksheets[0])
    _wide_sheet(book, games, lang, players)
    for name, rows in _side_sheets(protocol, lang, players):
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def empty_games(count: int, tables: int = 1) -> list[GameData]:
    """Games 1 … count to fill in, numbered per table when there are several tables."""
    if tables == 1:
        return [GameData(str(n)) for n in range(1, count + 1)]
    return [
        GameData(str((n - 1) // tables + 1), table=(n - 1) % tables + 1)
        for n in range(1, count + 1)
    ]


# ---- one sheet per game ----------------------------------------------------------------------


class _BlankFormats:
    """The few cell formats of a game sheet, made once per workbook."""

    def __init__(self, book: XlsxBook) -> None:
        box = {"border": 1, "border_color": "#808080"}
        self.title = book.add_format({"bold": True, "font_size": 16, "align": "center"})
        self.label = book.add_format({"bold": True})
        self.box = book.add_format(box)
        self.head = book.add_format(
            {
                **box,
                "bold": True,
                "bg_color": f"#{HEADER_FILL}",
                "pattern": 1,
                "align": "center",
                "text_wrap": True,
            }
        )
        self.seat = book.add_format({**box, "align": "center"})


def _blank_book(
    games: Sequence[GameData], lang: str, players: Sequence[PlayerRow], protocol: Protocol | None
) -> bytes:
    import xlsxwriter

    buffer = io.BytesIO()
    # every text is written as text: a nickname such as `=1+1` or `http://…` stays as typed
    book = xlsxwriter.Workbook(
        buffer,
        {
            "in_memory": True,
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "nan_inf_to_errors": True,
        },
    )
    formats = _BlankFormats(book)
    names: list[str] = []
    for data in games:
        _blank_sheet(book, formats, names, data, lang, players)
    dates: dict[str, Format] = {}  # number format → its format in this workbook
    for name, rows in _side_sheets(protocol, lang, players):
        sheet = book.add_worksheet(_unique(names, name))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                _put(sheet, r, c, value, None, (book, dates))
    book.close()
    return buffer.getvalue()


def _unique(names: list[str], name: str) -> str:
    """The sheet's name, numbered on as openpyxl numbers a name already taken."""
    from openpyxl.workbook.child import avoid_duplicate_name

    name = avoid_duplicate_name(names, name)
    names.append(name)
    return name


# a date or time as openpyxl writes it (the other layouts' side sheets)
_DATE_FORMATS = (
    (dt.datetime, "yyyy-mm-dd h:mm:ss"),
    (dt.date, "yyyy-mm-dd"),
    (dt.time, "h:mm:ss"),
    (dt.timedelta, "[hh]:mm:ss"),
)


def _put(
    ws: XlsxSheet,
    r: int,
    c: int,
    value: object,
    style: Format | None,
    dates: tuple[XlsxBook, dict[str, Format]] | None = None,
) -> None:
    """One cell by its type (0-based row and column); nothing typed: a bare styled cell.
    `dates`: the workbook and its date formats, for a cell that may hold a date."""
    if value is None or value == "":
        if style is not None:
            ws.write_blank(r, c, None, style)
    elif isinstance(value, str):
        ws.write_string(r, c, value, style)
    elif isinstance(value, bool):
        ws.write_boolean(r, c, value, style)
    elif isinstance(value, numbers.Real):  # numpy's numbers too
        ws.write_number(r, c, float(value), style)
    elif dates is not None and isinstance(value, dt.date | dt.time | dt.timedelta):
        book, formats = dates
        pattern = next(f for kind, f in _DATE_FORMATS if isinstance(value, kind))
        if pattern not in formats:
            formats[pattern] = book.add_format({"num_format": pattern})
        ws.write_datetime(r, c, value, formats[pattern])  # type: ignore[arg-type]
    else:
        ws.write_string(r, c, str(value), style)


def _blank_sheet(
    book: XlsxBook,
    f: _BlankFormats,
    names: list[str],
    data: GameData,
    lang: str,
    players: Sequence[PlayerRow],
) -> None:
    table = "" if data.table in (None, "") else f"{_plain(data.table)}"
    name = (
        Text(f"Стол{table}Игра{data.game}", f"Table{table}Game{data.game}")(lang)
        if table
        else Text(f"Игра {data.game}", f"Game {data.game}")(lang)
    )
    ws = book.add_worksheet(_unique(names, name[:31]), worksheet_class=_fitted_sheet())

    def cell(ref: str, value: object, style: Format | None = None) -> None:
        r, c = _cell(ref)
        _put(ws, r, c, value, style)

    def merge(span: str) -> None:  # the cells are written on their own, as on paper
        ws.merge_range(span, "", None)

    merge("A1:K1")
    cell("A1", BLANK_TITLE(lang), f.title)
    header = [
        ("tournament", "A2", "B2", "B2:E2", ""),
        ("round", "G2", "H2", None, _plain(data.round)),
        ("judge", "I2", "J2", "J2:K2", data.judge),
        ("table", "A3", "B3", None, _plain(data.table)),
        ("game", "C3", "D3", None, data.game),
        ("ended", "G3", "H3", None, data.ended.strftime("%H:%M") if data.ended else ""),
    ]
    for key, label, at, span, value in header:
        if span:
            merge(span)
        cell(label, _L[key](lang), f.label)
        cell(at, _number_or_text(value), f.box)
    heads = {
        "A": "seat",
        "B": "player",
        "C": "role",
        "D": "fouls",
        "H": "bonus",
        "I": "left",
        "J": "when",
    }
    merge("D5:G5")
    for column in "ABCDEFGHIJ":
        cell(f"{column}5", _L[heads[column]](lang) if column in heads else None, f.head)
    for index, seat in enumerate(data.seats):
        r = 5 + index
        role = display_value("role", seat.role, lang) if seat.role else None
        values: list[object] = [index + 1, seat.player or None, role]
        values += [MARK if box < seat.fouls else None for box in range(FOUL_BOXES)]
        values += [
            _bonus_text(seat.bonus, lang),
            display_value("left", seat.left, lang) if seat.left else None,
            phase_name(seat.when, lang) if seat.when else None,
        ]
        for c, typed in enumerate(values):
            _put(ws, r, c, typed, f.seat)
    merge("A17:B17")
    cell("A17", _L["result"](lang), f.label)
    for offset, outcome in enumerate(_RESULTS):
        _put(ws, 16, 2 + 2 * offset, display_value("result", outcome, lang), None)
        _put(ws, 16, 3 + 2 * offset, MARK if data.result == outcome else None, f.box)
    merge("A18:B18")
    cell("A18", _L["best_move"](lang), f.label)
    maker = next((n for n, s in enumerate(data.seats, 1) if s.best_move), None)
    named = data.seats[maker - 1].best_move if maker else ()
    for offset in range(3):
        _put(ws, 17, 2 + offset, named[offset] if offset < len(named) else None, f.box)
    cell("F18", _L["victim"](lang))
    cell("G18", maker, f.box)
    cell("A19", _L["protest"](lang), f.label)
    merge("C19:K19")
    _blank_dropdowns(ws, lang, players)
    _blank_print(ws, name)


_FITTED: list[type] = []


def _fitted_sheet() -> type:
    """A worksheet that states its fit to one page across and down in full.

    xlsxwriter leaves out `fitToWidth="1"` and `fitToHeight="1"`, 1 being the default;
    openpyxl (and so `check --annotate`'s copy) reads an absent one as unset."""
    if not _FITTED:
        from xlsxwriter.worksheet import Worksheet

        class Fitted(Worksheet):
            def _xml_empty_tag(self, tag: str, attributes: Any = ()) -> None:
                if tag == "pageSetup" and self.fit_page:
                    named = {key for key, _ in attributes}
                    attributes = [
                        *attributes,
                        *((key, 1) for key in ("fitToWidth", "fitToHeight") if key not in named),
                    ]
                super()._xml_empty_tag(tag, attributes)

        _FITTED.append(Fitted)
    return _FITTED[0]


def _cell(ref: str) -> tuple[int, int]:
    from xlsxwriter.utility import xl_cell_to_rowcol

    return xl_cell_to_rowcol(ref)  # type: ignore[no-any-return]


def _blank_dropdowns(ws: XlsxSheet, lang: str, players: Sequence[PlayerRow]) -> None:
    for column, key in (("C", "role"), ("H", "bonus"), ("I", "left"), ("J", "when")):
        entries = dropdown("seats", key, lang)
        if key == "when":
            entries = entries[:16]  # an inline list has a length limit; Н8 is long enough
        _xlsx_list(ws, entries, f"{column}6:{column}15", lang)
    names = [p.nickname for p in players]
    if names and len('"' + ",".join(names) + '"') <= 257 and not any("," in n for n in names):
        _xlsx_list(ws, names, "B6:B15", lang)


def _xlsx_list(ws: XlsxSheet, entries: Sequence[str], target: str, lang: str) -> None:
    """An inline dropdown that warns, as the row layout's template has them."""
    formula = '"' + ",".join(entries) + '"'
    if len(formula) > 255 + 2 or any("," in entry for entry in entries):
        raise ValueError(f"dropdown {entries} does not fit an inline list")
    title, message = (text(lang) for text in LIST_ERROR)
    ws.data_validation(
        target,
        {
            "validate": "list",
            "source": list(entries),
            "ignore_blank": True,
            "show_input": False,
            "show_error": True,
            "error_type": "warning",
            "error_title": title,
            "error_message": message,
        },
    )


def _blank_print(ws: XlsxSheet, name: str) -> None:
    widths = {
        "A": 8,
        "B": 24,
        "C": 13,
        "D": 7,
        "E": 8,
        "F": 8,
        "G": 9,
        "H": 12,
        "I": 18,
        "J": 10,
        "K": 10,
    }
    for index, width in enumerate(widths.values()):
        ws.set_column(index, index, width)
    for r in range(5, 15):
        ws.set_row(r, 24)
    ws.set_paper(9)  # A4
    ws.set_landscape()
    ws.fit_to_pages(1, 1)
    ws.print_area("A1:K19")
    ws.set_header("&C" + name.replace("&", "&&"))


# ---- one row per game ------------------------------------------------------------------------


def _wide_sheet(
    book: Any, games: Sequence[GameData], lang: str, players: Sequence[PlayerRow]
) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.properties import PageSetupProperties

    ws = book.create_sheet(SHEETS["games"](lang))
    game_heads = [
        COLUMNS["games"][c](lang) for c in ("round", "table", "game", "judge", "result", "ended")
    ]
    heads: list[object] = [*game_heads]
    first = len(heads) + 1
    # nicknames under bare seat numbers; every other block names itself in each header
    # («Роль 3»), so the sheet needs no merged group labels (a protocol sheet has none)
    heads += list(range(1, 11))
    for key in _WIDE_BLOCKS[1:]:
        heads += [f"{_WIDE_GROUPS[key](lang)} {n}" for n in range(1, 11)]
    tail = len(heads) + 1
    heads += [_L["first_killed"](lang), *(f"{_BEST_MOVE_SEAT(lang)} {n}" for n in (1, 2, 3))]
    for c, value in enumerate(heads, start=1):
        cell = ws.cell(1, c, value)
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor=HEADER_FILL)
        cell.alignment = Alignment(horizontal="center")
        ws.column_dimensions[get_column_letter(c)].width = 14 if c < first or c >= tail else 5
    for block, key in enumerate(_WIDE_BLOCKS):  # nicknames wide, foul counts narrow
        width = {"player": 14, "fouls": 6, "left": 13}.get(key, 9)
        for c in range(first + 10 * block, first + 10 * block + 10):
            ws.column_dimensions[get_column_letter(c)].width = width
    for r, data in enumerate(games, start=2):
        values: list[object] = [
            _number_or_text(_plain(data.round)),
            _number_or_text(_plain(data.table)),
            _number_or_text(data.game),
            data.judge or None,
            display_value("result", data.result, lang) if data.result else None,
            data.ended.strftime("%H:%M") if data.ended else None,
        ]
        values += [s.player or None for s in data.seats]
        values += [display_value("role", s.role, lang) if s.role else None for s in data.seats]
        values += [s.fouls or None for s in data.seats]
        values += [_bonus_text(s.bonus, lang) for s in data.seats]
        values += [display_value("left", s.left, lang) if s.left else None for s in data.seats]
        values += [phase_name(s.when, lang) if s.when else None for s in data.seats]
        maker = next((n for n, s in enumerate(data.seats, 1) if s.best_move), None)
        named = data.seats[maker - 1].best_move if maker else ()
        values += [maker, *(named[i] if i < len(named) else None for i in range(3))]
        for c, value in enumerate(values, start=1):
            ws.cell(r, c, value)
    last = max(1 + len(games), 200)
    letter = get_column_letter
    ws.add_data_validation(_list_validation(dropdown("games", "result", lang), f"E2:E{last}", lang))
    for block, key in enumerate(_WIDE_BLOCKS[1:], start=1):
        entries = dropdown("seats", key, lang) if key != "fouls" else []
        if key == "when":
            entries = entries[:16]
        if entries:
            start = first + 10 * block
            ws.add_data_validation(
                _list_validation(entries, f"{letter(start)}2:{letter(start + 9)}{last}", lang)
            )
    names = [p.nickname for p in players]
    if names and len('"' + ",".join(names) + '"') <= 257 and not any("," in n for n in names):
        ws.add_data_validation(
            _list_validation(names, f"{letter(first)}2:{letter(first + 9)}{last}", lang)
        )
    ws.freeze_panes = ws.cell(2, first)
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_rows = "1:1"


# ---- helpers ---------------------------------------------------------------------------------


def _code(value: Any) -> str | None:
    return None if value is None or value != value else str(value)


def _side_sheets(
    protocol: Protocol | None, lang: str, players: Sequence[PlayerRow]
) -> list[tuple[str, list[list[object]]]]:
    """Settings, roster, protests and lot as the row layout keeps them (values as typed);
    without a protocol, the roster of `players` when there is one."""
    out: list[tuple[str, list[list[object]]]] = []
    if protocol is None:
        if players:
            rows: list[list[object]] = [[name(lang) for name in COLUMNS["players"].values()]]
            rows += roster_rows(players)
            out.append((SHEETS["players"](lang), rows))
        return out
    for code in ("tournament", "players", "protests", "lot"):
        table = protocol.tables.get(code)
        if table is None:
            continue
        columns = list(table.raw.columns)
        rows = [[COLUMNS[code][c](lang) for c in columns]]
        rows += [[None if v == "" else v for v in row] for row in table.raw.itertuples(index=False)]
        out.append((SHEETS[code](lang), rows))
    return out


def _bonus_text(code: str | None, lang: str) -> str | None:
    return display_value("bonus", code, lang) if code else None


def _plain(value: object) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value)


def _number_or_text(value: object) -> object:
    """A game or table number as a number, as a judge would type it; text stays text."""
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value if value not in ("", None) else None
