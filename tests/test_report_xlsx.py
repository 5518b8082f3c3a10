"""The results workbook (SPEC §6), reopened with openpyxl and python-calamine.

Workbooks are compared by sheet names, headers and cell values, never by bytes.
"""

from __future__ import annotations

import io
import re
import time
import warnings
import zipfile
from dataclasses import replace
from fractions import Fraction as F

import openpyxl
import pandas as pd
import pytest
from python_calamine import CalamineWorkbook
from rating_fixture import frames, make_rating, shown, without_k

from mafia_sheets.model import KSummary, LotStatus, Tournament
from mafia_sheets.report import xlsx
from mafia_sheets.report.cells import mixed_cells, number_cells
from mafia_sheets.report.phrases import decimal_text, k_formula, lot_line
from mafia_sheets.report.sheets import tables
from mafia_sheets.report.xlsx import results_workbook

SHEETS_RU = ["Итоги", "Игры", "Баллы", "Сводка", "Замечания", "Диаграммы"]
SHEETS_EN = ["Standings", "Games", "Points", "Summary", "Findings", "Charts"]
STANDINGS_RU = [
    "Место",
    "Игрок",
    "Итого",
    "За победы",
    "Доп. баллы",
    "Лучший ход",
    "ЛИ",
    "Штрафы",
    "Игр",
    "Побед",
    "Побед Доном/Шерифом",
    "Убит в 1-ю ночь",
    "Решено по",
]
STANDINGS_EN = [
    "Place",
    "Player",
    "Total",
    "Win points",
    "Additional",
    "Best move",
    "Awards",
    "Penalties",
    "Games",
    "Wins",
    "Wins as Don/Sheriff",
    "Killed night 1",
    "Decided by",
]
PROVISIONAL = {
    "ru": "ПРЕДВАРИТЕЛЬНЫЕ ИТОГИ: есть нерассмотренный протест",
    "en": "PROVISIONAL: a protest is pending",
}


def opened(data: bytes) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(data))


def rows(ws) -> list[tuple]:
    return [tuple(row) for row in ws.iter_rows(values_only=True)]


def header_index(ws, first: str) -> int:
    """1-based row whose first cell is the given header."""
    for number, row in enumerate(ws.iter_rows(values_only=True), 1):
        if row and row[0] == first:
            return number
    raise AssertionError(f"no header {first!r} on {ws.title}")


def table(ws, first: str) -> tuple[list, list[tuple]]:
    """Header and the data rows below it, down to the first blank row."""
    start = header_index(ws, first)
    all_rows = rows(ws)
    header = [v for v in all_rows[start - 1] if v is not None]
    body = []
    for row in all_rows[start:]:
        if all(v is None for v in row):
            break
        body.append(row[: len(header)])
    return header, body


def calamine_sheets(data: bytes) -> dict[str, list[list]]:
    book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}


@pytest.fixture(scope="module")
def rating():
    return make_rating()


@pytest.fixture(scope="module")
def ru(rating) -> bytes:
    return results_workbook(rating, "ru")


@pytest.fixture(scope="module")
def en(rating) -> bytes:
    return results_workbook(rating, "en")


# ---- names and headers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "names", "header"), [("ru", SHEETS_RU, STANDINGS_RU), ("en", SHEETS_EN, STANDINGS_EN)]
)
def test_sheet_names_and_standings_headers(rating, lang, names, header):
    book = opened(results_workbook(rating, lang))
    assert book.sheetnames == names
    assert table(book[names[0]], header[0])[0] == header


def test_games_and_points_headers_ru(ru):
    book = opened(ru)
    games = table(book["Игры"], "Игра")[0]
    assert games == [
        "Игра",
        "Файл",
        "Тур",
        "Стол",
        "Судья",
        "Результат",
        "Отменена",
        "K применён",
        "K",
        *[f"Место {i}" for i in range(1, 11)],
    ]
    points = table(book["Баллы"], "Игрок")[0]
    assert points == [
        "Игрок",
        "Файл",
        "Игра",
        "Место",
        "Роль",
        "За победу (8.2, 8.5)",
        "Штраф (8.2.4)",
        "Лучший ход (8.3)",
        "ЛИ (8.4)",
        "Доп. баллы",
        "Итого",
        "Нарастающий итог",
    ]


def test_games_sheet_says_who_sat_in_each_seat_and_their_points(ru):
    """Two lines a game: the game and the nickname in each seat, then «баллы» and the seat's
    points right below its player (game 1: seat 1 «=1+1» with 2.25, seat 2 «@cmd» with 3)."""
    ws = opened(ru)["Игры"]
    header = header_index(ws, "Игра")
    assert ws.cell(header + 1, 1).value == 1 and ws.cell(header + 2, 1).value is None
    assert [ws.cell(header + 1, c).value for c in (10, 11, 12)] == ["=1+1", "@cmd", "Ёж"]
    assert ws.cell(header + 1, 10).data_type == "s"  # a nickname is text, never a formula
    assert ws.cell(header + 2, 6).value == "баллы"
    assert [ws.cell(header + 2, c).value for c in (10, 11, 12)] == [2.25, 3, 2]
    assert ws.cell(header + 3, 1).value == 2  # the next game
    assert ws.auto_filter.ref is None  # a filter would split a game's two lines


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_header_wraps_in_the_middle_of_a_word(lang):
    """Every column is at least as wide as the longest word of its header (bold type):
    «Нарастающий итог» wraps at the space, never as «Нарастаю / щий итог»."""
    book = opened(results_workbook(make_rating(), lang))
    for name, first in (
        ((SHEETS_RU if lang == "ru" else SHEETS_EN)[0], "Место" if lang == "ru" else "Place"),
        ("Баллы" if lang == "ru" else "Points", "Игрок" if lang == "ru" else "Player"),
    ):
        ws = book[name]
        header = header_index(ws, first)
        for cell in ws[header]:
            if isinstance(cell.value, str):
                longest = max(len(word) for word in cell.value.split())
                width = ws.column_dimensions[cell.column_letter].width
                assert width >= longest * 1.2 + 1.5, (name, cell.value, width)
    points = book["Баллы" if lang == "ru" else "Points"]
    running = next(
        c
        for c in points[header_index(points, "Игрок" if lang == "ru" else "Player")]
        if c.value in ("Нарастающий итог", "Running total")
    )
    assert points.column_dimensions[running.column_letter].width >= (14.7 if lang == "ru" else 9)


def test_games_and_points_headers_en(en):
    book = opened(en)
    assert table(book["Games"], "Game")[0][:9] == [
        "Game",
        "File",
        "Round",
        "Table",
        "Judge",
        "Result",
        "Annulled",
        "K applied",
        "K",
    ]
    points = table(book["Points"], "Player")[0]
    assert "Win points (8.2, 8.5)" in points and "Penalty (8.2.4)" in points
    assert points[-1] == "Running total"


def test_source_column_only_for_several_files():
    book = opened(results_workbook(make_rating(sources=("only.xlsx",)), "ru"))
    assert "Файл" not in table(book["Игры"], "Игра")[0]
    assert "Файл" not in table(book["Баллы"], "Игрок")[0]


# ---- standings ---------------------------------------------------------------------------


def test_standings_values(ru):
    ws = opened(ru)["Итоги"]
    _, body = table(ws, "Место")
    assert [r[0] for r in body] == [1, 2, 3, 4, "5–6", "5–6", 7]
    assert [r[1] for r in body] == ["Кот", "=1+1", "@cmd", "Ёж", "-minus", "+plus", "Lynx"]
    assert body[0][2] == pytest.approx(8.3)
    assert body[-1][2] == pytest.approx(1 / 3)  # stored exact enough; shown as 0.33
    assert [r[12] for r in body] == [
        "сумме баллов",
        "доп. баллам",
        "победам",
        "сумме баллов",
        "нужен жребий",
        "сумме баллов",
        "сумме баллов",
    ]
    first = header_index(ws, "Место") + 1
    assert ws.cell(first, 3).number_format == "0.00"
    assert ws.cell(first, 9).value == 10 and ws.cell(first, 12).value == 2


def test_standings_display_two_decimals_in_calamine(ru):
    sheet = calamine_sheets(ru)["Итоги"]
    lynx = next(row for row in sheet if row[1] == "Lynx")
    assert round(lynx[2], 2) == 0.33


def test_decided_by_in_english(en):
    _, body = table(opened(en)["Standings"], "Place")
    assert [r[12] for r in body][:5] == [
        "total",
        "additional points",
        "wins",
        "total",
        "lot needed",
    ]


def test_removed_players_listed_apart(ru):
    ws = opened(ru)["Итоги"]
    all_rows = rows(ws)
    heading = next(i for i, r in enumerate(all_rows) if r[0] and "Удалены" in str(r[0]))
    assert all_rows[heading + 1][:2] == ("Место", "Игрок")
    removed = all_rows[heading + 2]
    assert removed[0] is None and removed[1] == "Удалённый" and removed[12] is None
    _, body = table(ws, "Место")
    assert "Удалённый" not in [r[1] for r in body]
    last_standing = header_index(ws, "Место") + len(body)
    assert ws.auto_filter.ref.endswith(str(last_standing))


def test_k_and_lot_notices_above_standings(ru):
    top = [r[0] for r in rows(opened(ru)["Итоги"])[: header_index(opened(ru)["Итоги"], "Место")]]
    assert any(t and "K = 1 + (10/2 − 3)/(10/2) = 1,4" in t for t in top)
    assert any(t and "НУЖЕН ЖРЕБИЙ" in t and "-minus, +plus" in t for t in top)


def test_lot_seed_is_printed(rating):
    seeded = replace(
        rating, lot=LotStatus(needed=False, method="seed", seed=42, groups=(("-minus", "+plus"),))
    )
    book = opened(results_workbook(seeded, "en"))
    top = [r[0] for r in rows(book["Standings"])[:8] if r[0]]
    assert any("seed" in t and "(42)" in t for t in top)
    summary = {r[0]: r[1] for r in rows(book["Summary"]) if r[0]}
    assert summary["Lot seed (--lot-seed)"] == 42


# ---- provisional -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_provisional_banner_on_every_sheet(lang):
    book = opened(results_workbook(make_rating(provisional=True), lang))
    for ws in book.worksheets:
        assert ws["A1"].value == PROVISIONAL[lang], ws.title
        assert ws["A1"].font.color.rgb.endswith("C00000")
        assert PROVISIONAL[lang] in ws.oddHeader.center.text


def test_no_banner_when_final(ru):
    book = opened(ru)
    for ws in book.worksheets:
        texts = [v for r in rows(ws) for v in r if isinstance(v, str)]
        assert PROVISIONAL["ru"] not in texts, ws.title
        assert not ws.oddHeader.center.text


# ---- findings, summary, charts -----------------------------------------------------------


def test_findings_sheet(rating, ru, en):
    found = rating.findings[0]
    header, body = table(opened(ru)["Замечания"], "Код")
    assert header == [
        "Код",
        "Важность",
        "Где",
        "Значение",
        "Что найдено",
        "Ожидалось",
        "Как исправить",
    ]
    assert body == [
        (
            "unknown-setting",
            "предупреждение",
            "Турнир!A5",
            "=Цвет скатерти",
            found.message("ru"),
            found.expected("ru"),
            found.hint("ru"),
        )
    ]
    assert "=Цвет скатерти" in body[0][4] and "Название, Даты" in body[0][5]
    header, body = table(opened(en)["Findings"], "Code")
    assert header[4:] == ["Found", "Expected", "How to fix"]
    assert body[0][1] == "warning" and body[0][4] == found.message("en")
    assert body[0][6] == found.hint("en")


def test_findings_sheet_when_clean():
    ws = opened(results_workbook(make_rating(with_findings=False), "en"))["Findings"]
    assert any(r[0] == "No findings" for r in rows(ws))


def test_summary_holds_k_formula_and_rules(ru):
    summary = {r[0]: r[1:] for r in rows(opened(ru)["Сводка"]) if r[0]}
    assert summary["Засчитано игр, N"][0] == 10
    assert summary["Побед красных"][0] == 7 and summary["Побед чёрных"][0] == 3
    assert summary["Тяжёлая сторона"][0] == "Чёрные"
    assert summary["Побед тяжёлой стороны, n"][0] == 3
    assert summary["K"][0] == pytest.approx(1.4)
    # Russian text takes a decimal comma; the K cell is a number with its own format
    assert summary["Формула"][0] == "K = 1 + (10/2 − 3)/(10/2) = 1,4"
    assert summary["За победу в тяжёлой игре"][0] == "2 × 1,4 = 2,8"
    assert summary["ЛИ"] == (1.5, "задано турниром")
    assert summary["Баллы за победу"] == (2, None)
    assert summary["Итоги"][0] == "Окончательные итоги"
    assert summary["Порядок при равенстве баллов"][0].startswith("сумма баллов → доп. баллы")
    assert summary["1"][0] == "day1.xlsx" and summary["2"][0] == "day2.xlsx"


def test_summary_k_text_has_a_decimal_point_in_english(en):
    summary = {r[0]: r[1:] for r in rows(opened(en)["Summary"]) if r[0]}
    assert summary["Formula"][0] == "K = 1 + (10/2 − 3)/(10/2) = 1.4"
    assert summary["Win points in a heavy game"][0] == "2 × 1.4 = 2.8"


def test_summary_when_k_not_applied(rating):
    book = opened(results_workbook(without_k(rating), "en"))
    summary = {r[0]: r[1:] for r in rows(book["Summary"]) if r[0]}
    assert summary["K applied"][:2] == (
        "no",
        "red and black won equally often: there is no heavy side",
    )
    assert summary["Heavy side"][0] == "none"
    assert "Formula" not in summary
    assert any(r[0] and r[0].startswith("K is not applied") for r in rows(book["Standings"]))


def test_charts_exist_and_read_value_cells(ru):
    names = zipfile.ZipFile(io.BytesIO(ru)).namelist()
    charts = sorted(n for n in names if re.fullmatch(r"xl/charts/chart\d+\.xml", n))
    assert len(charts) == 2
    assert any(n.startswith("xl/drawings/drawing") for n in names)
    book = opened(ru)
    archive = zipfile.ZipFile(io.BytesIO(ru))
    for chart in charts:
        xml = archive.read(chart).decode()
        for ref in re.findall(r"<c:f>([^<]+)</c:f>", xml):
            sheet, cells = ref.split("!")
            assert sheet.strip("'") == "Диаграммы"
            cells = book["Диаграммы"][cells.replace("$", "")]
            assert all(c[0].value is not None for c in cells), ref
    wins = {r[0]: r[1] for r in rows(book["Диаграммы"]) if r[0] in ("Красные", "Чёрные")}
    assert wins == {"Красные": 7, "Чёрные": 3}


def test_no_formulas_anywhere(ru):
    archive = zipfile.ZipFile(io.BytesIO(ru))
    for name in archive.namelist():
        if name.startswith("xl/worksheets/sheet"):
            assert "<f>" not in archive.read(name).decode(), name


# ---- print setup -------------------------------------------------------------------------


def test_print_setup(ru):
    book = opened(ru)
    for ws in book.worksheets:
        assert ws.page_setup.paperSize == 9, ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        # xlsxwriter leaves out fitToWidth="1": it is the OOXML default.
        assert (ws.page_setup.fitToWidth or 1) == 1, ws.title
        assert "Кубок A&&B «Осень»" in ws.oddHeader.left.text, ws.title
        assert ws.oddHeader.right.text == "12–13.10.2024"
        assert ws.oddFooter.center.text == "Страница &P из &N"
    standings = book["Итоги"]
    head = header_index(standings, "Место")
    assert standings.page_setup.orientation == "landscape"
    assert standings.page_setup.fitToHeight == 0
    assert standings.print_title_rows == f"${head}:${head}"
    assert standings.freeze_panes == f"A{head + 1}"
    assert book["Сводка"].page_setup.orientation == "portrait"
    points = book["Баллы"]
    points_head = header_index(points, "Игрок")
    assert points.print_title_rows == f"${points_head}:${points_head}"
    assert points.auto_filter.ref.startswith(f"A{points_head}:")


def test_long_names_fit_excel_header_limit(rating):
    long = replace(
        rating, provisional=True, tournament=Tournament(name="A&B " * 80, dates="&" * 100)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # xlsxwriter warns (and drops) a header over 255
        book = opened(results_workbook(long, "ru"))
    archive = zipfile.ZipFile(io.BytesIO(results_workbook(long, "ru")))
    xml = archive.read("xl/worksheets/sheet1.xml").decode()
    header = re.search(r"<oddHeader>(.*?)</oddHeader>", xml).group(1).replace("&amp;", "&")
    assert len(header) <= 255
    assert book["Итоги"].oddHeader.left.text.startswith("A&&B A&&B")


def test_empty_tournament_still_writes(rating):
    empty = replace(
        rating,
        standings=(),
        removed=(),
        findings=(),
        sources=(),
        lot=LotStatus(needed=False, method="none"),
        k=KSummary(
            applied=False,
            value=F(1),
            heavy_side=None,
            games=0,
            heavy_games=0,
            red_wins=0,
            black_wins=0,
            draws=0,
            annulled=0,
            reason="no_games",
        ),
        games=pd.DataFrame(),
        points=pd.DataFrame(),
    )
    data = results_workbook(empty, "en")
    book = opened(data)
    assert book.sheetnames == SHEETS_EN
    assert table(book["Standings"], "Place")[1] == []
    assert table(book["Points"], "Player")[1] == []
    summary = {r[0]: r[1:] for r in rows(book["Summary"]) if r[0]}
    assert summary["K applied"][:2] == ("no", "no games counted")
    charts = [n for n in zipfile.ZipFile(io.BytesIO(data)).namelist() if "charts/chart" in n]
    assert len(charts) == 1  # no players, no top-players chart


# ---- text safety and blanks --------------------------------------------------------------


def test_formula_like_nicknames_stay_text(ru):
    book = opened(ru)
    for ws in (book["Итоги"], book["Баллы"]):
        cells = [
            c
            for row in ws.iter_rows()
            for c in row
            if c.value in ("=1+1", "@cmd", "-minus", "+plus")
        ]
        assert {c.value for c in cells} == {"=1+1", "@cmd", "-minus", "+plus"}
        assert all(c.data_type == "s" for c in cells)


def test_nan_becomes_blank(ru):
    _, body = table(opened(ru)["Игры"], "Игра")
    line = next(i for i, r in enumerate(body) if r[0] == 4)
    annulled, points = body[line], body[line + 1]  # two lines a game: players, then points
    assert annulled[6] == "да" and all(annulled[9:19]) and points[9:19] == (None,) * 10
    assert next(r for r in body if r[0] == 2)[7:9] == ("да", pytest.approx(1.4))


def test_cell_conversion():
    ids = pd.Series(["1", "012", "A1", 3.0, 2.5, None, "tour/4"], dtype=object)
    assert mixed_cells(ids) == [1, "012", "A1", 3, 2.5, None, "tour/4"]
    numbers = pd.Series([1.5, float("nan"), None, "x"], dtype=object)
    assert number_cells(numbers) == [1.5, None, None, None]


def test_constant_memory_mode_writes_the_same_values(rating, ru, monkeypatch):
    monkeypatch.setattr(xlsx, "STREAMED", False)  # the default streams: force in-memory
    in_memory = results_workbook(rating, "ru")
    assert calamine_sheets(in_memory) == calamine_sheets(ru)


def test_points_continue_past_the_row_limit(rating, monkeypatch):
    monkeypatch.setattr(tables, "MAX_ROWS", 36)  # 30 rows per sheet
    book = calamine_sheets(results_workbook(rating, "ru"))
    parts = ["Баллы", "Баллы (2)", "Баллы (3)"]
    assert [n for n in book if n.startswith("Баллы")] == parts
    players = []
    for name in parts:
        sheet = book[name]
        start = next(i for i, r in enumerate(sheet) if r[0] == "Игрок") + 1
        players += [r[0] for r in sheet[start:] if r[0] != ""]
    assert players == rating.points["player"].tolist()


def test_hundred_thousand_points_rows(rating):
    games, points = frames(10_000, ("a.xlsx", "b.xlsx"))
    big = replace(rating, games=games, points=points)
    points = shown(big)
    start = time.perf_counter()
    data = results_workbook(big, "en")
    seconds = time.perf_counter() - start
    print(f"\n100k points rows: {seconds:.1f} s, {len(data) / 1e6:.1f} MB")
    sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_name("Points")
    values = sheet.to_python()
    header = next(i for i, r in enumerate(values) if r[0] == "Player")
    body = values[header + 1 :]
    assert len(body) == 100_000
    last = points.iloc[-1]
    assert body[-1][:4] == [
        last["player"],
        last["source"],
        float(last["game"]),
        float(last["seat"]),
    ]
    assert body[-1][10] == pytest.approx(last["total"])


# ---- phrases -----------------------------------------------------------------------------


def test_decimal_text_marks_rounding():
    assert decimal_text(F(7, 5)) == ("1.4", True)
    assert decimal_text(F(4, 3)) == ("1.3333", False)
    assert decimal_text(F(1, 8), 2) == ("0.13", False)  # half up
    assert decimal_text(F(2)) == ("2", True)
    assert decimal_text(F(4, 3), lang="ru") == ("1,3333", False)
    assert decimal_text(F(2), lang="ru") == ("2", True)


def test_k_formula_with_odd_n(rating):
    k = replace(rating.k, games=9, heavy_games=3, value=F(4, 3))
    assert k_formula(k) == "K = 1 + (9/2 − 3)/(9/2) ≈ 1.3333"
    assert k_formula(k, "ru") == "K = 1 + (9/2 − 3)/(9/2) ≈ 1,3333"


def test_lot_line_when_no_lot():
    assert lot_line(LotStatus(needed=False, method="none"), "ru") == ""
    assert lot_line(LotStatus(needed=False, method="sheet", groups=(("A", "B"),)), "en") == (
        "Lot: held, order taken from the «Lot» sheet — A, B"
    )
