"""The departure timeline (SPEC §5.2 end state) and special situations 1–3, 9, 10 (§5.3)."""

from __future__ import annotations

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

from mafia_sheets.checks.situations import decisions, departure_phases
from mafia_sheets.findings import CATALOG

GAME = 1
# Seats 3, 7, 9 are black; the others red (builders.ROLES).


def game_of(result: str, departures: dict[int, tuple[str, str]] | None = None) -> Proto:
    proto = Proto()
    proto.add_game(GAME, names("Игрок"), result)
    if departures is not None:
        set_departures(proto, GAME, departures)
    return proto


def at_seat(proto: Proto, code: str, seat: int, lang: str = "ru") -> tuple[str, ...]:
    return (
        code,
        CATALOG[code].severity,
        sheet_name("seats", lang),
        seat_cell(proto, GAME, seat, "when"),
    )


def at_result(proto: Proto, code: str, lang: str = "ru") -> tuple[str, ...]:
    return (code, "error", sheet_name("games", lang), game_cell(proto, GAME, "result"))


# ---- end state against the result --------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_red_win_with_a_black_still_at_the_table(lang: str) -> None:
    proto = game_of("Красные")
    proto.seat(GAME, 9).update(left="", when="")
    found = check_findings(proto, lang=lang)
    assert placed(found) == [at_result(proto, "red-win-blacks-left", lang)]
    assert "1" in found[0].message("ru")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_black_win_while_reds_outnumber_blacks(lang: str) -> None:
    proto = game_of("Чёрные")
    proto.seat(GAME, 5).update(left="", when="")  # 4 reds against 3 blacks
    found = check_findings(proto, lang=lang)
    assert placed(found) == [at_result(proto, "black-win-reds-outnumber", lang)]
    assert "4" in found[0].message("en") and "3" in found[0].message("en")


def test_black_win_when_the_departures_gave_red_the_win() -> None:
    proto = game_of(
        "Чёрные",
        {
            3: ("заголосован", "Д1"),
            7: ("заголосован", "Д2"),
            9: ("заголосован", "Д3"),
            1: ("убит", "Н1"),
            2: ("убит", "Н2"),
        },
    )
    assert placed(check_findings(proto)) == [at_result(proto, "black-win-reds-outnumber")]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_draw_although_the_game_was_decided(lang: str) -> None:
    proto = Proto()
    proto.add_game(GAME, names("Игрок"), "Красные")
    proto.games[0]["result"] = "Ничья"  # the departures of a red win
    found = check_findings(proto, lang=lang)
    assert placed(found) == [at_result(proto, "draw-already-decided", lang)]
    assert "Д3" in found[0].message("ru") and "D3" in found[0].message("en")


def test_departure_after_the_game_was_decided() -> None:
    proto = game_of("Красные")
    proto.seat(GAME, 4).update(left="убит", when="Н3")  # the last black left on Д3
    found = check_findings(proto)
    assert placed(found) == [at_seat(proto, "departure-after-end", 4)]
    assert "Д3" in found[0].message("ru")


def test_departures_after_a_black_win() -> None:
    proto = game_of("Чёрные")
    proto.seat(GAME, 6).update(left="заголосован", when="Д3")
    proto.seat(GAME, 8).update(left="убит", when="Н3")
    assert placed(check_findings(proto)) == [
        at_seat(proto, "departure-after-end", 6),
        at_seat(proto, "departure-after-end", 8),
    ]


def test_departures_in_the_deciding_phase_are_simultaneous() -> None:
    # two blacks voted out together on Д2 (a tie, both raised): the game ends on Д2
    proto = game_of(
        "Красные",
        {
            3: ("заголосован", "Д1"),
            1: ("убит", "Н1"),
            7: ("заголосован", "Д2"),
            9: ("заголосован", "Д2"),
        },
    )
    assert check_findings(proto) == []


# Situation 9 (quiet phases and a draw): test_checks_situation_nine.py


def test_timeline_of_a_red_win() -> None:
    proto = game_of("Красные")
    from mafia_sheets.reading.protocol import load_protocol

    protocol, _ = load_protocol(proto.source())
    steps = departure_phases(protocol.tables["seats"].frame)
    assert steps["when"].tolist() == [1, 2, 3, 4, 5]
    assert steps["reds"].tolist() == [7, 6, 6, 5, 5]
    assert steps["blacks"].tolist() == [2, 2, 1, 1, 0]
    decided = decisions(steps)
    assert decided.loc["1", "phase"] == 5 and decided.loc["1", "outcome"] == "red"


# ---- situations 1–3: the vote after a player leaves by fouls -----------------------------


def test_foul_out_by_day_and_a_vote_out_the_same_day() -> None:
    proto = game_of("Красные")
    proto.seat(GAME, 4).update(left="4 фола", when="Д2", fouls=4)  # seat 7 voted out on Д2
    findings = check_findings(proto)
    assert all("seat 4" in f.message("en") and "месте 4" in f.message("ru") for f in findings)
    found = placed(findings)
    # situation 1 (that day's vote) or, if the foul came after its result, situation 2
    # (the next day's vote): either way one of the two votes should not have happened
    assert found == [
        at_seat(proto, "vote-after-foul-out", 7),
        at_seat(proto, "vote-after-foul-out-next", 9),
    ]
    assert all(f[1] == "warning" for f in found)


def test_disqualified_at_night_and_a_vote_out_next_day() -> None:
    proto = game_of(
        "Чёрные",
        {
            1: ("заголосован", "Д1"),
            2: ("убит", "Н1"),
            6: ("дисквалифицирован", "Н1"),
            4: ("заголосован", "Д2"),
        },
    )
    found = check_findings(proto)
    assert placed(found) == [at_seat(proto, "vote-after-foul-out", 4)]
    assert "Н1" in found[0].message("ru") and "N1" in found[0].message("en")


# Д1 vote, Н1 kill, Д2 vote: 4 reds, 3 blacks — the blacks need only a kill to win.
ONLY_A_KILL = {
    1: ("заголосован", "Д1"),
    2: ("убит", "Н1"),
    4: ("заголосован", "Д2"),
    5: ("убит", "Н2"),
    7: ("заголосован", "Д3"),
    6: ("убит", "Н3"),
    9: ("заголосован", "Д4"),
}


def test_situation_three_a_black_fouls_out_when_only_a_kill_was_needed() -> None:
    departures = {**ONLY_A_KILL, 3: ("4 фола", "Н2")}
    proto = game_of("Красные", departures)
    proto.seat(GAME, 3)["fouls"] = 4
    assert check_findings(proto) == []


def test_black_fouls_out_when_more_than_a_kill_was_needed() -> None:
    departures = {
        1: ("заголосован", "Д1"),
        2: ("убит", "Н1"),
        3: ("4 фола", "Н1"),
        4: ("заголосован", "Д2"),
        5: ("убит", "Н2"),
        7: ("заголосован", "Д3"),
        6: ("убит", "Н3"),
        9: ("заголосован", "Д4"),
    }
    proto = game_of("Красные", departures)
    proto.seat(GAME, 3)["fouls"] = 4
    assert placed(check_findings(proto)) == [at_seat(proto, "vote-after-foul-out", 4)]


def test_foul_out_by_day_without_a_vote_that_day_is_fine() -> None:
    proto = game_of("Чёрные")
    proto.seat(GAME, 6).update(left="4 фола", when="Д1", fouls=4)
    proto.seat(GAME, 1).update(left="", when="")  # no vote on Д1 then
    assert check_findings(proto) == []


# ---- situation 10: a vote that removes everyone ------------------------------------------


def test_vote_removing_every_player_at_the_table() -> None:
    departures = {
        3: ("заголосован", "Д1"),
        1: ("убит", "Н1"),
        7: ("заголосован", "Д2"),
        2: ("убит", "Н2"),
        4: ("заголосован", "Д3"),
        5: ("убит", "Н3"),
        6: ("заголосован", "Д4"),
        8: ("заголосован", "Д5"),
        9: ("заголосован", "Д5"),
        10: ("заголосован", "Д5"),
    }
    proto = game_of("Красные", departures)  # 8, 9, 10 were the last three at the table
    found = check_findings(proto)
    assert placed(found) == [at_seat(proto, "vote-removed-everyone", 8)]
    assert found[0].severity == "warning"


def test_two_voted_out_together_is_fine() -> None:
    proto = game_of(
        "Красные",
        {
            3: ("заголосован", "Д1"),
            1: ("убит", "Н1"),
            7: ("заголосован", "Д2"),
            4: ("заголосован", "Д2"),
            2: ("убит", "Н2"),
            9: ("заголосован", "Д3"),
        },
    )
    assert check_findings(proto) == []


# ---- a departure whose phase the sheet does not give ------------------------------------


def test_a_disqualification_of_unknown_phase_is_counted_and_said_where_it_matters() -> None:
    """`?` in «Когда» (a blank's «Дисквалифицирован» row has no place for the phase): the
    −1 counts, the game is still judged, and situations 1–2, which need the moment, say
    they were not checked for it — a warning, never a blocking error."""
    from mafia_sheets.pipeline import evaluate

    proto = game_of("Красные")
    proto.seat(GAME, 4).update(left="дисквалифицирован", when="?")
    found = check_findings(proto)
    assert placed(found) == [at_seat(proto, "phase-not-recorded", 4)]
    assert found[0].message("en").startswith("The phase the player in seat 4 left in")
    rating = evaluate([proto.source()]).rating
    assert rating is not None
    assert {s.player: s.penalties for s in rating.standings}["Игрок4"] == -1


def test_the_last_black_disqualified_in_an_unknown_phase_ends_the_game() -> None:
    proto = game_of(
        "Красные",
        {
            3: ("заголосован", "Д1"),
            1: ("убит", "Н1"),
            7: ("заголосован", "Д2"),
            9: ("дисквалифицирован", "?"),
        },
    )
    assert placed(check_findings(proto)) == [at_seat(proto, "phase-not-recorded", 9)]


def test_an_unknown_phase_is_no_phase_for_a_kill_or_a_vote() -> None:
    proto = game_of("Красные")
    proto.seat(GAME, 1)["when"] = "?"  # killed — on which night decides the best move
    assert ("left-without-when", "error") in {(f.code, f.severity) for f in check_findings(proto)}


# ---- games that record only some departures (an online platform's) ----------------------


def test_a_game_recording_some_departures_is_judged_by_what_is_recorded() -> None:
    """Only the first night's victim recorded, as the platforms keep games: no end-state
    error for the blacks «still at the table», no 4-foul error; one warning, at the mark."""
    proto = Proto()
    for game in (1, 2):
        proto.add_game(game, names(f"G{game}-"), "Красные", departures="не все")
        set_departures(proto, game, {2: ("убит", "Н1")})
    proto.seat(2, 4)["fouls"] = 4
    found = check_findings(proto)
    assert placed(found) == [
        ("departures-partial", "warning", "Игры", game_cell(proto, 1, "departures"))
    ]
    (notice,) = found
    assert notice.also == (("Игры", game_cell(proto, 2, "departures")),)
    assert "в 2 играх" in notice.message("ru") and "in 2 games" in notice.message("en")


def test_a_partial_game_keeps_the_checks_of_what_it_records() -> None:
    proto = Proto()
    proto.add_game(GAME, names("A"), "Красные", departures="partial")
    set_departures(proto, GAME, {2: ("убит", "Д1"), 4: ("убит", "Д2")})
    codes = {f.code for f in check_findings(proto)}
    assert {"kill-in-day", "departures-partial"} <= codes
    assert "red-win-blacks-left" not in codes


def test_a_full_game_is_still_judged_whole() -> None:
    proto = Proto()
    proto.add_game(GAME, names("A"), "Красные", departures="все")
    set_departures(proto, GAME, {2: ("убит", "Н1")})
    assert [f.code for f in check_findings(proto)] == ["red-win-blacks-left"]
