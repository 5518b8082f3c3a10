"""Club blanks with randomised arrangements: the same games laid out the ways clubs lay out
the paper form, for the property that the layout never changes the standings.

:func:`club_blanks` writes each game of a tournament on its own sheet, the arrangement
drawn from a seed: the header fields beside, below or in their labels' cells, labels
merged over two cells; the seat grid anywhere on the page with its columns in any order,
roles as letters or words, fouls as a number, marks or sticks in one cell, marked boxes or
boxes numbered 1, 2, 3; the result written beside or under its label or marked beside
printed options; the best move in one cell or three, below the grid, beside the seat rows
or in the right half, its maker after «Игрок №», first of four numbers or left to the
night-1 kill; departures in the grid, as rows of kills by night and votes by day (numbers
above, printed in the label's row, in each cell, or none), or as a column block beside
the grid; a disqualification and a fourth foul where the paper has no place for their
phase. Labels are drawn from every spelling the vocabulary declares.

:class:`Blanks` also says where each field was written (its label and value cells), so
that a test can rename a label and check that every cell of that field is then reported.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from openpyxl import Workbook

from ..reading.columns import SCHEMA, SHEET_FIELDS
from ..template.layouts import GameData, SeatData
from ..vocab import display_value, phase_name

Cell = tuple[int, int]  # 0-based row, column


@dataclass
class Placed:
    """Where one field was written on one sheet: its label cell and its value cells."""

    label: Cell | None
    values: list[Cell] = field(default_factory=list)


@dataclass
class Blanks:
    """A workbook of game sheets and, per sheet, where each field went."""

    data: bytes
    fields: dict[str, dict[str, Placed]]  # sheet → field → where


def club_blanks(games: Sequence[GameData], seed: int, lang: str = "ru") -> Blanks:
    """One sheet a game, each arranged as the seed draws it (see the module's text)."""
    rng = random.Random(seed)
    book = Workbook()
    book.remove(book.worksheets[0])
    placed: dict[str, dict[str, Placed]] = {}
    for index, game in enumerate(games, 1):
        sheet = _Sheet(rng, lang)
        sheet.write_game(game)
        ws = book.create_sheet(f"Бланк {index}")
        for (r, c), value in sheet.cells.items():
            ws.cell(r + 1, c + 1, value)
        for (r, c), width in sheet.merges:
            ws.merge_cells(start_row=r + 1, start_column=c + 1, end_row=r + 1, end_column=c + width)
        placed[ws.title] = sheet.fields
    buffer = io.BytesIO()
    book.save(buffer)
    return Blanks(buffer.getvalue(), placed)


_ROLE_LETTERS = {
    "ru": {"sheriff": "Ш", "mafia": "М", "don": "Д"},
    "en": {"sheriff": "S", "mafia": "M", "don": "D"},
}
_BONUS_NUMBERS = {"bp": 1, "bp2": 0.5, "bpl": 0.5}
_KIND_WORDS = {
    "killed": "killed",
    "voted": "voted",
    "fouled": "fouled",
    "disqualified": "disqualified",
}
_OPTIONS = ("red", "black", "draw")


class _Sheet:
    """One game sheet being laid out: cells, merges and where each field went."""

    def __init__(self, rng: random.Random, lang: str) -> None:
        self.rng = rng
        self.lang = lang
        self.cells: dict[Cell, object] = {}
        self.merges: list[tuple[Cell, int]] = []
        self.fields: dict[str, Placed] = {}

    # ---- helpers ----------------------------------------------------------------------

    def label(self, name: str, level: str = "game") -> str:
        """One of the field's declared spellings, drawn at random (safe ones only)."""
        options = [s for s in _spellings(name, level) if _usable(s, name)]
        return self.rng.choice(options)

    def put(self, at: Cell, value: object, name: str | None = None, is_label: bool = False) -> None:
        if value is None or value == "":
            return
        self.cells[at] = value
        if name is not None:
            place = self.fields.setdefault(name, Placed(None))
            if is_label:
                place.label = at
            else:
                place.values.append(at)

    def labelled(self, at: Cell, name: str, value: object, style: str) -> None:
        """A header field: value beside (maybe past a merged label), below, or inline."""
        r, c = at
        text = self.label(name)
        if style == "inline" and value not in (None, ""):
            self.put(at, f"{text} {value}", name, is_label=True)
            self.fields[name].values.append(at)
            return
        self.put(at, text, name, is_label=True)
        if style == "below":
            self.put((r + 1, c), value, name)
        elif style == "merged":
            self.merges.append((at, 2))
            self.put((r, c + 2), value, name)
        else:
            self.put((r, c + 1), value, name)

    # ---- the sheet ----------------------------------------------------------------------

    def write_game(self, game: GameData) -> None:
        rng = self.rng
        self.put((0, 0), {"ru": "ПРОТОКОЛ ИГРЫ", "en": "GAME PROTOCOL"}[self.lang])
        self.merges.append(((0, 0), 6))
        style = rng.choice(("beside", "below", "inline", "merged"))
        step = 3 if style in ("beside", "merged") else 2
        header = [("game", game.game), ("table", game.table), ("judge", game.judge)]
        if game.round not in (None, ""):
            header.append(("round", game.round))
        for offset, (name, value) in enumerate(header):
            at = (1, offset * step) if style != "beside" or offset < 2 else (2, (offset - 2) * step)
            self.labelled(at, name, value, style)
        g0, gc = 4 + rng.randint(0, 2), rng.randint(0, 2)
        departures = rng.choice(("grid", "rows", "column"))
        width = self._grid(game, (g0, gc), departures)
        right = gc + width + 1 + rng.randint(0, 1)
        below = g0 + 12
        spots = {"below": (below + 2, gc), "beside": (g0 + 1, right), "half": (g0 + 6, right + 6)}
        self._result(game, (below, gc))
        if departures == "rows":
            where = rng.choice(("below", "half"))
            at = (below + 5, gc) if where == "below" else (g0 + 1, right + 6)
            self._phase_rows(game, at)
        elif departures == "column":
            self._phase_column(game, (g0, right + 7))
        if departures != "grid":
            self._disqualified(game, (g0 + 8, right))
        best_at = spots[rng.choice(("below", "beside")) if departures != "rows" else "beside"]
        self._best_move(game, best_at, kills_known=True)

    def _grid(self, game: GameData, at: Cell, departures: str) -> int:
        """The seat grid at `at`; returns its width in columns."""
        rng = self.rng
        r0, c0 = at
        columns = ["seat", "player", "role", "fouls", "bonus"]
        rng.shuffle(columns)
        columns.remove("player")
        columns.insert(rng.randint(0, 2), "player")
        if departures == "grid":
            columns += ["left", "when"]
        fouls = rng.choice(("number", "marks", "sticks", "boxes", "numbered"))
        roles = rng.choice(("letter", "word"))
        bonus = rng.choice(("code", "number"))
        c = c0
        for name in columns:
            self.put((r0, c), self.label(name, "seat"), name, is_label=True)
            span = 4 if name == "fouls" and fouls in ("boxes", "numbered") else 1
            if span > 1:
                self.merges.append(((r0, c), span))
            for index, seat in enumerate(game.seats, 1):
                self._seat_value((r0 + index, c), name, index, seat, (fouls, roles, bonus))
            c += span
        return c - c0

    def _seat_value(
        self, at: Cell, name: str, seat_no: int, seat: SeatData, how: tuple[str, str, str]
    ) -> None:
        fouls, roles, bonus = how
        lang = self.lang
        value: object = None
        if name == "seat":
            value = seat_no
        elif name == "player":
            value = seat.player
        elif name == "role" and seat.role:
            value = (
                _ROLE_LETTERS[lang][seat.role]
                if roles == "letter"
                else display_value("role", seat.role, lang)
            )
        elif name == "bonus" and seat.bonus:
            if not isinstance(seat.bonus, str):  # a number the edition allows, as typed
                value = float(seat.bonus)
            elif bonus == "number" and seat.bonus in _BONUS_NUMBERS:
                value = _BONUS_NUMBERS[seat.bonus]
            else:
                value = display_value("bonus", seat.bonus, lang)
        elif name == "left" and seat.left:
            value = display_value("left", seat.left, lang)
        elif name == "when" and seat.when:
            value = phase_name(seat.when, lang)
        elif name == "fouls" and seat.fouls:
            self._fouls(at, seat.fouls, fouls)
            return
        self.put(at, value, name)

    def _fouls(self, at: Cell, count: int, how: str) -> None:
        r, c = at
        if how == "number":
            self.put(at, count, "fouls")
        elif how == "marks":
            self.put(at, "x" * count, "fouls")
        elif how == "sticks":
            self.put(at, self.rng.choice(("I", "І", "|")) * count, "fouls")
        else:
            for box in range(count):
                self.put((r, c + box), box + 1 if how == "numbered" else "+", "fouls")

    def _result(self, game: GameData, at: Cell) -> None:
        r, c = at
        how = self.rng.choice(("beside", "below", "marked"))
        self.put(at, self.label("result"), "result", is_label=True)
        if game.result is None:
            return
        word = display_value("result", game.result, self.lang)
        if how == "beside":
            self.put((r, c + 2), word, "result")
        elif how == "below":
            self.put((r + 1, c), word, "result")
        else:
            for offset, outcome in enumerate(_OPTIONS):
                self.put((r, c + 2 + 2 * offset), display_value("result", outcome, self.lang))
                if outcome == game.result:
                    self.put((r, c + 3 + 2 * offset), "x", "result")

    def _best_move(self, game: GameData, at: Cell, kills_known: bool) -> None:
        maker = next((n for n, s in enumerate(game.seats, 1) if s.best_move), None)
        r, c = at
        self.put(at, self.label("best_move"), "best_move", is_label=True)
        if maker is None:
            return
        named = list(game.seats[maker - 1].best_move)
        how = self.rng.choice(("three", "one", "four", "victim"))
        if how == "one":
            self.put((r, c + 1), " ".join(map(str, named)), "best_move")
        elif how == "four":
            for offset, seat in enumerate([maker, *named]):
                self.put((r, c + 1 + offset), seat, "best_move")
        else:
            for offset, seat in enumerate(named):
                self.put((r, c + 1 + offset), seat, "best_move")
            if how == "victim" or not kills_known:
                self.put((r, c + 4), {"ru": "Игрок №", "en": "Player #"}[self.lang])
                self.put((r, c + 5), maker, "best_move")

    def _phase_rows(self, game: GameData, at: Cell) -> None:
        """Kills by night and votes by day, as rows, their phases numbered some way."""
        r, c = at
        for offset, (name, kind, day) in enumerate(
            (("kills", "killed", False), ("votes", "voted", True))
        ):
            row = r + 3 * offset
            self.put((row, c), self.label(name), name, is_label=True)
            by = _by_number(game, kind, day)
            last = max(by, default=0)
            numbers = self.rng.choice(("above", "label_row", "none", "cells"))
            if numbers in ("above", "label_row"):  # printed on the form: all nine of them
                for n in range(1, max(last, 9) + 1):
                    if numbers == "above":
                        self.put((row - 1, c + n), n)
                    else:  # some forms count the days from 0, the first day before a night
                        self.put((row, c + n), n - 1 if day else n)
            for n in range(1, last + 1):
                seats = by.get(n, [])
                text = "".join(map(str, seats)) if seats else "-"
                if numbers == "cells" and seats:
                    phase = phase_name(2 * n - 1 if day else 2 * n, self.lang)
                    text = f"{phase}: {text}"
                target = (row + 1, c + n) if numbers == "label_row" else (row, c + n)
                self.put(target, text if seats or numbers != "cells" else "-", name)

    def _phase_column(self, game: GameData, at: Cell) -> None:
        """«Круг | Убит ночью | Заголосован днём»: one row a round, beside the grid."""
        r, c = at
        kills, votes = _by_number(game, "killed", False), _by_number(game, "voted", True)
        rounds = max([*kills, *votes], default=0)
        self.put(at, {"ru": "Круг", "en": "Round"}[self.lang])
        self.put((r, c + 1), self.label("kills"), "kills", is_label=True)
        self.put((r, c + 2), self.label("votes"), "votes", is_label=True)
        for n in range(1, rounds + 1):
            self.put((r + n, c), n)
            for offset, (name, by) in enumerate((("kills", kills), ("votes", votes)), 1):
                seats = by.get(n, [])
                self.put((r + n, c + offset), "".join(map(str, seats)) if seats else "-", name)

    def _disqualified(self, game: GameData, at: Cell) -> None:
        """The disqualified seats in a box beside the grid: the phase, when the paper has
        a place for it, written with the seat («5 Д3»), else none."""
        r, c = at
        self.put(at, self.label("disqualified"), "disqualified", is_label=True)
        with_phase = self.rng.random() < 0.5
        for offset, (seat_no, seat) in enumerate(
            (n, s) for n, s in enumerate(game.seats, 1) if s.left == "disqualified"
        ):
            text: object = seat_no
            if with_phase and seat.when:
                text = f"{seat_no} {phase_name(seat.when, self.lang)}"
            self.put((r, c + 1 + offset), text, "disqualified")


def _by_number(game: GameData, kind: str, day: bool) -> dict[int, list[int]]:
    """Day (or night) number → the seats that left so in it."""
    out: dict[int, list[int]] = {}
    for seat_no, seat in enumerate(game.seats, 1):
        if seat.left == kind and seat.when:
            number = (seat.when + 1) // 2
            if (seat.when % 2 == 1) == day:
                out.setdefault(number, []).append(seat_no)
    return out


def _spellings(name: str, level: str) -> list[str]:
    if name in SHEET_FIELDS:
        declared = SHEET_FIELDS[name]
        return [declared.name.ru, declared.name.en, *declared.aliases]
    column = SCHEMA["seats" if level == "seat" or name == "best_move" else "games"][name]
    return [column.name.ru, column.name.en, *column.aliases]


# Spellings a form would not print as this field's label: a bare symbol or letter, and the
# words that mean a phase of the day on their own (a form prints them over numbers).
_UNUSED = frozenset(
    {
        "№",
        "#",
        "n",
        "no",
        "ф",
        "ход",
        "ночь",
        "ночи",
        "night",
        "nights",
        "ніч",
        "день",
        "дни",
        "day",
        "days",
        "номер",
    }
)


def _usable(spelling: str, name: str) -> bool:
    return spelling.strip().lower() not in _UNUSED or name == "seat"
