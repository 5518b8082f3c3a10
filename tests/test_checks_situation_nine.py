"""Special situation 9: a draw after a window of quiet phases starting at a night (SPEC §5.3).

Phases: Д1 = 1, Н1 = 2, Д2 = 3, Н2 = 4 … The default window is five phases (Нk, Д(k+1),
Н(k+1), Д(k+2), Н(k+2)); the «Ничья после фаз без выбываний» setting makes it six or
switches it off. A game that goes on after a complete window gets one warning, at the first
departure after it; the recorded result stands and the game is rated.
"""

from __future__ import annotations

import json
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
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.findings import CATALOG

GAME = 1
SETTING = "Ничья после фаз без выбываний"
# Seats 3, 7, 9 are black; the others red (builders.ROLES).

# The issue's slow game: Д1 vote, then Н1 a miss, Д2 nobody voted out, Н2 a miss, and
# play goes on to a red win. Three quiet phases are not a window of five.
SLOW_RED_WIN = {
    3: ("заголосован", "Д1"),
    7: ("заголосован", "Д3"),
    1: ("убит", "Н3"),
    9: ("заголосован", "Д4"),
}
# Nobody leaves Д1 … Н3 (a quiet opening: Н1, Д2, Н2, Д3, Н3), then two blacks are voted
# out together on Д4 and play goes on to a red win.
QUIET_OPENING = {
    3: ("заголосован", "Д4"),
    7: ("заголосован", "Д4"),
    1: ("убит", "Н4"),
    9: ("заголосован", "Д5"),
}
# Д1 vote, Н1 kill, then Н2, Д3, Н3, Д4, Н4 quiet (Д2 follows a night departure and is no
# part of a window), Д5 vote; then a second quiet run Н5 … Н7 before the last vote on Д8.
QUIET_MIDDLE = {
    3: ("заголосован", "Д1"),
    1: ("убит", "Н1"),
    7: ("заголосован", "Д5"),
    9: ("заголосован", "Д8"),
}
# The window Н2 … Н4 ends right before the departure that decides the game.
QUIET_BEFORE_THE_END = {
    3: ("заголосован", "Д1"),
    1: ("убит", "Н1"),
    7: ("заголосован", "Д2"),
    9: ("заголосован", "Д5"),
}


def game_of(
    result: str, departures: dict[int, tuple[str, str]] | None = None, window: object = None
) -> Proto:
    proto = Proto(settings=None if window is None else [(SETTING, window)])
    proto.add_game(GAME, names("Игрок"), result)
    if departures is not None:
        set_departures(proto, GAME, departures)
    return proto


def missed_at(proto: Proto, seat: int, lang: str = "ru") -> tuple[str, ...]:
    return (
        "draw-missed",
        "warning",
        sheet_name("seats", lang),
        seat_cell(proto, GAME, seat, "when"),
    )


# ---- games that are fine -----------------------------------------------------------------


@pytest.mark.parametrize("window", [None, 5, 6, "нет"])
def test_the_slow_game_of_the_issue_is_clean(window: object) -> None:
    assert check_findings(game_of("Красные", SLOW_RED_WIN, window)) == []


def test_a_quiet_first_day_never_starts_a_window() -> None:
    # Д1, Н1, Д2, Н2, Д3 are five quiet phases, but they start with a day: the window
    # from Н1 (Н1 … Н3) meets the kill on Н3
    departures = {
        1: ("убит", "Н3"),
        3: ("заголосован", "Д4"),
        2: ("убит", "Н4"),
        7: ("заголосован", "Д5"),
        4: ("убит", "Н5"),
        9: ("заголосован", "Д6"),
    }
    assert check_findings(game_of("Красные", departures)) == []


def test_four_quiet_phases_after_a_night_departure_are_fine() -> None:
    # after the Н1 kill: Д2 (no part of a window), Н2, Д3, Н3, Д4 quiet, then the Н4 kill
    departures = {
        3: ("заголосован", "Д1"),
        1: ("убит", "Н1"),
        2: ("убит", "Н4"),
        7: ("заголосован", "Д5"),
        9: ("заголосован", "Д6"),
    }
    assert check_findings(game_of("Красные", departures)) == []


@pytest.mark.parametrize("window", [None, 5, 6])
def test_a_draw_after_a_quiet_end_is_fine(window: object) -> None:
    # the phases after the last departure are not in the protocol: the draw stands
    assert check_findings(game_of("Ничья", window=window)) == []


# ---- a game that went on after a complete window -----------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_quiet_opening_then_play_goes_on(lang: str) -> None:
    proto = game_of("Красные", QUIET_OPENING)
    found = check_findings(proto, lang=lang)
    # one warning for the game, at the first seat row of the two who left on Д4
    assert placed(found) == [missed_at(proto, 3, lang)]
    ru, en = found[0].message("ru"), found[0].message("en")
    assert "Н1, Д2, Н2, Д3, Н3" in ru and "ничьей" in ru and "после Н3" in ru
    assert "N1, D2, N2, D3, N3" in en and "draw" in en and "after N3" in en
    assert "протест" in found[0].expected("ru") and "protest" in found[0].expected("en")
    assert "5" in found[0].expected("en")


def test_a_quiet_run_in_the_middle_gives_one_finding_for_the_game() -> None:
    proto = game_of("Красные", QUIET_MIDDLE)
    found = check_findings(proto)
    assert placed(found) == [missed_at(proto, 7)]  # the second run (Н5 … Н7) adds nothing
    assert "Н2, Д3, Н3, Д4, Н4" in found[0].message("ru")


def test_a_window_right_before_the_deciding_departure() -> None:
    proto = game_of("Красные", QUIET_BEFORE_THE_END)
    assert placed(check_findings(proto)) == [missed_at(proto, 9)]


def test_one_finding_per_game_in_a_tournament() -> None:
    proto = Proto()
    for game, flow in ((1, QUIET_OPENING), (2, SLOW_RED_WIN), (3, QUIET_MIDDLE)):
        proto.add_game(game, names(f"G{game}-"), "Красные")
        set_departures(proto, game, flow)
    found = check_findings(proto)
    assert [(f.code, f.cell) for f in found] == [
        ("draw-missed", seat_cell(proto, 1, 3, "when")),
        ("draw-missed", seat_cell(proto, 3, 7, "when")),
    ]


@pytest.mark.parametrize("flow", [QUIET_OPENING, QUIET_MIDDLE, QUIET_BEFORE_THE_END])
def test_six_phases_let_a_five_phase_window_pass(flow: dict[int, tuple[str, str]]) -> None:
    assert check_findings(game_of("Красные", flow, 6)) == []


@pytest.mark.parametrize("off", ["нет", "no", "НЕТ"])
def test_switched_off_nothing_is_a_window(off: str) -> None:
    assert check_findings(game_of("Красные", QUIET_OPENING, off)) == []


def test_six_quiet_phases_from_a_night_with_setting_six() -> None:
    # nobody leaves Д1 … Д4 (Н1 … Д4 is three nights and three days), then Н4 a kill
    departures = {
        1: ("убит", "Н4"),
        3: ("заголосован", "Д5"),
        7: ("заголосован", "Д6"),
        9: ("заголосован", "Д7"),
    }
    proto = game_of("Красные", departures, 6)
    found = check_findings(proto)
    assert placed(found) == [missed_at(proto, 1)]
    assert "Н1, Д2, Н2, Д3, Н3, Д4" in found[0].message("ru")
    assert "6" in found[0].expected("ru")


# ---- every kind of departure resets the count --------------------------------------------

# Д1 vote of seat 3; without the departure of seat 1, Н1 … Н3 would be a window before the
# vote of seat 7 on Д5.
RESET_BASE = {
    3: ("заголосован", "Д1"),
    7: ("заголосован", "Д5"),
    2: ("убит", "Н5"),
    9: ("заголосован", "Д6"),
}


def test_without_the_reset_the_window_is_complete() -> None:
    proto = game_of("Красные", RESET_BASE)
    assert placed(check_findings(proto)) == [missed_at(proto, 7)]


@pytest.mark.parametrize(
    "left,when",
    [
        ("убит", "Н2"),
        ("заголосован", "Д3"),
        ("4 фола", "Д3"),
        ("4 фола", "Н2"),
        ("дисквалифицирован", "Д3"),
        ("дисквалифицирован", "Н2"),
    ],
)
def test_any_departure_resets_the_count(left: str, when: str) -> None:
    proto = game_of("Красные", {**RESET_BASE, 1: (left, when)})
    if left == "4 фола":
        proto.seat(GAME, 1)["fouls"] = 4
    assert check_findings(proto) == []


# ---- recorded draws ----------------------------------------------------------------------


def test_a_draw_the_departures_decided_stays_an_error() -> None:
    proto = game_of("Ничья", QUIET_BEFORE_THE_END)
    found = placed(check_findings(proto))
    assert sorted(found) == sorted(
        [
            missed_at(proto, 9),
            (
                "draw-already-decided",
                "error",
                sheet_name("games"),
                game_cell(proto, GAME, "result"),
            ),
        ]
    )


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_draw_with_the_rule_switched_off_is_a_warning(lang: str) -> None:
    proto = game_of("Ничья", window="нет")
    found = check_findings(proto, lang=lang)
    assert placed(found) == [
        ("draw-rule-off", "warning", sheet_name("games", lang), game_cell(proto, GAME, "result"))
    ]
    assert CATALOG["draw-rule-off"].severity == "warning"


# ---- end to end: a slow game inside an otherwise clean tournament ------------------------


def slow_tournament(tmp_path: Path, window: object = None) -> Path:
    """Seven games; game 4 has a quiet opening and then goes on to a red win."""
    proto = Proto(settings=None if window is None else [(SETTING, window)])
    results = ["Красные", "Чёрные", "Ничья", "Красные", "Чёрные", "Красные", "Красные"]
    for game, result in enumerate(results, start=1):
        proto.add_game(game, names("P", start=game), result)
    set_departures(proto, 4, QUIET_OPENING)
    path = tmp_path / "slow.xlsx"
    path.write_bytes(proto.to_bytes())
    return path


def test_a_slow_game_in_a_tournament_is_warned_once_and_rated(tmp_path: Path) -> None:
    path = slow_tournament(tmp_path)
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(path), "--json"], catch_exceptions=False)
    report = json.loads(checked.output)
    assert checked.exit_code == 0  # warnings do not fail a check (SPEC §5)
    assert (report["errors"], report["warnings"]) == (0, 1)
    (only,) = report["findings"]
    assert (only["code"], only["severity"], only["sheet"], only["cell"]) == (
        "draw-missed",
        "warning",
        "Протокол",
        "G34",
    )  # game 4, seat 3: 3 × 10 + 3 + header
    rated = runner.invoke(main, ["rate", str(path), "--json"], catch_exceptions=False)
    data = json.loads(rated.output)
    assert rated.exit_code == 0 and data["standings"]
    assert [f["code"] for f in data["findings"]] == ["draw-missed"]
    # every game counts as recorded, game 4 a red win: 4 red wins × 7 + 2 black wins × 3
    assert sum(row["games"] for row in data["standings"]) == 70
    assert sum(row["wins"] for row in data["standings"]) == 4 * 7 + 2 * 3


def test_with_six_phases_the_same_tournament_has_no_finding(tmp_path: Path) -> None:
    path = slow_tournament(tmp_path, 6)
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(path), "--json"], catch_exceptions=False)
    assert checked.exit_code == 0 and json.loads(checked.output)["findings"] == []
    rated = runner.invoke(main, ["rate", str(path), "--json"], catch_exceptions=False)
    data = json.loads(rated.output)
    assert rated.exit_code == 0 and data["findings"] == []
    assert data["settings"]["draw_quiet_phases"] == 6
