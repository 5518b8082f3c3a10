"""The child that scanned a file goes on to read its sheets of up to `READ_HERE_BYTES` of XML
while this process imports the pipeline and reads the larger ones: `check` and `rate` say
exactly what they say in series, whichever process read which sheet and however the child
fails — and a file the scan refuses never reaches the reader."""

from __future__ import annotations

import io
import os
import pickle
import threading
import zipfile
from pathlib import Path
from typing import Any

import badfiles
import openpyxl
import pytest
from click.testing import CliRunner, Result
from forking import dies_in_a_child, needs_fork

from mafia_sheets import parallel, pipeline
from mafia_sheets.cli import common
from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.reading import apart, layouts, safety, sheets
from mafia_sheets.reading.grid import Grid
from mafia_sheets.testing.hostile import SHAPES
from mafia_sheets.testing.ods import protocol as ods_protocol
from mafia_sheets.testing.synth import generate

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
LAYOUTS = ["tournament-ru.xlsx", "tournament-blank-ru.xlsx", "tournament-wide-ru.xlsx"]


def invoke(*args: object, serial: bool = False) -> Result:
    env = {parallel.SERIAL_ENV: "1"} if serial else {parallel.SERIAL_ENV: ""}
    safety.forget_scans()
    return CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)


def said(result: Result) -> tuple[int, str, str]:
    return result.exit_code, result.stdout, result.stderr


def parts(path: Path) -> dict[str, bytes]:
    """A results workbook's parts but its creation time."""
    with zipfile.ZipFile(path) as book:
        return {name: book.read(name) for name in book.namelist() if name != "docProps/core.xml"}


@pytest.fixture
def read_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sheets this process read itself (what a child reads is not seen here)."""
    names: list[str] = []
    of = Grid.of.__func__  # type: ignore[attr-defined]

    def recorded(cls: type[Grid], name: str, *args: Any) -> Grid:
        names.append(name)
        return of(cls, name, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(Grid, "of", classmethod(recorded))
    return names


def sheet_sizes(path: Path) -> dict[str, int]:
    """Each sheet's XML bytes, as the scan finds them."""
    scan = safety.inspect_workbook(path.read_bytes(), path.name)
    assert isinstance(scan, safety.WorkbookScan)
    return {sheet.name: scan.archive.entries[sheet.part].size for sheet in scan.sheets}


@needs_fork
@pytest.mark.parametrize("sample", LAYOUTS)
@pytest.mark.parametrize("here", ["none", "the largest", "all"])
def test_whoever_reads_a_sheet_the_outcome_is_the_serial_one(
    sample: str, here: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_here: list[str]
) -> None:
    path, out = SAMPLES / sample, tmp_path / "results.xlsx"
    sizes = sheet_sizes(path)
    limit = {"none": 10**12, "the largest": max(sizes.values()) - 1, "all": -1}[here]
    monkeypatch.setattr(apart, "READ_HERE_BYTES", limit)
    read_here.clear()
    beside = invoke("rate", path, "-o", out)
    assert sorted(read_here) == sorted(name for name, size in sizes.items() if size > limit)
    made = parts(out)
    serial = invoke("rate", path, "-o", out, serial=True)
    assert said(beside) == said(serial) and beside.exit_code == 0
    assert made == parts(out)
    assert said(invoke("check", path, "--json")) == said(
        invoke("check", path, "--json", serial=True)
    )


@needs_fork
def test_a_season_is_read_file_by_file_as_in_series(tmp_path: Path, read_here: list[str]) -> None:
    files = []
    for index, (games, seed) in enumerate([(40, 3), (30, 4)]):
        files.append(tmp_path / f"s{index}.xlsx")
        generate(games, players=24, seed=seed).to_xlsx(str(files[-1]), extras=True)
    beside = invoke("rate", *files, "--json")
    assert read_here == []  # every sheet of both files read by the child
    assert said(beside) == said(invoke("rate", *files, "--json", serial=True))
    assert beside.exit_code == 0


@needs_fork
def test_a_reading_child_that_dies_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, read_here: list[str]
) -> None:
    path = SAMPLES / "tournament-ru.xlsx"
    monkeypatch.setattr(sheets, "read_apart", dies_in_a_child(sheets.read_apart))
    beside = invoke("rate", path, "--json")
    assert sorted(read_here) == sorted(sheet_sizes(path))  # read here, every one
    assert said(beside) == said(invoke("rate", path, "--json", serial=True))


@needs_fork
def test_a_sheet_the_child_cannot_read_is_read_here_in_its_turn(
    monkeypatch: pytest.MonkeyPatch, read_here: list[str]
) -> None:
    parent, judge = os.getpid(), sheets.judge

    def fails_in_the_child(grid: Grid, source: str) -> Any:
        if os.getpid() != parent and grid.name == "Игры":
            raise RuntimeError("not here")
        return judge(grid, source)

    monkeypatch.setattr(sheets, "judge", fails_in_the_child)
    path = SAMPLES / "tournament-ru.xlsx"
    beside = invoke("rate", path, "--json")
    assert read_here == ["Игры"]
    assert said(beside) == said(invoke("rate", path, "--json", serial=True))


@needs_fork
@pytest.mark.parametrize("command", ["rate", "check"])
def test_a_sheet_refused_when_it_is_read_is_refused_as_in_series(
    command: str, tmp_path: Path, read_here: list[str]
) -> None:
    """The child reads the sheet, fails, leaves it: it is refused here, in one line."""
    bad = badfiles.merged_protocol(tmp_path)
    beside, serial = invoke(command, bad), invoke(command, bad, serial=True)
    assert said(beside) == said(serial)
    assert beside.exit_code == 2 and len(beside.stderr.splitlines()) == 1
    assert "A2:A11" in beside.stderr


def with_extra_sheets(folder: Path) -> Path:
    """The sample with a second roster (one purpose, two sheets), a sheet of notes no reader
    claims, an empty one and the template's instructions."""
    book = openpyxl.load_workbook(SAMPLES / "tournament-ru.xlsx")
    roster = book.copy_worksheet(book["Игроки"])
    roster.title = "Players"
    book.create_sheet("Заметки")["C3"] = "кто принесёт карты"
    book.create_sheet("Пусто")
    book.create_sheet("Инструкция")["A1"] = "Как заполнять"
    path = folder / "extra.xlsx"
    book.save(path)
    return path


@needs_fork
@pytest.mark.parametrize("limit", [10**12, -1])
def test_sheets_left_out_are_said_alike_whoever_read_them(
    limit: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(apart, "READ_HERE_BYTES", limit)
    path = with_extra_sheets(tmp_path)
    beside = invoke("check", path, "--json")
    assert said(beside) == said(invoke("check", path, "--json", serial=True))
    assert '"duplicate-sheet"' in beside.stdout and '"unplaced-sheet"' in beside.stdout
    assert "C3" in beside.stdout


REFUSED_XLSX = {
    name: shape for name, shape in SHAPES.items() if shape.refused and shape.suffix == ".xlsx"
}


@pytest.mark.parametrize("name", sorted(REFUSED_XLSX))
def test_a_file_the_scan_refuses_never_reaches_the_reader(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the child does, step by step: the scan refuses the file, and nothing of it is
    handed to python-calamine (which the scan stands before)."""

    def opened(*_: object) -> None:
        raise AssertionError("the reader was handed a file the scan refused")

    monkeypatch.setattr(sheets.CalamineWorkbook, "from_filelike", opened, raising=False)
    source = Source(f"{name}.xlsx", REFUSED_XLSX[name].build(1))
    safety.forget_scans()
    assert list(common._scanned_and_read([source])) == [[None], None]
    sound = Source("t.xlsx", (SAMPLES / "tournament-ru.xlsx").read_bytes())
    with pytest.raises(AssertionError, match="handed"):  # a file it passes is handed on
        list(common._scanned_and_read([sound]))


@needs_fork
@pytest.mark.parametrize("name", ["doctype_entities", "unreached_bomb", "literal_dotdot"])
def test_a_hostile_file_is_refused_in_one_line_as_in_series(
    name: str, tmp_path: Path, read_here: list[str]
) -> None:
    path = tmp_path / f"{name}.xlsx"
    path.write_bytes(SHAPES[name].build(1))
    beside = invoke("rate", path, "--lang", "en")
    assert said(beside) == said(invoke("rate", path, "--lang", "en", serial=True))
    assert beside.exit_code == 2 and len(beside.stderr.splitlines()) == 1
    assert SHAPES[name].words in beside.stderr
    assert read_here == []


def test_the_scans_come_back_without_the_files_bytes() -> None:
    """The child sends its scans less the bytes this process holds (a few kilobytes
    through the pipe, not the file); joined to those bytes again, the reader is handed
    exactly the parts it is handed in series."""
    book = io.BytesIO()
    generate(200, seed=3).to_xlsx(book)
    data = book.getvalue()
    safety.forget_scans()
    sent = next(common._scanned_and_read([Source("t.xlsx", data)]))
    assert len(pickle.dumps(sent)) < len(data) / 10
    (scan,) = pickle.loads(pickle.dumps(sent))
    assert scan.archive.data == b""
    joined = safety.with_bytes(scan, data)
    assert joined.archive.data is data
    safety.forget_scans()
    assert joined.reader_archive() == safety.inspect_workbook(data, "t.xlsx").reader_archive()


def test_the_sheets_apart_are_decided_by_the_scan_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (SAMPLES / "tournament-ru.xlsx").read_bytes()
    scan = safety.inspect_workbook(data, "t.xlsx")
    sizes = sheet_sizes(SAMPLES / "tournament-ru.xlsx")
    assert apart.sheets_apart(scan) == frozenset(sizes)
    monkeypatch.setattr(apart, "READ_HERE_BYTES", sorted(sizes.values())[-2])
    largest = max(sizes, key=sizes.__getitem__)
    assert apart.sheets_apart(scan) == frozenset(sizes) - {largest}
    ods = safety.inspect_workbook(ods_protocol(2), "t.ods")  # every sheet in one part:
    assert apart.sheets_apart(ods) == frozenset()  # none is read apart


def test_what_a_child_reads_comes_back_whole() -> None:
    """Every layout's sheets, as the child sends them: pickled and back, equal."""
    for sample in LAYOUTS:
        data = (SAMPLES / sample).read_bytes()
        scan = safety.inspect_workbook(data, sample)
        read = sheets.read_apart(Source(sample, data), scan)
        assert read is not None and set(read) == set(sheet_sizes(SAMPLES / sample))
        back = pickle.loads(pickle.dumps(read))
        assert {name: _plain(judged) for name, judged in back.items()} == {
            name: _plain(judged) for name, judged in read.items()
        }


def _plain(judged: layouts.Judged) -> tuple[object, ...]:
    """What a judged sheet holds but what its reader found (a reader's own record)."""
    claim = judged.claim[0] if judged.claim is not None else None
    return judged.name, judged.own, claim, judged.empty, judged.first, judged.read


@pytest.fixture
def parsed_ahead(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, apart.Parsed | None]]:
    """What each parse ahead made: the file's first sheet name and what it gave."""
    made: list[tuple[str, apart.Parsed | None]] = []
    parse = sheets.parse_ahead

    def recorded(scan: Any) -> apart.Parsed | None:
        parsed = parse(scan)
        names = [] if parsed is None else list(parsed.sheets)
        made.append((",".join(names), parsed))
        return parsed

    monkeypatch.setattr(sheets, "parse_ahead", recorded)
    return made


@needs_fork
def test_the_sheets_read_here_are_parsed_ahead_once_and_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parsed_ahead: list[Any]
) -> None:
    """Only the first file's sheets that this process reads (not those read apart) are
    parsed ahead, and every one of them is handed to the reader (none is parsed twice)."""
    path, out = SAMPLES / "tournament-ru.xlsx", tmp_path / "results.xlsx"
    sizes = sheet_sizes(path)
    largest = max(sizes, key=sizes.__getitem__)
    monkeypatch.setattr(apart, "READ_HERE_BYTES", max(sizes.values()) - 1)
    second = SAMPLES / "tournament-en.xlsx"
    beside = invoke("rate", path, second, "-o", out)  # a season of two files
    [(names, parsed)] = parsed_ahead
    assert names == largest and parsed is not None and parsed.sheets == {}
    assert said(beside) == said(invoke("rate", path, second, "-o", out, serial=True))


@needs_fork
@pytest.mark.parametrize("fault", ["raises", "nothing", "stops after one"])
def test_a_parse_ahead_that_fails_changes_nothing(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the thread parsing ahead meets, each sheet is read in its turn as in
    series: the same words, the same workbook."""
    path, out = SAMPLES / "tournament-ru.xlsx", tmp_path / "results.xlsx"
    monkeypatch.setattr(apart, "READ_HERE_BYTES", -1)
    parse = sheets.parse_ahead

    def faulty(scan: Any) -> apart.Parsed | None:
        if fault == "raises":
            raise RuntimeError("a bug of the parse ahead")
        parsed = parse(scan)
        if fault == "nothing" or parsed is None:
            return None
        first = next(iter(parsed.sheets))
        return apart.Parsed(parsed.workbook, {first: parsed.sheets[first]})

    monkeypatch.setattr(sheets, "parse_ahead", faulty)
    beside = invoke("rate", path, "-o", out)
    made = parts(out)
    assert said(beside) == said(invoke("rate", path, "-o", out, serial=True))
    assert beside.exit_code == 0 and made == parts(out)


def test_a_workbook_that_will_not_open_is_not_parsed_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    path = SAMPLES / "tournament-ru.xlsx"
    scan = safety.inspect_workbook(path.read_bytes(), "t.xlsx")
    monkeypatch.setattr(apart, "READ_HERE_BYTES", -1)
    parsed = sheets.parse_ahead(scan)
    assert parsed is not None and set(parsed.sheets) == set(sheet_sizes(path))
    monkeypatch.setattr(type(scan), "reader_archive", lambda _: b"not a zip")
    assert sheets.parse_ahead(scan) is None


@needs_fork
def test_the_parsing_thread_is_gone_before_the_checks_fork(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A fork copies no other thread: the one that parsed ahead must have ended by the
    time the checks are forked beside the scoring, or they would run in series."""
    monkeypatch.setattr(apart, "READ_HERE_BYTES", -1)
    monkeypatch.setattr(pipeline, "BESIDE_MIN_SEATS", 0)
    threads: list[int] = []
    fork = pipeline.beside

    def counted(*args: Any) -> Any:
        threads.append(threading.active_count())
        return fork(*args)

    monkeypatch.setattr(pipeline, "beside", counted)
    result = invoke("rate", SAMPLES / "tournament-ru.xlsx", "-o", tmp_path / "r.xlsx")
    assert result.exit_code == 0 and threads == [1]
