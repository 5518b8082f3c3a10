"""The attacker's corpus, second round: the scan reads what the reader reads, in time
linear in the bytes, and what it judged is what the readers are given.

Every shape of `mafia_sheets.testing.hostile` is answered as a sound product answers it
(one-line refusal, or read); the linear shapes are timed at 1×, 4× and 16× and their time
compared within the run; the readers are handed exactly the parts the scan judged.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mafia_sheets.cli.commands import main
from mafia_sheets.errors import ProtocolReadError
from mafia_sheets.reading import safety, xmlscan
from mafia_sheets.reading.archive import Malformed
from mafia_sheets.reading.safety import inspect_workbook
from mafia_sheets.testing import hostile
from mafia_sheets.testing.hostile import LINEAR, SHAPES


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_shape_is_answered_as_a_sound_product_answers(name: str) -> None:
    shape = SHAPES[name]
    data = shape.build(1)
    if not shape.refused:
        inspect_workbook(data, f"{name}{shape.suffix}")
        return
    with pytest.raises(ProtocolReadError) as refused:
        inspect_workbook(data, f"{name}{shape.suffix}")
    for line in (refused.value.en, refused.value.ru):
        assert "\n" not in line and line.startswith(f"{name}{shape.suffix}")
    assert shape.words in refused.value.en


def _scan_time(data: bytes) -> float:
    """The scan alone, best of three (a fresh bytes object: no scan is reused), in this
    process's CPU time: on a loaded machine the wall clock counts the others' work too."""
    best = float("inf")
    for _ in range(3):
        fresh = bytes(bytearray(data))
        started = time.process_time()
        with contextlib.suppress(ProtocolReadError):
            inspect_workbook(fresh, "x.xlsx")
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("name", LINEAR)
def test_scan_time_grows_at_most_linearly(name: str) -> None:
    """Each shape at 1×, 4× and 16× its size: 16 times the bytes may cost at most ~16
    times the time (a quadratic scan would take ~256 times). The floor of each ratio is
    the scan of a plain protocol in the same run, so microseconds of noise do not count."""
    build = SHAPES[name].build
    sizes = {factor: build(factor) for factor in (1, 4, 16)}
    assert len(sizes[16]) > 8 * len(sizes[1])  # the shape really grows
    floor = _scan_time(hostile.protocol())
    times = {factor: _scan_time(data) for factor, data in sizes.items()}
    base = max(times[1], floor)
    assert times[4] <= 4 * 3 * base, times
    assert times[16] <= 16 * 3 * base, times


def test_mismatches_never_reach_the_reader(tmp_path: Path) -> None:
    """Run in another process: had any of them reached python-calamine, it would abort."""
    names = [name for name, shape in SHAPES.items() if shape.family == "mismatch"]
    script = (
        "import sys\n"
        "from mafia_sheets.testing.hostile import SHAPES\n"
        "from mafia_sheets.model import Source\n"
        "from mafia_sheets.pipeline import evaluate\n"
        "from mafia_sheets.errors import ProtocolReadError\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        evaluate([Source(name + '.xlsx', SHAPES[name].build(1))], rate=False)\n"
        "        print(name, 'read')\n"
        "    except ProtocolReadError as error:\n"
        "        print(name, 'refused')\n"
        "print('done')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout.splitlines() == [f"{name} refused" for name in names] + ["done"]


# ---- the readers get what was judged -----------------------------------------------------


def _names(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


def test_the_reader_is_given_exactly_the_parts_it_opens() -> None:
    extra = [
        ("docProps/core.xml", hostile.XML + b"<coreProperties/>"),
        ("xl/media/image1.png", b"\x89PNG" + bytes(64)),
    ]
    parts = hostile.package(extra=extra)
    root = hostile.rels_xml(
        [("rId1", "officeDocument", "xl/workbook.xml"), ("rId2", "metadata", "docProps/core.xml")]
    )
    parts[1] = ("_rels/.rels", root)
    sheet_rels = hostile.rels_xml([("rId1", "image", "../media/image1.png")])
    parts.append(("xl/worksheets/_rels/sheet2.xml.rels", sheet_rels))
    scan = inspect_workbook(hostile.zip_bytes(parts), "x.xlsx")
    assert sorted(_names(scan.reader_archive())) == sorted(
        [
            "[Content_Types].xml",
            "_rels/.rels",
            "xl/workbook.xml",
            "xl/_rels/workbook.xml.rels",
            "xl/worksheets/sheet1.xml",
            "xl/worksheets/sheet2.xml",
        ]
    )
    assert sorted(_names(scan.copy_archive())) == sorted(name for name, _ in parts)


def test_the_rebuilt_archive_reads_exactly_as_the_original(tmp_path: Path) -> None:
    from python_calamine import CalamineWorkbook

    from mafia_sheets.testing.synth import generate

    path = tmp_path / "p.xlsx"
    generate(40, seed=5).to_xlsx(str(path))
    data = path.read_bytes()
    scan = inspect_workbook(data, "p.xlsx")
    original = CalamineWorkbook.from_filelike(io.BytesIO(data))
    rebuilt = CalamineWorkbook.from_filelike(io.BytesIO(scan.reader_archive()))
    assert original.sheet_names == rebuilt.sheet_names
    for name in original.sheet_names:
        assert (
            original.get_sheet_by_name(name).to_python()
            == rebuilt.get_sheet_by_name(name).to_python()
        )
    copy = zipfile.ZipFile(io.BytesIO(scan.copy_archive()))
    source = zipfile.ZipFile(io.BytesIO(data))
    assert {n: copy.read(n) for n in copy.namelist()} == {
        n: source.read(n) for n in source.namelist()
    }


def test_hidden_columns_come_from_the_scan() -> None:
    cols = b'<cols><col min="3" max="4" width="9" hidden="1"/>'
    cols += b'<col min="6" max="6" hidden="true"/></cols>'
    sheet = hostile.seats_sheet().replace(b"<sheetData>", cols + b"<sheetData>")
    parts = hostile.package(
        [
            ("Игры", "worksheets/sheet1.xml", hostile.games_sheet()),
            ("Протокол", "worksheets/sheet2.xml", sheet),
        ]
    )
    scan = inspect_workbook(hostile.zip_bytes(parts), "x.xlsx")
    assert scan.hidden_columns() == {"Игры": frozenset(), "Протокол": frozenset({2, 3, 5})}


# ---- what the copy costs is bounded by bytes as well as cells ------------------------------


def test_a_million_rows_of_empty_strings_get_no_annotated_copy(tmp_path: Path) -> None:
    path = tmp_path / "rows.xlsx"
    path.write_bytes(SHAPES["empty_strings_million_rows"].build(1))
    copy = tmp_path / "copy.xlsx"
    result = CliRunner().invoke(main, ["check", str(path), "--annotate", str(copy), "--lang", "en"])
    assert result.exit_code == 2
    assert "an annotated copy is made for workbooks of up to 500,000 cells" in result.output
    assert not copy.exists()


def test_the_annotated_copy_is_bounded_by_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safety, "MAX_ANNOTATE_BYTES", 1024)
    data = hostile.protocol()
    inspect_workbook(data, "x.xlsx")  # the check itself has no such bound
    with pytest.raises(ProtocolReadError) as refused:
        inspect_workbook(data, "x.xlsx", annotate=True)
    assert "annotated copy is made for workbooks of up to 0 MB unpacked" in refused.value.en
    assert "в распакованном виде" in refused.value.ru


# ---- the XML stream ------------------------------------------------------------------------

_XML = (
    b'<?xml version="1.0" encoding="UTF-8"?><a x="1 > 0"><!-- <c r="XFD1"> -->'
    b"<b>text &amp; more</b><![CDATA[<c r='XFD1'/>]]><?pi stuff?><c r=\"A1\"/></a>"
)


@settings(max_examples=80, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(_XML)), max_size=12))
def test_regions_never_split_a_tag_and_drop_comments_whatever_the_chunks(cuts: list[int]) -> None:
    points = sorted(set(cuts))
    pieces = [_XML[a:b] for a, b in zip([0, *points], [*points, len(_XML)], strict=True)]
    regions = list(xmlscan.regions(iter(pieces), "part.xml", 1024))
    for region in regions:
        last = region.rfind(b"<")
        assert last == -1 or b">" in region[last:]  # no tag cut at a region's end
    assert b"".join(regions) == b'<a x="1 > 0"><b>text &amp; more</b>_<c r="A1"/></a>'


@pytest.mark.parametrize(
    ("xml", "words"),
    [
        (b'<?xml version="1.0" encoding="windows-1251"?><a/>', "not UTF-8"),
        (b"\xff\xfe<\x00a\x00/\x00>\x00", "not UTF-8"),
        (b'<!DOCTYPE a [<!ENTITY x "y">]><a/>', "document type"),
        (b'<a b="<!--"/><c/><d e="-->"/>', "markup inside a tag"),
        (b"<a " + b"x" * 5000 + b">", "a tag longer than"),
        (b"<!-- " + b"x" * 5000 + b" -->", "a tag longer than"),
    ],
)
def test_what_no_spreadsheet_part_holds_is_refused(xml: bytes, words: str) -> None:
    pieces = [xml[at : at + 1000] for at in range(0, len(xml), 1000)]  # a tag carried over
    with pytest.raises(Malformed) as refused:
        for _ in xmlscan.regions(iter(pieces), "part.xml", 2048):
            pass
    assert words in refused.value.why.en


def test_comments_and_the_like_are_counted_across_the_parts_of_a_file() -> None:
    markup = xmlscan.Markup(4)
    for part, chunks in (
        ("one.xml", [b"<a><!----><?p?></a>"]),
        ("two.xml", [b"<a><!--", b"--><![CDATA[x]]></a>"]),  # a comment cut between chunks
    ):
        for _ in xmlscan.regions(iter(chunks), part, 1024, markup):
            pass
    with pytest.raises(Malformed) as refused:
        for _ in xmlscan.regions(iter([b"<a><!----></a>"]), "three.xml", 1024, markup):
            pass
    assert "three.xml holds more than 4 comments, processing instructions" in refused.value.why.en
    assert "в three.xml больше 4 комментариев" in refused.value.why.ru


@pytest.mark.parametrize(
    ("body", "read"),
    [
        (b' r="A1" s=\'2\' x:y="a&amp;b"', {b"r": b"A1", b"s": b"2", b"x:y": b"a&amp;b"}),
        (b' r = "A1" /', {b"r": b"A1"}),
        (b' r="A1" r="B2"', None),  # a name twice: readers differ on which counts
        (b' r="A1"s="2"', None),  # no space between: one reader sees `s`, another not
        (b" r=A1", None),
        (b' r="A1', None),
        (b" " + b"a" * 100_000, None),  # a long name without `=`: one pass, refused
    ],
)
def test_attributes_are_read_strictly(body: bytes, read: dict[bytes, bytes] | None) -> None:
    assert xmlscan.attributes(body) == read


def test_values_are_decoded_as_xml_readers_decode_them() -> None:
    assert xmlscan.text_of(b"A &amp; B &#1050;&#x43e;&lt;") == "A & B Ко<"
    assert xmlscan.text_of(b"A &nbsp; B") is None  # no XML entity: the reader refuses it
    assert xmlscan.text_of(b"A & B") is None
