"""Hostile files and hostile text (issue 9): no file kills the process, every cost is
bounded before a reader runs, text stays text, every refusal is one line, and a killed
run leaves nothing behind.

The commands run in a subprocess wherever an abort of the process must be seen: a Rust
allocation failure ends the interpreter, which an in-process runner would not survive.
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from builders import Proto, names, seat_cell
from click.testing import CliRunner

from mafia_sheets import text
from mafia_sheets.cli.commands import main
from mafia_sheets.errors import ProtocolReadError
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading import safety
from mafia_sheets.reading.safety import inspect_workbook

CLI = [sys.executable, "-m", "mafia_sheets"]


def cli(
    *args: object, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )


def workbook(cells: list[tuple[int, int, object]]) -> bytes:
    buffer = io.BytesIO()
    with xlsxwriter.Workbook(buffer, {"in_memory": True}) as book:
        book.add_worksheet("Игры")
        sheet = book.add_worksheet("Протокол")
        for row, col, value in cells:
            sheet.write(row, col, value)
    return buffer.getvalue()


def rewrite(data: bytes, part: str, edit) -> bytes:
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            body = source.read(info)
            archive.writestr(info.filename, edit(body) if info.filename == part else body)
    return out.getvalue()


SHEET = "xl/worksheets/sheet2.xml"
STRINGS = "xl/sharedStrings.xml"


def corner() -> bytes:  # A1 and XFD1048576: calamine allocated 17 billion cells
    return workbook([(0, 0, "Игра"), (1_048_575, 16_383, "x")])


def row_past_grid() -> bytes:  # a reference in row 4294967295
    return rewrite(
        workbook([(0, 0, "Игра"), (1, 0, "x")]),
        SHEET,
        lambda xml: xml.replace(b'<row r="2"', b'<row r="4294967295"').replace(
            b'r="A2"', b'r="A4294967295"'
        ),
    )


def unique_count_lie() -> bytes:  # uniqueCount="4294967295": calamine reserved it all
    return rewrite(
        workbook([(0, 0, "Игра"), (1, 0, "x")]),
        STRINGS,
        lambda xml: re.sub(rb'uniqueCount="\d+"', b'uniqueCount="4294967295"', xml),
    )


ABORT_TRIGGERS = {
    "corner": corner,
    "row_past_grid": row_past_grid,
    "unique_count": unique_count_lie,
}


def assert_one_line_refusal(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr and "panicked" not in run.stderr
    return lines[0]


# ---- 1. bounded before parsing -----------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "annotate", "rate"])
@pytest.mark.parametrize("trigger", sorted(ABORT_TRIGGERS))
def test_abort_triggers_are_one_line_refusals(tmp_path, trigger, command):
    path = tmp_path / "x.xlsx"
    path.write_bytes(ABORT_TRIGGERS[trigger]())
    before = path.read_bytes()
    args = {
        "check": ["check", path],
        "annotate": ["check", path, "--annotate", "copy.xlsx"],
        "rate": ["rate", path, "-o", "out.xlsx"],
    }[command]
    line = assert_one_line_refusal(cli(*args, "--lang", "en", cwd=tmp_path))
    assert line.startswith("Error: x.xlsx ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.xlsx"]  # nothing written
    assert path.read_bytes() == before


def test_a_reference_past_the_grid_is_named():
    with pytest.raises(ProtocolReadError) as refused:
        inspect_workbook(row_past_grid(), "x.xlsx")
    assert "A4294967295" in refused.value.en and "outside Excel's grid" in refused.value.en


def test_a_declared_range_past_the_grid_is_refused():
    data = rewrite(
        workbook([(0, 0, "Игра"), (1, 0, "x")]),
        SHEET,
        lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFE1048577"', xml),
    )
    with pytest.raises(ProtocolReadError, match="XFE1048577"):
        inspect_workbook(data, "x.xlsx")


def test_a_sparse_grid_is_refused_by_its_span():
    """One cell at GR1048576 made calamine allocate 200 × 1,048,576 cells (8 GB)."""
    with pytest.raises(ProtocolReadError) as refused:
        inspect_workbook(workbook([(0, 0, "Игра"), (1_048_575, 199, "x")]), "x.xlsx")
    assert "spans 1,048,576 × 200 cells" in refused.value.en
    assert f"{safety.MAX_GRID_AREA:,}" in refused.value.en
    assert "1\u00a0048\u00a0576 × 200" in refused.value.ru


def test_a_stray_cell_near_the_table_is_no_bomb():
    inspect_workbook(workbook([(0, 0, "Игра"), (1, 0, 1), (5_000, 25, "заметка")]), "x.xlsx")


def test_sparseness_is_judged_against_the_cells_held(monkeypatch):
    monkeypatch.setattr(safety, "SPARSE_FREE_AREA", 100)
    cells = [(0, 0, "Игра")] + [(row, 0, row) for row in range(1, 20)]
    inspect_workbook(workbook(cells), "x.xlsx")  # 20 × 1: dense
    with pytest.raises(ProtocolReadError, match="16 times the cells held"):
        inspect_workbook(workbook([*cells, (19, 30, "x")]), "x.xlsx")  # 20 × 31, 21 cells


def test_cells_without_references_still_count(monkeypatch):
    """A cell without r="…" takes the next column: many of them stretch the range too."""
    monkeypatch.setattr(safety, "SPARSE_FREE_AREA", 100)
    loose = b"<c/>" * 500
    data = rewrite(
        workbook([(0, 0, "Игра"), (1, 0, "x")]),
        SHEET,
        lambda xml: xml.replace(b"</row></sheetData>", loose + b"</row></sheetData>"),
    )
    inspect_workbook(data, "x.xlsx")  # 501 cells in one row, all held
    rows = b"".join(b"<row>" + b"<c/>" * 2 + b"</row>" for _ in range(300))
    data = rewrite(
        workbook([(0, 0, "Игра"), (1, 0, "x")]),
        SHEET,
        lambda xml: xml.replace(b"</sheetData>", rows + loose + b"</sheetData>"),
    )
    with pytest.raises(ProtocolReadError, match="spans"):
        inspect_workbook(data, "x.xlsx")


def strings_table(count: int, declared: int | None = None) -> bytes:
    data = workbook([(0, 0, "Игра"), (1, 0, "x")])
    declared = count if declared is None else declared

    def table(_: bytes) -> bytes:
        items = b"<si><t>\xd0\x98\xd0\xb3\xd1\x80\xd0\xb0</t></si><si><t>x</t></si>" + b"".join(
            b"<si><t>%d</t></si>" % i for i in range(count - 2)
        )
        return (
            b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.'
            b'openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">'
            % (count, declared)
            + items
            + b"</sst>"
        )

    return rewrite(data, STRINGS, table)


def test_a_string_bomb_is_refused_by_the_count_of_strings(monkeypatch):
    monkeypatch.setattr(safety, "MAX_SHARED_STRINGS", 1_000)
    inspect_workbook(strings_table(1_000), "x.xlsx")
    with pytest.raises(ProtocolReadError) as refused:
        inspect_workbook(strings_table(1_001, declared=2), "x.xlsx")  # lies low: counted
    assert "holds 1,001 texts (limit 1,000)" in refused.value.en


def test_lying_counts_are_refused():
    with pytest.raises(ProtocolReadError, match="declares 50 texts but holds 10"):
        inspect_workbook(strings_table(10, declared=50), "x.xlsx")
    data = rewrite(
        strings_table(10),
        STRINGS,
        lambda xml: xml.replace(b'count="10"', b'count="99999999999"', 1),
    )
    with pytest.raises(ProtocolReadError, match="uses, more than a workbook can hold"):
        inspect_workbook(data, "x.xlsx")
    data = rewrite(
        strings_table(10),
        STRINGS,
        lambda xml: xml.replace(b'uniqueCount="10"', b'uniqueCount="lots"'),
    )
    with pytest.raises(ProtocolReadError, match="absurd number"):
        inspect_workbook(data, "x.xlsx")


def test_the_annotated_copy_has_its_own_cell_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(safety, "MAX_ANNOTATE_CELLS", 50)
    proto = Proto()
    proto.add_game(1, names("A"))
    path = tmp_path / "p.xlsx"
    path.write_bytes(proto.to_bytes())
    result = CliRunner().invoke(
        main, ["check", str(path), "--annotate", str(tmp_path / "copy.xlsx"), "--lang", "en"]
    )
    assert result.exit_code == 2
    assert "annotated copy is made for workbooks of up to 50 cells" in result.output
    assert not (tmp_path / "copy.xlsx").exists()


def test_a_large_real_protocol_passes_the_scan(tmp_path):
    from mafia_sheets.testing.synth import generate

    path = tmp_path / "big.xlsx"
    generate(3_000, seed=2).to_xlsx(str(path))
    inspect_workbook(path.read_bytes(), "big.xlsx")
    inspect_workbook(path.read_bytes(), "big.xlsx", annotate=True)


# ---- 2. text is text ---------------------------------------------------------------------

ESC = "\x1b[31m"


def with_controls(data: bytes) -> bytes:
    """openpyxl refuses control characters: `@ESC@` placeholders become `_x001B_`."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(
                info.filename,
                source.read(info).replace(b"@ESC@", b"_x001B_").replace(b"@NUL@", b"_x0000_"),
            )
    return out.getvalue()


def hostile_protocol(tmp_path: Path, name: str = "p.xlsx", fault: bool = False) -> Path:
    proto = Proto(settings=[("Турнир", "<r>Кубок</r>")])
    players = names("Игрок")
    players[0] = "Кот@ESC@[31m@NUL@"
    players[1] = "<r>Лис</r>"
    proto.add_game(1, players)
    if fault:
        proto.seat(1, 4)["fouls"] = 7
    path = tmp_path / name
    path.write_bytes(with_controls(proto.to_bytes()))
    return path


def texts_of(path: Path) -> set[str]:
    book = openpyxl.load_workbook(path)
    return {
        cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
    }


def test_check_never_echoes_escape_sequences(tmp_path):
    proto = Proto()
    players = names("Игрок")
    players[0] = "Кот@ESC@[31m"
    proto.add_game(1, players)
    proto.seat(1, 1)["fouls"] = "@ESC@]0;pwned@ESC@\\"
    path = tmp_path / "p.xlsx"
    path.write_bytes(with_controls(proto.to_bytes()))
    run = cli("check", path, "--lang", "en", cwd=tmp_path)
    assert run.returncode == 1
    assert "\x1b" not in run.stdout + run.stderr
    assert "\\x1b]0;pwned" in run.stdout


def test_control_characters_reach_the_annotated_copy_visibly(tmp_path):
    name = "p\x07.xlsx"
    path = hostile_protocol(tmp_path, name, fault=True)
    run = cli("check", path, "--annotate", "copy.xlsx", "--lang", "en", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    found = texts_of(tmp_path / "copy.xlsx")
    assert "Check findings: p\\x07.xlsx" in found  # the file name, escaped
    assert any("\\x1b" in value or "_x001B_" in value for value in found)


def test_results_show_control_characters_and_keep_markup_as_text(tmp_path):
    path = hostile_protocol(tmp_path)
    run = cli("rate", path, "-o", "out.xlsx", "--lang", "en", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "\x1b" not in run.stdout + run.stderr
    found = texts_of(tmp_path / "out.xlsx")
    assert "Кот\\x1b[31m\\x00" in found
    assert "<r>Лис</r>" in found
    assert any(re.fullmatch(r"Place \d+ — Кот\\x1b\[31m\\x00", value) for value in found)  # card
    assert any(value.startswith("<r>Кубок</r>") for value in found)  # titles, Summary


@pytest.mark.parametrize("bulk", [True, False])
def test_rich_text_shaped_names_stay_plain(monkeypatch, bulk):
    from dataclasses import replace

    from rating_fixture import make_rating

    from mafia_sheets.report import engine
    from mafia_sheets.report.xlsx import results_workbook

    if not bulk:
        monkeypatch.setattr(engine, "can_stream", lambda *args: False)
    rating = make_rating()
    first = replace(rating.standings[0], player="<r><t>Кот</t></r>")
    data = results_workbook(replace(rating, standings=(first, *rating.standings[1:])), "en")
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert "<r><t>Кот</t></r>" in {c.value for row in book.worksheets[0].iter_rows() for c in row}


def test_a_text_past_the_cell_limit_is_an_error_at_its_cell(tmp_path):
    proto = Proto()
    players = names("Игрок")
    players[2], players[3] = "@LONG1@", "@LONG2@"  # openpyxl would cut them itself
    proto.add_game(1, players)
    data = proto.to_bytes()
    for mark in (b"1", b"2"):
        data = rewrite(
            data,
            SHEET,
            lambda xml, m=mark: xml.replace(b"@LONG" + m + b"@", "К".encode() * 40_000 + m),
        )
    path = tmp_path / "p.xlsx"
    path.write_bytes(data)
    run = cli("check", path, "--lang", "en", cwd=tmp_path)
    assert run.returncode == 1
    for seat in (3, 4):
        cell = seat_cell(proto, 1, seat, "player")
        assert (
            f"{cell} [ERROR text-too-long] The cell's text is longer than Excel's "
            "limit: 40001 characters" in run.stdout
        ), run.stdout[:2000]
    assert "player-twice" not in run.stdout  # never cut into one name
    found = evaluate([Source("p.xlsx", data)], rate=False).findings
    long_texts = sorted(f.cell for f in found if f.code == "text-too-long")
    assert long_texts == sorted(seat_cell(proto, 1, seat, "player") for seat in (3, 4))


def test_zero_width_characters_hide_no_look_alike():
    from builders import check_findings

    proto = Proto()
    players = names("Игрок")
    proto.add_game(1, players)
    proto.add_game(2, [players[0].replace("о", "о\u200b", 1), *players[1:]])
    # no roster decides: one person would be two rows, an error (name-split)
    found = [f for f in check_findings(proto) if f.code == "name-split"]
    assert len(found) == 1
    assert found[0].cell == seat_cell(proto, 2, 1, "player")
    assert found[0].message("en").endswith("only by invisible characters: U+200B")
    assert found[0].message("ru").endswith("только невидимыми символами: U+200B")


def test_text_helpers():
    assert text.terminal("a\nb\x1b[0m\u202e") == "a\\x0ab\\x1b[0m\\u202e"
    assert text.cell("a\tb\x00\x1b") == "a\tb\\x00\\x1b"
    assert text.without_invisible("К\u200bо\u00adт\ufeff") == "Кот"


# ---- 3. one line, always -----------------------------------------------------------------


def test_a_file_name_with_a_newline_is_one_line(tmp_path):
    path = tmp_path / "bad\nname\x1b[2J.xlsx"
    path.write_bytes(corner())
    line = assert_one_line_refusal(cli("check", path.name, "--lang", "en", cwd=tmp_path))
    assert "bad\\x0aname\\x1b[2J.xlsx" in line


def test_a_missing_file_with_a_newline_is_one_line(tmp_path):
    line = assert_one_line_refusal(cli("rate", "no\nsuch.xlsx", "--lang", "en", cwd=tmp_path))
    assert "no\\x0asuch.xlsx" in line


@pytest.mark.parametrize("option", ["-o", "--annotate"])
def test_an_output_that_is_a_folder_is_the_products_message(tmp_path, option):
    proto = Proto()
    proto.add_game(1, names("A"))
    (tmp_path / "p.xlsx").write_bytes(proto.to_bytes())
    (tmp_path / "results").mkdir()
    command = "rate" if option == "-o" else "check"
    line = assert_one_line_refusal(
        cli(command, "p.xlsx", option, "results", "--lang", "en", cwd=tmp_path)
    )
    assert line.startswith("Error: results is a folder. Give a file name")


def test_a_usage_error_is_one_line(tmp_path):
    assert_one_line_refusal(cli("check", "--no-such-option", cwd=tmp_path))


def test_the_output_is_judged_before_anything_is_read(tmp_path, monkeypatch):
    def never(*_: object) -> None:
        raise AssertionError("the protocol was read before the output was judged")

    monkeypatch.setattr(safety, "load_source", never)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.xlsx").write_bytes(b"PK")
    runner = CliRunner()
    for args in (
        ["rate", "big.xlsx", "-o", "out.txt"],
        ["check", "big.xlsx", "--annotate", "copy.txt"],
        ["check", "big.xlsx", "big.xlsx", "--annotate", "copy.xlsx"],
        ["rate", "big.xlsx", "-o", "big.xlsx"],
    ):
        result = runner.invoke(main, [*args, "--lang", "en"])
        assert result.exit_code == 2, (args, result.output)
        assert "AssertionError" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.xlsx"]


def test_our_own_bug_is_an_internal_error_not_save_again(tmp_path, monkeypatch):
    from mafia_sheets.reading import rows as read

    def broken(*_: object) -> None:
        raise KeyError("bug")

    monkeypatch.setattr(read, "read_rows", broken)
    proto = Proto()
    proto.add_game(1, names("A"))
    path = tmp_path / "p.xlsx"
    path.write_bytes(proto.to_bytes())
    with pytest.raises(KeyError):
        CliRunner().invoke(main, ["check", str(path)], catch_exceptions=False)


# ---- 4. nothing left behind --------------------------------------------------------------


def test_killed_runs_leave_nothing_beside_the_target(tmp_path):
    from mafia_sheets.testing.synth import generate

    work, scratch = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    scratch.mkdir()
    generate(1_500, seed=3).to_xlsx(str(work / "p.xlsx"))
    env = {**os.environ, "TMPDIR": str(scratch)}
    started = time.monotonic()
    assert cli("rate", "p.xlsx", "-o", "out.xlsx", cwd=work, env=env).returncode == 0
    whole = time.monotonic() - started
    rng = random.Random(9)
    for _ in range(10):  # kill at random moments, writing included
        process = subprocess.Popen(
            [*CLI, "rate", "p.xlsx", "-o", "out.xlsx"],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3, 1.0) * whole)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert sorted(p.name for p in work.iterdir()) == ["out.xlsx", "p.xlsx"]
    assert cli("rate", "p.xlsx", "-o", "out.xlsx", cwd=work, env=env).returncode == 0
    leftovers = [p for p in scratch.rglob("*") if p.is_file()]
    assert leftovers == []  # the last run removed what the killed ones left
    openpyxl.load_workbook(work / "out.xlsx")  # the results are whole


def test_stale_temporary_files_of_dead_writers_are_removed(tmp_path):
    from mafia_sheets.cli.files import write_atomic

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    stale = tmp_path / f".out.xlsx.{dead}-0123abcd.tmp"
    stale.write_bytes(b"partial")
    other = tmp_path / ".notes.tmp"
    other.write_bytes(b"not ours")
    write_atomic(tmp_path / "out.xlsx", b"data")
    assert not stale.exists() and other.exists()
    assert (tmp_path / "out.xlsx").read_bytes() == b"data"
