"""Player and tournament statistics (SPEC §6 sheets 7–9): what else the protocol says.

Computed once, in the rating stage, from the same per-seat rows the points come from
(:func:`mafia_sheets.rating.score.seat_points`), so a player's games and wins here are the
standings' own. Counts are integers, points stay integer units of 1/D point
(:class:`~mafia_sheets.rating.score.Units`); percentages are left to the display. Everything is
a handful of numpy reductions over integer-coded players and games: no Python loop ever
runs over seat rows (the loops below run over players, seats 1–10 or the 45 seat pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ..model import OverTime, Standing, Stats
from ..text import name_order
from .order import natural_rank
from .score import Units

ROLES = ("civilian", "sheriff", "mafia", "don")
TEAMS = ("red", "black")
AWARDS = ("bp", "bp2", "bpl")
RESULTS = ("red", "black", "draw")
SEATS = 10
# Head to head: pairs kept (most games together first). A club season of 100 players
# has at most 4,950 pairs; a 20,000-player field has millions, which nobody prints.
PAIRS_KEPT = 100_000
LEADERS = 10  # players on the standings-over-time chart
PAIR_BATCH = 20_000  # games whose 45 seat pairs are built at once

# One row per player: every count column below, int64.
COUNT_COLUMNS = (
    "games",
    "wins",
    *(f"{team}_{what}" for team in TEAMS for what in ("games", "wins")),
    *(f"{role}_{what}" for role in ROLES for what in ("games", "wins", "additional_u")),
    "killed_first_night",
    "best_moves",
    "best_moves_three",
    "best_moves_two",
    "best_move_u",
    "fouls",
    "fouled_out",
    "disqualified",
    "penalty_u",
    *AWARDS,
    "awards_u",
    "additional_u",
)


def compute_stats(
    seats: pd.DataFrame,
    games: pd.DataFrame,
    order: Sequence[Standing],
    units: Units,
    sources: Sequence[str] = (),
) -> Stats:
    """The statistics of a rated protocol.

    `seats` are the counted seat rows with their points (score.seat_points) in `units`,
    `games` the protocol's games, `order` the standings followed by the removed players.
    """
    names = [s.player for s in order]
    position = {name: index for index, name in enumerate(names)}
    player = seats["player"].map(position).to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(player).any():  # every rated player has a standings row; be safe anyway
        extra = sorted(set(seats.loc[np.isnan(player), "player"].astype(str)), key=name_order)
        names += extra
        position.update({name: len(position) + i for i, name in enumerate(extra)})
        player = seats["player"].map(position).to_numpy(dtype=np.float64)
    codes = player.astype(np.int64)
    counted = games[~games["annulled"].eq(True)].drop_duplicates("game")
    rows = _Rows.of(seats)
    players = _player_frame(seats, codes, names, units, rows)
    several = len(sources) > 1 or len(counted) > 1  # head to head once games are several
    totals = {c: int(counted["result"].eq(c).sum()) for c in RESULTS}
    pairs, pairs_total = _pairs(seats, codes, len(names), rows) if several else (None, 0)
    return Stats(
        denominator=units.denominator,
        players=players,
        games=len(counted),
        red_wins=totals["red"],
        black_wins=totals["black"],
        draws=totals["draw"],
        by_seat=_by_seat(seats, rows),
        by_table=_by_label(counted, "table"),
        by_round=_by_label(counted, "round"),
        ended=_ended(seats, counted),
        pairs=pairs,
        pairs_total=pairs_total,
        over_time=_over_time(seats, counted, codes, _Standings(order, units, sources)),
    )


@dataclass(frozen=True)
class _Rows:
    """What several statistics read of every seat row, converted once: the seat number
    (0 where there is none), the team as a code of :data:`TEAMS` (-1: neither), and
    whether the game was a draw."""

    seat: np.ndarray
    team: np.ndarray
    draw: np.ndarray

    @classmethod
    def of(cls, seats: pd.DataFrame) -> _Rows:
        draw = seats["result"].to_numpy(dtype=object) == "draw"
        return cls(_ints(seats["seat"]), _codes(seats["team"], TEAMS), np.asarray(draw, bool))

    @property
    def black(self) -> np.ndarray:
        return np.asarray(self.team == TEAMS.index("black"), dtype=bool)


def _rounds(counted: pd.DataFrame) -> int:
    return int(counted["round"].nunique(dropna=True)) if "round" in counted else 0


def _flag(values: pd.Series | np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=bool).astype(np.int64)


def _player_frame(
    seats: pd.DataFrame, codes: np.ndarray, names: list[str], units: Units, rows: _Rows
) -> pd.DataFrame:
    """One bincount per statistic over the integer-coded players."""
    size = len(names)

    def total(weights: np.ndarray) -> np.ndarray:
        return np.bincount(codes, weights=weights, minlength=size).round().astype(np.int64)

    role = _codes(seats["role"], ROLES)
    team = rows.team
    win = _flag(seats["win"])
    additional = seats["additional_u"].to_numpy(dtype=np.int64)
    left = _codes(seats["left"], ("fouled", "disqualified"))
    bonus = np.where(rows.draw, -1, _codes(seats["bonus"], AWARDS))
    made, hits = _best_move_hits(seats)
    columns: dict[str, np.ndarray] = {
        "games": np.bincount(codes, minlength=size).astype(np.int64),
        "wins": total(win),
    }
    for code, name in enumerate(TEAMS):
        mine = _flag(team == code)
        columns[f"{name}_games"] = total(mine)
        columns[f"{name}_wins"] = total(mine & win)
    for code, name in enumerate(ROLES):
        mine = _flag(role == code)
        columns[f"{name}_games"] = total(mine)
        columns[f"{name}_wins"] = total(mine & win)
        columns[f"{name}_additional_u"] = total(mine * additional)
    columns.update(
        {
            "killed_first_night": total(_flag(seats["killed_first_night"])),
            "best_moves": total(_flag(made)),
            "best_moves_three": total(_flag(made & (hits >= 3))),
            "best_moves_two": total(_flag(made & (hits == 2))),
            "best_move_u": total(seats["best_move_u"].to_numpy(dtype=np.int64)),
            "fouls": total(
                pd.to_numeric(seats["fouls"], errors="coerce").fillna(0).to_numpy(dtype=np.int64)
            ),
            "fouled_out": total(_flag(left == 0)),
            "disqualified": total(_flag(left == 1)),
            "penalty_u": total(seats["penalty_u"].to_numpy(dtype=np.int64)),
            **{name: total(_flag(bonus == code)) for code, name in enumerate(AWARDS)},
            "awards_u": total(seats["awards_u"].to_numpy(dtype=np.int64)),
            "additional_u": total(additional),
        }
    )
    frame = pd.DataFrame({"player": pd.Series(names, dtype=object), **columns})
    return frame[["player", *COUNT_COLUMNS]]


def _codes(series: pd.Series, values: Sequence[str]) -> np.ndarray:
    """Each value's index in `values` (-1 for anything else): one factorize, then ints."""
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    lookup = np.array(
        [values.index(u) if u in values else -1 for u in uniques] + [-1], dtype=np.int64
    )
    return lookup[codes]


def _best_move_hits(seats: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(made, blacks named) per seat row: a best move is the seats named by the player
    killed on night 1; each distinct named seat that holds a black player is a hit."""
    named = seats["best_move"]
    made = seats["killed_first_night"].to_numpy(dtype=bool, copy=True)
    rows = np.flatnonzero(made)  # a few rows per hundred: each asked what it names
    made[rows] = [isinstance(v, tuple | list) and bool(v) for v in named.to_numpy()[rows]]
    hits = np.zeros(len(seats), dtype=np.int64)
    rows = np.flatnonzero(made)
    if not len(rows):
        return made, hits
    if "hits" in seats:  # the scored rows count them already (score.seat_points): the same
        hits[rows] = seats["hits"].to_numpy(dtype=np.int64)[rows]
        return made, hits
    # at most one best move per game: this frame has a few rows per hundred seats
    game = seats["game"].to_numpy(dtype=object)
    picked = pd.DataFrame(
        {"row": rows, "game": game[rows], "seat": named.to_numpy(dtype=object)[rows]}
    ).explode("seat")
    picked = picked.dropna(subset=["seat"]).drop_duplicates(["row", "seat"])
    black = seats["team"].to_numpy(dtype=object) == "black"
    blacks = pd.MultiIndex.from_arrays([game[black], _ints(seats["seat"])[black]])
    hit = pd.MultiIndex.from_arrays(
        [picked["game"].to_numpy(dtype=object), _ints(picked["seat"])]
    ).isin(blacks)
    hits += np.bincount(picked["row"].to_numpy(dtype=np.int64)[hit], minlength=len(seats))
    return made, hits


def _ints(series: pd.Series) -> np.ndarray:
    return pd.to_numeric(series, errors="coerce").fillna(0).to_numpy(dtype=np.int64)


def _by_seat(seats: pd.DataFrame, rows: _Rows) -> pd.DataFrame:
    """Seat number 1–10: games played there and the wins of whoever sat there."""
    seat = rows.seat
    win = _flag(seats["win"])
    frame = pd.DataFrame({"seat": np.arange(1, SEATS + 1)})
    frame["games"] = np.bincount(seat, minlength=SEATS + 1)[1 : SEATS + 1]
    frame["wins"] = np.bincount(seat, weights=win, minlength=SEATS + 1)[1 : SEATS + 1]
    frame["wins"] = frame["wins"].round().astype(np.int64)
    black = rows.black
    for name, mask in (("as_red", ~black), ("as_black", black)):
        frame[f"{name}_games"] = np.bincount(seat[mask], minlength=SEATS + 1)[1 : SEATS + 1]
        frame[f"{name}_wins"] = np.bincount(seat[mask], weights=win[mask], minlength=SEATS + 1)[
            1 : SEATS + 1
        ].round()
        frame[f"{name}_wins"] = frame[f"{name}_wins"].astype(np.int64)
    frame["draws"] = np.bincount(seat[rows.draw], minlength=SEATS + 1)[1 : SEATS + 1]
    return frame


def _results_by(labels: pd.Series, result: pd.Series) -> pd.DataFrame:
    """Games and each result per label, labels in order of first appearance.

    Factorized rather than crosstabbed: labels may mix numbers and texts, which do not sort.
    """
    codes, uniques = pd.factorize(labels, sort=False)
    outcome = result.to_numpy(dtype=object)
    frame = pd.DataFrame({"label": pd.Series(list(uniques), dtype=object)})
    for name in RESULTS:
        frame[name] = np.bincount(codes[outcome == name], minlength=len(uniques)).astype(np.int64)
    frame.insert(1, "games", frame[list(RESULTS)].sum(axis=1).astype(np.int64))
    return frame


def _by_label(counted: pd.DataFrame, column: str) -> pd.DataFrame:
    """Results by table or by round, in natural order of the label (2 before 10)."""
    if column not in counted or counted[column].isna().all():
        return pd.DataFrame(
            {
                c: pd.Series(dtype=object if c == "label" else np.int64)
                for c in ("label", "games", *RESULTS)
            }
        )
    known = counted[counted[column].notna()]
    frame = _results_by(known[column], known["result"])
    return frame.iloc[np.argsort(natural_rank(frame["label"]), kind="stable")].reset_index(
        drop=True
    )


def _ended(seats: pd.DataFrame, counted: pd.DataFrame) -> pd.DataFrame:
    """How games ended: the phase of each game's last departure (0 = nobody left)."""
    when = pd.to_numeric(seats["when"], errors="coerce").where(seats["left"].notna())
    last = when.groupby(seats["game"].to_numpy(dtype=object), sort=False).max()
    phase = counted["game"].map(last).fillna(0).astype(np.int64)
    frame = _results_by(phase.rename("phase"), counted["result"])
    return frame.sort_values("label", kind="stable").reset_index(drop=True)


def _pairs(
    seats: pd.DataFrame, codes: np.ndarray, size: int, rows: _Rows
) -> tuple[pd.DataFrame, int]:
    """Head to head: every two players who sat at one table, from the 45 seat pairs of
    each game at once. Players are integer codes (standings order), so a pair is one
    int64 key `a * size + b` with a < b: the better-placed player comes first."""
    game_codes, _ = pd.factorize(seats["game"], sort=False)
    order = np.lexsort((rows.seat, game_codes))
    if len(order) % SEATS or len(order) == 0:  # not ten seats per game: nothing to pair
        return _no_pairs(), 0
    shape = (len(order) // SEATS, SEATS)
    player = codes[order].reshape(shape)
    black = rows.black[order].reshape(shape)
    win = seats["win"].to_numpy(dtype=bool)[order].reshape(shape)
    first, second = np.triu_indices(SEATS, 1)  # the 45 seat pairs of a game
    keys, flags = [], []
    for start in range(0, shape[0], PAIR_BATCH):  # a batch of games: bounded memory
        batch = slice(start, start + PAIR_BATCH)
        a, b = player[batch][:, first], player[batch][:, second]
        keys.append((np.minimum(a, b) * size + np.maximum(a, b)).ravel())
        same = black[batch][:, first] == black[batch][:, second]
        win_a, win_b = win[batch][:, first], win[batch][:, second]
        a_low = a < b
        low_won = ~same & np.where(a_low, win_a, win_b)
        high_won = ~same & np.where(a_low, win_b, win_a)
        # bits: 1 same team, 2 same team and won, 4 low won against, 8 high won against
        flags.append(
            (
                same.astype(np.int8)
                | (same & win_a).astype(np.int8) << 1
                | low_won.astype(np.int8) << 2
                | high_won.astype(np.int8) << 3
            ).ravel()
        )
    key = np.concatenate(keys)
    flag = np.concatenate(flags)
    del keys, flags
    unique, (met, together, together_wins, a_won, b_won) = _pair_counts(key, flag)
    del key, flag
    low, high = np.divmod(unique, size)
    # the keys come sorted by (a, b): one stable sort on (games, same team) keeps it
    primary = met * (int(together.max(initial=0)) + 1) + together
    top = _stable_order(-primary)[:PAIRS_KEPT]
    frame = pd.DataFrame(
        {
            "a": low[top],
            "b": high[top],
            "games": met[top],
            "together": together[top],
            "together_wins": together_wins[top],
            "against": met[top] - together[top],
            "a_won": a_won[top],
            "b_won": b_won[top],
        }
    )
    return frame, len(unique)


def _pair_counts(key: np.ndarray, flag: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The distinct pair keys, ascending, and per key the games met and the games with
    each flag bit (1, 2, 4, 8)."""
    unique, inverse = np.unique(key, return_inverse=True)
    counts = [np.bincount(inverse, minlength=len(unique)).astype(np.int64)]
    for bit in (1, 2, 4, 8):
        marked = np.bincount(inverse, weights=(flag & bit) > 0, minlength=len(unique))
        counts.append(marked.astype(np.int64))
    return unique, counts


def _stable_order(values: np.ndarray) -> np.ndarray:
    """`np.argsort(values, kind="stable")`; values that fit 16 bits are sorted as such,
    which numpy does by radix (the same order: a stable sort has only one)."""
    if len(values) and int(values.min()) >= -(2**15) and int(values.max()) < 2**15:
        values = values.astype(np.int16)
    return np.argsort(values, kind="stable")


def _no_pairs() -> pd.DataFrame:
    return pd.DataFrame(
        {
            c: pd.Series(dtype=np.int64)
            for c in ("a", "b", "games", "together", "together_wins", "against", "a_won", "b_won")
        }
    )


@dataclass(frozen=True)
class _Standings:
    """What the standings over time take from the rating besides the seats."""

    order: Sequence[Standing]
    units: Units
    sources: Sequence[str]


def _over_time(
    seats: pd.DataFrame, counted: pd.DataFrame, codes: np.ndarray, rated: _Standings
) -> OverTime | None:
    """Cumulative exact totals of the top players after each round (a season: after each
    file, in the order given; no rounds: after each game)."""
    leaders = [s for s in rated.order if not s.removed][:LEADERS]
    if not leaders or not len(seats):
        return None
    kind, labels, step = _steps(seats, counted, rated.sources)
    totals = _running_totals(seats, codes, step, len(leaders), rated)
    steps = tuple(
        None if (v is None or (isinstance(v, float) and np.isnan(v))) else v
        for v in labels.tolist()
    )
    return OverTime(kind, steps, tuple(s.player for s in leaders), totals)


def _steps(
    seats: pd.DataFrame, counted: pd.DataFrame, sources: Sequence[str]
) -> tuple[str, pd.Series, np.ndarray]:
    """The kind of step (file, round or game), each step's label, each seat's step."""
    if len(sources) > 1 and "_source" in seats:
        labels = pd.Series(list(sources), dtype=object)
        by_file = seats["_source"].map({name: i for i, name in enumerate(sources)})
        return "file", labels, by_file.fillna(len(sources)).to_numpy(dtype=np.int64)
    column = "round" if _rounds(counted) else "game"
    values = (
        seats["game"].map(counted.set_index("game")[column]) if column == "round" else seats["game"]
    )
    rank = natural_rank(values.fillna("\uffff"))
    distinct, step = np.unique(rank, return_inverse=True)
    first = pd.Series(values.to_numpy(dtype=object)).groupby(step).first()
    return column, first.reindex(range(len(distinct))), step


def _running_totals(
    seats: pd.DataFrame, codes: np.ndarray, step: np.ndarray, leaders: int, rated: _Standings
) -> tuple[tuple[Fraction, ...], ...]:
    """Each leader's exact total after each step (leaders are player codes 0 … n-1)."""
    count = int(step.max()) + 1 if len(step) else 0
    chosen = np.full(max(int(codes.max()) + 1, leaders), -1, dtype=np.int64)
    chosen[np.arange(leaders)] = np.arange(leaders)
    mine = chosen[codes]
    keep = mine >= 0
    cell = mine[keep] * count + step[keep]

    def cumulative(column: str) -> np.ndarray:
        values = seats[column].to_numpy(dtype=np.float64)[keep]
        sums = np.bincount(cell, weights=values, minlength=leaders * count).round()
        running: np.ndarray = sums.astype(np.int64).reshape(leaders, count).cumsum(axis=1)
        return running

    # every component is in units (the win points with K, loss and draw points too)
    main, extra = cumulative("main_u"), cumulative("additional_u")
    return tuple(
        tuple(rated.units.points(int(m + a)) for m, a in zip(main[i], extra[i], strict=True))
        for i in range(leaders)
    )
