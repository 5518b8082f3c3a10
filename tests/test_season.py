"""A season: several game-night workbooks pooled as one tournament (SPEC §7, issue 4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from builders import Proto, names
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.pipeline import evaluate
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
