"""The engine's row streamer (report.engine.Rows) against xlsxwriter's own cell writes,
and the points sheet's blank zeros.

Streamed rows — the bulk tables and the player cards alike — must be exactly what
`write_string` / `write_number` / `write_blank` / `set_row` would write: the workbooks are
compared byte for byte, sheet XML and styles alike.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace

import pandas as pd
import pytest
from python_calamine import CalamineWorkbook
from rating_fixture import frames, make_rating, shown

from mafia_sheets import text
from mafia_sheets.report import engine
from mafia_sheets.report.xlsx import results_workbook

TRICKY = (
    "  leading",
    "trailing  ",
    "tab\there",
    "bell\x07",
    "_x0041_ literal",
    "a & b < c > d",
    '"quoted"',
    "emoji 🎲",
    "Ёлка\u00a0Ель",
    "=1+1",
    "",
)


def parts(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    # core.xml holds the creation time, the only part allowed to differ between two runs
    return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def ordinary(rating, lang: str, monkeypatch) -> bytes:
    with monkeypatch.context() as patch:
        patch.setattr(engine, "can_stream", lambda *args: False)
        return results_workbook(rating, lang)


def tricky_rating():
    rating = make_rating()
    games, points = frames(12, ("a.xlsx", "b.xlsx"))
    names = points["player"].to_numpy(dtype=object).copy()
    names[: len(TRICKY)] = TRICKY
    names[len(TRICKY)] = "x" * 40_000  # past Excel's 32,767 characters: cut as xlsxwriter cuts
    points = points.assign(player=names, game=points["game"].astype(object))
    points.loc[3, "game"] = "tour/4"  # a column mixing numbers and text
    points.loc[5, "penalty_u"] = 0  # a zero component
    return replace(rating, games=games, points=points)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_bulk_rows_are_byte_identical_to_cell_writes(monkeypatch, lang):
    rating = make_rating()
    assert parts(results_workbook(rating, lang)) == parts(ordinary(rating, lang, monkeypatch))


def test_bulk_rows_escape_text_as_xlsxwriter_does(monkeypatch):
    rating = tricky_rating()
    bulk = results_workbook(rating, "en")
    assert parts(bulk) == parts(ordinary(rating, "en", monkeypatch))
    sheet = CalamineWorkbook.from_filelike(io.BytesIO(bulk)).get_sheet_by_name("Points")
    players = {row[0] for row in sheet.to_python()}
    # calamine reads the text back as written; a control character shows as its escape
    assert {text.cell(value) for value in TRICKY[:-1]} <= players
    assert "bell\\x07" in players


def test_text_like_rich_markup_stays_text():
    """xlsxwriter would copy `<r>…</r>` into the XML as rich text; a nickname never is."""
    rating = make_rating()
    names = rating.points["player"].to_numpy(dtype=object).copy()
    names[0] = "<r>Кот</r>"
    data = results_workbook(replace(rating, points=rating.points.assign(player=names)), "en")
    sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_name("Points")
    assert "<r>Кот</r>" in {row[0] for row in sheet.to_python()}


def test_points_sheet_leaves_zero_components_blank():
    rating = make_rating()
    points = rating.points.assign(running_total_u=rating.points["total_u"].cumsum())
    points.loc[0, "running_total_u"] = 0
    rating = replace(rating, points=points)
    data = results_workbook(rating, "en")
    values = (
        CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_name("Points").to_python()
    )
    header = next(i for i, row in enumerate(values) if row[0] == "Player")
    assert any("blank points cell is 0" in str(row[0]) for row in values[:header])
    columns = values[header]
    body = pd.DataFrame(values[header + 1 :], columns=columns)
    expected = shown(rating).sort_values(["player", "game", "seat"]).reset_index(drop=True)
    got = body.sort_values(["Player", "Game", "Seat"]).reset_index(drop=True)
    for code, name in (
        ("win_points", "Win points (8.2, 8.5)"),
        ("penalty", "Penalty (8.2.4)"),
        ("best_move", "Best move (8.3)"),
        ("awards", "Awards (8.4)"),
        ("additional", "Additional"),
    ):
        zero = expected[code].eq(0).to_numpy()
        assert zero.any() and (~zero).any(), code
        assert (got.loc[zero, name] == "").all(), code  # calamine reads a blank as ""
        assert got.loc[~zero, name].astype(float).tolist() == pytest.approx(
            expected.loc[~zero, code].tolist()
        ), code
    assert expected["total"].eq(0).any()
    assert got["Total"].astype(float).tolist() == pytest.approx(expected["total"].tolist())
    assert got["Running total"].astype(float).tolist() == pytest.approx(
        expected["running_total"].tolist()
    )  # a running total of 0 is written, not blank


def test_blank_cells_keep_their_border_through_a_conditional_format():
    data = results_workbook(make_rating(), "ru")
    xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet3.xml").decode()
    assert 'type="containsBlanks"' in xml


def fast_path() -> bool:
    with engine.open_book(streamed=True) as book:
        return engine.internals_available(book.sheet("probe").ws)


@pytest.mark.skipif(
    not fast_path(), reason="this xlsxwriter lacks the internals: every row takes the public API"
)
def test_every_table_of_a_workbook_takes_the_streamer(monkeypatch):
    calls: list[tuple[str, int]] = []
    real = engine.Rows.render

    def spy(self, rows, columns, lanes, height=None):
        assert self.fast
        calls.append((self.sheet.name, len(rows)))
        return real(self, rows, columns, lanes, height)

    monkeypatch.setattr(engine.Rows, "render", spy)
    rating = make_rating()
    results_workbook(rating, "ru")
    # standings, removed players, games (two lines each), points, the two chart tables
    assert calls == [
        ("Итоги", 7),
        ("Итоги", 1),
        ("Игры", 16),
        ("Баллы", 80),
        ("Диаграммы", 3),
        ("Диаграммы", 7),
    ]


def test_cards_and_statistics_are_streamed_byte_for_byte(monkeypatch):
    from mafia_sheets.pipeline import evaluate
    from mafia_sheets.testing.synth import generate

    data = io.BytesIO()
    generate(30, players=14, seed=3).to_xlsx(data)
    from mafia_sheets.model import Source

    rating = evaluate([Source("s.xlsx", data.getvalue())]).rating
    assert rating is not None and rating.stats is not None
    assert parts(results_workbook(rating, "ru")) == parts(ordinary(rating, "ru", monkeypatch))


@pytest.mark.parametrize("fast", [True, False])
def test_nan_is_refused_on_both_paths(monkeypatch, fast):
    if not fast:
        monkeypatch.setattr(engine, "can_stream", lambda *args: False)
    with engine.open_book(streamed=True) as book:
        sheet = book.sheet("x")
        sheet.text(0, 0, "header")
        with pytest.raises(TypeError, match="NAN/INF"):
            sheet.table(1, [engine.Column("x", 8, None, None, [1.0, float("nan")])])


def test_missing_internals_switch_the_fast_path_off_loudly(monkeypatch, caplog):
    rating = make_rating()

    def calamine_sheets(data: bytes) -> dict[str, list[list]]:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}

    fast = calamine_sheets(results_workbook(rating, "ru"))
    monkeypatch.setattr(engine, "INTERNALS", (*engine.INTERNALS, "no_such_internal"))
    monkeypatch.setattr(engine, "_WARNED", [])
    with caplog.at_level("WARNING", logger="mafia_sheets.report"):
        slow = calamine_sheets(results_workbook(rating, "ru"))
    assert slow == fast
    said = [r.getMessage() for r in caplog.records if r.name == "mafia_sheets.report"]
    assert len(said) == 1 and "no_such_internal" in said[0] and "cell by cell" in said[0]


# Numbers that share a key (0, 0.0, -0.0, False; 1, 1.0, True), blanks, texts and repeats
# across the batches a stream renders apart: each cell as write_number / write_string
# / write_blank writes it, whichever batch first met its value.
STREAMED_NUMBERS = (
    [0, 1.0, None, "x", -0.0, 2.5, 1, None, 0.0, True, "x", 2.5, False, None],
    [None, None, None, 7.25, None, None, 7.25, None, None, None, 0.0, -0.0, None, None],
    [None] * 14,
    [3.0, 1e20, 1e-7, 0.1, 9.3, -4.5, 1 / 3, 2**53, 3.0, 1e20, -4.5, 0.0, 0.0, 5],
    ["a", "b", "a", None, "", "b", "a", "a", None, "b", "a", "b", "a", "c"],
)


def _number_book(blanks: bool) -> bytes:
    text, number = engine.Style(bold=True), engine.Style(num_format="0.00")
    with engine.open_book(streamed=True) as book:
        sheet = book.sheet("x")
        sheet.text(0, 0, "header")
        columns = [
            engine.Column(str(n), 8, number, text, list(v)) for n, v in enumerate(STREAMED_NUMBERS)
        ]
        sheet.table(1, columns, blanks=blanks)
        sheet.table(20, [engine.Column("z", 8, number, None, [None, -0.0, 0, None])], blanks=blanks)
        return book.close()


@pytest.mark.parametrize("blanks", [True, False])
@pytest.mark.parametrize("batch", [3, 5_000])
def test_streamed_numbers_are_written_as_each_cell_would_be(monkeypatch, blanks, batch):
    monkeypatch.setattr(engine, "ROWS_PER_WRITE", batch)
    fast = parts(_number_book(blanks))
    monkeypatch.setattr(engine, "can_stream", lambda *args: False)
    assert fast == parts(_number_book(blanks))
