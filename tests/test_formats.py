"""`mafia-sheets import`: other software's games as a protocol, every format recognised,
every value placed or listed; `check` clean on the result and `rate` giving the points."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from interchange import (
    FULL_TOTALS,
    PLATFORM_TOTALS,
    SITE_TOTALS,
    as_bytes,
    black_game,
    emo_games,
    imafia_games,
    mwt_game,
    red_game,
    site_game,
)

from mafia_sheets.cli.commands import main
from mafia_sheets.formats import READERS, recognise
from mafia_sheets.formats.base import MAX_JSON_BYTES, Lost, lost_lines
from mafia_sheets.model import Source
from mafia_sheets.text import Text

GAMES = [red_game(), black_game()]
DOCUMENTS = {
    "site-list.json": ([site_game(g) for g in GAMES], SITE_TOTALS, "rating site"),
    "site-wrapped.json": ({"games": [site_game(g) for g in GAMES]}, SITE_TOTALS, "rating site"),
    "imafia.json": (imafia_games(GAMES), PLATFORM_TOTALS, "iMafia"),
    "emo.json": (emo_games(GAMES), PLATFORM_TOTALS, "emotion.games"),
    "mwt.json": ([mwt_game(g) for g in GAMES], FULL_TOTALS, "world tour"),
}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def import_file(tmp_path: Path, name: str, document: object, *more: str) -> tuple[Path, str]:
    source = tmp_path / name
    source.write_bytes(as_bytes(document))
    out = tmp_path / "protocol.xlsx"
    code, output = run("import", str(source), "-o", str(out), "--force", *more)  # a test's
    assert code == 0, output  # imports in turn replace its one protocol
    return out, output


def totals(path: Path) -> dict[str, float]:
    code, output = run("rate", str(path), "--json")
    assert code == 0, output
    return {row["player"]: row["total"] for row in json.loads(output)["standings"]}


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_each_format_imports_checks_clean_and_rates(tmp_path: Path, name: str) -> None:
    document, expected, kind = DOCUMENTS[name]
    out, output = import_file(tmp_path, name, document)
    (reader,) = [r for r in READERS if kind in r.name.en]
    assert f"{name}: прочитано: {reader.name.ru}, 2 игры" in output
    code, checked = run("check", str(out), "--json")
    assert code == 0, checked
    findings = json.loads(checked)["findings"]
    partial = expected is PLATFORM_TOTALS
    assert [f["code"] for f in findings] == (["departures-partial"] if partial else [])
    assert totals(out) == expected


def test_one_game_alone_is_a_document(tmp_path: Path) -> None:
    out, output = import_file(tmp_path, "one.json", site_game(red_game()))
    assert "1 игра" in output
    assert totals(out)["Сова"] == 2.0  # ФИИМ 7: win 1, auto-bonus 0.3, best move 0.7


def test_the_protocol_holds_every_placed_value(tmp_path: Path) -> None:
    out, _ = import_file(tmp_path, "site.json", [site_game(g) for g in GAMES])
    book = openpyxl.load_workbook(out)
    games = list(book["Игры"].iter_rows(values_only=True))
    assert games[0][:6] == ("Игра", "Тур", "Стол", "Судья", "Результат", "Окончание")
    assert games[1][1:5] == (1, 1, "Ветрова", "Красные")
    seats = [row for row in book["Протокол"].iter_rows(values_only=True)]
    header = seats[0]
    sova = dict(zip(header, seats[3], strict=False))
    assert sova["Игрок"] == "Сова" and sova["Выбыл"] == "убит" and sova["Когда"] == "Н1"
    assert sova["Лучший ход"] == "2 5 7"
    assert dict(zip(header, seats[4], strict=False))["Доп"] == 1
    utka = dict(zip(header, seats[11], strict=False))
    assert (utka["Выбыл"], utka["Когда"], utka["Фолы"]) == ("дисквалифицирован", "Д3", 2)
    settings = {row[0]: row[1] for row in book["Турнир"].iter_rows(values_only=True)}
    assert settings["Название"] == "site"


def test_platform_games_are_marked_partial(tmp_path: Path) -> None:
    out, _ = import_file(tmp_path, "imafia.json", imafia_games(GAMES))
    book = openpyxl.load_workbook(out)
    rows = list(book["Игры"].iter_rows(values_only=True))
    column = rows[0].index("Записаны выбывания")
    assert [row[column] for row in rows[1:]] == ["не все", "не все"]
    _code, checked = run("check", str(out), "--json")
    (found,) = json.loads(checked)["findings"]
    letter = openpyxl.utils.get_column_letter(column + 1)
    assert (found["code"], found["cell"], found["severity"]) == (
        "departures-partial",
        f"{letter}2",
        "warning",
    )
    assert "в 2 играх" in found["message"]


def test_what_has_no_column_is_listed_once_per_kind(tmp_path: Path) -> None:
    game = site_game(red_game(), comment="спорный ЛХ")
    game["players"][3]["bonus"] = [0.2, "bestPlayer"]
    game["players"][5]["bonus"] = 0.2
    game["players"][0]["voting"] = [None, 2, 5]
    game["players"][1]["nominating"] = [None, 5]
    out, output = import_file(tmp_path, "site.json", [game])
    lines = output.splitlines()
    # «Доп» holds a number (an edition's numeric extras), so the 0.2 bonuses are placed
    assert not any("бонус" in line for line in lines)
    seats = pd.read_excel(out, sheet_name="Протокол", engine="calamine")
    assert sorted(seats["Доп"].dropna().tolist()) == [0.2, 0.2]
    assert (
        "  титул «bestPlayer» у 1 игрока: по правилам «ФИИМ рейтинга 7» он не даёт баллов" in lines
    )
    assert "  голосования у 1 игрока: протокол их не хранит" in lines
    assert "  выдвижения у 1 игрока: протокол их не хранит" in lines
    assert "  комментарий к игре в 1 игре: нет столбца" in lines
    assert "  время начала в 1 игре: нет столбца" in lines


def test_the_edition_decides_what_bonus_can_hold(tmp_path: Path) -> None:
    """Under this regulation (no numeric extras) a 0.2 has no place; under the site's
    ФИИМ 7 a worst move withholds the auto-bonus and is placed."""
    game = site_game(red_game())
    game["players"][3]["bonus"] = 0.2
    game["players"][5]["bonus"] = [0.2, "worstMove"]
    game["players"][7]["bonus"] = "worstMove"
    _, output = import_file(tmp_path, "site.json", [game], "--rules", "Регламент")
    lines = output.splitlines()
    assert "Правила: «Регламент» (--rules)." in lines
    assert "  бонус 0,2 у 2 игроков: правила «Регламент» не допускают доп. баллы числом" in lines
    assert "  титул «worstMove» у 2 игроков: по правилам «Регламент» он не даёт баллов" in lines
    out, output = import_file(tmp_path, "site.json", [game])
    lines = output.splitlines()
    assert "  титул «worstMove» у 1 игрока: в «Доп» уже 0,2" in lines
    points = totals(out)
    assert (points["Заяц"], points["Волк"], points["Ёж"]) == (1.0, 1.5, 1.5)
    code, output = run(
        "import",
        str(tmp_path / "site.json"),
        "-o",
        str(tmp_path / "x.xlsx"),
        "--rules",
        "нет такой",
    )
    assert code == 2 and "Нет правил «нет такой»" in output and output.count("\n") == 1


def test_lost_lines_in_english() -> None:
    lost = [Lost(Text("бонус", "bonus"), Fraction(v)) for v in ("0.2", "0.2", "0.3")]
    assert lost_lines(lost, "en") == ["bonus 0.2 for 2 players, 0.3 for 1 player: no column"]
    assert lost_lines(lost, "ru") == ["бонус 0,2 у 2 игроков, 0,3 у 1 игрока: нет столбца"]


def test_unknown_fields_are_named(tmp_path: Path) -> None:
    game = site_game(red_game(), mood="весело")
    game["players"][2]["hat"] = "red"
    _, output = import_file(tmp_path, "site.json", [game])
    assert "  поле «mood» в 1 игре: протокол их не хранит" in output.splitlines()
    assert "  поле игрока «hat» у 1 игрока: протокол их не хранит" in output.splitlines()


def test_departures_read_by_type_and_round(tmp_path: Path) -> None:
    game = site_game(red_game())
    # a 4th warning at night, a give-up by day: the site's kinds of leaving
    game["players"][7]["warnings"] = [{"round": 1, "time": "speaking"}] * 3 + [
        {"round": 2, "time": "shooting"}
    ]
    game["players"][7]["death"] = {"type": "warnings", "round": 2}
    game["players"][9]["death"] = {
        "type": "giveUp",
        "round": 0,
        "time": {"round": 0, "time": "speaking"},
    }
    out, output = import_file(tmp_path, "site.json", [game])
    seats = list(openpyxl.load_workbook(out)["Протокол"].iter_rows(values_only=True))
    head = seats[0]
    zayac, utka = dict(zip(head, seats[8], strict=False)), dict(zip(head, seats[10], strict=False))
    assert (zayac["Выбыл"], zayac["Когда"], zayac["Фолы"]) == ("4 фола", "Н2", 4)
    assert (utka["Выбыл"], utka["Когда"]) == ("отказ от игры", "Д1")
    assert not any("отказ" in line for line in output.splitlines()[1:])  # placed, not listed


def test_each_reader_claims_only_its_own_format() -> None:
    for name, (document, _, kind) in DOCUMENTS.items():
        claimed = [r.name.en for r in READERS if r.claims(document)]
        assert len(claimed) == 1 and kind in claimed[0], (name, claimed)


def test_a_protocol_workbook_is_not_a_game_record(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "samples" / "tournament-ru.xlsx"
    code, output = run("import", str(sample), "-o", str(tmp_path / "x.xlsx"))
    assert code == 2
    assert output.count("\n") == 1
    assert "книга или архив, а не записи игр" in output and "mafia-sheets check" in output
    assert not (tmp_path / "x.xlsx").exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"players": 3}', "формат не распознан"),
        (b"[1, 2, 3]", "формат не распознан"),
        (b"hello", "формат не распознан"),
        (b'{"games": [', "это не правильный JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "это не правильный JSON"),
        (b"\xff\xfe" + '{"a"'.encode("utf-16-le"), "это не правильный JSON"),
        (b'{"a": "\xff"}', "это не правильный JSON"),
    ],
)
def test_what_is_not_a_game_record_is_one_line(tmp_path: Path, content: bytes, words: str) -> None:
    source = tmp_path / "games.json"
    source.write_bytes(content)
    code, output = run("import", str(source), "-o", str(tmp_path / "x.xlsx"))
    assert code == 2, output
    assert output.count("\n") == 1 and words in output
    assert not (tmp_path / "x.xlsx").exists()


def test_utf16_and_bom_files_are_read(tmp_path: Path) -> None:
    text = json.dumps([site_game(red_game())], ensure_ascii=False)
    for name, data in (
        ("utf16.json", text.encode("utf-16")),
        ("bom.json", b"\xef\xbb\xbf" + text.encode("utf-8")),
    ):
        source = tmp_path / name
        source.write_bytes(data)
        code, output = run("import", str(source), "-o", str(tmp_path / f"{name}.xlsx"))
        assert code == 0, output


def test_a_file_too_large_to_be_games_is_refused() -> None:
    data = b"[" + b" " * MAX_JSON_BYTES + b"]"
    with pytest.raises(Exception, match="over 64 MB"):
        recognise(Source("big.json", data))


def test_import_needs_an_xlsx_output_and_keeps_the_input(tmp_path: Path) -> None:
    source = tmp_path / "games.json"
    source.write_bytes(as_bytes([site_game(red_game())]))
    before = source.read_bytes()
    code, output = run("import", str(source), "-o", str(tmp_path / "x.csv"))
    assert code == 2 and "с расширением .xlsx" in output
    code, output = run("import", str(source), "-o", str(source))
    assert code == 2 and source.read_bytes() == before


def test_several_files_with_the_same_numbers_are_told_apart(tmp_path: Path) -> None:
    first, second = tmp_path / "night1.json", tmp_path / "night2.json"
    first.write_bytes(as_bytes([mwt_game(red_game())]))
    # the same game numbers (a file saved again, one byte apart: not a copy of the first)
    second.write_bytes(as_bytes([mwt_game(red_game())]) + b"\n")
    out = tmp_path / "season.xlsx"
    code, output = run("import", str(first), str(second), "-o", str(out))
    assert code == 0, output
    ids = [row[0] for row in openpyxl.load_workbook(out)["Игры"].iter_rows(values_only=True)]
    assert ids[1:] == ["night1/1", "night2/1"]
    assert totals(out)["Сова"] == 5.0


@pytest.mark.parametrize("layout", ["blank", "wide"])
def test_import_in_the_other_layouts_rates_alike(tmp_path: Path, layout: str) -> None:
    for name in ("imafia.json", "site-list.json"):
        document, expected, _ = DOCUMENTS[name]
        out, _ = import_file(tmp_path, name, document, "--layout", layout)
        code, checked = run("check", str(out), "--json")
        assert code == 0, checked
        assert totals(out) == expected


def test_english_import(tmp_path: Path) -> None:
    out, output = import_file(tmp_path, "emo.json", emo_games(GAMES), "--lang", "en")
    assert "emo.json: read: emotion.games platform games (JSON), 2 games" in output
    assert "Protocol written:" in output
    book = openpyxl.load_workbook(out)
    assert "Games" in book.sheetnames and "Seats" in book.sheetnames
    assert totals(out) == PLATFORM_TOTALS


def test_a_platform_game_without_a_result_is_not_played(tmp_path: Path) -> None:
    document = imafia_games(GAMES)
    document["games"][1]["result"] = 0
    _out, output = import_file(tmp_path, "imafia.json", document)
    assert "  игра без результата в 1 игре: не сыграна — не перенесена" in output.splitlines()
    assert "1 игра" in output


def test_a_final_stage_keeps_its_games_apart(tmp_path: Path) -> None:
    final = red_game(number=1, table=1)
    final.stage = 2
    out, output = import_file(tmp_path, "imafia.json", imafia_games([red_game(), final]))
    ids = [row[0] for row in openpyxl.load_workbook(out)["Игры"].iter_rows(values_only=True)]
    assert ids[1:] == [1, "2-1"]
    assert "этап 2 в 1 игре: нет столбца; записан в номер игры: «2-1»" in output


def test_the_sites_own_readings_are_kept(tmp_path: Path) -> None:
    """A best move of anyone but the first night's victim is not counted (the site drops
    it too), a 4-warning removal has 4 fouls, a game still in progress is not played, a
    team removal and a give-up are their own departures; check is clean, the points are
    the site's (check says only what the regulation says of the game itself)."""
    first = site_game(red_game())
    first["players"][5]["legacy"] = [2, 5, 7]  # Волк, killed on Н2
    first["players"][8]["warnings"] = 2
    first["players"][8]["death"] = {
        "type": "warnings",
        "round": 2,
        "time": {"round": 2, "time": "shooting"},
    }
    unfinished = site_game(red_game(3))
    del unfinished["winner"]
    out, output = import_file(tmp_path, "site.json", [first, unfinished])
    lines = output.splitlines()
    assert "  лучший ход не убитого в первую ночь у 1 игрока: не считается и на сайте" in lines
    assert "  2 фола при удалении за фолы у 1 игрока: записано 4" in lines
    assert "  игра без результата в 1 игре: не сыграна — не перенесена" in lines
    code, checked = run("check", str(out), "--json")
    # Крот's removal on Н2 with a vote on Д3 is special situation 1's warning: as recorded
    assert code == 0 and [f["code"] for f in json.loads(checked)["findings"]] == [
        "vote-after-foul-out"
    ]
    points = totals(out)
    assert points["Волк"] == 1.3 and points["Крот"] == 0.8  # 1.3 − 0.5 for the 4th foul


def test_a_count_without_seats_is_listed(tmp_path: Path) -> None:
    document = emo_games([red_game()])
    game = document["body"]["games"]["0"]
    game["best_move_numbers"] = []
    game["players"][2]["best_move"] = 3
    _, output = import_file(tmp_path, "emo.json", document)
    assert (
        "  лучший ход без мест (только число угаданных) у 1 игрока: нужны номера мест"
        in output.splitlines()
    )
