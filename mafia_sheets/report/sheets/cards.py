"""`Карточки` / `Player cards` (SPEC §6 sheet 8): one printable A4 block per player.

Each card, in standings order: place and totals, the role table, best moves and
discipline, then every game (round, table, seat, role, result, points with their
components). A page break separates the cards. A sheet holds at most 1,024 cards (Excel
keeps 1,023 manual page breaks per sheet) and Excel's row limit; more continue on
`Карточки (2)` ….

A big field has as many card rows as the points sheet, so the cards go through the
engine's row streamer a batch of cards at a time: each head row for every card of the
batch at once, then the game rows, emitted card by card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ...model import Rating, Standing, Stats
from ...rating.stats import ROLES
from ...vocab import display_value
from ..cells import mixed_cells, number_cells, shown_points, spread, unit_points, word_cells
from ..engine import MAX_ROWS, Book, Lane, Rendered, Rows, Style, Value
from ..labels_stats import OUTCOME, ROLE_WORDS, STATS_SHEETS, S
from .common import LOOK, page, write_top

BREAKS_PER_SHEET = 1023
WIDTHS = (10, 7, 7, 9, 10, 9, 9, 8, 8, 9)  # portrait A4, one page wide at PRINT_SCALE
GAME_BATCH = 50_000  # game rows rendered at a time
HEADER_HEIGHT = 42
PRINT_SCALE = 72
GAME_LANES = (
    Lane(LOOK.center, LOOK.code),
    Lane(LOOK.center, LOOK.code),
    Lane(LOOK.center, LOOK.integer),
    Lane(LOOK.text),
    Lane(LOOK.center),
    *[Lane(LOOK.text, LOOK.number)] * 5,
)


@dataclass(frozen=True)
class HeadRow:
    """One row of a card's head, for every card of a batch: its height and its cells
    as columns (a list holds one value a card; anything else is every card's)."""

    height: float | None
    cells: tuple[tuple[Any, Lane], ...] = ()


@dataclass(frozen=True)
class Batch:
    """The cards being rendered: their standings, their rows of the players frame."""

    standings: tuple[Standing, ...]
    table: dict[str, list[Any]]
    stats: Stats
    lang: str

    def col(self, name: str) -> list[Any]:
        return self.table[name]


def cards_size(rating: Rating) -> int:
    """About the cells of the cards: each card's head and its games."""
    players = 0 if rating.stats is None else len(rating.stats.players)
    return (players * HEAD_ROWS + len(rating.points)) * len(WIDTHS)


def cards_sheets(book: Book, rating: Rating, lang: str) -> None:
    """Every player's card, split over as many sheets as Excel's limits need."""
    stats = rating.stats
    if stats is None or not len(stats.players):
        return
    games = stats.players["games"].to_numpy(dtype=np.int64)
    if int(games.sum()) != len(rating.points):
        raise ValueError("the points rows do not match the players' games")
    offsets = np.concatenate([[0], np.cumsum(games)])
    cells = _game_cells(rating, lang)
    start, part = 0, 0
    while start < len(games):
        stop, rows = start, 0
        while stop < len(games) and stop - start <= BREAKS_PER_SHEET:
            if rows + HEAD_ROWS + games[stop] + 1 >= MAX_ROWS - 8:
                break
            rows += HEAD_ROWS + int(games[stop]) + 1
            stop += 1
        stop = max(stop, start + 1)
        name = STATS_SHEETS["cards"](lang) + (f" ({part + 1})" if part else "")
        sheet = _CardSheet(book.sheet(name), rating, lang, offsets)
        sheet.write(range(start, stop), cells)
        start, part = stop, part + 1


def _game_cells(rating: Rating, lang: str) -> list[list[Any]]:
    """The game rows of every card, column by column, in the points frame's order."""
    points, games = rating.points, rating.games.drop_duplicates("game")
    # round and table are converted once per game, then spread over its seats
    where = pd.Index(games["game"]).get_indexer(points["game"])
    roles = word_cells(points["role"], {r: display_value("role", r, lang) for r in ROLES})
    win = points["win"].to_numpy(dtype=bool)
    draw = points["result"].to_numpy(dtype=object) == "draw"
    outcome = np.where(draw, OUTCOME["draw"](lang), OUTCOME["loss"](lang))
    results = np.where(win, OUTCOME["win"](lang), outcome).tolist()
    scale = rating.points_scale
    return [
        spread(mixed_cells(games["round"]), where),
        spread(mixed_cells(games["table"]), where),
        number_cells(points["seat"]),
        roles,
        results,
        *(
            number_cells(shown_points(points, code, scale), blank_zero=True)
            for code in ("win_points", "best_move", "awards", "penalty")
        ),
        number_cells(shown_points(points, "total", scale)),
    ]


class _CardSheet:
    """One sheet of cards: the top lines, then card after card through one streamer."""

    def __init__(self, sheet: Any, rating: Rating, lang: str, offsets: np.ndarray) -> None:
        self.sheet, self.rating, self.lang, self.offsets = sheet, rating, lang, offsets
        assert rating.stats is not None
        self.stats = rating.stats
        self.standings = (*rating.standings, *rating.removed)

    def write(self, players: range, cells: list[list[Any]]) -> None:
        sheet = self.sheet
        top = write_top(sheet, self.rating, self.lang, STATS_SHEETS["cards"](self.lang))
        for col, width in enumerate(WIDTHS):
            sheet.width(col, col, width)
        games = np.diff(self.offsets)[players.start : players.stop]
        starts = top + np.concatenate([[0], np.cumsum(HEAD_ROWS + games + 1)[:-1]])
        end = int(starts[-1] + HEAD_ROWS + games[-1])
        stream = sheet.rows(top, end, len(WIDTHS))
        batch_start = 0
        while batch_start < len(games):
            batch_stop = self._batch_end(players, batch_start, len(games))
            chosen = range(players.start + batch_start, players.start + batch_stop)
            stream.emit(self._render(stream, chosen, starts[batch_start:batch_stop], cells))
            batch_start = batch_stop
        stream.close()
        setup = page(self.rating, self.lang, landscape=False, header_row=None)
        # a fixed scale (the columns fit portrait A4): Excel drops manual breaks under fit-to
        breaks = tuple(starts[1:].tolist())
        sheet.page(replace(setup, scale=PRINT_SCALE, breaks=breaks, area=(0, 0, end, 9)))

    def _batch_end(self, players: range, start: int, count: int) -> int:
        """Cards from `start` on whose game rows add up to about GAME_BATCH."""
        first = self.offsets[players.start + start]
        stop = start + 1
        while stop < count and self.offsets[players.start + stop + 1] - first <= GAME_BATCH:
            stop += 1
        return stop

    def _render(
        self, stream: Rows, chosen: range, starts: np.ndarray, cells: list[list[Any]]
    ) -> list[Rendered]:
        """The rows of the `chosen` cards (starting at `starts`), in sheet order."""
        first, last = int(self.offsets[chosen.start]), int(self.offsets[chosen.stop])
        lengths = np.diff(self.offsets[chosen.start : chosen.stop + 1])
        local = np.arange(last - first) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rows = (np.repeat(starts + HEAD_ROWS, lengths) + local).tolist()
        body = stream.render(rows, [column[first:last] for column in cells], GAME_LANES)
        batch = Batch(
            tuple(self.standings[i] for i in chosen),
            {
                name: values[chosen.start : chosen.stop]
                for name, values in _columns(self.stats).items()
            },
            self.stats,
            self.lang,
        )
        heads = [
            _render_head(stream, head, (starts + offset).tolist())
            for offset, head in enumerate(card_heads(batch))
        ]
        out: list[Rendered] = []
        at = 0
        # a card's head rows, then its games; a gap's b"" is no row and is emitted as nothing
        for head, size in zip(zip(*heads, strict=True), lengths.tolist(), strict=True):
            out += head
            out += body[at : at + size]
            at += size
        return out


def _render_head(stream: Rows, head: HeadRow, rows: list[int]) -> list[Rendered]:
    if not head.cells:  # a gap: no row at all reads as an empty one
        return [b""] * len(rows)
    columns: list[Sequence[Value]] = [
        values if isinstance(values, list) else [values] * len(rows) for values, _ in head.cells
    ]
    return stream.render(rows, columns, [lane for _, lane in head.cells], head.height)


# ---- a card's head ------------------------------------------------------------------------


def _lane(style: Style, blank: Style | None = None) -> Lane:
    return Lane(style, style, style if blank is None else blank)


INTEGER = Lane(LOOK.integer, LOOK.integer, LOOK.center)
NUMBER = Lane(LOOK.number, LOOK.number, LOOK.text)
SHARE = _lane(LOOK.percent)
WORD = _lane(LOOK.text)
GAP = HeadRow(None)


def _header(titles: Sequence[str], lang: str) -> HeadRow:
    return HeadRow(HEADER_HEIGHT, tuple((S[t](lang), _lane(LOOK.header)) for t in titles))


def _share(part: list[int], whole: list[int]) -> tuple[Any, Lane]:
    return ([p / w if w else None for p, w in zip(part, whole, strict=True)], SHARE)


def _points(batch: Batch, units: list[int]) -> tuple[Any, Lane]:
    return (unit_points(units, batch.stats.denominator), NUMBER)


def _title_rows(batch: Batch) -> list[HeadRow]:
    lang = batch.lang
    titles = [
        S["card_removed"](lang).format(player=s.player)
        if s.removed or s.place is None
        else S["card_title"](lang).format(place=s.place_range or str(s.place), player=s.player)
        for s in batch.standings
    ]
    totals = HeadRow(
        None,
        (
            ([float(s.total) for s in batch.standings], NUMBER),
            ([float(s.win_points) for s in batch.standings], NUMBER),
            ([float(s.additional) for s in batch.standings], NUMBER),
            (batch.col("games"), INTEGER),
            (batch.col("wins"), INTEGER),
            _share(batch.col("wins"), batch.col("games")),
            *((batch.col(c), INTEGER) for c in ("killed_first_night", "bp", "bp2", "bpl")),
        ),
    )
    heads: tuple[str, ...] = ("total", "win_points", "additional", "games", "wins", "win_pct")
    heads += ("killed_first_night", "bp", "bp2", "bpl")
    return [HeadRow(22, ((titles, _lane(LOOK.card_title)),)), _header(heads, lang), totals]


def _role_rows(batch: Batch) -> list[HeadRow]:
    lang = batch.lang
    rows = [GAP, _header(("role", "games", "wins", "win_pct", "additional"), lang)]
    for role in (*ROLES, "red", "black"):
        games, wins = batch.col(f"{role}_games"), batch.col(f"{role}_wins")
        extra = (
            _points(batch, batch.col(f"{role}_additional_u")) if role in ROLES else (None, NUMBER)
        )
        cells = ((ROLE_WORDS[role](lang), WORD), (games, INTEGER), (wins, INTEGER))
        rows.append(HeadRow(None, (*cells, _share(wins, games), extra)))
    return rows


def _discipline_rows(batch: Batch) -> list[HeadRow]:
    made, three = batch.col("best_moves"), batch.col("best_moves_three")
    two = batch.col("best_moves_two")
    fewer = [m - a - b for m, a, b in zip(made, three, two, strict=True)]
    heads: tuple[str, ...] = ("bm_count", "bm_three", "bm_two", "bm_fewer", "bm_points_long")
    heads += ("penalties",)
    heads += ("fouls", "fouled_out", "disqualified")
    cells = (
        (made, INTEGER),
        (three, INTEGER),
        (two, INTEGER),
        (fewer, INTEGER),
        _points(batch, batch.col("best_move_u")),
        _points(batch, batch.col("penalty_u")),
        *((batch.col(c), INTEGER) for c in ("fouls", "fouled_out", "disqualified")),
    )
    return [GAP, _header(heads, batch.lang), HeadRow(None, cells)]


def _games_header(batch: Batch) -> list[HeadRow]:
    heads = ("round", "table", "seat", "role", "result", "win_point", "best_move")
    return [GAP, _header((*heads, "award", "penalty", "total"), batch.lang)]


def card_heads(batch: Batch) -> list[HeadRow]:
    """Title, totals, role table, best moves and discipline, the games' header."""
    heads = _title_rows(batch) + _role_rows(batch) + _discipline_rows(batch)
    return heads + _games_header(batch)


HEAD_ROWS = 16  # rows of a card above its games: len(card_heads(…))

_COLUMN_CACHE: dict[int, dict[str, list[Any]]] = {}


def _columns(stats: Stats) -> dict[str, list[Any]]:
    """The players frame as plain lists, converted once per Stats object."""
    key = id(stats.players)
    cached = _COLUMN_CACHE.get(key)
    if cached is None or len(cached["games"]) != len(stats.players):
        _COLUMN_CACHE.clear()
        cached = _COLUMN_CACHE[key] = {c: stats.players[c].tolist() for c in stats.players.columns}
    return cached
