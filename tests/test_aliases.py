"""«Другие ники» / «Also known as»: a player who changes their name is one player."""

from __future__ import annotations

import io

import openpyxl
from builders import Proto, names

from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.json import outcome_json
from mafia_sheets.report.sheets.summary import summary_lines
from mafia_sheets.report.xlsx import results_workbook


def renamed(aliases: dict[str, str], extra: list[dict[str, str]] = ()) -> Proto:
    """Four games; «Кот» plays games 1–2 as «Кот», games 3–4 as «Котик»."""
    proto = Proto()
    others = names("P", 9)
    for game in (1, 2, 3, 4):
        proto.add_game(game, ["Кот" if game < 3 else "Котик", *others])
    proto.players = [{"player": "Кот", "aliases": aliases.get("Кот", "")}]
    proto.players += [{"player": n, "aliases": aliases.get(n, "")} for n in others]
    proto.players += list(extra)
    return proto


def codes(outcome) -> list[str]:
    return [f.code for f in outcome.findings]


def test_a_renamed_player_is_one_row_and_the_merge_is_said():
    outcome = evaluate([renamed({"Кот": "Котик, Kot"}).source()])
    assert outcome.errors == 0
    rating = outcome.rating
    cat = next(s for s in rating.standings if s.player == "Кот")
    assert cat.games == 4 and "Котик" not in {s.player for s in rating.standings}
    merged = next(f for f in outcome.findings if f.code == "alias-merged")
    assert (merged.sheet, merged.cell, merged.severity) == ("Протокол", "C22", "warning")
    assert "Кот" in merged.message("ru") and "Котик" in merged.message("en")
    assert rating.merged == (("Кот", ("Котик",)),)
    lines = summary_lines(rating, "ru")
    assert ("Кот", "Котик", "засчитаны этому игроку") in lines
    assert outcome_json(outcome, "en")["merged"] == [{"player": "Кот", "spellings": ["Котик"]}]
    book = openpyxl.load_workbook(io.BytesIO(results_workbook(rating, "en")))
    values = [c for row in book["Summary"].iter_rows(values_only=True) for c in row if c]
    assert "Merged nicknames («Also known as»)" in values and "Котик" in values


def test_without_the_alias_the_two_spellings_are_two_strangers():
    outcome = evaluate([renamed({}).source()])
    assert "not-in-roster" in codes(outcome) and outcome.rating is None


def test_a_nickname_listed_for_two_players_is_an_error_at_both_cells():
    proto = renamed({"Кот": "Котик", "P1": "Котик"})
    outcome = evaluate([proto.source()])
    twice = [f for f in outcome.findings if f.code == "alias-twice"]
    # the roster rows of «Кот» (row 2) and «P1» (row 3); «Другие ники» is column E
    assert [(f.sheet, f.cell) for f in twice] == [("Игроки", "E2"), ("Игроки", "E3")]
    assert "P1" in twice[0].message("ru") and "Кот" in twice[1].message("en")
    assert outcome.rating is None  # nothing merged: «Котик» is not in the roster


def test_an_alias_that_is_another_players_nickname_merges_nothing():
    proto = renamed({"Кот": "P2"})
    outcome = evaluate([proto.source()])
    found = next(f for f in outcome.findings if f.code == "alias-is-player")
    assert (found.sheet, found.cell, found.value) == ("Игроки", "E2", "P2")
    assert outcome.rating is None


def test_over_a_season_one_files_roster_names_the_other_files_spelling():
    march = Proto()
    april = Proto()
    others = names("P", 9)
    march.add_game(1, ["Кот", *others])
    april.add_game(1, ["Kot", *others])
    march.players = [{"player": n} for n in others] + [{"player": "Кот", "aliases": "Kot"}]
    outcome = evaluate([march.source(name="march.xlsx"), april.source(name="april.xlsx")])
    assert outcome.errors == 0
    assert next(s for s in outcome.rating.standings if s.player == "Кот").games == 2
