"""The page's CSV and world tour upload downloads in a real browser: the buttons beside
the workbook are clicked as a judge would, and the files the browser saves are read back
by value against what `rate --export` gives for the same protocol."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from test_web_browser import (  # noqa: F401  (browser, server, page: the fixtures)
    SAMPLE_EN,
    SAMPLE_RU,
    browser,
    cli_json,
    drop,
    page,
    server,
    shown_standings,
)

from mafia_sheets.formats.csvtable import standings_csv
from mafia_sheets.formats.mwt import upload_bytes
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate


def _rating(path: Path) -> Any:
    rating = evaluate([Source(path.name, path.read_bytes())], stats=False, seats=True).rating
    assert rating is not None
    return rating


def _saved(page: Page, button: str, tmp_path: Path) -> tuple[str, bytes]:  # noqa: F811
    """Click `button`, catch the download the browser starts: its name and bytes."""
    expect(page.locator(button)).to_be_visible()
    with page.expect_download() as caught:
        page.click(button)
    download = caught.value
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    return download.suggested_filename, target.read_bytes()


def test_the_csv_button_saves_the_standings_a_russian_excel_opens(
    page: Page,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The Russian page: `;` between values, decimal commas, a BOM; every player's place,
    name and total those of `rate --json`, the whole file that of `rate --export csv`."""
    want = cli_json(SAMPLE_RU)
    drop(page, (SAMPLE_RU.name, SAMPLE_RU.read_bytes()))
    shown_standings(page)
    expect(page.locator("#download-csv")).to_have_text("Итоги для Excel (.csv)")
    name, data = _saved(page, "#download-csv", tmp_path)
    assert name == "tournament-ru-итоги.csv"
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Место", "Игрок", "Итого"]
    players = want["standings"]
    ranked = rows[1 : 1 + len(players)]
    assert [row[1] for row in ranked] == [s["player"] for s in players]
    assert [row[1] for row in rows[1 + len(players) :]] == want["removed"]  # listed after
    for row, standing in zip(ranked, players, strict=True):
        assert float(row[2].replace(",", ".")) == standing["total"]
        assert row[0].split("–")[0] == str(standing["place"])
    assert data == standings_csv(_rating(SAMPLE_RU), "ru")


def test_the_csv_button_of_the_english_page_writes_english_csv(
    page: Page,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Switched to English: commas between values, decimal points, English headings."""
    want = cli_json(SAMPLE_EN)
    page.click("button[data-lang=en]")
    drop(page, (SAMPLE_EN.name, SAMPLE_EN.read_bytes()))
    shown_standings(page)
    name, data = _saved(page, "#download-csv", tmp_path)
    assert name == "tournament-en-results.csv"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Place", "Player", "Total"]
    totals = {row[1]: float(row[2]) for row in rows[1 : 1 + len(want["standings"])]}
    assert totals == {s["player"]: s["total"] for s in want["standings"]}
    assert data == standings_csv(_rating(SAMPLE_EN), "en")


def test_the_upload_button_saves_the_world_tour_games(page: Page, tmp_path: Path) -> None:  # noqa: F811
    """The world tour upload: one record a game, each game's players, roles and result
    those of the protocol, the whole file that of `rate --export mwt`."""
    rating = _rating(SAMPLE_RU)
    drop(page, (SAMPLE_RU.name, SAMPLE_RU.read_bytes()))
    shown_standings(page)
    name, data = _saved(page, "#download-mwt", tmp_path)
    assert name == "tournament-ru-mwt.json"
    games = json.loads(data)
    assert games == json.loads(upload_bytes(rating)[0])
    assert len(games) == rating.seats["game"].nunique() == 20
    by_players = {
        tuple(rows.sort_values("seat")["player"]): rows.sort_values("seat")
        for _, rows in rating.seats.groupby("game")
    }
    roles = {"civilian": "red", "sheriff": "sheriff", "mafia": "black", "don": "don"}
    for game in games:
        result = game["result"]
        rows = by_players[tuple(result["players"])]
        assert result["player_roles"] == [roles[r] for r in rows["role"]]
        assert result["player_fouls"] == [int(f) for f in rows["fouls"].fillna(0)]
    assert {g["result"]["result"] for g in games} == {"red", "black", "draw"}
