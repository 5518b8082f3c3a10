"""The small gaps of club blanks closed: advice that fits the sheet, findings that quote
what the judge typed, departures read from their phase said once a sheet, and the
first-killed field taken as the departure it names."""

from __future__ import annotations

import io
from typing import Any

import openpyxl
from club_blanks import BLANKS, GAMES, STANDINGS, games_by_row, rows_twin

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate


def rate(data: bytes) -> Any:
    return evaluate([Source("x.xlsx", data)])


def codes(outcome: Any) -> list[tuple[str, str, str]]:
    return sorted((f.code, f.sheet, f.cell) for f in outcome.findings)


def only(outcome: Any, code: str) -> Any:
    found = [f for f in outcome.findings if f.code == code]
    assert len(found) == 1, [(f.code, f.sheet, f.cell) for f in outcome.findings]
    return found[0]


def saved(book: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


# ---- (a) a kill without its phase where the sheet has no «Когда» --------------------------


def test_a_kill_alone_on_a_game_sheet_without_a_phase_column_is_advised_as_that_sheet_allows():
    """«убит» in a «Выбыл» column of a grid with no «Когда»: the error stands at that cell
    and tells how to give the phase there — beside the kill, or in the rows of nights and
    days — never to fill a «Когда» the sheet does not have."""
    book = openpyxl.load_workbook(io.BytesIO(BLANKS["fiim-form"]()))
    for game in GAMES:
        book[f"Игра {game.number}"]["K6"] = "Выбыл"
    book["Игра 2"]["K7"] = "убит"
    error = only(rate(saved(book)), "left-without-when")
    assert (error.sheet, error.cell, error.severity, error.value) == (
        "Игра 2",
        "K7",
        "error",
        "убит",
    )
    assert error.expected("ru").startswith("фаза рядом с выбыванием: «убит Н1»")
    assert "столбца «Когда» на листе нет" in error.expected("ru")
    assert error.hint("ru").startswith("Допишите фазу в эту ячейку («убит Н1»)")
    assert "строку убитых по ночам" in error.hint("ru") and "«Когда»" not in error.hint("ru")
    assert error.expected("en").startswith("the phase beside the departure: “killed N1”")
    assert error.hint("en").startswith("Add the phase to this cell (“killed N1”)")
    assert "When" not in error.hint("en")


def test_the_phase_added_as_advised_clears_the_error():
    """Doing what the advice says («убит Н1» in the same cell) is read: no error left."""
    book = openpyxl.load_workbook(io.BytesIO(BLANKS["fiim-form"]()))
    for game in GAMES:
        book[f"Игра {game.number}"]["K6"] = "Выбыл"
    assert (2, "killed", 4) in GAMES[1].events
    book["Игра 2"]["K10"] = "убит Н1"  # seat 4: what the row of kills already says
    assert "left-without-when" not in {f.code for f in rate(saved(book)).findings}


def test_a_kill_alone_in_a_game_row_without_phase_columns_is_advised_for_game_rows():
    book = openpyxl.load_workbook(io.BytesIO(games_by_row()))
    book["Игры"]["AS3"] = "убит"  # seat 1 of game 1, whose phase column does not exist
    error = only(rate(saved(book)), "left-without-when")
    assert (error.sheet, error.cell) == ("Игры", "AS3")
    assert error.hint("ru").startswith("Допишите фазу в эту ячейку («убит Н1», «заголосован Д2»)")
    assert "блок столбцов «Когда» 1–10" in error.hint("ru")
    assert "a block of When columns 1–10" in error.hint("en")


def test_a_departure_without_its_phase_where_the_sheet_has_a_phase_column_keeps_its_advice():
    """The row layout has «Когда»: the advice names it, at the «Когда» cell."""
    book = openpyxl.load_workbook(io.BytesIO(rows_twin()))
    assert book["Протокол"]["F2"].value == "убит"
    book["Протокол"]["G2"] = None
    error = only(rate(saved(book)), "left-without-when")
    assert (error.sheet, error.cell) == ("Протокол", "G2")
    assert error.expected("ru") == "фаза в столбце «Когда»: Д1, Н1 …"
    assert error.hint("en") == "Enter the phase or clear “Left”"


# ---- (b) `phase-not-recorded` quotes what the judge typed ---------------------------------


def test_phase_not_recorded_quotes_the_departure_typed_on_a_game_sheet():
    """The blank's «Удален» row (seat 6 of game 3) and four foul boxes filled (seat 10 of
    game 4): each finding quotes the departure, never the reader's «?»."""
    outcome = rate(BLANKS["fiim-form"]())
    found = {(f.sheet, f.cell): f.value for f in outcome.findings if f.code == "phase-not-recorded"}
    assert found == {("Игра 3", "N12"): "дисквалифицирован", ("Игра 4", "E16"): "4 фола"}


def test_phase_not_recorded_quotes_the_departure_typed_in_a_game_row():
    outcome = rate(games_by_row())
    found = {(f.sheet, f.cell): f.value for f in outcome.findings if f.code == "phase-not-recorded"}
    assert found == {("Игры", "AX5"): "дисквалифицирован", ("Игры", "BB6"): "4 фола"}
    book = openpyxl.load_workbook(io.BytesIO(games_by_row()))
    book["Игры"]["BB6"] = "4 ФОЛА "
    again = rate(saved(book))
    quoted = {f.cell: f.value for f in again.findings if f.code == "phase-not-recorded"}
    assert quoted["BB6"] == "4 ФОЛА "


def test_a_question_mark_the_judge_typed_is_quoted_as_typed():
    """`?` typed in «Когда» is the judge's own text: quoted so."""
    book = openpyxl.load_workbook(io.BytesIO(rows_twin()))
    ws = book["Протокол"]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 6).value == "4 фола")
    ws.cell(row, 7).value = "?"
    outcome = rate(saved(book))
    found = only(outcome, "phase-not-recorded")
    assert (found.sheet, found.cell, found.value) == ("Протокол", f"G{row}", "?")


def test_the_check_text_quotes_the_departure(tmp_path):
    """What the judge reads on `check`: the cell, then «4 фола»."""
    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main

    path = tmp_path / "rows.xlsx"
    path.write_bytes(games_by_row())
    result = CliRunner().invoke(main, ["check", str(path)])
    lines = [line for line in result.output.splitlines() if "phase-not-recorded" in line]
    assert len(lines) == 2, result.output
    assert any("AX5" in line and "«дисквалифицирован»" in line for line in lines)
    assert any("BB6" in line and "«4 фола»" in line for line in lines)
    assert "«?»" not in result.output


# ---- (c) departures read from a phase alone: one warning a sheet --------------------------


def _phase_alone_cells() -> list[tuple[str, str, str]]:
    """(cell, typed, read as) of every departure games_by_row types as its phase alone:
    seat n's «Выбыл» is column 44 + n, game g's row is g + 2."""
    from club_blanks import PHASE

    found = []
    for game in GAMES:
        for phase, kind, seat in game.events:
            if kind in ("killed", "voted"):
                cell = openpyxl.utils.get_column_letter(44 + seat) + str(game.number + 2)
                word = {"killed": "убит", "voted": "заголосован"}[kind]
                found.append((cell, PHASE[phase], f"{word} в {PHASE[phase]}"))
    return sorted(found, key=lambda x: (int(x[0][2:]), len(x[0][:2]), x[0][:2]))


def test_departures_read_from_a_phase_alone_are_one_warning_naming_every_cell():
    """Twenty departures typed as «Н1» / «Д2» on one sheet of game rows: one warning, at
    the first cell, every cell among its places and named in its text with its reading."""
    outcome = rate(games_by_row())
    note = only(outcome, "departure-read-from-phase")
    expected = _phase_alone_cells()
    assert (note.sheet, note.cell, note.severity, note.value) == ("Игры", "AS3", "warning", "Н1")
    assert len(expected) == 20
    assert sorted(cell for _, cell in note.places) == sorted(cell for cell, _, _ in expected)
    listed = note.message("ru").split(": ", 1)[1].split("; ")
    assert listed == [f"{cell} «{typed}» — {read}" for cell, typed, read in expected]
    assert note.message("ru").startswith("В «Выбыл» записана только фаза — прочитано как")
    english = note.message("en")
    assert "AS3 “Н1” — killed in N1" in english and "voted out in D1" in english


def test_on_game_sheets_the_warning_is_one_per_sheet():
    """A grid's «Выбыл» column holding phases alone on two game sheets: one warning each,
    at its own sheet's first cell, naming both cells of that sheet."""
    book = openpyxl.load_workbook(io.BytesIO(BLANKS["fiim-form"]()))
    for game in GAMES:
        book[f"Игра {game.number}"]["K6"] = "Выбыл"
    assert (2, "killed", 1) in GAMES[0].events and (1, "voted", 3) in GAMES[0].events
    book["Игра 1"]["K7"], book["Игра 1"]["K9"] = "Н1", "Д1"
    assert (2, "killed", 4) in GAMES[1].events
    book["Игра 2"]["K10"] = "Н1"
    outcome = rate(saved(book))
    notes = sorted(
        (f for f in outcome.findings if f.code == "departure-read-from-phase"),
        key=lambda f: f.sheet,
    )
    assert [(f.sheet, f.cell, f.places) for f in notes] == [
        ("Игра 1", "K7", (("Игра 1", "K7"), ("Игра 1", "K9"))),
        ("Игра 2", "K10", (("Игра 2", "K10"),)),
    ]
    assert notes[0].message("ru").endswith(": K7 «Н1» — убит в Н1; K9 «Д1» — заголосован в Д1")
    assert notes[1].message("en").endswith(": K10 “Н1” — killed in N1")


# ---- (d) «Первый убитый: 4» is the departure it names ----------------------------------------


def _phase_words_without_first_kill() -> openpyxl.Workbook:
    """The blank with «Н1 Н2 …» over the kills and «Первый убитый» under the best move, game
    1's first-night kill (seat 1) left out of the kills row: only «Первый убитый» names it."""
    from club_blanks import phase_words

    book = openpyxl.load_workbook(io.BytesIO(phase_words()))
    ws = book["Стол 1 Игра 1"]
    assert (ws["L3"].value, ws["L4"].value, ws["E18"].value, ws["E19"].value) == (
        "Н1",
        "1",
        "Первый убитый",
        1,
    )
    ws["L4"] = None
    return book


def test_the_first_killed_field_with_no_departure_typed_is_killed_on_night_1():
    """The standings are the hand computation's, the best move counts, and the reading is
    said at the field's cell."""
    from test_club_blanks import table

    outcome = rate(saved(_phase_words_without_first_kill()))
    assert table(outcome) == STANDINGS
    note = only(outcome, "first-killed-read-as-departure")
    assert (note.sheet, note.cell, note.severity, note.value) == (
        "Стол 1 Игра 1",
        "E19",
        "warning",
        "1",
    )
    assert note.message("ru") == (
        "«Первый убитый: 1», а выбывание места 1 не записано: прочитано как «убит в Н1»"
    )
    assert note.message("en") == (
        "“First killed: 1”, and no departure is recorded for seat 1: read as killed on N1"
    )
    assert "best-move-not-first-victim" not in {f.code for f in outcome.findings}
    assert "best-move-without-victim" not in {f.code for f in outcome.findings}


def test_the_first_killed_field_agreeing_with_the_departures_says_nothing():
    from club_blanks import phase_words

    outcome = rate(phase_words())
    assert not {"first-killed-read-as-departure", "first-killed-disagrees"} & {
        f.code for f in outcome.findings
    }


def test_the_first_killed_field_naming_another_seat_than_the_night_1_kill_is_an_error_at_both():
    from club_blanks import phase_words

    book = openpyxl.load_workbook(io.BytesIO(phase_words()))
    book["Стол 1 Игра 1"]["E19"] = 5  # the kills row says seat 1 was killed on night 1
    error = only(rate(saved(book)), "first-killed-disagrees")
    assert (error.sheet, error.cell, error.severity) == ("Стол 1 Игра 1", "E19", "error")
    assert error.places == (("Стол 1 Игра 1", "E19"), ("Стол 1 Игра 1", "L4"))
    assert error.message("ru") == "«Первый убитый: 5», но в Н1 убит игрок на месте 1 (L4)"
    assert error.hint("en") == "Fix “First killed” or the departure at L4"


def test_the_first_killed_field_against_the_seats_own_departure_is_an_error_at_both():
    """Seat 3 was voted out on day 1 (the votes row, L6); «Первый убитый: 3» disagrees."""
    book = _phase_words_without_first_kill()
    ws = book["Стол 1 Игра 1"]
    assert (ws["L5"].value, ws["L6"].value) == ("Д1", "3")
    ws["E19"] = 3
    error = only(rate(saved(book)), "first-killed-disagrees")
    assert error.places == (("Стол 1 Игра 1", "E19"), ("Стол 1 Игра 1", "L6"))
    assert error.message("ru") == "«Первый убитый: 3», но у места 3 записано «заголосован Д1» в L6"
    assert error.message("en") == (
        "“First killed: 3”, but seat 3 is recorded as “заголосован Д1” at L6"
    )


def test_a_kill_typed_without_its_phase_takes_night_1_from_the_first_killed_field():
    """A grid's «Выбыл» says «убит» for seat 1 with no phase anywhere: «Первый убитый: 1»
    gives Н1 (said at the field's cell), no error."""
    from test_club_blanks import table

    book = _phase_words_without_first_kill()
    ws = book["Стол 1 Игра 1"]
    ws["I4"], ws["I6"] = "Выбыл", "убит"
    outcome = rate(saved(book))
    assert table(outcome) == STANDINGS
    note = only(outcome, "first-killed-read-as-departure")
    assert note.cell == "E19"
    assert "фаза выбывания места 1 не записана" in note.message("ru")
    assert "left-without-when" not in {f.code for f in outcome.findings}


def test_a_first_killed_column_of_game_rows_is_the_departure_it_names_too():
    """«ПУ» in a sheet of game rows, the victim's «Выбыл» and «Когда» left blank: killed on
    night 1, said at the «ПУ» cell; the standings are those of the departures typed."""
    from layout_books import club_rows
    from test_layouts import standings, twin

    proto, tables = twin()
    data = club_rows(proto, tables)
    book = openpyxl.load_workbook(io.BytesIO(data))
    ws = book["Сезон"]
    assert ws["BO3"].value == "ПУ"
    seat = int(ws["BO4"].value)
    left = openpyxl.utils.get_column_letter(36 + seat)
    when = openpyxl.utils.get_column_letter(46 + seat)
    assert (ws[f"{left}4"].value, ws[f"{when}4"].value) == ("убит", "Н1")
    ws[f"{left}4"], ws[f"{when}4"] = None, None
    edited = saved(book)
    outcome = rate(edited)
    note = only(outcome, "first-killed-read-as-departure")
    assert (note.sheet, note.cell, note.value) == ("Сезон", "BO4", str(seat))
    assert not {"best-move-not-first-victim", "left-without-when"} & {
        f.code for f in outcome.findings
    }
    assert standings(Source("x.xlsx", edited)) == standings(Source("x.xlsx", data))


def test_first_killed_written_in_its_labels_own_cell_is_read():
    """«Первый убитый: 1» in one cell: the seat read there (it was dropped before)."""
    from test_club_blanks import table

    book = _phase_words_without_first_kill()
    ws = book["Стол 1 Игра 1"]
    ws["E18"], ws["E19"] = "Первый убитый: 1", None
    outcome = rate(saved(book))
    assert table(outcome) == STANDINGS
    note = only(outcome, "first-killed-read-as-departure")
    assert (note.sheet, note.cell, note.value) == ("Стол 1 Игра 1", "E18", "1")
