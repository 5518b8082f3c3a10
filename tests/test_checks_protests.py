"""SPEC §4.3, regulation 8.7: the protest deadline, unknown games, pending protests."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from builders import Proto, check_findings, column_letter, game_cell, names, placed, sheet_name

from mafia_sheets.checks.protests import minutes_after
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate


def with_protest(
    ended: Any, filed: Any, decision: str = "отклонён", game: Any = 1, **protest: Any
) -> Proto:
    proto = Proto()
    proto.add_game(1, names("Игрок"), "Красные", ended=ended)
    proto.protests = [
        {
            "game": game,
            "seat": 4,
            "filed": filed,
            "decision": decision,
            "decided_by": "главный судья",
            **protest,
        }
    ]
    return proto


def protest_cell(column: str) -> str:
    return f"{column_letter('protests', column)}2"


def only(proto: Proto, lang: str = "ru") -> list[tuple[str, str, str, str]]:
    return placed(check_findings(proto, lang=lang))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_late_protest(lang: str) -> None:
    proto = with_protest(dt.time(20, 0), dt.time(20, 15))
    found = check_findings(proto, lang=lang)
    assert placed(found) == [
        ("protest-late", "warning", sheet_name("protests", lang), protest_cell("filed"))
    ]
    assert "15" in found[0].message("ru") and "20:00" in found[0].message("en")
    assert "10" in found[0].expected("en")


@pytest.mark.parametrize(
    ("ended", "filed"),
    [
        (dt.time(20, 0), dt.time(20, 10)),  # exactly ten minutes: in time
        (dt.time(23, 55), dt.time(0, 3)),  # after midnight, 8 minutes
        (dt.datetime(2026, 3, 14, 23, 58), dt.datetime(2026, 3, 15, 0, 5)),
        (dt.datetime(2026, 3, 14, 21, 0), dt.time(21, 9)),  # date-time against a bare time
        (dt.time(21, 0), dt.datetime(2026, 3, 14, 21, 9)),
        ("21:00", "21:04"),  # typed as text
    ],
)
def test_protest_in_time(ended: Any, filed: Any) -> None:
    assert only(with_protest(ended, filed)) == []


@pytest.mark.parametrize(
    ("ended", "filed"),
    [
        (dt.time(23, 55), dt.time(0, 9)),  # after midnight, 14 minutes
        (dt.datetime(2026, 3, 14, 23, 58), dt.datetime(2026, 3, 15, 0, 30)),
        (dt.datetime(2026, 3, 14, 21, 0), dt.time(21, 20)),
        (dt.time(21, 0), dt.datetime(2026, 3, 14, 21, 11)),
        (dt.datetime(2026, 3, 14, 21, 0), dt.datetime(2026, 3, 15, 21, 5)),  # the next day
    ],
)
def test_protest_late_across_midnight_and_dates(ended: Any, filed: Any) -> None:
    assert only(with_protest(ended, filed)) == [
        ("protest-late", "warning", "Протесты", protest_cell("filed"))
    ]


def test_deadline_follows_the_rule_set() -> None:
    assert minutes_after(dt.datetime(1900, 1, 1, 0, 3), dt.datetime(1900, 1, 1, 23, 55)) == 8
    assert minutes_after(dt.datetime(1900, 1, 1, 19, 58), dt.datetime(1900, 1, 1, 20, 0)) == -2
    assert minutes_after(None, dt.datetime(1900, 1, 1, 20, 0)) is None


def test_protest_before_the_end_of_the_game() -> None:
    found = check_findings(with_protest(dt.time(20, 0), dt.time(19, 55)))
    assert placed(found) == [("protest-before-end", "warning", "Протесты", protest_cell("filed"))]
    assert "5" in found[0].message("en")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_protest_about_an_unknown_game(lang: str) -> None:
    proto = with_protest(dt.time(20, 0), dt.time(20, 5), game=7)
    assert only(proto, lang) == [
        ("protest-unknown-game", "error", sheet_name("protests", lang), protest_cell("game"))
    ]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_pending_protest_makes_results_provisional(lang: str) -> None:
    proto = with_protest(dt.time(20, 0), dt.time(20, 5), decision="на рассмотрении")
    found = check_findings(proto, lang=lang)
    assert placed(found) == [
        ("protest-pending", "warning", sheet_name("protests", lang), protest_cell("decision"))
    ]
    assert "provisional" in found[0].message("en")
    assert "предварительные" in found[0].message("ru")
    outcome = evaluate([proto.source(lang)])
    assert outcome.rating is not None and outcome.rating.provisional


def test_protest_without_a_decision() -> None:
    proto = with_protest(dt.time(20, 0), dt.time(20, 5), decision="")
    assert only(proto) == [("protest-no-decision", "warning", "Протесты", protest_cell("decision"))]


def test_protest_without_a_filing_time() -> None:
    proto = with_protest(dt.time(20, 0), "")
    assert only(proto) == [("protest-no-time", "warning", "Протесты", protest_cell("filed"))]


def test_protest_about_a_game_without_an_end_time() -> None:
    proto = with_protest("", dt.time(20, 5))
    assert only(proto) == [("game-end-missing", "warning", "Игры", game_cell(proto, 1, "ended"))]


def test_unreadable_times_are_the_parsers_finding_only() -> None:
    proto = with_protest("в восемь", dt.time(20, 5))
    assert [f.code for f in check_findings(proto)] == ["bad-time"]


def test_rejected_protest_in_time_is_clean() -> None:
    proto = with_protest(dt.time(20, 0), dt.time(20, 5))
    outcome = evaluate([Source("p.xlsx", proto.to_bytes("en"))])
    assert outcome.findings == () and outcome.rating is not None
    assert not outcome.rating.provisional
