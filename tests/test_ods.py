"""`.ods` read wherever `.xlsx` is: LibreOffice's copies of every sample and club workbook
rate exactly like their .xlsx twins, findings point at the .ods's own cells, the
annotated copy is an .xlsx that says so, and hostile .ods files are refused in one line,
in time linear in their size and within the memory an .xlsx is allowed."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from club_blanks import BLANKS
from layout_books import club_rows, russian_paper, ukrainian_club

from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.testing.ods import (
    GAMES,
    cell,
    content,
    hostile,
    package,
    protocol,
    row,
    table,
    text,
)
from mafia_sheets.testing.synth import generate

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.xlsx"))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def convert(soffice: str, books: dict[str, bytes], folder: Path) -> dict[str, bytes]:
    """LibreOffice's own .ods of each workbook, as a club saving it would get (one run,
    its own profile, so that another LibreOffice on the machine does not interfere)."""
    source, out = folder / "xlsx", folder / "ods"
    source.mkdir()
    for name, data in books.items():
        (source / f"{name}.xlsx").write_bytes(data)
    profile = (folder / "profile").as_uri()
    subprocess.run(
        [soffice, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "ods",
         "--outdir", str(out), *sorted(str(p) for p in source.glob("*.xlsx"))],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return {name: (out / f"{name}.ods").read_bytes() for name in books}


def synthetic(games: int, seed: int) -> bytes:
    buffer = io.BytesIO()
    generate(games, seed=seed).to_xlsx(buffer)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def twins(soffice: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[bytes, bytes]]:
    from builders import Proto, names

    proto = Proto()
    for game, result in enumerate(["Красные", "Чёрные", "Красные", "Красные"], start=1):
        proto.add_game(game, names(f"P{game % 2}-", 10), result, table=1 + game % 2)
    tables = {1: 1, 2: 2, 3: 1, 4: 2}
    books = {path.stem: path.read_bytes() for path in SAMPLES}
    books |= {
        "club-ukrainian": ukrainian_club(proto, tables),
        "club-paper": russian_paper(proto, tables),
        "club-rows": club_rows(proto, tables),
        "synthetic-300": synthetic(300, seed=3),
        **{f"blank-{name}": build() for name, build in BLANKS.items()},  # clubs' paper forms
    }
    ods = convert(soffice, books, tmp_path_factory.mktemp("ods"))
    return {name: (books[name], ods[name]) for name in books}


def rated(data: bytes, name: str) -> dict:
    from mafia_sheets.report.json import outcome_json

    return outcome_json(evaluate([Source(name, data)]), "en")


def same(xlsx: dict, ods: dict) -> None:
    assert ods["standings"] == xlsx["standings"]
    assert ods["k"] == xlsx["k"] and ods["removed"] == xlsx["removed"]
    assert ods["stats"] == xlsx["stats"]
    placed = [(f["code"], f["sheet"], f["cell"]) for f in xlsx["findings"]]
    assert [(f["code"], f["sheet"], f["cell"]) for f in ods["findings"]] == placed


def test_every_twin_rates_like_its_xlsx(twins: dict[str, tuple[bytes, bytes]]) -> None:
    assert len(twins) == len(SAMPLES) + 4 + len(BLANKS)
    for name, (xlsx, ods) in twins.items():
        assert ods.startswith(b"PK") and b"opendocument.spreadsheet" in ods[:100], name
        ours, theirs = rated(xlsx, f"{name}.xlsx"), rated(ods, f"{name}.ods")
        assert ours["standings"], name
        same(ours, theirs)
        layouts = {(r["layout"], r["games"]) for r in ours["read"]}
        assert {(r["layout"], r["games"]) for r in theirs["read"]} == layouts, name


def test_findings_point_at_the_ods_cells(
    twins: dict[str, tuple[bytes, bytes]], soffice: str, tmp_path: Path
) -> None:
    """A typo in the sample, saved by LibreOffice: the same finding at the same cell."""
    book = openpyxl.load_workbook(io.BytesIO(twins["tournament-ru"][0]))
    book["Протокол"]["D5"] = "Президент"
    book["Протокол"]["E9"] = 7
    buffer = io.BytesIO()
    book.save(buffer)
    (ods,) = convert(soffice, {"typo": buffer.getvalue()}, tmp_path).values()
    xlsx_found = evaluate([Source("typo.xlsx", buffer.getvalue())], rate=False).findings
    ods_found = evaluate([Source("typo.ods", ods)], rate=False).findings
    cells = {(f.code, f.sheet, f.cell) for f in ods_found}
    assert {(f.code, f.sheet, f.cell) for f in xlsx_found} == cells
    assert ("unknown-value", "Протокол", "D5") in cells and (
        "bad-number",
        "Протокол",
        "E9",
    ) in cells


def test_check_and_rate_on_the_command_line(
    twins: dict[str, tuple[bytes, bytes]], tmp_path: Path
) -> None:
    path = tmp_path / "cup.ods"
    path.write_bytes(twins["tournament-ru"][1])
    code, output = run("check", str(path))
    assert code == 0 and "cup.ods: прочитано: строка на место, 20 игр" in output
    code, output = run("rate", str(path))
    assert code == 0 and (tmp_path / "cup-итоги.xlsx").exists(), output
    code, output = run("rate", str(path), "--json")
    assert (
        json.loads(output)["standings"] == rated(twins["tournament-ru"][0], "x.xlsx")["standings"]
    )


def test_annotate_an_ods_writes_an_xlsx_copy_and_says_so(tmp_path: Path) -> None:
    data = protocol(2, typo="Президент")
    source = tmp_path / "night.ods"
    source.write_bytes(data)
    out = tmp_path / "night-замечания.xlsx"
    result = CliRunner().invoke(main, ["check", str(source), "--annotate", str(out)])
    assert result.exit_code == 1
    assert (
        f"Копия с пометками: {out} — книга Excel (.xlsx) со значениями листов .ods" in result.output
    )
    copy = openpyxl.load_workbook(out)
    finding = next(
        f
        for f in evaluate([Source("night.ods", data)], rate=False).findings
        if f.code == "unknown-value"
    )
    marked = copy[finding.sheet][finding.cell]
    assert marked.value == "Президент" and marked.comment is not None
    assert copy["Протокол"]["C2"].value == "G1-1"
    assert source.read_bytes() == data  # the input is never touched


def test_a_season_folder_of_ods_and_xlsx(tmp_path: Path) -> None:
    (tmp_path / "night1.ods").write_bytes(protocol(2))
    sample = (ROOT / "samples" / "tournament-ru.xlsx").read_bytes()
    (tmp_path / "night2.xlsx").write_bytes(sample)
    code, output = run("rate", str(tmp_path), "--json")
    assert code == 0, output
    read = {r["file"] for r in json.loads(output)["read"]}
    assert read == {"night1.ods", "night2.xlsx"}


def test_one_workbook_in_both_formats_is_refused_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "night.ods").write_bytes(protocol(1))
    (tmp_path / "night.xlsx").write_bytes((ROOT / "samples" / "tournament-ru.xlsx").read_bytes())
    code, output = run("rate", str(tmp_path))
    assert code == 2 and output.count("\n") == 1
    assert "одна книга в двух форматах: night.ods, night.xlsx" in output


def test_hidden_protocol_sheet_and_formulas_without_values_are_refused(tmp_path: Path) -> None:
    styles = (
        '<style:style style:name="ta2" style:family="table"><style:table-properties '
        'table:display="false"/></style:style>'
    )
    hidden = package(
        content(table("Игры", row(text("Игра"), text("Результат")), style="ta2"), styles=styles)
    )
    bare = package(
        content(
            table(
                "Игры",
                row(text("Игра"), text("Результат")),
                row('<table:table-cell table:formula="of:=1+1"/>', text("Красные")),
            )
        )
    )
    for name, data, words in (
        ("hidden.ods", hidden, "лист протокола «Игры» скрыт"),
        ("bare.ods", bare, "формулы без сохранённого значения в Игры!A2"),
    ):
        path = tmp_path / name
        path.write_bytes(data)
        code, output = run("check", str(path))
        assert code == 2 and output.count("\n") == 1 and words in output, output


def test_ods_hidden_columns_and_merges_are_read_as_in_xlsx() -> None:
    columns = (
        '<table:table-column/><table:table-column table:visibility="collapse"/>'
        '<table:table-column table:number-columns-repeated="3"/>'
    )
    games = table(
        "Игры",
        row(text("Игра"), text("Помощь"), text("Результат")),
        row(text("1"), text("x"), text("Красные")),
        columns=columns,
    )
    data = package(content(games))
    outcome = evaluate([Source("cols.ods", data)], rate=False)
    headers = {(h.cell, h.status) for h in outcome.headers if h.sheet == "Игры"}
    assert ("B1", "hidden") in headers


def test_xls_stays_refused(tmp_path: Path) -> None:
    legacy = tmp_path / "old.xls"
    legacy.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4096)
    code, output = run("check", str(legacy))
    assert code == 2 and output.count("\n") == 1


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("odt", "документ OpenDocument"),
        ("encrypted", "защищён паролем"),
        ("flat", "плоская таблица OpenDocument"),
    ],
)
def test_other_opendocument_files_are_named(tmp_path: Path, kind: str, words: str) -> None:
    if kind == "odt":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("mimetype", b"application/vnd.oasis.opendocument.text")
            archive.writestr("content.xml", b"<x/>")
        data = buffer.getvalue()
    elif kind == "encrypted":
        manifest = (
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:'
            'names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path='
            '"content.xml" manifest:media-type="text/xml"><manifest:encryption-data '
            'manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>'
        )
        data = package(b"\x89garbled\x00bytes", manifest=manifest)
    else:
        data = content(GAMES).replace(b"<office:document-content", b"<office:document")
    path = tmp_path / "f.ods"
    path.write_bytes(data)
    code, output = run("check", str(path))
    assert code == 2 and output.count("\n") == 1 and words in output, output


# ---- hostile .ods ------------------------------------------------------------------------------

# each refused by the scan, before the reader: what the line says
HOSTILE = {
    "repeated-cells": "повторённые ячейки",
    "repeated-rows": "за пределами листа",
    "spaces": "повтором пробела",
    "entities": "объявление типа документа",
    "dtd": "объявление типа документа",
    "copied-text": "повторённые ячейки копируют",
    "long-tag": "тег длиннее",
    "huge-content": "сжат в",
    "comment-flood": "больше 100 000 комментариев",
    "declared-bomb": "распаковывается в 3\u00a0815 МБ (предел 1\u00a0024 МБ)",
    "nested-tables": "за пределами листа",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_ods_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.ods"
    path.write_bytes(hostile()[name])
    for args in (
        ["check", str(path)],
        ["rate", str(path)],
        ["check", str(path), "--annotate", str(tmp_path / "a.xlsx")],
    ):
        code, output = run(*args)
        assert code == 2 and output.count("\n") == 1, output
        assert (HOSTILE[name] in output and "отклонён" in output) or "не читается" in output, output
    assert not (tmp_path / "a.xlsx").exists()


@pytest.mark.parametrize("name", ["deep-spans", "deep-styles"])
def test_nesting_a_hundred_thousand_deep_is_read_as_harmless(name: str) -> None:
    """Spans in a cell or styles nested 100,000 deep: the walk keeps no stack, the cell's
    text is read, and the sheet is judged as any other (its games lack their seats)."""
    outcome = evaluate([Source(f"{name}.ods", hostile()[name])], rate=False)
    assert outcome.findings


def test_a_far_cell_alone_is_harmless_and_read() -> None:
    """A cell past a million empty rows, alone on its sheet, costs the reader one cell."""
    outcome = evaluate([Source("far.ods", hostile()["far-cell"])], rate=False)
    assert outcome.findings  # read: the sheet is not a protocol, the games are missing seats


def test_hostile_ods_cannot_exhaust_memory_or_abort(tmp_path: Path) -> None:
    """The CLI under the page's 3 GB bound: every shape ends with exit 2, never an abort."""
    limit = 3 * 1024**3
    for name, data in hostile().items():
        path = tmp_path / f"{name}.ods"
        path.write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "mafia_sheets", "check", str(path)],
            capture_output=True, text=True, timeout=120,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
            env={**os.environ, "MAFIA_SHEETS_LANG": "en"},
        )  # fmt: skip
        assert "Traceback" not in done.stderr and "panicked" not in done.stderr, name
        if name in HOSTILE:
            assert done.returncode == 2 and done.stderr.count("\n") == 1, (name, done.stderr)
        else:  # read, as harmless: findings, never an abort
            assert done.returncode == 1, (name, done.stderr)


def _scan_seconds(data: bytes) -> float:
    from mafia_sheets.reading.safety import inspect_workbook

    start = time.process_time()
    with contextlib.suppress(Exception):  # refused or not: the time is what is measured
        inspect_workbook(data, "x.ods")
    return time.process_time() - start


@pytest.mark.parametrize("shape", ["rows", "repeats", "spaces", "merges"])
def test_the_scan_is_linear_in_the_content(shape: str) -> None:
    """Each shape at 1×, 4× and 16× its size: the scan's time grows at most linearly (a
    ratio in one run; the bytes are not compressible, so no archive bound stops them)."""
    import random

    def body(size: int) -> bytes:
        rng = random.Random(size)
        cells = {
            "rows": lambda i: row(text(rng.getrandbits(64))),
            "repeats": lambda i: row(
                cell(str(rng.getrandbits(64)), ' table:number-columns-repeated="2"')
            ),
            "spaces": lambda i: row(cell(f'{rng.getrandbits(64)}<text:s text:c="3"/>')),
            "merges": lambda i: row(
                cell(str(rng.getrandbits(64)), ' table:number-columns-spanned="2"'),
                "<table:covered-table-cell/>",
            ),
        }[shape]
        return package(content(table("Протокол", *(cells(i) for i in range(size)))))

    sizes = (4_000, 16_000, 64_000)
    times = [min(_scan_seconds(body(size)) for _ in range(2)) for size in sizes]
    assert times[2] / max(times[0], 1e-3) < 16 * 3, times


def test_cells_keep_their_addresses_after_empty_rows_and_columns() -> None:
    """The reader trims the empty rows and columns before the first cell: the findings
    still name the .ods's own cells."""
    from mafia_sheets.testing.ods import ROLES, number, text

    empty = "<table:table-cell/>"
    games = table(
        "Игры",
        row(empty, repeat=2),
        row(empty, text("Игра"), text("Результат")),
        row(empty, number(1), text("Синие")),
    )
    seats = [row(empty, *map(text, ("Игра", "Место", "Игрок", "Роль")), repeat=1)]
    seats += [
        row(empty, number(1), number(n), text(f"P{n}"), text(ROLES[n - 1] or "Мирный"))
        for n in range(1, 11)
    ]
    found = evaluate([Source("far.ods", package(content(games, table("Протокол", *seats))))])
    cells = {(f.code, f.sheet, f.cell) for f in found.findings}
    assert ("unknown-value", "Игры", "C4") in cells
