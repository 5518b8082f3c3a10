"""What the checks of one workbook share: the gate of §5.2/§5.3, built once, and the helpers
that turn masked rows of a sheet into findings at their cells.

Only games whose structure is sound are judged by the regulation checks: a game with
wrong seats or roles, an unreadable departure, or a departure without its phase already
has a §5.1 error, and judging its timeline would only add noise pointing at the wrong
cell. Annulled games count for nothing, so their protocol is not judged either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, finding
from ..model import Protocol, Table
from ..reading.parse import parse_column
from ..reading.values import is_blank
from ..text import cell_text

# An unreadable value in one of these leaves the game's timeline unknown (parse reports it).
TIMELINE_COLUMNS = ("seat", "left", "when", "fouls")


@dataclass(frozen=True)
class Regulated:
    """The seat rows of the games fit to be judged, each with its game's `result`."""

    table: Table  # the seats sheet: cell addresses
    games: Table  # the games sheet: cell addresses of results
    seats: pd.DataFrame  # a slice of `table.frame` (same index) plus `result`
    listed: pd.DataFrame  # the games sheet's row of each judged game (first of a repeated id)
    # Every seat row of a counted game, sound or not: for the rules that a single row
    # shows by itself (fouls, the phase of a kill or a vote), which a typo elsewhere in
    # the game cannot turn into noise.
    counted_seats: pd.DataFrame
    # Games that record only some of their departures («Записаны выбывания = не все»: an
    # online platform's, with the first night's victim alone): no rule that reads the
    # absence of a departure (the end state, a quiet window, who stayed) judges them.
    partial: frozenset[object] = frozenset()
    # what one check derived from these rows for the next to reuse (a game's departure
    # timeline is the same for every check that reads it)
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def whole(self, frame: pd.DataFrame) -> pd.DataFrame:
        """The rows of `frame` (seats or games) of games whose every departure is recorded."""
        if not self.partial:
            return frame
        return frame[~frame["game"].isin(self.partial)]


@dataclass(frozen=True)
class Context:
    """What every check of one workbook reads, built once per run by :func:`context_of`."""

    protocol: Protocol
    regulated: Regulated | None  # None without a seats or a games sheet


def context_of(protocol: Protocol) -> Context:
    return Context(protocol, _regulated(protocol))


def _regulated(protocol: Protocol) -> Regulated | None:
    """The gate of §5.2/§5.3: sound, counted games only."""
    seats, games = protocol.table("seats"), protocol.table("games")
    if seats is None or games is None or "team" not in seats.frame:
        return None
    frame = seats.frame[seats.frame["game"].notna()]
    listed = games.frame[games.frame["game"].notna()].drop_duplicates("game")
    counted = listed[~listed["annulled"].eq(True)]
    unknown = phase_unknown(seats, frame)  # a row's own fact: judged once, for both uses
    in_counted = frame["game"].isin(game_ids(counted)).to_numpy()
    sound = in_counted & ~_broken_rows(seats, frame, unknown)
    chosen = _phases_placed(frame[sound], unknown[sound])
    chosen = chosen.assign(result=chosen["game"].map(counted.set_index("game")["result"]))
    partial = frozenset(counted.loc[counted["departures"].eq("partial"), "game"])
    return Regulated(
        seats,
        games,
        chosen,
        counted[counted["game"].isin(game_ids(chosen))],
        frame[in_counted],
        partial,
    )


def game_ids(frame: pd.DataFrame) -> set[object]:
    """The game ids of `frame`'s rows, from the column's array (iterating the Series
    itself boxes every row through pandas, several times slower)."""
    return set(frame["game"].to_numpy(dtype=object))


PHASELESS = vocab.PHASELESS


def phase_unknown(table: Table, frame: pd.DataFrame) -> np.ndarray:
    """Rows of `frame` that left by fouls or disqualification with the phase written as
    unknown (`?`): a game sheet with no place for it, or the judge's own `?`."""
    unknown = np.zeros(len(frame), dtype=bool)
    if "when" not in table.raw or frame.empty:
        return unknown
    # only a foul-out or disqualification without a phase read can be one: what was typed
    # is judged at those rows alone (a handful), not at every seat row
    rows = np.flatnonzero(
        frame["left"].isin(PHASELESS).to_numpy() & frame["when"].isna().to_numpy()
    )
    if len(rows):
        typed = table.raw["when"].to_numpy(dtype=object)[frame.index[rows]]
        unknown[rows] = unknown_phases(typed)
    return unknown


def unknown_phases(typed: Any) -> np.ndarray:
    """:func:`vocab.phase_unknown` of each typed value, judged once per distinct value (a
    column of 100,000 cells holds a handful); a missing value is no `?`."""
    codes, distinct = pd.factorize(pd.Series(typed, dtype=object))
    judged = np.array([vocab.phase_unknown(value) for value in distinct] + [False], dtype=bool)
    return judged[codes]  # code -1, a missing value, takes the False appended


def _phases_placed(frame: pd.DataFrame, unknown: np.ndarray) -> pd.DataFrame:
    """The judged seat rows with `phase_unknown` (the :func:`phase_unknown` of each), and a
    departure of unknown phase placed at its game's last recorded phase: the table's
    counts at the end are right, and the checks that need the moment skip it (they say
    so: `phase-not-recorded`)."""
    frame = frame.assign(phase_unknown=unknown)
    if not unknown.any():
        return frame
    last = frame.groupby("game", sort=False)["when"].transform("max")
    when = frame["when"].astype(object).copy()
    placed = last.where(last.notna(), 1)[unknown]
    when[unknown] = [int(v) for v in placed]
    return frame.assign(when=when)


def _broken_rows(table: Table, frame: pd.DataFrame, unknown: np.ndarray) -> np.ndarray:
    """The rows of `frame` whose game has a §5.1 error that would make every regulation
    finding noise (`unknown`: the :func:`phase_unknown` of each row): each game judged
    once, by its integer code, and the rows marked through their codes."""
    bad = np.zeros(len(frame), dtype=bool)
    empty = {column: frame[column].isna().to_numpy() for column in ("left", "when")}
    for column in TIMELINE_COLUMNS:
        if column not in table.raw:
            continue
        missing = empty[column] if column in empty else frame[column].isna().to_numpy()
        # raw shares the frame's index: labels are positions in the sheet's data rows
        typed = table.raw[column].to_numpy(dtype=object)[frame.index[missing]]
        bad[missing] = ~blank_mask(pd.Series(typed, dtype=object))
    bad |= empty["left"] != empty["when"]
    bad &= ~unknown  # a phase the sheet has no place for breaks nothing
    codes, games = pd.factorize(frame["game"])
    broken = np.bincount(codes[bad], minlength=len(games)) > 0
    # exactly seats 1–10 once each: ten rows, ten distinct seat numbers
    seated = frame["seat"].notna().to_numpy()
    distinct = ~frame.duplicated(["game", "seat"]).to_numpy() & seated
    broken |= np.bincount(codes, minlength=len(games)) != 10
    broken |= np.bincount(codes[distinct], minlength=len(games)) != 10
    role = frame["role"].to_numpy(dtype=object)
    for name, target in vocab.ROLE_COUNTS.items():
        broken |= np.bincount(codes[role == name], minlength=len(games)) != target
    return np.asarray(broken[codes], dtype=bool)


# ---- findings at cells ----------------------------------------------------------------------


def at_rows(
    table: Table, code: str, column: str, rows: pd.DataFrame, **params: Any
) -> Iterator[Finding]:
    """One finding per row of `rows` (a slice of `table.frame`), at `column`'s cell."""
    raw = table.raw.get(column, None)
    games = rows["game"] if "game" in rows else pd.Series(None, index=rows.index)
    for index, row, game in zip(rows.index, rows["_row"], games, strict=True):
        value = raw.iat[index] if raw is not None and index < len(raw) else ""
        sheet, cell, excel_row = table.locate(column, int(row))
        yield finding(
            code, sheet, cell, value, game=game, row=excel_row, source=table.source, **params
        )


def departure_quoted(
    table: Table, found: Iterable[Finding], rows: pd.DataFrame
) -> Iterator[Finding]:
    """Findings at the `when` cells of `rows` (in their order) quoting what the judge
    typed: where the sheet gave no phase and the reader wrote it unknown, the departure
    itself («4 фола», «дисквалифицирован»), not the reader's word."""
    raw = table.raw
    for index, one in zip(rows.index, found, strict=True):
        typed = raw["when"].iat[index] if "when" in raw else ""
        if "left" in raw and typed == vocab.PHASE_NOT_WRITTEN:
            one = dataclasses.replace(one, value=cell_text(raw["left"].iat[index]))
        yield one


def first_row_per_game(frame: pd.DataFrame, games: pd.Series | np.ndarray) -> pd.DataFrame:
    """The first sheet row of each listed game: where a whole-game finding points."""
    subset = frame[frame["game"].isin(list(games))]
    return subset.drop_duplicates("game", keep="first")


def blank_mask(values: pd.Series) -> np.ndarray:
    """True where the user typed nothing (blank or spaces), computed once per distinct value.

    An empty cell (`''`, what the reader gives for one) is found by one comparison over the
    whole column; only the other values are judged."""
    array = values.to_numpy(dtype=object)
    blank = np.asarray(array == "", dtype=bool)
    rest = np.flatnonzero(~blank)
    if len(rest):
        judged, _ = parse_column(array[rest], is_blank)
        blank[rest] = judged.astype(bool)
    return blank


def display(vocab_name: str, code: object, lang: str = "ru") -> str:
    return vocab.display_value(vocab_name, str(code), lang) if code is not None else ""
