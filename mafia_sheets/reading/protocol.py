"""From one workbook's bytes to a typed :class:`Protocol` (read → parse → settings)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import PurePath

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, define, finding
from ..model import Protocol, Reading, Source, Table
from ..rules import RuleSet
from ..text import Text
from .parse import parse_sheet
from .safety import inspect_workbook
from .settings import read_settings, rules_of
from .sheets import read_workbook
from .unplayed import drop_unplayed
from .unrecorded import read_unrecorded

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


BONUS_NUMBER = define(
    "bonus-number-not-allowed",
    "error",
    Text(
        "Число «{value}» в «Доп»: эти правила не допускают доп. баллы числом",
        "The number “{value}” in “Bonus”: these rules allow no numeric extras",
    ),
    Text("ЛИ, ЛИ2, ЛИП (или 1, 0,5)", "BP, BP2, BPL (or 1, 0.5)"),
    Text(
        "Впишите ЛИ, ЛИ2 или ЛИП — или разрешите числа: «Доп числом» = да на листе "
        "«Турнир» (или выберите «Правила», где они есть)",
        "Write BP, BP2 or BPL — or allow numbers: “Numeric extras” = yes on the "
        "Tournament sheet (or choose Rules that have them)",
    ),
)


def load_protocol(source: Source) -> tuple[Protocol, list[Finding]]:
    """Bytes of one workbook → typed protocol and the findings met while reading it.

    Raises ProtocolReadError (exit 2) for a file that is not a readable workbook.
    """
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
    listed = _listed(tables)
    tables, findings = drop_unplayed(tables, findings)
    waiting = listed - _listed(tables)  # the row layout's games not played yet
    # without a `Турнир` sheet naming it, the tournament the game sheets name, else the file
    named = (raw.fields or {}).get("tournament") or PurePath(source.name).stem
    tournament, overrides, found, cells = read_settings(tables.get("tournament"), named)
    findings += found
    rules, found = rules_of(overrides, cells, source.name)
    findings += found
    if "seats" in tables:
        tables["seats"], found = _removed_by_fouls(tables["seats"], rules.points)
        findings += found
        tables["seats"], found = _with_teams(tables["seats"], tables.get("games"), rules)
        findings += found
        tables, found = _departures_read(tables)
        findings += found
    order = {name: index for index, name in enumerate(raw.sheet_names)}
    reading: tuple[Reading, ...] = ()
    if raw.reading is not None:  # counted apart from the games read, in every layout alike
        games, unplayed = raw.reading.games - waiting, raw.reading.unplayed + waiting
        reading = (dataclasses.replace(raw.reading, games=games, unplayed=unplayed),)
    return Protocol(
        (source.name,), tournament, rules, tables, order, reading=reading, headers=raw.headers
    ), findings


def _departures_read(tables: dict[str, Table]) -> tuple[dict[str, Table], list[Finding]]:
    """The games recording no departures marked so (see :mod:`.unrecorded`)."""
    seats, listed, found = read_unrecorded(tables["seats"], tables.get("games"))
    return {**tables, "seats": seats, **({"games": listed} if listed is not None else {})}, found


def _listed(tables: dict[str, Table]) -> int:
    games = tables.get("games")
    return 0 if games is None else int(games.frame["game"].dropna().nunique())


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


def _with_teams(table: Table, games: Table | None, rules: RuleSet) -> tuple[Table, list[Finding]]:
    """Blank role means civilian, as on the paper form; team follows from the role.

    A number in «Доп» is a numeric extra where the edition allows them (column `extra`);
    elsewhere a bare 1 is ЛИ and a bare 0.5 ЛИ2 for a winner, ЛИП for a loser (SPEC §2.4),
    so the game's result is looked up here, once.
    """
    frame = table.frame.copy(deep=False)  # copy-on-write: the columns set below are new
    role = frame["role"].where(frame["role"].notna(), "civilian")
    frame["role"] = role
    # object columns, like every parsed column: Arrow strings would be inferred otherwise
    frame["team"] = role.map(vocab.TEAM_OF_ROLE).astype(object)
    result = pd.Series(dtype=object)
    if games is not None:
        result = games.frame.drop_duplicates("game").set_index("game")["result"]
    win = frame["game"].map(result).to_numpy(dtype=object) == frame["team"].to_numpy(dtype=object)
    bonus = frame["bonus"].to_numpy(dtype=object).copy()
    distinct = _Distinct(bonus)
    number = distinct.each(lambda b: isinstance(b, Decimal))
    extra = np.full(len(bonus), None, dtype=object)
    findings: list[Finding] = []
    unread = number  # read as an extra, or said at its cell
    if rules.extras_numeric:
        extra[number] = [Fraction(b) for b in bonus[number]]
    else:
        whole = number & distinct.each(lambda b: isinstance(b, Decimal) and b == 1)
        half = number & distinct.each(lambda b: isinstance(b, Decimal) and b * 2 == 1)
        unread = number & ~whole & ~half
        bonus[whole] = "bp"
        bonus[half & win] = "bp2"
        bonus[half & ~win] = "bpl"
        findings = list(_numbers_not_allowed(table, frame[unread]))
    bonus[unread] = None
    frame["bonus"] = pd.Series(bonus, index=frame.index, dtype=object)
    frame["extra"] = pd.Series(extra, index=frame.index, dtype=object)
    return dataclasses.replace(table, frame=frame), findings


class _Distinct:
    """A column's distinct values, factorized once for every test asked of them."""

    def __init__(self, values: np.ndarray) -> None:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
        self.codes, self.uniques = codes, list(uniques)

    def each(self, test: Callable[[object], bool]) -> np.ndarray:
        """`test` of every value, asked once per distinct value (a million seats hold a few)."""
        return np.array([test(u) for u in self.uniques], dtype=bool)[self.codes]


def _numbers_not_allowed(table: Table, rows: pd.DataFrame) -> list[Finding]:
    """A number in «Доп» other than 1 or 0.5, where the edition holds awards only."""
    found = []
    for index, row in rows["_row"].items():
        sheet, cell, excel_row = table.locate("bonus", int(row))
        found.append(
            finding(
                BONUS_NUMBER,
                sheet,
                cell,
                table.raw["bonus"].iat[int(str(index))],
                game=rows.at[index, "game"],
                row=excel_row,
                source=table.source,
            )
        )
    return found
