"""Build protocol workbooks for tests: valid games by default, then plant one fault.

`Proto` holds rows as dicts keyed by canonical column codes; `to_bytes` writes them with
RU or EN headers (optionally in another column order) so each test can say exactly what
it changes and where that lands (`Proto.seat_cell(game, seat, column)`).
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass, field
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter

from mafia_sheets import vocab
from mafia_sheets.model import Source
from mafia_sheets.reading import columns as schema

# Seats 3, 7, 9 are black (mafia, don, mafia); seat 5 is the sheriff.
ROLES = {
    1: "Мирный",
    2: "",
    3: "Мафия",
    4: "Мирный",
    5: "Шериф",
    6: "",
    7: "Дон",
    8: "Мирный",
    9: "Мафия",
    10: "",
}
EN_ROLES = {"Мирный": "Civilian", "": "", "Мафия": "Mafia", "Шериф": "Sheriff", "Дон": "Don"}

# seat → (left, when) for a game that ends as the key says.
FLOWS = {
    # reds vote out every black: 3 (Д1), 7 (Д2), 9 (Д3); mafia kill 1 (Н1), 2 (Н2)
    "Красные": {
        3: ("заголосован", "Д1"),
        1: ("убит", "Н1"),
        7: ("заголосован", "Д2"),
        2: ("убит", "Н2"),
        9: ("заголосован", "Д3"),
    },
    # reds lose 1 (Д1), 2 (Н1), 4 (Д2), 5 (Н2): 3 reds against 3 blacks
    "Чёрные": {
        1: ("заголосован", "Д1"),
        2: ("убит", "Н1"),
        4: ("заголосован", "Д2"),
        5: ("убит", "Н2"),
    },
    # two departures, then the game stays open: a draw (situation 9, after the last departure)
    "Ничья": {1: ("заголосован", "Д1"), 2: ("убит", "Н1")},
}
EN_VALUES = {
    "Красные": "Red",
    "Чёрные": "Black",
    "Ничья": "Draw",
    "убит": "killed",
    "заголосован": "voted out",
    "4 фола": "fouled out",
    "дисквалифицирован": "disqualified",
    "ЛИ": "BP",
    "ЛИ2": "BP2",
    "ЛИП": "BPL",
    "да": "yes",
    "нет": "no",
    "отклонён": "rejected",
    "на рассмотрении": "pending",
    "удовлетворён": "upheld",
    "главный судья": "chief judge",
}


@dataclass
class Proto:
    games: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] | None = None
    settings: list[tuple[str, Any]] | None = None
    protests: list[dict[str, Any]] | None = None
    lot: list[dict[str, Any]] | None = None

    def add_game(
        self,
        game: Any,
        names: list[str],
        result: str = "Красные",
        ended: Any = dt.time(20, 0),
        **extra: Any,
    ) -> None:
        """A valid game: roles of ROLES, the departures of FLOWS[result]."""
        self.games.append({"game": game, "result": result, "ended": ended, **extra})
        flow = FLOWS.get(result, {})
        for seat, name in enumerate(names, start=1):
            left, when = flow.get(seat, ("", ""))
            self.seats.append(
                {
                    "game": game,
                    "seat": seat,
                    "player": name,
                    "role": ROLES[seat],
                    "fouls": "",
                    "left": left,
                    "when": when,
                    "best_move": "",
                    "bonus": "",
                }
            )

    def seat(self, game: Any, seat: int) -> dict[str, Any]:
        return next(r for r in self.seats if r["game"] == game and r["seat"] == seat)

    def seat_row(self, game: Any, seat: int) -> int:
        """The Excel row of a seat in the «Протокол» sheet (header in row 1)."""
        index = next(i for i, r in enumerate(self.seats) if r["game"] == game and r["seat"] == seat)
        return index + 2

    def game_row(self, game: Any) -> int:
        return next(i for i, r in enumerate(self.games) if r["game"] == game) + 2

    def to_bytes(self, lang: str = "ru", order: dict[str, list[str]] | None = None) -> bytes:
        workbook = openpyxl.Workbook()
        workbook.remove(workbook.active)
        sheets = [
            ("tournament", self._settings_rows()),
            ("players", self.players),
            ("games", self.games),
            ("seats", self.seats),
            ("protests", self.protests),
            ("lot", self.lot),
        ]
        for code, rows in sheets:
            if rows is None:
                continue
            columns = (order or {}).get(code) or _columns(code, rows)
            sheet = workbook.create_sheet(vocab.SHEETS[code](lang))
            sheet.append([schema.COLUMNS[code][c](lang) for c in columns])
            for row in rows:
                sheet.append([_value(row.get(c, ""), lang) for c in columns])
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()

    def source(self, lang: str = "ru", name: str = "protocol.xlsx") -> Source:
        return Source(name, self.to_bytes(lang))

    def _settings_rows(self) -> list[dict[str, Any]] | None:
        if self.settings is None:
            return None
        return [{"setting": k, "value": v} for k, v in self.settings]


def _columns(code: str, rows: list[dict[str, Any]]) -> list[str]:
    """The template's columns, and any other declared column a row fills."""
    return [
        c
        for c, column in schema.SCHEMA[code].items()
        if column.template or any(c in row for row in rows)
    ]


def _value(value: Any, lang: str) -> Any:
    if lang == "en" and isinstance(value, str):
        return EN_VALUES.get(value, EN_ROLES.get(value, _en_phase(value)))
    return value


def _en_phase(value: str) -> str:
    ordinal = vocab.parse_phase(value) if value[:1] in "ДН" else None
    return vocab.phase_name(ordinal, "en") if ordinal else value


def names(prefix: str, count: int = 10, start: int = 1) -> list[str]:
    return [f"{prefix}{i}" for i in range(start, start + count)]


def column_letter(code: str, column: str, order: dict[str, list[str]] | None = None) -> str:
    columns = (order or {}).get(code) or list(schema.COLUMNS[code])
    return get_column_letter(columns.index(column) + 1)


def seat_cell(proto: Proto, game: Any, seat: int, column: str) -> str:
    return f"{column_letter('seats', column)}{proto.seat_row(game, seat)}"


def game_cell(proto: Proto, game: Any, column: str) -> str:
    return f"{column_letter('games', column)}{proto.game_row(game)}"


def formulas_as_text(data: bytes) -> bytes:
    """The workbook with every `=…` value stored as text, as Excel keeps a nickname typed
    `'=Кот`: openpyxl's `append` would otherwise save it as a formula."""
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    cell.data_type = "s"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def check_findings(*protos: Proto, lang: str = "ru") -> list[Any]:
    """Every finding of `check` over the protocols (several = one season, files p1.xlsx …)."""
    from mafia_sheets.pipeline import evaluate

    sources = [
        p.source(lang, name=f"p{i}.xlsx" if len(protos) > 1 else "protocol.xlsx")
        for i, p in enumerate(protos, start=1)
    ]
    return list(evaluate(sources, rate=False).findings)


def placed(findings: list[Any]) -> list[tuple[str, str, str, str]]:
    """(code, severity, sheet, cell) of each finding: what a planted-fault test compares."""
    return [(f.code, f.severity, f.sheet, f.cell) for f in findings]


def sheet_name(code: str, lang: str = "ru") -> str:
    return vocab.SHEETS[code](lang)


def set_departures(proto: Proto, game: Any, departures: dict[int, tuple[str, str]]) -> None:
    """Replace a game's departures: seat → (left, when); every other seat stays to the end."""
    for seat in range(1, 11):
        left, when = departures.get(seat, ("", ""))
        row = proto.seat(game, seat)
        row["left"], row["when"] = left, when


def red_then_black() -> Proto:
    """Two valid games — game 1 a red win, game 2 a black win — with a best move in game 1
    (seat 1, killed on night 1, names the three blacks 3, 7, 9)."""
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Чёрные")
    proto.seat(1, 1)["best_move"] = "3 7 9"
    return proto
