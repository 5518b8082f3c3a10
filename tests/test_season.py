"""A season: several game-night workbooks pooled as one tournament (SPEC §7, issue 4)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from builders import Proto, names
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.errors import ProtocolReadError
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.files import each_once
from mafia_sheets.report.phrases import title


def night(result: str, prefix: str = "P", settings=None) -> Proto:
    proto = Proto(settings=settings)
    proto.add_game(1, names(prefix), result)
    proto.add_game(2, names(prefix), "Красные")
    return proto


def write(folder: Path, name: str, proto: Proto, lang: str = "ru") -> Path:
    path = folder / name
    path.write_bytes(proto.to_bytes(lang))
    return path


def test_k_is_computed_over_the_pooled_games():
    first = night("Чёрные")  # black 1, red 1
    second = night("Красные")  # red 2
    outcome = evaluate([first.source(name="a.xlsx"), second.source("en", name="b.xlsx")])
    k = outcome.rating.k
    # N = 4, red 3, black 1 → heavy black, n = 1, K = 1 + (2 − 1)/2 = 3/2
    assert (k.games, k.red_wins, k.black_wins, k.value) == (4, 3, 1, Fraction(3, 2))
    don = next(s for s in outcome.rating.standings if s.player == "P7")
    assert don.win_points == 2 * Fraction(3, 2) and don.games == 4


def test_conflicting_settings_are_rejected_naming_file_and_setting(tmp_path):
    write(tmp_path, "a.xlsx", night("Красные", settings=[("Коэффициент K", "да")]))
    write(tmp_path, "b.xlsx", night("Красные", settings=[("Коэффициент K", "нет")]))
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "--json"])
    assert result.exit_code == 2
    assert "b.xlsx" in result.output and "Коэффициент K" in result.output


@pytest.mark.parametrize(
    "setting,first,second",
    [("Ничья после фаз без выбываний", 5, 6), ("Победа при дисквалификации", "да", "нет")],
)
def test_the_open_readings_must_agree_across_a_season(tmp_path, setting, first, second):
    write(tmp_path, "a.xlsx", night("Красные", settings=[(setting, first)]))
    write(tmp_path, "b.xlsx", night("Красные", settings=[(setting, second)]))
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "--json"])
    assert result.exit_code == 2
    assert "b.xlsx" in result.output and setting in result.output


def test_look_alike_nicknames_across_files_are_reported(tmp_path):
    first, second = night("Красные"), night("Красные")
    for row in second.seats:
        if row["player"] == "P1":
            row["player"] = "р1"  # Cyrillic р and a lower case: the same person, most likely
    outcome = evaluate([first.source(name="a.xlsx"), second.source(name="b.xlsx")])
    alike = [f for f in outcome.findings if f.code == "name-split"]
    assert alike and alike[0].source == "b.xlsx" and alike[0].severity == "error"
    assert outcome.rating is None  # no roster decides: one person would be two rows


def test_two_files_rosters_each_listing_one_spelling_do_not_make_two_people():
    first, second = night("Красные"), night("Красные")
    for row in second.seats:
        if row["player"] == "P6":
            row["player"] = "p6"
    first.players = [{"player": name} for name in names("P")]
    second.players = [{"player": name if name != "P6" else "p6"} for name in names("P")]
    outcome = evaluate([first.source(name="a.xlsx"), second.source(name="b.xlsx")])
    split = [(f.code, f.source, f.value) for f in outcome.findings if f.code == "name-split"]
    assert split == [("name-split", "b.xlsx", "p6")] and outcome.rating is None
    both = night("Красные")
    both.players = [{"player": name} for name in [*names("P"), "p6"]]  # one roster: two people
    alone = evaluate([both.source(name="c.xlsx"), second.source(name="b.xlsx")])
    assert not [f for f in alone.findings if f.code in ("name-split", "name-look-alike")]


def test_results_show_the_file_of_each_game_and_each_players_history(tmp_path):
    write(tmp_path, "night-2.xlsx", night("Чёрные"))
    write(tmp_path, "night-10.xlsx", night("Красные"), "en")
    out = tmp_path / "season.xlsx"
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    book = openpyxl.load_workbook(out)
    games = [
        r
        for r in book["Игры"].iter_rows(values_only=True)
        if r and r[1] in ("night-2.xlsx", "night-10.xlsx")
    ]
    assert [(r[0], r[1]) for r in games] == [
        ("night-2/1", "night-2.xlsx"),
        ("night-2/2", "night-2.xlsx"),
        ("night-10/1", "night-10.xlsx"),
        ("night-10/2", "night-10.xlsx"),
    ]
    rows = list(book["Баллы"].iter_rows(values_only=True))
    header = next(i for i, r in enumerate(rows) if r and r[0] == "Игрок")
    columns = rows[header]
    body = [dict(zip(columns, r, strict=True)) for r in rows[header + 1 :] if r[0]]
    leader = body[0]["Игрок"]
    history = [r for r in body if r["Игрок"] == leader]
    assert body[:4] == history  # one player's games together, in game order
    assert [r["Игра"] for r in history] == ["night-2/1", "night-2/2", "night-10/1", "night-10/2"]
    running = 0.0
    for row in history:
        running += row["Итого"] or 0.0
        assert abs(row["Нарастающий итог"] - running) < 1e-9


def test_a_season_is_titled_by_the_first_file_and_counted_in_the_output_language():
    """No `Название сезона`: the first file's name and the files, with the plural forms of
    the language — never «Сезон / Season» in two languages at once."""
    protos = [night("Красные", settings=[("Название", f"Вечер {i}")]) for i in (1, 2)]
    sources = [p.source(name=f"n{i}.xlsx") for i, p in enumerate(protos, 1)]
    tournament = evaluate(sources).rating.tournament
    assert title(tournament, "ru") == "Вечер 1 (сезон: 2 файла)"
    assert title(tournament, "en") == "Вечер 1 (season: 2 files)"
    five = [
        night("Красные", settings=[("Название", f"Вечер {i}")]).source(name=f"{i}.xlsx")
        for i in range(5)
    ]
    assert title(evaluate(five).rating.tournament, "ru") == "Вечер 0 (сезон: 5 файлов)"


def test_the_season_name_setting_titles_the_season(tmp_path):
    write(tmp_path, "a.xlsx", night("Красные", settings=[("Название", "Вечер 1")]))
    write(
        tmp_path,
        "b.xlsx",
        night("Красные", settings=[("Название", "Вечер 2"), ("Название сезона", "Клуб: осень")]),
        "en",
    )
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "--json", "--lang", "en"])
    assert result.exit_code == 0, result.output
    import json

    assert json.loads(result.output)["tournament"]["name"] == "Клуб: осень"
    out = tmp_path / "season.xlsx"
    assert CliRunner().invoke(main, ["rate", str(tmp_path), "-o", str(out)]).exit_code == 0
    summary = {
        r[0]: r[1]
        for r in openpyxl.load_workbook(out)["Сводка"].iter_rows(values_only=True)
        if r and r[0]
    }
    assert summary["Название"] == "Клуб: осень"
    assert openpyxl.load_workbook(out)["Итоги"]["A1"].value.startswith("Клуб: осень — ")


# ---- each workbook once, each by its own name ------------------------------------------------


def test_files_of_one_name_in_two_folders_keep_their_own_games(tmp_path):
    for folder, result in (("sA", "Чёрные"), ("sB", "Красные")):
        (tmp_path / folder).mkdir()
        prefix = "A" if folder == "sA" else "B"
        write(tmp_path / folder, "night1.xlsx", night(result, prefix=prefix))
    result = CliRunner().invoke(
        main, ["rate", str(tmp_path / "sA"), str(tmp_path / "sB"), "--json", "--lot-seed", "1"]
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["k"]["games"] == 4  # 2 + 2, not one file's games written over the other's
    player = next(s for s in body["standings"] if s["player"] == "A7")
    assert player["games"] == 2
    assert {Path(read["file"]).parts[-2:] for read in body["read"]} == {
        ("sA", "night1.xlsx"),
        ("sB", "night1.xlsx"),
    }


def test_one_workbook_given_twice_is_refused_naming_both(tmp_path):
    first = write(tmp_path, "night1.xlsx", night("Красные"))
    (tmp_path / "night1 - копия.xlsx").write_bytes(first.read_bytes())
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "--json"])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line and "дважды" in line
    assert "night1 - копия.xlsx" in line and "night1.xlsx" in line
    same = CliRunner().invoke(main, ["check", str(first), str(first), "--lang", "en"])
    assert same.exit_code == 2 and "given twice" in same.stderr


def test_every_unreadable_file_of_a_season_is_named_in_one_run(tmp_path):
    write(tmp_path, "good.xlsx", night("Красные"))
    (tmp_path / "random.xlsx").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "text.xlsx").write_text("Игра;Место\n1;1\n", encoding="utf-8")
    missing = tmp_path / "absent.xlsx"
    result = CliRunner().invoke(main, ["rate", str(tmp_path), "--json"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("Ошибка: ") for line in lines)
    assert "random.xlsx" in lines[0] and "text.xlsx" in lines[1]
    gone = CliRunner().invoke(main, ["check", str(missing), str(tmp_path / "absent2.xlsx")])
    assert gone.exit_code == 2
    said = [("absent.xlsx" in line, "absent2.xlsx" in line) for line in gone.stderr.splitlines()]
    assert said == [(True, False), (False, True)]


def test_uploads_of_one_name_are_told_apart_and_copies_refused():
    first, second = night("Чёрные", prefix="A"), night("Красные", prefix="B")
    outcome = evaluate([first.source(name="n.xlsx"), second.source(name="n.xlsx")])
    assert outcome.rating.k.games == 4
    assert outcome.rating.sources == ("n.xlsx", "n (2).xlsx")
    data = first.to_bytes()
    with pytest.raises(ProtocolReadError, match="given twice"):
        evaluate([Source("a.xlsx", data), Source("b.xlsx", data)])


def test_a_repeated_name_is_numbered_past_the_names_other_files_hold():
    sources = [Source(n, bytes([i])) for i, n in enumerate(["a.xlsx", "a.xlsx", "a (2).xlsx"])]
    assert [s.name for s in each_once(sources)] == ["a.xlsx", "a (3).xlsx", "a (2).xlsx"]
    paths = [Path("x/a.xlsx"), Path("y/A.xlsx"), Path("b.xlsx")]
    named = each_once([Source(p.name, bytes([i])) for i, p in enumerate(paths)], paths)
    assert [s.name for s in named] == [str(Path("x/a.xlsx")), str(Path("y/A.xlsx")), "b.xlsx"]
