"""A seats sheet without «Когда» whose «Выбыл» gives the phase too — «убит Н1», «заголосован
Д2», or a phase alone — is read as the same departures a «Когда» column would give, the
«Выбыл» cell standing for the phase's own; a departure still without a phase is an error
at its cell, advising the phase beside it."""

from __future__ import annotations

from typing import Any

import pytest
from builders import Proto, red_then_black

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.reading.phase_text import departure_and_phase

NO_PHASES = {"seats": ["game", "seat", "player", "role", "fouls", "left", "best_move", "bonus"]}


def phases_in_left(proto: Proto) -> Proto:
    for row in proto.seats:
        if row["left"]:
            row["left"], row["when"] = f"{row['left']} {row['when']}", ""
    return proto


def run(proto: Proto, order: dict[str, list[str]] | None = None) -> Any:
    return evaluate([Source("protocol.xlsx", proto.to_bytes(order=order))])


def totals(outcome: Any) -> list[tuple[str, Any]]:
    return [(s.player, s.total) for s in outcome.rating.standings]


def test_departures_with_their_phase_in_left_rate_as_with_a_when_column():
    with_column = run(red_then_black())
    in_left = run(phases_in_left(red_then_black()), order=NO_PHASES)
    assert in_left.rating is not None
    assert totals(in_left) == totals(with_column)
    assert {f.code for f in in_left.findings} == {f.code for f in with_column.findings}
    absent = [f.message("en") for f in in_left.findings if f.code == "column-absent"]
    assert not any("phase" in said for said in absent)  # the phases are written


def test_a_phase_alone_in_left_is_that_phase_s_departure_said_aloud():
    proto = phases_in_left(red_then_black())
    proto.seat(1, 3)["left"] = "Д1"  # voted out on day 1
    proto.seat(2, 2)["left"] = "н1"  # killed on night 1
    outcome = run(proto, order=NO_PHASES)
    assert outcome.rating is not None
    said = [f for f in outcome.findings if f.code == "departure-read-from-phase"]
    assert [(f.severity, f.sheet, f.cell, f.value) for f in said] == [
        ("warning", "Протокол", "F4", "Д1")
    ]
    assert said[0].also == (("Протокол", "F13"),)
    assert said[0].message("ru").endswith("F4 «Д1» — заголосован в Д1; F13 «н1» — убит в Н1")
    assert totals(outcome) == totals(run(red_then_black()))


def test_a_departure_without_its_phase_is_an_error_at_its_cell():
    proto = phases_in_left(red_then_black())
    proto.seat(1, 1)["left"] = "убит"
    outcome = run(proto, order=NO_PHASES)
    found = [f for f in outcome.findings if f.code == "left-without-when"]
    assert [(f.severity, f.cell, f.value) for f in found] == [("error", "F2", "убит")]  # «Выбыл»
    assert found[0].expected("en") == (
        "the phase beside the departure: “killed N1”, “voted out D2” (the sheet has no When column)"
    )
    assert found[0].hint("ru") == (
        "Допишите фазу в эту ячейку («убит Н1», «заголосован Д2») или добавьте столбец "
        "«Когда»; если игрок не выбывал, очистите ячейку"
    )
    assert outcome.rating is None


def test_a_sheet_whose_left_gives_no_phase_keeps_the_column_s_advice():
    outcome = run(red_then_black(), order=NO_PHASES)
    found = [f for f in outcome.findings if f.code == "left-without-when"]
    assert found[0].hint("en") == "Add a When column and enter each departure's phase in it"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("убит Н1", ("убит", 2, False)),
        ("убита в Н3", ("убита", 6, False)),
        ("killed in N1", ("killed", 2, False)),
        ("заголосован (Д2)", ("заголосован", 3, False)),
        ("Д2", ("заголосован", 3, True)),
        ("2н", ("убит", 4, True)),
        ("убит", None),  # a departure word alone
        ("убитт Н1", None),  # no departure beside the phase
        ("Н", None),  # no phase
    ],
)
def test_a_departure_and_its_phase_are_read_from_one_cell(typed: str, read: Any):
    assert departure_and_phase(typed) == read


def test_the_phase_in_left_beside_a_when_column_blank_or_agreeing_is_read():
    with_column = run(red_then_black())
    blank = run(phases_in_left(red_then_black()))  # «Когда» there, left blank
    agreeing = red_then_black()
    for row in agreeing.seats:
        if row["left"]:
            row["left"] = f"{row['left']} {row['when']}"  # «убит Н1» beside «Н1»
    same = run(agreeing)
    for outcome in (blank, same):
        assert outcome.rating is not None
        assert totals(outcome) == totals(with_column)
        assert {f.code for f in outcome.findings} == {f.code for f in with_column.findings}


def test_the_phase_in_left_beside_another_phase_in_when_is_an_error_at_left():
    proto = red_then_black()
    row = next(r for r in proto.seats if r["left"] == "убит")
    row["left"] = f"убит {row['when']}"
    row["when"] = "Д5"  # says another phase
    outcome = run(proto)
    assert "unknown-value" in {f.code for f in outcome.findings} and outcome.rating is None
