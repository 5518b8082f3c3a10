"""The printable seating plan as xlsx bytes: the sheets of :mod:`.sheets.plan`, written
by the engine. Layout only: the schedule and its figures arrive finished from seating."""

from __future__ import annotations

from ..seating.figures import Figures
from ..seating.model import Schedule
from .engine import open_book
from .sheets.plan import SHEETS, players_sheet, quality_sheet, rounds_sheet, slips_sheet


def plan_workbook(schedule: Schedule, figures: Figures, lang: str = "ru") -> bytes:
    """The plan as xlsx bytes, in Russian (`ru`) or English (`en`)."""
    with open_book(streamed=True) as book:
        book.properties(SHEETS["seating"](lang), SHEETS["seating"](lang))
        rounds_sheet(book, schedule, lang)
        players_sheet(book, schedule, lang)
        slips_sheet(book, schedule, lang)
        quality_sheet(book, schedule, figures, lang)
        book.first_sheet().activate()
        return book.close()
