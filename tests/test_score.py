"""Points per game (§3) and the coefficient K (§4.1), on exact values."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from builders import Proto, names
from rating_fixture import shown

from mafia_sheets.pipeline import evaluate
from mafia_sheets.rating.score import Units, coefficient_k
from mafia_sheets.rules import load_rules

RULES_DIR = Path(__file__).resolve().parent.parent / "mafia_sheets" / "rules"


def games_frame(results: list[str], annulled: list[bool] | None = None) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "game": [str(i) for i in range(len(results))],
            "result": results,
            "annulled": annulled or [False] * len(results),
        }
    )


def rate(proto: Proto, lang: str = "ru", **options):
    outcome = evaluate([proto.source(lang)], **options)
    assert outcome.errors == 0, [f.code + " " + f.where for f in outcome.findings]
    return outcome.rating


def by_player(rating):
    return {s.player: s for s in rating.standings}


def test_k_worked_example_of_the_regulation():
    # N = 10, red won 7, black 3 → heavy side black, n = 3, K = 1 + (5 − 3)/5 = 1.4
    k = coefficient_k(games_frame(["red"] * 7 + ["black"] * 3), load_rules())
    assert (k.applied, k.value, k.heavy_side, k.games, k.heavy_games) == (
        True,
        Fraction(7, 5),
        "black",
        10,
        3,
    )


def test_k_counts_draws_unless_switched_off():
    results = ["red"] * 5 + ["black"] * 2 + ["draw"] * 3
    with_draws = coefficient_k(games_frame(results), load_rules())
    assert with_draws.games == 10 and with_draws.value == 1 + Fraction(5 - 2, 5)
    rules = load_rules().with_overrides({"draws_in_n": False})
    without = coefficient_k(games_frame(results), rules)
    assert without.games == 7 and without.value == 1 + (Fraction(7, 2) - 2) / Fraction(7, 2)


def test_k_not_applied_on_equal_wins_nor_when_switched_off():
    equal = coefficient_k(games_frame(["red", "black", "draw"]), load_rules())
    assert (equal.applied, equal.heavy_side, equal.reason) == (False, None, "equal_wins")
    off = coefficient_k(
        games_frame(["red", "red", "black"]), load_rules().with_overrides({"apply_k": False})
    )
    assert (off.applied, off.heavy_side, off.reason, off.value) == (False, "black", "option_off", 1)


def test_annulled_games_never_count():
    k = coefficient_k(
        games_frame(["red", "red", "black", "black"], [False, False, False, True]), load_rules()
    )
    assert (k.games, k.annulled, k.black_wins, k.heavy_games) == (3, 1, 1, 1)


def test_heavy_winners_get_k_times_win_points_and_additional_is_never_multiplied():
    proto = Proto()
    for game in range(1, 8):
        proto.add_game(game, names("R"), "Красные")
    for game in range(8, 11):
        proto.add_game(game, names("R"), "Чёрные")
    proto.seat(8, 7)["bonus"] = "ЛИ"  # the don of a heavy (black) win: +1, not × K
    rating = rate(proto)
    assert rating.k.value == Fraction(7, 5)
    don = by_player(rating)["R7"]  # black in every game: 3 black wins at 2 × 1.4
    assert don.win_points == 3 * Fraction(14, 5)
    assert don.additional == 1 and don.total == Fraction(42, 5) + 1
    sheriff = by_player(rating)["R5"]  # red in every game: 7 red wins at 2
    assert sheriff.win_points == 14 and sheriff.wins_don_sheriff == 7


def test_best_move_three_two_and_one_black():
    proto = Proto()
    for game, named in ((1, "3 7 9"), (2, "3,7,4"), (3, "3;4;6")):
        proto.add_game(game, names("P"), "Красные")
        proto.seat(game, 1)["best_move"] = named  # seat 1 is killed at Н1 in a red win
    rating = rate(proto)
    points = shown(rating)
    got = points[points["seat"] == 1].set_index("game")["best_move"].to_dict()
    assert got == {"1": 0.5, "2": 0.25, "3": 0.0}
    assert by_player(rating)["P1"].best_move == Fraction(3, 4)


def test_disqualification_is_minus_one_additional():
    proto = Proto()
    proto.add_game(1, names("D"), "Чёрные")
    proto.seat(1, 4)["left"] = "дисквалифицирован"  # seat 4 leaves Д2 by disqualification
    rating = rate(proto)
    player = by_player(rating)["D4"]
    assert (player.penalties, player.additional, player.total) == (-1, -1, -1)


def test_awards_and_bare_numbers_by_team():
    proto = Proto()
    proto.add_game(1, names("A"), "Красные")
    proto.seat(1, 5)["bonus"] = 1  # red winner: ЛИ +1
    proto.seat(1, 4)["bonus"] = "0,5"  # red winner: ЛИ2 +0.5
    proto.seat(1, 7)["bonus"] = 0.5  # black loser: ЛИП +0.5
    table = by_player(rate(proto))
    assert (table["A5"].awards, table["A4"].awards, table["A7"].awards) == (
        1,
        Fraction(1, 2),
        Fraction(1, 2),
    )


def test_exact_ties_after_k_are_ties():
    """Two players with 2.8 + 0.5 each must tie exactly (no float drift)."""
    proto = Proto()
    for game in range(1, 8):
        proto.add_game(game, names("X", 10, 1 + game * 10), "Красные")
    for game in (8, 9, 10):
        proto.add_game(game, names("Y", 10, game * 10), "Чёрные")
    proto.seat(8, 7)["bonus"] = "ЛИ2"
    proto.seat(9, 7)["bonus"] = "ЛИ2"
    rating = rate(proto)
    table = by_player(rating)
    first, second = table["Y86"], table["Y96"]
    assert first.total == second.total == Fraction(14, 5) + Fraction(1, 2)
    assert {first.place_range, second.place_range} == {"1–2"}


@pytest.mark.parametrize("values,denominator", [({}, 4), ({"best_move_2": Fraction(1, 3)}, 6)])
def test_units_are_exact_for_any_rule_values(values, denominator):
    units = Units.of(load_rules().with_overrides(values))
    assert units.denominator == denominator
    assert (
        units.points(units.values["best_move_2"])
        == load_rules().with_overrides(values).points["best_move_2"]
    )


def test_point_values_come_from_the_tournament_sheet():
    proto = Proto(settings=[("Баллы за победу", 3), ("ЛИ", "0,75")])
    proto.add_game(1, names("S"), "Красные")
    proto.seat(1, 5)["bonus"] = "ЛИ"
    table = by_player(rate(proto))
    assert table["S5"].win_points == 3 and table["S5"].awards == Fraction(3, 4)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"tiebreak": {"order": ["total"]}}, "no key 'points'"),
        (
            {
                **tomllib.loads((RULES_DIR / "fiim.toml").read_text("utf-8")),
                "tiebreak": {"order": ["wins", "total"]},
            },
            "tiebreak.order is ['wins', 'total']",
        ),
    ],
)
def test_a_broken_rules_file_is_a_named_error(monkeypatch, data, said):
    from mafia_sheets import rules
    from mafia_sheets.errors import RulesFileError

    monkeypatch.setattr(rules.tomllib, "loads", lambda _text: data)
    rules._presets.cache_clear()  # the files are parsed once a process
    with pytest.raises(RulesFileError) as caught:
        rules.load_rules()
    assert caught.value.en.startswith("rules/fiim.toml of this installation is broken: ")
    assert said in caught.value.en and said in caught.value.ru


def test_a_points_column_holds_the_exact_value_of_each_sum():
    from mafia_sheets.rating.score import points_column

    units = Units(12, {})
    values = [0, 3, -6, 3, 13, 0, 2**40]
    column = points_column(units, values)
    assert column.dtype == object
    assert column.tolist() == [Fraction(v, 12) for v in values]
    assert all(type(value) is Fraction for value in column)
    assert points_column(units, []).tolist() == []
