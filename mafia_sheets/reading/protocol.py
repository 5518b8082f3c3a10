"""From one workbook's bytes to a typed :class:`Protocol` (read → parse → settings)."""

from __future__ import annotations

from pathlib import PurePath

import pandas as pd

from .. import vocab
from ..findings import Finding
from ..model import Protocol, Source, Table
from ..rules import load_rules
from .parse import parse_sheet
from .settings import read_settings
from .sheets import read_workbook


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
    reading = (raw.reading,) if raw.reading is not None else ()
    return Protocol((source.name,), tournament, rules, tables, order, reading), findings


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
                 table.source, table.places)
