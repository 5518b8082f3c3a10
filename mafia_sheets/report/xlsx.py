"""The results workbook (SPEC §6): standings, games, points, summary, findings, charts.

The workbook is built in memory and returned as bytes, so the CLI writes it atomically and
the web page sends it without touching the disk. Layout only: every number arrives
finished in the :class:`~mafia_sheets.model.Rating`.
"""

from __future__ import annotations

import io
from typing import Any

from .. import text
from ..model import Rating
from .labels import SHEETS
from .xlsx_cards import cards_sheets
from .xlsx_layout import make_formats
from .xlsx_stats import pairs_sheet, statistics_sheet
from .xlsx_summary import charts_sheet, summary_sheet
from .xlsx_tables import findings_sheet, games_sheet, points_sheets, standings_sheet


def workbook_options() -> dict[str, Any]:
    """xlsxwriter options: user text is never turned into formulas, numbers or links.

    Every workbook is streamed (constant-memory mode): each finished row goes to a
    temporary file that vanishes when the workbook closes. That keeps a million rows in
    ~1/4 of the RAM, and it is what lets whole tables be appended as XML (xlsx_bulk),
    3–5× faster than cell by cell.
    """
    from ..scratch import run_folder

    return {
        "strings_to_formulas": False,
        "strings_to_numbers": False,
        "strings_to_urls": False,
        "constant_memory": True,
        "tmpdir": run_folder(),  # a killed run's rows are removed by the next run
    }


def plain_worksheet() -> type:
    """xlsxwriter's worksheet, with every string stored as the text it is.

    xlsxwriter writes a string shaped like `<r>…</r>` as raw rich-text XML (its own rich
    strings are stored that way), so a nickname `<r>Кубок</r>` would become markup. Such a
    text is stored as a rich string of plain runs instead: the cell reads the same
    text back, escaped. Control characters become their visible escapes (`\\x1b`).
    """
    from xlsxwriter.worksheet import Worksheet

    class PlainWorksheet(Worksheet):  # type: ignore[misc]
        def _write_string(self, row: int, col: int, string: str, cell_format: Any = None) -> int:
            string = text.cell(string)
            if string.startswith("<r>") and string.endswith("</r>"):
                runs = (string[:1], string[1:3], string[3:])  # xlsxwriter needs 3 parts
                args = (*runs, cell_format) if cell_format is not None else runs
                return int(self._write_rich_string(row, col, *args))
            return int(super()._write_string(row, col, string, cell_format))

    return PlainWorksheet


def results_workbook(rating: Rating, lang: str = "ru") -> bytes:
    """The results workbook of SPEC §6 as xlsx bytes, in Russian (`ru`) or English (`en`)."""
    import xlsxwriter  # lazy: keeps `mafia-sheets --help` fast

    _fast_deflate()

    buffer = io.BytesIO()
    with xlsxwriter.Workbook(buffer, workbook_options()) as workbook:
        workbook.worksheet_class = plain_worksheet()
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
    workbook.set_properties(
        {
            "title": text.cell(rating.tournament.title(lang)),
            "subject": SHEETS["standings"](lang),
            "keywords": "mafia, FIIM",
            "comments": "mafia-sheets",
        }
    )
