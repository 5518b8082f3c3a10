"""Statistics, player cards and head to head (SPEC §6 sheets 6–9, issue 13) against an
independent plain-Python count on generated tournaments and seasons."""

from __future__ import annotations

import io
import re
import subprocess
from fractions import Fraction

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rating_fixture import shown
from stats_reference import stats_reference

from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.json import rating_json
from mafia_sheets.report.xlsx import results_workbook
from mafia_sheets.testing.synth import SynthProtocol, generate
from mafia_sheets.vocab import phase_name

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROLES = ("civilian", "sheriff", "mafia", "don")


def source(proto: SynthProtocol, name: str = "t.xlsx", lang: str = "ru") -> Source:
    buffer = io.BytesIO()
    proto.to_xlsx(buffer, lang=lang)
    return Source(name, buffer.getvalue())


def rated(*protos: SynthProtocol, lang: str = "ru"):
    outcome = evaluate([source(p, f"night-{i + 1}.xlsx", lang) for i, p in enumerate(protos)])
    assert outcome.rating is not None, [f.code for f in outcome.findings if f.severity == "error"]
    return outcome.rating


def exact(rating) -> dict[str, dict]:
    """The product's per-player statistics with exact points (units → Fraction)."""
    stats = rating.stats
    out = {}
    for row in stats.players.to_dict("records"):
        out[row["player"]] = {
            "games": row["games"],
            "wins": row["wins"],
            "killed_first_night": row["killed_first_night"],
            "fouls": row["fouls"],
            "fouled_out": row["fouled_out"],
            "disqualified": row["disqualified"],
            "additional": stats.points(row["additional_u"]),
            "by_role": {
                r: {
                    "games": row[f"{r}_games"],
                    "wins": row[f"{r}_wins"],
                    "additional": stats.points(row[f"{r}_additional_u"]),
                }
                for r in ROLES
            },
            "by_team": {
                t: {"games": row[f"{t}_games"], "wins": row[f"{t}_wins"]} for t in ("red", "black")
            },
            "best_moves": {
                "made": row["best_moves"],
                "three": row["best_moves_three"],
                "two": row["best_moves_two"],
                "fewer": row["best_moves"] - row["best_moves_three"] - row["best_moves_two"],
                "points": stats.points(row["best_move_u"]),
            },
            "awards": {code: row[code] for code in ("bp", "bp2", "bpl")},
        }
    return out


def product_pairs(data: dict) -> dict[tuple[str, str], dict]:
    """JSON pairs keyed like the reference: names in sorted order, a_won/b_won to match."""
    out = {}
    for pair in data["stats"]["pairs"]:
        a, b = pair["players"]
        counts = {
            k: pair[k] for k in ("games", "together", "together_wins", "against", "a_won", "b_won")
        }
        if a > b:
            a, b = b, a
            counts["a_won"], counts["b_won"] = counts["b_won"], counts["a_won"]
        assert (a, b) not in out, "a pair is listed twice"
        out[(a, b)] = counts
    return out


tournaments = st.builds(
    lambda games, players, seed, draws: generate(games, players=players, seed=seed, draws=draws),
    games=st.integers(2, 30),
    players=st.integers(10, 25),
    seed=st.integers(0, 10**6),
    draws=st.sampled_from([0.0, 0.15, 0.4]),
)


@SLOW
@given(proto=tournaments)
def test_every_statistic_matches_an_independent_count(proto):
    rating = rated(proto)
    expected = stats_reference(proto)
    assert exact(rating) == expected["players"]
    data = rating_json(rating)
    tournament = data["stats"]["tournament"]
    assert {k: tournament[k] for k in expected["tournament"]} == expected["tournament"]
    ended = {row["phase"]: row["games"] for row in tournament["ended"]}
    assert ended == {(phase_name(p, "en") if p else None): n for p, n in expected["ended"].items()}
    if (~proto.games["annulled"]).sum() > 1:  # head to head once the games are several
        assert product_pairs(data) == expected["pairs"]
    else:
        assert "pairs" not in data["stats"]


@SLOW
@given(proto=tournaments)
def test_counts_add_up_and_agree_with_the_standings(proto):
    rating = rated(proto)
    standings = {s.player: s for s in (*rating.standings, *rating.removed)}
    for name, row in exact(rating).items():
        roles = row["by_role"].values()
        assert sum(r["games"] for r in roles) == row["games"] == standings[name].games
        assert sum(r["wins"] for r in roles) == row["wins"] == standings[name].wins
        assert sum(t["games"] for t in row["by_team"].values()) == row["games"]
        assert (
            sum(r["additional"] for r in roles) == row["additional"] == standings[name].additional
        )
        assert row["killed_first_night"] == standings[name].killed_first_night
        assert row["best_moves"]["points"] == standings[name].best_move
        assert row["best_moves"]["made"] <= row["killed_first_night"]
    stats = rating.stats
    assert stats.by_seat["games"].tolist() == [stats.games] * 10
    assert stats.red_wins + stats.black_wins + stats.draws == stats.games
    if stats.pairs is not None:
        pairs = stats.pairs
        assert ((pairs["together"] + pairs["against"]) == pairs["games"]).all()
        assert (pairs["a"] < pairs["b"]).all()  # each unordered pair once, better placed first
        assert ((pairs["a_won"] + pairs["b_won"]) <= pairs["against"]).all()
        # symmetric: everyone meets nine others per game
        met = pairs.groupby("a")["games"].sum().add(pairs.groupby("b")["games"].sum(), fill_value=0)
        games = stats.players["games"]
        assert all(met.get(i, 0) == 9 * games[i] for i in range(len(games)))


def test_a_season_pools_statistics_and_lists_every_pair():
    nights = [generate(8, players=14, seed=seed) for seed in (3, 4, 5)]
    rating = rated(*nights)
    expected = stats_reference(*nights)
    assert exact(rating) == expected["players"]
    data = rating_json(rating)
    assert product_pairs(data) == expected["pairs"]
    assert data["stats"]["pairs_total"] == len(expected["pairs"])
    over = rating.stats.over_time
    assert over.kind == "file" and len(over.steps) == 3
    # the last step is each leader's final total
    finals = {s.player: s.total for s in rating.standings}
    assert all(
        totals[-1] == finals[name] for name, totals in zip(over.leaders, over.totals, strict=True)
    )


def test_standings_over_time_by_round_are_exact_running_totals():
    rating = rated(generate(40, players=20, seed=11))
    over = rating.stats.over_time
    assert over.kind == "round" and over.steps == tuple(range(1, len(over.steps) + 1))
    points = shown(rating)
    for name, totals in zip(over.leaders, over.totals, strict=True):
        assert totals[-1] == next(s.total for s in rating.standings if s.player == name)
        assert all(isinstance(t, Fraction) for t in totals)
        assert float(totals[-1]) == pytest.approx(
            points.loc[points["player"] == name, "total"].sum()
        )


# ---- the workbook, reopened --------------------------------------------------------------


def workbook(rating, lang: str = "ru"):
    return openpyxl.load_workbook(io.BytesIO(results_workbook(rating, lang)))


def test_new_sheets_are_there_and_no_stats_leaves_them_out():
    proto = generate(30, players=20, seed=2)
    book = workbook(rated(proto))
    added = ["Статистика", "Статистика турнира", "Карточки", "Встречи"]
    assert book.sheetnames[-4:] == added
    outcome = evaluate([source(proto)], stats=False)
    assert outcome.rating.stats is None
    lean = openpyxl.load_workbook(io.BytesIO(results_workbook(outcome.rating)))
    assert not set(added) & set(lean.sheetnames)
    assert workbook(rated(proto, lang="en"), "en").sheetnames[-4:] == [
        "Statistics",
        "Tournament statistics",
        "Player cards",
        "Head to head",
    ]


def card_blocks(ws) -> dict[str, list[tuple]]:
    """Each card's game rows (round … total), keyed by the player in its title."""
    cards: dict[str, list[tuple]] = {}
    current = None
    in_games = False
    for row in ws.iter_rows(values_only=True):
        first = row[0]
        if isinstance(first, str) and re.match(r"^(Место|Place) .+ — ", first):
            current = first.split(" — ", 1)[1]
            cards[current] = []
            in_games = False
        elif first in ("Тур", "Round"):
            in_games = True
        elif in_games and current and first is None and all(v is None for v in row):
            in_games = False
        elif in_games and current:
            cards[current].append(tuple(row[:10]))
    return cards


def number(value):
    """A round or table as the workbook shows it: whole-number texts become numbers."""
    return int(value) if str(value).isdigit() else value


def test_cards_hold_every_game_of_every_player_in_standings_order():
    rating = rated(generate(30, players=20, seed=7))
    book = workbook(rating)
    ws = book["Карточки"]
    cards = card_blocks(ws)
    order = [s.player for s in rating.standings]
    assert list(cards)[: len(order)] == order
    points = shown(rating)
    games = rating.games.set_index("game")
    words = {"civilian": "Мирный", "sheriff": "Шериф", "mafia": "Мафия", "don": "Дон"}
    for name, rows in cards.items():
        mine = points[points["player"] == name]
        expected = [
            (
                number(games.at[g, "round"]),
                number(games.at[g, "table"]),
                seat,
                words[role],
                "победа" if win else "ничья" if result == "draw" else "поражение",
                win_points or None,
                best or None,
                award or None,
                penalty or None,
                total,
            )
            for g, seat, role, win, result, win_points, best, award, penalty, total in zip(
                mine["game"],
                mine["seat"],
                mine["role"],
                mine["win"],
                mine["result"],
                mine["win_points"],
                mine["best_move"],
                mine["awards"],
                mine["penalty"],
                mine["total"],
                strict=True,
            )
        ]
        assert rows == expected, name
    # one page per card: a manual break before every card but the first
    assert len(ws.row_breaks.brk) == len(cards) - 1


def test_head_to_head_sheet_lists_the_pairs_by_value():
    rating = rated(generate(24, players=16, seed=5))
    ws = workbook(rating)["Встречи"]
    rows = list(ws.iter_rows(values_only=True))
    header = next(i for i, r in enumerate(rows) if r[0] == "Игрок A")
    names = rating.stats.players["player"].tolist()
    shown = [r[:9] for r in rows[header + 1 :] if r[0] is not None]
    pairs = rating.stats.pairs
    expected = [
        (names[a], names[b], *(v or None for v in (g, t, tw, ag, aw, bw, ag - aw - bw)))
        for a, b, g, t, tw, ag, aw, bw in zip(
            pairs["a"],
            pairs["b"],
            pairs["games"],
            pairs["together"],
            pairs["together_wins"],
            pairs["against"],
            pairs["a_won"],
            pairs["b_won"],
            strict=True,
        )
    ]
    assert shown == expected
    games = [r[2] for r in shown]
    assert games == sorted(games, reverse=True)  # most games together first
    assert ws.auto_filter.ref


def test_statistics_sheet_rows_match_the_stats():
    rating = rated(generate(30, players=20, seed=9))
    ws = workbook(rating)["Статистика"]
    rows = list(ws.iter_rows(values_only=True))
    header = next(i for i, r in enumerate(rows) if r[1] == "Игрок")
    players = rating.stats.players
    body = rows[header + 1 : header + 1 + len(players)]
    assert [r[1] for r in body] == players["player"].tolist()
    for row, record in zip(body, players.to_dict("records"), strict=True):
        assert (row[2] or 0, row[3] or 0) == (record["games"], record["wins"])
        share = row[4]
        assert (share or 0) == pytest.approx(record["wins"] / record["games"])
        assert all(
            value != 0
            for value in row
            if isinstance(value, int | float) and not isinstance(value, bool)
        )  # zero cells are blank


def test_the_workbook_renders_through_libreoffice_one_card_per_page(tmp_path, soffice):
    rating = rated(generate(12, players=12, seed=1))
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook(rating))
    done = subprocess.run(
        [soffice, "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(path)],
        capture_output=True,
        timeout=240,
        check=False,
    )
    pdf = tmp_path / "results.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stderr
    pages = []
    page = 1
    while True:
        text = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
            capture_output=True,
            text=True,
            check=False,
        )
        if text.returncode != 0:
            break
        pages.append(text.stdout)
        page += 1
    titles = [re.findall(r"Место [\d–]+ — (\S+)", text) for text in pages]
    cards = [found for found in titles if found]
    # every player's card is on a page of its own, in standings order
    assert [found for found in cards] == [[s.player] for s in rating.standings]
