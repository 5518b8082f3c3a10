"""From one workbook's bytes to a typed :class:`Protocol` (read → parse → settings).

Also pools the protocols of several files into one season (SPEC §7 `rate FILE…`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

import numpy as np
import pandas as pd

from . import vocab
from .errors import SeasonConflictError
from .findings import Finding
from .model import Protocol, Source, Table, Tournament
from .parse import parse_sheet
from .read import read_workbook
from .rules import RuleSet, load_rules
from .settings import read_settings


def load_protocol(source: Source) -> tuple[Protocol, list[Finding]]:
    """Bytes of one workbook → typed protocol and the findings met while reading it.

    Raises ProtocolReadError (exit 2) for a file that is not a readable workbook.
    """
    from .safety import inspect_workbook

    inspect_workbook(source.data, source.name)
    raw, findings = read_workbook(source)
    tables: dict[str, Table] = {}
    for code, sheet in raw.sheets.items():
        table, found = parse_sheet(sheet, source.name)
        tables[code] = table
        findings += found
    tournament, overrides, found = read_settings(tables.get("tournament"),
                                                 PurePath(source.name).stem)
    findings += found
    if "seats" in tables:
        tables["seats"] = _with_teams(tables["seats"], tables.get("games"))
    rules = load_rules().with_overrides(overrides)
    order = {name: index for index, name in enumerate(raw.sheet_names)}
    return Protocol((source.name,), tournament, rules, tables, order), findings


def _with_teams(table: Table, games: Table | None) -> Table:
    """Blank role means civilian, as on the paper form; team follows from the role.

    A bare 1 in «Доп» is ЛИ; a bare 0.5 is ЛИ2 for a winner and ЛИП for a loser (SPEC §2.4),
    so the game's result is looked up here, once.
    """
    frame = table.frame.copy()
    role = frame["role"].where(frame["role"].notna(), "civilian")
    frame["role"] = role
    # object columns, like every parsed column: Arrow strings would be inferred otherwise
    frame["team"] = role.map(vocab.TEAM_OF_ROLE).astype(object)
    result = pd.Series(dtype=object)
    if games is not None:
        result = games.frame.drop_duplicates("game").set_index("game")["result"]
    win = (frame["game"].map(result).to_numpy(dtype=object)
           == frame["team"].to_numpy(dtype=object))
    bonus = frame["bonus"].to_numpy(dtype=object).copy()
    bonus[bonus == "num1"] = "bp"
    half = bonus == "num05"
    bonus[half & win] = "bp2"
    bonus[half & ~win] = "bpl"
    frame["bonus"] = pd.Series(bonus, index=frame.index, dtype=object)
    return Table(table.code, table.sheet, frame, table.raw, table.letters, table.header_row,
                 table.source)


# ---- seasons ---------------------------------------------------------------------------

def pool(protocols: Sequence[Protocol]) -> Protocol:
    """One tournament from several files: games namespaced by file, settings must agree."""
    if len(protocols) == 1:
        return protocols[0]
    rules = _common_rules(protocols)
    prefixes = _file_prefixes([p.sources[0] for p in protocols])
    tables: dict[str, Table] = {}
    for code in vocab.SHEETS:
        parts = [(p, p.tables[code]) for p in protocols if code in p.tables]
        if not parts:
            continue
        frames = []
        for protocol, table in parts:
            frame = table.frame.copy()
            frame["_source"] = protocol.sources[0]
            if "game" in frame:
                prefix = prefixes[protocol.sources[0]]
                frame["game"] = np.where(frame["game"].isna(), None,
                                         prefix + "/" + frame["game"].astype(str))
            frames.append(frame)
        first = parts[0][1]
        tables[code] = Table(code, first.sheet, pd.concat(frames, ignore_index=True),
                             pd.DataFrame(), first.letters, first.header_row, "")
    if "players" in tables:  # one roster row per player across the season
        roster = tables["players"]
        deduped = roster.frame.drop_duplicates("player", keep="first").reset_index(drop=True)
        tables["players"] = Table("players", roster.sheet, deduped, pd.DataFrame(),
                                  roster.letters, roster.header_row, "")
    sources = tuple(p.sources[0] for p in protocols)
    return Protocol(sources, _season_tournament(protocols), rules, tables, {})


def _file_prefixes(names: Sequence[str]) -> dict[str, str]:
    """File stems as game-id prefixes; a clash gets the full name."""
    stems = [PurePath(n).stem for n in names]
    return {n: (s if stems.count(s) == 1 else n) for n, s in zip(names, stems, strict=True)}


def _common_rules(protocols: Sequence[Protocol]) -> RuleSet:
    first = protocols[0]
    for other in protocols[1:]:
        for key in _rule_fields(first.rules):
            if _rule_fields(first.rules)[key] != _rule_fields(other.rules)[key]:
                name = vocab.SETTINGS.get(key)
                en_name = name.en if name else key
                ru_name = name.ru if name else key
                raise SeasonConflictError(
                    f"{other.sources[0]}: setting “{en_name}” differs from {first.sources[0]} "
                    "— one season needs the same rules in every file; make them equal.",
                    f"{other.sources[0]}: параметр «{ru_name}» отличается от {first.sources[0]}"
                    " — в одном сезоне правила во всех файлах должны совпадать; выровняйте их.",
                )
    return first.rules


def _rule_fields(rules: RuleSet) -> dict[str, object]:
    fields: dict[str, object] = dict(rules.points)
    fields.update(apply_k=rules.apply_k, draws_in_n=rules.draws_in_n,
                  geo_rule_7=rules.geo_rule_7, draw_quiet_phases=rules.draw_quiet_phases,
                  win_when_disqualified=rules.win_when_disqualified)
    return fields


def _season_tournament(protocols: Sequence[Protocol]) -> Tournament:
    names = {p.tournament.name for p in protocols}
    first = protocols[0].tournament
    if len(names) == 1:
        return first
    return Tournament(name=f"Сезон / Season: {len(protocols)} файла / files",
                      dates=first.dates, city=first.city, chief_judge=first.chief_judge)
