"""The data that flows between stages: read → check → score → rank → write.

Stages take and return these frozen records (and pandas DataFrames inside them); none
of them does I/O except `read` (bytes in) and `report` (bytes out).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from .findings import Finding
from .rules import RuleSet

if TYPE_CHECKING:
    import pandas as pd


# What separated a standings row from the next one below: a criterion of the tie-break
# order (`total`, `additional`, `wins`, … or a sum such as `extras+penalties+best_move`),
# `lot`, `tied` (a lot is needed) or `shared` (equal totals share the place, no lot).
DecidedBy = str


@dataclass(frozen=True)
class Source:
    """One input workbook: its display name (file name) and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Places:
    """Where each value sits when a table's rows come from many sheets and cells.

    The row layout needs none of this: one sheet, one letter per column, `_row` the Excel
    row. A game sheet («бланк») or a row of ten seat columns puts one column's values in
    different cells, often on different sheets, so there `_row` is a key (1, 2, 3 … in
    reading order) and these arrays, indexed by `_row − 1`, hold each row's sheet, the
    Excel row used to sort its findings, and per column the cell ("" when the column has
    no cell of its own for that row, e.g. a game id taken from the sheet's name).
    """

    sheets: tuple[str, ...]
    rows: tuple[int, ...]
    cells: dict[str, tuple[str, ...]]

    def locate(self, column: str, key: int) -> tuple[str, str, int]:
        index = key - 1
        cells = self.cells.get(column)
        return self.sheets[index], cells[index] if cells else "", self.rows[index]


@dataclass(frozen=True)
class Table:
    """One protocol sheet as read: typed canonical columns plus where each value came from.

    `frame` has one row per non-blank sheet row, canonical column codes, and `_row`
    (the 1-based Excel row). `raw` holds the values exactly as read, same index.
    `letters` maps a column code to its Excel column letter in this sheet. With `places`
    (the other layouts) values are located through it instead: see :class:`Places`.
    """

    code: str
    sheet: str
    frame: pd.DataFrame
    raw: pd.DataFrame
    letters: dict[str, str]
    header_row: int
    source: str = ""
    places: Places | None = None

    def cell(self, column: str, row: int) -> str:
        return self.locate(column, row)[1]

    def locate(self, column: str, row: int) -> tuple[str, str, int]:
        """(sheet, cell, Excel row) of `column`'s value in the data row keyed `row`; for a
        column the sheet lacks, the row's first read cell, so that a finding always points
        somewhere a judge can look."""
        if self.places is not None:
            return self.places.locate(column, row)
        letter = self.letters.get(column) or min(
            self.letters.values(), key=lambda x: (len(x), x), default=""
        )
        return self.sheet, f"{letter}{row}" if letter else "", row


@dataclass(frozen=True)
class HeaderRead:
    """How one header cell of a protocol sheet was read: `«Ник» → Игрок` (SPEC §2.7).

    `status`: column (read as `column`), duplicate (a second header of `column`, not read),
    counter (a running row number), note (a comment column), hidden (a hidden column, not
    read; `column` is None), unknown (not read; reported as `unknown-column`).
    """

    source: str
    sheet_code: str
    sheet: str
    cell: str
    typed: str
    column: str | None
    status: str


@dataclass(frozen=True)
class Tournament:
    """Descriptive settings printed on every page."""

    name: str
    dates: str = ""
    city: str = ""
    chief_judge: str = ""
    season_name: str = ""  # `Название сезона`: the title of a season of several files
    files: int = 1  # a season pooled from several files, each with its own name


@dataclass(frozen=True)
class GameRead:
    """What one game sheet (or game row) gave, for a judge to see at a glance before
    trusting the standings: `result ✓ red, best move 1 → 3 7 9, departures 6 …`."""

    sheet: str
    row: int  # the Excel row the game starts at (a game row's own)
    game: str  # the game's id as read
    result: str | None  # red | black | draw, None when none was read
    best_move: tuple[int | None, tuple[int, ...]] | None  # (the victim's seat, the seats)
    departures: int
    phases: tuple[int, ...]  # the phase of each departure that has one, in order
    unknown_phases: int  # departures whose phase the sheet does not give
    fouls: int
    awards: int  # the judge's awards (ЛИ, ЛИ2, ЛИП, a bare 1 or 0.5)
    protest: bool  # a protest written on the sheet
    unread: int  # cells of the sheet that were not read (listed in `cells-not-read`)


@dataclass(frozen=True)
class Reading:
    """How one workbook was read: its layout (`rows`, `blank`, `wide` or `mixed`), the
    number of games found and the sheets each layout was read from."""

    source: str
    layout: str
    games: int
    sheets: tuple[tuple[str, str], ...] = ()  # (sheet name, layout) of every game sheet
    unplayed: int = 0  # game sheets or rows not filled in yet (no result, nothing typed)
    games_read: tuple[GameRead, ...] = ()  # what each game sheet or game row gave


@dataclass(frozen=True)
class Protocol:
    """A whole protocol (one workbook, or a season of them pooled)."""

    sources: tuple[str, ...]
    tournament: Tournament
    rules: RuleSet
    tables: dict[str, Table]
    sheet_order: dict[str, int] = field(default_factory=dict)
    headers: tuple[HeaderRead, ...] = ()
    reading: tuple[Reading, ...] = ()  # how each file was laid out (one per source)
    # players whose games were typed under other spellings («Другие ники»): (player, spellings)
    merged: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def table(self, code: str) -> Table | None:
        return self.tables.get(code)


@dataclass(frozen=True)
class Season:
    """The checked games of one file or of several pooled: what the rating reads.

    Frames only (canonical columns, plus `_source` when several files are pooled): the
    rows of a season come from many sheets and carry no single cell to point at.
    """

    sources: tuple[str, ...]
    tournament: Tournament
    rules: RuleSet
    frames: dict[str, pd.DataFrame]
    merged: tuple[tuple[str, tuple[str, ...]], ...] = ()  # see Protocol.merged

    def frame(self, code: str) -> pd.DataFrame | None:
        return self.frames.get(code)


@dataclass(frozen=True)
class KSummary:
    """Regulation 8.5 for this tournament; see :func:`mafia_sheets.rating.score.coefficient_k`."""

    applied: bool
    value: Fraction
    heavy_side: str | None  # "red" | "black" | None
    games: int  # N
    heavy_games: int  # n
    red_wins: int
    black_wins: int
    draws: int
    annulled: int
    # why K is not applied: "option_off" (a «Турнир» row) | "edition_off" (the edition's
    # value) | "equal_wins" | "no_games" | ""
    reason: str = ""


@dataclass(frozen=True)
class Standing:
    """One standings row. `place_range` is "5–6" while a lot is still needed."""

    place: int | None
    place_range: str
    player: str
    total: Fraction
    win_points: Fraction
    additional: Fraction
    best_move: Fraction
    awards: Fraction
    penalties: Fraction
    games: int
    wins: int
    wins_don_sheriff: int
    killed_first_night: int
    decided_by: DecidedBy
    removed: bool = False
    ci: Fraction = Fraction(0)  # first-killed compensation, part of `additional`


@dataclass(frozen=True)
class LotStatus:
    """How ties that survived every criterion were broken."""

    needed: bool  # a tie is still open: the judge must hold a draw
    method: str  # "none" | "sheet" | "seed" | "open"
    seed: int | None = None
    groups: tuple[tuple[str, ...], ...] = ()  # the tied groups that needed a lot


@dataclass(frozen=True)
class OverTime:
    """The leaders' cumulative totals after each step (round, game night or game).

    `kind` is "round", "file" or "game"; `totals[i][j]` is leader i's exact total after
    step j.
    """

    kind: str
    steps: tuple[object, ...]
    leaders: tuple[str, ...]
    totals: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class Stats:
    """Everything the statistics sheets, cards, head to head and JSON show."""

    denominator: int  # additional points are integer units of 1/denominator point
    players: pd.DataFrame  # one row per player, standings order (removed last)
    games: int
    red_wins: int
    black_wins: int
    draws: int
    by_seat: pd.DataFrame  # seat 1–10: games, wins, red_wins, black_wins, draws
    by_table: pd.DataFrame  # label, games, red, black, draw
    by_round: pd.DataFrame  # label, games, red, black, draw
    ended: pd.DataFrame  # phase (ordinal of the last departure, 0 = none): games, red…
    pairs: pd.DataFrame | None  # a, b, games, together, together_wins, against, a_won, b_won
    pairs_total: int
    over_time: OverTime | None

    def points(self, units: int) -> Fraction:
        return Fraction(int(units), self.denominator)


@dataclass(frozen=True)
class Rating:
    """Everything the results workbook and the JSON show."""

    tournament: Tournament
    rules: RuleSet
    k: KSummary
    standings: tuple[Standing, ...]
    removed: tuple[Standing, ...]
    lot: LotStatus
    provisional: bool
    findings: tuple[Finding, ...]
    games: pd.DataFrame  # one row per game: SPEC §6 sheet 2
    points: pd.DataFrame  # one row per player per game: SPEC §6 sheet 3, exact units
    points_scale: int = 1  # units per point of `points` and of the seat totals in `games`
    sources: tuple[str, ...] = ()
    headers: tuple[HeaderRead, ...] = ()  # how every protocol header was read
    reading: tuple[Reading, ...] = ()  # each file's layout, stated on «Сводка» and in JSON
    stats: Stats | None = None  # SPEC §6 sheets 7–9; None with `rate --no-stats`
    merged: tuple[tuple[str, tuple[str, ...]], ...] = ()  # nicknames merged («Другие ники»)
    # the scored seat rows behind `points` (every protocol column and each component in
    # units), kept only for the exports that write the games themselves (`--export mwt`)
    seats: pd.DataFrame | None = None


@dataclass(frozen=True)
class Outcome:
    """What `check`/`rate` returns: findings always, a rating when there are no errors."""

    findings: tuple[Finding, ...]
    rating: Rating | None
    sheet_order: dict[str, int] = field(default_factory=dict)
    headers: tuple[HeaderRead, ...] = ()  # how every protocol header was read
    reading: tuple[Reading, ...] = ()  # each file's layout: «прочитано: бланк на игру, 12 игр»

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")
