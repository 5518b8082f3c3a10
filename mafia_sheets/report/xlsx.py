"""The results workbook (SPEC §6): standings, games, points, summary, findings, charts,
and, unless left out, the statistics, player cards and head to head.

Built in memory and returned as bytes, so the CLI writes it atomically and the web page
sends it without touching the disk. Layout only: every number arrives finished in the
:class:`~mafia_sheets.model.Rating`. The sheets (:mod:`.sheets`) say what each page
shows; the engine (:mod:`.engine`) writes it, each finished row streamed (constant
memory), so a million rows take a fraction of the RAM.
"""

from __future__ import annotations

from ..model import Rating
from .engine import open_book
from .labels import SHEETS
from .phrases import title
from .sheets.cards import cards_sheets
from .sheets.stats import pairs_sheet, statistics_sheet, tournament_sheet
from .sheets.summary import charts_sheet, summary_sheet
from .sheets.tables import findings_sheet, games_sheet, points_sheets, standings_sheet

SHEET_WRITERS = (standings_sheet, games_sheet, points_sheets, summary_sheet, findings_sheet)
STATS_WRITERS = (statistics_sheet, tournament_sheet, cards_sheets, pairs_sheet)
STREAMED = True  # each finished row goes to a temporary file (constant memory)


def results_workbook(rating: Rating, lang: str = "ru") -> bytes:
    """The results workbook of SPEC §6 as xlsx bytes, in Russian (`ru`) or English (`en`)."""
    with open_book(streamed=STREAMED) as book:
        book.properties(title(rating.tournament, lang), SHEETS["standings"](lang))
        for write in (*SHEET_WRITERS, charts_sheet):
            write(book, rating, lang)
        if rating.stats is not None:  # SPEC §6 sheets 7–9 (left out by `rate --no-stats`)
            for write in STATS_WRITERS:
                write(book, rating, lang)
        book.first_sheet().activate()
        return book.close()
