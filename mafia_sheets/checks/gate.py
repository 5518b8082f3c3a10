"""What the checks of one workbook share: the gate of §5.2/§5.3, built once, and the helpers
that turn masked rows of a sheet into findings at their cells.

Only games whose structure is sound are judged by the regulation checks: a game with
wrong seats or roles, an unreadable departure, or a departure without its phase already
has a §5.1 error, and judging its timeline would only add noise pointing at the wrong
cell. Annulled games count for nothing, so their protocol is not judged either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, finding
from ..model import Protocol, Table
from ..reading.parse import parse_column
from ..reading.unrecorded import NOT_ALL
from ..reading.values import is_blank
from ..text import cell_text

# An unreadable value in one of these leaves the game's timeline unknown (parse reports it).
TIMELINE_COLUMNS = ("seat", "left", "when", "fouls")


@dataclass(frozen=True)
class Coded:
    """A column hashed once: each row's code into `values`, the column's distinct values
    (-1 where the row is missing). A comparison, a membership or a conversion is then
    made once per distinct value and spread to the rows through their codes: a column of
    100,000 seat rows holds a few dozen values (or ten thousand game ids)."""

    codes: np.ndarray
    values: np.ndarray

    @classmethod
    def of(cls, column: pd.Series | np.ndarray) -> Coded:
        codes, values = pd.factorize(np.asarray(column, dtype=object))
        return cls(codes, np.asarray(values, dtype=object))

    def at(self, rows: np.ndarray) -> Coded:
        """The same coding for the rows at positions `rows`."""
        return Coded(self.codes[rows], self.values)

    def missing(self) -> np.ndarray:
        return np.asarray(self.codes < 0, dtype=bool)

    def spread(self, judged: np.ndarray, missing: object) -> np.ndarray:
        """Each row's value of `judged` (one per distinct value), `missing` where none."""
        spread = np.append(judged, np.array([missing], dtype=judged.dtype))
        return np.asarray(spread[self.codes])

    def where(self, judge: Callable[[Any], bool]) -> np.ndarray:
        """`judge` of each row's value, called once per distinct value; False where missing."""
        judged = np.fromiter(map(judge, self.values), dtype=bool, count=len(self.values))
        return self.spread(judged, False)

    def isin(self, wanted: Collection[object]) -> np.ndarray:
        """What `Series.isin(wanted)` gives (`wanted` holds no missing value)."""
        judged = pd.Series(self.values, dtype=object).isin(wanted).to_numpy(dtype=bool)
        return self.spread(judged, False)

    def eq(self, value: object) -> np.ndarray:
        """What `Series.eq(value)` gives (`value` is not missing)."""
        return self.isin([value])

    def numbers(self) -> np.ndarray:
        """`pd.to_numeric(column, errors="coerce")` of each row, as floats (NaN: missing or
        not a number); exact for the small integers (fouls, phases) it is used on."""
        judged = pd.to_numeric(pd.Series(self.values, dtype=object), errors="coerce")
        return self.spread(judged.to_numpy(dtype=np.float64, na_value=np.nan), np.nan)


class Columns:
    """The columns of one sheet's frame, each hashed once on first use (:class:`Coded`),
    for every check of the run that reads it. The frame's index labels are positions in it
    (a sheet's data rows, numbered from 0), so a slice's rows are found by its labels;
    another index is coded afresh each time."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame
        index = frame.index
        self._positional = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
        self._coded: dict[str, Coded] = {}

    def of(self, rows: pd.DataFrame | pd.Index, column: str) -> Coded:
        """The coded `column` of `rows`, a slice of the frame (same labels and values), or
        of the frame's rows labelled so."""
        index = rows if isinstance(rows, pd.Index) else rows.index
        if not self._positional:
            return Coded.of(self._frame[column].loc[index])
        coded = self._coded.get(column)
        if coded is None:
            coded = self._coded[column] = Coded.of(self._frame[column])
        if index is self._frame.index:
            return coded
        return coded.at(np.asarray(index, dtype=np.intp))

    def values(self, rows: pd.Index, column: str) -> np.ndarray:
        """The values of `column` at the rows labelled `rows`, as they are."""
        return self._frame[column].loc[rows].to_numpy(dtype=object)


_MADE_BY_THE_GATE = ("when", "result", "phase_unknown")


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
    # online platform's, with the first night's victim alone), or none of them (a paper
    # form's left half: see reading/unrecorded.py): no rule that reads the absence of a
    # departure (the end state, a quiet window, who stayed) judges them.
    partial: frozenset[object] = frozenset()
    # what one check derived from these rows for the next to reuse (a game's departure
    # timeline is the same for every check that reads it)
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # the seats sheet's typed columns, each hashed once (None: hashed here, from `seats`)
    columns: Columns | None = field(default=None, compare=False, repr=False)

    def coded(self, column: str, counted: bool = False) -> Coded:
        """`column` of `seats` (of `counted_seats`), hashed once for every check (see
        :class:`Coded`); the columns the gate made or changed (`when` where it placed a
        phase) from `seats` itself."""
        key = f"coded:{column}:{counted}"
        coded = self.memo.get(key)
        if coded is None:
            rows = self.counted_seats if counted else self.seats
            if self.columns is None or (column in _MADE_BY_THE_GATE and not counted):
                coded = Coded.of(rows[column])
            else:
                coded = self.columns.of(rows, column)
            self.memo[key] = coded
        return cast(Coded, coded)

    def whole(self, frame: pd.DataFrame) -> pd.DataFrame:
        """The rows of `frame` (seats or games) of games whose every departure is recorded."""
        if not self.partial:
            return frame
        return frame[~frame["game"].isin(self.partial)]


@dataclass(frozen=True)
class SeatColumns:
    """The seats sheet's columns, typed and as typed, each hashed once for every check."""

    typed: Columns
    raw: Columns


@dataclass(frozen=True)
class Context:
    """What every check of one workbook reads, built once per run by :func:`context_of`."""

    protocol: Protocol
    regulated: Regulated | None  # None without a seats or a games sheet
    seat_columns: SeatColumns | None = None  # None without a seats sheet


def context_of(protocol: Protocol) -> Context:
    seats = protocol.table("seats")
    columns = SeatColumns(Columns(seats.frame), Columns(seats.raw)) if seats else None
    return Context(protocol, _regulated(protocol, columns), columns)


def _regulated(protocol: Protocol, both: SeatColumns | None = None) -> Regulated | None:
    """The gate of §5.2/§5.3: sound, counted games only."""
    seats, games = protocol.table("seats"), protocol.table("games")
    if seats is None or games is None or "team" not in seats.frame:
        return None
    both = both or SeatColumns(Columns(seats.frame), Columns(seats.raw))
    columns = both.typed
    frame = _kept(seats.frame, ~columns.of(seats.frame, "game").missing())
    listed = games.frame[games.frame["game"].notna()].drop_duplicates("game")
    counted = listed[~listed["annulled"].eq(True)]
    unknown = phase_unknown(seats, frame, columns)  # a row's own fact: judged once, for both
    game = columns.of(frame, "game")  # every row has one: codes into the games seated
    in_counted = game.isin(game_ids(counted))
    sound = in_counted & ~_broken_rows(seats, frame, unknown, both)
    chosen = _phases_placed(_kept(frame, sound), unknown[sound])
    per_game = pd.Series(game.values, dtype=object).map(counted.set_index("game")["result"])
    result = per_game.to_numpy(dtype=object)[game.codes[sound]]
    # built as `Series.map` builds its result, from the same values: the same dtype
    chosen = chosen.assign(result=pd.Series(result, index=chosen.index))
    partial = frozenset(counted.loc[counted["departures"].isin(NOT_ALL), "game"])
    judged = np.zeros(len(game.values), dtype=bool)
    judged[game.codes[sound]] = True
    return Regulated(
        seats,
        games,
        chosen,
        counted[counted["game"].isin(set(game.values[judged]))],
        _kept(frame, in_counted),
        partial,
        columns=columns,
    )


def _kept(frame: pd.DataFrame, mask: np.ndarray) -> pd.DataFrame:
    """`frame[mask]`; the frame itself when every row is kept (the usual, clean case),
    without copying each of its columns."""
    return frame if bool(mask.all()) else frame[mask]


def game_ids(frame: pd.DataFrame) -> set[object]:
    """The game ids of `frame`'s rows, from the column's array (iterating the Series
    itself boxes every row through pandas, several times slower)."""
    return set(frame["game"].to_numpy(dtype=object))


PHASELESS = vocab.PHASELESS


def phase_unknown(table: Table, frame: pd.DataFrame, columns: Columns | None = None) -> np.ndarray:
    """Rows of `frame` that left by fouls or disqualification with the phase written as
    unknown (`?`): a game sheet with no place for it, or the judge's own `?`."""
    unknown = np.zeros(len(frame), dtype=bool)
    if "when" not in table.raw or frame.empty:
        return unknown
    columns = columns or Columns(table.frame)
    # only a foul-out or disqualification without a phase read can be one: what was typed
    # is judged at those rows alone (a handful), not at every seat row
    rows = np.flatnonzero(
        columns.of(frame, "left").isin(PHASELESS) & columns.of(frame, "when").missing()
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


def _broken_rows(
    table: Table, frame: pd.DataFrame, unknown: np.ndarray, both: SeatColumns
) -> np.ndarray:
    """The rows of `frame` whose game has a §5.1 error that would make every regulation
    finding noise (`unknown`: the :func:`phase_unknown` of each row): each game judged
    once, by its integer code, and the rows marked through their codes."""
    bad = np.zeros(len(frame), dtype=bool)
    columns = both.typed
    empty = {column: columns.of(frame, column).missing() for column in ("seat", "left", "when")}
    for column in TIMELINE_COLUMNS:
        if column not in table.raw:
            continue
        missing = empty[column] if column in empty else columns.of(frame, column).missing()
        # raw shares the frame's index: labels are positions in the sheet's data rows;
        # the departures' typed values are hashed whole (the checks of departures read
        # them all again), the few typed seats and fouls a typed value was not read from
        rows = frame.index[missing]
        if column in ("left", "when"):
            bad[missing] = ~blank_rows(both.raw, rows, column)
        else:
            bad[missing] = ~blank_mask(pd.Series(both.raw.values(rows, column), dtype=object))
    bad |= empty["left"] != empty["when"]
    bad &= ~unknown  # a phase the sheet has no place for breaks nothing
    game = columns.of(frame, "game")
    codes, games = game.codes, len(game.values)
    broken = np.bincount(codes[bad], minlength=games) > 0
    # exactly seats 1–10 once each: ten rows, ten distinct seat numbers
    distinct = _first_of_each(codes, columns.of(frame, "seat")) & ~empty["seat"]
    broken |= np.bincount(codes, minlength=games) != 10
    broken |= np.bincount(codes[distinct], minlength=games) != 10
    role = columns.of(frame, "role")
    for name, target in vocab.ROLE_COUNTS.items():
        broken |= np.bincount(codes[role.eq(name)], minlength=games) != target
    return np.asarray(broken[codes], dtype=bool)


def _first_of_each(games: np.ndarray, coded: Coded) -> np.ndarray:
    """The rows whose (game code, value) pair comes first: `~frame.duplicated([game,
    column])`, from the codes (a missing value is one more value, as there)."""
    key = games.astype(np.int64) * (len(coded.values) + 1) + (coded.codes + 1)
    first = np.zeros(len(key), dtype=bool)
    first[np.unique(key, return_index=True)[1]] = True
    return first


# ---- findings at cells ----------------------------------------------------------------------


def at_rows(
    table: Table, code: str, column: str | tuple[str, ...], rows: pd.DataFrame, **params: Any
) -> Iterator[Finding]:
    """One finding per row of `rows` (a slice of `table.frame`), at `column`'s cell — or,
    given several columns, at the first that has a cell in that row (a row of games may
    give a seat a phase and no departure cell at all)."""
    columns = (column,) if isinstance(column, str) else column
    games = rows["game"] if "game" in rows else pd.Series(None, index=rows.index)
    for index, row, game in zip(rows.index, rows["_row"], games, strict=True):
        for name in columns:
            sheet, cell, excel_row = table.locate(name, int(row))
            if cell:
                break
        raw = table.raw.get(name, None)
        value = raw.iat[index] if raw is not None and index < len(raw) else ""
        yield finding(
            code, sheet, cell, value, game=game, row=excel_row, source=table.source, **params
        )


def departure_quoted(
    table: Table, found: Iterable[Finding], rows: pd.DataFrame, beside: bool = False
) -> Iterator[Finding]:
    """Findings at the `when` cells of `rows` (in their order) quoting what the judge
    typed: where the sheet gave no phase and the reader wrote it unknown, or where the
    departure's own cell stands for the phase's (`beside`), the departure itself
    («4 фола», «убит»), not the reader's word."""
    raw = table.raw
    for index, one in zip(rows.index, found, strict=True):
        typed = raw["when"].iat[index] if "when" in raw else ""
        if "left" in raw and (beside or typed == vocab.PHASE_NOT_WRITTEN):
            one = dataclasses.replace(one, value=cell_text(raw["left"].iat[index]))
        yield one


def first_row_per_game(frame: pd.DataFrame, games: pd.Series | np.ndarray) -> pd.DataFrame:
    """The first sheet row of each listed game: where a whole-game finding points."""
    subset = frame[frame["game"].isin(list(games))]
    return subset.drop_duplicates("game", keep="first")


def blank_rows(raw: Columns, rows: pd.Index, column: str) -> np.ndarray:
    """:func:`blank_mask` of `column` as typed at the rows labelled `rows`, judged once
    per distinct value of the whole column (hashed once for every check that asks)."""
    coded = raw.of(rows, column)
    blank = coded.where(is_blank)
    missing = np.flatnonzero(coded.missing())
    if len(missing):  # None and NaN, one code to a factorize: each judged as it is
        blank[missing] = [is_blank(value) for value in raw.values(rows[missing], column)]
    return blank


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
