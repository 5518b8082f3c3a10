"""Helpers shared by the checks: turn masked rows of a sheet into findings at their cells."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, finding
from ..model import Table


def at_rows(table: Table, code: str, column: str, rows: pd.DataFrame,
            **params: object) -> Iterator[Finding]:
    """One finding per row of `rows` (a slice of `table.frame`), at `column`'s cell."""
    raw = table.raw.get(column, None)
    games = rows["game"] if "game" in rows else pd.Series(None, index=rows.index)
    for index, row, game in zip(rows.index, rows["_row"], games, strict=True):
        value = raw.iat[index] if raw is not None and index < len(raw) else ""
        yield finding(code, table.sheet, table.cell(column, int(row)), value, game=game,
                      row=int(row), source=table.source, **params)


def first_row_per_game(frame: pd.DataFrame, games: pd.Series | np.ndarray) -> pd.DataFrame:
    """The first sheet row of each listed game: where a whole-game finding points."""
    subset = frame[frame["game"].isin(list(games))]
    return subset.drop_duplicates("game", keep="first")


def blank_mask(values: pd.Series) -> np.ndarray:
    """True where the user typed nothing (blank or spaces), computed once per distinct value."""
    from ..reading.parse import parse_column
    from ..reading.values import is_blank

    blank, _ = parse_column(values.tolist(), is_blank)
    return blank.astype(bool)


def display(vocab_name: str, code: object, lang: str = "ru") -> str:
    return vocab.display_value(vocab_name, str(code), lang) if code is not None else ""
