"""The raw tables every layout reader ends in: one canonical sheet's columns as typed, each
value with its place (sheet and cell), before `parse` types them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..findings import Finding
from ..model import HeaderRead, Places, Reading
from .cellref import column_letter

__all__ = ["GameSheet", "Located", "RawSheet", "RawWorkbook", "SheetRead", "column_letter"]

Located = tuple[object, str]  # a value as typed and its cell ("" when it has none)


@dataclass(frozen=True)
class RawSheet:
    """One recognised sheet: its header position and its data columns, as read."""

    code: str
    name: str
    header_row: int  # 1-based Excel row of the header
    letters: dict[str, str]  # column code → Excel letter
    columns: dict[str, list[object]]  # column code → values of the data rows
    rows: list[int]  # 1-based Excel row of each data row (blank rows removed)
    places: Places | None = None  # the other layouts: each value's own sheet and cell

    def locate(self, column: str, index: int) -> tuple[str, str, int]:
        """(sheet, cell, Excel row) of `column`'s value in data row `index` (0-based)."""
        if self.places is not None:
            return self.places.locate(column, self.rows[index])
        letter = self.letters.get(column)
        row = self.rows[index]
        return self.name, f"{letter}{row}" if letter else "", row


@dataclass(frozen=True)
class RawWorkbook:
    source: str
    sheets: dict[str, RawSheet]
    sheet_names: tuple[str, ...]  # every sheet of the workbook, in order
    headers: tuple[HeaderRead, ...] = ()  # how every header cell was read
    reading: Reading | None = None  # the layout the games were found in
    fields: dict[str, str] | None = None  # what game sheets say of the whole tournament


@dataclass
class GameSheet:
    """One game as a game sheet or a game row holds it, every value with its cell.

    `header` holds the game's fields (`game`, `result`, `round` …), `seats` the ten seat
    rows' (`seat`, `player`, `role` …); `fields` what the sheet says beyond one game (its
    tournament's name)."""

    sheet: str
    header: dict[str, Located] = field(default_factory=dict)
    seats: list[dict[str, Located]] = field(default_factory=list)
    seat_rows: list[int] = field(default_factory=list)  # Excel row of each seat row
    first_row: int = 1  # Excel row of the result / game fields, for sorting
    findings: list[Finding] = field(default_factory=list)
    played: bool = True
    unread: int = 0  # cells of the sheet (or row) that were not read, reported


@dataclass
class SheetRead:
    """What one layout reader made of one sheet: a protocol sheet's columns (the row
    layout) or the games it holds (the others), the findings met and how each header
    cell was read."""

    sheet: str
    layout: str
    code: str | None = None  # the protocol sheet it is (`games`, `seats` …), row layout
    raw: RawSheet | None = None
    games: list[GameSheet] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    headers: list[HeaderRead] = field(default_factory=list)
