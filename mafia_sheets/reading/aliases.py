"""Players who change their name: the roster's «Другие ники» / «Also known as».

A nickname listed there is the same player as the row's `Игрок`: every seat and lot row
typed under it is read as the roster's nickname, so a rename after game 3 (or a typo
corrected from game 4 on) is one row in the standings. Each spelling merged is said once
(`alias-merged`, at its first seat) and named on `Сводка`.

A nickname listed for two players (`alias-twice`, at both cells), or one that is another
player's own nickname (`alias-is-player`), merges nothing: the judge decides.

Over a season the rosters of every file count together: a player renamed in March's file
is the same player in April's file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pandas as pd

from ..findings import Finding, define, finding
from ..model import Protocol, Table
from ..text import Text

ALIAS_TWICE = define(
    "alias-twice",
    "error",
    Text(
        "Ник «{value}» в «Другие ники» у двух игроков: «{player}» и «{other}»",
        "Nickname “{value}” is in «Also known as» of two players: “{player}” and “{other}”",
    ),
    Text("другой ник одного игрока", "another nickname of one player"),
    Text(
        "Оставьте «{value}» в «Другие ники» только у того игрока, чей это ник",
        "Keep “{value}” in «Also known as» of the one player it belongs to",
    ),
)

ALIAS_IS_PLAYER = define(
    "alias-is-player",
    "error",
    Text(
        "«{value}» в «Другие ники» у «{player}» — это ник другого игрока из списка",
        "“{value}” in «Also known as» of “{player}” is another listed player's nickname",
    ),
    Text("ник, под которым нет своей строки в списке", "a nickname with no roster row of its own"),
    Text(
        "Если это один игрок, удалите строку «{value}»; если разные — уберите его из «Другие ники»",
        "If it is one player, delete the row “{value}”; if two players, remove it from "
        "«Also known as»",
    ),
)

ALIAS_MERGED = define(
    "alias-merged",
    "warning",
    Text(
        "«{value}» — другой ник игрока «{player}» (лист «Игроки»): его игры засчитаны «{player}»",
        "“{value}” is another nickname of “{player}” (the Players sheet): its games count "
        "for “{player}”",
    ),
    Text("одно написание ника у одного игрока", "one spelling per player"),
    Text(
        "Ничего делать не нужно; чтобы не видеть замечания, исправьте ник на «{player}»",
        "Nothing to do; to silence this, change the nickname to “{player}”",
    ),
)


@dataclasses.dataclass(frozen=True)
class Listed:
    """One «Другие ники» entry: the spelling, whose it is, and where it is typed."""

    alias: str
    player: str
    table: Table
    row: int


def merge_aliases(protocols: Sequence[Protocol]) -> tuple[list[Protocol], list[Finding]]:
    """The protocols with every alias read as its player's nickname, and what was said."""
    entries = [e for p in protocols for e in _entries(p)]
    findings, meaning = _resolve(entries, {n for p in protocols for n in _names(p)})
    merged: list[Protocol] = []
    for protocol in protocols:
        protocol, found = _rewrite(protocol, meaning)
        merged.append(protocol)
        findings += found
    return merged, findings


def split(text: object) -> list[str]:
    """`'Котик, Kot; Кот Учёный'` → the spellings, spaces tidied."""
    if not isinstance(text, str):
        return []
    parts = text.replace(";", ",").replace("\n", ",").split(",")
    return [" ".join(part.split()) for part in parts if part.strip()]


def _names(protocol: Protocol) -> list[str]:
    roster = protocol.table("players")
    return [] if roster is None else [str(n) for n in roster.frame["player"].dropna()]


def _entries(protocol: Protocol) -> list[Listed]:
    roster = protocol.table("players")
    if roster is None or "aliases" not in roster.frame:
        return []
    entries = []
    for player, text, row in zip(
        roster.frame["player"], roster.frame["aliases"], roster.frame["_row"], strict=True
    ):
        if isinstance(player, str):
            entries += [Listed(a, player, roster, int(row)) for a in split(text) if a != player]
    return entries


def _resolve(entries: list[Listed], players: set[str]) -> tuple[list[Finding], dict[str, str]]:
    """alias → player for every alias that means one player; findings for the rest."""
    owners: dict[str, list[Listed]] = {}
    for entry in entries:
        claims = owners.setdefault(entry.alias, [])
        if all(c.player != entry.player for c in claims):
            claims.append(entry)
    findings: list[Finding] = []
    meaning: dict[str, str] = {}
    for alias, claims in owners.items():
        if alias in players:
            findings += [_at(ALIAS_IS_PLAYER, c, c.player) for c in claims]
        elif len(claims) > 1:
            first, second = claims[0], claims[1]
            findings += [
                _at(ALIAS_TWICE, c, second.player if c is first else first.player) for c in claims
            ]
        else:
            meaning[alias] = claims[0].player
    return findings, meaning


def _at(code: str, entry: Listed, other: str) -> Finding:
    sheet, cell, row = entry.table.locate("aliases", entry.row)
    return finding(
        code,
        sheet,
        cell,
        entry.alias,
        row=row,
        source=entry.table.source,
        player=entry.player,
        other=other,
    )


def _rewrite(protocol: Protocol, meaning: dict[str, str]) -> tuple[Protocol, list[Finding]]:
    """Seats and lot rows typed under an alias read as the player; the first seat of each
    alias said once."""
    if not meaning:
        return protocol, []
    tables = dict(protocol.tables)
    found: list[Finding] = []
    used: dict[str, set[str]] = {}
    for code in ("seats", "lot"):
        table = tables.get(code)
        if table is None or "player" not in table.frame:
            continue
        names = table.frame["player"]
        hits = names.isin(list(meaning))
        if not hits.any():
            continue
        if code == "seats":
            found += _said(table, names[hits], meaning)
        for alias in names[hits].unique():
            used.setdefault(meaning[alias], set()).add(str(alias))
        frame = table.frame.copy()
        frame["player"] = names.map(lambda n: meaning.get(n, n) if isinstance(n, str) else n)
        frame["player"] = frame["player"].astype(object)
        tables[code] = dataclasses.replace(table, frame=frame)
    merged = tuple((player, tuple(sorted(spellings))) for player, spellings in sorted(used.items()))
    return dataclasses.replace(protocol, tables=tables, merged=merged), found


def _said(table: Table, hits: pd.Series, meaning: dict[str, str]) -> list[Finding]:
    found = []
    for alias in hits.unique():
        index = hits[hits == alias].index[0]
        row = int(str(table.frame.at[index, "_row"]))
        sheet, cell, excel_row = table.locate("player", row)
        game = table.frame.at[index, "game"] if "game" in table.frame else None
        found.append(
            finding(
                ALIAS_MERGED,
                sheet,
                cell,
                str(alias),
                game=game,
                row=excel_row,
                source=table.source,
                player=meaning[alias],
            )
        )
    return found
