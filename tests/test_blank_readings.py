"""What each game sheet gave, said per game; the small readings of club files: seating
typed in advance, the blank's own tournament name, «6 фаз», games counted by table,
head to head, every finding at a cell, the row layout's everyday habits."""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import openpyxl
import pytest
from builders import Proto, names
from click.testing import CliRunner
from club_blanks import BLANKS, GAMES, fiim_form, ukrainian_blank

from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.layouts import reading_text


def run(data: bytes, name: str = "x.xlsx", rate: bool = True) -> Any:
    return evaluate([Source(name, data)], rate=rate)


def save(book: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


# ---- what was read, per game sheet ---------------------------------------------------------


def test_each_game_sheet_says_what_it_gave():
    reading = run(fiim_form()).reading[0]
    lines = [read for read in reading.games_read]
    assert [(g.sheet, g.game, g.result, g.departures, g.fouls, g.awards) for g in lines] == [
        ("Игра 1", "1", "red", 5, 3, 1),
        ("Игра 2", "2", "black", 4, 3, 2),
        ("Игра 3", "3", "red", 7, 2, 2),
        ("Игра 4", "4", "red", 6, 8, 1),
    ]
    assert lines[0].best_move == (1, (3, 7, 9)) and lines[3].unknown_phases == 1
    from mafia_sheets.reading.summary import reading_lines

    assert reading_lines(reading, "ru")[0] == (
        "Игра 1",
        "Игра 1: игра 1 — результат ✓ красные; лучший ход 1 → 3, 7, 9; 5 выбываний "
        "(Д1, Н1, Д2, Н2, Д3); 3 фола; 1 доп. балл; протест —",
    )
    assert reading_lines(reading, "en")[3][1] == (
        "Игра 4: game 4 — result ✓ red; best move 1 → 2, 4, 5; 6 departures "
        "(D1, N1, D2, N2, D3, phase not written); 8 fouls; 1 award; protest —"
    )


def test_a_sheet_that_gave_nothing_says_so():
    data = fiim_form()
    book = openpyxl.load_workbook(io.BytesIO(data))
    ws = book["Игра 2"]
    for cell in ("D19", "E19", "F19", "H19", "E18"):  # no best move, no result written
        ws[cell] = None
    line = run(save(book), rate=False).reading[0].games_read[1]
    assert (line.result, line.best_move) == (None, None)


def test_check_prints_what_each_sheet_gave_before_the_findings(tmp_path):
    path = tmp_path / "fiim.xlsx"
    path.write_bytes(fiim_form())
    result = CliRunner().invoke(main, ["check", str(path), "--lang", "en"])
    lines = result.output.splitlines()
    assert lines[0] == "fiim.xlsx: read: one sheet per game, 4 games"
    assert lines[1].startswith("  Игра 1: game 1 — result ✓ red; best move 1 → 3, 7, 9")
    assert len([line for line in lines if " — result " in line]) == 4
    assert all(" — result " in line for line in lines[1:5])


def test_both_json_outputs_say_what_each_sheet_gave(tmp_path):
    path = tmp_path / "fiim.xlsx"
    path.write_bytes(fiim_form())
    for command in ("check", "rate"):
        result = CliRunner().invoke(main, [command, str(path), "--json"])
        per_game = json.loads(result.output)["read"][0]["per_game"]
        assert per_game[2] == {
            "sheet": "Игра 3",
            "row": 7,
            "game": "3",
            "result": "red",
            "best_move": {"victim": 3, "seats": [1, 5, 8]},
            "departures": 7,
            "phases": ["D1", "N1", "N2", "D3", "N3", "D4", "?"],
            "fouls": 2,
            "awards": 2,
            "protest": False,
            "unread": 0,
            "text": per_game[2]["text"],
        }


def test_the_summary_sheet_lists_what_each_sheet_gave(tmp_path):
    path, out = tmp_path / "fiim.xlsx", tmp_path / "r.xlsx"
    path.write_bytes(fiim_form())
    result = CliRunner().invoke(main, ["rate", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    cells = [c.value for row in openpyxl.load_workbook(out)["Сводка"].iter_rows() for c in row]
    assert "прочитано: бланк на игру, 4 игры" in cells
    assert any(str(v).startswith("Игра 4: игра 4 — результат ✓ красные") for v in cells)


def test_the_page_gets_what_each_sheet_gave_in_its_language():
    from starlette.testclient import TestClient

    from mafia_sheets.web import app as web

    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    with TestClient(web.create_app()) as client:
        reply = client.post(
            "/api/rate?lang=en", files=[("files", ("fiim.xlsx", fiim_form(), kind))]
        ).json()
        labels = client.get("/api/labels").json()
    per_game = reply["result"]["read"][0]["per_game"]
    assert per_game[0]["text"].startswith("Игра 1: game 1 — result ✓ red")
    assert labels["en"]["readGames"] == "What each game sheet gave"


# ---- seating typed in advance ------------------------------------------------------------


def test_seating_typed_in_advance_is_not_played_yet_in_the_row_layout():
    """Games 3–4 with seats and nicknames but no result, no roles, no departures: one
    note, the standings of games 1–2 — as the other layouts skip such sheets."""
    played = Proto()
    played.add_game(1, names("A"), "Красные")
    played.add_game(2, names("A"), "Чёрные")
    ahead = Proto(games=list(played.games), seats=list(played.seats))
    for game in (3, 4):
        ahead.games.append({"game": game, "result": "", "ended": None})
        for seat, name in enumerate(names("A"), 1):
            ahead.seats.append(
                {
                    "game": game,
                    "seat": seat,
                    "player": name,
                    "role": "",
                    "fouls": "",
                    "left": "",
                    "when": "",
                    "best_move": "",
                    "bonus": "",
                }
            )
    outcome = evaluate([ahead.source()])
    assert [(f.code, f.cell) for f in outcome.findings] == [("games-not-played", "A4")]
    assert "3–4" in outcome.findings[0].message("ru")
    base = evaluate([played.source()])
    assert outcome.rating.standings == base.rating.standings


def test_a_blank_seated_in_advance_is_not_played_yet_either():
    """The next game's sheet with its seating typed: nicknames, nothing else."""
    seated = [
        dataclasses.replace(GAMES[0], number=2, roles={}, events=[], fouls={}, bonus={}, best=None)
    ]
    data = ukrainian_blank([GAMES[0], *seated], sheriff_checks=False)
    book = openpyxl.load_workbook(io.BytesIO(data))
    book["Стіл1Гра2"]["J1"] = None  # no result marked
    reading = run(save(book)).reading[0]
    assert (reading.games, reading.unplayed) == (1, 1)


# ---- small readings -------------------------------------------------------------------------


def test_the_blanks_tournament_names_the_results_without_a_tournament_sheet():
    outcome = run(fiim_form(), name="night.xlsx")
    assert outcome.rating.tournament.name == "Кубок Полтавы"


def test_a_tournament_sheet_still_names_the_results():
    book = openpyxl.load_workbook(io.BytesIO(fiim_form()))
    ws = book.create_sheet("Турнир")
    ws.append(["Параметр", "Значение"])
    ws.append(["Название", "Осенний кубок"])
    assert run(save(book)).rating.tournament.name == "Осенний кубок"


@pytest.mark.parametrize(("typed", "window"), [("6 фаз", 6), ("5 фаз", 5), ("6 phases", 6)])
def test_quiet_phases_typed_with_their_unit(typed, window):
    proto = Proto(settings=[("Ничья после фаз без выбываний", typed)])
    proto.add_game(1, names("A"))
    assert evaluate([proto.source()]).rating.rules.draw_quiet_phases == window


def test_games_numbered_per_table_are_counted_per_table():
    proto = Proto()
    for table in (1, 2):
        for game in (1, 2, 3):
            proto.add_game(game, names("T" + str(table)), "Красные", table=table)
            for row in proto.seats[-10:]:
                row["table"] = table
    reading = evaluate([proto.source()], rate=False).reading[0]
    assert reading.games == 6
    assert reading_text(reading, "ru") == "прочитано: строка на место, 6 игр"


def test_head_to_head_for_any_tournament_of_several_games():
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("A", start=2), "Чёрные")  # no rounds, one file
    rating = evaluate([proto.source()]).rating
    assert rating.stats is not None and rating.stats.pairs is not None
    assert len(rating.stats.pairs) > 0


@pytest.mark.parametrize("blank", list(BLANKS))
def test_no_finding_without_a_cell_on_a_game_sheet(blank):
    data = BLANKS[blank]()
    book = openpyxl.load_workbook(io.BytesIO(data))
    first = book.worksheets[0]
    for row in first.iter_rows():  # game 1's roles wiped: role counts, per seat
        for cell in row:
            if cell.value in ("М", "Д", "Ш", "Мафия", "Дон", "Шериф", "Mafia", "Don", "Detective"):
                cell.value = None
    outcome = run(save(book), rate=False)
    assert outcome.findings and all(f.cell for f in outcome.findings)


def test_everyday_habits_of_the_row_layout_are_read():
    """«№» heading the games' ids in Игры, «shot» / «lynched» in Выбыл, «Citizen» /
    «Detective» as roles."""
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("A"), "Чёрные")
    expected = evaluate([proto.source()]).rating.standings
    for row in proto.seats:
        row["left"] = {"убит": "shot", "заголосован": "lynched"}.get(row["left"], row["left"])
        row["role"] = {"Мирный": "Citizen", "Шериф": "Detective"}.get(row["role"], row["role"])
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes()))
    book["Игры"]["A1"] = "№"
    outcome = run(save(book))
    assert outcome.findings == () and outcome.rating.standings == expected


def test_formulas_without_values_are_named_on_every_sheet():
    """openpyxl saves formulas with no stored value: every sheet that has them is named,
    each with its first cell, in one refusal."""
    from mafia_sheets.errors import ProtocolReadError

    proto = Proto()
    proto.add_game(1, names("A"))
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes()))
    book["Игры"]["D2"] = "=1+1"
    book["Протокол"]["K5"] = "=2+2"
    with pytest.raises(ProtocolReadError) as raised:
        run(save(book))
    message = raised.value.en
    assert "Игры!D2" in message and "Протокол!K5" in message


def test_several_numbers_in_one_header_cell():
    """`Стол № 2, Игра № 3, Тур 4` typed in one cell: the table, the game and the round."""
    from mafia_sheets.reading.grid import Grid
    from mafia_sheets.reading.layouts import read_sheets

    cells = [["Стол № 2, Игра № 3, Тур 4", "", ""], ["№", "Игрок", "Роль"]]
    cells += [[seat, f"P{seat}", ""] for seat in range(1, 11)]
    (game,) = read_sheets([Grid("Лист", cells)], "x.xlsx").games
    assert {k: v for k, (v, _) in game.header.items()} == {"table": "2", "game": "3", "round": "4"}
