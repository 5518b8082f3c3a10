"""`check --annotate`: a copy of the user's protocol with every faulty cell marked.

The copy is the user's workbook as openpyxl reads and writes it (fonts, borders, widths,
merged cells, freeze panes, print setup, named ranges, hidden sheets, tables, comments are
kept; dropdowns pointing at another sheet and Excel-2010 conditional formats are not —
which is why it is always a separate file). Each faulty cell gets a fill (errors red,
warnings yellow) and a comment saying what is wrong, what was expected and how to fix it;
a first sheet «Замечания» / «Findings» lists every finding with a link to its cell.

Bytes in, bytes out: the input is never touched.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import openpyxl
from openpyxl.cell.cell import MergedCell
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.worksheet.hyperlink import Hyperlink

from .. import text as plain
from ..errors import SAVE_AGAIN, ProtocolReadError
from ..findings import Finding, count
from ..model import Source
from ..text import Text
from ..vocab import game_name
from .odscopy import is_ods, ods_workbook

AUTHOR = "mafia-sheets"
ERROR_COLOR, WARNING_COLOR = "FFC7CE", "FFEB9C"  # Excel's own "bad" and "neutral" fills
HEADER_COLOR, LINK_COLOR = "D9E1F2", "0563C1"
FIRST_DATA_ROW = 7  # title, two legend lines, summary, blank, header

TEXT: dict[str, Text] = {
    "sheet": Text("Замечания", "Findings"),
    "title": Text("Замечания проверки: {file}", "Check findings: {file}"),
    "error": Text("Ошибка", "Error"),
    "warning": Text("Предупреждение", "Warning"),
    "error_legend": Text(
        "итоги не считаются, пока ошибка не исправлена", "no standings until the error is fixed"
    ),
    "warning_legend": Text(
        "проверьте: итоги считаются, но, возможно, неверно",
        "check it: the standings are computed but may be wrong",
    ),
    "summary": Text(
        "Ошибок: {errors}, предупреждений: {warnings}. Ссылка в столбце «Ячейка» "
        "ведёт к ячейке; у ячейки — примечание.",
        "Errors: {errors}, warnings: {warnings}. The link in the Cell column opens the "
        "cell; the cell carries a note.",
    ),
    "clean": Text("Ошибок и замечаний нет.", "No errors, no warnings."),
    "expected": Text("Ожидалось", "Expected"),
    "fix": Text("Как исправить", "How to fix"),
    "header": Text(
        "№|Серьёзность|Код|Лист|Ячейка|Игра|Значение|Что не так|Ожидалось|Как исправить",
        "#|Severity|Code|Sheet|Cell|Game|Value|What is wrong|Expected|How to fix",
    ),
}
# A4 landscape, one page wide at a readable scale: the long texts wrap, every column does
WIDTHS = (5, 16, 18, 11, 8, 9, 12, 36, 28, 28)


def annotate_workbook(source: Source, findings: Sequence[Finding], lang: str = "ru") -> bytes:
    """The annotated copy of `source` as xlsx bytes; findings of other files are ignored."""
    text = {key: phrase(lang) for key, phrase in TEXT.items()}
    mine = [f for f in findings if not f.source or f.source == source.name]
    workbook = _load(source)
    for (sheet, cell), found in _by_cell(mine).items():
        if sheet in workbook.sheetnames and _is_grid(workbook[sheet]):
            _mark(workbook[sheet], cell, found, lang, text)
    _findings_sheet(workbook, mine, source.name, lang, text)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _load(source: Source) -> Any:

    if is_ods(source.data):  # openpyxl opens no .ods: the copy is an xlsx of its values
        return ods_workbook(source)
    try:
        with warnings.catch_warnings():  # "extension is not supported": dropped in a copy
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(io.BytesIO(source.data), rich_text=True)
    except Exception as exc:  # openpyxl raises many types for what calamine accepted
        raise ProtocolReadError(
            Text(
                f"{source.name}: копию с пометками сделать нельзя — книга не открывается для "
                f"правки ({str(exc)[:120] or type(exc).__name__}). {SAVE_AGAIN.ru} Затем "
                "запустите проверку снова.",
                f"{source.name}: an annotated copy cannot be made — the workbook does not open "
                f"for editing ({str(exc)[:120] or type(exc).__name__}). {SAVE_AGAIN.en} Then "
                "run check again.",
            ),
        ) from exc


def _is_grid(sheet: Any) -> bool:
    return hasattr(sheet, "merged_cells")  # a worksheet, not a chart sheet


def _by_cell(findings: Iterable[Finding]) -> dict[tuple[str, str], list[Finding]]:
    marks: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        for sheet, cell in f.places:  # a problem found in several cells marks every one
            if cell and _valid_cell(cell):
                marks.setdefault((sheet, cell), []).append(f)
    return marks


def _valid_cell(cell: str) -> bool:

    try:
        coordinate_from_string(cell)
    except ValueError:
        return False
    return True


def _mark(ws: Any, cell: str, found: list[Finding], lang: str, text: dict[str, str]) -> None:

    target = _anchor(ws, cell)
    note = "\n\n".join(_note(f, lang, text) for f in found)
    if target.comment is not None and target.comment.text:
        note = f"{target.comment.text}\n\n{note}"  # keep the judge's own note
    note = plain.cell(note)
    lines = sum(1 + len(part) // 45 for part in note.split("\n"))
    target.comment = Comment(note, AUTHOR, height=min(600, 24 + 15 * lines), width=320)
    color = ERROR_COLOR if any(f.severity == "error" for f in found) else WARNING_COLOR
    target.fill = PatternFill("solid", start_color=color, end_color=color)


def _anchor(ws: Any, cell: str) -> Any:
    """The cell itself, or the top-left cell of the merged range that covers it."""

    target = ws[cell]
    if isinstance(target, MergedCell):
        for merged in ws.merged_cells.ranges:  # only for a finding inside a merge: rare
            if cell in merged:
                return ws.cell(merged.min_row, merged.min_col)
    return target


def _note(f: Finding, lang: str, text: dict[str, str]) -> str:
    return (
        f"{text[f.severity]} [{f.code}]: {f.message(lang)}\n"
        f"{text['expected']}: {f.expected(lang)}\n{text['fix']}: {f.hint(lang)}"
    )


def _findings_sheet(
    workbook: Any, findings: list[Finding], file: str, lang: str, text: dict[str, str]
) -> None:

    ws = workbook.create_sheet(_free_title(workbook, text["sheet"]), 0)
    for sheet in workbook.worksheets:  # one selected tab, or Excel opens them grouped
        sheet.sheet_view.tabSelected = False
    workbook.active = 0
    ws.sheet_view.tabSelected = True
    _put(ws, 1, 1, text["title"].format(file=file)).font = Font(bold=True, size=14)
    for row, severity in ((2, "error"), (3, "warning")):
        color = ERROR_COLOR if severity == "error" else WARNING_COLOR
        # the word spans the two narrow first columns, so «Предупреждение» is never cut
        _put(ws, row, 1, text[severity]).fill = PatternFill(
            "solid", start_color=color, end_color=color
        )
        ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=2)
        _put(ws, row, 3, text[f"{severity}_legend"])
    errors, warnings_found = count(findings)
    _put(
        ws,
        4,
        1,
        text["summary"].format(errors=errors, warnings=warnings_found)
        if findings
        else text["clean"],
    ).font = Font(bold=True)
    header = FIRST_DATA_ROW - 1
    for column, (title, width) in enumerate(
        zip(text["header"].split("|"), WIDTHS, strict=True), start=1
    ):
        cell = _put(ws, header, column, title)
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", start_color=HEADER_COLOR, end_color=HEADER_COLOR)
        ws.column_dimensions[cell.column_letter].width = width
    for number, f in enumerate(findings, start=1):
        _finding_row(ws, number, f, workbook.sheetnames, lang, text)
    last = FIRST_DATA_ROW + max(len(findings), 1) - 1
    ws.freeze_panes = ws.cell(FIRST_DATA_ROW, 1)
    ws.auto_filter.ref = f"A{header}:J{last}"
    ws.print_title_rows = f"{header}:{header}"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape"
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def _finding_row(
    ws: Any, number: int, f: Finding, sheets: list[str], lang: str, text: dict[str, str]
) -> None:
    """The `number`-th finding's row, its cell linked to the faulty cell."""

    row = FIRST_DATA_ROW + number - 1
    color = ERROR_COLOR if f.severity == "error" else WARNING_COLOR
    top, wrap = _alignments()
    values = (
        number,
        text[f.severity],
        f.code,
        f.sheet,
        f.cell,
        game_name(f.game, lang) if f.game else "",
        f.value,
        f.message(lang),
        f.expected(lang),
        f.hint(lang),
    )
    for column, value in enumerate(values, start=1):
        _put(ws, row, column, value).alignment = wrap if column >= 3 else top
    # wrapped text needs its height set: neither openpyxl nor LibreOffice sizes the row
    lines = max(1 + len(str(value)) // (WIDTHS[i] - 1) for i, value in enumerate(values) if i >= 2)
    ws.row_dimensions[row].height = 15 * lines
    ws.cell(row, 2).fill = PatternFill("solid", start_color=color, end_color=color)
    if f.sheet in sheets:  # e.g. a missing sheet: nothing to link to
        _link(ws, row, f)


def _link(ws: Any, row: int, f: Finding) -> None:

    link = ws.cell(row, 5)
    link.value = f.cell if f.cell and _valid_cell(f.cell) else plain.cell(f.sheet)
    link.data_type = "s"
    location = f"{_quoted(f.sheet)}!{f.cell if f.cell and _valid_cell(f.cell) else 'A1'}"
    link.hyperlink = Hyperlink(
        ref=link.coordinate, location=plain.cell(location), display=link.value
    )
    link.font = Font(color=LINK_COLOR, underline="single")


def _alignments() -> tuple[Any, Any]:

    return Alignment(vertical="top"), Alignment(wrap_text=True, vertical="top")


def _put(ws: Any, row: int, column: int, value: object) -> Any:
    """Write a value that stays what it is: a nickname like `=Кот` or `+7` is text, never a
    formula, in the copy as in every output."""
    cell = ws.cell(row, column)
    cell.value = plain.cell(value) if isinstance(value, str) else value
    if isinstance(value, str) and cell.data_type == "f":
        cell.data_type = "s"
    return cell


def _quoted(sheet: str) -> str:
    return "'" + sheet.replace("'", "''") + "'"


def _free_title(workbook: Any, title: str) -> str:
    """The findings sheet's name, or `Замечания (2)` when the user already has one."""
    taken = {name.casefold() for name in workbook.sheetnames}
    candidate, number = title, 1
    while candidate.casefold() in taken:
        number += 1
        candidate = f"{title} ({number})"
    return candidate
