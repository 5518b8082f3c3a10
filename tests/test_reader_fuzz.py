"""Fuzzing the reader: any workbook shape and cell value gives findings or one
MafiaSheetsError (exit 2) — never a traceback. The annotated copy of whatever could be
read opens again."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any

import openpyxl
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from mafia_sheets import vocab
from mafia_sheets.errors import MafiaSheetsError
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading import columns as schema
from mafia_sheets.report.annotate import annotate_workbook

FORMULA_LIKE = ["=1+1", "=SUM(A1:A3)", "+7", "-Лис", "@Сова", "=", "=Кот", "#REF!"]


# openpyxl refuses control characters in a cell, though xlsx carries them as `_x001B_`:
# each is written as a placeholder and turned into that escape in the saved XML, so the
# reader meets the very characters that used to break things, not a cleaned text.
_MARK_OPEN, _MARK_CLOSE = "\uf8ff", "\uf8fe"
_MARKED = re.compile(_MARK_OPEN.encode() + rb"([0-9A-F]{2})" + _MARK_CLOSE.encode())


def _legal(text: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub(
        lambda found: f"{_MARK_OPEN}{ord(found.group()):02X}{_MARK_CLOSE}", text
    )


def _unmark(data: bytes) -> bytes:
    """The saved workbook with every placeholder turned into its `_xHHHH_` escape."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(info.filename, _MARKED.sub(rb"_x00\1_", source.read(info)))
    return out.getvalue()


texts = st.text(max_size=40).map(_legal)
long_texts = st.text(alphabet="кКKот ёЁ=+-@0123456789\u200b🙂", min_size=300, max_size=3000).map(
    _legal
)
numbers = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0, 1, 0.5, 4, 5, 10, 11, -1, 2.5, 1e300]),
)
moments = st.one_of(
    st.datetimes(min_value=dt.datetime(1900, 3, 1), max_value=dt.datetime(2100, 1, 1)),
    st.dates(min_value=dt.date(1900, 3, 1), max_value=dt.date(2100, 1, 1)),
    st.times(),
)
words = st.sampled_from(
    [
        spelling
        for table in vocab.VALUES.values()
        for spellings in table.values()
        for spelling in spellings
    ]
    + [
        "Д1",
        "Н1",
        "Д2",
        "N3",
        "d 4",
        "Ночь 2",
        "3 5 7",
        "3,5,7",
        "1;2",
        "99",
        "21:45",
        "01.12.2026 21:45",
        "да",
        "нет",
        "",
        " ",
        "1",
        "10",
    ]
)
values = st.one_of(
    st.none(),
    texts,
    numbers,
    moments,
    st.booleans(),
    words,
    words,
    words,
    st.sampled_from(FORMULA_LIKE),
    long_texts,
)


def _variant(name: str) -> st.SearchStrategy[str]:
    """A header or sheet name as a judge might type it: other case, spaces, ё/е."""
    return st.sampled_from([name, name.upper(), f"  {name} ", name.replace("е", "ё")])


@st.composite
def sheets(draw: Any) -> tuple[str, list[list[Any]]]:
    code = draw(st.sampled_from([*vocab.SHEETS, "other"]))
    if code == "other":
        title = draw(texts.filter(lambda t: 0 < len(t.strip()) <= 31))
        columns = draw(st.lists(texts, max_size=6))
    else:
        lang = draw(st.sampled_from(vocab.LANGS))
        title = draw(_variant(vocab.SHEETS[code](lang)))
        known = [
            draw(_variant(name(draw(st.sampled_from(vocab.LANGS)))))
            for name in schema.COLUMNS[code].values()
        ]
        columns = draw(st.lists(st.sampled_from(known) | texts, max_size=12))
        columns = draw(st.permutations(known)) if draw(st.booleans()) else columns
    blank_top = draw(st.integers(0, 3))
    rows = draw(st.lists(st.lists(values, max_size=len(columns) + 2), max_size=25))
    return title, [[None]] * blank_top + [list(columns)] + rows


# Plausible values per column, so that random protocols reach the game checks too.
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "game": st.sampled_from([1, 2, 3, "1", "A"]),
    "seat": st.integers(0, 11),
    "player": st.sampled_from(
        [
            "Кот",
            "Kот",
            "кот",
            "Лис",
            "Сова",
            "=Кот",
            "+7",
            "Ёжик",
            "Ежик",
            *(f"И{i}" for i in range(12)),
        ]
    ),
    "role": st.sampled_from(["", "", "", "Мафия", "Дон", "Шериф", "M", "к", "Мирный"]),
    "fouls": st.sampled_from(["", 0, 1, 2, 3, 4, 5, "три"]),
    "left": st.sampled_from(["", "", "убит", "заголосован", "4 фола", "дисквалифицирован"]),
    "when": st.sampled_from(["", "", "Д1", "Н1", "Д2", "Н2", "Д3", "Н3", "D4", "N9"]),
    "best_move": st.sampled_from(["", "", "3 7 9", "1 2", "3,3,7", "11 2 4", "1 2 3 4"]),
    "bonus": st.sampled_from(["", "", "ЛИ", "ЛИ2", "ЛИП", 1, 0.5, 2]),
    "result": st.sampled_from(["Красные", "Чёрные", "Ничья", "", "победа"]),
    "ended": st.one_of(st.times(), st.sampled_from(["", "23:55", "25:00"])),
    "annulled": st.sampled_from(["", "да", "нет", "может"]),
    "filed": st.one_of(st.times(), st.sampled_from(["", "00:03"])),
    "decision": st.sampled_from(["", "на рассмотрении", "отклонён", "удовлетворён"]),
}


@st.composite
def protocols(draw: Any) -> list[tuple[str, list[list[Any]]]]:
    """«Игры» and «Протокол» (and maybe «Протесты») with every column, plausible values."""
    lang = draw(st.sampled_from(vocab.LANGS))
    shape = []
    for code, count in (("games", 4), ("seats", 32), ("protests", 3)):
        columns = list(schema.COLUMNS[code])
        rows = [
            [
                draw(PLAUSIBLE.get(c, values) | values)
                if draw(st.integers(0, 9)) == 0
                else draw(PLAUSIBLE.get(c, values))
                for c in columns
            ]
            for _ in range(draw(st.integers(0, count)))
        ]
        shape.append(
            (vocab.SHEETS[code](lang), [[schema.COLUMNS[code][c](lang) for c in columns], *rows])
        )
    return shape


ROLES = ["", "", "Мафия", "", "Шериф", "", "Дон", "", "Мафия", ""]


@st.composite
def sound_games(draw: Any) -> list[tuple[str, list[list[Any]]]]:
    """Games with seats 1–10 and the right roles, random departures, fouls and awards:
    these reach every regulation check and the rating."""
    games, seats = [["Игра", "Результат", "Окончание"]], [list(schema.COLUMNS["seats"])]
    seats[0] = [schema.COLUMNS["seats"][c].ru for c in seats[0]]
    for game in range(1, draw(st.integers(1, 4)) + 1):
        games.append([game, draw(PLAUSIBLE["result"]), draw(PLAUSIBLE["ended"])])
        for seat in range(1, 11):
            left = draw(PLAUSIBLE["left"])
            when = draw(st.sampled_from(["Д1", "Н1", "Д2", "Н2", "Д3", "Н3", "Д4"])) if left else ""
            seats.append(
                [
                    game,
                    seat,
                    f"И{draw(st.integers(1, 14))}",
                    ROLES[seat - 1],
                    draw(st.sampled_from(["", 0, 1, 2, 3, 4])),
                    left,
                    when,
                    draw(PLAUSIBLE["best_move"]),
                    draw(PLAUSIBLE["bonus"]),
                ]
            )
    return [("Игры", games), ("Протокол", seats)]


_SHEET_TITLE = re.compile(r"[\[\]\*\?/\\:]")


# Where a table may start and where a stray cell may sit: readers size their grid from the
# range the cells span, so cells far from A1 (up to Excel's last cell) are fuzzed too.
OFFSETS = st.sampled_from([(0, 0), (0, 0), (3, 2), (1_000, 40), (1_048_500, 16_300)])
STRAYS = st.one_of(
    st.none(),
    st.sampled_from([(200, 30), (70_000, 26), (1_048_576, 200), (1_048_576, 16_384), (5, 16_384)]),
)


def build(
    shape: list[tuple[str, list[list[Any]]]],
    text_formulas: bool,
    offset: tuple[int, int] = (0, 0),
    stray: tuple[int, int] | None = None,
) -> bytes:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in shape:
        title = _SHEET_TITLE.sub("", title).strip("'")[:31] or "Sheet"
        if title.casefold() in {n.casefold() for n in workbook.sheetnames}:
            continue
        sheet = workbook.create_sheet(title)
        for r, row in enumerate(rows, start=1 + offset[0]):
            if r > 1_048_576:
                break
            for c, value in enumerate(row[: 16_384 - offset[1]], start=1 + offset[1]):
                if value is not None:
                    sheet.cell(r, c, _legal(value) if isinstance(value, str) else value)
        if stray is not None:
            sheet.cell(*stray, "x")
        if text_formulas:  # as Excel keeps a typed '=Кот: text, not a formula
            for cell in list(sheet._cells.values()):  # the cells made, not the whole range
                if cell.data_type == "f":
                    cell.data_type = "s"
    if not workbook.sheetnames:
        workbook.create_sheet("Sheet")
    buffer = io.BytesIO()
    workbook.save(buffer)
    return _unmark(buffer.getvalue())


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    shape=st.lists(sheets(), min_size=1, max_size=6) | protocols() | sound_games(),
    text_formulas=st.booleans(),
    offset=OFFSETS,
    stray=STRAYS,
)
# 1.7976931348623157e308 is saved as 1.797693134862316e+308, which reads back as infinity
@example(
    shape=[
        ("Жребий", [["Порядок", "Игрок"], [1.7976931348623157e308, "Кот"]]),
        ("Протокол", [["Игра", "Место", "Фолы"], [1, 1.7976931348623157e308, 4]]),
    ],
    text_formulas=False,
    offset=(0, 0),
    stray=None,
)
@example(
    shape=[("Протокол", [["Игра", "Место", "Игрок"], [1, 1, "Кот\x1b[31m\x00"]])],
    text_formulas=False,
    offset=(0, 0),
    stray=(1_048_576, 16_384),
)
def test_reader_never_raises_anything_but_its_own_error(
    shape: list[tuple[str, list[list[Any]]]],
    text_formulas: bool,
    offset: tuple[int, int],
    stray: tuple[int, int] | None,
) -> None:
    source = Source("fuzz.xlsx", build(shape, text_formulas, offset, stray))
    try:
        outcome = evaluate([source])
    except MafiaSheetsError as error:
        assert error.text("ru") and error.text("en")  # one line, both languages
        return
    for f in outcome.findings:
        assert f.message("ru") and f.message("en") and f.hint("en")
    copy = annotate_workbook(source, outcome.findings, "en")
    assert openpyxl.load_workbook(io.BytesIO(copy)).sheetnames[0] == "Findings"
