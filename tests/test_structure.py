"""§5.1 structural findings, each at its exact cell, and the findings of reading/parsing."""

from __future__ import annotations

import io

import openpyxl
import pytest
from builders import Proto, game_cell, names, seat_cell
from openpyxl.utils import get_column_letter

from mafia_sheets.findings import CATALOG
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading import columns as schema


def findings_of(proto: Proto, lang: str = "ru", **kwargs):
    outcome = evaluate([proto.source(lang)], rate=False, **kwargs)
    return [(f.code, f.severity, f.sheet, f.cell) for f in outcome.findings]


def valid() -> Proto:
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Чёрные")
    return proto


def test_valid_protocol_has_no_findings():
    assert findings_of(valid()) == []
    assert findings_of(valid(), "en") == []


SEAT_FAULTS = [
    # (seat field, value, code, column whose cell is reported)
    ("role", "Оборотень", "unknown-value", "role"),
    ("left", "ушла домой", "unknown-value", "left"),
    ("bonus", "ЛИ5", "unknown-value", "bonus"),
    ("bonus", 2, "bonus-number-not-allowed", "bonus"),
    ("seat", 11, "bad-number", "seat"),
    ("fouls", 5, "bad-number", "fouls"),
    ("fouls", 2.5, "bad-number", "fouls"),
    ("when", "утро", "bad-phase", "when"),
    ("best_move", "три пять", "bad-best-move", "best_move"),
    ("player", "", "missing-value", "player"),
]


@pytest.mark.parametrize("column,value,code,cell_column", SEAT_FAULTS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_value_faults_point_at_the_cell(column, value, code, cell_column, lang):
    proto = valid()
    cell = seat_cell(proto, 2, 6, cell_column)
    proto.seat(2, 6)[column] = value
    sheet = "Протокол" if lang == "ru" else "Seats"
    assert (code, "error", sheet, cell) in findings_of(proto, lang)


def test_empty_required_cells_are_one_finding_per_column_listing_every_cell():
    proto = valid()
    for game, seat in ((1, 2), (2, 3), (2, 7)):
        proto.seat(game, seat)["player"] = ""
    found = [
        f for f in evaluate([proto.source()], rate=False).findings if f.code == "missing-value"
    ]
    cells = [seat_cell(proto, g, s, "player") for g, s in ((1, 2), (2, 3), (2, 7))]
    assert cells == ["C3", "C14", "C18"]
    assert [(f.sheet, f.cell, f.game) for f in found] == [("Протокол", "C3", None)]
    assert found[0].also == (("Протокол", "C14"), ("Протокол", "C18"))
    assert found[0].message("ru") == (
        "Пустая ячейка в обязательном столбце «Игрок / Player» (ячеек: 3 — C3, C14, C18)"
    )
    assert found[0].message("en") == (
        "Empty cell in the required column “Игрок / Player” (3 cells: C3, C14, C18)"
    )


def test_unknown_result_and_missing_result():
    proto = valid()
    proto.games[0]["result"] = "Синие"
    proto.games[1]["result"] = ""
    found = findings_of(proto)
    assert ("unknown-value", "error", "Игры", game_cell(proto, 1, "result")) in found
    assert ("missing-result", "error", "Игры", game_cell(proto, 2, "result")) in found


def test_bad_time_is_a_warning_at_its_cell():
    proto = valid()
    proto.games[1]["ended"] = "поздно"
    assert ("bad-time", "warning", "Игры", game_cell(proto, 2, "ended")) in findings_of(proto)


def test_game_in_seats_missing_from_games_and_the_reverse():
    proto = valid()
    proto.games[1]["game"] = 3  # game 2 is seated but not listed; game 3 listed, no seats
    found = findings_of(proto)
    assert ("game-not-in-games", "error", "Протокол", seat_cell(proto, 2, 1, "game")) in found
    assert ("game-without-seats", "error", "Игры", "A3") in found


def test_duplicate_game_id():
    proto = valid()
    proto.games.append({"game": 2, "result": "Чёрные"})
    assert ("duplicate-game", "error", "Игры", "A4") in findings_of(proto)


def test_duplicate_and_missing_seats():
    proto = valid()
    proto.seat(1, 4)["seat"] = 6  # seat 6 twice, seat 4 missing
    found = findings_of(proto)
    assert ("duplicate-seat", "error", "Протокол", "B7") in found  # the later of the two
    assert ("missing-seats", "error", "Протокол", "B2") in found  # the game's first row


def test_player_twice_in_a_game():
    proto = valid()
    proto.seat(1, 8)["player"] = "A2"
    assert ("player-twice", "error", "Протокол", seat_cell(proto, 1, 8, "player")) in findings_of(
        proto
    )


def test_role_count():
    proto = valid()
    proto.seat(2, 4)["role"] = "Мафия"
    assert ("role-count", "error", "Протокол", seat_cell(proto, 2, 1, "role")) in findings_of(proto)
    found = next(
        f for f in evaluate([proto.source()], rate=False).findings if f.code == "role-count"
    )  # each language names the roles in its own words
    assert found.message("ru") == "В игре 2 роли: Мирный 5, Шериф 1, Мафия 3, Дон 1"
    assert found.message("en") == "Game 2 has roles: Civilian 5, Sheriff 1, Mafia 3, Don 1"


def test_nickname_not_in_roster_suggests_the_roster_spelling():
    proto = valid()
    everyone = sorted({r["player"] for r in proto.seats})
    proto.players = [{"player": n} for n in everyone]
    proto.seat(2, 3)["player"] = "b3"
    outcome = evaluate([proto.source()], rate=False)
    hits = [f for f in outcome.findings if f.code == "not-in-roster"]
    assert [(f.cell, f.severity) for f in hits] == [(seat_cell(proto, 2, 3, "player"), "error")]
    assert "B3" in hits[0].expected("ru") and "B3" in hits[0].expected("en")


def test_roster_duplicates():
    proto = valid()
    proto.players = [{"player": n} for n in sorted({r["player"] for r in proto.seats})]
    proto.players.append({"player": "A1"})
    assert ("duplicate-roster", "error", "Игроки", "A22") in findings_of(proto)


def test_left_without_when_and_when_without_left():
    proto = valid()
    proto.seat(1, 3)["when"] = ""
    proto.seat(1, 6)["when"] = "Д2"
    found = findings_of(proto)
    assert ("left-without-when", "error", "Протокол", seat_cell(proto, 1, 3, "when")) in found
    assert ("when-without-left", "error", "Протокол", seat_cell(proto, 1, 6, "left")) in found


def test_missing_sheet_and_missing_column_name_what_was_found():
    proto = valid()
    data = proto.to_bytes()
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    del workbook["Игры"]
    workbook["Протокол"].delete_cols(4)  # Роль
    buffer = io.BytesIO()
    workbook.save(buffer)
    outcome = evaluate([Source("x.xlsx", buffer.getvalue())], rate=False)
    codes = {f.code: f for f in outcome.findings}
    assert "Протокол" in codes["missing-sheet"].expected("ru")  # lists the sheets found
    column = codes["missing-column"]
    assert (column.sheet, column.cell) == ("Протокол", "A1")
    assert "Роль / Role" in column.message("ru") and "«Игрок»" in column.expected("ru")


def test_settings_unknown_key_and_bad_value():
    proto = valid()
    proto.settings = [("Цвет скатерти", "зелёный"), ("Коэффициент K", "может быть")]
    found = findings_of(proto)
    assert ("unknown-setting", "warning", "Турнир", "A2") in found
    assert ("bad-setting", "error", "Турнир", "B3") in found
    by_code = {f.code: f for f in evaluate([proto.source()], rate=False).findings}
    assert by_code["bad-setting"].expected("ru") == "да или нет"
    assert by_code["bad-setting"].expected("en") == "yes or no"
    allowed = by_code["unknown-setting"].expected("en")
    assert "Coefficient K" in allowed and "Season name" in allowed and "Коэффициент" not in allowed
    assert "Название сезона" in by_code["unknown-setting"].expected("ru")


def test_every_message_renders_in_both_languages_with_what_expected_and_fix():
    for code, template in CATALOG.items():
        for lang in ("ru", "en"):
            what, expected, fix = template.text(lang)
            assert what and expected and fix, (code, lang)


def _edited(proto: Proto, edit) -> Source:
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes()))
    edit(book)
    buffer = io.BytesIO()
    book.save(buffer)
    return Source("edited.xlsx", buffer.getvalue())


def test_a_second_sheet_of_one_purpose_is_reported_and_the_first_is_read():
    def add_english_games(book):
        extra = book.create_sheet("Games")
        extra.append(["Game", "Result"])
        extra.append([99, "Red"])

    outcome = evaluate([_edited(valid(), add_english_games)], rate=False)
    assert [(f.code, f.severity, f.sheet, f.cell, f.value) for f in outcome.findings] == [
        ("duplicate-sheet", "warning", "Games", "A1", "Игры")
    ]


def test_a_second_column_of_one_purpose_is_reported_at_its_header_cell():
    def add_second_player_column(book):
        seats = book["Протокол"]
        column = seats.max_column + 1
        seats.cell(row=1, column=column, value="Ник")
        for row in range(2, seats.max_row + 1):
            seats.cell(row=row, column=column, value="кто-то")

    outcome = evaluate([_edited(valid(), add_second_player_column)], rate=False)
    after_last = get_column_letter(len(schema.COLUMNS["seats"]) + 1)
    assert [(f.code, f.severity, f.sheet, f.cell, f.value) for f in outcome.findings] == [
        ("duplicate-column-differs", "error", "Протокол", f"{after_last}1", "Ник")
    ]  # other names than «Игрок» holds: which is meant is the judge's to say


def test_a_misspelt_role_is_one_finding_not_also_a_wrong_count_of_roles():
    from builders import Proto, names

    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Красные")
    proto.seat(1, 3)["role"] = "Вампир"
    proto.seat(2, 3)["role"] = "Мирный"  # a count of roles really wrong: said
    codes = [(f.code, f.game) for f in evaluate([proto.source()], rate=False).findings]
    assert ("unknown-value", "1") in codes and ("role-count", "1") not in codes
    assert ("role-count", "2") in codes
