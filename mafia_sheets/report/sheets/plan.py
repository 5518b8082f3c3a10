"""The printable seating plan's sheets (layer 2 of the report: no xlsxwriter here).

- `Рассадка` / `Seating` — one A4 landscape page per round: up to four tables, seats down
  and tables across in the largest type; more tables, tables down and seats across; then
  who sits out;
- `По игрокам` / `By player` — every player, their table and seat in every round;
- `Листки` / `Slips` — a slip per player to cut out and hand over: round, table, seat;
- `Качество` / `Quality` — the schedule's figures beside their lower bounds.
"""

from __future__ import annotations

from dataclasses import replace

from ...seating.figures import Figures
from ...seating.model import SEATS, Schedule
from ...seating.wording import figures_text
from ...text import Text, name_order
from ..engine import Book, Page, Sheet, Style

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
MARGINS = (0.4, 0.4, 0.5, 0.5)

_BOX = Style(border=1, align="center", valign="vcenter", text_wrap=True)


class LOOK:
    """Every cell style of the plan."""

    title = Style(bold=True, font_size=22)
    head = replace(_BOX, bold=True, font_size=14, bg_color="#DDEBF7", pattern=1)
    name = replace(_BOX, font_size=16)
    big = replace(_BOX, font_size=24)
    label = replace(_BOX, bold=True, font_size=14, bg_color="#F2F2F2", pattern=1)
    out = Style(font_size=13, text_wrap=True, valign="top")
    cell = replace(_BOX, font_size=11)
    left = replace(_BOX, font_size=11, align="left")
    slip_name = Style(bold=True, font_size=13, border=1, align="left")
    slip_head = Style(bold=True, border=1, align="center")
    slip = Style(border=1, align="center")
    text = Style(text_wrap=True, valign="top")


def _page(lang: str, **more: object) -> Page:
    return Page(margins=MARGINS, footer=f"&C{WORDS['footer'](lang)}", **more)  # type: ignore[arg-type]


def by_name(schedule: Schedule) -> list[int]:
    return sorted(range(len(schedule.names)), key=lambda p: name_order(schedule.names[p]))


def rounds_sheet(book: Book, schedule: Schedule, lang: str) -> None:
    """One page per round."""
    sheet = book.sheet(SHEETS["seating"](lang))
    widest = max(len(t) for t in schedule.rounds)
    few = widest <= FEW_TABLES
    last = widest if few else SEATS
    sheet.width(0, 0, 9 if few else 11)
    sheet.width(1, last, 40 if few else 17)
    row, breaks = 0, []
    for r in range(len(schedule.rounds)):
        if r:
            breaks.append(row)
        sheet.height(row, 36)
        sheet.text(row, 0, WORDS["title"].format(round=r + 1)(lang), LOOK.title)
        row = (_seats_down if few else _tables_down)(sheet, schedule, r, row + 1, lang)
        resting = sorted((schedule.names[p] for p in schedule.out(r)), key=name_order)
        if resting:
            sheet.height(row, 40)
            text = WORDS["out"].format(names=", ".join(resting))(lang)
            sheet.merge((row, 0, row, last), text, LOOK.out)
            row += 1
        row += 1
    sheet.page(_page(lang, landscape=True, breaks=tuple(breaks)))


def _seats_down(sheet: Sheet, schedule: Schedule, r: int, row: int, lang: str) -> int:
    """Seats 1–10 down the page, one column per table: the round's rows from `row`."""
    sheet.height(row, 30)
    sheet.text(row, 0, "№", LOOK.head)
    for c, number in enumerate(schedule.table_numbers[r], start=1):
        sheet.text(row, c, WORDS["table_n"].format(n=number)(lang), LOOK.head)
    for s in range(SEATS):
        sheet.height(row + 1 + s, 40)
        sheet.number(row + 1 + s, 0, s + 1, LOOK.label)
        for c, table in enumerate(schedule.rounds[r], start=1):
            sheet.text(row + 1 + s, c, schedule.names[table[s]], LOOK.big)
    return row + 1 + SEATS


def _tables_down(sheet: Sheet, schedule: Schedule, r: int, row: int, lang: str) -> int:
    """Tables down the page, seats 1–10 across."""
    sheet.text(row, 0, WORDS["table"](lang), LOOK.head)
    for s in range(1, SEATS + 1):
        sheet.number(row, s, s, LOOK.head)
    row += 1
    for number, table in zip(schedule.table_numbers[r], schedule.rounds[r], strict=True):
        sheet.height(row, 46)
        sheet.text(row, 0, WORDS["table_n"].format(n=number)(lang), LOOK.label)
        for s, p in enumerate(table, start=1):
            sheet.text(row, s, schedule.names[p], LOOK.name)
        row += 1
    return row


def players_sheet(book: Book, schedule: Schedule, lang: str) -> None:
    """A row per player: `table / seat` in every round, `—` when sitting out."""
    sheet = book.sheet(SHEETS["players"](lang))
    rounds = len(schedule.rounds)
    sheet.width(0, 0, 24)
    sheet.width(1, rounds, 9)
    sheet.width(rounds + 1, rounds + 1, 6)
    sheet.height(0, 32)
    sheet.text(0, 0, WORDS["player"](lang), LOOK.head)
    for r in range(rounds):
        head = f"{WORDS['round_n'].format(n=r + 1)(lang)}\n{WORDS['where'](lang)}"
        sheet.text(0, r + 1, head, LOOK.cell)
    sheet.text(0, rounds + 1, WORDS["games"](lang), LOOK.cell)
    for row, p in enumerate(by_name(schedule), start=1):
        sheet.text(row, 0, schedule.names[p], LOOK.left)
        games = 0
        for r in range(rounds):
            where = schedule.seat_of(p, r)
            games += where is not None
            sheet.text(row, r + 1, f"{where[0]} / {where[1]}" if where else "—", LOOK.cell)
        sheet.number(row, rounds + 1, games, LOOK.cell)
    sheet.page(_page(lang, landscape=rounds > 8, repeat_rows=(0, 0), freeze=(1, 1)))


def slips_sheet(book: Book, schedule: Schedule, lang: str) -> None:
    """Slips three across; a band of slips never splits across pages."""
    sheet = book.sheet(SHEETS["slips"](lang))
    rounds = len(schedule.rounds)
    for block in range(SLIPS_ACROSS):
        sheet.width(block * 4, block * 4 + 2, 8)
        sheet.width(block * 4 + 3, block * 4 + 3, 2)
    order = by_name(schedule)
    per_page = max(1, SLIP_ROWS_PER_PAGE // (rounds + 3))
    row, breaks = 0, []
    for band_number, start in enumerate(range(0, len(order), SLIPS_ACROSS)):
        if band_number and band_number % per_page == 0:
            breaks.append(row)
        row = _slips(sheet, schedule, order[start : start + SLIPS_ACROSS], row, lang) + 1
    sheet.page(_page(lang, breaks=tuple(breaks)))


def _slips(sheet: Sheet, schedule: Schedule, band: list[int], row: int, lang: str) -> int:
    """One band of slips side by side from `row`; the row after it."""
    for block, p in enumerate(band):
        sheet.merge((row, block * 4, row, block * 4 + 2), schedule.names[p], LOOK.slip_name)
    row += 1
    for block in range(len(band)):
        for c, word in enumerate(("round", "table", "seat")):
            sheet.text(row, block * 4 + c, WORDS[word](lang), LOOK.slip_head)
    row += 1
    for r in range(len(schedule.rounds)):
        for block, p in enumerate(band):
            where = schedule.seat_of(p, r)
            sheet.number(row, block * 4, r + 1, LOOK.slip)
            if where is None:
                cells = (row, block * 4 + 1, row, block * 4 + 2)
                sheet.merge(cells, WORDS["resting"](lang), LOOK.slip)
            else:
                sheet.number(row, block * 4 + 1, where[0], LOOK.slip)
                sheet.number(row, block * 4 + 2, where[1], LOOK.slip)
        row += 1
    return row


def quality_sheet(book: Book, schedule: Schedule, figures: Figures, lang: str) -> None:
    sheet = book.sheet(SHEETS["quality"](lang))
    sheet.width(0, 0, 120)
    for row, text in enumerate(figures_text(schedule, figures, lang).split("\n")):
        sheet.text(row, 0, text.strip(), LOOK.text)
    sheet.page(_page(lang, landscape=True))
