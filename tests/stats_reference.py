"""An independent, deliberately plain computation of the statistics, for cross-checking.

Like :mod:`tests.reference`, it reads a synthetic protocol's arrays directly (not the
workbook, not the package's stages) and counts with Python loops and Fractions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

from mafia_sheets.testing.synth import BONUSES, LEFT, RESULTS, ROLES, SynthProtocol

TEAM = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}
AWARD = {"bp": Fraction(1), "bp2": Fraction(1, 2), "bpl": Fraction(1, 2)}


def _blank() -> dict:
    return {
        "games": 0,
        "wins": 0,
        "killed_first_night": 0,
        "fouls": 0,
        "fouled_out": 0,
        "disqualified": 0,
        "additional": Fraction(0),
        "by_role": {r: {"games": 0, "wins": 0, "additional": Fraction(0)} for r in ROLES},
        "by_team": {t: {"games": 0, "wins": 0} for t in ("red", "black")},
        "best_moves": {"made": 0, "three": 0, "two": 0, "fewer": 0, "points": Fraction(0)},
        "awards": {"bp": 0, "bp2": 0, "bpl": 0},
    }


def stats_reference(*protos: SynthProtocol) -> dict:
    """Players, tournament figures and pairs of one tournament or a season of several."""
    players: dict[str, dict] = defaultdict(_blank)
    pairs: dict[tuple[str, str], Counter] = defaultdict(Counter)
    tournament = {
        "games": 0,
        "red_wins": 0,
        "black_wins": 0,
        "draws": 0,
        "by_seat": {str(s): {"games": 0, "wins": 0} for s in range(1, 11)},
    }
    ended: Counter = Counter()
    for proto in protos:
        seats = proto.seats
        for game in range(proto.n_games):
            result = RESULTS[proto.games["result"][game]]
            tournament["games"] += 1
            tournament[{"red": "red_wins", "black": "black_wins", "draw": "draws"}[result]] += 1
            rows = list(range(game * 10, game * 10 + 10))
            black_seats = {
                int(seats["seat"][i]) for i in rows if TEAM[ROLES[seats["role"][i]]] == "black"
            }
            last = 0
            people = []
            for i in rows:
                name = proto.players[seats["player"][i]]
                role = ROLES[seats["role"][i]]
                team = TEAM[role]
                won = team == result
                left, when = LEFT[seats["left"][i]], int(seats["when"][i])
                p = players[name]
                people.append((name, team, won))
                extra = Fraction(0)
                p["games"] += 1
                p["wins"] += won
                p["by_role"][role]["games"] += 1
                p["by_role"][role]["wins"] += won
                p["by_team"][team]["games"] += 1
                p["by_team"][team]["wins"] += won
                p["fouls"] += int(seats["fouls"][i])
                p["fouled_out"] += left == "fouled"
                p["disqualified"] += left == "disqualified"
                if left:
                    last = max(last, when)
                if left == "disqualified":
                    extra -= 1
                if left == "killed" and when == 2:
                    p["killed_first_night"] += 1
                    named = {int(s) for s in seats["best_move"][i] if s}
                    if named:
                        hits = len(named & black_seats)
                        move = p["best_moves"]
                        move["made"] += 1
                        kind = "three" if hits >= 3 else "two" if hits == 2 else "fewer"
                        move[kind] += 1
                        if team == "red":
                            gain = {"three": Fraction(1, 2), "two": Fraction(1, 4)}.get(
                                kind, Fraction(0)
                            )
                            move["points"] += gain
                            extra += gain
                bonus = BONUSES[seats["bonus"][i]]
                if bonus and result != "draw":
                    p["awards"][bonus] += 1
                    extra += AWARD[bonus]
                p["additional"] += extra
                p["by_role"][role]["additional"] += extra
                seat = tournament["by_seat"][str(int(seats["seat"][i]))]
                seat["games"] += 1
                seat["wins"] += won
            ended[last] += 1
            for (a, team_a, won_a), (b, team_b, won_b) in combinations(people, 2):
                if a > b:
                    a, team_a, won_a, b, team_b, won_b = b, team_b, won_b, a, team_a, won_a
                pair = pairs[(a, b)]
                pair["games"] += 1
                if team_a == team_b:
                    pair["together"] += 1
                    pair["together_wins"] += won_a
                else:
                    pair["against"] += 1
                    pair["a_won"] += won_a
                    pair["b_won"] += won_b
    return {
        "players": dict(players),
        "tournament": tournament,
        "ended": dict(ended),
        "pairs": {
            key: {
                k: value[k]
                for k in ("games", "together", "together_wins", "against", "a_won", "b_won")
            }
            for key, value in pairs.items()
        },
    }
