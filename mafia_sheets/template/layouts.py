"""Workbooks in the other two layouts: one sheet per game («бланк») and one row per game.

`mafia-sheets template --layout blank|wide` writes them empty (table and game numbers
pre-filled; with `--players` the roster's nicknames in the nickname dropdowns), and
:func:`write_games` fills them with played games — the samples and the tests write one
tournament in every layout this way and read it back.

The blank is the paper protocol: one A4 landscape page per game, a merged title, labelled
header fields, ten seat rows with four foul boxes, the result marked beside «Красные» /
«Чёрные» / «Ничья», and the best move as three seat cells and the victim's seat.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..reading.columns import COLUMNS, dropdown
from ..text import Text
from ..vocab import SHEETS, display_value, phase_name
from .roster import PlayerRow
from .workbook import HEADER_FILL, _list_validation, _thin_border

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

    from ..model import Protocol

LAYOUT_CHOICES = ("rows", "blank", "wide")
BLANK_TITLE = Text("ПРОТОКОЛ ИГРЫ", "GAME PROTOCOL")
_L = {
    "tournament": Text("Турнир", "Tournament"), "round": Text("Тур", "Round"),
    "date": Text("Дата", "Date"), "table": Text("Стол №", "Table #"),
    "game": Text("Игра №", "Game #"), "judge": Text("Судья", "Judge"),
    "seat": Text("№", "#"), "player": Text("Игрок", "Player"), "role": Text("Роль", "Role"),
    "fouls": Text("Фолы", "Fouls"), "bonus": Text("Доп. баллы", "Extra points"),
    "left": Text("Выбыл", "Left"), "when": Text("Когда", "When"),
    "result": Text("Победила команда", "Winning team"),
    "best_move": Text("Лучший ход", "Best move"), "victim": Text("Игрок №", "Player #"),
    "ended": Text("Окончание", "Ended"), "protest": Text("Протест", "Protest"),
    "first_killed": Text("Первый убитый", "First killed"),
}
_WIDE_BLOCKS = ("player", "role", "fouls", "bonus", "left", "when")
_WIDE_GROUPS = {"player": Text("Игрок", "Player"), "role": Text("Роль", "Role"),
                "fouls": Text("Фол", "Foul"), "bonus": Text("Доп", "Extra"),
                "left": Text("Выбыл", "Left"), "when": Text("Когда", "When")}
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
    by_game = {game: rows.sort_values("seat") for game, rows in seats.groupby("game",
                                                                            sort=False)}
    out: list[GameData] = []
    for row in games.to_dict("records"):
        data = GameData(str(row["game"]), row["round"], row["table"], str(row["judge"] or ""),
                        _code(row["result"]), row["ended"])
        for seat in by_game.get(row["game"], seats.iloc[:0]).to_dict("records"):
            role = _code(seat["role"])
            data.seats[int(seat["seat"]) - 1] = SeatData(
                str(seat["player"] or ""), None if role == "civilian" else role,
                int(seat["fouls"] or 0), _code(seat["left"]),
                int(seat["when"]) if seat["when"] else None,
                tuple(seat["best_move"]) if seat["best_move"] else (), _code(seat["bonus"]))
        out.append(data)
    return out


def write_games(layout: str, games: Sequence[GameData], lang: str = "ru",
                players: Sequence[PlayerRow] = (), protocol: Protocol | None = None) -> bytes:
    """A workbook of `games` in the `blank` or `wide` layout; with `protocol`, its
    settings, roster, protests and lot sheets are copied as they are."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.worksheets[0])
    if layout == "blank":
        for data in games:
            _blank_sheet(book, data, lang, players)
    elif layout == "wide":
        _wide_sheet(book, games, lang, players)
    else:
        raise ValueError(f"unknown layout {layout!r}")
    if protocol is not None:
        _copy_side_sheets(book, protocol, lang)
    elif players:
        sheet = book.create_sheet(SHEETS["players"](lang))
        sheet.append([COLUMNS["players"][c](lang) for c in ("player", "club", "city")])
        for p in players:
            sheet.append([p.nickname, p.club, p.city])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def empty_games(count: int, tables: int = 1) -> list[GameData]:
    """Games 1 … count to fill in, numbered per table when there are several tables."""
    if tables == 1:
        return [GameData(str(n)) for n in range(1, count + 1)]
    return [GameData(str((n - 1) // tables + 1), table=(n - 1) % tables + 1)
            for n in range(1, count + 1)]


# ---- one sheet per game ----------------------------------------------------------------------

def _blank_sheet(book: Any, data: GameData, lang: str, players: Sequence[PlayerRow]) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill

    table = "" if data.table in (None, "") else f"{_plain(data.table)}"
    name = (Text(f"Стол{table}Игра{data.game}", f"Table{table}Game{data.game}")(lang)
            if table else Text(f"Игра {data.game}", f"Game {data.game}")(lang))
    ws = book.create_sheet(name[:31])
    bold, box = Font(bold=True), _thin_border()
    ws.merge_cells("A1:K1")
    ws["A1"] = BLANK_TITLE(lang)
    ws["A1"].font = Font(bold=True, size=16)
    ws["A1"].alignment = Alignment(horizontal="center")
    header = [("tournament", "A2", "B2", "B2:E2", ""), ("round", "G2", "H2", None,
                                                         _plain(data.round)),
              ("judge", "I2", "J2", "J2:K2", data.judge),
              ("table", "A3", "B3", None, _plain(data.table)),
              ("game", "C3", "D3", None, data.game),
              ("ended", "G3", "H3", None, data.ended.strftime("%H:%M") if data.ended else "")]
    for key, label, cell, merge, value in header:
        ws[label] = _L[key](lang)
        ws[label].font = bold
        if merge:
            ws.merge_cells(merge)
        ws[cell] = _number_or_text(value)
        ws[cell].border = box
    heads = {"A5": "seat", "B5": "player", "C5": "role", "D5": "fouls", "H5": "bonus",
             "I5": "left", "J5": "when"}
    for cell, key in heads.items():
        ws[cell] = _L[key](lang)
    ws.merge_cells("D5:G5")
    for column in "ABCDEFGHIJ":
        ws[f"{column}5"].font = bold
        ws[f"{column}5"].fill = PatternFill("solid", fgColor=HEADER_FILL)
        ws[f"{column}5"].border = box
        ws[f"{column}5"].alignment = Alignment(horizontal="center", wrap_text=True)
    for index, seat in enumerate(data.seats):
        r = 6 + index
        ws.cell(r, 1, index + 1)
        ws.cell(r, 2, seat.player or None)
        ws.cell(r, 3, display_value("role", seat.role, lang) if seat.role else None)
        for box_index in range(FOUL_BOXES):
            ws.cell(r, 4 + box_index, MARK if box_index < seat.fouls else None)
        ws.cell(r, 8, _bonus_text(seat.bonus, lang))
        ws.cell(r, 9, display_value("left", seat.left, lang) if seat.left else None)
        ws.cell(r, 10, phase_name(seat.when, lang) if seat.when else None)
        for c in range(1, 11):
            ws.cell(r, c).border = box
            ws.cell(r, c).alignment = Alignment(horizontal="center")
    ws["A17"] = _L["result"](lang)
    ws["A17"].font = bold
    ws.merge_cells("A17:B17")
    for offset, outcome in enumerate(_RESULTS):
        label, mark_cell = ws.cell(17, 3 + 2 * offset), ws.cell(17, 4 + 2 * offset)
        label.value = display_value("result", outcome, lang)
        mark_cell.value = MARK if data.result == outcome else None
        mark_cell.border = box
    ws["A18"] = _L["best_move"](lang)
    ws["A18"].font = bold
    ws.merge_cells("A18:B18")
    maker = next((n for n, s in enumerate(data.seats, 1) if s.best_move), None)
    named = data.seats[maker - 1].best_move if maker else ()
    for offset in range(3):
        ws.cell(18, 3 + offset, named[offset] if offset < len(named) else None).border = box
    ws["F18"] = _L["victim"](lang)
    ws["G18"] = maker
    ws["G18"].border = box
    ws["A19"] = _L["protest"](lang)
    ws["A19"].font = bold
    ws.merge_cells("C19:K19")
    _blank_dropdowns(ws, lang, players)
    _blank_print(ws, lang, name)


def _blank_dropdowns(ws: Worksheet, lang: str, players: Sequence[PlayerRow]) -> None:
    for column, key in (("C", "role"), ("H", "bonus"), ("I", "left"), ("J", "when")):
        entries = dropdown("seats", key, lang)
        if key == "when":
            entries = entries[:16]  # an inline list has a length limit; Н8 is long enough
        ws.add_data_validation(_list_validation(entries, f"{column}6:{column}15", lang))
    names = [p.nickname for p in players]
    if names and len('"' + ",".join(names) + '"') <= 257 and not any("," in n for n in names):
        ws.add_data_validation(_list_validation(names, "B6:B15", lang))


def _blank_print(ws: Worksheet, lang: str, name: str) -> None:
    from openpyxl.worksheet.properties import PageSetupProperties

    widths = {"A": 8, "B": 24, "C": 13, "D": 7, "E": 8, "F": 8, "G": 9, "H": 12, "I": 18,
              "J": 10, "K": 10}
    for column, width in widths.items():
        ws.column_dimensions[column].width = width
    for r in range(6, 16):
        ws.row_dimensions[r].height = 24
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_area = "A1:K19"
    ws.oddHeader.center.text = name  # type: ignore[union-attr]


# ---- one row per game ------------------------------------------------------------------------

def _wide_sheet(book: Any, games: Sequence[GameData], lang: str,
                players: Sequence[PlayerRow]) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.properties import PageSetupProperties

    ws = book.create_sheet(SHEETS["games"](lang))
    game_heads = [COLUMNS["games"][c](lang) for c in ("round", "table", "game", "judge",
                                                      "result", "ended")]
    heads: list[object] = [*game_heads]
    first = len(heads) + 1
    # nicknames under bare seat numbers; every other block names itself in each header
    # («Роль 3»), so the sheet needs no merged group labels (a protocol sheet has none)
    heads += list(range(1, 11))
    for key in _WIDE_BLOCKS[1:]:
        heads += [f"{_WIDE_GROUPS[key](lang)} {n}" for n in range(1, 11)]
    tail = len(heads) + 1
    heads += [_L["first_killed"](lang), *(f"{Text('ЛХ', 'BM')(lang)} {n}" for n in (1, 2, 3))]
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
        values: list[object] = [_number_or_text(_plain(data.round)),
                                _number_or_text(_plain(data.table)),
                                _number_or_text(data.game), data.judge or None,
                                display_value("result", data.result, lang) if data.result
                                else None,
                                data.ended.strftime("%H:%M") if data.ended else None]
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
    ws.add_data_validation(_list_validation(dropdown("games", "result", lang),
                                            f"E2:E{last}", lang))
    for block, key in enumerate(_WIDE_BLOCKS[1:], start=1):
        entries = dropdown("seats", key, lang) if key != "fouls" else []
        if key == "when":
            entries = entries[:16]
        if entries:
            start = first + 10 * block
            ws.add_data_validation(_list_validation(
                entries, f"{letter(start)}2:{letter(start + 9)}{last}", lang))
    names = [p.nickname for p in players]
    if names and len('"' + ",".join(names) + '"') <= 257 and not any("," in n for n in names):
        ws.add_data_validation(_list_validation(
            names, f"{letter(first)}2:{letter(first + 9)}{last}", lang))
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


def _copy_side_sheets(book: Any, protocol: Protocol, lang: str) -> None:
    """Settings, roster, protests and lot as the row layout keeps them (values as typed)."""
    for code in ("tournament", "players", "protests", "lot"):
        table = protocol.tables.get(code)
        if table is None:
            continue
        ws = book.create_sheet(SHEETS[code](lang))
        columns = list(table.raw.columns)
        ws.append([COLUMNS[code][c](lang) for c in columns])
        for row in table.raw.itertuples(index=False):
            ws.append([None if v == "" else v for v in row])


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
