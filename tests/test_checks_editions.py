"""Checks of the editions' values: numeric extras at their limits, the new departures and
penalties, «Доп» marks worth nothing, the «Турнир» rows of an edition — each at its cell."""

from __future__ import annotations

from typing import Any

import pytest
from builders import Proto, game_cell, names, placed, seat_cell, set_departures

from mafia_sheets.pipeline import evaluate

APP = ("Правила", "Приложение судьи 2026")
SITE = ("Правила", "ФИИМ рейтинга 7")


def findings(proto: Proto, lang: str = "ru") -> list[Any]:
    return list(evaluate([proto.source(lang)], rate=False).findings)


def codes(proto: Proto) -> list[tuple[str, str, str, str]]:
    return placed(findings(proto))


def two_games(*settings: tuple[str, Any]) -> Proto:
    proto = Proto(settings=list(settings))
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Чёрные")
    return proto


# ---- numeric extras --------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0,1", "1,1", "-1,1", "0,25", "-3"])
def test_an_extra_outside_the_apps_limits_is_an_error_at_its_cell(value: str) -> None:
    proto = two_games(APP)
    proto.seat(1, 5)["bonus"] = value
    found = findings(proto)
    assert placed(found) == [
        ("extra-out-of-limits", "error", "Протокол", seat_cell(proto, 1, 5, "bonus"))
    ]
    assert "от −1, до 1, шаг 0,1, по модулю от 0,2, также −1,5; −2,1; −2,5" in (
        found[0].expected("ru")
    )


@pytest.mark.parametrize("value", ["0,2", "-0,2", "1", "-1", "0,7", "-1,5", "-2,1", "-2,5"])
def test_every_value_the_app_allows_is_read(value: str) -> None:
    proto = two_games(APP)
    proto.seat(1, 5)["bonus"] = value
    assert codes(proto) == []


@pytest.mark.parametrize("value", [1e20, 1.2345678901234567e-10, "0,0005", "-101"])
def test_an_extra_no_edition_pays_is_an_error_even_without_limits(value: object) -> None:
    proto = two_games(SITE)  # numeric extras with no limits of their own
    proto.seat(1, 5)["bonus"] = value
    found = findings(proto)
    assert placed(found) == [
        ("extra-out-of-limits", "error", "Протокол", seat_cell(proto, 1, 5, "bonus"))
    ]
    assert found[0].expected("en") == "numeric extras: any number up to ±100, to 0.001"
    outcome = evaluate([proto.source()])  # rated: refused by the check, never a crash
    assert outcome.rating is None


def test_limits_of_ones_own_are_settings_and_allow_numbers() -> None:
    proto = two_games(("Доп: минимум", "0"), ("Доп: максимум", "0,5"), ("Доп: шаг", "0,25"))
    proto.seat(1, 5)["bonus"] = "0,25"
    proto.seat(1, 4)["bonus"] = "0,3"
    proto.seat(1, 6)["bonus"] = "-0,25"
    cells = [seat_cell(proto, 1, seat, "bonus") for seat in (4, 6)]
    assert codes(proto) == [("extra-out-of-limits", "error", "Протокол", c) for c in cells]


def test_the_positive_extras_of_a_game_at_most_their_sum() -> None:
    proto = two_games(APP)
    for seat in (1, 2, 4, 5, 6):
        proto.seat(1, seat)["bonus"] = "0,9"  # 4.5 > 4.0
    proto.seat(1, 8)["bonus"] = "-1"  # a negative extra is not part of the sum
    found = findings(proto)
    cells = [seat_cell(proto, 1, seat, "bonus") for seat in (1, 2, 4, 5, 6)]
    assert placed(found) == [("extras-sum-exceeded", "error", "Протокол", c) for c in cells]
    assert found[0].message("ru") == "Положительные допы игры 1 в сумме 4,5 — больше 4"
    proto.seat(1, 6)["bonus"] = "0,4"  # 4.0: the limit itself is allowed
    assert codes(proto) == []


def test_at_most_seven_players_with_extras_in_the_app() -> None:
    proto = two_games(APP)
    for seat in range(1, 9):
        proto.seat(2, seat)["bonus"] = "-0,2" if seat % 2 else "0,2"
    found = findings(proto)
    cells = [seat_cell(proto, 2, seat, "bonus") for seat in range(1, 9)]
    assert placed(found) == [("extras-too-many-players", "error", "Протокол", c) for c in cells]
    assert found[0].message("en") == "Extras for 8 players of game 2"


def test_in_a_draw_the_app_allows_negative_extras_only() -> None:
    proto = Proto(settings=[APP])
    proto.add_game(1, names("D"), "Ничья")
    proto.seat(1, 5)["bonus"] = "-0,5"
    proto.seat(1, 6)["bonus"] = "0,5"
    found = findings(proto)
    assert placed(found) == [
        ("extra-in-draw", "error", "Протокол", seat_cell(proto, 1, 6, "bonus"))
    ]
    assert "только отрицательные допы" in found[0].expected("ru")


def test_without_a_draw_rule_any_extra_in_a_draw_is_an_error_and_the_site_allows_them() -> None:
    own = Proto(settings=[("Доп числом", "да")])
    own.add_game(1, names("D"), "Ничья")
    own.seat(1, 6)["bonus"] = "-0,5"
    assert codes(own) == [("extra-in-draw", "error", "Протокол", seat_cell(own, 1, 6, "bonus"))]
    site = Proto(settings=[SITE])
    site.add_game(1, names("D"), "Ничья")
    site.seat(1, 6)["bonus"] = "0,2"
    assert codes(site) == []


def test_a_number_where_the_rules_hold_awards_only_is_an_error() -> None:
    proto = two_games()
    proto.seat(1, 5)["bonus"] = "0,2"
    found = findings(proto)
    cell = seat_cell(proto, 1, 5, "bonus")
    assert placed(found) == [("bonus-number-not-allowed", "error", "Протокол", cell)]
    assert "«Доп числом» = да" in found[0].hint("ru")


# ---- «Доп» marks the rules pay nothing for ----------------------------------------------


def test_a_mark_worth_nothing_is_said_at_its_cell() -> None:
    proto = two_games(SITE)
    proto.seat(1, 5)["bonus"] = "ЛИ"  # the site's «ФИИМ» has no policy for its best player
    proto.seat(1, 4)["bonus"] = "Лучший ход судьи"
    found = findings(proto)
    cells = [seat_cell(proto, 1, seat, "bonus") for seat in (4, 5)]
    assert sorted(placed(found)) == [
        ("bonus-worth-nothing", "warning", "Протокол", c) for c in cells
    ]
    assert {f.message("ru") for f in found} == {
        "«ЛИ» по правилам «ФИИМ рейтинга 7» не даёт баллов",
        "«Лучший ход судьи» по правилам «ФИИМ рейтинга 7» не даёт баллов",
    }


def test_a_worst_move_without_an_auto_bonus_is_said() -> None:
    proto = two_games()
    proto.seat(1, 4)["bonus"] = "худший ход"
    assert codes(proto) == [
        ("bonus-worth-nothing", "warning", "Протокол", seat_cell(proto, 1, 4, "bonus"))
    ]
    site = two_games(SITE)
    site.seat(1, 4)["bonus"] = "худший ход"  # withholds the site's 0.3
    assert codes(site) == []


def test_a_club_edition_gives_its_best_player_to_either_team_in_a_draw_too() -> None:
    proto = two_games(("Правила", "Club Main"))
    proto.seat(1, 7)["bonus"] = "ЛИ"  # a black loser
    proto.add_game(3, names("C"), "Ничья")
    proto.seat(3, 2)["bonus"] = "ЛИ"
    assert codes(proto) == []
    regulation = two_games()
    regulation.seat(1, 7)["bonus"] = "ЛИ"
    assert codes(regulation) == [
        ("award-to-loser", "error", "Протокол", seat_cell(regulation, 1, 7, "bonus"))
    ]


# ---- departures: a team removal, giving up ---------------------------------------------


def test_a_team_removal_ends_the_game_with_the_other_teams_win() -> None:
    proto = two_games(SITE)
    # game 2: the don is removed with a team loss on day 2, so red wins
    set_departures(
        proto,
        2,
        {1: ("заголосован", "Д1"), 2: ("убит", "Н1"), 7: ("удалён с поражением команды", "Д2")},
    )
    proto.games[1]["result"] = "Красные"
    assert codes(proto) == []
    proto.games[1]["result"] = "Чёрные"
    found = findings(proto)
    assert placed(found) == [
        ("team-removal-result", "error", "Игры", game_cell(proto, 2, "result"))
    ]
    assert found[0].message("ru") == (
        "Результат «Чёрные», но игрок на месте 7 удалён с поражением команды в Д2"
    )
    assert found[0].expected("en") == "a team removal is the other team's win: a red win"


def test_departures_after_a_team_removal_are_after_the_end() -> None:
    proto = two_games(SITE)
    set_departures(
        proto,
        1,
        {3: ("удалён с поражением команды", "Д1"), 1: ("убит", "Н1")},  # red wins at Д1
    )
    assert codes(proto) == [
        ("departure-after-end", "error", "Протокол", seat_cell(proto, 1, 1, "when"))
    ]


def test_team_removals_of_both_teams_in_one_phase_agree_with_no_result() -> None:
    proto = two_games(SITE)
    set_departures(proto, 1, {3: ("team removal", "Д1"), 4: ("team removal", "Д1")})
    found = findings(proto)
    assert placed(found) == [
        ("team-removal-result", "error", "Игры", game_cell(proto, 1, "result"))
    ]
    assert "обеих команд" in found[0].expected("ru")


def test_giving_up_is_a_departure_like_any_other() -> None:
    proto = two_games(SITE)
    proto.seat(2, 4)["left"] = "отказ от игры"  # instead of being voted out on Д2
    assert codes(proto) == []


# ---- the «Турнир» rows of an edition ----------------------------------------------------


def test_a_row_that_changes_a_named_editions_value_is_said_at_its_cell() -> None:
    proto = two_games(SITE, ("Баллы за победу", 2), ("Лучший ход: 3 чёрных", "0,7"))
    found = findings(proto)
    assert placed(found) == [("setting-replaces-edition", "warning", "Турнир", "B3")]
    assert found[0].message("ru") == (
        "«Баллы за победу» = 2 заменяет значение правил «ФИИМ рейтинга 7»: 1"
    )
    plain = two_games(("Баллы за победу", 3))  # no edition named: the regulation's rows
    assert codes(plain) == []


@pytest.mark.parametrize(
    ("setting", "value", "expected"),
    [
        ("Правила", "ФИИМ-2031", "Регламент (regulation); Приложение судьи 2026 (app-2026)"),
        ("Штраф за 4 фола", "0,5", "число не больше 0"),
        ("Доп: шаг", "0", "число больше 0"),
        ("Доп: игроков за игру", "2,5", "целое число от 1"),
        ("Ci: когда", "всегда", "в проигрыше"),
        ("Порядок показателей", "(epg", "(epg)wsk"),
        ("Порядок показателей", "победы, рост", "победы Доном/Шерифом"),
        ("Общие места", "может быть", "подряд"),
        ("Доп: также", "-1,5; пять", "точку с запятой"),
    ],
)
def test_a_value_an_edition_setting_cannot_take_is_a_bad_setting(
    setting: str, value: str, expected: str
) -> None:
    proto = two_games((setting, value))
    found = [f for f in findings(proto) if f.code == "bad-setting"]
    assert [(f.sheet, f.cell) for f in found] == [("Турнир", "B2")]
    assert expected in found[0].expected("ru")


def test_a_ci_reading_that_pays_nothing_is_said_at_its_cell() -> None:
    proto = two_games(("Ci: когда", "в проигрыше"))  # on the regulation: share and cap 0
    found = findings(proto)
    assert placed(found) == [("ci-pays-nothing", "warning", "Турнир", "B2")]
    assert found[0].message("ru") == (
        "Ci включено («в проигрыше»), но его доля и предел = 0: компенсация не платится"
    )
    paid = two_games(("Ci: когда", "в проигрыше"), ("Ci: доля", "0,5"), ("Ci: предел", "0,5"))
    assert codes(paid) == []


def test_one_mark_worth_nothing_is_said_once_marking_every_cell() -> None:
    proto = two_games(SITE)
    proto.seat(1, 5)["bonus"] = "ЛИ"
    proto.seat(2, 7)["bonus"] = "ЛИ"
    found = findings(proto)
    first, second = (seat_cell(proto, g, s, "bonus") for g, s in ((1, 5), (2, 7)))
    assert placed(found) == [("bonus-worth-nothing", "warning", "Протокол", first)]
    assert found[0].also == (("Протокол", second),)
    assert found[0].message("en").endswith(f"(2 cells: {first}, {second})")
