"""The blank protocol workbook (`mafia-sheets template`) and the `--players` roster file."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from builders import Proto, names

from mafia_sheets.errors import ProtocolReadError
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.columns import COLUMNS, display_values
from mafia_sheets.reading.settings import shown_value
from mafia_sheets.rules import CHOICE_KEYS, RULE_KEYS, load_rules, presets
from mafia_sheets.template.roster import PlayerRow, read_players_file
from mafia_sheets.template.workbook import INSTRUCTIONS, build_template, written_columns
from mafia_sheets.vocab import FLAG_SETTINGS, QUIET_SETTING, SETTINGS, SHEETS

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
LANGS = ("ru", "en")


def load(data: bytes) -> Any:
    # Not read-only: data validations are only read in the normal mode.
    return openpyxl.load_workbook(io.BytesIO(data))


@pytest.fixture(scope="module")
def books() -> dict[str, Any]:
    return {lang: load(build_template(lang)) for lang in LANGS}


def validations(sheet: Any) -> dict[str, Any]:
    """Validation by the first cell of its range: {'D2': DataValidation}."""
    found = {}
    for validation in sheet.data_validations.dataValidation:
        for cell_range in validation.sqref.ranges:
            found[cell_range.coord.split(":")[0]] = validation
    return found


def list_entries(validation: Any) -> list[str]:
    assert validation.type == "list"
    assert validation.formula1.startswith('"') and validation.formula1.endswith('"')
    return validation.formula1.strip('"').split(",")


def letter(sheet_code: str, column: str) -> str:
    return "ABCDEFGHIJ"[list(COLUMNS[sheet_code]).index(column)]


# ---- sheets and headers ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_sheets_in_order_after_instructions(books: dict[str, Any], lang: str) -> None:
    expected = [INSTRUCTIONS[lang]] + [name(lang) for name in SHEETS.values()]
    assert books[lang].sheetnames == expected
    assert all(sheet.sheet_state == "visible" for sheet in books[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_headers_are_canonical_bold_and_filled(books: dict[str, Any], lang: str) -> None:
    for code, name in SHEETS.items():
        sheet = books[lang][name(lang)]
        headers = [cell.value for cell in sheet[1]]
        canonical = [COLUMNS[code][column](lang) for column in written_columns(code)]
        assert headers[: len(canonical)] == canonical
        # Only the settings sheet has one extra, explanatory column.
        assert len(headers) == len(canonical) + (code == "tournament")
        assert all(cell.font.bold and cell.fill.fgColor.rgb.endswith("DDEBF7") for cell in sheet[1])


@pytest.mark.parametrize("lang", LANGS)
def test_reads_back_as_an_empty_valid_protocol(lang: str) -> None:
    data = build_template(lang)
    frames = pd.read_excel(io.BytesIO(data), sheet_name=None, engine="calamine")
    book = load(data)
    for code, name in SHEETS.items():
        frame = frames[name(lang)]
        assert list(frame.columns)[: len(written_columns(code))] == [
            COLUMNS[code][column](lang) for column in written_columns(code)
        ]
        assert len(frame) == (len(SETTINGS) if code == "tournament" else 0)
        sheet = book[name(lang)]
        assert not sheet.merged_cells.ranges
        assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


@pytest.mark.parametrize("lang", LANGS)
def test_instructions_explain_every_sheet_and_column(books: dict[str, Any], lang: str) -> None:
    sheet = books[lang][INSTRUCTIONS[lang]]
    first_column = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]
    for code, name in SHEETS.items():
        assert name(lang) in first_column
        assert all(column(lang) in first_column for column in COLUMNS[code].values())
    text = " ".join(str(v) for row in sheet.iter_rows(values_only=True) for v in row if v)
    assert ("Пусто = мирный" if lang == "ru" else "Blank = civilian") in text
    assert ", ".join(display_values("left", lang)) in text


# ---- dropdowns ---------------------------------------------------------------------------

VOCAB_COLUMNS = [
    ("seats", "role", "role"),
    ("seats", "left", "left"),
    ("seats", "bonus", "bonus"),
    ("games", "result", "result"),
    ("games", "annulled", "yesno"),
    ("players", "removed", "yesno"),
    ("protests", "decision", "decision"),
    ("protests", "decided_by", "decided_by"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("sheet_code", "column", "vocab"), VOCAB_COLUMNS)
def test_vocabulary_columns_have_dropdowns(
    books: dict[str, Any], lang: str, sheet_code: str, column: str, vocab: str
) -> None:
    sheet = books[lang][SHEETS[sheet_code](lang)]
    col = letter(sheet_code, column)
    validation = validations(sheet)[f"{col}2"]
    assert list_entries(validation) == display_values(vocab, lang)
    last = 20000 if sheet_code == "seats" else 2000
    assert str(validation.sqref) == f"{col}2:{col}{last}"
    # Short forms such as «К» are valid input: the dropdown warns, it does not refuse.
    assert validation.showErrorMessage and validation.errorStyle == "warning"


@pytest.mark.parametrize(
    ("lang", "phases"), [("ru", ("Д1", "Н1", "Д2", "Н12")), ("en", ("D1", "N1", "D2", "N12"))]
)
def test_when_dropdown_lists_phases_to_night_12(
    books: dict[str, Any], lang: str, phases: tuple[str, ...]
) -> None:
    entries = list_entries(validations(books[lang][SHEETS["seats"](lang)])["G2"])
    assert len(entries) == 24
    assert entries[:3] == list(phases[:3]) and entries[-1] == phases[3]


def test_role_dropdown_says_blank_is_civilian(books: dict[str, Any]) -> None:
    validation = validations(books["ru"]["Протокол"])["D2"]
    assert validation.showInputMessage and "Пусто = мирный" in validation.prompt


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("sheet_code", "column", "low", "high"),
    [("seats", "seat", "1", "10"), ("seats", "fouls", "0", "4"), ("protests", "seat", "1", "10")],
)
def test_whole_number_ranges(
    books: dict[str, Any], lang: str, sheet_code: str, column: str, low: str, high: str
) -> None:
    col = letter(sheet_code, column)
    validation = validations(books[lang][SHEETS[sheet_code](lang)])[f"{col}2"]
    # `between` is the default operator of a validation: the file may leave it unsaid
    assert validation.type == "whole" and validation.operator in (None, "between")
    assert (validation.formula1, validation.formula2) == (low, high)
    assert validation.errorStyle in (None, "stop")  # `stop` is the default: may be unsaid


@pytest.mark.parametrize("lang", LANGS)
def test_settings_listed_with_the_rules_named_and_values_blank(
    books: dict[str, Any], lang: str
) -> None:
    """A value typed in a row replaces the chosen rules' own: the template names the rules
    and leaves every value blank, saying the regulation's value in the explanation."""
    sheet = books[lang][SHEETS["tournament"](lang)]
    rows = {row[0]: row[1:] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert list(rows) == [name(lang) for name in SETTINGS.values()]
    rules = load_rules()
    for key, name in SETTINGS.items():
        value, explanation = rows[name(lang)]
        assert explanation
        if key == "edition":
            assert value == rules.edition.name(lang)
        else:
            assert value is None, key
        if key in RULE_KEYS and key != "edition":
            default = shown_value(key, rules.value(key))(lang)
            assert explanation.endswith(f"{default}).")
    flag_validation = next(iter(sheet.data_validations.dataValidation))
    assert list_entries(flag_validation) == display_values("yesno", lang)
    flag_rows = [i for i, key in enumerate(SETTINGS, start=2) if key in FLAG_SETTINGS]
    assert str(flag_validation.sqref) == " ".join(f"B{row}" for row in flag_rows)
    quiet_row = list(SETTINGS).index(QUIET_SETTING) + 2
    quiet = validations(sheet)[f"B{quiet_row}"]
    assert list_entries(quiet) == ["5", "6", display_values("yesno", lang)[1]]
    edition_row = list(SETTINGS).index("edition") + 2
    editions = list_entries(validations(sheet)[f"B{edition_row}"])
    assert editions == [r.edition.name(lang) for r in presets().values()]
    for key in CHOICE_KEYS:
        row = list(SETTINGS).index(key) + 2
        assert list_entries(validations(sheet)[f"B{row}"]) == display_values(key, lang)


def test_every_edition_named_in_the_template_reads_back_as_itself() -> None:
    for lang in LANGS:
        for rules in presets().values():
            proto = Proto(settings=[(SETTINGS["edition"](lang), rules.edition.name(lang))])
            proto.add_game(1, names("E"), "Красные")
            outcome = evaluate([proto.source(lang)])
            assert outcome.rating is not None, [f.code for f in outcome.findings]
            assert outcome.rating.rules.edition.code == rules.edition.code


def test_time_and_text_formats(books: dict[str, Any]) -> None:
    book = books["ru"]
    assert book["Игры"].column_dimensions["F"].number_format == "hh:mm"
    assert book["Протесты"].column_dimensions["C"].number_format == "hh:mm"
    assert book["Протокол"].column_dimensions["H"].number_format == "@"


# ---- layout and print --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_frozen_header_and_print_setup(books: dict[str, Any], lang: str) -> None:
    landscape = {
        INSTRUCTIONS[lang],
        SHEETS["tournament"](lang),
        SHEETS["players"](lang),
        SHEETS["seats"](lang),
        SHEETS["protests"](lang),
    }
    for sheet in books[lang]:
        assert sheet.freeze_panes == "A2"
        setup = sheet.page_setup
        assert setup.paperSize == 9  # A4
        assert setup.orientation == ("landscape" if sheet.title in landscape else "portrait")
        assert (setup.fitToWidth, setup.fitToHeight) == (1, 0)
        assert sheet.sheet_properties.pageSetUpPr.fitToPage
        assert sheet.print_title_rows == "$1:$1"
        assert sheet.oddHeader.center.text == "&A"
        assert "&P" in sheet.oddFooter.center.text and "&N" in sheet.oddFooter.center.text


def test_games_prefill_game_rows_and_ten_seats_each() -> None:
    book = load(build_template("en", games=3))
    games = list(book["Games"].iter_rows(min_row=2, values_only=True))
    assert [row[0] for row in games] == [1, 2, 3]
    seats = [row[:3] for row in book["Seats"].iter_rows(min_row=2, values_only=True)]
    assert seats == [(game, seat, None) for game in (1, 2, 3) for seat in range(1, 11)]
    assert str(validations(book["Seats"])["D2"].sqref) == "D2:D20000"


def test_players_land_in_the_roster() -> None:
    players = [PlayerRow("Кот", "Мафия-Клуб", "Москва"), PlayerRow("Lynx", "", "")]
    book = load(build_template("ru", players=players))
    rows = list(book["Игроки"].iter_rows(min_row=2, values_only=True))
    assert rows == [
        ("Кот", "Мафия-Клуб", "Москва", None, None, None, None),
        ("Lynx", None, None, None, None, None, None),
    ]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        build_template("de")
    with pytest.raises(ValueError, match="negative"):
        build_template("ru", games=-1)


# ---- committed blanks --------------------------------------------------------------------


def snapshot(book: Any) -> dict[str, Any]:
    """Sheet names, every cell value and every data validation: what a judge would see."""
    return {
        sheet.title: (
            [list(row) for row in sheet.iter_rows(values_only=True)],
            sorted(
                (v.type, v.formula1, v.formula2, str(v.sqref))
                for v in sheet.data_validations.dataValidation
            ),
        )
        for sheet in book
    }


@pytest.mark.parametrize("lang", LANGS)
def test_committed_blank_matches_todays_output(books: dict[str, Any], lang: str) -> None:
    committed = openpyxl.load_workbook(TEMPLATES / f"protocol-{lang}.xlsx")
    assert committed.sheetnames == books[lang].sheetnames
    assert snapshot(committed) == snapshot(books[lang])


# ---- players file ------------------------------------------------------------------------


def test_csv_cp1251_semicolons_with_header(tmp_path: Path) -> None:
    path = tmp_path / "игроки.csv"
    text = "Город;Ник;Клуб\r\nМосква; Кот ;Полночь\r\n;;\r\nКазань;Ёж;\r\n"
    path.write_bytes(text.encode("cp1251"))
    assert read_players_file(path) == [
        PlayerRow("Кот", "Полночь", "Москва"),
        PlayerRow("Ёж", "", "Казань"),
    ]


def test_headerless_csv_first_column_is_nickname(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text("Lynx,Red Club,Riga\n\nOwl\n", encoding="utf-8")
    assert read_players_file(path) == [
        PlayerRow("Lynx", "Red Club", "Riga"),
        PlayerRow("Owl", "", ""),
    ]


def test_tab_separated_utf8_bom_english_header(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_bytes("Player\tClub\tCity\nВасилёк\tA\tB\n".encode("utf-8-sig"))
    assert read_players_file(path) == [PlayerRow("Василёк", "A", "B")]


def test_xlsx_prefers_the_players_sheet(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.append(["not", "the", "roster"])
    roster = book.create_sheet("Игроки")
    roster.append(["Игрок", "Клуб", "Город"])
    roster.append(["Кот", "Полночь", "Москва"])
    roster.append([None, None, None])
    roster.append([777, None, "Казань"])
    path = tmp_path / "roster.xlsx"
    book.save(path)
    players = read_players_file(path)
    assert players == [PlayerRow("Кот", "Полночь", "Москва"), PlayerRow("777", "", "Казань")]
    rows = list(
        load(build_template("ru", players=players))["Игроки"].iter_rows(min_row=2, values_only=True)
    )
    assert [row[0] for row in rows] == ["Кот", "777"]


def test_xlsx_without_players_sheet_uses_the_first(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.append(["Owl"])
    book.active.append(["Lynx"])
    path = tmp_path / "list.xlsx"
    book.save(path)
    assert [p.nickname for p in read_players_file(path)] == ["Owl", "Lynx"]


def test_players_from_an_ods(tmp_path: Path) -> None:
    from mafia_sheets.testing.ods import content, package, row, table, text

    roster = table("Игроки", row(text("Игрок"), text("Клуб")), row(text("Сова"), text("Полночь")))
    path = tmp_path / "players.ods"
    path.write_bytes(package(content(roster)))
    assert read_players_file(path) == [PlayerRow("Сова", "Полночь", "")]


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("players.xls", b"whatever", "unsupported format .xls"),
        ("players.ods", b"whatever", "looks like a CSV or text file"),
        ("players.xlsx", b"just text, not a zip", "looks like a CSV or text file"),
        ("players.csv", b"", "has no nicknames"),
        ("players.csv", b"PK\x03\x04\x00\x00binary", "not a text file"),
    ],
)
def test_bad_players_file(tmp_path: Path, name: str, content: bytes, says: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ProtocolReadError, match=says) as caught:
        read_players_file(path)
    assert caught.value.ru != caught.value.en and name in caught.value.ru


def test_missing_players_file(tmp_path: Path) -> None:
    with pytest.raises(ProtocolReadError, match="not found") as caught:
        read_players_file(tmp_path / "nope.csv")
    assert "не найден" in caught.value.ru
