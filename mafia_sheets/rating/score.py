"""Points per game (regulation 8.2–8.4, and every edition's values), K (8.5) and Ci.

Exactness stays cheap: every component of a seat is an integer number of *units* (1/D of
a point, D the common denominator of every value in play — 4 for this regulation's 0.25
steps, times the denominator of K where K applies), summed as int64. The rating reads
values only: which edition they came from is never asked here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from .. import vocab
from ..model import KSummary, Season
from ..rules import PENALTY_OF_LEFT, ROLES, RuleSet

# A per-seat scale larger than this would overflow the int64 sums of a long season: Ci
# with many different game counts is then kept exact per player, and only its per-game
# display rows are rounded to 1/MAX_SCALE of a point (never the standings).
MAX_SCALE = 2**36


@dataclass(frozen=True)
class Units:
    """Point values of a rule set as integers of 1/`denominator` of a point."""

    denominator: int
    values: dict[str, int]

    @classmethod
    def of(cls, rules: RuleSet, more: Iterable[Fraction] = ()) -> Units:
        """The rule set's values, and `more` values that must be exact too (numeric
        extras, K's heavy win, Ci), in one common unit."""
        fractions = [*rules.points.values(), *rules.role_win.values(), *more]
        denominator = math.lcm(*(Fraction(v).denominator for v in fractions))
        return cls(denominator, {k: int(v * denominator) for k, v in rules.points.items()})

    def points(self, units: int) -> Fraction:
        return Fraction(int(units), self.denominator)

    def count(self, value: Fraction) -> int:
        """A value in units; the scale is chosen so that it is whole."""
        return int(value * self.denominator)


@dataclass(frozen=True)
class Scored:
    """The counted seat rows with every component in `units` (see :func:`seat_points`),
    and the exact Ci of the seats paid it (by row position)."""

    seats: pd.DataFrame
    units: Units
    ci: dict[int, Fraction]


def coefficient_k(games: pd.DataFrame, rules: RuleSet) -> KSummary:
    """Regulation 8.5: K = 1 + (N/2 − n)/(N/2).

    N counts the played games (draws too, unless `draws_in_n` is off; annulled never);
    the heavy side is the colour with strictly fewer wins, n its number of wins.
    Example: N = 10, red 7, black 3 → black heavy, n = 3, K = 1 + (5 − 3)/5 = 7/5 = 1.4.
    With `k_draws_black` (the rating site's difficulty, 2 × the share of the other
    colour's wins) the draws count as black's: red 4, black 3, draws 3 → red is heavy
    with n = 4 against 6, K = 1 + (5 − 4)/5 = 6/5.

    >>> from mafia_sheets.rules import load_rules
    >>> games = pd.DataFrame({"result": ["red"] * 7 + ["black"] * 3, "annulled": False})
    >>> k = coefficient_k(games, load_rules())
    >>> k.heavy_side, k.games, k.heavy_games, k.value
    ('black', 10, 3, Fraction(7, 5))
    >>> games = pd.DataFrame({"result": ["red"] * 4 + ["black"] * 3 + ["draw"] * 3,
    ...                       "annulled": False})
    >>> k = coefficient_k(games, load_rules().with_overrides({"k_draws_black": True}))
    >>> k.heavy_side, k.heavy_games, k.value
    ('red', 4, Fraction(6, 5))
    """
    annulled = games["annulled"].eq(True)
    result = games["result"][~annulled]
    red, black, draws = (int(result.eq(c).sum()) for c in ("red", "black", "draw"))
    draws_in_n = rules.draws_in_n or rules.k_draws_black
    n_games = red + black + (draws if draws_in_n else 0)
    others = black + draws if rules.k_draws_black else black

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

    if red == others:
        return summary(False, Fraction(1), None, 0, "no_games" if n_games == 0 else "equal_wins")
    heavy_side, n = ("red", red) if red < others else ("black", others)
    half = Fraction(n_games, 2)
    if not rules.apply_k:  # said as the tournament's row or as the chosen edition's value
        off = "option_off" if "apply_k" in rules.overridden else "edition_off"
        return summary(False, Fraction(1), heavy_side, n, off)
    return summary(True, 1 + (half - n) / half, heavy_side, n)


def seat_points(season: Season, k: KSummary) -> Scored:
    """One row per seat of every counted game, with each component in units.

    Columns added: `result`, `win`, `heavy`, `paid` (the win earns win points: not when
    a disqualified winner's are voided by the «Победа при дисквалификации» setting),
    `killed_first_night`, `killed_first_night_red`, `hits` (blacks named in a best move),
    and the int64 units `main_u` (win, loss and draw points),
    `penalty_u`, `best_move_u`, `awards_u` (the judge's extras and the auto-bonus),
    `ci_u`, `additional_u`.
    """
    rules = season.rules
    games = season.frames["games"]
    counted = games[~games["annulled"].eq(True)].drop_duplicates("game")
    merged = _with_results(season.frames["seats"], counted)
    if "extra" not in merged:
        merged["extra"] = pd.Series(None, index=merged.index, dtype=object)
    team = merged["team"].to_numpy(dtype=object)
    result = merged["result"].to_numpy(dtype=object)
    win = team == result
    merged["win"] = win
    merged["heavy"] = win & k.applied & (team == k.heavy_side)
    left = merged["left"].to_numpy(dtype=object)
    merged["paid"] = win & (rules.win_when_disqualified | (left != "disqualified"))
    killed_n1 = (left == "killed") & (merged["when"].to_numpy(dtype=object) == vocab.FIRST_NIGHT)
    merged["killed_first_night"] = killed_n1
    merged["killed_first_night_red"] = killed_n1 & (team == "red")
    merged["hits"] = _best_move_hits(merged, killed_n1)
    ci = first_killed_compensation(merged, rules)
    units = Units.of(rules, _values_in_play(merged, rules, k, ci))
    merged["main_u"] = _main_units(merged, rules, k, units)
    merged["penalty_u"] = _penalty_units(left, units)
    merged["best_move_u"] = _best_move_units(merged, killed_n1, rules, units)
    merged["awards_u"] = _award_units(merged, rules, units)
    ci_u = np.zeros(len(merged), dtype=np.int64)
    for index, value in ci.items():
        ci_u[index] = _whole_units(value, units)
    merged["ci_u"] = ci_u
    merged["additional_u"] = (
        merged["penalty_u"] + merged["best_move_u"] + merged["awards_u"] + merged["ci_u"]
    )
    return Scored(merged, units, ci)


def _with_results(seats: pd.DataFrame, counted: pd.DataFrame) -> pd.DataFrame:
    """The seat rows of the counted games (one row each, as `counted` lists a game once),
    in their order, numbered 0 … n-1, with their game's `result`: what a left merge on
    the game gives, looked up by id instead."""
    if "result" in seats:  # a merge would keep both: leave it to the merge
        seats = seats[seats["game"].isin(counted["game"])]
        return seats.merge(counted[["game", "result"]], on="game", how="left")
    looked = _looked_up_by_game(seats["game"], counted)
    if looked is None:  # rows without a game id: pandas' own lookups, whatever they make of it
        seats = seats[seats["game"].isin(counted["game"])]
        values = seats["game"].map(counted.set_index("game")["result"]).to_numpy(dtype=object)
    else:
        inside, values = looked
        seats = seats[inside]
    kept = seats.reset_index(drop=True)
    # an object column, as a merge keeps it (an array assigned would become Arrow text)
    return kept.assign(result=pd.Series(values, index=kept.index, dtype=object))


def _looked_up_by_game(
    game: pd.Series, counted: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray] | None:
    """Which rows' games are `counted`, and the result of each such row: what `isin` and
    `map` on the rows give, judged once per distinct game id; None where a row has no id
    (how a missing id matches one is left to pandas)."""
    codes, distinct = pd.factorize(game.to_numpy(dtype=object))
    if (codes < 0).any():
        return None
    ids = pd.Series(distinct, dtype=object)
    inside = ids.isin(counted["game"]).to_numpy(dtype=bool)[codes]
    value = ids.map(counted.set_index("game")["result"]).to_numpy(dtype=object)[codes]
    return inside, value[inside]


def _values_in_play(
    seats: pd.DataFrame, rules: RuleSet, k: KSummary, paid: dict[int, Fraction]
) -> list[Fraction]:
    """Values beyond the rule set's own that a seat may earn: the heavy win (K), the
    numeric extras typed, and Ci (unless its denominators would make the scale too big)."""
    heavy = [rules.win_of(role) * k.value for role in ROLES] if k.applied else []
    extras = [Fraction(v) for v in seats["extra"].dropna().unique()]
    ci = list(set(paid.values()))
    base = Units.of(rules, [*heavy, *extras]).denominator
    if math.lcm(base, *(v.denominator for v in ci)) > MAX_SCALE:
        ci = []
    return [*heavy, *extras, *ci]


def _whole_units(value: Fraction, units: Units) -> int:
    """A value in units, rounded half up only where the scale could not hold it exactly
    (see :data:`MAX_SCALE`): per-game display rows, never the standings."""
    exact = value * units.denominator
    return math.floor(exact + Fraction(1, 2)) if exact.denominator != 1 else int(exact)


def _per_value(column: pd.Series | np.ndarray, table: Mapping[object, int]) -> np.ndarray:
    """`table`'s int of each row's value (0 for any other value or a missing one), looked
    up once per distinct value: a column of 100,000 seat rows holds a handful."""
    codes, distinct = pd.factorize(np.asarray(column, dtype=object))
    looked = [table.get(value, 0) for value in distinct]
    return np.array([*looked, 0], dtype=np.int64)[codes]


def _codes_of(column: pd.Series | np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Each row's position in `names` (-1: another value or none), hashed once: the
    comparisons with each name are then made on small integers."""
    return _per_value(column, {name: i + 1 for i, name in enumerate(names)}) - 1


def _main_units(seats: pd.DataFrame, rules: RuleSet, k: KSummary, units: Units) -> np.ndarray:
    """Win points (× K on heavy games), loss points and draw points, by role."""
    role = _codes_of(seats["role"], ROLES)
    paid = seats["paid"].to_numpy(dtype=bool)
    heavy = seats["heavy"].to_numpy(dtype=bool)
    result = seats["result"].to_numpy(dtype=object)
    draw = result == "draw"
    lost = ~seats["win"].to_numpy(dtype=bool) & ~draw & pd.notna(result)
    out = np.zeros(len(seats), dtype=np.int64)
    for position, name in enumerate(ROLES):
        mine = role == position
        win_value = rules.win_of(name)
        won = units.count(win_value * k.value) if k.applied else units.count(win_value)
        out[mine & paid] = np.where(heavy[mine & paid], won, units.count(win_value))
        out[mine & lost] = units.count(rules.points[f"loss_{name}"])
        out[mine & draw] = units.count(rules.points[f"draw_{name}"])
    return out


def _penalty_units(left: np.ndarray, units: Units) -> np.ndarray:
    """Disqualification, 4th foul, team removal, giving up: counted as additional points."""
    return _per_value(left, {code: units.values[key] for code, key in PENALTY_OF_LEFT.items()})


def _best_move_hits(seats: pd.DataFrame, killed_n1: np.ndarray) -> np.ndarray:
    """Blacks among the distinct seats named by the player killed on night 1 (else 0)."""
    out = np.zeros(len(seats), dtype=np.int64)
    named = seats["best_move"].to_numpy(dtype=object)
    eligible = np.flatnonzero(killed_n1 & pd.notna(named))
    if not len(eligible):
        return out
    games = seats["game"].to_numpy(dtype=object)
    black = seats["team"].to_numpy(dtype=object) == "black"
    black_seats = set(zip(games[black], seats["seat"].to_numpy(dtype=object)[black], strict=True))
    for index in eligible:  # at most one best move per game: a short loop
        out[index] = sum((games[index], s) in black_seats for s in set(named[index]))
    return out


def _best_move_units(
    seats: pd.DataFrame, killed_n1: np.ndarray, rules: RuleSet, units: Units
) -> np.ndarray:
    """Regulation 8.3: the player killed on night 1 names seats; count the blacks. Only a
    red player earns it unless the edition pays anyone."""
    hits = seats["hits"].to_numpy(dtype=np.int64)
    team = seats["team"].to_numpy(dtype=object)
    earns = killed_n1 & ((team == "red") | (rules.best_move_team == "any"))
    by_hits = [0, units.values["best_move_1"], units.values["best_move_2"]]
    by_hits.append(units.values["best_move_3"])
    return np.where(earns, np.take(by_hits, np.minimum(hits, 3)), 0).astype(np.int64)


def _award_units(seats: pd.DataFrame, rules: RuleSet, units: Units) -> np.ndarray:
    """Regulation 8.4 and the editions' extras: ЛИ +1 and ЛИ2 +0.5 to winners, ЛИП +0.5 to
    a loser, none in a draw (ЛИ counts there where the edition gives it to any team); the
    judge's best-move title; numeric extras as typed; the auto-bonus, withheld for a worst
    move."""
    # the bonus column hashed once: its few distinct marks are looked up, not each row
    marks = ("bp", "bp2", "bpl", "best_move_title", "worst_move")
    bonus = _codes_of(seats["bonus"], marks)
    in_draw = seats["result"].eq("draw").to_numpy()
    # by code: the four awards, a worst move's none, and none for any other mark (-1)
    award = np.array([*(units.values[code] for code in marks[:4]), 0, 0], dtype=np.int64)[bonus]
    drawn_out = np.isin(bonus, [1, 2] if rules.bp_any_team else [0, 1, 2])
    award = np.where(in_draw & drawn_out, 0, award)
    auto = np.where(bonus == 4, 0, units.values["auto_bonus"])
    total: np.ndarray = (award + _numeric_extras(seats["extra"], units) + auto).astype(np.int64)
    return total


def _numeric_extras(extra: pd.Series, units: Units) -> np.ndarray:
    """The numeric extras typed, in units: one exact Fraction made per distinct value."""
    codes, distinct = pd.factorize(extra.to_numpy(dtype=object))
    counted = [units.count(Fraction(value)) for value in distinct]
    return np.array([*counted, 0], dtype=np.int64)[codes]


# ---- Ci: first-killed compensation ---------------------------------------------------------


def ci_divisor(games: int) -> int:
    """round(0.4 · N), exactly: 0.4·N is never a half (4N is even, a half needs 10k + 5),
    so the rounding mode never matters and (4N + 5) // 10 is it.

    >>> [ci_divisor(n) for n in (1, 2, 3, 4, 5, 7, 10, 12)]
    [0, 1, 1, 2, 2, 3, 4, 5]
    """
    return (4 * games + 5) // 10


def ci_base(rules: RuleSet, games: int, deaths: int) -> Fraction:
    """One game's compensation before its reading's half: min(share · F / round(0.4·N), cap).

    F: the player's first-night deaths as red, N: their games. No Ci below `ci_from`
    games; round(0.4·N) = 0 (one game) pays the cap, as the rating site's division by
    zero does; with `ci_round` to hundredths the value is rounded half up, then capped.
    Worked example: N = 10, F = 2, share 0.5 → 0.5 · 2 / round(4.0) = 1/4 = 0.25.

    >>> from mafia_sheets.rules import load_rules
    >>> rules = load_rules("mr-fiim-7")
    >>> ci_base(rules, 10, 2), ci_base(rules, 7, 1), ci_base(rules, 1, 1)
    (Fraction(1, 4), Fraction(1, 6), Fraction(1, 2))
    """
    if games < rules.ci_from or deaths == 0:
        return Fraction(0)
    share, cap = rules.points["ci_share"], rules.points["ci_cap"]
    divisor = ci_divisor(games)
    if divisor == 0:
        return cap
    return min(_rounded(rules, share * deaths / divisor), cap)


def _rounded(rules: RuleSet, value: Fraction) -> Fraction:
    if rules.ci_round != "hundredths":
        return value
    return Fraction(math.floor(value * 100 + Fraction(1, 2)), 100)


def first_killed_compensation(seats: pd.DataFrame, rules: RuleSet) -> dict[int, Fraction]:
    """Ci of the seats paid it, by row position (exact): paid to a red player killed on
    night 1, in the games the edition's reading pays — only lost games; full when red
    lost and half when red won; full unless black won, half when black won — the two half
    readings paying nothing where the victim named no black."""
    out: dict[int, Fraction] = {}
    if not rules.pays_ci or not len(seats):
        return out
    red_n1 = seats["killed_first_night_red"].to_numpy(dtype=bool)
    games = seats.groupby("player", sort=False)["game"].transform("size").to_numpy()
    deaths = (
        seats.groupby("player", sort=False)["killed_first_night_red"].transform("sum").to_numpy()
    )
    result = seats["result"].to_numpy(dtype=object)
    hits = seats["hits"].to_numpy(dtype=np.int64)
    for index in np.flatnonzero(red_n1):
        factor = _ci_factor(rules.ci_when, str(result[index]), int(hits[index]))
        if factor:
            base = ci_base(rules, int(games[index]), int(deaths[index]))
            if base:
                out[int(index)] = _rounded(rules, base * factor)
    return out


def _ci_factor(when: str, result: str, hits: int) -> Fraction:
    """The share of the base a red first-night victim's game pays, by the reading."""
    if when == "lost":
        return Fraction(1) if result == "black" else Fraction(0)
    if hits == 0:
        return Fraction(0)
    half = "red" if when == "half_red_win" else "black"
    return Fraction(1, 2) if result == half else Fraction(1)


# ---- per player ---------------------------------------------------------------------------

SUMMED = (
    "games",
    "wins",
    "wins_don_sheriff",
    "killed_first_night",
    "killed_first_night_red",
    "main_u",
    "penalty_u",
    "best_move_u",
    "awards_u",
)


def player_totals(scored: Scored) -> pd.DataFrame:
    """One row per player: counts, exact Fraction points, the tie-break criteria."""
    seats, units = scored.seats, scored.units
    frame = seats.assign(
        wins=seats["win"].astype(np.int64),
        wins_don_sheriff=(seats["win"] & seats["role"].isin(["don", "sheriff"])).astype(np.int64),
        killed_first_night=seats["killed_first_night"].astype(np.int64),
        killed_first_night_red=seats["killed_first_night_red"].astype(np.int64),
        games=1,
    )
    sums = frame.groupby("player", sort=True)[list(SUMMED)].sum()
    # wins count every game the team won (8.6.2); win points only the paid ones
    sums["win_points"] = points_column(units, sums["main_u"].tolist())
    for column in ("penalty", "best_move", "awards"):
        sums[column] = points_column(units, sums[f"{column}_u"].tolist())
    ci: dict[str, Fraction] = {}
    players = seats["player"].to_numpy(dtype=object)
    for index, value in scored.ci.items():
        player = players[index]
        ci[player] = ci.get(player, Fraction(0)) + value  # exact, whatever the scale
    sums["ci"] = _fractions(ci.get(p, Fraction(0)) for p in sums.index)
    # the sums taken in units (Python ints: no overflow), one Fraction each, and Ci added
    # only where a player has it: the same exact values as adding the four Fractions
    penalty, best, awards = (sums[f"{c}_u"].tolist() for c in ("penalty", "best_move", "awards"))
    extra = [p + b + a for p, b, a in zip(penalty, best, awards, strict=True)]
    paid = [ci.get(p) for p in sums.index]
    sums["additional"] = _fractions(
        _plus(units.points(e), c) for e, c in zip(extra, paid, strict=True)
    )
    sums["total"] = _fractions(
        _plus(units.points(m + e), c)
        for m, e, c in zip(sums["main_u"].tolist(), extra, paid, strict=True)
    )
    return sums.reset_index()


def _plus(points: Fraction, ci: Fraction | None) -> Fraction:
    return points if ci is None else points + ci


def points_column(units: Units, values: Sequence[int]) -> np.ndarray:
    """`units.points` of each value, as an object column: one Fraction made per distinct
    value (players share a few sums of penalties or awards), the same exact values.

    >>> points_column(Units(4, {}), [2, 0, 2, 5]).tolist()
    [Fraction(1, 2), Fraction(0, 1), Fraction(1, 2), Fraction(5, 4)]
    """
    made = {value: units.points(value) for value in dict.fromkeys(values)}
    return _fractions(map(made.__getitem__, values))


def _fractions(values: Iterable[Fraction]) -> np.ndarray:
    """Exact values as an object column (the rating never holds a float)."""
    return np.fromiter(values, dtype=object)
