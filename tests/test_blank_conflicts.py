"""One game sheet («бланк») saying a thing twice, or in a form the reader must not guess at:
seat numbers typed «1.», a best move in the grid and on the line, two results, the grid's
departures against the rows of kills and votes, result boxes left of their words. Each
sheet is built cell by cell with openpyxl.

The game of every sheet (black wins): roles 2 Д, 4 М, 8 М, 6 Ш; Д1 nobody, Н1 6 killed,
Д2 1 voted out, Н2 3, Д3 5 (3 reds to 3 blacks: black won); 7 disqualified, phase not
written. Each black player gets 2 (one game: K is not applied), seat 7 gets −1.
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.worksheet import Worksheet

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate

SHEET = "Игра 1"
ROLES = {2: "Д", 4: "М", 8: "М", 6: "Ш"}
STANDINGS = {f"P{n}": Fraction(2) if n in (2, 4, 8) else Fraction(0) for n in range(1, 11)}
STANDINGS["P7"] = Fraction(-1)
PHASE_UNKNOWN = ("phase-not-recorded", "warning", SHEET, "B17", ())  # seat 7's disqualification


def game_sheet(seat: Any = lambda n: n, columns: tuple[str, ...] = ()) -> Worksheet:
    """The seat grid in rows 3–13 (№ | Игрок | Роль and `columns`), the game's number."""
    book = openpyxl.Workbook()
    ws = book.active
    assert ws is not None
    ws.title = SHEET
    ws["A1"], ws["B1"] = "Игра №", 1
    for j, header in enumerate(("№", "Игрок", "Роль", *columns), 1):
        ws.cell(3, j, header)
    for n in range(1, 11):
        ws.cell(3 + n, 1, seat(n))
        ws.cell(3 + n, 2, f"P{n}")
        ws.cell(3 + n, 3, ROLES.get(n, ""))
    return ws


def with_blocks(ws: Worksheet, kills: tuple[object, object] = (6, 3)) -> Worksheet:
    """The rows of kills by night, votes by day and disqualified seats (rows 15–17)."""
    ws["A15"], ws["B15"], ws["C15"] = "Убиты ночью", *kills
    ws["A16"], ws["B16"], ws["C16"], ws["D16"] = "Заголосованы", "-", 1, 5
    ws["A17"], ws["B17"] = "Дисквалифицирован", 7
    return ws


def with_result(ws: Worksheet) -> Worksheet:
    ws["D1"], ws["E1"] = "Победили", "мафия"
    return ws


def rate(ws: Worksheet) -> Any:
    buffer = io.BytesIO()
    assert ws.parent is not None
    ws.parent.save(buffer)
    return evaluate([Source("x.xlsx", buffer.getvalue())])


def found(outcome: Any) -> list[tuple[str, str, str, str, tuple[tuple[str, str], ...]]]:
    return sorted((f.code, f.severity, f.sheet, f.cell, f.also) for f in outcome.findings)


def totals(outcome: Any) -> dict[str, Fraction]:
    assert outcome.rating is not None, found(outcome)
    return {s.player: s.total for s in outcome.rating.standings}


# ---- 1. seat numbers typed as a form numbers its rows ----------------------------------------


@pytest.mark.parametrize("typed", ["{}.", "{})", "№{}", "№ {}", "#{}", " {}. "])
def test_seat_numbers_typed_with_a_dot_read_the_departures_as_plain_numbers(typed):
    plain = rate(with_result(with_blocks(game_sheet())))
    numbered = rate(with_result(with_blocks(game_sheet(lambda n: typed.format(n)))))
    assert found(plain) == found(numbered) == [PHASE_UNKNOWN]
    assert totals(numbered) == totals(plain) == STANDINGS
    assert numbered.reading[0].games_read == plain.reading[0].games_read


def test_a_seat_the_grid_does_not_hold_is_reported_where_the_row_names_it():
    ws = with_result(with_blocks(game_sheet()))
    ws["A9"] = 5  # seat 6's row typed as a second 5: no row holds seat 6, killed on N1
    outcome = rate(ws)
    unread = [f for f in outcome.findings if f.code == "cells-not-read"]
    assert [(f.severity, f.sheet, f.cell, f.also) for f in unread] == [
        ("warning", SHEET, "B15", ())
    ]
    assert "места 6 нет в таблице мест" in unread[0].message("ru")
    assert "seat 6 is not in the seat grid" in unread[0].message("en")
    assert ("duplicate-seat", "error") in {(f.code, f.severity) for f in outcome.findings}


# ---- 2. the best move in the grid's «ЛХ» and on the best-move line ----------------------------


def best_move_sheet(in_grid: object) -> Worksheet:
    """Seat 6 (the sheriff, killed on N1) names 2 4 8 on the line; the grid's ЛХ holds
    `in_grid` on seat 6's row (D9)."""
    ws = with_result(with_blocks(game_sheet(columns=("ЛХ",))))
    ws["D9"] = in_grid
    ws["A19"], ws["B19"], ws["C19"], ws["D19"] = "Лучший ход", 2, 4, 8
    return ws


def test_a_best_move_written_twice_with_different_seats_is_an_error_at_both_cells():
    outcome = rate(best_move_sheet("2 4 5"))
    assert found(outcome) == sorted(
        [
            ("best-move-written-twice", "error", SHEET, "B19", ((SHEET, "D9"),)),
            PHASE_UNKNOWN,
        ]
    )
    assert outcome.rating is None
    twice = next(f for f in outcome.findings if f.code == "best-move-written-twice")
    assert twice.message("ru") == (
        "Лучший ход места 6 записан дважды и по-разному: «2, 4, 8» и «2 4 5» в D9"
    )
    assert twice.message("en") == (
        "The best move of seat 6 is written twice, differently: “2, 4, 8” and “2 4 5” at D9"
    )


@pytest.mark.parametrize("in_grid", ["8 4 2", "2, 4, 8", 248])
def test_a_best_move_written_twice_with_the_same_seats_is_read_once(in_grid):
    outcome = rate(best_move_sheet(in_grid))
    assert found(outcome) == [PHASE_UNKNOWN]
    standings = {s.player: s for s in outcome.rating.standings}
    assert standings["P6"].best_move == Fraction(1, 2)
    assert totals(outcome) == {**STANDINGS, "P6": Fraction(1, 2)}


def test_the_grid_best_move_names_the_maker_of_the_lines_when_nothing_else_does():
    ws = best_move_sheet("2 4 8")
    ws["B15"], ws["C15"] = "-", 3  # no kill on N1: only the grid's ЛХ says whose it is
    outcome = rate(ws)
    assert "best-move-without-victim" not in {f.code for f in outcome.findings}
    assert found(outcome) == [
        ("best-move-not-first-victim", "error", SHEET, "B19", ()),
        PHASE_UNKNOWN,
    ]


# ---- 3. two results written on one sheet -----------------------------------------------------


def test_two_written_results_that_disagree_are_an_error_at_both_cells():
    ws = with_blocks(game_sheet())
    ws["A2"], ws["B2"], ws["E2"] = "Результат", "мирные", "Результат: победа мафии"
    outcome = rate(ws)
    assert found(outcome) == sorted(
        [
            ("result-written-twice", "error", SHEET, "E2", ((SHEET, "B2"),)),
            ("red-win-blacks-left", "error", SHEET, "B2", ()),  # the first result, still checked
            PHASE_UNKNOWN,
        ]
    )
    assert outcome.rating is None
    twice = next(f for f in outcome.findings if f.code == "result-written-twice")
    assert twice.message("ru") == (
        "Результат игры записан несколько раз, и записи расходятся: «Красные» (B2), «Чёрные» (E2)"
    )


def test_two_results_in_their_labels_cells_that_disagree_are_an_error():
    ws = with_blocks(game_sheet())
    ws["D1"], ws["G1"] = "Победили: мафия", "Победили: мирные"
    assert found(rate(ws)) == sorted(
        [("result-written-twice", "error", SHEET, "G1", ((SHEET, "D1"),)), PHASE_UNKNOWN]
    )


def test_two_written_results_that_agree_give_no_finding():
    ws = with_blocks(game_sheet())
    ws["D1"], ws["G1"] = "Победили: мафия", "Результат: чёрные"
    outcome = rate(ws)
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


def test_a_marked_result_and_a_written_one_that_disagree_are_an_error():
    ws = with_blocks(game_sheet())
    ws["A19"], ws["B19"], ws["C19"], ws["D19"], ws["E19"] = (
        "Победила команда",
        "Красные",
        "",
        "Чёрные",
        "x",
    )
    ws["D1"] = "Результат: красные"
    assert found(rate(ws)) == sorted(
        [("result-written-twice", "error", SHEET, "D1", ((SHEET, "E19"),)), PHASE_UNKNOWN]
    )


# ---- 4. the grid's departures against the rows of kills -----------------------------------------


def departures_sheet(kills: tuple[object, object]) -> Worksheet:
    """The grid's «Выбыл | Когда»: seat 6 killed Н1 (D9:E9), seat 3 killed Н2 (D6:E6)."""
    ws = with_result(with_blocks(game_sheet(columns=("Выбыл", "Когда")), kills))
    ws["D9"], ws["E9"], ws["D6"], ws["E6"] = "убит", "Н1", "убит", "Н2"
    return ws


def test_grid_departures_and_a_kills_row_that_disagree_are_an_error_at_both_cells():
    outcome = rate(departures_sheet((3, 6)))
    assert found(outcome) == sorted(
        [
            ("departures-disagree", "error", SHEET, "B15", ((SHEET, "D6"),)),
            ("departures-disagree", "error", SHEET, "C15", ((SHEET, "D9"),)),
            PHASE_UNKNOWN,
        ]
    )
    assert outcome.rating is None
    first = next(f for f in outcome.findings if f.cell == "B15")
    assert first.message("ru") == (
        "Место 3: в строке «Убит ночью» — убит в Н1, а в D6 записано «убит Н2»"
    )
    assert first.message("en") == (
        "Seat 3: the row “Killed at night” says killed in N1, but D6 says “убит Н2”"
    )


def test_grid_departures_and_a_kills_row_that_agree_give_no_finding():
    outcome = rate(departures_sheet((6, 3)))
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


def test_a_grid_kill_without_its_phase_takes_the_night_from_the_kills_row():
    ws = departures_sheet((6, 3))
    ws["E9"] = None  # «убит» alone in the grid: the row of kills says Н1
    outcome = rate(ws)
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


# ---- 5. result boxes left of their words -------------------------------------------------


def boxes_sheet(cells: list[object]) -> Worksheet:
    ws = with_blocks(game_sheet())
    ws["A19"] = "Победила команда"
    for j, value in enumerate(cells, 2):
        ws.cell(19, j, value)
    return ws


def test_a_result_box_left_of_its_word_is_read_with_that_word():
    outcome = rate(boxes_sheet(["☐", "Красные", "☒", "Чёрные", "☐", "Ничья"]))
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


def test_result_boxes_right_of_their_words_still_read_as_before():
    outcome = rate(boxes_sheet(["Красные", "☐", "Чёрные", "☒", "Ничья", "☐"]))
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


def test_a_lone_mark_between_two_words_reads_as_the_right_of_the_first_as_before():
    outcome = rate(boxes_sheet([None, "Красные", None, "Чёрные", "x", "Ничья"]))
    assert found(outcome) == [PHASE_UNKNOWN]
    assert totals(outcome) == STANDINGS


def test_a_mark_between_words_whose_boxes_stand_on_both_sides_is_an_error_at_it():
    outcome = rate(boxes_sheet(["☐", "Красные", "☐", "Чёрные", "☒", "Ничья", "☐"]))
    assert found(outcome) == sorted(
        [("result-mark-ambiguous", "error", SHEET, "F19", ()), PHASE_UNKNOWN]
    )
    ambiguous = next(f for f in outcome.findings if f.code == "result-mark-ambiguous")
    assert ambiguous.message("en") == (
        "The mark “☒” sits between “Чёрные” and “Ничья”: which result it belongs to is unclear"
    )


def test_a_grid_disqualification_without_its_phase_takes_the_day_from_its_row():
    ws = with_result(with_blocks(game_sheet(columns=("Выбыл",))))
    ws["D10"], ws["B17"] = "дисквалифицирован", "7 Д1"  # the grid has no «Когда»: the row gives it
    ws["D16"] = None  # with 7 out on Д1, black has won on Н2
    outcome = rate(ws)
    assert found(outcome) == []
    assert totals(outcome) == STANDINGS


def test_a_seat_in_two_rows_of_phases_is_an_error_at_both_cells():
    ws = with_result(with_blocks(game_sheet()))
    ws["D15"] = 1  # seat 1 killed on Н3 (read first), also voted out on Д2 (C16)
    assert found(rate(ws)) == sorted(
        [("departures-disagree", "error", SHEET, "C16", ((SHEET, "D15"),)), PHASE_UNKNOWN]
    )
