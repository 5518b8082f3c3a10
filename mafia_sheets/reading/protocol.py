"""From one workbook's bytes to a typed :class:`Protocol` (read → parse → settings)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import PurePath

import pandas as pd

from .. import vocab
from ..findings import Finding, define, finding
from ..model import Protocol, Source, Table
from ..rules import load_rules
from ..text import Text
from .parse import parse_sheet
from .settings import read_settings
from .sheets import read_workbook
from .unplayed import drop_unplayed

REMOVED_AS_DISQUALIFIED = define(
    "removed-read-as-disqualified",
    "warning",
    Text(
        "«{value}» без 4 фолов прочитано как дисквалификация (штраф {penalty})",
        "“{value}” without 4 fouls is read as a disqualification (penalty {penalty})",
    ),
    Text(
        "«дисквалифицирован» или «4 фола» (с 4 в столбце «Фолы»)",
        "“disqualified”, or “fouled out” with 4 in “Fouls”",
    ),
    Text(
        "Если это дисквалификация, впишите «дисквалифицирован»; если 4-й фол — впишите "
        "4 в «Фолы» или «4 фола» в «Выбыл»",
        "If it is a disqualification, write “disqualified”; if a 4th foul, write 4 in "
        "“Fouls” or “fouled out” in “Left”",
    ),
)


def load_protocol(source: Source) -> tuple[Protocol, list[Finding]]:
    """Bytes of one workbook → typed protocol and the findings met while reading it.

    Raises ProtocolReadError (exit 2) for a file that is not a readable workbook.
    """
    from .safety import inspect_workbook

    scan = inspect_workbook(source.data, source.name)
    raw, findings = read_workbook(source, scan)
    tables: dict[str, Table] = {}
    for code, sheet in raw.sheets.items():
        table, found = parse_sheet(sheet, source.name)
        tables[code] = table
        findings += found
    roster = tables.get("players")
    if roster is not None and roster.frame["player"].isna().all():
        del tables["players"]  # an empty roster sheet (the template's) is no roster
    tables = _per_table_ids(tables)
    tables, findings = drop_unplayed(tables, findings)
    # without a `Турнир` sheet naming it, the tournament the game sheets name, else the file
    named = (raw.fields or {}).get("tournament") or PurePath(source.name).stem
    tournament, overrides, found = read_settings(tables.get("tournament"), named)
    findings += found
    rules = load_rules().with_overrides(overrides)
    if "seats" in tables:
        tables["seats"], found = _removed_by_fouls(tables["seats"], rules.points)
        findings += found
        tables["seats"] = _with_teams(tables["seats"], tables.get("games"))
    order = {name: index for index, name in enumerate(raw.sheet_names)}
    reading = (raw.reading,) if raw.reading is not None else ()
    return Protocol(
        (source.name,), tournament, rules, tables, order, reading=reading, headers=raw.headers
    ), findings


def _removed_by_fouls(table: Table, points: dict[str, Fraction]) -> tuple[Table, list[Finding]]:
    """«удалён» is a 4-foul departure when the fouls say 4, else a disqualification — read
    aloud, since it costs a penalty point."""
    frame = table.frame
    removed = frame["left"].eq("removed")
    if not removed.any():
        return table, []
    fouled = removed & frame["fouls"].eq(4)
    frame = frame.copy()
    frame.loc[fouled, "left"] = "fouled"
    frame.loc[removed & ~fouled, "left"] = "disqualified"
    penalty = _points_text(points["disqualification"])
    found = []
    for index, row in frame.loc[removed & ~fouled, "_row"].items():
        row = int(row)
        sheet, cell, excel_row = table.locate("left", row)
        found.append(
            finding(
                REMOVED_AS_DISQUALIFIED,
                sheet,
                cell,
                table.raw["left"].iat[int(str(index))],
                game=frame.at[index, "game"],
                row=excel_row,
                source=table.source,
                penalty=penalty,
            )
        )
    return dataclasses.replace(table, frame=frame), found


def _per_table_ids(tables: dict[str, Table]) -> dict[str, Table]:
    """Games numbered at each table from 1: when ids repeat in «Игры» and a table column
    tells them apart, a game is «стол 2, игра 3» on both sheets (`table 2, game 3` in an
    English output: :func:`~mafia_sheets.vocab.game_name`)."""
    games, seats = tables.get("games"), tables.get("seats")
    if games is None or seats is None:
        return tables
    frame = games.frame[games.frame["game"].notna()]
    if (
        not frame["game"].duplicated().any()
        or frame["table"].isna().all()
        or frame.duplicated(["table", "game"]).any()
        or seats.frame["table"].isna().all()
    ):
        return tables
    return {**tables, "games": _keyed(games), "seats": _keyed(seats)}


def _keyed(table: Table) -> Table:
    frame = table.frame.copy()
    both = frame["table"].notna() & frame["game"].notna()
    frame.loc[both, "game"] = [
        vocab.per_table_key(t, g)
        for t, g in zip(frame.loc[both, "table"], frame.loc[both, "game"], strict=True)
    ]
    return dataclasses.replace(table, frame=frame)


def _points_text(value: Fraction) -> Text:
    """−1, −0,5 / −0.5: a penalty as a judge reads it, with a decimal comma in Russian."""
    text = f"{float(abs(value)):g}"
    return Text(f"−{text.replace('.', ',')}", f"−{text}")


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
    win = frame["game"].map(result).to_numpy(dtype=object) == frame["team"].to_numpy(dtype=object)
    bonus = frame["bonus"].to_numpy(dtype=object).copy()
    bonus[bonus == "num1"] = "bp"
    half = bonus == "num05"
    bonus[half & win] = "bp2"
    bonus[half & ~win] = "bpl"
    frame["bonus"] = pd.Series(bonus, index=frame.index, dtype=object)
    return Table(
        table.code,
        table.sheet,
        frame,
        table.raw,
        table.letters,
        table.header_row,
        table.source,
        table.places,
    )
