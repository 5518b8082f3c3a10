"""Standings and the tie-break chain of §4.2, each step and the lot."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest
from builders import Proto, names

from mafia_sheets.pipeline import evaluate
from mafia_sheets.rating.rank import LotInput, rank
from mafia_sheets.rules import TIEBREAK_KEYS

BASE = {
    "total": Fraction(5),
    "additional": Fraction(1),
    "wins": 2,
    "wins_don_sheriff": 1,
    "killed_first_night": 1,
}


def player(name: str, **changes) -> dict:
    row = {
        **BASE,
        **changes,
        "player": name,
        "win_points": Fraction(4),
        "best_move": 0,
        "awards": Fraction(1),
        "penalty": 0,
        "games": 3,
    }
    return row


NO_LOT = LotInput({})


def standings(*rows, removed=(), lot=NO_LOT):
    table, apart, status = rank(pd.DataFrame(rows), TIEBREAK_KEYS, set(removed), lot)
    return [(s.player, s.place_range, s.decided_by) for s in table], apart, status


@pytest.mark.parametrize(
    "criterion,better,worse",
    [
        ("total", Fraction(28, 5), Fraction(5)),
        ("additional", Fraction(3, 2), Fraction(1)),
        ("wins", 3, 2),
        ("wins_don_sheriff", 2, 1),
        ("killed_first_night", 2, 1),
    ],
)
def test_each_criterion_separates_players_equal_on_all_before_it(criterion, better, worse):
    rows, _, status = standings(
        player("Б", **{criterion: worse}), player("А", **{criterion: better})
    )
    assert rows == [("А", "1", criterion), ("Б", "2", "total")]
    assert not status.needed


def test_earlier_criterion_wins_over_later():
    rows, _, _ = standings(
        player("А", additional=Fraction(2), wins=1), player("Б", additional=Fraction(1), wins=5)
    )
    assert rows[0][0] == "А" and rows[0][2] == "additional"


def test_full_tie_shares_a_place_range_and_needs_a_lot():
    rows, _, status = standings(
        player("Лидер", total=Fraction(9)),
        player("В"),
        player("Г"),
        player("Хвост", total=Fraction(1)),
    )
    assert rows == [
        ("Лидер", "1", "total"),
        ("В", "2–3", "tied"),
        ("Г", "2–3", "total"),
        ("Хвост", "4", "total"),
    ]
    assert status.needed and status.method == "open" and status.groups == (("В", "Г"),)


def test_lot_sheet_orders_the_tied_players():
    rows, _, status = standings(player("В"), player("Г"), lot=LotInput({"Г": 1, "В": 2}))
    assert rows == [("Г", "1", "lot"), ("В", "2", "total")]
    assert (status.needed, status.method) == (False, "sheet")


def test_lot_sheet_missing_a_tied_player_leaves_the_tie_open():
    rows, _, status = standings(
        player("В"), player("Г"), player("Д"), lot=LotInput({"Г": 1, "В": 2})
    )
    assert {r[1] for r in rows} == {"1–3"} and status.needed
    # listed in lot order as far as the sheet goes, the others after them
    assert [r[0] for r in rows] == ["Г", "В", "Д"] and status.groups == (("Г", "В", "Д"),)


def test_equal_players_are_listed_by_russian_collation():
    """«Ё» sorts with «Е», case does not count: not after «Я» as the code points go."""
    rows, _, status = standings(
        player("Яна"), player("ель"), player("Ёж"), player("Енот"), player("жук")
    )
    assert [r[0] for r in rows] == ["Ёж", "ель", "Енот", "жук", "Яна"]
    assert status.groups == (("Ёж", "ель", "Енот", "жук", "Яна"),)


def test_seeded_lot_is_reproducible_and_ignores_input_order():
    tied = [player(n) for n in ("В", "Г", "Д", "Е")]
    first, _, status = standings(*tied, lot=LotInput({}, seed=7))
    again, _, _ = standings(*reversed(tied), lot=LotInput({}, seed=7))
    assert first == again
    assert [r[1] for r in first] == ["1", "2", "3", "4"]
    assert [r[2] for r in first] == ["lot", "lot", "lot", "total"]
    assert (status.method, status.seed, status.needed) == ("seed", 7, False)


def test_removed_players_get_no_place_and_are_listed_apart():
    rows, apart, _ = standings(player("А", total=Fraction(9)), player("Б"), removed=("А",))
    assert rows == [("Б", "1", "total")]
    assert [(s.player, s.place, s.removed) for s in apart] == [("А", None, True)]


def tie_protocol() -> Proto:
    """Two seats that are equal on every criterion: the sheriffs of two red wins."""
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.add_game(2, names("B"), "Красные")
    return proto


def test_lot_sheet_through_the_whole_pipeline():
    proto = tie_protocol()
    proto.lot = [{"player": "B5", "order": 1}, {"player": "A5", "order": 2}]
    rating = evaluate([proto.source()]).rating
    top = [(s.player, s.place_range, s.decided_by) for s in rating.standings[:2]]
    assert top == [("B5", "1", "lot"), ("A5", "2", "wins_don_sheriff")]
    assert ("B5", "A5") in rating.lot.groups  # in lot order; other full ties stay open


def test_a_lot_sheet_that_misses_a_tied_player_is_a_finding_at_the_sheet():
    """B5 and A5 are tied on every criterion; the sheet names B5 only: the tie stays open
    and the warning points at the row where A5 belongs (row 3, below B5's row 2)."""
    proto = tie_protocol()
    proto.lot = [{"player": "B5", "order": 1}]
    for rate in (True, False):  # `check` ranks the players too when the sheet is filled
        outcome = evaluate([proto.source()], rate=rate)
        found = [f for f in outcome.findings if f.code == "lot-missing-player"]
        assert [(f.sheet, f.cell, f.value, f.severity) for f in found] == [
            ("Жребий", "A3", "A5", "warning")
        ]
    assert found[0].message("ru") == (
        "На листе «Жребий» нет «A5» — 2 игрока делят 1–2 место, и лист эту ничью не решает"
    )
    assert found[0].message("en") == (
        "The Lot sheet lacks “A5” — 2 players share place "
        "1–2, and the sheet does not decide this tie"
    )
    rating = outcome.rating if outcome.rating else evaluate([proto.source()]).rating
    assert [(s.player, s.place_range) for s in rating.standings[:2]] == [
        ("B5", "1–2"),
        ("A5", "1–2"),
    ]  # in lot order as far as the sheet goes
    assert found[0].expected("ru") == "на листе «Жребий» все игроки этой ничьей: B5, A5"


def test_a_lot_sheet_that_names_nobody_of_a_tie_is_no_finding():
    proto = tie_protocol()
    proto.lot = [{"player": "B5", "order": 1}, {"player": "A5", "order": 2}]
    outcome = evaluate([proto.source()], rate=False)
    assert not [f for f in outcome.findings if f.code == "lot-missing-player"]
    assert outcome.rating is None  # `check` does not hand back a rating


def test_removed_player_through_the_roster():
    proto = tie_protocol()
    everyone = sorted({r["player"] for r in proto.seats})
    proto.players = [{"player": n, "removed": "да" if n == "A5" else ""} for n in everyone]
    rating = evaluate([proto.source()]).rating
    assert "A5" not in [s.player for s in rating.standings]
    assert [s.player for s in rating.removed] == ["A5"]
    assert rating.standings[0].player == "B5" and rating.standings[0].place == 1


def test_one_order_given_twice_on_the_lot_sheet_decides_nothing_and_is_said_at_its_cell():
    proto = tie_protocol()
    proto.lot = [{"player": "B5", "order": 1}, {"player": "A5", "order": 1}]
    outcome = evaluate([proto.source()])
    found = [f for f in outcome.findings if f.code == "lot-order-twice"]
    assert [(f.sheet, f.cell, f.value, f.severity, f.also) for f in found] == [
        ("Жребий", "B3", "1", "warning", (("Жребий", "B2"),))
    ]
    assert "B5, A5" in found[0].message("ru") or "A5, B5" in found[0].message("ru")
    top = [(s.player, s.place_range) for s in outcome.rating.standings[:2]]
    assert {p for p, _ in top} == {"A5", "B5"} and {r for _, r in top} == {"1–2"}
    assert outcome.rating.lot.needed  # not settled by name in silence


def test_a_name_on_the_lot_sheet_that_is_no_player_is_said_with_the_look_alike():
    proto = tie_protocol()
    proto.lot = [{"player": "В5", "order": 1}, {"player": "A5", "order": 2}]  # Cyrillic В
    outcome = evaluate([proto.source()], rate=False)
    found = [f for f in outcome.findings if f.code == "lot-unknown-player"]
    assert [(f.sheet, f.cell, f.value) for f in found] == [("Жребий", "A2", "В5")]
    assert "«B5»" in found[0].message("ru") and "“B5”" in found[0].message("en")
