"""Scoring editions: each value of a preset, computed by hand on small protocols.

Every expectation here is worked out in the comments from the edition's own rules (its
preset file names the source); nothing is taken from the product's output.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pandas as pd
import pytest
from builders import Proto, names, set_departures
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.errors import SeasonConflictError
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.rating.rank import LotInput, rank
from mafia_sheets.rating.score import ci_base, ci_divisor
from mafia_sheets.report.json import outcome_json
from mafia_sheets.report.sheets.summary import summary_lines
from mafia_sheets.rules import RULE_KEYS, load_rules, parse_order, presets

SITE = ("Правила", "ФИИМ рейтинга 7")
APP = ("Правила", "Приложение судьи 2026")


def rate(proto: Proto, lang: str = "ru") -> Any:
    outcome = evaluate([proto.source(lang)])
    assert outcome.errors == 0, [(f.code, f.cell, f.message("en")) for f in outcome.findings]
    return outcome.rating


def table(proto: Proto) -> dict[str, Any]:
    return {s.player: s for s in rate(proto).standings}


# ---- penalties ---------------------------------------------------------------------------


def penalties_protocol(*settings: tuple[str, Any]) -> Proto:
    """A 4th foul (A9), a disqualification (B4), a team removal (C7) and a give-up (D1)."""
    proto = Proto(settings=list(settings))
    proto.add_game(1, names("A"), "Красные")
    proto.seat(1, 9).update(fouls=4, left="4 фола")  # leaves on Д3 instead of the vote
    proto.add_game(2, names("B"), "Чёрные")
    proto.seat(2, 4)["left"] = "дисквалифицирован"  # Д2
    proto.add_game(3, names("C"), "Красные")
    set_departures(
        proto,
        3,
        {1: ("заголосован", "Д1"), 2: ("убит", "Н1"), 7: ("удалён с поражением команды", "Д2")},
    )
    proto.add_game(4, names("D"), "Чёрные")
    proto.seat(4, 1)["left"] = "отказ от игры"  # Д1
    return proto


def test_the_sites_penalties_by_how_the_player_left() -> None:
    # v7: 4 warnings, kick-out, give-up −0.5; team kick-out −0.7
    got = table(penalties_protocol(SITE))
    assert [got[p].penalties for p in ("A9", "B4", "C7", "D1")] == [
        F(-1, 2),
        F(-1, 2),
        F(-7, 10),
        F(-1, 2),
    ]
    # the disqualified B4 lost: no win points; the team removal cost C7's team the game
    assert got["C7"].win_points == 0 and got["C1"].win_points == 1


def test_the_regulations_penalties_a_team_removal_is_a_disqualification() -> None:
    got = table(penalties_protocol())
    assert [got[p].penalties for p in ("A9", "B4", "C7", "D1")] == [0, -1, -1, 0]


def test_every_penalty_is_a_setting() -> None:
    proto = penalties_protocol(
        ("Штраф за 4 фола", "-0,25"),
        ("Штраф за удаление команды", "-2"),
        ("Штраф за отказ от игры", "-0,75"),
    )
    got = table(proto)
    assert [got[p].penalties for p in ("A9", "B4", "C7", "D1")] == [F(-1, 4), -1, -2, F(-3, 4)]
    assert got["C7"].additional == -2 and got["C7"].total == -2


# ---- extras ------------------------------------------------------------------------------


def test_numbers_in_dop_are_the_judges_extras_where_the_rules_allow_them() -> None:
    proto = Proto(settings=[SITE])
    proto.add_game(1, names("A"), "Красные")
    proto.seat(1, 5)["bonus"] = 1  # a number, not ЛИ: +1
    proto.seat(1, 7)["bonus"] = "0,5"  # a number, not ЛИП: +0.5
    proto.seat(1, 4)["bonus"] = "-0,3"
    proto.seat(1, 6)["bonus"] = "Худший ход"  # withholds the 0.3 auto-bonus
    got = table(proto)
    # v7: every player +0.3 a game (unless a worst move), plus the judge's number
    assert got["A5"].awards == F(13, 10) and got["A7"].awards == F(8, 10)
    assert got["A4"].awards == 0 and got["A6"].awards == 0 and got["A8"].awards == F(3, 10)
    # extras are additional points, never multiplied; the win is 1
    assert got["A5"].total == 1 + F(13, 10)


def test_the_club_editions_best_player_and_best_move_title_go_to_anyone() -> None:
    proto = Proto(settings=[("Правила", "Club Main")])
    proto.add_game(1, names("A"), "Красные")
    proto.seat(1, 7)["bonus"] = "ЛИ"  # best player +0.5, here the losing don
    proto.seat(1, 5)["bonus"] = "лучший ход судьи"  # the judge's best move +0.25
    got = table(proto)
    assert got["A7"].awards == F(1, 2) and got["A5"].awards == F(1, 4)


# ---- best move ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "points"), [("3 4 6", F(1, 10)), ("3 7 6", F(3, 10)), ("3 7 9", F(6, 10))]
)
def test_the_apps_best_move_for_one_two_three_blacks(named: str, points: F) -> None:
    proto = Proto(settings=[APP])
    proto.add_game(1, names("A"), "Красные")
    proto.seat(1, 1)["best_move"] = named  # seat 1 is killed on Н1 in a red win
    assert table(proto)["A1"].best_move == points


def black_victim(*settings: tuple[str, Any]) -> Proto:
    """A red win in which the mafia kill their own seat 3 on night 1; he names 7 9 1."""
    proto = Proto(settings=list(settings))
    proto.add_game(1, names("A"), "Красные")
    set_departures(
        proto,
        1,
        {
            1: ("заголосован", "Д1"),
            3: ("убит", "Н1"),
            7: ("заголосован", "Д2"),
            9: ("заголосован", "Д3"),
        },
    )
    proto.seat(1, 3)["best_move"] = "7 9 1"  # two blacks
    return proto


def test_who_may_earn_the_best_move_is_a_setting() -> None:
    assert table(black_victim(APP))["A3"].best_move == 0  # red players only
    anyone = black_victim(APP, ("Лучший ход: кому", "всем"))
    assert table(anyone)["A3"].best_move == F(3, 10)


# ---- win points by role, loss and draw points ----------------------------------------------


def test_club_main_pays_roles_apart_and_a_lost_sheriff_or_don_loses_half_a_point() -> None:
    proto = Proto(settings=[("Правила", "Club Main")])
    proto.add_game(1, names("P"), "Красные")
    proto.add_game(2, names("P"), "Чёрные")
    proto.add_game(3, names("P"), "Ничья")
    got = table(proto)
    # civilian P1: 2 (red win) + 0 + 0; sheriff P5: 2.5 − 0.5 + 0; mafia P3: 0 + 2 + 0;
    # don P7: −0.5 + 2.5 + 0 (a draw is neither a win nor a loss)
    assert [got[p].win_points for p in ("P1", "P5", "P3", "P7")] == [2, 2, 2, 2]
    assert got["P5"].wins == 1 and got["P7"].wins == 1 and got["P1"].wins == 1


def test_per_role_win_loss_and_draw_points_are_settings() -> None:
    proto = Proto(
        settings=[
            ("Баллы за победу: шериф", 3),
            ("Баллы за поражение: мафия", "-0,25"),
            ("Баллы за ничью: мирный", "0,5"),
        ]
    )
    proto.add_game(1, names("P"), "Красные")
    proto.add_game(2, names("P"), "Ничья")
    proto.add_game(3, names("P"), "Красные")
    got = table(proto)
    # N = 3, red 2, black 0: black is heavy but never won, so no K in play
    assert got["P5"].win_points == 3 + 3  # the sheriff's own win points
    assert got["P3"].win_points == F(-1, 2)  # mafia lost twice: −0.25 each
    assert got["P1"].win_points == 2 + F(1, 2) + 2  # a civilian: wins 2, the draw 0.5


# ---- K: the regulation's and the rating site's difficulty ----------------------------------


def k_protocol(*settings: tuple[str, Any]) -> Proto:
    proto = Proto(settings=list(settings))
    results = ["Красные"] * 4 + ["Чёрные"] * 3 + ["Ничья"] * 3
    for game, result in enumerate(results, start=1):
        proto.add_game(game, names("P"), result)
    return proto


def test_the_sites_difficulty_counts_draws_as_black_wins() -> None:
    # N = 10, red 4 against black 3 + draws 3 = 6: red is heavy, n = 4,
    # K = 1 + (5 − 4)/5 = 6/5 — the site's 2 × (1 − 0.4) for a red win
    rating = rate(k_protocol(("Правила", "ФИИМ рейтинга 1")))
    assert (rating.k.heavy_side, rating.k.heavy_games, rating.k.value) == ("red", 4, F(6, 5))
    got = {s.player: s for s in rating.standings}
    assert got["P5"].win_points == 4 * F(6, 5)  # the sheriff: 4 red wins at 1.2
    assert got["P7"].win_points == 3  # the don: 3 black wins at 1


def test_the_regulations_k_leaves_draws_to_nobody() -> None:
    # red 4 > black 3: black is heavy, n = 3, K = 1 + (5 − 3)/5 = 7/5 (win 1 here)
    rating = rate(k_protocol(("Баллы за победу", 1)))
    assert (rating.k.heavy_side, rating.k.value) == ("black", F(7, 5))
    got = {s.player: s for s in rating.standings}
    assert got["P7"].win_points == 3 * F(7, 5) and got["P5"].win_points == 4


# ---- Ci --------------------------------------------------------------------------------------


def test_round_of_four_tenths_of_n_is_exact() -> None:
    # 0.4·N is never a half: N = 1 … 12 give 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5
    assert [ci_divisor(n) for n in range(1, 13)] == [0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5]


def ci_protocol(*settings: tuple[str, Any], named: str = "") -> Proto:
    """Seven games of the same ten players: game 1 a black win (P2 killed on Н1), games
    2–7 red wins (P1 killed on Н1 in each)."""
    proto = Proto(settings=list(settings))
    proto.add_game(1, names("P"), "Чёрные")
    for game in range(2, 8):
        proto.add_game(game, names("P"), "Красные")
        proto.seat(game, 1)["best_move"] = "3 7 9"
    if named:
        proto.seat(1, 2)["best_move"] = named
    return proto


def test_the_sites_ci_is_paid_in_lost_games_only_exactly() -> None:
    got = table(ci_protocol(SITE))
    # P2: N = 7, F = 1 → 0.5 · 1 / round(2.8) = 1/6, paid in game 1 (lost)
    assert got["P2"].ci == F(1, 6)
    # P1: F = 6 → min(0.5 · 6 / 3, 0.5) = 0.5, but every such game was won: nothing
    assert got["P1"].ci == 0
    assert got["P2"].additional == got["P2"].awards + got["P2"].best_move + F(1, 6)


def test_the_apps_ci_is_half_when_black_won_and_rounded_to_hundredths() -> None:
    got = table(ci_protocol(APP, named="3 4 6"))
    # P2: round(0.4 · 1 / 3 = 0.133…) = 0.13; black won game 1: half, 0.065 → 0.07
    assert got["P2"].ci == F(7, 100)
    # P1: min(round(0.4 · 6 / 3) = 0.8, 0.5) = 0.5 in each of six red wins
    assert got["P1"].ci == 3


def test_the_apps_ci_pays_nothing_where_no_black_was_named() -> None:
    assert table(ci_protocol(APP, named="4 6 8"))["P2"].ci == 0


def test_the_third_reading_half_when_red_won() -> None:
    proto = ci_protocol(
        ("Ci: когда", "половина при победе красных"),
        ("Ci: доля", "0,4"),
        ("Ci: предел", "0,4"),
        named="3 4 6",
    )
    got = table(proto)
    # P1: min(0.4 · 6 / 3, 0.4) = 0.4, half in each red win: 6 × 0.2
    assert got["P1"].ci == F(6, 5)
    # P2: 0.4 / 3 = 2/15 in full (black won), exact
    assert got["P2"].ci == F(2, 15)


def test_ci_from_a_number_of_games_and_one_game_pays_the_cap() -> None:
    app, site = load_rules("app-2026"), load_rules("mr-fiim-7")
    assert ci_base(app, 3, 1) == 0 and ci_base(app, 4, 1) == F(1, 5)
    # round(0.4 × 1) = 0: the site's division by zero pays its cap
    assert ci_base(site, 1, 1) == F(1, 2)
    single = Proto(settings=[SITE])
    single.add_game(1, names("P"), "Чёрные")
    assert table(single)["P2"].ci == F(1, 2)


# ---- the tie-break order and shared places ---------------------------------------------


def totals(rows: list[dict[str, Any]]) -> pd.DataFrame:
    base = {
        "total": F(0),
        "win_points": F(0),
        "additional": F(0),
        "best_move": F(0),
        "awards": F(0),
        "penalty": F(0),
        "ci": F(0),
        "games": 1,
        "wins": 0,
        "wins_don_sheriff": 0,
        "killed_first_night": 0,
        "killed_first_night_red": 0,
    }
    return pd.DataFrame([{**base, **row} for row in rows])


def test_the_sites_letters_sum_extras_penalties_and_best_move() -> None:
    # A and B: equal totals; A has more extras, B a best move: (epg) sums them, so the
    # wins decide (B); C equals B but for deaths on night 1 as red (k)
    frame = totals(
        [
            {"player": "A", "total": F(3), "awards": F(1), "wins": 1},
            {"player": "B", "total": F(3), "best_move": F(1), "wins": 2, "killed_first_night": 1},
            {
                "player": "C",
                "total": F(3),
                "best_move": F(1),
                "wins": 2,
                "killed_first_night_red": 1,
            },
        ]
    )
    rows, _, lot = rank(frame, parse_order("(epg)wsk"), set(), LotInput({}))
    assert [(r.player, r.decided_by) for r in rows] == [
        ("C", "killed_first_night_red"),
        ("B", "wins"),
        ("A", "total"),
    ]
    assert not lot.needed


def test_shared_places_no_lot() -> None:
    frame = totals(
        [
            {"player": "A", "total": F(5)},
            {"player": "B", "total": F(3), "games": 2},
            {"player": "C", "total": F(3)},
            {"player": "D", "total": F(1)},
        ]
    )
    order = parse_order("игры")
    yes, _, lot = rank(frame, order, set(), LotInput({}), "yes")
    assert [(r.player, r.place, r.place_range, r.decided_by) for r in yes] == [
        ("A", 1, "1", "total"),
        ("B", 2, "2–3", "shared"),  # more games first inside the shared place
        ("C", 2, "2–3", "total"),
        ("D", 4, "4", "total"),
    ]
    assert lot.method == "none" and not lot.needed
    dense, _, _ = rank(frame, order, set(), LotInput({}), "dense")
    assert [(r.player, r.place_range) for r in dense] == [
        ("A", "1"),
        ("B", "2"),
        ("C", "2"),
        ("D", "3"),
    ]


def test_the_app_shares_places_in_a_whole_tournament() -> None:
    proto = Proto(settings=[APP])
    proto.add_game(1, names("A"), "Красные")
    rating = rate(proto)
    # seven reds won 1 each; the first-night victim A1 named nobody: all reds share place 1
    places = {s.player: s.place_range for s in rating.standings}
    assert {places[p] for p in ("A1", "A2", "A4", "A5", "A6", "A8", "A10")} == {"1"}
    assert {places[p] for p in ("A3", "A7", "A9")} == {"2"}
    assert not rating.lot.needed


# ---- the echo: summary, JSON, the rules command, seasons ---------------------------------


def test_the_summary_and_json_echo_the_edition_and_every_value() -> None:
    proto = Proto(settings=[APP, ("Доп: сумма за игру", 3)])
    proto.add_game(1, names("A"), "Красные")
    outcome = evaluate([proto.source()])
    lines = {item: (value, note) for item, value, note in summary_lines(outcome.rating, "ru")}
    assert lines["Правила"][0] == "Приложение судьи 2026"
    assert lines["Правила"][1].startswith("nekoalice42/mafia-companion-api @aca65dd")
    assert lines["Ci: когда"] == ("половина при победе чёрных", "")
    assert lines["Доп: сумма за игру"] == (3.0, "задано турниром")
    assert lines["Доп: также"][0] == "−1,5; −2,1; −2,5"
    assert lines["Порядок при равенстве баллов"][0].startswith("сумма баллов → игры → допы")
    settings = json.loads(json.dumps(outcome_json(outcome)))["settings"]
    assert settings["edition"] == "app-2026" and settings["extras_sum"] == 3
    assert settings["extras_also"] == [-1.5, -2.1, -2.5] and settings["ci_when"] == "half_black_win"
    assert settings["edition_source"]["commit"] == "aca65ddbffba4b5c0c1aab12cb5be673b1d2bd2b"
    assert set(RULE_KEYS) <= set(settings)


def test_k_off_says_whether_the_edition_or_the_tournaments_row_switched_it_off() -> None:
    from mafia_sheets.report.phrases import k_line

    said = {}
    for rows in ([SITE], [SITE, ("Коэффициент K", "нет")], [("Коэффициент K", "нет")]):
        proto = Proto(settings=rows)
        proto.add_game(1, names("A"), "Красные")
        proto.add_game(2, names("A"), "Красные")
        proto.add_game(3, names("A"), "Чёрные")
        k = evaluate([proto.source()]).rating.k
        said[len(rows), rows[0][1]] = (k.reason, k_line(k, "ru"), k_line(k, "en"))
    assert said[1, SITE[1]] == (
        "edition_off",
        "K не применяется: K не предусмотрен выбранными правилами",
        "K is not applied: the chosen scoring rules have no K",
    )
    assert said[2, SITE[1]][0] == said[1, "нет"][0] == "option_off"  # a row of «Турнир»
    assert said[1, "нет"][1] == "K не применяется: K отключён настройкой турнира"


def test_json_standings_carry_ci_where_the_edition_pays_it() -> None:
    data = outcome_json(evaluate([ci_protocol(SITE).source()]))
    row = next(r for r in data["standings"] if r["player"] == "P2")
    assert row["ci"] == 0.1667
    plain = outcome_json(evaluate([ci_protocol().source()]))
    assert all("ci" not in r for r in plain["standings"])


def test_the_rules_command_lists_the_editions_and_shows_one() -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["rules", "--lang", "en"])
    assert listed.exit_code == 0
    for rules in presets().values():
        assert f"{rules.edition.name('en')} [{rules.edition.code}]" in listed.output
    one = runner.invoke(main, ["rules", "mafiaratings fiim"])
    assert one.exit_code == 0
    assert "szotin/mafiaratings (коммит 0ab7207bdb17fadb92243f119dc356a95c99edad)" in one.output
    assert "  Автодопы: 0,3\n" in one.output and "  Штраф за удаление команды: −0,7\n" in one.output
    missing = runner.invoke(main, ["rules", "ФИИМ 2031"])
    assert missing.exit_code == 2 and "Нет правил «ФИИМ 2031»" in missing.output


def test_a_season_whose_files_disagree_on_a_value_is_refused_naming_it() -> None:
    first = Proto(settings=[SITE])
    first.add_game(1, names("A"), "Красные")
    second = Proto(settings=[SITE, ("Ci: доля", "0,4")])
    second.add_game(1, names("A"), "Красные")
    with pytest.raises(SeasonConflictError) as caught:
        evaluate([first.source(name="a.xlsx"), second.source(name="b.xlsx")])
    assert caught.value.ru.startswith("b.xlsx: параметр «Ci: доля» = 0,4, а в a.xlsx — 0,5")
    other = Proto(settings=[APP])
    other.add_game(1, names("A"), "Красные")
    with pytest.raises(SeasonConflictError) as caught:
        evaluate([first.source(name="a.xlsx"), other.source(name="c.xlsx")])
    assert "«Правила» = Приложение судьи 2026, а в a.xlsx — ФИИМ рейтинга 7" in caught.value.ru


def test_an_english_protocol_names_the_rules_in_english() -> None:
    proto = Proto(settings=[("Rules", "Rating FIIM 7"), ("4th-foul penalty", "-0.25")])
    proto.add_game(1, names("A"), "Красные")
    rating = rate(proto, "en")
    assert rating.rules.edition.code == "mr-fiim-7" and rating.rules.points["fouled_out"] == F(
        -1, 4
    )


def test_a_source_built_by_hand_reads_the_same() -> None:
    data = penalties_protocol(SITE).to_bytes()
    outcome = evaluate([Source("hand.xlsx", data)])
    assert outcome.errors == 0


# ---- the new values in every layout --------------------------------------------------------


def with_settings(data: bytes, settings: list[tuple[str, Any]]) -> bytes:
    """A workbook of another layout with a «Турнир» sheet added, as a club would."""
    import io

    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book.create_sheet("Турнир")
    sheet.append(["Параметр", "Значение"])
    for row in settings:
        sheet.append(list(row))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def new_values_protocol() -> Proto:
    proto = penalties_protocol(SITE)
    proto.seat(1, 5)["bonus"] = "0,2"
    proto.seat(2, 6)["bonus"] = "Худший ход"
    proto.seat(3, 4)["bonus"] = "-0,4"
    proto.seat(4, 8)["bonus"] = "лучший ход судьи"
    return proto


@pytest.mark.parametrize("layout", ["blank", "wide"])
def test_the_new_departures_and_extras_read_in_every_layout(layout: str) -> None:
    from layout_books import club_rows, russian_paper

    proto = new_values_protocol()
    tables = {game["game"]: 1 for game in proto.games}
    books = {"blank": russian_paper, "wide": club_rows}
    data = with_settings(books[layout](proto, tables), [SITE])
    outcome = evaluate([Source(f"{layout}.xlsx", data)])
    assert outcome.reading[0].layout == layout
    # the club's «Итого игр:» line under its rows is noted as the row layout notes one
    codes = [f.code for f in outcome.findings if f.code != "totals-row"]
    assert codes == ["bonus-worth-nothing"], [(f.code, f.cell) for f in outcome.findings]
    rows = rate(new_values_protocol()).standings
    key = [(s.player, s.total, s.penalties, s.awards) for s in rows]
    assert [(s.player, s.total, s.penalties, s.awards) for s in outcome.rating.standings] == key


@pytest.mark.parametrize("layout", ["blank", "wide"])
def test_the_products_own_layouts_keep_numeric_extras(layout: str) -> None:
    from mafia_sheets.reading.protocol import load_protocol
    from mafia_sheets.template.layouts import games_of, write_games

    source = new_values_protocol().source()
    protocol, _ = load_protocol(source)
    data = write_games(layout, games_of(protocol), protocol=protocol)
    outcome = evaluate([Source(f"{layout}.xlsx", data)])
    assert outcome.errors == 0, [(f.code, f.cell) for f in outcome.findings]
    expected = [(s.player, s.total) for s in rate(new_values_protocol()).standings]
    assert [(s.player, s.total) for s in outcome.rating.standings] == expected


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("layout", ["blank", "wide"])
def test_every_layouts_template_has_the_rules_dropdown_and_reads_it(layout: str, lang: str) -> None:
    import io

    import openpyxl

    from mafia_sheets.reading.protocol import load_protocol
    from mafia_sheets.template.layouts import empty_games, games_of, write_games
    from mafia_sheets.vocab import SETTINGS, SHEETS

    blank = openpyxl.load_workbook(io.BytesIO(write_games(layout, empty_games(2), lang)))
    sheet = blank[SHEETS["tournament"](lang)]
    cells = {row[0].value: row[1] for row in sheet.iter_rows(min_row=2)}
    assert list(cells) == [name(lang) for name in SETTINGS.values()]  # as the rows template
    cell = cells[SETTINGS["edition"](lang)]
    assert cell.value == load_rules().edition.name(lang)
    (dropdown,) = [v for v in sheet.data_validations.dataValidation if cell.coordinate in v.sqref]
    assert dropdown.formula1.strip('"').split(",") == [
        r.edition.name(lang) for r in presets().values()
    ]
    # the games typed in that layout, the edition picked from the dropdown
    protocol, _ = load_protocol(new_values_protocol().source())
    site = load_rules("mr-fiim-7").edition.name(lang)
    data = write_games(layout, games_of(protocol), lang, settings={"edition": site})
    outcome = evaluate([Source(f"{layout}.xlsx", data)])
    assert outcome.errors == 0, [(f.code, f.cell) for f in outcome.findings]
    assert outcome.rating.rules.edition.code == "mr-fiim-7"
    expected = [(s.player, s.total) for s in rate(new_values_protocol()).standings]
    assert [(s.player, s.total) for s in outcome.rating.standings] == expected


def test_the_world_tour_upload_keeps_a_team_removal_and_a_give_up_as_removals() -> None:
    from mafia_sheets.formats.mwt import upload

    outcome = evaluate([penalties_protocol(SITE).source()], stats=False, seats=True)
    games, _ = upload(outcome.rating)
    leaves = {g["table_number"] or i: g["result"]["leaves"] for i, g in enumerate(games)}
    kinds = [(leave["p_num"], leave["leave_type"]) for game in leaves.values() for leave in game]
    assert (7, 3) in kinds and (1, 3) in kinds  # C7's team removal, D1's give-up
