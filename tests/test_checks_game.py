"""SPEC §5.2, seat-level rules: best move, judge's awards, fouls, phases of departures.

Each test plants one fault in an otherwise valid protocol (a red win, a black win and a
draw, see builders.FLOWS) and expects exactly the planted finding at the planted cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import (
    Proto,
    check_findings,
    game_cell,
    names,
    placed,
    seat_cell,
    set_departures,
    sheet_name,
)

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate

RED, BLACK, DRAW = 1, 2, 3  # the game ids of the three games of `base()`
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def base() -> Proto:
    proto = Proto()
    proto.add_game(RED, names("Игрок"), "Красные")
    proto.add_game(BLACK, names("Игрок"), "Чёрные")
    proto.add_game(DRAW, names("Игрок"), "Ничья")
    return proto


def expect_one(
    proto: Proto, code: str, severity: str, game: int, seat: int, column: str, lang: str = "ru"
) -> None:
    found = check_findings(proto, lang=lang)
    assert placed(found) == [
        (code, severity, sheet_name("seats", lang), seat_cell(proto, game, seat, column))
    ]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_valid_games_are_clean(lang: str) -> None:
    assert check_findings(base(), lang=lang) == []


@pytest.mark.parametrize("name", ["tournament-ru.xlsx", "tournament-en.xlsx"])
def test_sample_tournament_is_clean(name: str) -> None:
    source = Source(name, (SAMPLES / name).read_bytes())
    assert evaluate([source], rate=False).findings == ()


# ---- best move ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_best_move_of_a_player_not_killed_first_night(lang: str) -> None:
    proto = base()
    proto.seat(RED, 4)["best_move"] = "3 7 9"
    expect_one(proto, "best-move-not-first-victim", "error", RED, 4, "best_move", lang)


def test_best_move_of_a_player_voted_out_on_day_one() -> None:
    proto = base()
    proto.seat(RED, 3)["best_move"] = "7 9 2"  # seat 3 was voted out on Д1
    expect_one(proto, "best-move-not-first-victim", "error", RED, 3, "best_move")


def test_best_move_of_the_first_night_victim_is_fine() -> None:
    proto = base()
    proto.seat(RED, 1)["best_move"] = "3,7,9"
    assert check_findings(proto) == []


def test_second_best_move_in_one_game() -> None:
    proto = base()
    proto.seat(RED, 1)["best_move"] = "3 7 9"
    proto.seat(RED, 2).update(left="убит", when="Н1", best_move="3 7 4")
    found = placed(check_findings(proto))
    # which one is wrong only the judge knows: both are marked, and so are both kills
    assert sorted(found) == sorted(
        [
            ("best-move-twice", "error", "Протокол", seat_cell(proto, RED, 1, "best_move")),
            ("best-move-twice", "error", "Протокол", seat_cell(proto, RED, 2, "best_move")),
            ("two-kills-one-night", "error", "Протокол", seat_cell(proto, RED, 1, "when")),
            ("two-kills-one-night", "error", "Протокол", seat_cell(proto, RED, 2, "when")),
        ]
    )


@pytest.mark.parametrize(
    ("moves", "code", "severity"),
    [
        ("3 7 11", "best-move-seat-range", "error"),
        ("3 0 7", "best-move-seat-range", "error"),
        ("3 3 7", "best-move-repeated-seat", "error"),
        ("1 3 7", "best-move-self", "error"),
        ("3 7 9 4", "best-move-too-many", "error"),
        ("3 7", "best-move-short", "warning"),
    ],
)
def test_best_move_seats(moves: str, code: str, severity: str) -> None:
    proto = base()
    proto.seat(RED, 1)["best_move"] = moves
    expect_one(proto, code, severity, RED, 1, "best_move")


def test_best_move_message_names_the_bad_seat() -> None:
    proto = base()
    proto.seat(RED, 1)["best_move"] = "3 7 11"
    (finding,) = check_findings(proto)
    assert "11" in finding.message("ru") and "11" in finding.message("en")


# ---- judge's awards ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("award", ["ЛИ", "ЛИ2"])
def test_best_player_award_to_a_loser(lang: str, award: str) -> None:
    proto = base()
    proto.seat(RED, 3)["bonus"] = award  # seat 3 is black: lost the red win
    expect_one(proto, "award-to-loser", "error", RED, 3, "bonus", lang)


def test_bare_one_to_a_loser_is_a_best_player_award() -> None:
    proto = base()
    proto.seat(BLACK, 4)["bonus"] = 1  # a red player of the black win
    expect_one(proto, "award-to-loser", "error", BLACK, 4, "bonus")


def test_losers_award_to_a_winner() -> None:
    proto = base()
    proto.seat(BLACK, 7)["bonus"] = "ЛИП"  # the don of the black win
    expect_one(proto, "award-to-winner", "error", BLACK, 7, "bonus")


@pytest.mark.parametrize("award", ["ЛИ", "ЛИ2", "ЛИП", 0.5])
def test_award_in_a_draw(award: object) -> None:
    proto = base()
    proto.seat(DRAW, 5)["bonus"] = award
    expect_one(proto, "award-in-draw", "error", DRAW, 5, "bonus")


def expect_at(proto: Proto, code: str, game: int, seats: list[int], column: str) -> None:
    assert placed(check_findings(proto)) == [
        (code, "error", "Протокол", seat_cell(proto, game, seat, column)) for seat in seats
    ]


def test_award_type_twice_in_a_game() -> None:
    proto = base()
    proto.seat(RED, 4)["bonus"] = "ЛИ"
    proto.seat(RED, 5)["bonus"] = "ЛИ"
    expect_at(proto, "award-twice", RED, [4, 5], "bonus")


def test_more_than_three_awards() -> None:
    proto = base()
    for seat, award in ((4, "ЛИ"), (5, "ЛИ2"), (3, "ЛИП"), (6, "ЛИ2")):
        proto.seat(RED, seat)["bonus"] = award
    expect_at(proto, "too-many-awards", RED, [3, 4, 5, 6], "bonus")


def test_three_valid_awards_are_fine() -> None:
    proto = base()
    for seat, award in ((4, "ЛИ"), (5, 0.5), (3, 0.5)):  # 0.5: ЛИ2 to a winner, ЛИП to a loser
        proto.seat(RED, seat)["bonus"] = award
    assert check_findings(proto) == []


# ---- fouls -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_four_fouls_but_stayed_to_the_end(lang: str) -> None:
    proto = base()
    proto.seat(RED, 4)["fouls"] = 4
    expect_one(proto, "four-fouls-stayed", "error", RED, 4, "fouls", lang)


@pytest.mark.parametrize("fouls", ["", 3])
def test_fouled_out_with_fewer_than_four_fouls(fouls: object) -> None:
    proto = base()
    proto.seat(BLACK, 4).update(left="4 фола", fouls=fouls)  # left on Д2, no vote that day
    found = check_findings(proto)
    assert placed(found) == [
        ("fouled-out-few-fouls", "error", "Протокол", seat_cell(proto, BLACK, 4, "left"))
    ]
    assert str(fouls or 0) in found[0].message("en")


def test_fouled_out_with_four_fouls_is_fine() -> None:
    proto = base()
    proto.seat(BLACK, 4).update(left="4 фола", fouls=4)
    assert check_findings(proto) == []


# ---- phases ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_kill_in_a_day_phase(lang: str) -> None:
    proto = base()
    proto.seat(RED, 1)["when"] = "Д2"
    expect_one(proto, "kill-in-day", "error", RED, 1, "when", lang)


def test_vote_in_a_night_phase() -> None:
    proto = base()
    proto.seat(RED, 3)["when"] = "Н1"
    expect_one(proto, "vote-in-night", "error", RED, 3, "when")


def test_two_kills_in_one_night() -> None:
    proto = base()
    proto.seat(BLACK, 4).update(left="убит", when="Н1")
    expect_at(proto, "two-kills-one-night", BLACK, [2, 4], "when")


# ---- the gate: structure first, annulled games never ------------------------------------


def test_game_with_structural_errors_is_not_judged() -> None:
    proto = base()
    proto.seat(RED, 4)["best_move"] = "3 7 9"  # would be best-move-not-first-victim
    proto.seat(RED, 8)["role"] = "Мафия"  # three mafia: a §5.1 error
    assert [f.code for f in check_findings(proto)] == ["role-count"]


def test_game_with_an_unreadable_phase_is_not_judged() -> None:
    proto = base()
    proto.seat(RED, 9)["when"] = "Х3"  # the last black's departure cannot be read
    assert [f.code for f in check_findings(proto)] == ["bad-phase"]


def test_annulled_game_is_not_judged() -> None:
    proto = base()
    proto.games[0]["annulled"] = "да"
    proto.seat(RED, 4)["fouls"] = 4
    set_departures(proto, RED, {})
    assert check_findings(proto) == []


def test_result_cell_is_in_the_games_sheet() -> None:
    proto = base()
    set_departures(proto, RED, {})  # nobody left, yet a red win
    found = check_findings(proto)
    assert placed(found) == [
        ("red-win-blacks-left", "error", "Игры", game_cell(proto, RED, "result"))
    ]


def test_every_code_of_these_checks_has_a_test() -> None:
    """One test per finding code (STYLE): each code of §5.2–§5.4 and §4.3 is named in a test."""
    from mafia_sheets.checks import game, names, protests, situations
    from mafia_sheets.findings import CATALOG

    codes = {
        value
        for module in (game, situations, names, protests)
        for value in vars(module).values()
        if isinstance(value, str) and value in CATALOG
    }
    here = Path(__file__).resolve().parent
    tested = "".join(path.read_text("utf-8") for path in here.glob("test_checks_*.py"))
    assert len(codes) == 39
    assert sorted(code for code in codes if f'"{code}"' not in tested) == []


def test_row_level_rules_are_checked_even_in_a_game_with_a_structural_error():
    proto = Proto()
    proto.add_game(1, names("A"), "Чёрные")
    proto.seat(1, 3)["when"] = "Н2"  # when without left: a §5.1 error in this game
    proto.seat(1, 8)["fouls"] = 4  # and, elsewhere in it, four fouls at the table
    proto.seat(1, 9)["left"], proto.seat(1, 9)["when"] = "убит", "Д2"  # a kill by day
    found = {(f.code, f.cell) for f in evaluate([proto.source()], rate=False).findings}
    assert ("when-without-left", seat_cell(proto, 1, 3, "left")) in found
    assert ("four-fouls-stayed", seat_cell(proto, 1, 8, "fouls")) in found
    assert ("kill-in-day", seat_cell(proto, 1, 9, "when")) in found
