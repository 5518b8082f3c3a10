"""One sheet as a grid of cells for the layouts that are read by their labels.

A game sheet («бланк») or a sheet of one row per game is small and irregular: fields sit
wherever the club's template put them, labels are merged over several cells or carry
their value in the same cell (`Стол № 2`). :class:`Grid` answers the questions those
readers ask — the text of a cell, its Excel address, the next filled cell to the right,
the extent of a merge — and :class:`Records` collects the rows they find, each value with
its own sheet and cell, into the raw tables the rest of the product reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .. import vocab
from ..model import Places
from .raw import RawSheet, column_letter
from .values import seats_of

# What a judge writes in a box or beside a printed option to mark it; sticks «I», «II»
# (a Latin I, a Cyrillic «І», an «l» or a «|» each) count one mark a stick.
MARKS = frozenset(
    {
        "x",
        "х",
        "+",
        "v",
        "✓",
        "✔",
        "☑",
        "☒",
        "✗",
        "✘",
        "*",
        "●",
        "■",
        "1",
        "да",
        "yes",
        "so",
        "/",
        "\\",
        "|",
        "++",
        "i",
        "і",
        "l",
    }
)
STICKS = frozenset("iіl|")
# A night without a kill, a day without a vote-out.
NOTHING = frozenset(
    {"", "-", "–", "—", "0", "промах", "нет", "miss", "no", "x", "х", "пусто", "промах.", "none"}
)

_MEMO_MAX = 65_536  # bound of the by-text memos below: cleared when full
_LETTERS: list[str] = []  # column index → Excel letters, grown as sheets need them


def _letter(index: int) -> str:
    if index >= len(_LETTERS):
        _LETTERS.extend(column_letter(i) for i in range(len(_LETTERS), index + 1))
    return _LETTERS[index]


_ADDRESS = re.compile(r"([A-Z]+)(\d+)")
Merge = tuple[tuple[int, int], tuple[int, int]]  # ((top, left), (bottom, right)), 0-based


class Grid:
    """The cells of one sheet as its reader gives them, addressed by 0-based (row, column)
    from the sheet's first used cell; merges and hidden columns as the workbook keeps them.

    Every layout reader is handed the same grid: it is made once per sheet."""

    def __init__(
        self,
        name: str,
        cells: list[list[object]],
        start: tuple[int, int] | None = None,
        merges: Sequence[Merge] = (),
        hidden: frozenset[int] = frozenset(),
    ) -> None:
        self.name = name
        self.cells = cells
        self.row0, self.col0 = start or (0, 0)
        self.height = len(self.cells)
        self.width = max(map(len, self.cells), default=0)
        self.merges = tuple(merges)  # as the workbook keeps them (absolute, 0-based)
        self.hidden = hidden  # 0-based absolute indices of hidden columns
        self.memo: dict[str, object] = {}  # what a reader found once, for the next to reuse
        self._merge_end: dict[tuple[int, int], tuple[int, int]] = {}
        for (top, left), (bottom, right) in self.merges:
            self._merge_end[(top - self.row0, left - self.col0)] = (
                bottom - self.row0,
                right - self.col0,
            )

    @classmethod
    def of(
        cls,
        name: str,
        sheet: object,
        hidden: frozenset[int] = frozenset(),
        merges: list[tuple[tuple[int, int], tuple[int, int]]] | None = None,
    ) -> Grid:
        """A grid of one python-calamine sheet (`CalamineSheet`); `merges` where the scan
        read them (python-calamine gives none for an .ods)."""
        cells: list[list[object]] = sheet.to_python()  # type: ignore[attr-defined]
        start = getattr(sheet, "start", None)
        if merges is None:
            merges = list(getattr(sheet, "merged_cell_ranges", None) or ())
        return cls(name, cells, start, merges, hidden)

    @cached_property
    def texts(self) -> list[tuple[int, int, str]]:
        """Every text cell once: (row, column, text), in reading order."""
        return [(r, c, v) for r, c, v in self.full if v.__class__ is str]

    @cached_property
    def full(self) -> list[tuple[int, int, object]]:
        """Every filled cell once: (row, column, value), in reading order. Empty rows are
        passed over in C (`count`), empty cells (calamine's `''`) without a call each."""
        out: list[tuple[int, int, object]] = []
        for r, row in enumerate(self.cells):
            if row.count("") == len(row):
                continue
            for c, v in enumerate(row):
                if v != "" and v is not None and (v.__class__ is not str or v.strip()):
                    out.append((r, c, v))
        return out

    def value(self, r: int, c: int) -> object:
        if 0 <= r < self.height and 0 <= c < len(self.cells[r]):
            value = self.cells[r][c]
            return "" if value is None else value
        return ""

    def blank(self, r: int, c: int) -> bool:
        if 0 <= r < self.height:
            row = self.cells[r]
            if 0 <= c < len(row):
                value = row[c]
                return (
                    value is None or value == "" or (value.__class__ is str and not value.strip())
                )
        return True

    def address(self, r: int, c: int) -> str:
        return f"{_letter(self.col0 + c)}{self.row0 + r + 1}"

    def cell_of(self, address: str) -> tuple[int, int]:
        """The (row, column) of an address on this sheet: `'D14'` → its grid position."""
        match = _ADDRESS.match(address)
        if match is None:
            return 0, 0
        column = 0
        for ch in match.group(1):
            column = column * 26 + ord(ch) - 64
        return int(match.group(2)) - 1 - self.row0, column - 1 - self.col0

    def letter(self, c: int) -> str:
        """The Excel letters of column `c`."""
        return _letter(self.col0 + c)

    def excel_row(self, r: int) -> int:
        return self.row0 + r + 1

    def right_end(self, r: int, c: int) -> int:
        """The last column of the merge that starts at (r, c); c itself when not merged."""
        return self._merge_end.get((r, c), (r, c))[1]

    def bottom_end(self, r: int, c: int) -> int:
        """The last row of the merge that starts at (r, c); r itself when not merged."""
        return self._merge_end.get((r, c), (r, c))[0]

    def filled(self) -> Iterator[tuple[int, int, object]]:
        return iter(self.full)

    def is_empty(self) -> bool:
        return self.first_filled() is None

    def first_filled(self) -> tuple[int, int] | None:
        """(row, column) of the first filled cell — the first of :attr:`Grid.full` — found
        without listing the others (a big sheet's list is long)."""
        for r, row in enumerate(self.cells):
            if row.count("") == len(row):
                continue
            for c, v in enumerate(row):
                if v != "" and v is not None and (v.__class__ is not str or v.strip()):
                    return r, c
        return None

    def next_filled(self, r: int, c: int, limit: int = 6) -> tuple[int, int] | None:
        """The first filled cell right of (r, c), past the cell's own merge, within `limit`."""
        start = self.right_end(r, c) + 1
        for column in range(start, min(self.width, start + limit)):
            if not self.blank(r, column):
                return r, column
        return None


def mark(value: object) -> bool:
    """A box marked by hand: «x», «+», «1», «✓» …"""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value == 1
    if isinstance(value, str):
        folded = _FOLDED.get(value)
        if folded is None:
            folded = vocab.fold(value)
            if len(_FOLDED) >= _MEMO_MAX:
                _FOLDED.clear()
            _FOLDED[value] = folded
        return folded in MARKS
    return vocab.fold(value) in MARKS


_FOLDED: dict[str, str] = {}  # vocab.fold by text: game sheets repeat their marks


@dataclass
class Records:
    """Rows of one canonical table gathered from many sheets, each value with its cell.

    Rows are kept as given and turned into columns once, when the columns are asked for
    (a column a row lacks is `''` there), rather than column by column on every row.
    """

    code: str
    sheets: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    _values: list[dict[str, tuple[object, str]]] = field(default_factory=list, repr=False)
    _built: tuple[dict[str, list[object]], dict[str, list[str]]] | None = field(
        default=None, repr=False
    )

    def add(self, sheet: str, row: int, values: dict[str, tuple[object, str]]) -> None:
        """One data row: `values` maps a column code to (value as typed, its cell); the
        dict is kept, not copied."""
        self.sheets.append(sheet)
        self.rows.append(row)
        self._values.append(values)
        self._built = None

    @property
    def columns(self) -> dict[str, list[object]]:
        """Column code → the values of every row, in the order the columns first came."""
        return self._build()[0]

    @property
    def cells(self) -> dict[str, list[str]]:
        """Column code → each row's cell of that value (`''` when it has none)."""
        return self._build()[1]

    def _build(self) -> tuple[dict[str, list[object]], dict[str, list[str]]]:
        if self._built is None:
            order: dict[str, object] = {}
            for values in self._values:
                order.update(values)  # keys only: first appearance fixes a column's place
            empty = ("", "")
            columns: dict[str, list[object]] = {}
            cells: dict[str, list[str]] = {}
            for column in order:
                located = [values.get(column, empty) for values in self._values]
                columns[column] = [value for value, _ in located]
                cells[column] = [cell for _, cell in located]
            self._built = columns, cells
        return self._built

    def extend(self, other: Records) -> None:
        for index in range(len(other.sheets)):
            self.add(
                other.sheets[index],
                other.rows[index],
                {c: (other.columns[c][index], other.cells[c][index]) for c in other.columns},
            )

    def __len__(self) -> int:
        return len(self.sheets)

    def raw_sheet(self, name: str) -> RawSheet:
        """The raw table: `_row` keys 1 … n, every value located through :class:`Places`."""
        places = Places(
            tuple(self.sheets),
            tuple(self.rows),
            {c: tuple(cells) for c, cells in self.cells.items()},
        )
        return RawSheet(
            self.code,
            name,
            0,
            {},
            {c: list(v) for c, v in self.columns.items()},
            list(range(1, len(self) + 1)),
            places,
        )


def from_raw(raw: RawSheet) -> Records:
    """A row-layout sheet as records, to be merged with games read from other layouts."""
    records = Records(raw.code)
    for index in range(len(raw.rows)):
        sheet, _, row = raw.locate("", index)
        records.add(
            sheet, row, {c: (raw.columns[c][index], raw.locate(c, index)[1]) for c in raw.columns}
        )
    return records


# seats_in's answers by cell value: game sheets repeat the same seat numbers. Bounded.
_SEATS: dict[object, tuple[int, ...] | None] = {}


def seats_in(text: object) -> list[int] | None:
    """Seat numbers written in one cell: `7`, `3 7`, `3,7`, and `37` for seats 3 and 7
    (as judges write a double vote-out in one box); None when it is not seats."""
    if isinstance(text, bool):
        return None
    if text.__class__ in (str, int, float):  # 3 and 3.0 are one key: one answer too
        found = _SEATS.get(text, _UNKNOWN)
        if found is _UNKNOWN:
            answer = _seats_in(text)
            if len(_SEATS) >= _MEMO_MAX:
                _SEATS.clear()
            found = _SEATS[text] = None if answer is None else tuple(answer)
        return None if found is None else list(found)
    return _seats_in(text)


_UNKNOWN: tuple[int, ...] = (-1,)  # not asked yet


def _seats_in(text: object) -> list[int] | None:
    if isinstance(text, int | float):
        if isinstance(text, float) and not text.is_integer():
            return None
        number = int(text)
        text = str(number)
    folded = vocab.fold(text)
    if folded in NOTHING:
        return []
    parts = [p for p in re.split(r"[\s,;/.+]+", folded) if p]
    if not parts or not all(p.isdigit() for p in parts):
        return None
    seats: list[int] = []
    for part in parts:
        seats.extend(seats_of(part))
    return seats if all(1 <= s <= 10 for s in seats) else None
