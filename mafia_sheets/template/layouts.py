"""Workbooks in the other two layouts: one sheet per game («бланк») and one row per game.

`mafia-sheets template --layout blank|wide` writes them empty (table and game numbers
pre-filled; with `--players` the roster's nicknames in the nickname dropdowns), and
:func:`write_games` fills them with played games — the samples and the tests write one
tournament in every layout this way and read it back.

The blank is the paper protocol: one A4 landscape page per game, a merged title, labelled
header fields, ten seat rows with four foul boxes, the result marked beside «Красные» /
«Чёрные» / «Ничья», and the best move as three seat cells and the victim's seat. It is
written through the report's engine (xlsxwriter): each text once in the shared-strings
table and an empty box as a bare styled cell, as Excel saves it, so a season of game
sheets stays small to keep and quick to read (openpyxl would repeat every label inline on
every sheet).
"""

from __future__ import annotations

import datetime as dt
import numbers
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..reading.columns import COLUMNS, dropdown
from ..reading.labels import printed
from ..report.engine import (
    Book,
    Dropdown,
    Page,
    Sheet,
    Style,
    cell_name,
    cell_position,
    column_breaks,
    open_book,
)
from ..text import Text
from ..vocab import SHEETS, display_value, phase_name
from .roster import PlayerRow
from .workbook import (
    FOOTER,
    HEADER_FILL,
    LIST_ERROR,
    build_template,
    nickname_list,
    roster_rows,
    settings_sheet,
    written_columns,
)

if TYPE_CHECKING:
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
    "departures": printed("game", "departures", "Записаны выбывания", "Departures recorded"),
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
    bonus: str | Fraction | None = None  # an award's code, or the number typed in «Доп»


@dataclass
class GameData:
    game: str
    round: object = None
    table: object = None
    judge: str = ""
    result: str | None = None
    ended: dt.datetime | None = None
    seats: list[SeatData] = field(default_factory=lambda: [SeatData() for _ in range(10)])
    departures: str | None = None  # "partial": only some departures recorded (a platform's)


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
                _code(seat["bonus"]) or seat.get("extra"),
            )
        out.append(data)
    return out


def write_games(
    layout: str,
    games: Sequence[GameData],
    lang: str = "ru",
    players: Sequence[PlayerRow] = (),
    protocol: Protocol | None = None,
    settings: dict[str, Any] | None = None,
) -> bytes:
    """A workbook of `games` in the `rows`, `blank` or `wide` layout; with `protocol`, its
    settings, roster, protests and lot sheets are copied as they are; `settings` gives
    «Турнир» values (setting key → value) where there is no protocol to copy."""
    if layout == "rows":
        return _rows_book(games, lang, players, settings)
    side = _side_sheets(protocol, lang, players)
    # without a protocol to copy, the «Турнир» sheet of every template: each setting with
    # its meaning and dropdown, the values `settings` gives filled in
    given = None if protocol is not None else (settings or {})
    if layout == "blank":
        return _blank_book(games, lang, players, side, given)
    if layout != "wide":
        raise ValueError(f"unknown layout {layout!r}")
    with open_book(streamed=False) as book:
        names = [SHEETS["games"](lang)]
        _wide_sheet(book.sheet(names[0]), games, lang, players)
        _write_side_sheets(book, names, side, lang, given)
        return book.close()


def _rows_book(
    games: Sequence[GameData],
    lang: str,
    players: Sequence[PlayerRow],
    settings: dict[str, Any] | None,
) -> bytes:
    """The template's protocol workbook with `games` in «Игры» and «Протокол»."""
    extra: dict[str, Sequence[str]] = {
        "games": ("departures",) if any(g.departures for g in games) else ()
    }
    columns = written_columns("games", extra["games"])
    filled = {
        "games": [_game_row(g, lang, columns) for g in games],
        "seats": _seat_rows(games, lang),
    }
    return build_template(lang, 0, players, filled, settings, extra)


def _game_row(data: GameData, lang: str, columns: Sequence[str]) -> list[object]:
    """One «Игры» row in the order of `columns`."""
    values: dict[str, object] = {
        "game": _number_or_text(data.game),
        "round": _number_or_text(_plain(data.round)),
        "table": _number_or_text(_plain(data.table)),
        "judge": data.judge or None,
        "result": display_value("result", data.result, lang) if data.result else None,
        "ended": data.ended,
        "departures": _departures_text(data, lang),
    }
    return [values.get(column) for column in columns]


def _departures_text(data: GameData, lang: str) -> str | None:
    return display_value("departures", data.departures, lang) if data.departures else None


def _seat_rows(games: Sequence[GameData], lang: str) -> list[list[object]]:
    """Ten «Протокол» rows a game, in the columns' order."""
    columns = written_columns("seats")
    rows = []
    for data in games:
        for number, seat in enumerate(data.seats, start=1):
            values: dict[str, object] = {
                "game": _number_or_text(data.game),
                "seat": number,
                "player": seat.player or None,
                "role": display_value("role", seat.role, lang) if seat.role else None,
                "fouls": seat.fouls or None,
                "left": display_value("left", seat.left, lang) if seat.left else None,
                "when": phase_name(seat.when, lang) if seat.when else None,
                "best_move": " ".join(map(str, seat.best_move)) or None,
                "bonus": _bonus_text(seat.bonus, lang),
                "table": _number_or_text(_plain(data.table)),
            }
            rows.append([values.get(column) for column in columns])
    return rows


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
    """The few cell styles of a game sheet."""

    box = Style(border=1, border_color="#808080")
    title = Style(bold=True, font_size=16, align="center")
    label = Style(bold=True)
    head = Style(
        border=1,
        border_color="#808080",
        bold=True,
        bg_color=f"#{HEADER_FILL}",
        pattern=1,
        align="center",
        text_wrap=True,
    )
    seat = Style(border=1, border_color="#808080", align="center")


def _blank_book(
    games: Sequence[GameData],
    lang: str,
    players: Sequence[PlayerRow],
    side: list[tuple[str, list[list[object]]]],
    settings: dict[str, Any] | None,
) -> bytes:
    # every text is written as text: a nickname such as `=1+1` or `http://…` stays as typed
    with open_book(streamed=False) as book:
        names: list[str] = []
        for data in games:
            _blank_sheet(book, names, data, lang, players)
        _write_side_sheets(book, names, side, lang, settings)
        return book.close()


def _write_side_sheets(
    book: Book,
    names: list[str],
    sheets: list[tuple[str, list[list[object]]]],
    lang: str,
    settings: dict[str, Any] | None,
) -> None:
    """Settings, roster, protests and lot, values as typed; with `settings`, the template's
    own «Турнир» sheet first."""
    if settings is not None:
        settings_sheet(book.sheet(_unique(names, SHEETS["tournament"](lang))), lang, settings)
    for name, rows in sheets:
        sheet = book.sheet(_unique(names, name))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                _put(sheet, r, c, value, None)


def _unique(names: list[str], name: str) -> str:
    """The sheet's name, numbered on as Excel and openpyxl number a name already taken
    (case-insensitively): `Игра 1`, `Игра 11`, `Игра 12` …

    >>> _unique(["Игроки"], "игроки"), _unique(["A", "A1", "A3"], "a")
    ('игроки1', 'a4')
    """
    if any(taken.casefold() == name.casefold() for taken in names):
        pattern = re.compile(f"{re.escape(name)}(\\d*),?", re.I)
        counts = [int(n) for n in pattern.findall(",".join(names)) if n.isdigit()]
        name = f"{name}{max(counts, default=0) + 1}"
    names.append(name)
    return name


# a date or time as openpyxl writes it (the other layouts' side sheets)
_DATE_FORMATS = (
    (dt.datetime, "yyyy-mm-dd h:mm:ss"),
    (dt.date, "yyyy-mm-dd"),
    (dt.time, "h:mm:ss"),
    (dt.timedelta, "[hh]:mm:ss"),
)


def _put(sheet: Sheet, r: int, c: int, value: object, style: Style | None) -> None:
    """One cell by its type (0-based row and column); nothing typed: a bare styled cell."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool | int | float):
        value = float(value)  # numpy's numbers
    if isinstance(value, float) and value != value:
        value = None
    if isinstance(value, dt.date | dt.time | dt.timedelta):
        pattern = next(f for kind, f in _DATE_FORMATS if isinstance(value, kind))
        style = Style(num_format=pattern)
    elif value is not None and not isinstance(value, str | bool | int | float):
        value = str(value)
    sheet.write(r, c, value, style)


def _blank_header(sheet: Sheet, data: GameData, lang: str) -> None:
    f = _BlankFormats
    _merge(sheet, "A1:K1")
    _cell(sheet, "A1", BLANK_TITLE(lang), f.title)
    header: list[tuple[str, str, str, str | None, str]] = [
        ("tournament", "A2", "B2", "B2:E2", ""),
        ("round", "G2", "H2", None, _plain(data.round)),
        ("judge", "I2", "J2", "J2:K2", data.judge),
        ("table", "A3", "B3", None, _plain(data.table)),
        ("game", "C3", "D3", None, data.game),
        ("ended", "G3", "H3", None, data.ended.strftime("%H:%M") if data.ended else ""),
    ]
    if data.departures:  # a platform's game: said on its sheet, where the judge looks
        header.append(("departures", "I3", "J3", "J3:K3", _departures_text(data, lang) or ""))
    for key, label, at, span, value in header:
        if span:  # the whole merged box is drawn, not only its first cell
            _merge(sheet, span, f.box)
        _cell(sheet, label, _L[key](lang), f.label)
        _cell(sheet, at, _number_or_text(value), f.box)


def _blank_seats(sheet: Sheet, data: GameData, lang: str) -> None:
    f = _BlankFormats
    heads = {"A": "seat", "B": "player", "C": "role", "D": "fouls"}
    heads |= {"H": "bonus", "I": "left", "J": "when"}
    _merge(sheet, "D5:G5", f.head)
    for column in "ABCDEFGHIJ":
        _cell(sheet, f"{column}5", _L[heads[column]](lang) if column in heads else None, f.head)
    for index, seat in enumerate(data.seats):
        role = display_value("role", seat.role, lang) if seat.role else None
        values: list[object] = [index + 1, seat.player or None, role]
        values += [MARK if box < seat.fouls else None for box in range(FOUL_BOXES)]
        values += [
            _bonus_text(seat.bonus, lang),
            display_value("left", seat.left, lang) if seat.left else None,
            phase_name(seat.when, lang) if seat.when else None,
        ]
        for c, typed in enumerate(values):
            _put(sheet, 5 + index, c, typed, f.seat)


def _blank_footer(sheet: Sheet, data: GameData, lang: str) -> None:
    f = _BlankFormats
    _merge(sheet, "A17:B17")
    _cell(sheet, "A17", _L["result"](lang), f.label)
    for offset, outcome in enumerate(_RESULTS):
        _put(sheet, 16, 2 + 2 * offset, display_value("result", outcome, lang), None)
        _put(sheet, 16, 3 + 2 * offset, MARK if data.result == outcome else None, f.box)
    _merge(sheet, "A18:B18")
    _cell(sheet, "A18", _L["best_move"](lang), f.label)
    maker = next((n for n, s in enumerate(data.seats, 1) if s.best_move), None)
    named = data.seats[maker - 1].best_move if maker else ()
    for offset in range(3):
        _put(sheet, 17, 2 + offset, named[offset] if offset < len(named) else None, f.box)
    _cell(sheet, "F18", _L["victim"](lang))
    _cell(sheet, "G18", maker, f.box)
    _cell(sheet, "A19", _L["protest"](lang), f.label)
    _merge(sheet, "C19:K19", f.box)  # a line to write the protest's gist on


def _blank_sheet(
    book: Book, names: list[str], data: GameData, lang: str, players: Sequence[PlayerRow]
) -> None:
    table = "" if data.table in (None, "") else f"{_plain(data.table)}"
    name = (
        Text(f"Стол{table}Игра{data.game}", f"Table{table}Game{data.game}")(lang)
        if table
        else Text(f"Игра {data.game}", f"Game {data.game}")(lang)
    )
    sheet = book.sheet(_unique(names, name[:31]))
    _blank_header(sheet, data, lang)
    _blank_seats(sheet, data, lang)
    _blank_footer(sheet, data, lang)
    _blank_dropdowns(sheet, lang, players)
    _blank_print(sheet, name)


def _cell(sheet: Sheet, ref: str, value: object, style: Style | None = None) -> None:
    r, c = cell_position(ref)
    _put(sheet, r, c, value, style)


def _merge(sheet: Sheet, span: str, style: Style | None = None) -> None:
    """Merged cells in `style`; their values are written on their own, as on paper."""
    first, last = (cell_position(ref) for ref in span.split(":"))
    sheet.merge((*first, *last), "", style)


def _blank_dropdowns(sheet: Sheet, lang: str, players: Sequence[PlayerRow]) -> None:
    for column, key in (("C", "role"), ("H", "bonus"), ("I", "left"), ("J", "when")):
        entries = dropdown("seats", key, lang)
        if key == "when":
            entries = entries[:16]  # an inline list has a length limit; Н8 is long enough
        sheet.dropdown(f"{column}6:{column}15", _warning_list(entries, lang))
    names = nickname_list(players)
    if names:
        sheet.dropdown("B6:B15", _warning_list(names, lang))


def _warning_list(entries: Sequence[str], lang: str) -> Dropdown:
    """An inline dropdown that warns, as the row layout's template has them."""
    title, message = (text(lang) for text in LIST_ERROR)
    return Dropdown(tuple(entries), title, message)


BLANK_WIDTHS = (8, 24, 13, 7, 8, 8, 9, 12, 18, 10, 10)  # columns A … K


def _blank_print(sheet: Sheet, name: str) -> None:
    for index, width in enumerate(BLANK_WIDTHS):
        sheet.width(index, index, width)
    for r in range(5, 15):
        sheet.height(r, 24)
    header = "&C" + name.replace("&", "&&")
    sheet.page(Page(landscape=True, fit=(1, 1), header=header, area=(0, 0, 18, 10)))


# ---- one row per game ------------------------------------------------------------------------


WIDE_HEAD = Style(
    bold=True,
    bg_color=f"#{HEADER_FILL}",
    pattern=1,
    align="center",
    border=1,
    border_color="#808080",
)
WIDE_CELL = Style(border=1, border_color="#808080")  # a box to write in, on paper too
WIDE_SCALE = 75  # % of the 11-pt type on paper
# column widths: round, table, game, judge, result, ended; each block of ten; the tail
WIDE_HEAD_WIDTHS = (7, 7, 7, 14, 12, 11)
WIDE_BLOCK_WIDTHS = {"player": 11, "role": 9, "fouls": 7, "bonus": 9, "left": 10, "when": 9}
WIDE_TAIL_WIDTHS = (14, 6, 6, 6)


def _wide_headers(lang: str, partial: bool = False) -> list[object]:
    """The games' columns, the ten nicknames under bare seat numbers, every other block
    naming itself in each header («Роль 3»: no merged group labels), then the tail (with
    «Записаны выбывания» last where a game records only some departures)."""
    codes = ("round", "table", "game", "judge", "result", "ended")
    heads: list[object] = [COLUMNS["games"][c](lang) for c in codes]
    heads += list(range(1, 11))
    for key in _WIDE_BLOCKS[1:]:
        heads += [f"{_WIDE_GROUPS[key](lang)} {n}" for n in range(1, 11)]
    heads += [_L["first_killed"](lang), *(f"{_BEST_MOVE_SEAT(lang)} {n}" for n in (1, 2, 3))]
    return [*heads, _L["departures"](lang)] if partial else heads


def _wide_row(data: GameData, lang: str, partial: bool = False) -> list[object]:
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
    tail = [maker, *(named[i] if i < len(named) else None for i in range(3))]
    return [*values, *tail, *([_departures_text(data, lang)] if partial else [])]


def _wide_dropdowns(sheet: Sheet, lang: str, players: Sequence[PlayerRow], last: int) -> None:
    first = len(WIDE_HEAD_WIDTHS)
    sheet.dropdown(f"E2:E{last}", _warning_list(dropdown("games", "result", lang), lang))
    for block, key in enumerate(_WIDE_BLOCKS[1:], start=1):
        entries = dropdown("seats", key, lang) if key != "fouls" else []
        if key == "when":
            entries = entries[:16]  # an inline list has a length limit; Н8 is long enough
        if entries:
            start = first + 10 * block
            target = f"{cell_name(1, start)}:{cell_name(last - 1, start + 9)}"
            sheet.dropdown(target, _warning_list(entries, lang))
    names = nickname_list(players)
    if names:
        target = f"{cell_name(1, first)}:{cell_name(last - 1, first + 9)}"
        sheet.dropdown(target, _warning_list(names, lang))


def _wide_sheet(
    sheet: Sheet, games: Sequence[GameData], lang: str, players: Sequence[PlayerRow]
) -> None:
    """One row per game. Printed landscape at a fixed scale, block after block on pages
    across (round, table and game repeated on each), header row repeated down."""
    partial = any(g.departures for g in games)
    for c, value in enumerate(_wide_headers(lang, partial)):
        _put(sheet, 0, c, value, WIDE_HEAD)
    for r, data in enumerate(games, start=1):
        for c, value in enumerate(_wide_row(data, lang, partial)):
            _put(sheet, r, c, value, WIDE_CELL)
    widths = [
        *WIDE_HEAD_WIDTHS,
        *(WIDE_BLOCK_WIDTHS[key] for key in _WIDE_BLOCKS for _ in range(10)),
        *WIDE_TAIL_WIDTHS,
        *([14] if partial else []),
    ]
    for c, width in enumerate(widths):
        sheet.width(c, c, width)
    _wide_dropdowns(sheet, lang, players, max(1 + len(games), 200))
    first = len(WIDE_HEAD_WIDTHS)
    blocks = [(first + 10 * b, first + 10 * b + 9) for b in range(len(_WIDE_BLOCKS))]
    blocks.append((first + 10 * len(_WIDE_BLOCKS), len(widths) - 1))
    sheet.page(
        Page(
            landscape=True,
            scale=WIDE_SCALE,
            margins=(0.4, 0.4, 0.6, 0.6),
            header="&C&A",
            footer=f"&C{FOOTER(lang)}",
            repeat_rows=(0, 0),
            repeat_columns=(0, 2),
            freeze=(1, first),
            area=(0, 0, max(len(games), 1), len(widths) - 1),
            column_breaks=column_breaks(widths, blocks, 3, WIDE_SCALE),
        )
    )


# ---- helpers ---------------------------------------------------------------------------------


def _code(value: Any) -> str | None:
    return None if value is None or value != value else str(value)


def _side_sheets(
    protocol: Protocol | None, lang: str, players: Sequence[PlayerRow]
) -> list[tuple[str, list[list[object]]]]:
    """Settings, roster, protests and lot as the row layout keeps them (values as typed);
    without a protocol, the roster of `players`."""
    out: list[tuple[str, list[list[object]]]] = []
    if protocol is None:
        if players:
            rows: list[list[object]] = [
                [COLUMNS["players"][c](lang) for c in written_columns("players")]
            ]
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


def _bonus_text(code: str | Fraction | None, lang: str) -> object:
    """An award as its word, a number as a number (a whole one as an int)."""
    if isinstance(code, Fraction):
        return int(code) if code.denominator == 1 else float(code)
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
