"""The other layouts: one sheet per game and one row per game read into the same tables.

Hand-typed workbooks (tests/layout_books.py) must give the standings of their row-layout
twins, and every finding must point at the user's own cell in the user's own sheet.
"""

from __future__ import annotations

import io

import openpyxl
import pytest
from builders import Proto, names
from hypothesis import given, settings
from hypothesis import strategies as st
from layout_books import club_rows, russian_paper, ukrainian_club

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.layouts import reading_text
from mafia_sheets.report.annotate import annotate_workbook


def twin() -> tuple[Proto, dict[int, int]]:
    """Four games on two tables: red, black, red with a double vote-out, black."""
    proto = Proto()
    proto.add_game(1, names("Игрок"), "Красные")
    proto.add_game(2, names("Игрок", start=3), "Чёрные")
    proto.add_game(3, names("Игрок", start=2), "Красные")
    proto.add_game(4, names("Игрок", start=4), "Чёрные")
    # game 3: seats 3 and 7 voted out together on day 2 (a split), 9 on day 3
    for seat, (left, when) in {
        3: ("заголосован", "Д2"),
        7: ("заголосован", "Д2"),
        1: ("убит", "Н1"),
        9: ("заголосован", "Д3"),
        2: ("убит", "Н2"),
    }.items():
        proto.seat(3, seat).update(left=left, when=when)
    proto.seat(1, 1)["best_move"] = "3 7 9"  # killed on night 1 in a red win: all black
    proto.seat(2, 2)["best_move"] = "3 4 7"
    proto.seat(1, 5)["bonus"] = "ЛИ"
    proto.seat(2, 7)["bonus"] = "ЛИ2"
    proto.seat(2, 4)["bonus"] = "ЛИП"
    proto.seat(1, 6)["fouls"] = 2
    proto.seat(4, 8)["fouls"] = 3
    return proto, {1: 1, 2: 2, 3: 1, 4: 2}


def standings(source: Source) -> list[tuple[str, object, object]]:
    outcome = evaluate([source])
    assert outcome.rating is not None, [(f.code, f.sheet, f.cell) for f in outcome.findings]
    return [(s.player, s.total, s.place_range) for s in outcome.rating.standings]


BOOKS = {"ukrainian-blank": ukrainian_club, "russian-blank": russian_paper, "club-rows": club_rows}


@pytest.mark.parametrize("layout", list(BOOKS))
def test_hand_typed_layouts_give_the_twins_standings(layout: str) -> None:
    proto, tables = twin()
    expected = standings(proto.source())
    data = BOOKS[layout](proto, tables)
    assert standings(Source(f"{layout}.xlsx", data)) == expected


@pytest.mark.parametrize(
    ("layout", "name", "games", "codes"),
    [
        ("ukrainian-blank", "бланк на игру", 4, []),
        ("russian-blank", "бланк на игру", 4, []),
        # the sheet's «Итого игр:» line is noted as the row layout notes a totals row
        ("club-rows", "строка на игру", 4, ["totals-row"]),
    ],
)
def test_the_layout_is_detected_and_stated(
    layout: str, name: str, games: int, codes: list[str]
) -> None:
    proto, tables = twin()
    outcome = evaluate([Source("x.xlsx", BOOKS[layout](proto, tables))])
    assert [f.code for f in outcome.findings] == codes
    assert reading_text(outcome.reading[0], "ru").startswith(f"прочитано: {name}, {games} игр")


def test_a_half_filled_last_game_is_not_played_yet() -> None:
    proto, tables = twin()
    outcome = evaluate([Source("x.xlsx", ukrainian_club(proto, tables, unplayed=True))])
    assert outcome.reading[0].unplayed == 1 and outcome.reading[0].games == 4
    assert reading_text(outcome.reading[0], "ru") == (
        "прочитано: бланк на игру, 4 игры (ещё не сыграно: 1)"
    )
    assert reading_text(outcome.reading[0], "en") == (
        "read: one sheet per game, 4 games (1 not played yet)"
    )


def _edit(data: bytes, sheet: str, **cells: object) -> bytes:
    book = openpyxl.load_workbook(io.BytesIO(data))
    for cell, value in cells.items():
        book[sheet][cell] = value
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def placed(data: bytes) -> list[tuple[str, str, str]]:
    outcome = evaluate([Source("x.xlsx", data)], rate=False)
    return [(f.code, f.sheet, f.cell) for f in outcome.findings]


def test_findings_point_at_the_users_cells_on_a_game_sheet() -> None:
    proto, tables = twin()
    data = ukrainian_club(proto, tables, unplayed=False)
    # game 2 (table 2, its first game): a nickname twice, a foul box marked with «y»
    data = _edit(data, "Стіл2Гра1", C14="Игрок3", D15="y")
    found = placed(data)
    assert ("player-twice", "Стіл2Гра1", "C14") in found
    assert ("bad-number", "Стіл2Гра1", "D15") in found


def test_a_missing_result_points_at_the_mark_cell() -> None:
    proto, tables = twin()
    data = _edit(ukrainian_club(proto, tables, unplayed=False), "Стіл1Гра1", J1=None)
    assert ("missing-result", "Стіл1Гра1", "J1") in placed(data)


def test_two_marked_results_are_an_error_at_the_second_mark() -> None:
    proto, tables = twin()
    data = _edit(ukrainian_club(proto, tables, unplayed=False), "Стіл1Гра1", J2="x")
    assert ("result-marked-twice", "Стіл1Гра1", "J2") in placed(data)


def test_a_bad_seat_in_the_kills_row_is_reported_at_its_cell() -> None:
    proto, tables = twin()
    data = _edit(ukrainian_club(proto, tables, unplayed=False), "Стіл1Гра1", D34="пять")
    assert ("bad-seat-cell", "Стіл1Гра1", "D34") in placed(data)


def test_a_best_move_without_its_victim_is_reported() -> None:
    proto, tables = twin()
    data = russian_paper(proto, tables)
    # game 1: the victim's seat cleared and the night-1 kill no longer recorded
    data = _edit(data, "Игра 1", H18=None, K6=None, L6=None)
    assert ("best-move-without-victim", "Игра 1", "D18") in placed(data)


def test_a_protest_written_on_the_sheet_is_a_warning_at_its_cell() -> None:
    proto, tables = twin()
    data = _edit(russian_paper(proto, tables), "Игра 2", B21="Протест", D21="Игрок 4: фол")
    assert ("protest-on-game-sheet", "Игра 2", "D21") in placed(data)


def test_an_unplaced_sheet_is_reported_not_skipped() -> None:
    proto, _ = twin()
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes()))
    book.create_sheet("Заметки")["A1"] = "кто принесёт карты"
    buffer = io.BytesIO()
    book.save(buffer)
    assert placed(buffer.getvalue()) == [("unplaced-sheet", "Заметки", "A1")]


def test_findings_of_a_game_row_point_at_its_cells() -> None:
    proto, tables = twin()
    data = club_rows(proto, tables)
    # game 2 is row 5: a role misspelt in the roles block (seat 3 → column S)
    data = _edit(data, "Сезон", S5="Мафиозо")
    assert ("unknown-value", "Сезон", "S5") in placed(data)


def test_annotate_marks_the_users_own_cell_in_the_users_sheet() -> None:
    proto, tables = twin()
    data = _edit(ukrainian_club(proto, tables, unplayed=False), "Стіл2Гра1", C14="Игрок3")
    source = Source("x.xlsx", data)
    outcome = evaluate([source], rate=False)
    book = openpyxl.load_workbook(io.BytesIO(annotate_workbook(source, outcome.findings)))
    assert book["Стіл2Гра1"]["C14"].comment is not None
    assert "дважды" in book["Стіл2Гра1"]["C14"].comment.text


def test_the_same_game_in_two_layouts_is_refused_naming_the_sheets() -> None:
    from mafia_sheets.errors import ProtocolReadError

    proto, tables = twin()
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes()))
    blank = openpyxl.load_workbook(io.BytesIO(russian_paper(proto, tables)))
    copy = book.create_sheet("Игра 1")
    for row in blank["Игра 1"].iter_rows():
        for cell in row:
            copy[cell.coordinate] = cell.value
    buffer = io.BytesIO()
    book.save(buffer)
    with pytest.raises(ProtocolReadError, match="«Игра 1»"):
        evaluate([Source("x.xlsx", buffer.getvalue())])


def test_a_workbook_mixing_layouts_is_read_sheet_by_sheet() -> None:
    proto, tables = twin()
    first, rest = Proto(), Proto()
    first.games, first.seats = proto.games[:2], [s for s in proto.seats if s["game"] in (1, 2)]
    rest.games, rest.seats = proto.games[2:], [s for s in proto.seats if s["game"] in (3, 4)]
    book = openpyxl.load_workbook(io.BytesIO(first.to_bytes()))
    blank = openpyxl.load_workbook(io.BytesIO(russian_paper(rest, tables)))
    for name in blank.sheetnames:
        copy = book.create_sheet(name)
        for row in blank[name].iter_rows():
            for cell in row:
                copy[cell.coordinate] = cell.value
    buffer = io.BytesIO()
    book.save(buffer)
    source = Source("mixed.xlsx", buffer.getvalue())
    assert standings(source) == standings(proto.source())
    assert evaluate([source]).reading[0].layout == "mixed"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), games=st.integers(1, 12))
def test_generated_tournaments_rate_the_same_in_every_layout(seed: int, games: int) -> None:
    """The same generated games written as rows, one sheet per game and one row per game."""
    from mafia_sheets.reading.protocol import load_protocol
    from mafia_sheets.template.layouts import games_of, write_games
    from mafia_sheets.testing.synth import generate

    buffer = io.BytesIO()
    generate(games, seed=seed).to_xlsx(buffer)
    rows = Source("rows.xlsx", buffer.getvalue())
    protocol, _ = load_protocol(rows)
    expected = evaluate([rows])
    assert expected.rating is not None
    for layout in ("blank", "wide"):
        source = Source(
            f"{layout}.xlsx", write_games(layout, games_of(protocol), "ru", protocol=protocol)
        )
        outcome = evaluate([source])
        assert outcome.reading[0].layout == layout
        assert outcome.rating is not None, [(f.code, f.sheet, f.cell) for f in outcome.findings]
        # every label the templates print is read back: no cell of theirs is left unread
        assert "cells-not-read" not in {f.code for f in outcome.findings}
        assert outcome.rating.standings == expected.rating.standings
        assert outcome.rating.k == expected.rating.k


SAMPLES = __import__("pathlib").Path(__file__).resolve().parent.parent / "samples"


def test_check_and_rate_state_the_layout_first(tmp_path) -> None:
    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main

    sample = SAMPLES / "tournament-blank-ru.xlsx"
    result = CliRunner().invoke(main, ["check", str(sample)])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        "tournament-blank-ru.xlsx: прочитано: бланк на игру, 20 игр"
    )
    result = CliRunner().invoke(
        main, ["rate", str(sample), "-o", str(tmp_path / "r.xlsx"), "--lang", "en"]
    )
    assert result.exit_code == 0
    assert "tournament-blank-ru.xlsx: read: one sheet per game, 20 games" in result.output
    summary = openpyxl.load_workbook(tmp_path / "r.xlsx")["Summary"]
    values = [cell.value for row in summary.iter_rows() for cell in row]
    assert "read: one sheet per game, 20 games" in values


def test_check_json_names_the_layout() -> None:
    import json

    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main

    result = CliRunner().invoke(main, ["check", "--json", str(SAMPLES / "tournament-wide-ru.xlsx")])
    data = json.loads(result.output)
    per_game = data["read"][0].pop("per_game")
    assert data["read"] == [
        {
            "file": "tournament-wide-ru.xlsx",
            "layout": "wide",
            "games": 20,
            "unplayed": 0,
            "sheets": [{"sheet": "Игры", "layout": "wide"}],
            "text": "прочитано: строка на игру, 20 игр",
        }
    ]
    assert len(per_game) == 20 and per_game[0]["sheet"] == "Игры" and per_game[0]["row"] == 2
    assert set(per_game[0]) == {
        "sheet",
        "row",
        "game",
        "result",
        "best_move",
        "departures",
        "phases",
        "fouls",
        "awards",
        "protest",
        "unread",
        "text",
    }


def test_the_page_accepts_every_layout() -> None:
    from starlette.testclient import TestClient

    from mafia_sheets.web import app as web

    with TestClient(web.create_app()) as client:
        for name, layout in (
            ("tournament-blank-ru.xlsx", "blank"),
            ("tournament-wide-ru.xlsx", "wide"),
        ):
            data = (SAMPLES / name).read_bytes()
            response = client.post(
                "/api/rate",
                files=[
                    (
                        "files",
                        (
                            name,
                            data,
                            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                        ),
                    )
                ],
            )
            body = response.json()
            assert body["ok"] is True
            assert body["result"]["read"][0]["layout"] == layout
            assert body["result"]["standings"]


@pytest.mark.parametrize("layout", ["blank", "wide"])
def test_template_in_each_layout_reads_back_empty(tmp_path, layout: str) -> None:
    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main

    roster = tmp_path / "players.csv"
    roster.write_text("Игрок\nКот\nЛис\n", encoding="utf-8")
    out = tmp_path / f"{layout}.xlsx"
    result = CliRunner().invoke(
        main,
        [
            "template",
            str(out),
            "--layout",
            layout,
            "--games",
            "4",
            "--tables",
            "2",
            "--players",
            str(roster),
        ],
    )
    assert result.exit_code == 0, result.output
    outcome = evaluate([Source(out.name, out.read_bytes())], rate=False)
    assert outcome.findings == () and outcome.reading[0].layout in (layout, "rows")
    book = openpyxl.load_workbook(out)
    if layout == "blank":
        assert book.sheetnames[:4] == ["Стол1Игра1", "Стол2Игра1", "Стол1Игра2", "Стол2Игра2"]
        ws = book["Стол2Игра1"]
        assert (ws["B3"].value, ws["D3"].value) == (2, 1)  # table and game pre-filled
        assert ws.page_setup.orientation == "landscape" and int(ws.page_setup.paperSize) == 9
        assert ws.page_setup.fitToHeight == 1 and "A1:K1" in ws.merged_cells
        lists = {str(v.sqref): v.formula1 for v in ws.data_validations.dataValidation}
        assert lists["B6:B15"] == '"Кот,Лис"' and "Шериф" in lists["C6:C15"]
    else:
        ws = book["Игры"]
        assert [ws.cell(1, c).value for c in range(7, 17)] == list(range(1, 11))
    assert "Игроки" in book.sheetnames


def test_a_departure_typed_as_a_phase_alone_reads_as_a_kill_or_a_vote_out() -> None:
    """`Н1` in the departures block, its phase left blank: killed in Н1, said at the cell."""
    proto, tables = twin()
    data = _edit(club_rows(proto, tables), "Сезон", AK4="Н1", AU4=None)  # game 1, seat 1
    outcome = evaluate([Source("x.xlsx", data)])
    found = [(f.code, f.sheet, f.cell) for f in outcome.findings]
    assert ("departure-read-from-phase", "Сезон", "AK4") in found
    note = next(f for f in outcome.findings if f.code == "departure-read-from-phase")
    assert note.message("en") == (
        "Only a phase is written in Left — read as the departure in that phase: "
        "AK4 “Н1” — killed in N1"
    )
    assert standings(Source("x.xlsx", data)) == standings(proto.source())


def test_every_filled_cell_of_a_games_by_row_sheet_is_read_or_reported() -> None:
    """A column the reader does not know beside the game rows: its header and its values
    listed at their cells in one warning for the sheet."""
    proto, tables = twin()
    data = _edit(club_rows(proto, tables), "Сезон", BW3="Заметка", BW5="опоздал")
    outcome = evaluate([Source("x.xlsx", data)])
    note = next(f for f in outcome.findings if f.code == "cells-not-read")
    assert note.places == (("Сезон", "BW3"), ("Сезон", "BW5"))
    assert note.message("ru") == "Не прочитано: BW3 «Заметка»; BW5 «опоздал»"
    assert standings(Source("x.xlsx", data)) == standings(proto.source())
