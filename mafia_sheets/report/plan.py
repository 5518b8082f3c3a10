"""The printable seating plan: what the club pins on the wall and hands out.

- `Рассадка` / `Seating` — one A4 landscape page per round: the tables down, seats 1–10
  across, names in large type, and who sits out;
- `По игрокам` / `By player` — every player, their table and seat in every round;
- `Листки` / `Slips` — a slip per player to cut out and hand over: round, table, seat;
- `Качество` / `Quality` — the schedule's figures beside their lower bounds.

Layout only: the schedule and its figures arrive finished from the seating stage.
"""

from __future__ import annotations

import io
from typing import Any

from ..seating.figures import Figures
from ..seating.model import SEATS, Schedule
from ..seating.wording import figures_text
from ..text import Text, name_order
from .xlsx import plain_worksheet, workbook_options

SHEETS = {
    "seating": Text("Рассадка", "Seating"),
    "players": Text("По игрокам", "By player"),
    "slips": Text("Листки", "Slips"),
    "quality": Text("Качество", "Quality"),
}
WORDS = {
    "title": Text("Рассадка — тур {round}", "Seating — round {round}"),
    "table": Text("Стол", "Table"),
    "table_n": Text("Стол {n}", "Table {n}"),
    "out": Text("Не играют: {names}", "Sitting out: {names}"),
    "player": Text("Игрок", "Player"),
    "round_n": Text("Тур {n}", "Round {n}"),
    "where": Text("стол / место", "table / seat"),
    "games": Text("Игр", "Games"),
    "round": Text("Тур", "Round"),
    "seat": Text("Место", "Seat"),
    "resting": Text("не играет", "sits out"),
    "footer": Text("Стр. &P из &N", "Page &P of &N"),
}
SLIPS_ACROSS = 3  # slips side by side on a portrait page
SLIP_ROWS_PER_PAGE = 50  # rows of the default height on portrait A4
FEW_TABLES = 4  # up to this many tables a round, a table is a column in the largest type


def plan_workbook(schedule: Schedule, figures: Figures, lang: str = "ru") -> bytes:
    """The plan as xlsx bytes."""
    import xlsxwriter

    buffer = io.BytesIO()
    with xlsxwriter.Workbook(buffer, workbook_options()) as book:
        book.worksheet_class = plain_worksheet()
        formats = _formats(book)
        _rounds_sheet(book, formats, schedule, lang)
        _players_sheet(book, formats, schedule, lang)
        _slips_sheet(book, formats, schedule, lang)
        _quality_sheet(book, formats, schedule, figures, lang)
    return buffer.getvalue()


def _formats(book: Any) -> dict[str, Any]:
    box = {"border": 1, "valign": "vcenter", "align": "center", "text_wrap": True}
    return {
        "title": book.add_format({"bold": True, "font_size": 22}),
        "head": book.add_format({**box, "bold": True, "font_size": 14, "bg_color": "#DDEBF7"}),
        "name": book.add_format({**box, "font_size": 16}),
        "big": book.add_format({**box, "font_size": 24}),
        "label": book.add_format({**box, "bold": True, "font_size": 14, "bg_color": "#F2F2F2"}),
        "out": book.add_format({"font_size": 13, "text_wrap": True, "valign": "top"}),
        "cell": book.add_format({**box, "font_size": 11}),
        "left": book.add_format({**box, "font_size": 11, "align": "left"}),
        "slip_name": book.add_format({"bold": True, "font_size": 13, "top": 2, "left": 2}),
        "slip_head": book.add_format({"bold": True, "border": 1, "align": "center"}),
        "slip": book.add_format({"border": 1, "align": "center"}),
        "text": book.add_format({"text_wrap": True, "valign": "top"}),
    }


def _print(sheet: Any, lang: str, landscape: bool) -> None:
    sheet.set_paper(9)  # A4
    if landscape:
        sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.5)
    sheet.center_horizontally()
    sheet.set_footer(f"&C{WORDS['footer'](lang)}")


def _rounds_sheet(book: Any, f: dict[str, Any], schedule: Schedule, lang: str) -> None:
    """One page per round. Up to `FEW_TABLES` tables: seats down, tables across, in the
    largest type; more: tables down, seats across."""
    sheet = book.add_worksheet(SHEETS["seating"](lang))
    few = max(len(t) for t in schedule.rounds) <= FEW_TABLES
    widest = max(len(t) for t in schedule.rounds)
    sheet.set_column(0, 0, 9 if few else 11)
    sheet.set_column(1, widest if few else SEATS, 40 if few else 17)
    row, breaks = 0, []
    for r in range(len(schedule.rounds)):
        if r:
            breaks.append(row)
        sheet.set_row(row, 36)
        sheet.write_string(row, 0, WORDS["title"].format(round=r + 1)(lang), f["title"])
        row = (_seats_down if few else _tables_down)(sheet, f, schedule, r, row + 1, lang)
        resting = sorted((schedule.names[p] for p in schedule.out(r)), key=name_order)
        if resting:
            last = widest if few else SEATS
            sheet.set_row(row, 40)
            text = WORDS["out"].format(names=", ".join(resting))(lang)
            sheet.merge_range(row, 0, row, last, text, f["out"])
            row += 1
        row += 1
    sheet.set_h_pagebreaks(breaks)
    _print(sheet, lang, landscape=True)


def _seats_down(
    sheet: Any, f: dict[str, Any], schedule: Schedule, r: int, row: int, lang: str
) -> int:
    """Seats 1–10 down the page, one column per table: the round's rows from `row`."""
    numbers, tables = schedule.table_numbers[r], schedule.rounds[r]
    sheet.set_row(row, 30)
    sheet.write_string(row, 0, "№", f["head"])
    for c, number in enumerate(numbers, start=1):
        sheet.write_string(row, c, WORDS["table_n"].format(n=number)(lang), f["head"])
    for s in range(SEATS):
        sheet.set_row(row + 1 + s, 40)
        sheet.write_number(row + 1 + s, 0, s + 1, f["label"])
        for c, table in enumerate(tables, start=1):
            sheet.write_string(row + 1 + s, c, schedule.names[table[s]], f["big"])
    return row + 1 + SEATS


def _tables_down(
    sheet: Any, f: dict[str, Any], schedule: Schedule, r: int, row: int, lang: str
) -> int:
    """Tables down the page, seats 1–10 across."""
    sheet.write_string(row, 0, WORDS["table"](lang), f["head"])
    for s in range(1, SEATS + 1):
        sheet.write_number(row, s, s, f["head"])
    row += 1
    for number, table in zip(schedule.table_numbers[r], schedule.rounds[r], strict=True):
        sheet.set_row(row, 46)
        sheet.write_string(row, 0, WORDS["table_n"].format(n=number)(lang), f["label"])
        for s, p in enumerate(table, start=1):
            sheet.write_string(row, s, schedule.names[p], f["name"])
        row += 1
    return row


def _players_sheet(book: Any, f: dict[str, Any], schedule: Schedule, lang: str) -> None:
    """A row per player: `table / seat` in every round, `—` when sitting out."""
    sheet = book.add_worksheet(SHEETS["players"](lang))
    rounds = len(schedule.rounds)
    sheet.set_column(0, 0, 24)
    sheet.set_column(1, rounds, 9)
    sheet.set_column(rounds + 1, rounds + 1, 6)
    sheet.set_row(0, 32)
    sheet.write_string(0, 0, WORDS["player"](lang), f["head"])
    for r in range(rounds):
        head = f"{WORDS['round_n'].format(n=r + 1)(lang)}\n{WORDS['where'](lang)}"
        sheet.write_string(0, r + 1, head, f["cell"])
    sheet.write_string(0, rounds + 1, WORDS["games"](lang), f["cell"])
    order = sorted(range(len(schedule.names)), key=lambda p: name_order(schedule.names[p]))
    for row, p in enumerate(order, start=1):
        sheet.write_string(row, 0, schedule.names[p], f["left"])
        games = 0
        for r in range(rounds):
            where = schedule.seat_of(p, r)
            games += where is not None
            sheet.write_string(row, r + 1, f"{where[0]} / {where[1]}" if where else "—", f["cell"])
        sheet.write_number(row, rounds + 1, games, f["cell"])
    sheet.freeze_panes(1, 1)
    sheet.repeat_rows(0)
    _print(sheet, lang, landscape=rounds > 8)


def _slips_sheet(book: Any, f: dict[str, Any], schedule: Schedule, lang: str) -> None:
    """Slips three across: the player's name, then round, table, seat for every round."""
    sheet = book.add_worksheet(SHEETS["slips"](lang))
    rounds = len(schedule.rounds)
    for block in range(SLIPS_ACROSS):
        sheet.set_column(block * 4, block * 4 + 2, 8)
        sheet.set_column(block * 4 + 3, block * 4 + 3, 2)
    order = sorted(range(len(schedule.names)), key=lambda p: name_order(schedule.names[p]))
    per_page = max(1, SLIP_ROWS_PER_PAGE // (rounds + 3))  # a band of slips never splits
    row, breaks = 0, []
    for band_number, start in enumerate(range(0, len(order), SLIPS_ACROSS)):
        if band_number and band_number % per_page == 0:
            breaks.append(row)
        band = order[start : start + SLIPS_ACROSS]
        for block, p in enumerate(band):
            sheet.merge_range(row, block * 4, row, block * 4 + 2, schedule.names[p], f["slip_name"])
        row += 1
        for block in range(len(band)):
            for c, word in enumerate(("round", "table", "seat")):
                sheet.write_string(row, block * 4 + c, WORDS[word](lang), f["slip_head"])
        row += 1
        for r in range(rounds):
            for block, p in enumerate(band):
                where = schedule.seat_of(p, r)
                sheet.write_number(row, block * 4, r + 1, f["slip"])
                if where is None:
                    sheet.merge_range(
                        row, block * 4 + 1, row, block * 4 + 2, WORDS["resting"](lang), f["slip"]
                    )
                else:
                    sheet.write_number(row, block * 4 + 1, where[0], f["slip"])
                    sheet.write_number(row, block * 4 + 2, where[1], f["slip"])
            row += 1
        row += 1
    sheet.set_h_pagebreaks(breaks)
    _print(sheet, lang, landscape=False)


def _quality_sheet(
    book: Any, f: dict[str, Any], schedule: Schedule, figures: Figures, lang: str
) -> None:
    sheet = book.add_worksheet(SHEETS["quality"](lang))
    sheet.set_column(0, 0, 120)
    for row, text in enumerate(figures_text(schedule, figures, lang).split("\n")):
        sheet.write_string(row, 0, text.strip(), f["text"])
    _print(sheet, lang, landscape=True)
