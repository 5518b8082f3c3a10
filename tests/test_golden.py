"""The shipped sample against its standings computed by hand (samples/*.expected.toml)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.json import outcome_json

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
EXPECTED = tomllib.loads((SAMPLES / "tournament.expected.toml").read_text("utf-8"))
EXACT = ("total", "win_points", "additional", "best_move", "awards", "penalties")
COUNTS = (
    "place",
    "place_range",
    "games",
    "wins",
    "wins_don_sheriff",
    "killed_first_night",
    "decided_by",
)


def rating_of(name: str):
    path = SAMPLES / name
    outcome = evaluate([Source(path.name, path.read_bytes())])
    assert outcome.errors == 0
    return outcome


LAYOUTS = ["tournament-blank-ru.xlsx", "tournament-wide-ru.xlsx"]


@pytest.fixture(scope="module", params=["tournament-ru.xlsx", "tournament-en.xlsx", *LAYOUTS])
def outcome(request):
    return rating_of(request.param)


def test_the_sample_is_clean(outcome):
    assert [f.code for f in outcome.findings] == []


def test_k_matches_the_hand_computation(outcome):
    k, expected = outcome.rating.k, EXPECTED["k"]
    assert (k.applied, k.value, k.heavy_side, k.games, k.heavy_games) == (
        expected["applied"],
        Fraction(expected["value"]),
        expected["heavy_side"],
        expected["games"],
        expected["heavy_games"],
    )


def test_every_row_matches_exactly(outcome):
    rows = outcome.rating.standings
    expected = EXPECTED["standings"]
    assert len(rows) == len(expected)
    for row, want in zip(rows, expected, strict=True):
        for field in EXACT:
            if want["place_range"] == row.place_range:  # a shared range may list either first
                peers = [w for w in expected if w["place_range"] == row.place_range]
                want = next(w for w in peers if w["player"] == row.player)
            assert getattr(row, field) == Fraction(want[field]), (row.player, field)
        for field in (
            "games",
            "wins",
            "wins_don_sheriff",
            "killed_first_night",
            "place",
            "place_range",
        ):
            assert getattr(row, field) == want[field], (row.player, field)
    assert [r.decided_by for r in rows] == [w["decided_by"] for w in expected]
    assert [{r.player for r in rows if r.place_range == w["place_range"]} for w in expected] == [
        {v["player"] for v in expected if v["place_range"] == w["place_range"]} for w in expected
    ]


def test_removed_and_lot_and_json(outcome):
    rating = outcome.rating
    assert [s.player for s in rating.removed] == [r["player"] for r in EXPECTED["removed"]]
    assert rating.lot.needed == EXPECTED["lot"]["needed"]
    data = outcome_json(outcome)
    assert data["tournament"]["name"] == EXPECTED["tournament"]["name"]
    assert data["lot_needed"] is EXPECTED["lot"]["needed"]
    for row, want in zip(data["standings"], EXPECTED["standings"], strict=True):
        if row["place_range"] == str(row["place"]):
            assert row["total"] == round(float(Fraction(want["total"])), 4)


def test_ru_and_en_samples_agree():
    ru = outcome_json(rating_of("tournament-ru.xlsx"))
    en = outcome_json(rating_of("tournament-en.xlsx"))
    assert ru["standings"] == en["standings"] and ru["k"] == en["k"]


@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("tournament-ru.xlsx", "rows"),
        ("tournament-blank-ru.xlsx", "blank"),
        ("tournament-wide-ru.xlsx", "wide"),
    ],
)
def test_each_layout_of_the_sample_is_detected_and_gives_the_same_json(name, layout):
    outcome = rating_of(name)
    assert outcome.reading[0].layout == layout and outcome.reading[0].games == 20
    data, rows = outcome_json(outcome), outcome_json(rating_of("tournament-ru.xlsx"))
    assert data["read"][0]["layout"] == layout
    assert data["standings"] == rows["standings"] and data["k"] == rows["k"]
