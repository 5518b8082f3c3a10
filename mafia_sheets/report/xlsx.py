"""The results workbook (SPEC §6): standings, games, points, summary, findings, charts.

The workbook is built in memory and returned as bytes, so the CLI writes it atomically and
the web page sends it without touching the disk. Layout only: every number arrives
finished in the :class:`~mafia_sheets.model.Rating`.
"""

from __future__ import annotations

import io
from typing import Any

from ..model import Rating
from .labels import SHEETS
from .xlsx_cards import cards_sheets
from .xlsx_layout import make_formats
from .xlsx_stats import pairs_sheet, statistics_sheet
from .xlsx_summary import charts_sheet, summary_sheet
from .xlsx_tables import findings_sheet, games_sheet, points_sheets, standings_sheet

# Past this many points rows the workbook is streamed (constant-memory mode): each
# finished row goes to a temporary file that vanishes when the workbook closes. That is
# every workbook with points: streaming keeps a million rows in ~1/4 of the RAM, and it
# is what lets whole tables be appended as XML (xlsx_bulk), 3–5× faster than cell by cell.
LARGE_POINTS = 0


def workbook_options(rows: int) -> dict[str, Any]:
    """xlsxwriter options: user text is never turned into formulas, numbers or links."""
    options: dict[str, Any] = {
        "strings_to_formulas": False,
        "strings_to_numbers": False,
        "strings_to_urls": False,
    }
    if rows > LARGE_POINTS:
        options["constant_memory"] = True
    else:
        options["in_memory"] = True
    return options


def results_workbook(rating: Rating, lang: str = "ru") -> bytes:
    """The results workbook of SPEC §6 as xlsx bytes, in Russian (`ru`) or English (`en`)."""
    import xlsxwriter  # lazy: keeps `mafia-sheets --help` fast

    _fast_deflate()

    buffer = io.BytesIO()
    with xlsxwriter.Workbook(buffer, workbook_options(len(rating.points))) as workbook:
        _properties(workbook, rating, lang)
        fmt = make_formats(workbook)
        standings_sheet(workbook, fmt, rating, lang)
        games_sheet(workbook, fmt, rating, lang)
        points_sheets(workbook, fmt, rating, lang)
        summary_sheet(workbook, fmt, rating, lang)
        findings_sheet(workbook, fmt, rating, lang)
        charts_sheet(workbook, fmt, rating, lang)
        if rating.stats is not None:  # SPEC §6 sheets 7–9 (left out by `rate --no-stats`)
            statistics_sheet(workbook, fmt, rating, lang)
            cards_sheets(workbook, fmt, rating, lang)
            pairs_sheet(workbook, fmt, rating, lang)
        workbook.worksheets()[0].activate()
    return buffer.getvalue()


def _fast_deflate() -> None:
    """Deflate level 1 for the results workbook's zip (xlsxwriter offers no option).

    Compressing the sheets' XML was a third of writing a big workbook at zlib's default
    level 6; level 1 is about four times faster and the file ~40 % larger (a 100-game
    tournament: tens of kilobytes). Idempotent; without the expected attribute (another
    xlsxwriter) nothing changes.
    """
    import functools
    import zipfile

    import xlsxwriter.workbook as module

    if getattr(module, "ZipFile", None) is zipfile.ZipFile:
        module.ZipFile = functools.partial(zipfile.ZipFile, compresslevel=1)  # type: ignore[assignment]


def _properties(workbook: Any, rating: Rating, lang: str) -> None:
    workbook.set_properties({
        "title": rating.tournament.name,
        "subject": SHEETS["standings"](lang),
        "keywords": "mafia, FIIM",
        "comments": "mafia-sheets",
    })
