"""Points per game (regulation 8.2–8.4) and the difficulty coefficient K (8.5).

Exactness stays cheap: every additional-point value is an integer number of *units*
(1/D of a point, D the common denominator of the rule set's values — 4 for FIIM's
0.25 steps), summed as int64; K is applied exactly (as a Fraction) to each player's
aggregated count of heavy wins, never to floats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from .. import vocab
from ..model import KSummary, Season
from ..rules import RuleSet


@dataclass(frozen=True)
class Units:
    """Point values of a rule set as integers of 1/`denominator` of a point."""

    denominator: int
    values: dict[str, int]

    @classmethod
    def of(cls, rules: RuleSet) -> Units:
        denominator = math.lcm(*(v.denominator for v in rules.points.values()))
        return cls(denominator, {k: int(v * denominator) for k, v in rules.points.items()})

    def points(self, units: int) -> Fraction:
        return Fraction(int(units), self.denominator)


def coefficient_k(games: pd.DataFrame, rules: RuleSet) -> KSummary:
    """Regulation 8.5: K = 1 + (N/2 − n)/(N/2).

    N counts the played games (draws too, unless `draws_in_n` is off; annulled never);
    the heavy side is the colour with strictly fewer wins, n its number of wins.
    Example: N = 10, red 7, black 3 → black heavy, n = 3, K = 1 + (5 − 3)/5 = 7/5 = 1.4.

    >>> from mafia_sheets.rules import load_rules
    >>> games = pd.DataFrame({"result": ["red"] * 7 + ["black"] * 3, "annulled": False})
    >>> k = coefficient_k(games, load_rules())
    >>> k.heavy_side, k.games, k.heavy_games, k.value
    ('black', 10, 3, Fraction(7, 5))
    """
    annulled = games["annulled"].eq(True)
    result = games["result"][~annulled]
    red, black, draws = (int(result.eq(c).sum()) for c in ("red", "black", "draw"))
    n_games = red + black + (draws if rules.draws_in_n else 0)

    def summary(
        applied: bool, value: Fraction, side: str | None, n: int, reason: str = ""
    ) -> KSummary:
        return KSummary(
            applied,
            value,
            side,
            games=n_games,
            heavy_games=n,
            red_wins=red,
            black_wins=black,
            draws=draws,
            annulled=int(annulled.sum()),
            reason=reason,
        )

    if red == black:
        return summary(False, Fraction(1), None, 0, "no_games" if n_games == 0 else "equal_wins")
    heavy_side, n = ("red", red) if red < black else ("black", black)
    half = Fraction(n_games, 2)
    if not rules.apply_k:
        return summary(False, Fraction(1), heavy_side, n, "option_off")
    return summary(True, 1 + (half - n) / half, heavy_side, n)


def seat_points(season: Season, k: KSummary) -> pd.DataFrame:
    """One row per seat of every counted game, with each component in units.

    Columns added: `result`, `win`, `heavy`, `paid` (the win earns win points: not when
    a disqualified winner's are voided by the «Победа при дисквалификации» setting),
    `killed_first_night`, `penalty_u`, `best_move_u`, `awards_u`, `additional_u` (int64
    units, see :class:`Units`).
    """
    units = Units.of(season.rules)
    games = season.frames["games"]
    counted = games[~games["annulled"].eq(True)].drop_duplicates("game")
    seats = season.frames["seats"]
    seats = seats[seats["game"].isin(counted["game"])]
    merged = seats.merge(counted[["game", "result"]], on="game", how="left")
    team = merged["team"].to_numpy(dtype=object)
    result = merged["result"].to_numpy(dtype=object)
    win = team == result
    merged["win"] = win
    merged["heavy"] = win & k.applied & (team == k.heavy_side)
    left = merged["left"].to_numpy(dtype=object)
    merged["paid"] = win & (season.rules.win_when_disqualified | (left != "disqualified"))
    killed_n1 = (left == "killed") & (merged["when"].to_numpy(dtype=object) == vocab.FIRST_NIGHT)
    merged["killed_first_night"] = killed_n1
    merged["penalty_u"] = np.where(left == "disqualified", units.values["disqualification"], 0)
    merged["best_move_u"] = _best_move_units(merged, killed_n1, units)
    merged["awards_u"] = _award_units(merged, win, units)
    merged["additional_u"] = merged["penalty_u"] + merged["best_move_u"] + merged["awards_u"]
    return merged


def _best_move_units(seats: pd.DataFrame, killed_n1: np.ndarray, units: Units) -> np.ndarray:
    """Regulation 8.3: the red player killed on night 1 names three seats; count the blacks."""
    out = np.zeros(len(seats), dtype=np.int64)
    named = seats["best_move"].to_numpy(dtype=object)
    eligible = np.flatnonzero(
        killed_n1 & (seats["team"].to_numpy(dtype=object) == "red") & pd.notna(named)
    )
    if not len(eligible):
        return out
    black = seats.loc[seats["team"].eq("black"), ["game", "seat"]]
    black_seats = set(zip(black["game"], black["seat"], strict=True))
    games = seats["game"].to_numpy(dtype=object)
    for index in eligible:  # at most one best move per game: a short loop
        hits = sum((games[index], s) in black_seats for s in set(named[index]))
        out[index] = (
            units.values["best_move_3"]
            if hits >= 3
            else units.values["best_move_2"]
            if hits == 2
            else 0
        )
    return out


def _award_units(seats: pd.DataFrame, win: np.ndarray, units: Units) -> np.ndarray:
    """Regulation 8.4: ЛИ +1 and ЛИ2 +0.5 to winners, ЛИП +0.5 to a loser; none in a draw."""
    table = {code: units.values[code] for code in ("bp", "bp2", "bpl")}
    mapped = seats["bonus"].map(table)
    in_draw = seats["result"].eq("draw").to_numpy()
    return np.where(in_draw, 0, mapped.fillna(0).to_numpy(dtype=np.int64))


def player_totals(seats: pd.DataFrame, k: KSummary, rules: RuleSet) -> pd.DataFrame:
    """One row per player: counts, exact Fraction points, the tie-break criteria."""
    units = Units.of(rules)
    frame = seats.assign(
        wins=seats["win"].astype(np.int64),
        paid_wins=seats["paid"].astype(np.int64),
        paid_heavy_wins=(seats["paid"] & seats["heavy"]).astype(np.int64),
        wins_don_sheriff=(seats["win"] & seats["role"].isin(["don", "sheriff"])).astype(np.int64),
        killed_first_night=seats["killed_first_night"].astype(np.int64),
        games=1,
    )
    sums = frame.groupby("player", sort=True)[
        [
            "games",
            "wins",
            "paid_wins",
            "paid_heavy_wins",
            "wins_don_sheriff",
            "killed_first_night",
            "penalty_u",
            "best_move_u",
            "awards_u",
            "additional_u",
        ]
    ].sum()
    win_value = rules.points["win"]
    heavy_value = win_value * k.value if k.applied else win_value
    # wins count every game the team won (8.6.2); win points only the paid ones
    sums["win_points"] = _fractions(
        win_value * (w - h) + heavy_value * h
        for w, h in zip(sums["paid_wins"], sums["paid_heavy_wins"], strict=True)
    )
    for column in ("penalty", "best_move", "awards", "additional"):
        sums[column] = _fractions(units.points(u) for u in sums[f"{column}_u"])
    sums["total"] = _fractions(
        w + a for w, a in zip(sums["win_points"], sums["additional"], strict=True)
    )
    return sums.reset_index()


def _fractions(values: Iterable[Fraction]) -> np.ndarray:
    """Exact values as an object column (the rating never holds a float)."""
    return np.fromiter(values, dtype=object)
