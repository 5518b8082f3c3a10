"""The two open readings of the regulation as «Турнир» settings (SPEC §2.1): special
situation 9's window and the win points of a disqualified winner (8.2.1 with 8.2.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from builders import Proto, check_findings, names, placed, set_departures
from rating_fixture import shown

from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.protocol import load_protocol
from mafia_sheets.report.json import rating_json
from mafia_sheets.report.sheets.summary import summary_lines

# ---- parsing the settings ----------------------------------------------------------------


def rules_of(*settings: tuple[object, object]):
    proto = Proto(settings=list(settings))
    proto.add_game(1, names("A"), "Красные")
    protocol, findings = load_protocol(proto.source())
    return protocol.rules, findings


@pytest.mark.parametrize(
    "name",
    [
        "Ничья после фаз без выбываний",
        "Draw after quiet phases",
        "  ничья ПОСЛЕ фаз  без выбываний ",
        "DRAW AFTER QUIET PHASES",
    ],
)
@pytest.mark.parametrize(
    "value,window",
    [(5, 5), (6, 6), ("6", 6), (" 5 ", 5), (6.0, 6), ("нет", 0), ("НЕТ", 0), ("no", 0), ("No", 0)],
)
def test_quiet_window_setting(name: str, value: object, window: int) -> None:
    rules, findings = rules_of((name, value))
    assert findings == [] and rules.draw_quiet_phases == window


def test_quiet_window_defaults_to_five_and_a_blank_keeps_it() -> None:
    assert rules_of()[0].draw_quiet_phases == 5
    assert rules_of(("Ничья после фаз без выбываний", ""))[0].draw_quiet_phases == 5


@pytest.mark.parametrize("value", [3, 4, 7, "5,5", "да", "yes", "пять", "7 фаз"])
def test_a_bad_quiet_window_is_an_error_at_its_cell(value: object) -> None:
    proto = Proto(settings=[("Название", "Кубок"), ("Ничья после фаз без выбываний", value)])
    proto.add_game(1, names("A"), "Красные")
    found = check_findings(proto)
    assert placed(found) == [("bad-setting", "error", "Турнир", "B3")]
    assert "5, 6" in found[0].expected("ru") and "5, 6 or no" in found[0].expected("en")


@pytest.mark.parametrize(
    "name",
    ["Победа при дисквалификации", "Win points when disqualified", "ПОБЕДА ПРИ  ДИСКВАЛИФИКАЦИИ"],
)
@pytest.mark.parametrize(
    "value,keep", [("да", True), ("yes", True), ("нет", False), ("no", False), ("Нет", False)]
)
def test_win_when_disqualified_setting(name: str, value: str, keep: bool) -> None:
    rules, findings = rules_of((name, value))
    assert findings == [] and rules.win_when_disqualified is keep


def test_win_when_disqualified_defaults_to_yes_and_a_bad_value_is_an_error() -> None:
    assert rules_of()[0].win_when_disqualified is True
    proto = Proto(settings=[("Победа при дисквалификации", "иногда")])
    proto.add_game(1, names("A"), "Красные")
    assert placed(check_findings(proto)) == [("bad-setting", "error", "Турнир", "B2")]


# ---- win points of a disqualified winner -------------------------------------------------

# Game 1, a red win: A4 (a red civilian) is disqualified on Д1, so nobody is voted out
# that day; then the reds vote out 3, 7, 9 while the mafia kill 1, 2, 5.
DISQUALIFIED_RED_WIN = {
    4: ("дисквалифицирован", "Д1"),
    1: ("убит", "Н1"),
    3: ("заголосован", "Д2"),
    2: ("убит", "Н2"),
    7: ("заголосован", "Д3"),
    5: ("убит", "Н3"),
    9: ("заголосован", "Д4"),
}


def disqualified_tournament(keep: str | None) -> Proto:
    """Red wins game 1, black wins games 2 and 3: red is the heavy side, n = 1, N = 3,
    K = 1 + (3/2 − 1)/(3/2) = 4/3 on the red win."""
    proto = Proto(settings=None if keep is None else [("Победа при дисквалификации", keep)])
    proto.add_game(1, names("A"), "Красные")
    set_departures(proto, 1, DISQUALIFIED_RED_WIN)
    proto.add_game(2, names("B"), "Чёрные")
    proto.add_game(3, names("C"), "Чёрные")
    return proto


def standings(proto: Proto):
    outcome = evaluate([proto.source()])
    assert outcome.findings == ()
    assert outcome.rating is not None and outcome.rating.k.value == Fraction(4, 3)
    return outcome.rating, {s.player: s for s in outcome.rating.standings}


@pytest.mark.parametrize("keep", [None, "да"])
def test_a_disqualified_winner_keeps_the_win_points_by_default(keep: str | None) -> None:
    _, table = standings(disqualified_tournament(keep))
    a4 = table["A4"]
    # 2 × 4/3 = 8/3 for the heavy win, −1 for the disqualification
    assert (a4.win_points, a4.penalties, a4.additional, a4.total) == (
        Fraction(8, 3),
        Fraction(-1),
        Fraction(-1),
        Fraction(5, 3),
    )
    assert a4.wins == 1 and table["A6"].total == Fraction(8, 3)


def test_a_disqualified_winner_loses_the_win_points_when_switched_off() -> None:
    rating, table = standings(disqualified_tournament("нет"))
    a4 = table["A4"]
    assert (a4.win_points, a4.penalties, a4.additional, a4.total) == (
        Fraction(0),
        Fraction(-1),
        Fraction(-1),
        Fraction(-1),
    )
    assert a4.wins == 1  # the game was still won by his team (tie-break 8.6.2)
    # his teammates, the losers and the other games are unchanged
    assert table["A6"].total == Fraction(8, 3) and table["A3"].total == 0
    assert table["B3"].total == 2 and table["B1"].total == 0
    points = shown(rating)
    row = points[points["player"] == "A4"].iloc[0]  # the «Баллы» sheet
    assert (bool(row["win"]), row["win_points"], row["total"]) == (True, 0.0, -1.0)


# ---- echoed on Сводка and in rate --json -------------------------------------------------


def test_options_are_echoed_on_the_summary_and_in_json() -> None:
    proto = disqualified_tournament("нет")
    proto.settings = [
        ("Победа при дисквалификации", "нет"),
        ("Ничья после фаз без выбываний", "нет"),
    ]
    rating, _ = standings(proto)
    lines = {item: (value, note) for item, value, note in summary_lines(rating, "ru")}
    assert lines["Ничья после фаз без выбываний"] == ("нет", "задано турниром")
    assert lines["Победа при дисквалификации"][0] == "нет"
    en = {item: value for item, value, _ in summary_lines(rating, "en")}
    assert en["Draw after quiet phases"] == "no" and en["Win points when disqualified"] == "no"
    settings = rating_json(rating)["settings"]
    assert settings["draw_quiet_phases"] is None and settings["win_when_disqualified"] is False


def test_the_default_window_is_shown_as_a_number() -> None:
    rating, _ = standings(disqualified_tournament(None))
    lines = {item: (value, note) for item, value, note in summary_lines(rating, "en")}
    assert lines["Draw after quiet phases"] == (5, "")
    assert rating_json(rating)["settings"]["draw_quiet_phases"] == 5


def test_a_best_move_counts_in_a_draw() -> None:
    # 8.4.5 (no additional points in a draw) is about the judge's awards of 8.4; the best
    # move is 8.3: the red player killed on Н1 naming all three blacks gets +0.5
    proto = Proto()
    proto.add_game(1, names("D"), "Ничья")  # seat 1 voted out on Д1, seat 2 killed on Н1
    proto.seat(1, 2)["best_move"] = "3 7 9"
    outcome = evaluate([proto.source()])
    assert outcome.findings == ()
    d2 = {s.player: s for s in outcome.rating.standings}["D2"]
    assert (d2.best_move, d2.win_points, d2.total) == (Fraction(1, 2), 0, Fraction(1, 2))
