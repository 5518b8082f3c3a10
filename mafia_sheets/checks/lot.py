"""SPEC §2.6, §4.2 step 5: the «Жребий» sheet against the ties it is meant to break.

A lot sheet that ranks only some of the players tied on every criterion decides nothing
for that tie: the players share the place range (or a `--lot-seed` draw orders them all),
and the judge is told at the sheet, in the row where the missing player belongs. A tie
of which the sheet names nobody is not its miss (a lot is often drawn for the prize places
only): the standings say that a lot is needed there.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

from ..findings import Finding, define
from ..findings import finding as make
from ..model import Protocol, Rating, Table
from ..rating.rank import EN_DASH
from ..text import Plural, Text
from . import lot_filled, rating_check
from .names import name_key

LOT_MISSING_PLAYER = define(
    "lot-missing-player",
    "warning",
    Text(
        "На листе «Жребий» нет {missing} — {tied} делят {places} место, и лист эту ничью не решает",
        "The Lot sheet lacks {missing} — {tied} share place {places}, and the sheet does "
        "not decide this tie",
    ),
    Text(
        "на листе «Жребий» все игроки этой ничьей: {players}",
        "every player of this tie on the Lot sheet: {players}",
    ),
    Text(
        "Добавьте {missing} на лист «Жребий» с порядком по итогам жеребьёвки (1 — выиграл жребий)",
        "Add {missing} to the Lot sheet with the order drawn (1 wins the lot)",
    ),
)

LOT_ORDER_TWICE = define(
    "lot-order-twice",
    "warning",
    Text(
        "На листе «Жребий» порядок {order} стоит у {players}: лист эту ничью не решает",
        "On the Lot sheet the order {order} is given to {players}: the sheet does not "
        "decide this tie",
    ),
    Text("у каждого игрока ничьей свой порядок", "an order of their own for each tied player"),
    Text(
        "Впишите порядок по итогам жеребьёвки: 1, 2, 3 … без повторов",
        "Enter the order drawn: 1, 2, 3 … with no repeats",
    ),
)
LOT_UNKNOWN_PLAYER = define(
    "lot-unknown-player",
    "warning",
    Text(
        "На листе «Жребий» «{value}» — нет такого игрока в итогах{suggestion}",
        "On the Lot sheet “{value}” is no player of the standings{suggestion}",
    ),
    Text("ник игрока, как в протоколе", "a player's nickname as in the protocol"),
    Text(
        "Исправьте ник так, как он записан в протоколе",
        "Correct the nickname to the one in the protocol",
    ),
)

_PLAYERS = Plural(("игрок", "игрока", "игроков"), ("player", "players"))


def _free_cell(table: Table) -> tuple[str, int]:
    """The player cell of the first row below the sheet's last row: where a name is added."""
    rows = table.frame["_row"]
    row = int(rows.max()) + 1 if len(rows) else table.header_row + 1
    return table.cell("player", row), row


@rating_check(LOT_MISSING_PLAYER)
def lot_covers_every_tie(subject: tuple[Sequence[Protocol], Rating]) -> Iterator[Finding]:
    protocols, rating = subject
    sheets = [p.tables["lot"] for p in protocols if lot_filled(p)]
    if not sheets:
        return
    table = sheets[0]  # a season: the first file whose lot sheet is filled
    drawn: set[str] = set()
    for sheet in sheets:
        frame = sheet.frame.dropna(subset=["player", "order"])
        drawn |= {str(p) for p in frame["player"]}
    places = {s.player: s.place for s in rating.standings}
    cell, row = _free_cell(table)
    for group in rating.lot.groups:
        missing = [p for p in group if p not in drawn]
        if not missing or len(missing) == len(group):
            continue
        first = min((places[p] or 0) for p in group)  # an open tie: each has the first place
        shown = Text(", ".join(f"«{p}»" for p in missing), ", ".join(f"“{p}”" for p in missing))
        yield make(
            LOT_MISSING_PLAYER,
            table.sheet,
            cell,
            ", ".join(missing),
            row=row,
            source=table.source,
            missing=shown,
            tied=Text(_PLAYERS(len(group), "ru"), _PLAYERS(len(group), "en")),
            places=f"{first}{EN_DASH}{first + len(group) - 1}",
            players=", ".join(group),
        )


@rating_check(LOT_ORDER_TWICE)
def lot_orders_are_distinct(subject: tuple[Sequence[Protocol], Rating]) -> Iterator[Finding]:
    """A tie whose players the sheet gives one order twice: at the second such cell."""
    protocols, rating = subject
    for table in (p.tables["lot"] for p in protocols if lot_filled(p)):
        frame = table.frame.dropna(subset=["player", "order"])
        columns = zip(frame["player"], frame["order"], frame["_row"], strict=True)
        order_of = {str(player): (order, row) for player, order, row in columns}
        for group in rating.lot.groups:
            given: dict[object, list[tuple[str, int]]] = {}
            for player in group:
                if player in order_of:
                    order, row = order_of[player]
                    given.setdefault(order, []).append((player, int(row)))
            for order, holders in given.items():
                if len(holders) < 2:
                    continue
                row = max(r for _, r in holders)
                yield make(
                    LOT_ORDER_TWICE,
                    table.sheet,
                    table.cell("order", row),
                    order,
                    row=row,
                    source=table.source,
                    order=order,
                    players=", ".join(p for p, _ in holders),
                    also=[(table.sheet, table.cell("order", r)) for _, r in holders if r != row],
                )


@rating_check(LOT_UNKNOWN_PLAYER)
def lot_names_players(subject: tuple[Sequence[Protocol], Rating]) -> Iterator[Finding]:
    """A name on the sheet that is no player of the standings (a typo draws for nobody)."""
    protocols, rating = subject
    players = [s.player for s in (*rating.standings, *rating.removed)]
    known = set(players)
    for table in (p.tables["lot"] for p in protocols if lot_filled(p)):
        frame = table.frame.dropna(subset=["player"])
        for player, row in zip(frame["player"], frame["_row"], strict=True):
            name = str(player)
            if name in known:
                continue
            same = [p for p in players if name_key(p) == name_key(name)]  # `Р2` (Cyrillic Р)
            near = same or difflib.get_close_matches(name, players, n=1, cutoff=0.6)
            suggestion = (
                Text(f"; может быть, «{near[0]}»?", f"; perhaps “{near[0]}”?") if near else ""
            )
            yield make(
                LOT_UNKNOWN_PLAYER,
                table.sheet,
                table.cell("player", int(row)),
                name,
                row=int(row),
                source=table.source,
                suggestion=suggestion,
            )
