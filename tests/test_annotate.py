"""`check --annotate`: comments, fills, the findings sheet with links, the input untouched."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import openpyxl
import pytest
from builders import Proto, formulas_as_text, game_cell, names, seat_cell
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.findings import finding
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.annotate import AUTHOR, ERROR_COLOR, WARNING_COLOR, annotate_workbook


def faulty() -> Proto:
    """One error (a best move of a survivor) and one warning (a short best move)."""
    proto = Proto()
    proto.add_game(1, names("Игрок"), "Красные")
    proto.add_game(2, ["=Кот", "+7", "-Лис", "@Сова", *names("Игрок", 6, 5)], "Чёрные")
    proto.seat(1, 4)["best_move"] = "3 7 9"
    proto.seat(1, 1)["best_move"] = "3 7"
    return proto


def annotated(proto: Proto, lang: str = "ru") -> tuple[Source, openpyxl.Workbook]:
    source = Source("protocol.xlsx", formulas_as_text(proto.to_bytes(lang)))
    outcome = evaluate([source], rate=False)
    data = annotate_workbook(source, outcome.findings, lang)
    return source, openpyxl.load_workbook(io.BytesIO(data))


def fill_of(cell: openpyxl.cell.cell.Cell) -> str:
    return str(cell.fill.fgColor.rgb)[-6:]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_faulty_cells_get_a_comment_and_a_fill(lang: str) -> None:
    proto = faulty()
    _, workbook = annotated(proto, lang)
    seats = workbook["Протокол" if lang == "ru" else "Seats"]
    error = seats[seat_cell(proto, 1, 4, "best_move")]
    warning = seats[seat_cell(proto, 1, 1, "best_move")]
    assert error.comment.author == AUTHOR and warning.comment.author == AUTHOR
    assert "best-move-not-first-victim" in error.comment.text
    expected = "Ожидалось" if lang == "ru" else "Expected"
    fix = "Как исправить" if lang == "ru" else "How to fix"
    assert expected in error.comment.text and fix in error.comment.text
    assert "best-move-short" in warning.comment.text
    assert fill_of(error) == ERROR_COLOR and fill_of(warning) == WARNING_COLOR
    assert seats[seat_cell(proto, 1, 5, "best_move")].comment is None  # untouched cells
    assert error.value == "3 7 9"  # values stay as typed


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_findings_sheet_prints_on_a4_with_its_legend_whole(lang: str) -> None:
    """A4 landscape, one page wide; the legend's words span the two narrow first columns
    (A2:B2, A3:B3), so «Предупреждение» is not cut, its explanation beside it in C."""
    _, workbook = annotated(faulty(), lang)
    ws = workbook["Замечания" if lang == "ru" else "Findings"]
    assert int(ws.page_setup.paperSize) == 9  # A4
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1
    assert {str(r) for r in ws.merged_cells.ranges} == {"A2:B2", "A3:B3"}
    warning = ws["A3"].value
    width = sum(ws.column_dimensions[c].width for c in "AB")
    assert warning in ("Предупреждение", "Warning") and width >= len(warning) + 2
    assert ws["C3"].value.startswith(("проверьте", "check it"))
    total = sum(ws.column_dimensions[chr(65 + i)].width for i in range(10))
    assert total <= 175  # one A4 width at about 85 %, not the old 55 %


def test_every_cell_of_a_grouped_finding_is_marked() -> None:
    """One finding per misspelt value and per empty column, standing at its first cell; the
    copy marks every cell it lists, not only the first."""
    proto = faulty()
    for seat in (2, 3):
        proto.seat(1, seat)["role"] = "Мирнй"
    proto.seat(2, 10)["role"] = "мирнй"
    for seat in (6, 8):
        proto.seat(2, seat)["player"] = ""
    _, workbook = annotated(proto)
    seats = workbook["Протокол"]
    roles = [
        seat_cell(proto, 1, 2, "role"),
        seat_cell(proto, 1, 3, "role"),
        seat_cell(proto, 2, 10, "role"),
    ]
    players = [seat_cell(proto, 2, 6, "player"), seat_cell(proto, 2, 8, "player")]
    assert roles == ["D3", "D4", "D21"] and players == ["C17", "C19"]
    for cell, code in [
        *((c, "unknown-value") for c in roles),
        *((c, "missing-value") for c in players),
    ]:
        assert code in seats[cell].comment.text, cell
        assert fill_of(seats[cell]) == ERROR_COLOR, cell
    listed = [
        r
        for r in workbook["Замечания"].iter_rows(min_row=7, values_only=True)
        if r[2] in ("unknown-value", "missing-value")
    ]
    assert [(r[2], r[4]) for r in listed] == [("unknown-value", "D3"), ("missing-value", "C17")]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_findings_sheet_lists_every_finding_with_a_link(lang: str) -> None:
    proto = faulty()
    _, workbook = annotated(proto, lang)
    title = "Замечания" if lang == "ru" else "Findings"
    assert workbook.sheetnames[0] == title
    assert workbook.active.title == title
    sheet = workbook[title]
    rows = list(sheet.iter_rows(min_row=7, values_only=True))
    assert [(r[2], r[3], r[4]) for r in rows] == [
        ("best-move-short", sheet_name(lang), seat_cell(proto, 1, 1, "best_move")),
        ("best-move-not-first-victim", sheet_name(lang), seat_cell(proto, 1, 4, "best_move")),
    ]
    links = [sheet.cell(row, 5).hyperlink for row in (7, 8)]
    assert [link.location for link in links] == [
        f"'{sheet_name(lang)}'!{seat_cell(proto, 1, 1, 'best_move')}",
        f"'{sheet_name(lang)}'!{seat_cell(proto, 1, 4, 'best_move')}",
    ]
    legend = [sheet.cell(row, 1) for row in (2, 3)]
    assert [fill_of(c) for c in legend] == [ERROR_COLOR, WARNING_COLOR]


def sheet_name(lang: str) -> str:
    return "Протокол" if lang == "ru" else "Seats"


def test_findings_without_a_cell_link_to_their_sheet() -> None:
    proto = faulty()
    source = Source("protocol.xlsx", proto.to_bytes())
    findings = [
        finding("missing-sheet", "Игры", expected="Игры", found="", source=""),
        finding("missing-sheet", "Жребий / Lot", expected="Жребий", found=""),
    ]
    workbook = openpyxl.load_workbook(io.BytesIO(annotate_workbook(source, findings)))
    sheet = workbook["Замечания"]
    assert sheet.cell(7, 5).hyperlink.location == "'Игры'!A1"
    assert sheet.cell(8, 5).hyperlink is None  # no such sheet in the workbook
    assert sheet.cell(8, 4).value == "Жребий / Lot"


def test_findings_of_other_files_are_ignored() -> None:
    proto = faulty()
    source = Source("march.xlsx", proto.to_bytes())
    cell = seat_cell(proto, 1, 2, "player")
    findings = [
        finding("name-look-alike", "Протокол", cell, "x", source="april.xlsx", other="y", count=1)
    ]
    workbook = openpyxl.load_workbook(io.BytesIO(annotate_workbook(source, findings)))
    assert workbook["Протокол"][cell].comment is None
    assert workbook["Замечания"].cell(7, 3).value is None


def test_an_existing_comment_is_kept_and_a_findings_sheet_name_is_not_taken() -> None:
    proto = faulty()
    workbook = openpyxl.load_workbook(io.BytesIO(formulas_as_text(proto.to_bytes())))
    cell = seat_cell(proto, 1, 4, "best_move")
    workbook["Протокол"][cell].comment = openpyxl.comments.Comment("записал судья", "Судья")
    workbook.create_sheet("Замечания")
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = Source("protocol.xlsx", buffer.getvalue())
    outcome = evaluate([source], rate=False)
    copy = openpyxl.load_workbook(io.BytesIO(annotate_workbook(source, outcome.findings)))
    assert copy.sheetnames[0] == "Замечания (2)" and "Замечания" in copy.sheetnames
    text = copy["Протокол"][cell].comment.text
    assert text.startswith("записал судья") and "best-move-not-first-victim" in text


def test_nicknames_that_look_like_formulas_stay_text() -> None:
    proto = faulty()
    _, workbook = annotated(proto)
    seats = workbook["Протокол"]
    for seat, name in ((1, "=Кот"), (2, "+7"), (3, "-Лис"), (4, "@Сова")):
        cell = seats[seat_cell(proto, 2, seat, "player")]
        assert (cell.value, cell.data_type) == (name, "s")


def test_formula_looking_value_in_the_findings_sheet_stays_text() -> None:
    proto = faulty()
    source = Source("protocol.xlsx", proto.to_bytes())
    findings = [finding("name-look-alike", "Протокол", "C2", "=Кот", other="=Koт", count=1)]
    workbook = openpyxl.load_workbook(io.BytesIO(annotate_workbook(source, findings)))
    value = workbook["Замечания"].cell(7, 7)
    assert (value.value, value.data_type) == ("=Кот", "s")


def test_result_cell_is_marked_in_the_games_sheet() -> None:
    proto = Proto()
    proto.add_game(1, names("Игрок"), "Красные")
    proto.seat(1, 9).update(left="", when="")
    _, workbook = annotated(proto)
    cell = workbook["Игры"][game_cell(proto, 1, "result")]
    assert "red-win-blacks-left" in cell.comment.text and fill_of(cell) == ERROR_COLOR


def test_cli_writes_the_copy_and_never_touches_the_input(tmp_path: Path) -> None:
    protocol = tmp_path / "protocol.xlsx"
    protocol.write_bytes(formulas_as_text(faulty().to_bytes()))
    before = hashlib.sha256(protocol.read_bytes()).hexdigest()
    stamp = protocol.stat().st_mtime_ns
    out = tmp_path / "protocol-annotated.xlsx"
    result = CliRunner().invoke(main, ["check", str(protocol), "--annotate", str(out)])
    assert result.exit_code == 1, result.output
    assert hashlib.sha256(protocol.read_bytes()).hexdigest() == before
    assert protocol.stat().st_mtime_ns == stamp
    copy = openpyxl.load_workbook(out)
    assert copy.sheetnames == ["Замечания", "Игры", "Протокол"]
    assert copy["Замечания"].cell(7, 3).value == "best-move-short"


def test_clean_protocol_gets_a_findings_sheet_saying_so() -> None:
    proto = Proto()
    proto.add_game(1, names("Игрок"), "Красные")
    _, workbook = annotated(proto, "en")
    assert workbook["Findings"]["A4"].value == "No errors, no warnings."
