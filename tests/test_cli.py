"""The commands as a judge runs them: exit codes, messages, files written or not."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from builders import Proto, names, seat_cell
from click.testing import CliRunner

from mafia_sheets.cli import text as msg
from mafia_sheets.cli.commands import main
from mafia_sheets.rules import RULE_KEYS

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE = SAMPLES / "tournament-ru.xlsx"
JSON_KEYS = {
    "tournament",
    "provisional",
    "lot_needed",
    "k",
    "settings",
    "read",
    "standings",
    "removed",
    "merged",
    "findings",
    "headers",
}
SETTINGS_KEYS = {
    "win",
    "disqualification",
    "best_move_3",
    "best_move_2",
    "bp",
    "bp2",
    "bpl",
    "apply_k",
    "draws_in_n",
    "geo_rule_7",
    "win_when_disqualified",
    "draw_quiet_phases",
    "tiebreak",
    "protest_deadline_minutes",
    # the scoring edition in force and every one of its values (SPEC §2.1)
    *RULE_KEYS,
    "edition_source",
}
ROW_KEYS = {
    "place",
    "place_range",
    "player",
    "total",
    "win_points",
    "additional",
    "best_move",
    "awards",
    "penalties",
    "games",
    "wins",
    "wins_don_sheriff",
    "killed_first_night",
    "decided_by",
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)


def faulty(tmp_path: Path) -> tuple[Path, str]:
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    cell = seat_cell(proto, 1, 4, "fouls")
    proto.seat(1, 4)["fouls"] = 7
    path = tmp_path / "faulty.xlsx"
    path.write_bytes(proto.to_bytes())
    return path, cell


@pytest.mark.parametrize("command", ["template", "check", "rate", "serve"])
def test_every_command_has_help(runner, command):
    result = run(runner, command, "--help")
    assert result.exit_code == 0 and "Usage" in result.output


def test_template_writes_a_protocol(runner, tmp_path):
    players = tmp_path / "players.csv"
    players.write_text("Игрок;Клуб\nКот;Полночь\nСова;Полночь\n", encoding="utf-8")
    out = tmp_path / "protocol.xlsx"
    result = run(runner, "template", out, "--games", 3, "--players", players, "--lang", "en")
    assert result.exit_code == 0, result.output
    workbook = openpyxl.load_workbook(out)
    assert {"Games", "Seats", "Players"} <= set(workbook.sheetnames)
    assert workbook["Seats"].max_row == 31
    roster = [row[0] for row in workbook["Players"].iter_rows(min_row=2, values_only=True)]
    assert roster[:2] == ["Кот", "Сова"]


def test_check_clean_sample(runner):
    result = run(runner, "check", SAMPLE)
    assert result.exit_code == 0 and "Ошибок и замечаний нет" in result.output


def test_check_reports_the_cell_and_exits_1(runner, tmp_path):
    path, cell = faulty(tmp_path)
    result = run(runner, "check", path)
    assert result.exit_code == 1
    assert f"Протокол!{cell}" in result.output and "bad-number" in result.output
    assert "ошибок 1" in result.output


def test_check_json(runner, tmp_path):
    path, cell = faulty(tmp_path)
    result = run(runner, "check", path, "--json", "--lang", "en")
    data = json.loads(result.output)
    assert result.exit_code == 1 and (data["errors"], data["warnings"]) == (1, 0)
    assert data["findings"][0]["cell"] == cell and data["findings"][0]["sheet"] == "Протокол"
    assert "not a valid number" in data["findings"][0]["message"]


@pytest.mark.parametrize(
    "make,needle",
    [
        (lambda p: p / "missing.xlsx", "не найден"),
        (lambda p: p, "xlsx"),
        (
            lambda p: (
                (p / "notes.xlsx").write_text("Игра;Результат\n1;Красные") and p / "notes.xlsx"
            ),
            "текст",
        ),
    ],
)
def test_unusable_input_exits_2_with_one_line(runner, tmp_path, make, needle):
    result = run(runner, "check", make(tmp_path))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line]
    assert len(lines) == 1 and needle in lines[0].lower() and "Traceback" not in result.output


def test_debug_shows_the_traceback(runner, tmp_path):
    with pytest.raises(Exception, match=r"missing\.xlsx"):
        runner.invoke(
            main, ["check", str(tmp_path / "missing.xlsx"), "--debug"], catch_exceptions=False
        )


def test_rate_writes_the_results_and_leaves_the_input_alone(runner, tmp_path):
    source = tmp_path / "cup.xlsx"
    source.write_bytes(SAMPLE.read_bytes())
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    result = run(runner, "rate", source)
    assert result.exit_code == 0, result.output
    out = tmp_path / "cup-итоги.xlsx"
    assert out.exists() and "K = 1,3" in result.output and "Лис, Мурка" in result.output
    assert hashlib.sha256(source.read_bytes()).hexdigest() == digest
    assert openpyxl.load_workbook(out).sheetnames[0] == "Итоги"


def test_rate_json_has_exactly_the_keys_of_the_spec(runner):
    result = run(runner, "rate", SAMPLE, "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and set(data) == JSON_KEYS | {"stats"}
    lean = json.loads(run(runner, "rate", SAMPLE, "--json", "--no-stats").output)
    assert set(lean) == JSON_KEYS and lean["standings"] == data["standings"]
    assert set(data["k"]) == {"applied", "value", "heavy_side", "games", "heavy_games"}
    assert set(data["settings"]) == SETTINGS_KEYS
    assert data["settings"]["draw_quiet_phases"] == 5
    assert data["settings"]["win_when_disqualified"] is True
    assert data["settings"]["win"] == 2 and data["settings"]["best_move_2"] == 0.25
    assert data["settings"]["tiebreak"][0] == "total"
    assert data["settings"]["edition"] == "regulation" and data["settings"]["fouled_out"] == 0
    assert data["settings"]["team_removal"] == -1 and data["settings"]["extras_min"] is None
    assert all(set(row) == ROW_KEYS for row in data["standings"])
    assert data["k"]["value"] == 1.3 and data["lot_needed"] is True
    shared = [r for r in data["standings"] if r["place_range"] == "13–14"]
    assert [r["place"] for r in shared] == [13, 13]


def test_lot_seed_decides_and_is_printed(runner, tmp_path):
    out = tmp_path / "r.xlsx"
    result = run(runner, "rate", SAMPLE, "--lot-seed", 42, "-o", out)
    assert result.exit_code == 0 and "42" in result.output
    data = json.loads(run(runner, "rate", SAMPLE, "--lot-seed", 42, "--json").output)
    again = json.loads(run(runner, "rate", SAMPLE, "--lot-seed", 42, "--json").output)
    assert data == again and data["lot_needed"] is False
    assert next(r["decided_by"] for r in data["standings"] if r["place"] in (13, 14)) == "lot"


def test_rate_with_errors_exits_1_and_writes_nothing(runner, tmp_path):
    path, cell = faulty(tmp_path)
    out = tmp_path / "out.xlsx"
    result = run(runner, "rate", path, "-o", out)
    assert result.exit_code == 1 and cell in result.output and not out.exists()


def test_rate_refuses_to_overwrite_its_input(runner, tmp_path):
    source = tmp_path / "cup.xlsx"
    source.write_bytes(SAMPLE.read_bytes())
    result = run(runner, "rate", source, "-o", source)
    assert result.exit_code == 2 and source.read_bytes() == SAMPLE.read_bytes()


def test_rate_to_an_unwritable_place_exits_2(runner, tmp_path):
    result = run(runner, "rate", SAMPLE, "-o", tmp_path / "no" / "such" / "dir" / "r.xlsx")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_season_of_two_files_namespaces_games(runner, tmp_path):
    first, second = Proto(), Proto()
    first.add_game(1, names("A"), "Красные")
    second.add_game(1, names("A"), "Чёрные")
    (tmp_path / "night1.xlsx").write_bytes(first.to_bytes())
    (tmp_path / "night2.xlsx").write_bytes(second.to_bytes("en"))
    out = tmp_path / "season.xlsx"
    result = run(runner, "rate", tmp_path, "-o", out, "--lang", "en")
    assert result.exit_code == 0, result.output
    games = [
        row[0]
        for row in openpyxl.load_workbook(out)["Games"].iter_rows(min_row=1, values_only=True)
    ]
    assert "night1/1" in games and "night2/1" in games


def test_english_output(runner, tmp_path):
    result = run(runner, "rate", SAMPLE, "-o", tmp_path / "r.xlsx", "--lang", "en")
    assert "Results written" in result.output and "heavy side: black" in result.output


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only():
    terminal = Terminal()
    status = msg.Status("ru", total=4, stream=terminal)
    status.started -= 5  # as if the work had been running for a while
    status("read:a.xlsx")
    status("check")
    assert "Проверяю" in terminal.getvalue() and "█" * 5 in terminal.getvalue()
    status.done()
    assert terminal.getvalue().endswith("\r\x1b[2K")
    piped = io.StringIO()
    quiet = msg.Status("ru", total=4, stream=piped)
    quiet.started -= 5
    quiet("check")
    assert piped.getvalue() == ""


def test_check_prints_how_the_headers_were_read_and_what_is_absent(runner, tmp_path):
    """«Ник» read as Игрок, the unknown «Заметки» said to be unread, the missing «Доп» said
    in plain words — before the findings, in the language asked for."""
    from builders import Proto, names

    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Чёрные")
    columns = ["game", "seat", "player", "role", "fouls", "left", "when", "best_move"]
    book = openpyxl.load_workbook(io.BytesIO(proto.to_bytes(order={"seats": columns})))
    book["Протокол"]["C1"] = "Ник"
    book["Протокол"]["I1"] = "Заметки"
    path = tmp_path / "cup.xlsx"
    book.save(path)
    ru = run(runner, "check", path).output.splitlines()
    assert ru[1] == "Чего нет в протоколе:"
    assert ru[2] == "  Нет столбца «Доп»: награды судьи не учтены"
    assert ru[3] == "Как прочитаны заголовки:"
    assert ru[4] == "  Игры: Игра, Тур, Стол, Судья, Результат, Окончание, Отменена"
    seats = next(line for line in ru if line.startswith("  Протокол: "))
    assert seats == (
        "  Протокол: Игра, Место, «Ник» → Игрок, Роль, Фолы, Выбыл, Когда, "
        "Лучший ход, «Заметки» → не прочитан: такого столбца нет"
    )
    en = run(runner, "check", path, "--lang", "en").output
    assert "How the headers were read:" in en and "“Ник”" not in en
    assert "«Ник» → Player" in en and "«Заметки» → not read: no such column" in en


def test_findings_alike_keep_their_order_whatever_the_hash_seed(tmp_path):
    """Several absent columns are noted at one cell with one code: they come in the order
    of the sheet's columns, the same in every run (not in the order of the strings'
    hashes, which Python draws anew for each process)."""
    from builders import Proto, names

    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    path = tmp_path / "cup.xlsx"
    path.write_bytes(proto.to_bytes(order={"seats": ["game", "seat", "player", "role"]}))
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, "-m", "mafia_sheets", "check", str(path), "--json"]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        outputs.add(done.stdout)
    assert len(outputs) == 1
    findings = json.loads(outputs.pop())["findings"]
    absent = [f["message"] for f in findings if f["code"] == "column-absent"]
    assert {f["cell"] for f in findings if f["code"] == "column-absent"} == {"A1"}
    assert [message.split("»")[0] for message in absent] == [
        f"Нет столбца «{name}" for name in ("Фолы", "Выбыл", "Когда", "Лучший ход", "Доп")
    ]


# ---- the exact words of the commonest refusals (what a judge reads first) ----------------


def test_file_not_found_is_one_exact_line(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the file is named as the judge typed it
    result = run(runner, "check", "cup.xlsx", "--lang", "en")
    assert result.exit_code == 2
    assert result.output == "Error: cup.xlsx: file not found. Check the file name and the folder.\n"
    result = run(runner, "check", "cup.xlsx")
    assert result.output == "Ошибка: cup.xlsx: файл не найден. Проверьте имя файла и папку.\n"


def test_a_renamed_text_file_is_one_exact_line(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("cup.xlsx").write_text("Игра,Результат\n1,Красные\n", "utf-8")
    result = run(runner, "rate", "cup.xlsx", "--lang", "en")
    assert result.exit_code == 2
    assert result.output == (
        "Error: cup.xlsx looks like a CSV or text file, not an Excel workbook (perhaps renamed "
        "to .xlsx). Open it in Excel and save it as an Excel workbook (.xlsx).\n"
    )
    assert not (tmp_path / "cup-results.xlsx").exists()


def test_an_output_open_in_excel_is_one_exact_line(runner, tmp_path, monkeypatch):
    from mafia_sheets.cli import files

    sample = Path(__file__).resolve().parent.parent / "samples" / "tournament-ru.xlsx"
    monkeypatch.chdir(tmp_path)
    target = Path("results.xlsx")

    def locked(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", locked)
    result = run(runner, "rate", sample, "-o", target, "--lang", "en")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: results.xlsx cannot be written: it is open in Excel or another program, or the "
        "folder is read-only. Close it and run again.\n"
    )
    assert not target.exists()


@pytest.mark.parametrize(
    "counts,lang,shown",
    [
        ((0, 1), "en", "Total: 0 errors, 1 warning."),
        ((1, 2), "en", "Total: 1 error, 2 warnings."),
        ((1, 1), "ru", "Итого: ошибок 1, предупреждений 1."),
    ],
)
def test_the_findings_summary_counts_its_nouns(counts, lang, shown):
    from mafia_sheets.findings import finding
    from mafia_sheets.reading import parse, rows  # noqa: F401  (they define the codes)

    errors, warnings = counts
    found = [finding("bad-number", "Протокол", "E2", "x")] * errors
    found += [finding("totals-row", "Протокол", "A9", "Итого")] * warnings
    assert msg.findings_text(found, lang).splitlines()[-1] == shown
