"""`import`: every value a game record holds wrongly is listed with the game and the field
it stands in, and left blank (or written as the site reads it); a game whose required
field is missing or wrong is refused naming the game and the field (exit 2, one line).

The records are ours, built with the test writers of :mod:`interchange`."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
from click.testing import CliRunner
from interchange import as_bytes, mwt_game, red_game, site_game

from mafia_sheets.cli.commands import main

HEADING = "Значения с ошибкой в записях игр (где стоят и что с ними сделано):"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def imported(tmp_path: Path, document: object, *more: str) -> tuple[Path, list[str]]:
    source = tmp_path / "games.json"
    # allow_nan: the rating site's client has written NaN, which Python's JSON reads
    source.write_text(json.dumps(document, ensure_ascii=False, allow_nan=True), "utf-8")
    out = tmp_path / "protocol.xlsx"
    code, output = invoke("import", str(source), "-o", str(out), *more)
    assert code == 0, output
    return out, output.splitlines()


def seats(out: Path, sheet: str = "Протокол") -> list[tuple[object, ...]]:
    return list(openpyxl.load_workbook(out)[sheet].iter_rows(min_row=2, values_only=True))


def test_world_tour_values_written_wrongly_are_listed_where_they_stand(tmp_path):
    game = mwt_game(red_game())
    result = game["result"]
    result["player_roles"][3] = "vampire"  # Ёж, the sheriff
    result["player_fouls"][0] = 7
    result["player_fouls"][8] = "x"
    result["game_bonus"][3] = "a"
    result["result"] = "purple"
    out, lines = imported(tmp_path, [game])
    at = lines.index(HEADING)
    assert lines[at + 1 : at + 6] == [
        "  результат «purple» (игра 1, стол 1: result.result): ожидается red, black или "
        "draw — в протоколе пусто",
        "  фолы «7» (игра 1, стол 1: result.player_fouls[0]): больше 4 — записано 4",
        "  роль «vampire» (игра 1, стол 1: result.player_roles[3]): ожидается red, sheriff, "
        "black или don — в протоколе пусто (читается мирным)",
        "  бонус «a» (игра 1, стол 1: result.game_bonus[3]): не число — в протоколе пусто",
        "  фолы «x» (игра 1, стол 1: result.player_fouls[8]): ожидается число 0–4 — "
        "в протоколе пусто",
    ]
    rows = seats(out)
    assert rows[3][3] is None  # the role cell blank, as the note says
    games = list(openpyxl.load_workbook(out)["Игры"].iter_rows(min_row=2, values_only=True))
    assert games[0][4] is None  # no result: check reports it at its cell
    code, checked = invoke("check", str(out), "--json")
    assert code == 1 and "missing-result" in {f["code"] for f in json.loads(checked)["findings"]}


def test_the_sites_values_written_wrongly_are_listed_in_english(tmp_path):
    game = site_game(red_game())
    players = game["players"]
    players[0]["warnings"] = "many"
    players[2]["legacy"] = [3, "x", 99]  # Сова, killed on night 1
    players[3]["bonus"] = float("nan")
    players[4]["bonus"] = 1e308
    out, lines = imported(tmp_path, [game], "--lang", "en")
    at = lines.index(
        "Values the game records hold wrongly (where each stands and what was done with it):"
    )
    assert lines[at + 1 : at + 5] == [
        "  fouls «many» (game 1001, table 1: players[0].warnings): a count of fouls or their "
        "list expected — left blank in the protocol",
        "  best-move seats «x», «99» (game 1001, table 1: players[2].legacy): not seats 1–10 "
        "— not carried over",
        "  bonus «NaN» (game 1001, table 1: players[3].bonus): not a number — left blank in "
        "the protocol",
        "  bonus «1e+308» (game 1001, table 1: players[4].bonus): beyond ±100 — left blank in "
        "the protocol",
    ]
    assert not any("title" in line for line in lines)  # NaN is no title
    rows = seats(out, "Seats")
    assert rows[2][7] == "3"  # the one seat named is kept, for check to judge
    assert rows[3][8] is None and rows[4][8] is None


def test_a_wrong_winner_is_refused_naming_the_game_and_the_field(tmp_path):
    wrong = site_game(red_game(2))
    wrong["winner"] = "aliens"
    source = tmp_path / "site.json"
    source.write_bytes(as_bytes([site_game(red_game(1)), wrong]))
    code, output = invoke("import", str(source), "-o", str(tmp_path / "x.xlsx"))
    assert code == 2
    assert output == (
        "Ошибка: site.json: игра №2 (id 1002): winner — «aliens», ожидается civ, maf или tie. "
        "Исправьте запись или выгрузите игры заново.\n"
    )
    assert not (tmp_path / "x.xlsx").exists()


def test_a_file_of_unfinished_games_is_refused_naming_the_field(tmp_path):
    game = site_game(red_game())
    del game["winner"]
    source = tmp_path / "site.json"
    source.write_bytes(as_bytes(game))
    code, output = invoke("import", str(source), "-o", str(tmp_path / "x.xlsx"), "--lang", "en")
    assert code == 2
    assert output == (
        "Error: site.json: game #1 (id 1001): winner — missing (civ, maf or tie expected; the "
        "file holds no finished game). Correct the record or export the games again.\n"
    )


def test_a_world_tour_game_without_its_roles_is_refused_by_name(tmp_path):
    broken = mwt_game(red_game(2))
    del broken["result"]["player_roles"]
    source = tmp_path / "mwt.json"
    source.write_bytes(as_bytes([mwt_game(red_game(1)), broken]))
    code, output = invoke("import", str(source), "-o", str(tmp_path / "x.xlsx"))
    assert code == 2
    assert output == (
        "Ошибка: mwt.json: игра №2 (id 2): result.player_roles — нет списка (ожидается по "
        "значению на место 1–10). Исправьте запись или выгрузите игры заново.\n"
    )


def test_values_written_rightly_give_no_such_note(tmp_path):
    _, lines = imported(tmp_path, [mwt_game(red_game()), site_game(red_game())][:1])
    assert HEADING not in lines


def test_two_records_of_one_name_keep_their_games_and_a_copy_is_refused(tmp_path):
    for folder, number in (("ia", 1), ("ib", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "g.json").write_bytes(as_bytes([site_game(red_game(number))]))
    out = tmp_path / "x.xlsx"
    code, output = invoke(
        "import", str(tmp_path / "ia/g.json"), str(tmp_path / "ib/g.json"), "-o", str(out)
    )
    assert code == 0, output
    checked = invoke("check", str(out))
    assert checked[0] == 0 and "duplicate-game" not in checked[1]
    twice = tmp_path / "ia/g.json"
    code, output = invoke("import", str(twice), str(twice), "-o", str(tmp_path / "y.xlsx"))
    assert code == 2 and "дважды" in output
