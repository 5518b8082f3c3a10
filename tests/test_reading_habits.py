"""Issue 11: what judges actually type is read as meant, or said aloud — never wrong in silence.

Each test changes one everyday habit (a header spelling, a value form, layout noise) in a
valid protocol and checks the standings stay those of the canonical file, or that a
finding at the exact cell explains the difference.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from builders import Proto, names, seat_cell
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafia_sheets import vocab
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading import matching
from mafia_sheets.reading.columns import SCHEMA
from mafia_sheets.reading.values import BAD, parse_fouls, parse_seat_list
from mafia_sheets.report.json import findings_json

SAMPLE = Path(__file__).parent.parent / "samples" / "tournament-ru.xlsx"


def tournament() -> Proto:
    """Two games with an award and a best move, so that a dropped column changes places."""
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("A"), "Чёрные")
    proto.seat(1, 1)["best_move"] = "3 7 9"  # killed on night 1 in a red win
    proto.seat(1, 5)["bonus"] = "ЛИ"
    proto.seat(2, 3)["bonus"] = "ЛИ2"
    return proto


def edited(data: bytes, edit: Any) -> bytes:
    book = openpyxl.load_workbook(io.BytesIO(data))
    edit(book)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def rename(data: bytes, sheet: str, headers: dict[str, str]) -> bytes:
    def edit(book: Any) -> None:
        for cell in book[sheet][1]:
            if cell.value in headers:
                cell.value = headers[cell.value]

    return edited(data, edit)


def run(data: bytes, rate: bool = True) -> Any:
    return evaluate([Source("protocol.xlsx", data)], rate=rate)


def standings(outcome: Any) -> list[tuple[str, object]]:
    assert outcome.rating is not None, [f.message("en") for f in outcome.findings]
    return [(s.player, s.total, s.place_range) for s in outcome.rating.standings]


def codes(outcome: Any) -> list[tuple[str, str, str]]:
    return [(f.code, f.sheet, f.cell) for f in outcome.findings]


BASE = tournament().to_bytes()


# ---- 1. nothing dropped in silence -------------------------------------------------------


def test_an_unknown_header_is_a_warning_at_its_cell_naming_the_nearest_column():
    data = rename(BASE, "Протокол", {"Доп": "Допп"})
    outcome = run(data)
    found = [f for f in outcome.findings if f.code == "unknown-column"]
    assert [(f.sheet, f.cell, f.value) for f in found] == [("Протокол", "I1", "Допп")]
    assert "«Доп»" in found[0].message("ru")
    assert "“Bonus”" in found[0].message("en")
    # and its loss is said in plain words
    absent = [f for f in outcome.findings if f.code == "column-absent"]
    assert [(f.cell, f.message("ru")) for f in absent] == [
        ("A1", "Нет столбца «Доп»: награды судьи не учтены")
    ]


def test_notes_beside_the_table_under_no_header_are_said_at_their_own_cells():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet["K3"] = "проверить фолы!"  # the judge's note, no header over it
        sheet["K7"] = 2

    outcome = run(edited(BASE, edit))
    found = [f for f in outcome.findings if f.code == "cells-without-header"]
    assert [(f.sheet, f.cell, f.value, f.also) for f in found] == [
        ("Протокол", "K3", "проверить фолы!", (("Протокол", "K7"),))
    ]
    assert found[0].message("ru") == (
        "Не прочитано: K3 «проверить фолы!», K7 «2» — над этими ячейками нет заголовка столбца"
    )
    assert found[0].message("en").startswith("Not read: K3 «проверить фолы!», K7 «2» — these")
    assert "unknown-column" not in {f.code for f in outcome.findings}
    assert standings(outcome) == standings(run(BASE))  # a note changes nothing
    records = {(r["sheet"], r["cell"]): r for r in findings_json(outcome, "en")["headers"]}
    assert records[("Протокол", "K1")]["header"] == ""
    assert records[("Протокол", "K1")]["read_as"] == "not read"
    from mafia_sheets.cli.text import headers_text
    from mafia_sheets.report.sheets.summary import summary_lines

    assert "K1 (no header) → not read" in headers_text(outcome.headers, outcome.findings, "en")
    assert ("Протокол!K1 (без заголовка)", "→ не прочитан", "") in summary_lines(
        outcome.rating, "ru"
    )


def test_a_header_of_spaces_is_no_header_either():
    def edit(book: Any) -> None:
        book["Протокол"]["K1"] = "   "
        book["Протокол"]["K5"] = "см. протест"

    outcome = run(edited(BASE, edit))
    assert [(f.code, f.cell, f.value) for f in outcome.findings if f.sheet == "Протокол"] == [
        ("cells-without-header", "K5", "см. протест")
    ]
    from mafia_sheets.cli.text import headers_text

    assert "K1 (без заголовка) → не прочитан" in headers_text(
        outcome.headers, outcome.findings, "ru"
    )


def test_a_long_unheaded_column_is_listed_up_to_twelve_cells_then_counted():
    def edit(book: Any) -> None:
        for row in range(2, 22):
            book["Протокол"][f"K{row}"] = f"n{row}"

    found = [f for f in run(edited(BASE, edit)).findings if f.code == "cells-without-header"]
    assert [(f.cell, len(f.also)) for f in found] == [("K2", 19)]
    assert found[0].message("ru").startswith("Не прочитано: K2 «n2», K3 «n3»")
    assert "K13 «n13» и ещё 8 —" in found[0].message("ru")
    assert "K13 «n13» and 8 more —" in found[0].message("en")


def test_the_header_map_is_in_check_json_and_on_the_summary():
    data = rename(BASE, "Протокол", {"Игрок": "Ник", "Доп": "Доп. баллы"})
    outcome = run(data)
    records = findings_json(outcome, "ru")["headers"]
    by_cell = {(r["sheet"], r["cell"]): r for r in records}
    assert by_cell[("Протокол", "C1")] == {
        "file": "protocol.xlsx",
        "sheet": "Протокол",
        "cell": "C1",
        "header": "Ник",
        "column": "player",
        "read_as": "Игрок",
        "status": "column",
    }
    assert by_cell[("Протокол", "I1")]["column"] == "bonus"
    json.dumps(records, ensure_ascii=False)
    from mafia_sheets.report.sheets.summary import summary_lines

    lines = summary_lines(outcome.rating, "ru")
    assert ("Протокол!C1 «Ник»", "→ Игрок", "") in lines


# ---- 2. headers fold and aliases ---------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "Доп.",
        "доп. баллы.",
        "ДОП:",
        "(Доп)",
        "Доп. баллы",
        "Дoп",  # Latin o
        "Доп / Bonus",
        "Bonus",
        "bonus points",
        "Extra",
    ],
)
def test_award_headers_fold_case_spacing_punctuation_and_look_alikes(typed):
    assert matching.match_header("seats", typed).code == "bonus"
    assert standings(run(rename(BASE, "Протокол", {"Доп": typed}))) == standings(run(BASE))


ALIASES = [
    ("seats", "player", ["Ник", "Nickname", "Nick", "ник игрока"]),
    ("seats", "seat", ["№", "#", "Место №", "номер места", "Seat no"]),
    ("seats", "best_move", ["ЛХ", "Л.Х.", "Лучший ход (ЛХ)", "Best move", "BM"]),
    ("seats", "when", ["Фаза", "Phase", "Когда выбыл"]),
    ("seats", "left", ["Выбытие", "Как выбыл", "Departure"]),
    ("seats", "fouls", ["Фол", "Фолов", "Fouls:", "кол-во фолов"]),
    ("seats", "role", ["Роль игрока", "Карта"]),
    ("seats", "game", ["№ игры", "Игра №", "Game ID", "Номер игры"]),
    ("games", "result", ["Победитель", "Winner", "Победа", "Результат игры", "Outcome"]),
    ("games", "table", ["Стол №", "№ стола"]),
    ("games", "judge", ["Ведущий", "Referee"]),
]


@pytest.mark.parametrize("sheet,code,headers", ALIASES)
def test_every_alias_family_reads_the_same_standings(sheet, code, headers):
    canonical = SCHEMA[sheet][code].name("ru")
    expected = standings(run(BASE))
    for header in headers:
        assert matching.match_header(sheet, header).code == code, header
        data = rename(BASE, {"seats": "Протокол", "games": "Игры"}[sheet], {canonical: header})
        outcome = run(data)
        assert standings(outcome) == expected, header
        assert not [f for f in outcome.findings if f.code == "unknown-column"], header


def test_the_canonical_name_wins_over_an_alias():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        player = next(c.column for c in sheet[1] if c.value == "Игрок")
        sheet.insert_cols(1)
        sheet["A1"] = "Ник"  # an alias of Игрок, the same names in it
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row, 1).value = sheet.cell(row, player + 1).value

    outcome = run(edited(BASE, edit))
    assert ("duplicate-column", "Протокол", "A1") in codes(outcome)
    assert standings(outcome) == standings(run(BASE))


def test_an_alias_column_with_other_names_is_an_error():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet.insert_cols(1)
        sheet["A1"] = "Ник"  # an alias of Игрок, with other content
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row, 1).value = f"real name {row}"

    outcome = run(edited(BASE, edit))
    assert ("duplicate-column-differs", "Протокол", "A1") in codes(outcome)
    assert outcome.rating is None


def test_a_running_row_counter_is_not_the_seat():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet.insert_cols(1)
        sheet["A1"] = "№"
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row, 1).value = row - 1

    outcome = run(edited(BASE, edit))
    assert standings(outcome) == standings(run(BASE))
    read = {r.cell: r.status for r in outcome.headers if r.sheet == "Протокол"}
    assert read["A1"] == "counter" and read["C1"] == "column"


def test_folding_rules():
    assert vocab.fold(" Чёрные. ") == vocab.fold("черные") == vocab.fold("ЧЕРНЫЕ")
    assert vocab.fold_key("Дoп") == vocab.fold_key("Доп")  # a Latin o
    assert vocab.fold("Кот\u200b") == vocab.fold("Кот")  # an invisible space
    assert vocab.fold("«Дон»") == "дон"
    assert vocab.fold("+") == "+" and vocab.fold("-") == "-"
    assert matching.header_key("Доп.баллы") == matching.header_key("доп баллы")
    assert matching.header_keys("Игрок / Player")[-2:] == [
        matching.header_key("Игрок"),
        matching.header_key("Player"),
    ]


def test_no_two_values_of_a_vocabulary_fold_into_one():
    for name, codes_ in vocab.VALUES.items():
        seen: dict[str, str] = {}
        for code, spellings in [*codes_.items(), *vocab.AMBIGUOUS.get(name, {}).items()]:
            for spelling in spellings:
                assert seen.setdefault(vocab.fold_key(spelling), code) == code, (name, spelling)


# ---- 3. values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "vocab_name,typed,code",
    [
        ("role", "мирн.", "civilian"),
        ("role", "комиссар", "sheriff"),
        ("role", "дон мафии", "don"),
        ("role", "Мафиози", "mafia"),
        ("role", "М.Ж.", "civilian"),
        ("result", "победа мирного города", "red"),
        ("result", "черные победили", "black"),
        ("result", "Победа города", "red"),
        ("result", "Мафия победила", "black"),
        ("left", "дискв.", "disqualified"),
        ("left", "отстрел", "killed"),
        ("left", "4ф", "fouled"),
        ("left", "Удалён", "removed"),
    ],
)
def test_long_and_short_value_forms(vocab_name, typed, code):
    assert vocab.value_lookup(vocab_name)[vocab.fold_key(typed)] == code


@pytest.mark.parametrize(
    "typed,ordinal",
    [
        ("Ночь 2", 4),
        ("2Н", 4),
        ("N2", 4),
        ("н.2", 4),
        ("2-я ночь", 4),
        ("H2", 4),
        ("1D", 1),
        ("день 3", 5),
        ("Д1", 1),
        ("night 1", 2),
    ],
)
def test_phase_forms(typed, ordinal):
    assert vocab.parse_phase(typed) == ordinal


def test_seat_lists_and_fouls_as_typed():
    assert parse_seat_list("3/5/8") == parse_seat_list("3.5.8") == (3, 5, 8)
    assert parse_seat_list(2.7) == (2, 7)  # «2,7» in a Russian Excel
    assert parse_seat_list(379.0) == (3, 7, 9) and parse_seat_list("3710") == (3, 7, 10)
    assert parse_seat_list("3 7 11") == (3, 7, 11)
    assert parse_seat_list("3–7–9") == parse_seat_list("3 — 7 — 9") == (3, 7, 9)  # dashes
    assert parse_fouls("3 ф.") == parse_fouls("3 фола") == parse_fouls("3") == 3
    assert parse_fouls("5") is BAD
    assert parse_fouls("IIII") == parse_fouls("xxxx") == 4 and parse_fouls("ІІ") == 2  # sticks
    assert parse_fouls("IIIII") is BAD


def test_a_best_move_excel_made_a_decimal_is_read_as_the_seats():
    proto = tournament()
    proto.seat(1, 1)["best_move"] = 3.7  # two of three named: «3,7»
    outcome = run(proto.to_bytes())
    expected = tournament()
    expected.seat(1, 1)["best_move"] = "3 7"
    assert standings(outcome) == standings(run(expected.to_bytes()))


def test_a_misspelt_value_suggests_and_lists_every_cell_once():
    proto = tournament()
    for seat in (2, 4):
        proto.seat(1, seat)["role"] = "Мирнй"
    proto.seat(2, 2)["role"] = "Мирнй"
    outcome = run(proto.to_bytes(), rate=False)
    found = [f for f in outcome.findings if f.code == "unknown-value"]
    assert [(f.cell, f.value) for f in found] == [(seat_cell(proto, 1, 2, "role"), "Мирнй")]
    message = found[0].message("ru")
    assert "«Мирный»" in message
    for game, seat in ((1, 2), (1, 4), (2, 2)):
        assert seat_cell(proto, game, seat, "role") in message
    assert "Мирный/Civilian" in found[0].expected("ru")


# ---- 4. «удалён» ---------------------------------------------------------------------------


def test_removed_with_four_fouls_is_a_four_foul_departure():
    proto, plain = tournament(), tournament()
    for p, word in ((proto, "удалён"), (plain, "4 фола")):
        p.seat(1, 3).update(left=word, fouls=4)
    outcome = run(proto.to_bytes())
    assert standings(outcome) == standings(run(plain.to_bytes()))
    assert "removed-read-as-disqualified" not in {f.code for f in outcome.findings}


def test_removed_without_four_fouls_is_a_disqualification_said_aloud():
    proto, plain = tournament(), tournament()
    for p, word in ((proto, "удалён"), (plain, "дисквалифицирован")):
        p.seat(1, 3)["left"] = word
    outcome = run(proto.to_bytes())
    assert standings(outcome) == standings(run(plain.to_bytes()))
    found = [f for f in outcome.findings if f.code == "removed-read-as-disqualified"]
    assert [f.cell for f in found] == [seat_cell(proto, 1, 3, "left")]
    assert "−1" in found[0].message("ru") and "disqualified" in found[0].hint("en")


# ---- 6. noise is not data ----------------------------------------------------------------


def test_a_title_merged_above_the_header_is_accepted():
    def edit(book: Any) -> None:
        for name in ("Игры", "Протокол"):
            sheet = book[name]
            sheet.insert_rows(1, 2)
            sheet["A1"] = "Кубок клуба — протокол"
            sheet.merge_cells("A1:F1")

    outcome = run(edited(BASE, edit))
    assert standings(outcome) == standings(run(BASE))


def test_a_totals_row_is_skipped_with_one_note():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet.append(["Итого", None, None, None, 3, None, None, None, 2])

    outcome = run(edited(BASE, edit))
    assert standings(outcome) == standings(run(BASE))
    assert [c for c in codes(outcome) if c[0] == "totals-row"] == [
        ("totals-row", "Протокол", "A22")
    ]


def test_a_hidden_helper_column_is_ignored():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet["J1"] = "Баллы (формула)"
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row, 10).value = 1
        sheet.column_dimensions["J"].hidden = True

    outcome = run(edited(BASE, edit))
    assert "unknown-column" not in {f.code for f in outcome.findings}
    assert {r.cell: r.status for r in outcome.headers}["J1"] == "hidden"


# ---- 7. mid-tournament ----------------------------------------------------------------------


def test_the_products_template_half_filled_rates(tmp_path):
    from mafia_sheets.template.workbook import build_template

    full = tournament()

    def edit(book: Any) -> None:
        seats, games = book["Протокол"], book["Игры"]
        for index, row in enumerate(full.seats, start=2):
            for column, value in enumerate(
                ("game", "seat", "player", "role", "fouls", "left", "when", "best_move", "bonus"),
                start=1,
            ):
                seats.cell(index, column).value = row[value] or None
        for index, row in enumerate(full.games, start=2):
            games.cell(index, 5).value = row["result"]

    data = edited(build_template("ru", games=5), edit)
    outcome = run(data)
    assert outcome.errors == 0
    assert standings(outcome) == standings(run(BASE))
    found = [f for f in outcome.findings if f.code == "games-not-played"]
    assert [(f.cell, f.message("ru").split(":")[0]) for f in found] == [
        ("A4", "Игры 3–5 ещё не сыграны")
    ]


# ---- 9. look-alike nicknames --------------------------------------------------------------


def test_look_alike_nicknames_block_without_a_roster():
    proto = tournament()
    proto.seat(2, 4)["player"] = "a4"  # the same player typed in lower case
    outcome = run(proto.to_bytes())
    found = [f for f in outcome.findings if f.code == "name-split"]
    assert [(f.severity, f.cell) for f in found] == [("error", seat_cell(proto, 2, 4, "player"))]
    assert outcome.rating is None


def test_a_roster_listing_both_spellings_says_they_are_two_people():
    proto = Proto()
    first, second = names("A"), names("A")
    second[3] = "a4"
    proto.add_game(1, first, "Красные")
    proto.add_game(2, second, "Чёрные")
    proto.players = [{"player": name} for name in [*first, "a4"]]
    outcome = run(proto.to_bytes())
    assert not {"name-look-alike", "name-split"} & {f.code for f in outcome.findings}
    assert outcome.rating is not None


def test_an_invisible_character_in_a_nickname_blocks_without_a_roster():
    proto = tournament()
    proto.seat(2, 4)["player"] = "A4\u200b"
    outcome = run(proto.to_bytes())
    assert [(f.code, f.cell) for f in outcome.findings if f.severity == "error"] == [
        ("name-split", seat_cell(proto, 2, 4, "player"))
    ]


# ---- 13. a property: headers renamed, reordered, padded never change the standings ------------

ALIAS_CHOICES = {
    (sheet, code): [
        SCHEMA[sheet][code].name("ru"),
        SCHEMA[sheet][code].name("en"),
        *SCHEMA[sheet][code].aliases,
    ]
    for sheet in ("games", "seats")
    for code in SCHEMA[sheet]
}
SHEET_OF = {"games": "Игры", "seats": "Протокол"}


def _rewrite(
    data: bytes,
    choices: dict[tuple[str, str], str],
    orders: dict[str, list[int]],
    extra: dict[str, str],
) -> bytes:
    def edit(book: Any) -> None:
        for sheet_code, name in SHEET_OF.items():
            sheet = book[name]
            rows = [list(r) for r in sheet.iter_rows(values_only=True)]
            lookup = {SCHEMA[sheet_code][code].name("ru"): code for code in SCHEMA[sheet_code]}
            header = [choices.get((sheet_code, lookup.get(h, "")), h) for h in rows[0]]
            rows[0] = header
            order = orders[sheet_code]
            rows = [[row[i] for i in order] for row in rows]
            if sheet_code in extra:
                rows[0].append(extra[sheet_code])
                for row in rows[1:]:
                    row.append("x")
            sheet.delete_rows(1, sheet.max_row)
            for row in rows:
                sheet.append(row)

    return edited(data, edit)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_renamed_reordered_or_padded_headers_never_change_the_standings(data):
    choices = {
        key: data.draw(st.sampled_from(values), label=str(key))
        for key, values in ALIAS_CHOICES.items()
    }
    written = {
        code: [c for c, column in SCHEMA[code].items() if column.template] for code in SHEET_OF
    }
    orders = {
        code: data.draw(st.permutations(range(len(written[code]))), label=code) for code in SHEET_OF
    }
    extra = data.draw(
        st.dictionaries(
            st.sampled_from(list(SHEET_OF)),
            st.sampled_from(["Баллы", "Комментарий судьи", "Σ", "Points", "ЛИ?", "Колонка 12"]),
        )
    )
    outcome = run(_rewrite(BASE, choices, orders, extra))
    assert standings(outcome) == standings(run(BASE))
    reads = {(r.sheet, r.status) for r in outcome.headers}
    for sheet_code in extra:  # an added column is never passed over in silence
        assert any(
            sheet == SHEET_OF[sheet_code] and status in ("unknown", "note", "duplicate")
            for sheet, status in reads
        )


# ---- 8. games numbered per table ------------------------------------------------------------


def test_games_numbered_per_table_are_keyed_by_table_and_game():
    proto = Proto()
    for table, prefix in ((1, "A"), (2, "B")):
        for game in (1, 2):
            start = len(proto.seats)
            proto.add_game(
                game, names(f"{prefix}{game}-"), "Красные" if game == 1 else "Чёрные", table=table
            )
            for row in proto.seats[start:]:
                row["table"] = table
    outcome = run(proto.to_bytes())
    assert outcome.errors == 0, [f.message("en") for f in outcome.findings]
    assert "стол 2, игра 1" in set(outcome.rating.games["game"])


def per_table_protocol() -> Proto:
    proto = Proto()
    for table, prefix in ((1, "A"), (2, "B")):
        for game in (1, 2):
            start = len(proto.seats)
            proto.add_game(
                game, names(f"{prefix}{game}-"), "Красные" if game == 1 else "Чёрные", table=table
            )
            for row in proto.seats[start:]:
                row["table"] = table
    return proto


def test_a_per_table_game_is_named_in_the_language_of_the_output(tmp_path):
    """«стол 2, игра 1» in Russian, `table 2, game 1` in English: findings, the CLI, the
    JSON records, the results workbook's Игры / Games and Баллы / Points sheets."""
    from click.testing import CliRunner

    from mafia_sheets.cli.commands import main
    from mafia_sheets.report.xlsx import results_workbook

    proto = per_table_protocol()
    proto.seats[-1]["best_move"] = "3 7"  # table 2, game 2, seat 10: not the first victim
    outcome = run(proto.to_bytes(), rate=False)
    found = [f for f in outcome.findings if f.game == "стол 2, игра 2"]
    assert found and "table 2, game 2" not in found[0].message("ru")
    record = found[0].record("en")
    assert record["game"] == "table 2, game 2"
    assert "стол" not in json.dumps(findings_json(outcome, "en"), ensure_ascii=False)
    path = tmp_path / "tables.xlsx"
    path.write_bytes(proto.to_bytes())
    text = CliRunner().invoke(main, ["check", str(path), "--lang", "en"]).output
    assert "table 2, game 2" in text and "стол" not in text
    assert "стол 2, игра 2" in CliRunner().invoke(main, ["check", str(path)]).output
    rating = run(per_table_protocol().to_bytes()).rating
    for lang, sheet, points, key, other in (
        ("en", "Games", "Points", "table 2, game 1", "стол"),
        ("ru", "Игры", "Баллы", "стол 2, игра 1", "table"),
    ):
        book = openpyxl.load_workbook(io.BytesIO(results_workbook(rating, lang)))
        for name in (sheet, points):
            cells = {str(c.value) for row in book[name].iter_rows() for c in row if c.value}
            assert key in cells and not any(other in c for c in cells), (lang, name)


@pytest.mark.parametrize("header,column", [("Доп", "I"), ("Роль", "D")])
def test_a_hidden_column_of_the_sheet_with_values_is_an_error_at_its_header(header, column):
    base = run(BASE)
    letter = next(r.cell[:-1] for r in base.headers if r.sheet == "Протокол" and r.typed == header)

    def edit(book: Any) -> None:
        book["Протокол"].column_dimensions[letter].hidden = True

    outcome = run(edited(BASE, edit))
    hit = [f for f in outcome.findings if f.code == "hidden-column"]
    assert [(f.severity, f.sheet, f.cell, f.value) for f in hit] == [
        ("error", "Протокол", f"{letter}1", header)
    ]
    assert outcome.rating is None  # never rated without the column the judge cannot see
    assert "hidden" in hit[0].message("en") and "скрыт" in hit[0].message("ru")


def test_an_empty_hidden_column_of_the_sheet_is_no_finding():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet["K1"] = "Отменена"
        sheet.column_dimensions["K"].hidden = True

    outcome = run(edited(BASE, edit))
    assert "hidden-column" not in {f.code for f in outcome.findings}
    assert standings(outcome) == standings(run(BASE))


def test_a_second_column_of_one_meaning_with_other_values_is_an_error_naming_the_rows():
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet["K1"] = "Доп. баллы"  # an alias of «Доп», which is kept
        sheet["K3"] = "ЛИ"
        sheet["K5"] = "ЛИ2"

    outcome = run(edited(BASE, edit))
    hit = [f for f in outcome.findings if f.code == "duplicate-column-differs"]
    assert [(f.severity, f.sheet, f.cell) for f in hit] == [("error", "Протокол", "K1")]
    assert "3, 5" in hit[0].message("ru") and outcome.rating is None


def _renamed(data: bytes, names: dict[str, str]) -> bytes:
    def edit(book: Any) -> None:
        for old, new in names.items():
            book[old].title = new

    return edited(data, edit)


def test_seat_rows_on_a_sheet_of_another_name_are_read_as_the_protocol_and_said():
    outcome = run(_renamed(BASE, {"Протокол": "Лист1"}))
    said = [(f.code, f.severity, f.sheet, f.cell) for f in outcome.findings]
    assert said == [("sheet-read-as-seats", "warning", "Лист1", "A1")]
    assert standings(outcome) == standings(run(BASE))
    assert outcome.reading[0].layout == "rows"


def test_a_copy_of_the_protocol_under_another_name_before_it_is_a_duplicate():
    def edit(book: Any) -> None:
        copy = book.copy_worksheet(book["Протокол"])
        copy.title = "Протокол (2)"
        book.move_sheet(copy, offset=-(len(book.sheetnames) - 1))  # first, as Excel puts it

    outcome = run(edited(BASE, edit))
    said = [(f.code, f.sheet, f.value) for f in outcome.findings]
    assert said == [("duplicate-sheet", "Протокол (2)", "Протокол")]
    assert standings(outcome) == standings(run(BASE))


@pytest.mark.parametrize(
    "header,nearest",
    [("Рол", "; ближе всего — «Роль»"), ("ЛИ", ""), ("Дата", "")],
)
def test_an_unknown_header_names_the_nearest_column_only_when_one_is_near(header, nearest):
    def edit(book: Any) -> None:
        sheet = book["Протокол"]
        sheet["K1"] = header
        sheet["K2"] = "x"

    outcome = run(edited(BASE, edit))
    found = [f for f in outcome.findings if f.code == "unknown-column"]
    assert [(f.sheet, f.cell) for f in found] == [("Протокол", "K1")]
    assert found[0].message("ru") == f"Столбец «{header}» не прочитан: такого столбца нет{nearest}"
    if not nearest:
        assert "template" in found[0].hint("en")


def test_a_best_move_excel_took_for_a_date_is_unreadable_at_its_cell_not_seat_2009():
    import datetime as dt

    proto = tournament()
    proto.seat(1, 1)["best_move"] = dt.datetime(2009, 7, 3)  # «3.7.9» in a Russian Excel
    outcome = run(proto.to_bytes(), rate=False)
    found = [(f.code, f.cell) for f in outcome.findings if "best" in f.code]
    assert found == [("bad-best-move", seat_cell(proto, 1, 1, "best_move"))]


def test_fouls_typed_as_sticks_in_seat_rows_count_one_a_stick():
    sticks, numbers = tournament(), tournament()
    sticks.seat(1, 2)["fouls"], numbers.seat(1, 2)["fouls"] = "III", 3
    assert standings(run(sticks.to_bytes())) == standings(run(numbers.to_bytes()))
    assert "bad-number" not in {f.code for f in run(sticks.to_bytes()).findings}
