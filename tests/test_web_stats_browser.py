"""The page's player cards and statistics tab in a real browser (issue 13)."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from test_web_browser import (  # noqa: F401  (browser, server, page: the fixtures)
    SAMPLE_RU,
    browser,
    cli_json,
    drop,
    page,
    server,
    shown_standings,
)

ROLES_RU = {"civilian": "Мирный", "sheriff": "Шериф", "mafia": "Мафия", "don": "Дон"}


def test_clicking_a_player_opens_their_card(page: Page) -> None:  # noqa: F811
    want = cli_json(SAMPLE_RU)
    drop(page, (SAMPLE_RU.name, SAMPLE_RU.read_bytes()))
    shown_standings(page)
    leader = want["standings"][0]
    stats = next(p for p in want["stats"]["players"] if p["player"] == leader["player"])
    page.click(f'#standings .player-link[data-player="{leader["player"]}"]')
    card = page.locator("#card-block")
    expect(card).to_be_visible()
    expect(page.locator("#card-title")).to_have_text(
        f"Место {leader['place_range']} — {leader['player']}"
    )
    expect(card.locator(".card-games tbody tr")).to_have_count(stats["games"])
    roles = card.locator(".card-roles tbody tr")
    for index, role in enumerate(("civilian", "sheriff", "mafia", "don")):
        row = roles.nth(index)
        expect(row.locator("th")).to_have_text(ROLES_RU[role])
        expect(row.locator("td").nth(0)).to_have_text(str(stats["by_role"][role]["games"]))
        expect(row.locator("td").nth(1)).to_have_text(str(stats["by_role"][role]["wins"]))
    # printing with a card open prints the card alone
    page.emulate_media(media="print")
    expect(card).to_be_visible()
    expect(page.locator("#standings-block")).to_be_hidden()
    page.emulate_media(media="screen")
    page.keyboard.press("Escape")
    expect(card).to_be_hidden()


def test_statistics_tab_shows_the_per_role_table_in_both_languages(page: Page) -> None:  # noqa: F811
    want = cli_json(SAMPLE_RU)
    drop(page, (SAMPLE_RU.name, SAMPLE_RU.read_bytes()))
    shown_standings(page)
    page.click("#tab-stats")
    expect(page.locator("#stats-block")).to_be_visible()
    expect(page.locator("#standings-block")).to_be_hidden()
    rows = page.locator("#stats tbody tr")
    expect(rows).to_have_count(len(want["stats"]["players"]))
    first = want["stats"]["players"][0]
    row = rows.nth(0)
    expect(row.locator(".player")).to_have_text(first["player"])
    sheriff = first["by_role"]["sheriff"]
    expect(row.locator(".role-sheriff")).to_have_text(f"{sheriff['wins']} / {sheriff['games']}")
    expect(page.locator("#stats-head")).to_contain_text("Мирный")
    page.click("[data-lang=en]")
    expect(page.locator("#tab-stats")).to_have_text("Statistics")
    expect(page.locator("#stats-head")).to_contain_text("Civilian")
    page.locator("#stats .player-link").nth(0).click()
    expect(page.locator("#card-title")).to_contain_text(f"— {first['player']}")
    expect(page.locator("#card-block .card-games thead")).to_contain_text("Round")
    page.click("#tab-standings")
    expect(page.locator("#standings-block")).to_be_visible()
