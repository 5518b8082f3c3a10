"""The seating form in a real browser: a roster chosen, the schedule shown, the plan
downloaded; a roster dropped on the seating zone is not taken for a protocol."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from playwright.sync_api import Page, expect
from test_web_browser import browser, page, server  # noqa: F401  (the browser fixtures)

ROSTER = "Игрок;Клуб\nКот;Маски\nПёс;Маски\n" + "".join(f"N{i};\n" for i in range(18))


def test_a_roster_is_seated_and_the_plan_downloads(page: Page, tmp_path: Path) -> None:  # noqa: F811
    roster = tmp_path / "players.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    page.set_input_files("#seat-roster", str(roster))
    expect(page.locator("#seat-roster-name")).to_contain_text("players.csv")
    page.fill("#seat-tables", "2")
    page.fill("#seat-rounds", "3")
    page.click("#seat-go")
    expect(page.locator("#seat-figures")).to_contain_text("Встречи пар за столом")
    expect(page.locator(".seat-round")).to_have_count(3)
    expect(page.locator(".seat-round").first.locator("tbody tr")).to_have_count(2)
    with page.expect_download() as download:
        page.click("#seat-plan")
    path = tmp_path / "plan.xlsx"
    download.value.save_as(path)
    assert download.value.suggested_filename == "рассадка.xlsx"
    book = openpyxl.load_workbook(path)
    shown = page.locator(".seat-round").first.locator("tbody tr").first.locator("td")
    wall = [list(r) for r in book["Рассадка"].iter_rows(values_only=True)]
    assert [row[1] for row in wall[2:12]] == shown.all_text_contents()
    expect(page.locator("#results")).to_be_hidden()  # the protocol part stayed untouched
