"""`mafia-sheets seat` as a chief judge runs it: options, outputs, imports, refusals."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.protocol import load_protocol

FIGURE_KEYS = {
    "players",
    "rounds",
    "games_total",
    "seed",
    "games",
    "restrictions",
    "pairs",
    "seats",
    "seat_groups",
}


def run(*args: str, effort: str = "0.05") -> object:
    """`seat` with a short search: the figures tested hold for any search length."""
    return CliRunner().invoke(main, ["seat", "--effort", effort, *args], catch_exceptions=False)


def roster_file(tmp_path: Path, rows: list[list[str]], name: str = "roster.csv") -> Path:
    path = tmp_path / name
    with path.open("w", newline="", encoding="utf-8") as stream:
        csv.writer(stream, delimiter=";").writerows(rows)
    return path


def club_roster(tmp_path: Path) -> Path:
    rows = [["Игрок", "Клуб", "Команда", "Судит в турах", "Другие ники"]]
    rows += [["Кот", "Маски", "", "", "Котик"], ["Пёс", "Маски", "", "", ""]]
    rows += [["Ёж", "", "Север", "", ""], ["Lynx", "", "Север", "", ""]]
    rows += [["Сова", "", "", "1-2", ""]]
    rows += [[f"Игрок {n}", "", "", "", ""] for n in range(1, 23)]
    return roster_file(tmp_path, rows)


# ---- making a schedule -------------------------------------------------------------------


def test_json_is_the_schedule_and_its_figures():
    result = run("--players", "27", "--tables", "2", "--rounds", "10", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"rounds", "figures"}
    assert [r["round"] for r in data["rounds"]] == list(range(1, 11))
    first = data["rounds"][0]
    assert set(first) == {"round", "tables", "out"}
    assert [t["table"] for t in first["tables"]] == [1, 2]
    assert all(len(t["players"]) == 10 for t in first["tables"]) and len(first["out"]) == 7
    seated = {p for t in first["tables"] for p in t["players"]} | set(first["out"])
    assert seated == {f"Игрок {n}" for n in range(1, 28)}
    figures = data["figures"]
    assert set(figures) == FIGURE_KEYS and figures["seed"] == 4
    assert (figures["games"]["min"], figures["games"]["max"], figures["games"]["bound"]) == (
        7,
        8,
        1,
    )
    assert set(figures["pairs"]) == {
        "min", "max", "spread", "bound", "average", "never_met", "never_met_bound", "histogram"
    }  # fmt: skip
    assert figures["seats"] == {"max_on_one_seat": 1, "bound": 1, "spread": 1}
    assert set(figures["seat_groups"]) == {"1-3", "4-7", "8-10"}
    again = run("--players", "27", "--tables", "2", "--rounds", "10", "--seed", "4", "--json")
    assert json.loads(again.output) == data  # --seed reproduces


def test_text_says_every_figure_beside_its_bound_and_the_seed(tmp_path):
    result = run("--players", "20", "--tables", "2", "--rounds", "4", "--seed", "9")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("Рассадка: 20 игроков, 2 стола за тур, 4 тура (8 игр); затравка 9")
    assert "Игр у каждого игрока: 4." in lines
    assert any(t.startswith("Встречи пар за столом:") and "нижняя граница" in t for t in lines)
    assert any(text.startswith("Места: на одном номере не больше 1") for text in lines)
    assert "Тур 1" in lines and any(text.startswith("  Стол 2: 1 ") for text in lines)
    english = run("--players", "20", "--tables", "2", "--rounds", "4", "--lang", "en")
    assert "Games per player: 4 each." in english.output
    assert "(repeat with --seed " in english.output.splitlines()[0]


def test_games_per_player_and_sit_outs():
    result = run("--players", "27", "--tables", "2", "--games-per-player", "10", "--json")
    data = json.loads(result.output)
    assert len(data["rounds"]) == 14 and len(data["rounds"][-1]["tables"]) == 1
    games = {p["games"] for p in data["figures"]["games"]["per_player"]}
    assert games == {10}


def test_roster_restrictions_are_honoured(tmp_path):
    roster = club_roster(tmp_path)
    result = run(
        "--players", str(roster), "--tables", "2", "--rounds", "6", "--seed", "1",
        "--apart", "Игрок 1,Игрок 2,Игрок 3", "--together", "Игрок 4,Игрок 5",
        "--judge", "Игрок 6:3", "--json", effort="0.3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["figures"]["restrictions"]
    # Маски 1 pair + Север 1 pair + --apart 3 pairs; 1 together; Сова and Игрок 6 judge
    assert (figures["apart_pairs"], figures["together_pairs"], figures["judges"]) == (5, 1, 2)
    assert figures["broken"] == 0 and figures["breaks"] == []
    rounds = json.loads(result.output)["rounds"]
    assert "Сова" in rounds[0]["out"] and "Сова" in rounds[1]["out"]
    assert "Игрок 6" in rounds[2]["out"]
    text = run(
        "--players", str(roster), "--tables", "2", "--rounds", "6", "--seed", "1", effort="0.3"
    )
    assert "Ограничения соблюдены все: порознь 2, судьи-игроки 1." in text.output


def test_a_club_that_cannot_be_split_is_reported_pair_by_pair(tmp_path):
    rows = [["Игрок", "Клуб"]] + [[f"M{i}", "Маски"] for i in range(3)]
    rows += [[f"P{i}", ""] for i in range(7)]
    result = run("--players", str(roster_file(tmp_path, rows)), "--rounds", "1", "--lang", "en")
    assert "Restrictions broken: 3 — the fewest these tables allow (lower bound 3)" in (
        result.output
    )
    assert "round 1, table 1: M0 and M1 together (club “Маски”)" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((), "Give --players (a roster file or a count) or --schedule"),
        (("--players", "9", "--rounds", "2"), "9 players: a table needs at least 10."),
        (("--players", "20", "--tables", "3", "--rounds", "2"), "cannot fill 3 tables"),
        (("--players", "20"), "Give one of --rounds R or --games-per-player G."),
        (("--players", "20", "--rounds", "2", "--apart", "Player 1"), "--apart “Player 1”"),
        (("--players", "20", "--rounds", "2", "--apart", "Player 1,Кто"), "“Кто” is not in"),
        (("--players", "20", "--rounds", "2", "--judge", "Player 1"), "NAME:ROUNDS is needed"),
        (("--players", "20", "--rounds", "2", "--judge", "Кто:1"), "--judge: “Кто” is not"),
        (("--players", "nope.csv", "--rounds", "2"), "Players file not found"),
        (("--schedule", "nope.json"), "file not found"),
        (("--players", "20", "--rounds", "2", "-o", "plan.txt"), "must be saved with the .xlsx"),
    ],
)
def test_refusals_are_one_line_and_exit_2(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["seat", *args, "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


# ---- schedules made elsewhere --------------------------------------------------------------


def web_schedule(players: int, rounds: list[list[list[int]]]) -> dict:
    games, round_list = [], []
    for r, tables in enumerate(rounds):
        ids = []
        for table in tables:
            ids.append(len(games))
            games.append({"id": len(games), "players": table})
        round_list.append({"id": r, "gameIds": ids})
    config = {"numPlayers": players, "numTables": 2, "numRounds": len(rounds)}
    return {
        "configuration": {**config, "numGames": len(games)},
        "rounds": round_list,
        "games": games,
    }


def test_a_web_schedule_file_is_read_with_the_roster_names(tmp_path):
    rounds = [
        [list(range(10)), list(range(10, 20))],
        [list(range(0, 20, 2)), list(range(1, 20, 2))],
    ]
    path = tmp_path / "schedule.json"
    path.write_text(json.dumps(web_schedule(20, rounds)), encoding="utf-8")
    roster = roster_file(tmp_path, [[f"Nick{n}"] for n in range(20)])
    result = run("--schedule", str(path), "--players", str(roster), "--json")
    data = json.loads(result.output)
    assert data["rounds"][0]["tables"][0]["players"] == [f"Nick{n}" for n in range(10)]
    assert data["rounds"][1]["tables"][1]["players"][0] == "Nick1"
    assert data["figures"]["seed"] is None and data["figures"]["pairs"]["max"] == 2
    bare = json.loads(run("--schedule", str(path), "--json").output)
    assert bare["rounds"][0]["tables"][0]["players"][0] == "Игрок 1"
    text = run("--schedule", str(path))
    assert text.output.startswith("Рассадка из schedule.json: 20 игроков, 2 тура (4 игры).")


def test_our_own_json_reads_back_to_the_same_figures(tmp_path):
    made = run("--players", "23", "--rounds", "3", "--seed", "2", "--json").output
    path = tmp_path / "plan.json"
    path.write_text(made, encoding="utf-8")
    again = json.loads(run("--schedule", str(path), "--json").output)
    first = json.loads(made)
    assert again["rounds"] == first["rounds"]
    assert again["figures"]["pairs"] == first["figures"]["pairs"]


def test_a_sheet_of_one_row_per_game_is_read(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Рассадка"
    sheet.append(["Кубок"])
    sheet.append(["Тур", "Стол", "Игра", "Судья", *range(1, 11)])
    for r in (1, 2):
        for t in (1, 2):
            start = (t - 1) * 10 if r == 1 else (t - 1)
            names = [f"N{(start + i * (1 if r == 1 else 2)) % 20}" for i in range(10)]
            sheet.append([r, t, (r - 1) * 2 + t, "Судья", *names])
    path = tmp_path / "schedule.xlsx"
    book.save(path)
    data = json.loads(run("--schedule", str(path), "--json").output)
    assert [len(r["tables"]) for r in data["rounds"]] == [2, 2]
    assert data["rounds"][0]["tables"][1]["players"][0] == "N10"
    sheet.cell(4, 7).value = None  # seat 3 of round 1, table 2
    book.save(path)
    result = CliRunner().invoke(main, ["seat", "--schedule", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert "schedule.xlsx, Рассадка!G4: seat 3 is empty." in result.output


def test_a_csv_schedule_and_its_refusals(tmp_path):
    rows = [["Round", "Table", *map(str, range(1, 11))]]
    rows.append(["1", "1", *[f"A{i}" for i in range(10)]])
    rows.append(["1", "2", *[f"A{i}" for i in range(9)], "B"])
    path = roster_file(tmp_path, rows, "schedule.csv")
    result = CliRunner().invoke(main, ["seat", "--schedule", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert "schedule.csv, C3: “A0” is seated twice in round 1 (also schedule.csv, C2)." in (
        result.output
    )
    path.write_text("a;b\n1;2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["seat", "--schedule", str(path), "--lang", "en"])
    assert "no header row «Round | Table | Game | 1 … 10»" in result.output


# ---- the plan and the pre-filled protocol -------------------------------------------------


def test_the_plan_workbook(tmp_path):
    plan = tmp_path / "plan.xlsx"
    result = run(
        "--players", "27", "--tables", "2", "--rounds", "3", "--seed", "5", "-o", str(plan)
    )
    assert result.exit_code == 0 and plan.exists()
    data = json.loads(
        run("--players", "27", "--tables", "2", "--rounds", "3", "--seed", "5", "--json").output
    )
    book = openpyxl.load_workbook(plan)
    assert book.sheetnames == ["Рассадка", "По игрокам", "Листки", "Качество"]
    wall = [list(r) for r in book["Рассадка"].iter_rows(values_only=True)]
    assert wall[0][0] == "Рассадка — тур 1" and wall[1][:3] == ["№", "Стол 1", "Стол 2"]
    first = data["rounds"][0]["tables"]
    assert [row[1] for row in wall[2:12]] == first[0]["players"]  # seat 1 … 10 of table 1
    assert [row[2] for row in wall[2:12]] == first[1]["players"]
    by_player = {r[0]: r for r in book["По игрокам"].iter_rows(min_row=2, values_only=True)}
    name = first[1]["players"][4]
    assert by_player[name][1] == "2 / 5"
    assert book["Рассадка"].page_setup.orientation == "landscape"
    quality = [r[0] for r in book["Качество"].iter_rows(values_only=True)]
    assert any(str(q).startswith("Встречи пар за столом") for q in quality)


@pytest.mark.parametrize("layout", ["rows", "blank", "wide"])
def test_the_prefilled_protocol_reads_back_seat_for_seat(tmp_path, layout):
    out = tmp_path / f"protocol-{layout}.xlsx"
    roster = club_roster(tmp_path)
    args = ["--players", str(roster), "--tables", "2", "--rounds", "3", "--seed", "3"]
    result = run(*args, "--protocol", str(out), "--layout", layout)
    assert result.exit_code == 0, result.output
    data = json.loads(run(*args, "--json").output)
    book = openpyxl.load_workbook(out)
    roster_sheet = book["Игроки"]
    header = [c.value for c in roster_sheet[1]]
    cat = next(r for r in roster_sheet.iter_rows(min_row=2, values_only=True) if r[0] == "Кот")
    assert cat[header.index("Другие ники")] == "Котик" and cat[header.index("Клуб")] == "Маски"
    owl = next(r for r in roster_sheet.iter_rows(min_row=2, values_only=True) if r[0] == "Сова")
    assert owl[header.index("Судит в турах")] == "1–2"
    protocol, _ = load_protocol(Source(out.name, out.read_bytes()))
    expected = {
        (r["round"], t["table"], s): name
        for r in data["rounds"]
        for t in r["tables"]
        for s, name in enumerate(t["players"], start=1)
    }
    if layout == "rows":
        # seated, not played yet: the protocol leaves them out, the sheets hold them
        from mafia_sheets.reading.safety import inspect_workbook
        from mafia_sheets.reading.sheets import read_workbook

        source = Source(out.name, out.read_bytes())
        raw, _ = read_workbook(source, inspect_workbook(source.data, source.name))
        seats, games = raw.sheets["seats"].columns, raw.sheets["games"].columns
        where = {
            g: (r, t) for g, r, t in zip(games["game"], games["round"], games["table"], strict=True)
        }
        found = {
            (*map(int, where[g]), int(s)): p
            for g, s, p in zip(seats["game"], seats["seat"], seats["player"], strict=True)
        }
        assert found == expected
        assert protocol.reading[0].unplayed == len(games["game"])


def fill_results(path: Path) -> None:
    """Type results and roles into a pre-filled row-layout protocol, as a judge would."""
    book = openpyxl.load_workbook(path)
    games, seats = book["Игры"], book["Протокол"]
    for row in range(2, games.max_row + 1):
        games.cell(row, 5).value = "Красные"
    roles = {3: "Мафия", 5: "Шериф", 7: "Дон", 9: "Мафия"}
    flow = {3: ("заголосован", "Д1"), 1: ("убит", "Н1"), 7: ("заголосован", "Д2"),
            2: ("убит", "Н2"), 9: ("заголосован", "Д3")}  # fmt: skip
    for row in range(2, seats.max_row + 1):
        seat = seats.cell(row, 2).value
        seats.cell(row, 4).value = roles.get(seat)
        left, when = flow.get(seat, (None, None))
        seats.cell(row, 6).value, seats.cell(row, 7).value = left, when
    book.save(path)


def test_the_prefilled_protocol_filled_in_rates_and_a_rename_is_one_row(tmp_path):
    out = tmp_path / "cup.xlsx"
    roster = club_roster(tmp_path)
    run(
        "--players",
        str(roster),
        "--tables",
        "2",
        "--rounds",
        "3",
        "--seed",
        "3",
        "--protocol",
        str(out),
    )
    fill_results(out)
    book = openpyxl.load_workbook(out)
    seats = book["Протокол"]
    renamed = [r for r in range(2, seats.max_row + 1) if seats.cell(r, 3).value == "Кот"]
    seats.cell(renamed[-1], 3).value = "Котик"  # the last game typed under the new name
    book.save(out)
    outcome = evaluate([Source(out.name, out.read_bytes())])
    assert outcome.errors == 0, [f.message("en") for f in outcome.findings]
    rows = [s for s in outcome.rating.standings if s.player in ("Кот", "Котик")]
    assert [(s.player, s.games) for s in rows] == [("Кот", len(renamed))]
    assert outcome.rating.merged == (("Кот", ("Котик",)),)


@pytest.mark.parametrize(
    "layout",
    [
        "rows",
        "blank",
        "wide",
    ],
)
def test_games_seated_but_not_played_wait_for_their_results(tmp_path, layout):
    out = tmp_path / "cup.xlsx"
    run(
        "--players",
        "20",
        "--rounds",
        "3",
        "--seed",
        "1",
        "--protocol",
        str(out),
        "--layout",
        layout,
    )
    outcome = evaluate([Source(out.name, out.read_bytes())], rate=False)
    assert outcome.errors == 0, [f.message("en") for f in outcome.findings]
    assert outcome.reading[0].unplayed == 6


def test_outputs_never_overwrite_the_roster(tmp_path):
    roster = tmp_path / "roster.xlsx"
    book = openpyxl.Workbook()
    for n in range(20):
        book.active.append([f"N{n}"])
    book.save(roster)
    before = roster.read_bytes()
    result = CliRunner().invoke(
        main, ["seat", "--players", str(roster), "--rounds", "2", "-o", str(roster), "--lang", "en"]
    )
    assert result.exit_code == 2 and roster.read_bytes() == before
