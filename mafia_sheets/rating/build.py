"""Assemble the rating of a checked protocol: K, points, standings, display tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from ..findings import Finding
from ..model import KSummary, Rating, Season, Standing
from .order import natural_rank
from .rank import LotInput, rank
from .score import Scored, coefficient_k, player_totals, seat_points
from .stats import compute_stats

# The points components of the «Баллы» table, each an exact int64 column `<name>_u` of
# 1/`Rating.points_scale` of a point (the report turns them into numbers to show).
POINT_COLUMNS = ("win_points", "penalty", "best_move", "awards", "ci", "additional", "total")


def build_rating(
    season: Season,
    findings: Sequence[Finding],
    lot_seed: int | None = None,
    stats: bool = True,
    keep_seats: bool = False,
) -> Rating:
    """Checked games → the complete rating (SPEC §3, §4, §6); `stats` adds the
    statistics of SPEC §6 sheets 7–9, `keep_seats` the scored seat rows."""
    rules = season.rules
    games = season.frames["games"]
    k = coefficient_k(games.drop_duplicates("game"), rules)
    scored = seat_points(season, k)
    totals = player_totals(scored)
    standings, removed, lot = rank(
        totals,
        rules.tiebreak,
        removed_players(season),
        LotInput(lot_orders(season), lot_seed),
        rules.shared_places,
    )
    scale = scored.units.denominator
    points = player_history(points_table(scored, season), [*standings, *removed])
    extra = (
        compute_stats(scored.seats, games, [*standings, *removed], scored.units, season.sources)
        if stats
        else None
    )
    return Rating(
        tournament=season.tournament,
        rules=rules,
        k=k,
        standings=standings,
        removed=removed,
        lot=lot,
        provisional=is_provisional(season),
        findings=tuple(findings),
        games=games_table(games, points, k),
        points_scale=scale,
        points=points,
        sources=season.sources,
        stats=extra,
        merged=season.merged,
        seats=_with_end(scored.seats, games) if keep_seats else None,
    )


def _with_end(seats: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """The scored seat rows with their game's round, judge, end time and departures mark
    (an export writes each game from its seats)."""
    listed = games.drop_duplicates("game").set_index("game")
    extra = {
        f"game_{column}": seats["game"].map(listed[column])
        for column in ("round", "table", "judge", "ended", "departures")
    }
    return seats.assign(**extra)


def removed_players(season: Season) -> set[str]:
    """Special situation 4: players removed from the tournament get no place."""
    frame = season.frame("players")
    if frame is None:
        return set()
    return set(frame.loc[frame["removed"].eq(True), "player"].dropna())


def lot_orders(season: Season) -> dict[str, int]:
    table = season.frame("lot")
    if table is None:
        return {}
    frame = table.dropna(subset=["player", "order"])
    return {str(p): int(o) for p, o in zip(frame["player"], frame["order"], strict=True)}


def is_provisional(season: Season) -> bool:
    """Regulation 8.7 / SPEC §4.3: any pending protest makes every output provisional —
    one whose decision is not written is not decided either (`protest-no-decision`)."""
    table = season.frame("protests")
    if table is None:
        return False
    decision = table["decision"]
    return bool((decision.eq("pending") | decision.isna() | decision.eq("")).any())


def points_table(scored: Scored, season: Season) -> pd.DataFrame:
    """One row per player per game with every component in exact units of 1/scale point,
    for the «Баллы» sheet."""
    seats = scored.seats
    frame = pd.DataFrame(
        {
            "source": seats["_source"] if "_source" in seats else season.sources[0],
            "game": seats["game"],
            "seat": seats["seat"].astype("Int64"),
            "player": seats["player"],
            "role": seats["role"],
            "team": seats["team"],
            "result": seats["result"],
            "win": seats["win"].to_numpy(dtype=bool),
            "heavy": seats["heavy"].to_numpy(dtype=bool),
            "win_points_u": seats["main_u"].to_numpy(dtype=np.int64),
            **{
                f"{part}_u": seats[f"{part}_u"].to_numpy(dtype=np.int64)
                for part in ("penalty", "best_move", "awards", "ci", "additional")
            },
            "killed_first_night": seats["killed_first_night"].to_numpy(dtype=bool),
        }
    )
    frame["total_u"] = frame["win_points_u"] + frame["additional_u"]
    return frame


def player_history(points: pd.DataFrame, order: Sequence[Standing]) -> pd.DataFrame:
    """The points rows as each player's game-by-game history, players in standings order,
    with a running total (display only: places are decided on the exact totals)."""
    position = {row.player: index for index, row in enumerate(order)}
    frame = points.assign(
        _player=points["player"].map(position), _game=natural_rank(points["game"])
    )
    # what a stable sort_values on (_player, _game, seat) gives, blanks last: one lexsort
    keys = [frame[c].to_numpy(dtype=np.float64, na_value=np.nan) for c in ("seat", "_game")]
    frame = frame.take(np.lexsort((*keys, frame["_player"].to_numpy(dtype=np.float64))))
    frame["running_total_u"] = frame.groupby("_player", sort=False)["total_u"].cumsum()
    return frame.drop(columns=["_player", "_game"]).reset_index(drop=True)


def _seat_columns(frame: pd.DataFrame, points: pd.DataFrame) -> dict[str, pd.Series]:
    """Seats 1–10 of each game of `frame` (its ids unique): the seat's total in units
    (blank: no such seat) and its player, the first points row of that game and seat.
    Each value is put at its game's position: a pivot by game and seat, aligned to the
    games, without building and reindexing the pivot tables."""
    by_seat = points.drop_duplicates(["game", "seat"])
    at = pd.Index(frame["game"]).get_indexer(by_seat["game"])
    seat = by_seat["seat"].to_numpy(dtype=np.float64, na_value=np.nan)
    total = by_seat["total_u"].to_numpy(dtype=np.int64)
    player = by_seat["player"].to_numpy(dtype=object)
    columns: dict[str, pd.Series] = {}
    for number in range(1, 11):
        mine = (seat == number) & (at >= 0)
        values, blank = np.zeros(len(frame), dtype=np.int64), np.ones(len(frame), dtype=bool)
        values[at[mine]], blank[at[mine]] = total[mine], False
        names = np.full(len(frame), np.nan, dtype=object)
        names[at[mine]] = player[mine]
        columns[f"seat_{number}_u"] = pd.Series(
            pd.arrays.IntegerArray(values, blank), index=frame.index
        )
        # typed as a pivot types them: inferred (text) where the seat has players
        columns[f"player_{number}"] = (
            pd.Series(names, index=frame.index)
            if mine.any()
            else pd.Series(names, index=frame.index, dtype=object)
        )
    return columns


def games_table(games: pd.DataFrame, points: pd.DataFrame, k: KSummary) -> pd.DataFrame:
    """One row per game: id, round, table, judge, result, whether K applied, seat totals."""
    frame = games.drop_duplicates("game").copy()
    frame["source"] = frame.get("_source", "")
    frame["annulled"] = frame["annulled"].eq(True)
    by_game = points.groupby("game", sort=False)
    frame["k_applied"] = frame["game"].map(by_game["heavy"].any()).fillna(False).astype(bool)
    frame["k"] = frame["k_applied"].map({True: k.value, False: Fraction(1)})  # exact
    frame = frame.assign(**_seat_columns(frame, points))
    columns = [
        "source",
        "game",
        "round",
        "table",
        "judge",
        "result",
        "annulled",
        "k_applied",
        "k",
        *(f"seat_{s}_u" for s in range(1, 11)),
        *(f"player_{s}" for s in range(1, 11)),
    ]
    frame = frame[columns]
    return frame.iloc[np.argsort(natural_rank(frame["game"]), kind="stable")].reset_index(drop=True)
