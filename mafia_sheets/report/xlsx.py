"""The results workbook (SPEC §6): standings, games, points, summary, findings, charts,
and, unless left out, the statistics, player cards and head to head.

Built in memory and returned as bytes, so the CLI writes it atomically and the web page
sends it without touching the disk. Layout only: every number arrives finished in the
:class:`~mafia_sheets.model.Rating`. The sheets (:mod:`.sheets`) say what each page
shows; the engine (:mod:`.engine`) writes it, each finished row streamed (constant
memory), so a million rows take a fraction of the RAM, and where the machine has a second
core a forked child writes about half the sheets beside this process.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Rating
from .engine import Book, Job, open_book, write_sheets
from .labels import SHEETS
from .phrases import title
from .sheets.cards import cards_sheets, cards_size
from .sheets.common import LOOK, STYLES
from .sheets.stats import (
    pairs_sheet,
    pairs_size,
    statistics_sheet,
    statistics_size,
    tournament_sheet,
    tournament_size,
)
from .sheets.summary import charts_sheet, charts_size, summary_sheet, summary_size
from .sheets.tables import (
    findings_sheet,
    findings_size,
    games_sheet,
    games_size,
    points_sheets,
    points_size,
    standings_sheet,
    standings_size,
)

Writer = Callable[[Book, Rating, str], None]
# each sheet writer with the estimate of its cells (rows × columns) that balances the cores
SHEET_WRITERS: tuple[tuple[Writer, Callable[[Rating], int]], ...] = (
    (standings_sheet, standings_size),
    (games_sheet, games_size),
    (points_sheets, points_size),
    (summary_sheet, summary_size),
    (findings_sheet, findings_size),
    (charts_sheet, charts_size),
)
STATS_WRITERS: tuple[tuple[Writer, Callable[[Rating], int]], ...] = (
    (statistics_sheet, statistics_size),
    (tournament_sheet, tournament_size),
    (cards_sheets, cards_size),
    (pairs_sheet, pairs_size),
)
STREAMED = True  # each finished row goes to a temporary file (constant memory)


def results_workbook(rating: Rating, lang: str = "ru") -> bytes:
    """The results workbook of SPEC §6 as xlsx bytes, in Russian (`ru`) or English (`en`)."""
    with open_book(streamed=STREAMED) as book:
        book.properties(title(rating.tournament, lang), SHEETS["standings"](lang))
        book.number_styles(STYLES, conditional=(LOOK.gap,))  # blank cells' borders
        writers = SHEET_WRITERS
        if rating.stats is not None:  # SPEC §6 sheets 7–9 (left out by `rate --no-stats`)
            writers += STATS_WRITERS
        write_sheets(book, [_job(write, size, rating, lang) for write, size in writers])
        book.first_sheet().activate()
        return book.close()


def _job(write: Writer, size: Callable[[Rating], int], rating: Rating, lang: str) -> Job:
    def job(book: Book) -> None:
        write(book, rating, lang)

    return job, size(rating)
