"""A roster that lists one nickname twice is refused naming its lines (exit 2, one line,
nothing written) — never merged in silence; and `seat` never writes its plan and its
protocol to one file."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from mafia_sheets.checks.names import name_key
from mafia_sheets.cli.commands import main
from mafia_sheets.errors import ProtocolReadError
from mafia_sheets.seating.repeats import roster_key
from mafia_sheets.template.roster import read_players_file

TEN = ["Ёж", "Уж", "A", "B", "C", "D", "E", "F"]  # with two more lines, a table of ten


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def roster(tmp_path: Path, *names: str, name: str = "d.csv") -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{n}\n" for n in names), encoding="utf-8")
    return path


SPLIT = (
    "Ошибка: Файл игроков d.csv: ники повторяются — «Кот» (строка 1) = «кот» (строка 2). "
    "Один игрок — одна строка: удалите повтор или, если это разные игроки, сделайте ники "
    "заметно разными.\n"
)


def test_seat_refuses_a_nickname_repeated_in_another_case(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    roster(tmp_path, "Кот", "кот ", *TEN)
    code, output = invoke("seat", "--players", "d.csv", "--rounds", "2", "-o", "plan.xlsx")
    assert (code, output) == (2, SPLIT)
    assert not (tmp_path / "plan.xlsx").exists()


def test_seat_refuses_a_latin_look_alike_in_english(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    roster(tmp_path, "Кот", "Kот", *TEN)  # a Latin K
    code, output = invoke("seat", "--players", "d.csv", "--rounds", "2", "--lang", "en")
    assert code == 2
    assert output == (
        "Error: Players file d.csv: repeated nicknames — “Кот” (line 1) = “Kот” (line 2) "
        "(Latin letters: K). One player, one line: delete the repeat or, if they are "
        "different players, make the nicknames clearly different.\n"
    )


def test_template_refuses_an_exact_repeat_before_writing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    roster(tmp_path, "Кот", "Ёж", "Кот", "Еж", "Уж")
    code, output = invoke("template", "t.xlsx", "--players", "d.csv")
    assert code == 2
    assert output == (
        "Ошибка: Файл игроков d.csv: ники повторяются — «Кот» (строки 1, 3); «Ёж» (строка 2) "
        "= «Еж» (строка 4). Один игрок — одна строка: удалите повтор или, если это разные "
        "игроки, сделайте ники заметно разными.\n"
    )
    assert not (tmp_path / "t.xlsx").exists()


def test_lines_count_the_header_and_the_blank_lines(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("Ник;Клуб\nКот;Полночь\n\n;;\nКОТ;Другой\n", encoding="utf-8")
    with pytest.raises(ProtocolReadError) as caught:
        read_players_file(path)
    assert "«Кот» (строка 2) = «КОТ» (строка 5)" in caught.value.ru
    assert "“Кот” (line 2) = “КОТ” (line 5)" in caught.value.en


def test_a_workbook_roster_names_its_sheet_rows(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["B3"], sheet["C3"] = "Игрок", "Клуб"
    sheet["B4"], sheet["B6"] = "Сова", "Сoва"  # a Latin o on row 6
    path = tmp_path / "players.xlsx"
    book.save(path)
    with pytest.raises(ProtocolReadError) as caught:
        read_players_file(path)
    assert "“Сова” (row 4) = “Сoва” (row 6) (Latin letters: o)" in caught.value.en


def test_a_players_json_names_the_ids(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    people = [{"id": n, "name": name} for n, name in enumerate(["Кот", *TEN, "КОТ"])]
    (tmp_path / "players.json").write_text(json.dumps({"people": people}), encoding="utf-8")
    code, output = invoke("seat", "--players", "players.json", "--rounds", "1")
    assert code == 2
    assert output.startswith(
        "Ошибка: Список игроков players.json: ники повторяются — «Кот» (id 0) = «КОТ» (id 9)."
    )


def test_distinct_nicknames_are_all_kept(tmp_path):
    path = roster(tmp_path, "Кот", "Кот Учёный", "Кот-2", "Лис")
    assert [p.nickname for p in read_players_file(path)] == ["Кот", "Кот Учёный", "Кот-2", "Лис"]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Кот", "кот"),
        ("Кот", " Кот "),
        ("Ёж", "Еж"),
        ("Кот", "Kот"),
        ("Ко т", "Кот"),
        ("Кот", "Ко\u200bт"),
        ("Сова", "COBA"),
    ],
)
def test_the_roster_key_meets_where_the_checks_key_does(one, other):
    """Every pair `check` calls one person (SPEC §5.4) is one person to the roster too."""
    assert name_key(one) == name_key(other)
    assert roster_key(one) == roster_key(other)


# ---- seat: the plan and the protocol are two files -------------------------------------------


@pytest.mark.parametrize("protocol", ["pp.xlsx", "./pp.xlsx", "PP/../pp.xlsx"])
def test_seat_refuses_one_file_for_the_plan_and_the_protocol(tmp_path, monkeypatch, protocol):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "PP").mkdir()
    code, output = invoke(
        "seat", "--players", "20", "--rounds", "2", "-o", "pp.xlsx", "--protocol", protocol
    )
    assert code == 2
    assert output == (
        f"Ошибка: -o и --protocol указывают на один файл {Path(protocol)}: план рассадки и "
        "протокол — две разные книги. Дайте им разные имена, например plan.xlsx и cup.xlsx.\n"
    )
    assert not (tmp_path / "pp.xlsx").exists()


def test_seat_writes_the_plan_and_the_protocol_to_two_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output = invoke(
        "seat",
        "--players",
        "20",
        "--rounds",
        "2",
        "--effort",
        "0.05",
        "-o",
        "plan.xlsx",
        "--protocol",
        "cup.xlsx",
        "--lang",
        "en",
    )
    assert code == 0, output
    assert (
        openpyxl.load_workbook(tmp_path / "plan.xlsx").sheetnames[0]
        != (openpyxl.load_workbook(tmp_path / "cup.xlsx").sheetnames[0])
    )
