"""SPEC §5.5: every kind of bad file gets one calm line, in RU and EN, naming the problem."""

from __future__ import annotations

import time
from pathlib import Path

import badfiles
import pytest
import xlsxwriter
from hypothesis import given, settings
from hypothesis import strategies as st

from mafia_sheets.errors import ExitStatus, ProtocolReadError
from mafia_sheets.model import Source
from mafia_sheets.reading import archive, safety, xlsxsheet, xmlscan
from mafia_sheets.reading.protocol import load_protocol
from mafia_sheets.reading.safety import inspect_workbook, load_source

# builder, fragments the English line must hold, fragments the Russian line must hold
BAD_FILES = {
    "legacy_xls": (
        badfiles.legacy_xls,
        [".xls", "save it as an Excel workbook (.xlsx)"],
        ["старого формата (.xls)", "сохраните как книгу Excel (.xlsx)"],
    ),
    "password": (
        badfiles.password_protected,
        ["password-protected", "Remove the password", "File → Info → Protect Workbook"],
        ["защищён паролем", "Снимите пароль", "Файл → Сведения → Защита книги"],
    ),
    "old_office": (
        badfiles.old_word_document,
        ["old-format Office file, not an Excel workbook", "(.xlsx)"],
        ["файл Office старого формата, а не книга Excel", "(.xlsx)"],
    ),
    "xml_2003": (
        badfiles.xml_spreadsheet_2003,
        ["an Excel 2003 XML spreadsheet", "save it as an Excel workbook (.xlsx)"],
        ["таблица Excel 2003 в формате XML", "сохраните как книгу Excel (.xlsx)"],
    ),
    "ods": (  # an .ods is read; one without sheets is a damaged one
        badfiles.ods,
        ["is damaged or incomplete", "content.xml holds no sheets"],
        ["повреждён или неполон", "в content.xml нет листов"],
    ),
    "xlsb": (
        badfiles.xlsb,
        ["binary Excel workbook (.xlsb)", "save it as"],
        ["двоичная книга Excel (.xlsb)", "сохраните как книгу Excel (.xlsx)"],
    ),
    "csv": (
        badfiles.csv_renamed,
        ["looks like a CSV or text file", "renamed", "(.xlsx)"],
        ["похож на CSV или текстовый файл", "переименовали", "(.xlsx)"],
    ),
    "text": (
        badfiles.text_renamed,
        ["looks like a CSV or text file"],
        ["похож на CSV или текстовый файл"],
    ),
    "html": (
        badfiles.html_renamed,
        ["web page (HTML)", "save it as an Excel workbook"],
        ["веб-страница (HTML)", "сохраните как книгу Excel"],
    ),
    "other_non_zip": (
        badfiles.picture_renamed,
        ["not an Excel workbook (.xlsx)"],
        ["не книга Excel (.xlsx)"],
    ),
    "empty": (
        badfiles.empty_file,
        ["is empty (0 bytes)", "save it again"],
        ["пуст (0 байт)", "сохраните заново"],
    ),
    "truncated": (
        badfiles.truncated,
        ["damaged or incomplete", "truncated"],
        ["повреждён или неполон", "обрезан"],
    ),
    "bad_crc": (
        badfiles.bad_crc,
        ["damaged or incomplete", "checksum of xl/worksheets/sheet2.xml does not match"],
        ["повреждён или неполон", "контрольная сумма xl/worksheets/sheet2.xml"],
    ),
    "broken_deflate": (
        badfiles.broken_deflate,
        ["xl/worksheets/sheet2.xml cannot be unpacked"],
        ["xl/worksheets/sheet2.xml не распаковывается"],
    ),
    "zip_not_workbook": (
        badfiles.not_a_workbook,
        ["zip archive, not an Excel workbook", "no xl/workbook.xml"],
        ["zip-архив, а не книга Excel", "нет xl/workbook.xml"],
    ),
    "word": (
        badfiles.word_document,
        ["a Word document, not an Excel workbook"],
        ["документ Word, а не книга Excel"],
    ),
    "bomb_ratio": (
        badfiles.bomb_ratio,
        ["refused as unsafe", "packed", "(limit 100:1)"],
        ["отклонён как опасный", "сжат в", "(предел 100)"],
    ),
    "bomb_total": (
        badfiles.bomb_declared_total,
        ["refused as unsafe", "would unpack to", "(limit 1,024 MB)"],
        ["отклонён как опасный", "распаковывается в", "(предел 1\u00a0024 МБ)"],
    ),
    "bomb_entries": (
        badfiles.bomb_entries,
        ["holds 10,001 parts (limit 10,000)"],
        ["в нём 10\u00a0001 частей (предел 10\u00a0000)"],
    ),
    "lying_header": (
        badfiles.lying_header,
        [
            "refused as unsafe",
            "xl/worksheets/sheet2.xml unpacks to more than its declared 1,000 bytes",
        ],
        ["отклонён как опасный", "больше заявленных 1\u00a0000 байт"],
    ),
    "formulas": (
        badfiles.formulas_without_values,
        [
            "formulas without a saved value in Протокол!E2, Протокол!E3",
            "Open the file in Excel or LibreOffice and save it",
            "paste values",
        ],
        [
            "формулы без сохранённого значения в Протокол!E2, Протокол!E3",
            "сохраните",
            "вставьте значения",
        ],
    ),
    "merged": (
        badfiles.merged_protocol,
        ["sheet Протокол has merged cells A2:A11", "Unmerge"],
        ["на листе «Протокол» объединены ячейки A2:A11", "Отмените объединение"],
    ),
    "hidden": (
        badfiles.hidden_protocol,
        [
            "protocol sheet Игры is hidden",
            "Unhide it or delete it: a judge must see what is counted",
        ],
        ["лист протокола «Игры» скрыт", "Покажите его или удалите"],
    ),
    "very_hidden": (
        badfiles.very_hidden_protocol,
        ["Игры is hidden", "very hidden", "VBA"],
        ["«Игры» скрыт", "очень скрыт", "VBA"],
    ),
}


def _refusal(path: Path) -> ProtocolReadError:
    """The refusal of a file as `check` meets it: the archive checks, then the reader
    (which refuses merges over data rows, knowing where the header is)."""
    with pytest.raises(ProtocolReadError) as caught:
        load_protocol(Source(path.name, path.read_bytes()))
    return caught.value


@pytest.mark.parametrize("kind", BAD_FILES)
def test_bad_file_is_refused_with_one_line_in_both_languages(kind: str, tmp_path: Path) -> None:
    build, english, russian = BAD_FILES[kind]
    path = build(tmp_path)
    error = _refusal(path)
    assert isinstance(error, ValueError)
    assert error.exit_status == ExitStatus.UNUSABLE
    assert str(error) == error.en == error.text("en")
    assert error.text("ru") == error.ru
    for line, fragments in ((error.en, english), (error.ru, russian)):
        assert "\n" not in line
        assert line.startswith(path.name)
        for fragment in fragments:
            assert fragment in line


@pytest.mark.parametrize(
    "build",
    [
        badfiles.valid_openpyxl,
        badfiles.valid_xlsxwriter,
        badfiles.formulas_with_values,
        badfiles.merged_elsewhere,
        badfiles.stored_parts,
    ],
)
def test_sound_workbooks_pass(build: badfiles.Builder, tmp_path: Path) -> None:
    path = build(tmp_path)
    scan = inspect_workbook(path.read_bytes(), path.name)
    assert scan.sheets and all(sheet.scan is not None for sheet in scan.sheets)


def test_formula_count_survives_any_chunking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """500 bare formulas read in 1,000-byte pieces are each counted once."""
    rows = "".join(
        f'<row r="{r}"><c r="E{r}" s="1"><f>B{r}*2</f><v></v></c></row>' for r in range(2, 502)
    )
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(rows))
    whole = _refusal(path)
    monkeypatch.setattr(archive, "_CHUNK_OUT", 1000)
    monkeypatch.setattr(archive, "_CHUNK_IN", 97)
    chunked = _refusal(path)
    assert chunked.en == whole.en
    assert "Протокол!E2, Протокол!E3, Протокол!E4 (and 497 more)" in chunked.en
    assert "Протокол!E2, Протокол!E3, Протокол!E4 (и ещё 497)" in chunked.ru


@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=2_000), max_size=12))
def test_scan_finds_the_same_whatever_the_chunk_boundaries(cuts: list[int]) -> None:
    rows = "".join(
        f'<row r="{r}"><c r="A{r}"><f>1+{r}</f>{"<v>3</v>" if r % 3 else "<v/>"}</c>'
        f'<c r="B{r}" t="s"><v>{r}</v></c></row>'
        for r in range(1, 40)
    )
    merges = '<mergeCells count="2"><mergeCell ref="C1:C9"/><mergeCell ref="D2:E2"/></mergeCells>'
    xml = badfiles.sheet_xml(rows, tail=merges)
    points = sorted({min(cut, len(xml)) for cut in cuts})
    pieces = [xml[a:b] for a, b in zip([0, *points], [*points, len(xml)], strict=True)]
    scan = xlsxsheet.scan_sheet(
        xmlscan.regions(iter(pieces), "sheet.xml", safety.MAX_TAG_BYTES),
        "sheet.xml",
        safety.MAX_CELL_BYTES,
    )
    assert scan.bare_count == 13
    assert scan.bare_cells == ["A3", "A6", "A9"]
    assert scan.merges == ["C1:C9", "D2:E2"]


def test_prefixed_sheet_xml_is_read_too(tmp_path: Path) -> None:
    """Some writers (the .NET Open XML SDK) put every tag under a prefix: `<x:c>`."""
    rows = '<x:row r="4"><x:c r="F4"><x:f>SUM(A1:A3)</x:f></x:c></x:row>'
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(rows, prefix="x"), "Seats")
    assert "formulas without a saved value in Seats!F4." in _refusal(path).en


def test_sheet_part_found_by_relative_target(tmp_path: Path) -> None:
    """Rels targets are relative to xl/ (or absolute from the package's root)."""
    rows = '<row r="2"><c r="B2"><f>1+1</f></c></row>'
    xml = badfiles.sheet_xml(rows)
    path = badfiles.minimal_workbook(tmp_path, xml, "Игры", target="worksheets/data.xml")
    assert "formulas without a saved value in Игры!B2." in _refusal(path).en


@pytest.mark.parametrize("target", ["./Worksheets/DATA.xml", "worksheets/DATA.xml"])
def test_a_target_that_readers_resolve_differently_is_refused(tmp_path: Path, target: str) -> None:
    """python-calamine opens `./…` as written and finds any case, openpyxl neither."""
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(""), "Игры", target=target)
    error = _refusal(path)
    assert "cannot be read safely" in error.en and target in error.en
    assert "не читается безопасно" in error.ru


def test_excel_empty_text_result_is_a_value(tmp_path: Path) -> None:
    """Excel stores `=""` as t="str" with an empty <v>: that is a value, not a bare formula."""
    rows = '<row r="2"><c r="C2" t="str"><f>IF(A2&gt;5,"x","")</f><v></v></c></row>'
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(rows))
    assert inspect_workbook(path.read_bytes(), path.name).sheets[0].scan.bare_count == 0


def test_formulas_on_a_sheet_that_is_no_protocol_sheet_pass(tmp_path: Path) -> None:
    rows = '<row r="2"><c r="C2"><f>1+1</f></c></row>'
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(rows), "Черновик")
    assert inspect_workbook(path.read_bytes(), path.name).sheets[0].scan.bare_count == 1


def test_sheet_names_match_as_the_reader_matches_them(tmp_path: Path) -> None:
    """Case, surrounding spaces and «ё» do not hide a protocol sheet from the checks."""
    rows = '<row r="2"><c r="C2"><f>1+1</f></c></row>'
    path = badfiles.minimal_workbook(tmp_path, badfiles.sheet_xml(rows), " ПРОТОКОЛ ")
    assert "ПРОТОКОЛ !C2" in _refusal(path).en


def test_lying_header_is_stopped_before_inflating_it(tmp_path: Path) -> None:
    path = badfiles.lying_header(tmp_path)
    data = path.read_bytes()
    started = time.perf_counter()
    with pytest.raises(ProtocolReadError, match="more than its declared"):
        inspect_workbook(data, path.name)
    assert time.perf_counter() - started < 0.5  # one chunk, not 32 MB


def test_many_merges_are_summarised(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Игры"
    sheet.append(["Игра", "Результат"])
    for row in range(2, 9):
        sheet.append([row - 1, "Красные"])
        sheet.merge_cells(f"A{row}:B{row}")
    book.save(tmp_path / "merged.xlsx")
    error = _refusal(tmp_path / "merged.xlsx")
    assert "merged cells A2:B2, A3:B3, A4:B4 (and 4 more)" in error.en
    assert "объединены ячейки A2:B2, A3:B3, A4:B4 (и ещё 4)" in error.ru


def test_limits_let_a_real_protocol_through(tmp_path: Path) -> None:
    """A 2,000-game protocol written as Excel would: its ratio is far below the limit."""
    path = tmp_path / "season.xlsx"
    with xlsxwriter.Workbook(path, {"constant_memory": True}) as book:
        sheet = book.add_worksheet("Протокол")
        sheet.write_row(0, 0, ["Игра", "Место", "Игрок", "Роль", "Фолы", "Выбыл", "Когда"])
        for row in range(1, 20_001):
            game, seat = divmod(row - 1, 10)
            sheet.write_row(
                row,
                0,
                [
                    game + 1,
                    seat + 1,
                    f"Игрок {row % 97}",
                    "Мафия" if seat in (7, 8) else "Мирный",
                    row % 3,
                    "убит" if seat == 2 else "",
                    "Н1" if seat == 2 else "",
                ],
            )
    inspect_workbook(path.read_bytes(), path.name)


# ---- load_source ---------------------------------------------------------------------------


def test_load_source_returns_name_and_bytes(tmp_path: Path) -> None:
    path = badfiles.valid_openpyxl(tmp_path)
    assert load_source(path) == Source("valid_openpyxl.xlsx", path.read_bytes())
    assert load_source(str(path)).name == "valid_openpyxl.xlsx"


def _load_refusal(path: Path | str) -> ProtocolReadError:
    with pytest.raises(ProtocolReadError) as caught:
        load_source(path)
    assert "\n" not in caught.value.en and "\n" not in caught.value.ru
    return caught.value


def test_missing_file(tmp_path: Path) -> None:
    error = _load_refusal(tmp_path / "nope.xlsx")
    assert "nope.xlsx: file not found. Check the file name and the folder." in error.en
    assert "nope.xlsx: файл не найден. Проверьте имя файла и папку." in error.ru


def test_missing_folder_on_the_way(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"x")
    assert "file not found" in _load_refusal(tmp_path / "file" / "p.xlsx").en


def test_folder_instead_of_file(tmp_path: Path) -> None:
    error = _load_refusal(tmp_path)
    assert error.en == (
        f"{tmp_path} is a folder, not a file. Give the path of the protocol workbook (.xlsx)."
    )
    assert "это папка, а не файл" in error.ru


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = badfiles.valid_openpyxl(tmp_path)

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(safety.os, "open", denied)  # root reads anything: simulate the denial
    error = _load_refusal(path)
    assert "valid_openpyxl.xlsx cannot be read: no permission" in error.en
    assert "не читается: нет прав доступа" in error.ru


def test_empty_file_on_disk(tmp_path: Path) -> None:
    error = _load_refusal(badfiles.empty_file(tmp_path))
    assert error.en.startswith("empty.xlsx is empty (0 bytes).")
    assert error.ru.startswith("empty.xlsx пуст (0 байт).")


def test_too_large_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safety, "MAX_FILE_BYTES", 3 * 1024**2)
    path = tmp_path / "huge.xlsx"
    path.write_bytes(b"PK" + bytes(5 * 1024**2))
    error = _load_refusal(path)
    assert "huge.xlsx is 5 MB, over the 3 MB limit" in error.en
    assert "huge.xlsx весит 5 МБ, больше предела 3 МБ" in error.ru
    with pytest.raises(ProtocolReadError, match="over the 3 MB limit"):
        inspect_workbook(path.read_bytes(), path.name)  # the web page passes bytes only


@pytest.mark.parametrize("command", ["check", "rate"])
@pytest.mark.parametrize("kind", BAD_FILES)
def test_the_commands_answer_a_bad_file_with_one_line_and_exit_2(
    kind: str, command: str, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main

    path = BAD_FILES[kind][0](tmp_path)
    before = path.read_bytes()
    out = tmp_path / "out.xlsx"
    args = [command, str(path)] + (["-o", str(out)] if command == "rate" else [])
    result = CliRunner().invoke(main, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "Traceback" not in result.output and path.name in lines[0]
    assert not out.exists() and path.read_bytes() == before
