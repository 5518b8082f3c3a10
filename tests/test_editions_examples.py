"""The README's worked example of each scoring edition, computed by hand there and here."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from builders import Proto, names

from mafia_sheets.pipeline import evaluate


def standings(proto: Proto) -> dict[str, Any]:
    outcome = evaluate([proto.source()])
    assert outcome.errors == 0, [(f.code, f.cell) for f in outcome.findings]
    return {s.player: s for s in outcome.rating.standings}


def test_the_regulation() -> None:
    proto = Proto()
    for game in range(1, 8):
        proto.add_game(game, names(f"R{game}-"), "Красные")
    for game in range(8, 11):
        proto.add_game(game, names(f"B{game}-"), "Чёрные")
    proto.seat(8, 7)["bonus"] = "ЛИ"  # the Don of a black win
    proto.seat(1, 4)["left"], proto.seat(1, 4)["when"] = "дисквалифицирован", "Д1"
    got = standings(proto)
    assert got["B8-7"].total == 2 * F(7, 5) + 1 == F(19, 5)
    assert got["R1-4"].total == 2 - 1


def site_protocol(edition: str) -> Proto:
    proto = Proto(settings=[("Правила", edition)])
    proto.add_game(1, names("P"), "Чёрные")  # civilian P2 is killed on night 1
    proto.seat(1, 2)["best_move"] = "3 7 4"  # two blacks: 3 (mafia) and 7 (Don)
    proto.seat(1, 2)["bonus"] = "-0,2"
    for game in range(2, 8):
        proto.add_game(game, names("P"), "Красные")
    return proto


@pytest.mark.parametrize(
    ("edition", "total"),
    [
        ("ФИИМ рейтинга 7", 6 + F(1, 2) + 7 * F(3, 10) - F(1, 5) + F(1, 6)),
        ("ФИИМ рейтинга 3", 6 + F(1, 4) - F(1, 5) + F(2, 15)),
        ("ФИИМ рейтинга 1", 6 + F(1, 4) - F(1, 5)),
        ("Приложение судьи 2026", 6 + F(3, 10) - F(1, 5) + F(7, 100)),
    ],
)
def test_the_rating_site_and_the_app_on_one_protocol(edition: str, total: F) -> None:
    got = standings(site_protocol(edition))
    assert got["P2"].total == total
    assert round(float(total), 4) in (8.5667, 6.1833, 6.05, 6.17)


def test_the_difficulty_edition_pays_a_black_win_twelve_sevenths() -> None:
    assert standings(site_protocol("ФИИМ рейтинга 1"))["P7"].total == F(12, 7)


def test_the_app_numbers_shared_places_without_gaps() -> None:
    got = standings(site_protocol("Приложение судьи 2026"))
    assert got["P2"].place_range == "1"
    assert {got[p].place_range for p in ("P1", "P4", "P5", "P6", "P8", "P10")} == {"2"}
    assert {got[p].place_range for p in ("P3", "P7", "P9")} == {"3"}


def test_club_main() -> None:
    proto = Proto(settings=[("Правила", "Club Main")])
    proto.add_game(1, names("C"), "Красные")
    proto.seat(1, 5)["bonus"] = "ЛИ"
    proto.seat(1, 1)["best_move"] = "3 7 9"
    proto.seat(1, 9)["bonus"] = "Лучший ход судьи"
    got = standings(proto)
    assert got["C5"].total == 3 and got["C1"].total == F(5, 2)
    assert got["C7"].total == F(-1, 2) and got["C9"].total == F(1, 4)
