"""Wall prints, as LibreOffice prints them: the statistics readable at arm's length, the
tournament's figures on pages of their own, the one-row-per-game template block by block,
and every box of the blank template inside the printed page.

Each workbook is converted to PDF once (`soffice --headless --convert-to pdf`); the pages
are read back with poppler: the words with their boxes (`pdftotext -bbox`: a word's box is
as tall as its type) and the ink of each page (`pdftoppm -gray`).
"""

from __future__ import annotations

import io
import re
import statistics
import subprocess
from pathlib import Path

import pytest

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.xlsx import results_workbook
from mafia_sheets.template.layouts import empty_games, write_games
from mafia_sheets.testing.synth import generate

WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
POINT = 72  # PDF units per inch


def printed(soffice: str, folder: Path, name: str, data: bytes) -> Path:
    book = folder / f"{name}.xlsx"
    book.write_bytes(data)
    done = subprocess.run(
        [soffice, "--headless", "--convert-to", "pdf", "--outdir", str(folder), str(book)],
        capture_output=True,
        timeout=300,
        check=False,
    )
    pdf = folder / f"{name}.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stderr
    return pdf


def pages(pdf: Path) -> list[tuple[float, float, list[tuple[float, float, float, float, str]]]]:
    """Each page: width, height and its words (x0, y0, x1, y1, text), in points."""
    xml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        (
            float(width),
            float(height),
            [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in WORD.findall(body)],
        )
        for width, height, body in PAGE.findall(xml)
    ]


def ink(pdf: Path, folder: Path, dpi: int = 36) -> list[tuple[int, int, int, int, int, int]]:
    """Each page's size in pixels and the box of everything drawn on it (grey < 200)."""
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(pdf), str(folder / "ink")], check=True)
    boxes = []
    for image in sorted(folder.glob("ink*.pgm")):
        data = image.read_bytes()
        fields = data.split(maxsplit=4)
        width, height, pixels = int(fields[1]), int(fields[2]), fields[4]
        dark = [i for i, value in enumerate(pixels[: width * height]) if value < 200]
        xs = [i % width for i in dark]
        ys = [i // width for i in dark]
        boxes.append((width, height, min(xs), min(ys), max(xs), max(ys)))
    return boxes


# ---- the results workbook --------------------------------------------------------------


@pytest.fixture(scope="module")
def season_pdf(soffice: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sixty players, a season's worth of rounds: the players' table is pages long."""
    buffer = io.BytesIO()
    generate(120, players=60, seed=5).to_xlsx(buffer)
    rating = evaluate([Source("season.xlsx", buffer.getvalue())]).rating
    assert rating is not None
    folder = tmp_path_factory.mktemp("season")
    return printed(soffice, folder, "results", results_workbook(rating, "ru"))


def sheet_title(words: list[tuple[float, float, float, float, str]]) -> str | None:
    """The sheet named in a page's title line («Кубок — Статистика»), if it has one."""
    dash = next((w for w in words if w[4] == "—"), None)
    if dash is None:
        return None
    line = sorted(w for w in words if abs(w[1] - dash[1]) < 1 and w[0] > dash[0])
    named = line[:1]
    for word in line[1:]:  # up to a wide gap: the dates on the right of a page's header
        if word[0] - named[-1][2] > 20:
            break
        named.append(word)
    return " ".join(w[4] for w in named)


def titled(pdf: Path, sheet: str) -> list[list[tuple[float, float, float, float, str]]]:
    """The words of each page printed from `sheet`: from the page whose title names it to
    the next page that names another sheet."""
    found, inside = [], False
    for _, _, words in pages(pdf):
        named = sheet_title(words)
        if named is not None:
            inside = named == sheet
        if inside:
            found.append(words)
    return found


def test_the_statistics_print_at_eight_points_or_more(season_pdf: Path):
    sheet = titled(season_pdf, "Статистика")
    assert len(sheet) >= 4  # 60 players: two pages down, two groups of columns across
    heights = [y1 - y0 for words in sheet for _, y0, _, y1, text in words if text.isdigit()]
    assert statistics.median(heights) >= 8.0


def test_the_statistics_repeat_place_and_player_on_every_page(season_pdf: Path):
    for words in titled(season_pdf, "Статистика"):
        texts = {w[4] for w in words}
        assert {"Место", "Игрок"} <= texts  # the repeated columns' headers and rows


def test_every_statistics_page_names_its_sheet_and_says_what_a_blank_is(season_pdf: Path):
    """The title and the note are printed whole on every page across and down — in the
    page's header and footer, never as rows cut at the edge of the repeated columns."""
    sheet = titled(season_pdf, "Статистика")
    for words in sheet:
        assert sheet_title(words) == "Статистика"
        assert "Пустая" in {w[4] for w in words}
    for words in sheet:
        texts = [w[4] for w in words]
        assert texts.count("Пустая") == 1  # once: the footer's, no title row besides


def test_the_column_groups_are_whole_on_their_pages(season_pdf: Path):
    """A group's title is printed on the pages that hold its columns, never cut: each
    group title shows on the pages across of one column set only."""
    sets = [{w[4] for w in words} for words in titled(season_pdf, "Статистика")]
    first = next(i for i, texts in enumerate(sets) if "Мирный" in texts)
    assert "Дисциплина" not in sets[first]  # the columns spread over pages across
    assert any("Дисциплина" in texts for texts in sets)


def test_the_tournament_figures_have_pages_of_their_own(season_pdf: Path):
    players = titled(season_pdf, "Статистика")
    tournament = titled(season_pdf, "Статистика турнира")
    assert tournament
    assert not any("По номерам мест" in " ".join(w[4] for w in page) for page in players)
    assert any("По номерам мест" in " ".join(w[4] for w in page) for page in tournament)


# ---- the templates ---------------------------------------------------------------------


def settings_pages(pdf: Path) -> set[int]:
    """The pages printed from the template's «Турнир» sheet (its header on each)."""
    return {
        i
        for i, (_, _, words) in enumerate(pages(pdf))
        if {"Параметр", "Значение"} <= {w[4] for w in words}
    }


def test_every_box_of_the_blank_is_inside_the_printed_page(soffice: str, tmp_path: Path):
    pdf = printed(soffice, tmp_path, "blank", write_games("blank", empty_games(3), "ru"))
    settings = settings_pages(pdf)
    assert settings  # the settings sheet of every template prints after the games
    boxes = [box for i, box in enumerate(ink(pdf, tmp_path)) if i not in settings]
    assert len(boxes) == 3  # one page a game
    for width, height, left, top, right, bottom in boxes:
        margin = 36 * 0.25  # a quarter of an inch at 36 dpi
        assert left >= margin and top >= margin
        assert right <= width - margin and bottom <= height - margin
    words = pages(pdf)[0][2]
    judge = next(w for w in words if w[4] == "Судья")
    assert judge[2] < pages(pdf)[0][0] - POINT / 4


def test_the_wide_template_prints_block_by_block(soffice: str, tmp_path: Path):
    pdf = printed(soffice, tmp_path, "wide", write_games("wide", empty_games(10), "ru"))
    settings = settings_pages(pdf)
    assert settings
    printed_pages = [page for i, page in enumerate(pages(pdf)) if i not in settings]
    assert len(printed_pages) >= 6  # games, then each block of ten on pages across
    for width, _, words in printed_pages:
        texts = {w[4] for w in words}
        assert {"Тур", "Стол", "Игра"} <= texts  # the game's columns on every page
        assert all(w[2] <= width for w in words)
    heights = [w[3] - w[1] for _, _, words in printed_pages for w in words if w[4].isdigit()]
    assert statistics.median(heights) >= 8.0
    blocks = [{w[4] for w in words} for _, _, words in printed_pages]
    assert any("Роль" in " ".join(texts) for texts in blocks)
