"""The results workbook written on both cores (`engine.write_sheets`): a forked child
writes a balanced group of sheets and sends them back finished, and the workbook is the
same, part by part, as the one written in this process alone (`MAFIA_SHEETS_SERIAL=1`)."""

from __future__ import annotations

import io
import os
import zipfile

import pytest
from forking import needs_fork
from python_calamine import CalamineWorkbook

from mafia_sheets.model import Source
from mafia_sheets.parallel import SERIAL_ENV
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report import engine
from mafia_sheets.report.engine import Book, Chart, Column, Page, Series, Style
from mafia_sheets.report.xlsx import results_workbook
from mafia_sheets.testing.synth import generate


def parts(data: bytes) -> dict[str, bytes]:
    """Every part unpacked (the creation time left out), in the archive's order."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def cells(data: bytes) -> dict[str, list[list]]:
    book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}


@pytest.fixture(scope="module")
def season():
    data = io.BytesIO()
    generate(60, players=16, seed=5).to_xlsx(data)
    rating = evaluate([Source("season.xlsx", data.getvalue())]).rating
    assert rating is not None and rating.stats is not None
    return rating


@pytest.fixture
def watched(monkeypatch):
    """Every `beside` the engine starts, and the parcels it takes from a child."""
    seen: dict[str, list] = {"beside": [], "adopted": []}
    real_beside, real_adopt = engine.beside, engine._adopt

    def spy_beside(*args):
        work = real_beside(*args)
        seen["beside"].append(work.forked)
        return work

    def spy_adopt(book, parcel, tags):
        seen["adopted"].append(len(parcel[1]))  # the sheets' rows
        return real_adopt(book, parcel, tags)

    monkeypatch.setattr(engine, "beside", spy_beside)
    monkeypatch.setattr(engine, "_adopt", spy_adopt)
    monkeypatch.setattr(engine, "APART_AT", 0)  # the test's seasons are small
    return seen


def serially(monkeypatch, make):
    with monkeypatch.context() as patch:
        patch.setenv(SERIAL_ENV, "1")
        return make()


@needs_fork
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_forked_workbook_is_the_serial_one_part_by_part(season, watched, monkeypatch, lang):
    forked = results_workbook(season, lang)
    assert watched["beside"] == [True]
    assert watched["adopted"] and watched["adopted"][0] > 0  # the child's sheets came back
    serial = serially(monkeypatch, lambda: results_workbook(season, lang))
    assert len(watched["adopted"]) == 1  # the serial run took none
    assert parts(forked) == parts(serial)
    assert list(parts(forked)) == list(parts(serial))


def _pid_sheet(name: str, size: int, *, style: Style | None = None):
    """A job writing sheet `name`, whose first cell says which process wrote it."""

    def job(book: Book) -> None:
        sheet = book.sheet(name)
        sheet.text(0, 0, str(os.getpid()), style)
        sheet.table(1, [Column("n", 8, None, None, list(range(5)))])

    return job, size


def _rich_sheet(book: Book) -> None:
    """A sheet of everything a worksheet keeps besides its rows."""
    sheet = book.sheet("rich")
    header = Style(bold=True, border=1)
    gap = Style(border=1, border_color="#BFBFBF")
    sheet.merge((0, 0, 0, 2), "merged", header)
    sheet.width(0, 2, 12)
    sheet.height(1, 30)
    sheet.text(1, 0, "tall", header)
    columns = [Column("a", 8, gap, gap, [1, None, 3] * 50), Column("b", 9, None, gap, ["x"] * 150)]
    sheet.table(2, columns, blanks=False)
    sheet.blank_borders((2, 0, 151, 1), gap)
    sheet.autofilter(2, 0, 151, 1)
    series = Series("a", ("rich", 2, 1, 151, 1), ("rich", 2, 0, 151, 0))
    sheet.chart((1, 4), Chart("line", "a", (series,)), (1.0, 1.0))
    sheet.page(Page(landscape=True, repeat_rows=(1, 1), freeze=(2, 0), breaks=(60, 120)))
    sheet.text(153, 0, "below the table")  # a last row the store writes on closing


def _book(jobs, numbered=()) -> bytes:
    with engine.open_book(streamed=True) as book:
        book.number_styles(numbered, conditional=(Style(border=1, border_color="#BFBFBF"),))
        engine.write_sheets(book, jobs)
        book.first_sheet().activate()
        return book.close()


@needs_fork
def test_the_childs_sheets_come_from_its_process_and_take_their_places(watched):
    jobs = [_pid_sheet("first", 10), _pid_sheet("apart", 1000), _pid_sheet("last", 10)]
    sheets = cells(_book(jobs))
    assert list(sheets) == ["first", "apart", "last"]
    here = str(os.getpid())
    assert sheets["first"][0][0] == here and sheets["last"][0][0] == here
    assert sheets["apart"][0][0] not in ("", here)  # written by the child
    assert sheets["apart"][1:] == sheets["first"][1:]
    assert watched["adopted"]


@needs_fork
def test_a_sheet_of_merges_charts_breaks_and_a_last_row_comes_back_whole(watched, monkeypatch):
    styles = (Style(bold=True, border=1), Style(border=1, border_color="#BFBFBF"))
    jobs = [_pid_sheet("small", 10), (_rich_sheet, 1000)]
    forked = _book(jobs, styles)
    assert watched["adopted"]
    serial = serially(monkeypatch, lambda: _book(jobs, styles))
    mine, theirs = parts(forked), parts(serial)
    assert list(mine) == list(theirs)
    assert mine == theirs
    assert b"<mergeCell " in mine["xl/worksheets/sheet2.xml"]
    assert "xl/charts/chart1.xml" in mine


@needs_fork
def test_a_style_first_numbered_in_the_child_leaves_its_sheets_to_the_parent(watched):
    new = Style(bold=True, font_color="#123456")  # numbered by no one beforehand
    sheets = cells(_book([_pid_sheet("first", 10), _pid_sheet("apart", 1000, style=new)]))
    assert sheets["apart"][0][0] == str(os.getpid())
    assert watched["adopted"] == []
    assert list(sheets) == ["first", "apart"]


def _fails_in_the_child(parent: int):
    def job(book: Book) -> None:
        if os.getpid() != parent:
            raise MemoryError("the child ran out")
        _pid_sheet("apart", 1)[0](book)

    return job, 1000


@needs_fork
def test_a_child_that_fails_leaves_its_sheets_to_the_parent(watched):
    sheets = cells(_book([_pid_sheet("first", 10), _fails_in_the_child(os.getpid())]))
    assert sheets["apart"][0][0] == str(os.getpid())
    assert watched["adopted"] == []


def test_a_small_workbook_is_written_here_without_a_fork(season, monkeypatch):
    started: list[object] = []
    monkeypatch.setattr(engine, "beside", lambda *args: started.append(args))
    results_workbook(season, "ru")  # a few thousand cells: a fork would cost more
    assert started == []


@pytest.mark.parametrize(
    "sizes", [[5, 40, 30, 2, 20], [1_320_000, 1_100_000, 380_000, 66_000, 45_000], [7], [3, 3]]
)
def test_the_groups_differ_by_at_most_one_job(sizes):
    apart = engine.balanced(sizes)
    child = sum(sizes[index] for index in apart)
    assert abs(child - (sum(sizes) - child)) <= max(sizes)
    assert max(range(len(sizes)), key=lambda index: (sizes[index], -index)) in apart
