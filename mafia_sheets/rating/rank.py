"""Standings and the tie-break chain of regulation 8.6, down to the lot.

Players are ordered by the rule set's criteria (total, then additional points, wins, wins
as Don or Sheriff, first-night deaths — all "more is better"), compared as exact values.
Players equal on every criterion are ordered by the lot: the «Жребий» sheet when it ranks
all of them, else a seeded draw (`--lot-seed`), else they share a place range ("5–6").
Places are competition-style only for open lots; otherwise every player has their own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

import pandas as pd

from ..model import DecidedBy, LotStatus, Standing
from ..rules import order_parts
from ..text import name_order

# Each criterion a tie-break order may name → the totals column it compares ("more is
# better"); an order's item may sum several (`extras+penalties+best_move`, the site's `(epg)`).
CRITERIA_COLUMNS = {
    "total": "total",
    "additional": "additional",
    "main": "win_points",
    "extras": "awards",
    "penalties": "penalty",
    "best_move": "best_move",
    "ci": "ci",
    "wins": "wins",
    "wins_don_sheriff": "wins_don_sheriff",
    "killed_first_night": "killed_first_night",
    "killed_first_night_red": "killed_first_night_red",
    "games": "games",
}
EN_DASH = "–"


@dataclass(frozen=True)
class LotInput:
    """Lot orders from the «Жребий» sheet (player → order, 1 wins) and an optional seed."""

    orders: dict[str, int]
    seed: int | None = None


def rank(
    totals: pd.DataFrame,
    criteria: Sequence[str],
    removed: set[str],
    lot: LotInput,
    shared: str = "no",
) -> tuple[tuple[Standing, ...], tuple[Standing, ...], LotStatus]:
    """(standings, removed players' rows, how ties were broken).

    With `shared` places ("yes": 1, 2–3, 2–3, 4; "dense": 1, 2, 2, 3, as the judge app
    numbers them) equal totals share a place and no lot is drawn: the other criteria
    only order the rows of a shared place.

    Worked example: totals 5, 3.5, 3.5, 3.5, 1 where the three 3.5 players have
    additional 1, 0.5, 0.5 and are otherwise equal → places 1, 2, 3–4, 3–4, 5 with
    decided_by total, additional, tied, total, total (and a lot needed for 3–4).

    >>> from fractions import Fraction as F
    >>> rows = [("A", 5, 0), ("B", F(7, 2), 1), ("C", F(7, 2), F(1, 2)),
    ...         ("D", F(7, 2), F(1, 2)), ("E", 1, 0)]
    >>> totals = pd.DataFrame([{"player": p, "total": F(t), "additional": F(a),
    ...     "win_points": F(t) - F(a), "best_move": F(0), "awards": F(a), "penalty": F(0),
    ...     "games": 2, "wins": 1, "wins_don_sheriff": 0, "killed_first_night": 0}
    ...     for p, t, a in rows])
    >>> standings, _, lot = rank(totals, ["total", "additional", "wins"], set(), LotInput({}))
    >>> [(s.place_range, s.player, s.decided_by) for s in standings]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('1', 'A', 'total'), ('2', 'B', 'additional'), ('3–4', 'C', 'tied'),
     ('3–4', 'D', 'total'), ('5', 'E', 'total')]
    >>> lot.needed, lot.groups
    (True, (('C', 'D'),))
    """
    keys = [c for c in criteria if all(p in CRITERIA_COLUMNS for p in order_parts(c))]
    records = cast(list[dict[str, Any]], totals.to_dict("records"))
    _with_criteria(records, keys)
    ranked = _sorted([r for r in records if r["player"] not in removed], keys)
    apart = _sorted([r for r in records if r["player"] in removed], keys)
    removed_rows = tuple(_standing(r, None, "", "total", removed=True) for r in apart)
    if shared != "no":
        standings = _shared_places(ranked, keys, shared == "dense")
        return standings, removed_rows, LotStatus(False, "none")
    groups = _tie_groups(ranked, keys)
    ordered, status = _break_ties(groups, lot)
    standings = _place(ordered, keys)
    return standings, removed_rows, status


def _shared_places(
    ranked: list[dict[str, Any]], keys: Sequence[str], dense: bool
) -> tuple[Standing, ...]:
    """Equal totals share a place: `2–3` and then 4, or (dense) 2, 2 and then 3.

    >>> from fractions import Fraction as F
    >>> rows = [{"player": p, "total": F(t), "games": 1} for p, t in
    ...         (("A", 3), ("B", 2), ("C", 2), ("D", 1))]
    >>> [s.place_range for s in _shared_places(_filled(rows), ["total", "games"], False)]
    ['1', '2–3', '2–3', '4']
    >>> [s.place_range for s in _shared_places(_filled(rows), ["total", "games"], True)]
    ['1', '2', '2', '3']
    """
    rows: list[Standing] = []
    groups = _tie_groups(ranked, ["total"])
    position = 1
    for dense_place, group in enumerate(groups, start=1):
        first, last = position, position + len(group) - 1
        place = dense_place if dense else first
        place_range = str(place) if dense or first == last else f"{first}{EN_DASH}{last}"
        for i, record in enumerate(group):
            below = group[i + 1] if i + 1 < len(group) else None
            decided = "shared" if below is not None else "total"
            rows.append(_standing(record, place, place_range, decided))
        position = last + 1
    if rows:  # the last row says total, as every standings' last row does
        rows[-1] = replace(rows[-1], decided_by="total")
    return tuple(rows)


def _filled(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Doctest helper: a standings record with every field of :class:`Standing`."""
    zero = {"win_points": 0, "additional": 0, "best_move": 0, "awards": 0, "penalty": 0}
    counts = {"wins": 0, "wins_don_sheriff": 0, "killed_first_night": 0}
    return [{**zero, **counts, **row} for row in rows]


def _with_criteria(records: list[dict[str, Any]], keys: Sequence[str]) -> None:
    """Each record's value of each criterion: its column, or the exact sum of its parts."""
    for key in keys:
        columns = [CRITERIA_COLUMNS[p] for p in order_parts(key)]
        if len(columns) == 1:  # the column's own value: no `0 + value` a record
            column = columns[0]
            for record in records:
                record[key] = record[column]
            continue
        for record in records:
            record[key] = sum(record[column] for column in columns)


def _sorted(records: list[dict[str, Any]], keys: Sequence[str]) -> list[dict[str, Any]]:
    """Best first by every criterion, compared exactly. Each criterion's values are
    compared as whole numbers over their common denominator (the same order and the same
    ties as the Fractions, without a Fraction made or compared per pair); the name last
    only so that the order inside an unbroken tie is stable and readable: Russian
    collation, «Ё» with «Е», case-insensitive."""
    scaled = [_scaled([record[key] for record in records]) for key in keys]
    names = [name_order(record["player"]) for record in records]
    order_keys = [(*(-column[i] for column in scaled), names[i]) for i in range(len(records))]
    return [records[i] for i in sorted(range(len(records)), key=order_keys.__getitem__)]


def _scaled(values: list[Any]) -> list[Any]:
    """Exact values (ints and Fractions) as ints of one common denominator, in the same
    order; any other kind of value is left as it is, compared as it is."""
    if not all(value.__class__ is int or value.__class__ is Fraction for value in values):
        return values
    common = math.lcm(*{value.denominator for value in values})
    return [value.numerator * (common // value.denominator) for value in values]


def _tie_groups(ranked: list[dict[str, Any]], keys: Sequence[str]) -> list[list[dict[str, Any]]]:
    groups: list[list[dict[str, Any]]] = []
    for record in ranked:
        if groups and all(groups[-1][0][k] == record[k] for k in keys):
            groups[-1].append(record)
        else:
            groups.append([record])
    return groups


def _break_ties(
    groups: list[list[dict[str, Any]]], lot: LotInput
) -> tuple[list[tuple[list[dict[str, Any]], str]], LotStatus]:
    """Each group with how its order was decided: "single", "sheet", "seed" or "open"."""
    rng = random.Random(lot.seed) if lot.seed is not None else None
    decided: list[tuple[list[dict[str, Any]], str]] = []
    tied_groups: list[tuple[str, ...]] = []
    methods: set[str] = set()
    for group in groups:
        if len(group) == 1:
            decided.append((group, "single"))
            continue
        if _sheet_decides(group, lot.orders):
            decided.append((sorted(group, key=lambda r: lot.orders[r["player"]]), "sheet"))
        elif rng is not None:
            shuffled = list(group)
            rng.shuffle(shuffled)
            decided.append((shuffled, "seed"))
        else:
            decided.append((_partial_lot_order(group, lot.orders), "open"))
        methods.add(decided[-1][1])
        tied_groups.append(tuple(r["player"] for r in decided[-1][0]))
    status = LotStatus(
        needed="open" in methods,
        method=(
            "open"
            if "open" in methods
            else "seed"
            if "seed" in methods
            else "sheet"
            if methods
            else "none"
        ),
        seed=lot.seed if "seed" in methods else None,
        groups=tuple(tied_groups),
    )
    return decided, status


def _sheet_decides(group: list[dict[str, Any]], orders: dict[str, int]) -> bool:
    """Whether the «Жребий» sheet orders every player of a tie, each by an order of their
    own (two given one order are not told apart by it: `lot-order-twice` says so)."""
    given = [orders.get(r["player"]) for r in group]
    return None not in given and len(set(given)) == len(given)


def _partial_lot_order(group: list[dict[str, Any]], orders: dict[str, int]) -> list[dict[str, Any]]:
    """An open tie listed in lot order as far as the «Жребий» sheet goes: the players it
    ranks first, in its order, then the others by name. They still share the place range:
    a lot that misses a player decides nothing (the check says so, `lot-missing-player`)."""
    drawn = sorted((r for r in group if r["player"] in orders), key=lambda r: orders[r["player"]])
    return drawn + [r for r in group if r["player"] not in orders]


def _place(
    decided: list[tuple[list[dict[str, Any]], str]], keys: Sequence[str]
) -> tuple[Standing, ...]:
    flat = [
        (record, how, len(group), i) for group, how in decided for i, record in enumerate(group)
    ]
    rows: list[Standing] = []
    position = 1
    for index, (record, how, size, i) in enumerate(flat):
        if how == "open":
            first = position - i
            place, place_range = first, f"{first}{EN_DASH}{first + size - 1}"
        else:
            place, place_range = position, str(position)
        below = flat[index + 1][0] if index + 1 < len(flat) else None
        rows.append(
            _standing(record, place, place_range, _decided_by(record, below, how, i, size, keys))
        )
        position += 1
    return tuple(rows)


def _decided_by(
    record: dict[str, Any],
    below: dict[str, Any] | None,
    how: str,
    i: int,
    size: int,
    keys: Sequence[str],
) -> DecidedBy:
    """The first criterion on which this player differs from the next player below."""
    if below is None:
        return "total"
    if i < size - 1:  # the next player is in the same tie group
        return "tied" if how == "open" else "lot"
    for key in keys:
        if record[key] != below[key]:
            return key
    return "tied"  # unreachable: groups differ on some key by construction


def _standing(
    record: dict[str, Any],
    place: int | None,
    place_range: str,
    decided_by: DecidedBy,
    removed: bool = False,
) -> Standing:
    return Standing(
        place=place,
        place_range=place_range,
        player=record["player"],
        total=record["total"],
        win_points=record["win_points"],
        additional=record["additional"],
        best_move=record["best_move"],
        awards=record["awards"],
        penalties=record["penalty"],
        games=int(record["games"]),
        wins=int(record["wins"]),
        wins_don_sheriff=int(record["wins_don_sheriff"]),
        killed_first_night=int(record["killed_first_night"]),
        decided_by=decided_by,
        removed=removed,
        ci=record.get("ci", Fraction(0)),
    )
