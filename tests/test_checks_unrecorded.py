"""Games whose protocol records no departures — the paper form's left half, a sheet
without «Выбыл», a row of games with the first-killed seat alone — are rated as typed,
with what could not be checked said aloud, never refused for what was never written."""

from __future__ import annotations

import io
from typing import Any

import openpyxl
from builders import names, red_then_black, set_departures

from mafia_sheets.formats.mwt import upload
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate

NO_DEPARTURES = {"seats": ["game", "seat", "player", "role", "fouls", "best_move", "bonus"]}


def run(data: bytes, name: str = "protocol.xlsx", rate: bool = True) -> Any:
    return evaluate([Source(name, data)], rate=rate)


def placed(outcome: Any) -> list[tuple[str, str, str, str, tuple[Any, ...]]]:
    return [(f.code, f.severity, f.sheet, f.cell, f.also) for f in outcome.findings]


def test_a_seats_sheet_without_departures_is_rated_with_the_best_move_paid():
    outcome = run(red_then_black().to_bytes(order=NO_DEPARTURES))
    found = [f for f in placed(outcome) if f[0] != "column-absent"]
    assert found == [
        ("departures-not-recorded", "warning", "Игры", "E2", (("Игры", "E3"),)),
        ("best-move-read-as-departure", "warning", "Протокол", "F2", ()),
    ]
    said = {f.code: f for f in outcome.findings}
    assert (
        said["departures-not-recorded"]
        .message("ru")
        .startswith("Выбывания не записаны в 2 играх: конец игры")
    )
    assert said["best-move-read-as-departure"].message("en") == (
        "A best move is written for seat 1 and the game's departures are not: seat 1 is "
        "read as killed on N1"
    )
    first = next(s for s in outcome.rating.standings if s.player == "A1")
    assert (first.best_move, first.killed_first_night) == (0.5, 1)  # 3, 7, 9: three blacks
    absent = next(f for f in outcome.findings if f.code == "column-absent")
    assert absent.message("ru").endswith("убитым в первую ночь считается автор лучшего хода")


def test_the_left_half_of_the_paper_form_is_rated():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Игра 1"
    sheet["A1"], sheet["B1"], sheet["D1"], sheet["E1"] = "ИГРА №", 1, "СТОЛ №", 1
    sheet.append([])
    sheet.append(["№", "Игрок", "Роль", "Фолы", "Доп. баллы"])
    roles = ["", "", "Ш", "", "Д", "М", "", "М", "", ""]
    for seat, (player, role) in enumerate(zip(names("P"), roles, strict=True), start=1):
        sheet.append([seat, player, role, None, None])
    sheet["A15"], sheet["B15"] = "ПОБЕДИВШАЯ КОМАНДА", "красные"
    sheet["A16"], sheet["B16"], sheet["C16"], sheet["D16"] = "ЛУЧШИЙ ХОД", 5, 6, 8
    sheet["E16"], sheet["F16"] = "Игрок №", 1
    buffer = io.BytesIO()
    book.save(buffer)
    outcome = run(buffer.getvalue())
    assert placed(outcome) == [
        ("departures-not-recorded", "warning", "Игра 1", "B15", ()),
        ("best-move-read-as-departure", "warning", "Игра 1", "B16", ()),
    ]
    assert outcome.rating is not None
    first = next(s for s in outcome.rating.standings if s.player == "P1")
    assert (first.total, first.best_move) == (2.5, 0.5)


def test_a_row_of_games_with_the_first_victim_alone_is_not_judged_by_its_end():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Игры"
    seats = [f"Игрок {n}" for n in range(1, 11)] + [f"Роль {n}" for n in range(1, 11)]
    sheet.append(["Игра", "Результат", *seats, "ПУ", "ЛХ"])
    roles = ["", "", "ш", "", "д", "м", "", "м", "", ""]
    sheet.append([1, "мирные", *names("W"), *roles, 1, "5 6 8"])
    buffer = io.BytesIO()
    book.save(buffer)
    outcome = run(buffer.getvalue())
    assert [f[:4] for f in placed(outcome)] == [
        ("departures-not-recorded", "warning", "Игры", "B2"),
        ("first-killed-read-as-departure", "warning", "Игры", "W2"),
    ]
    assert outcome.rating is not None


def test_games_said_to_record_every_departure_are_judged_by_them():
    proto = red_then_black()
    for game in proto.games:
        game["departures"] = "все"
    found = {f.code for f in run(proto.to_bytes(order=NO_DEPARTURES), rate=False).findings}
    assert {"red-win-blacks-left", "black-win-reds-outnumber"} <= found
    assert "departures-not-recorded" not in found


def test_a_game_missing_some_departures_is_still_an_error():
    proto = red_then_black()
    set_departures(proto, 1, {1: ("убит", "Н1"), 6: ("заголосован", "Д1")})
    found = [(f.code, f.cell) for f in run(proto.to_bytes(), rate=False).findings]
    assert ("red-win-blacks-left", "E2") in found
    assert "departures-not-recorded" not in {code for code, _ in found}


def test_the_federation_upload_leaves_who_stayed_unsaid():
    data = red_then_black().to_bytes(order=NO_DEPARTURES)
    outcome = evaluate([Source("protocol.xlsx", data)], stats=False, seats=True)
    games, _ = upload(outcome.rating)
    counts = [(g["result"]["black_count"], g["result"]["red_count"]) for g in games]
    assert counts == [(None, None), (None, None)]
    assert [g["result"]["killed_first"] for g in games] == [1, None]  # game 1's best move


def test_where_other_games_record_departures_a_game_without_them_is_an_omission():
    proto = red_then_black()
    set_departures(proto, 1, {})  # game 2 keeps its departures
    found = [(f.code, f.cell) for f in run(proto.to_bytes(), rate=False).findings]
    assert ("red-win-blacks-left", "E2") in found
    assert ("best-move-not-first-victim", "H2") in found
    assert "departures-not-recorded" not in {code for code, _ in found}


NO_PHASES = {"seats": ["game", "seat", "player", "role", "fouls", "left", "best_move", "bonus"]}


def test_departures_without_a_when_column_are_errors_at_their_own_cells():
    outcome = run(red_then_black().to_bytes(order=NO_PHASES), rate=False)
    found = [f for f in outcome.findings if f.code == "left-without-when"]
    assert len(found) == 1  # the sheet has no place for a phase: one finding, every cell
    assert found[0].cell == "F2"  # «Выбыл», not the sheet's column A
    assert ("Протокол", "F3") in found[0].also
    assert found[0].value == "убит"
    assert found[0].expected("ru") == "фаза в столбце «Когда»: Д1, Н1 … (на листе его нет)"
    assert found[0].hint("en") == "Add a When column and enter each departure's phase in it"
    assert "departures-not-recorded" not in {f.code for f in outcome.findings}


def test_misspelt_departures_are_departures_written():
    proto = red_then_black()
    for row in proto.seats:
        if row["left"]:
            row["left"], row["when"] = f"{row['left']}т {row['when']}", ""  # «убитт Н1»
    codes = {f.code for f in run(proto.to_bytes(order=NO_PHASES), rate=False).findings}
    assert "unknown-value" in codes
    assert not codes & {"departures-not-recorded", "best-move-read-as-departure"}
