"""A sheet read by its labels, cell by cell: every filled cell is read as a field or
reported, never skipped in silence.

:class:`Page` is what the game-sheet and game-row readers share while they read one
sheet: the cells they have taken (a label, the value beside it, a seat row's boxes), the
cells recognised but not counted (the sheriff's checks, the judge's own sums) with the
reason, and the findings. When the reading is done, :func:`report_unread` lists every
filled cell nobody took in one warning per sheet, at its cells («не прочитано: J6 «ЛХ»,
K6:M6 «3», «5», «7»»). A title and the product's own printed help are layout, not data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..findings import Finding, define, finding
from ..text import Plural, Text, cell_text
from .grid import Grid
from .labels import is_title

CELLS_NOT_READ = define(
    "cells-not-read",
    "warning",
    Text("Не прочитано: {cells}", "Not read: {cells}"),
    Text(
        "каждая заполненная ячейка — поле, которое программа читает, с подписью, как в "
        "шаблоне (mafia-sheets template --layout blank)",
        "every filled cell a field the program reads, labelled as the template labels it "
        "(mafia-sheets template --layout blank)",
    ),
    Text(
        "Если здесь записано то, что влияет на итоги (выбывания, лучший ход, доп. баллы), "
        "подпишите поле, как в шаблоне, или перенесите значение в его поле; иначе "
        "замечание можно не исправлять",
        "If these cells hold what changes the standings (departures, the best move, "
        "extra points), label the field as the template does or move the value to its "
        "field; otherwise this warning needs no fix",
    ),
)

GROUPS_LISTED = 12  # the warning lists this many groups of cells, then says how many more
_CELLS = Plural(("ячейка", "ячейки", "ячеек"), ("cell", "cells"))

Cell = tuple[int, int]  # 0-based (row, column) of the grid


@dataclass
class Page:
    """One sheet (or one row of games) while it is read."""

    grid: Grid
    source: str
    used: set[Cell] = field(default_factory=set)  # cells read as a field or a label
    labels: set[Cell] = field(default_factory=set)  # label cells: no field's value
    noted: dict[Cell, Text] = field(default_factory=dict)  # recognised, not counted: why
    findings: list[Finding] = field(default_factory=list)
    # departures read from a phase alone (`Н1` in «Выбыл»): (row, column, phase), said once
    from_phase: list[tuple[int, int, int]] = field(default_factory=list)

    def take(self, r: int, c: int) -> None:
        self.used.add((r, c))

    def taken(self, r: int, c: int) -> bool:
        return (r, c) in self.used or (r, c) in self.noted

    def note(self, r: int, c: int, why: Text) -> None:
        """A filled cell recognised but not counted: listed with `why` among the unread."""
        if (r, c) not in self.used:
            self.noted[(r, c)] = why

    def add(self, code: str, r: int, c: int, value: object = "", **params: Any) -> None:
        grid = self.grid
        cell = grid.address(r, c)
        row = grid.excel_row(r)
        self.findings.append(
            finding(code, grid.name, cell, value, row=row, source=self.source, **params)
        )


def report_unread(page: Page, rows: range | None = None, game: object = None) -> int:
    """One warning listing the filled cells nobody read (within `rows`, when given), at
    the first of them; returns how many cells it lists."""
    grid = page.grid
    used, noted_cells = page.used, page.noted
    left: list[tuple[int, int, object]] = []
    for r, c, value in grid.full:
        if (r, c) in used or (r, c) in noted_cells or (rows is not None and r not in rows):
            continue
        if value.__class__ is str and is_title(value) and _top_text(grid, r, c):
            continue  # the form's own title
        left.append((r, c, value))
    noted = [(r, c, why) for (r, c), why in page.noted.items() if rows is None or r in rows]
    if not left and not noted:
        return 0
    places = sorted([(r, c) for r, c, _ in left] + [(r, c) for r, c, _ in noted])
    first = places[0]
    cells = _listing(grid, left, noted)
    also = [(grid.name, grid.address(r, c)) for r, c in places[1:]]
    page.findings.append(
        finding(
            CELLS_NOT_READ,
            grid.name,
            grid.address(*first),
            cell_text(grid.value(*first)),
            row=grid.excel_row(first[0]),
            source=page.source,
            game=game,
            also=also,
            cells=cells,
        )
    )
    return len(places)


def _top_text(grid: Grid, r: int, c: int) -> bool:
    """A title: no label or value of the form above it in its column."""
    return all(grid.blank(row, c) for row in range(r))


def _listing(
    grid: Grid, left: list[tuple[int, int, object]], noted: list[tuple[int, int, Text]]
) -> Text:
    """`J6 «ЛХ», K6:M6 «3», «5», «7»; I11:I20 (Баллы — баллы считает программа)`."""
    groups: list[tuple[Cell, Text]] = []
    for run in _runs(sorted((r, c) for r, c, _ in left)):
        values = ", ".join(f"«{cell_text(grid.value(r, c))}»" for r, c in run)
        text = f"{_span(grid, run)} {values}"
        groups.append((run[0], Text(text, text)))
    by_reason: dict[Text, list[Cell]] = {}
    for r, c, why in noted:
        by_reason.setdefault(why, []).append((r, c))
    for why, cells in by_reason.items():
        spans = ", ".join(_span(grid, run) for run in _runs(sorted(cells)))
        groups.append((min(cells), Text(f"{spans} ({why.ru})", f"{spans} ({why.en})")))
    groups.sort(key=lambda item: item[0])
    shown = [text for _, text in groups[:GROUPS_LISTED]]
    more = sum(1 for _ in groups[GROUPS_LISTED:])
    tail = Text(f"; и ещё {more}", f"; and {more} more") if more else Text("", "")
    return Text("; ".join(t.ru for t in shown) + tail.ru, "; ".join(t.en for t in shown) + tail.en)


def _runs(cells: list[Cell]) -> list[list[Cell]]:
    """Cells side by side in one row, or single cells one above the other in one column
    (a column of values), as runs."""
    rows: list[list[Cell]] = []
    for cell in sorted(cells):
        if rows and cell == (rows[-1][-1][0], rows[-1][-1][1] + 1):
            rows[-1].append(cell)
        else:
            rows.append([cell])
    runs = [run for run in rows if len(run) > 1]
    for r, c in sorted((run[0] for run in rows if len(run) == 1), key=lambda rc: (rc[1], rc[0])):
        if runs and runs[-1][-1] == (r - 1, c) and all(cc == c for _, cc in runs[-1]):
            runs[-1].append((r, c))
        else:
            runs.append([(r, c)])
    return sorted(runs)


def _span(grid: Grid, run: list[Cell]) -> str:
    first, last = grid.address(*run[0]), grid.address(*run[-1])
    return first if first == last else f"{first}:{last}"


def cells_word(count: int, lang: str) -> str:
    return _CELLS(count, lang)
