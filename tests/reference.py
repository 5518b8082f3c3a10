"""An independent, deliberately plain computation of the regulation, for cross-checking.

It reads a synthetic protocol's arrays directly (not the workbook, not the package's
stages) and follows regulation 8.2–8.6 line by line with Fractions and Python loops.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import groupby

from mafia_sheets.testing.synth import BONUSES, LEFT, RESULTS, ROLES, SynthProtocol

TEAM = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}
AWARD = {"bp": Fraction(1), "bp2": Fraction(1, 2), "bpl": Fraction(1, 2)}


def reference(
    proto: SynthProtocol,
    apply_k: bool = True,
    draws_in_n: bool = True,
    win_when_disqualified: bool = True,
) -> dict:
    """Standings by the regulation; `win_when_disqualified` off voids a disqualified
    winner's win points (the win still counts for the tie-break on wins)."""
    results = [RESULTS[r] for r in proto.games["result"]]
    red, black, draws = (results.count(c) for c in ("red", "black", "draw"))
    n_games = red + black + (draws if draws_in_n else 0)
    heavy = None if red == black else ("red" if red < black else "black")
    k = Fraction(1)
    if heavy and apply_k:
        n = min(red, black)
        k = 1 + (Fraction(n_games, 2) - n) / Fraction(n_games, 2)
    stats: dict[str, dict] = {}
    seats = proto.seats
    for game in range(proto.n_games):
        result = results[game]
        rows = range(game * 10, game * 10 + 10)
        black_seats = {
            int(seats["seat"][i]) for i in rows if TEAM[ROLES[seats["role"][i]]] == "black"
        }
        for i in rows:
            name = proto.players[seats["player"][i]]
            role = ROLES[seats["role"][i]]
            team = TEAM[role]
            left, when = LEFT[seats["left"][i]], int(seats["when"][i])
            row = stats.setdefault(
                name, dict.fromkeys(("win_points", "additional", "wins", "wins_ds", "killed_n1"), 0)
            )
            won = team == result
            if won and (win_when_disqualified or left != "disqualified"):
                row["win_points"] += 2 * (k if team == heavy else 1)
            if won:
                row["wins"] += 1
                row["wins_ds"] += role in ("don", "sheriff")
            if left == "disqualified":
                row["additional"] -= 1
            if left == "killed" and when == 2:
                row["killed_n1"] += 1
                named = {int(s) for s in seats["best_move"][i] if s}
                if team == "red" and named:
                    hits = len(named & black_seats)
                    row["additional"] += (
                        Fraction(1, 2) if hits == 3 else Fraction(1, 4) if hits == 2 else 0
                    )
            bonus = BONUSES[seats["bonus"][i]]
            if bonus and result != "draw":
                row["additional"] += AWARD[bonus]
    for row in stats.values():
        row["total"] = row["win_points"] + row["additional"]
    return {
        "k": k if heavy and apply_k else Fraction(1),
        "heavy": heavy,
        "players": stats,
        "places": places(stats),
    }


def places(stats: dict[str, dict]) -> dict[str, str]:
    """Place ranges: players equal on all five criteria share a range (no lot held)."""

    def key(name: str) -> tuple:
        s = stats[name]
        return (-s["total"], -s["additional"], -s["wins"], -s["wins_ds"], -s["killed_n1"])

    ordered = sorted(stats, key=key)
    out: dict[str, str] = {}
    position = 1
    for _, group in groupby(ordered, key=key):
        members = list(group)
        last = position + len(members) - 1
        label = str(position) if last == position else f"{position}–{last}"
        out.update(dict.fromkeys(members, label))
        position = last + 1
    return out
