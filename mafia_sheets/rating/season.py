"""Pool the checked protocols of several files into one season (SPEC §7 `rate FILE…`).

The merge happens after the checks, so a season holds frames only: its rows come from
several sheets of several files and carry no single cell location to point at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePath

import pandas as pd

from .. import vocab
from ..errors import SeasonConflictError
from ..model import Protocol, Season, Tournament
from ..reading.settings import shown_value
from ..rules import RuleSet
from ..text import Text


def pool(protocols: Sequence[Protocol]) -> Season:
    """One tournament from several files: games namespaced by file, settings must agree."""
    merged = _merged(protocols)
    if len(protocols) == 1:
        only = protocols[0]
        frames = {code: table.frame for code, table in only.tables.items()}
        return Season(only.sources, only.tournament, only.rules, frames, merged)
    rules = _common_rules(protocols)
    prefixes = _file_prefixes([p.sources[0] for p in protocols])
    frames = {}
    for code in vocab.SHEETS:
        parts = [
            _namespaced(p, code, prefixes[p.sources[0]]) for p in protocols if code in p.tables
        ]
        if parts:
            frames[code] = pd.concat(parts, ignore_index=True)
    if "players" in frames:  # one roster row per player across the season
        frames["players"] = (
            frames["players"].drop_duplicates("player", keep="first").reset_index(drop=True)
        )
    sources = tuple(p.sources[0] for p in protocols)
    return Season(sources, _season_tournament(protocols), rules, frames, merged)


def _merged(protocols: Sequence[Protocol]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every player's merged spellings over the files of a season."""
    spellings: dict[str, set[str]] = {}
    for protocol in protocols:
        for player, names in protocol.merged:
            spellings.setdefault(player, set()).update(names)
    return tuple((player, tuple(sorted(names))) for player, names in sorted(spellings.items()))


def _namespaced(protocol: Protocol, code: str, prefix: str) -> pd.DataFrame:
    """One file's frame with its file name and with game ids prefixed `file/game`."""
    frame = protocol.tables[code].frame.copy()
    frame["_source"] = protocol.sources[0]
    if "game" in frame:
        named = prefix + "/" + frame["game"].astype(str)
        frame["game"] = named.where(frame["game"].notna(), None)
    return frame


def _file_prefixes(names: Sequence[str]) -> dict[str, str]:
    """File stems as game-id prefixes; a clash gets the full name."""
    stems = [PurePath(n).stem for n in names]
    return {n: (s if stems.count(s) == 1 else n) for n, s in zip(names, stems, strict=True)}


def _common_rules(protocols: Sequence[Protocol]) -> RuleSet:
    """The one rule set of a season: every value of every file's edition must agree (the
    edition named, and each value in force), else the first that differs is named."""
    first = protocols[0]
    values = first.rules.values()
    for other in protocols[1:]:
        theirs = other.rules.values()
        for key, value in values.items():
            if theirs[key] != value:
                raise _conflict(first, other, key, value, theirs[key])
    return first.rules


def _conflict(
    first: Protocol, other: Protocol, key: str, mine: object, theirs: object
) -> SeasonConflictError:
    name = vocab.SETTINGS.get(key) or Text(key, key)
    ours, yours = shown_value(key, mine), shown_value(key, theirs)
    return SeasonConflictError(
        Text(
            f"{other.sources[0]}: параметр «{name.ru}» = {yours.ru}, а в "
            f"{first.sources[0]} — {ours.ru}: в одном сезоне правила во всех файлах "
            "должны совпадать; выровняйте их.",
            f"{other.sources[0]}: setting “{name.en}” = {yours.en}, but {ours.en} in "
            f"{first.sources[0]}: one season needs the same rules in every file; make them "
            "equal.",
        ),
    )


def _season_tournament(protocols: Sequence[Protocol]) -> Tournament:
    """The season's title: the `Название сезона` setting (the first file that sets it),
    else the files' common name, else the first file's name with the number of files."""
    first = protocols[0].tournament
    named = next((p.tournament.season_name for p in protocols if p.tournament.season_name), "")
    names = {p.tournament.name for p in protocols}
    if named:
        return replace(first, name=named, season_name=named)
    if len(names) == 1:
        return first
    return replace(first, files=len(protocols))
