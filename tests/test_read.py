"""Reading any workbook laid out per §2, not only our template."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
from builders import Proto, names

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.protocol import load_protocol
from mafia_sheets.reading.values import parse_number, parse_phase, parse_seat_list, parse_time
from mafia_sheets.report.json import outcome_json


def standings(source: Source) -> list[tuple]:
    result = outcome_json(evaluate([source]))
    return [(s["player"], s["place_range"], s["total"]) for s in result["standings"]]


def small() -> Proto:
    proto = Proto(settings=[("Название", "Кубок")])
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("A"), "Чёрные")
    proto.seat(2, 7)["bonus"] = "ЛИ"
    return proto


def test_ru_and_en_give_the_same_standings():
    proto = small()
    assert standings(proto.source("ru")) == standings(proto.source("en"))


def test_any_column_order_and_extra_columns_and_sheets():
    proto = small()
    order = {
        "seats": ["bonus", "player", "when", "left", "seat", "game", "role", "fouls", "best_move"],
        "games": ["result", "ended", "game", "annulled", "judge", "round", "table"],
    }
    shuffled = Source("p.xlsx", proto.to_bytes("ru", order))
    workbook = openpyxl.load_workbook(io.BytesIO(shuffled.data))
    workbook.create_sheet("Заметки судьи")["A1"] = "не относится к протоколу"
    workbook["Протокол"].insert_cols(3)
    workbook["Протокол"]["C1"] = "Комментарий"
    buffer = io.BytesIO()
    workbook.save(buffer)
    assert standings(Source("p.xlsx", buffer.getvalue())) == standings(proto.source())


def mixed_workbook() -> bytes:
    """EN sheet names with RU headers, a title above the header, blank rows, text numbers."""
    workbook = openpyxl.Workbook()
    games = workbook.active
    games.title = "  GAMES "
    games.append(["Итоги вечера"])  # a title row above the header
    games.append([])
    games.append(["ИГРА", "результат", "окончание"])
    games.append(["1", "победа мафии", dt.datetime(2026, 11, 30, 21, 5)])
    seats = workbook.create_sheet("протокол")
    seats.append(["Game", "Seat", "Player", "Role", "Fouls", "Left", "When", "Bonus"])
    roles = ["к", "", "М", "", "ш", "", "д", "", "m", ""]
    flow = {
        1: ("Заголосован", "д1"),
        2: ("убит", "Н 1"),
        4: ("voted out", "D2"),
        5: ("killed", "n2"),
    }
    for seat in range(1, 11):
        left, when = flow.get(seat, ("", ""))
        seats.append(
            [
                1.0,
                str(seat),
                f" Ёж{seat} ",
                roles[seat - 1],
                "0",
                left,
                when,
                "0,5" if seat == 7 else "",
            ]
        )
        if seat == 5:
            seats.append([])  # a stray blank row
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_mixed_languages_titles_blank_rows_text_numbers_and_folding():
    outcome = evaluate([Source("mixed.xlsx", mixed_workbook())])
    assert outcome.errors == 0, [f.code + " " + f.where for f in outcome.findings]
    table = {s.player: s for s in outcome.rating.standings}
    assert table["Ёж7"].awards == 0.5 and table["Ёж7"].wins_don_sheriff == 1
    assert table["Ёж2"].killed_first_night == 1


def test_every_value_keeps_its_cell():
    protocol, _ = load_protocol(Source("mixed.xlsx", mixed_workbook()))
    games, seats = protocol.tables["games"], protocol.tables["seats"]
    assert (games.sheet, games.header_row, games.cell("result", 4)) == ("  GAMES ", 3, "B4")
    rows = seats.frame["_row"].tolist()
    assert rows[:5] == [2, 3, 4, 5, 6] and rows[5] == 8  # the blank row 7 is skipped
    assert seats.cell("bonus", 9) == "H9"


def test_value_parsers():
    assert parse_number("0,5") == parse_number(0.5) == parse_number(" 0.5 ")
    assert parse_phase("Н1") == 2 and parse_phase("d3") == 5 and parse_phase("ночь 2") == 4
    assert parse_seat_list("3 5 7") == parse_seat_list("3,5,7") == parse_seat_list("3;5;7")
    assert parse_seat_list(4.0) == (4,)
    assert parse_time("21:45") == dt.datetime(1900, 1, 1, 21, 45)
    assert parse_time(dt.time(21, 45)) == dt.datetime(1900, 1, 1, 21, 45)
    assert parse_time("30.11.2026 21:45") == dt.datetime(2026, 11, 30, 21, 45)
    assert parse_time(46000.5) == dt.datetime(2025, 12, 9, 12, 0)


def test_formulas_are_read_as_their_cached_values():
    import xlsxwriter

    buffer = io.BytesIO()
    with xlsxwriter.Workbook(buffer, {"in_memory": True}) as workbook:
        games = workbook.add_worksheet("Игры")
        games.write_row(0, 0, ["Игра", "Результат"])
        games.write_row(1, 0, [1, "Красные"])
        seats = workbook.add_worksheet("Протокол")
        seats.write_row(0, 0, ["Игра", "Место", "Игрок", "Роль", "Выбыл", "Когда"])
        proto = Proto()
        proto.add_game(1, names("F"), "Красные")
        for row, seat in enumerate(proto.seats, start=1):
            seats.write_formula(row, 0, "=1+0", None, 1)  # cached value 1
            seats.write_row(
                row, 1, [seat["seat"], seat["player"], seat["role"], seat["left"], seat["when"]]
            )
    outcome = evaluate([Source("f.xlsx", buffer.getvalue())])
    assert outcome.errors == 0 and len(outcome.rating.standings) == 10
