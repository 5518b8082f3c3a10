"""`Карточки` / `Player cards` (SPEC §6 sheet 8): one printable A4 block per player.

Each card, in standings order: place and totals, the role table, best moves and
discipline, then every game (round, table, seat, role, result, points with their
components). A page break separates the cards. A sheet holds at most 1,024 cards (Excel
keeps 1,023 manual page breaks per sheet) and Excel's row limit; more continue on
`Карточки (2)` ….

A big field has as many card rows as the points sheet, so the cards are streamed as
rows of XML into the constant-memory sheet, like the big tables of :mod:`.xlsx_bulk`:
the game rows column by column with its renderer, the few rows at the head of each card
cell by cell. A sheet that cannot be streamed is written with ordinary cell calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Rating, Standing
from ..rating.stats import ROLES, Stats
from ..vocab import display_value
from . import xlsx_bulk
from .labels_stats import OUTCOME, ROLE_WORDS, STATS_SHEETS, S
from .xlsx_layout import (
    MAX_ROWS,
    Formats,
    mixed_cells,
    number_cells,
    page_setup,
    shown_points,
    word_cells,
    write_top,
)
from .xlsx_stats import percent_format

BREAKS_PER_SHEET = 1023
WIDTHS = (10, 7, 7, 9, 10, 9, 9, 8, 8, 9)  # portrait A4, one page wide at PRINT_SCALE
HEAD_ROWS = 16  # rows of a card above its games
GAME_BATCH = 50_000  # game rows rendered at a time
HEADER_HEIGHT = 42
PRINT_SCALE = 72


@dataclass(frozen=True)
class CardFormats:
    fmt: Formats
    pct: Any
    title: Any


def cards_sheets(workbook: Any, fmt: Formats, rating: Rating, lang: str) -> None:
    """Every player's card, split over as many sheets as Excel's limits need."""
    stats = rating.stats
    if stats is None or not len(stats.players):
        return
    formats = CardFormats(
        fmt, percent_format(workbook), workbook.add_format({"bold": True, "font_size": 13})
    )
    games = stats.players["games"].to_numpy(dtype=np.int64)
    if int(games.sum()) != len(rating.points):
        raise ValueError("the points rows do not match the players' games")
    offsets = np.concatenate([[0], np.cumsum(games)])
    sizes = HEAD_ROWS + games + 1
    cells = _game_cells(rating, lang)
    standings = (*rating.standings, *rating.removed)
    start, part = 0, 0
    while start < len(games):
        stop = start
        rows = 0
        while (
            stop < len(games)
            and stop - start <= BREAKS_PER_SHEET
            and rows + sizes[stop] < MAX_ROWS - 8
        ):
            rows += int(sizes[stop])
            stop += 1
        stop = max(stop, start + 1)
        name = STATS_SHEETS["cards"](lang) + (f" ({part + 1})" if part else "")
        _cards_sheet(
            workbook,
            formats,
            rating,
            lang,
            name,
            stats,
            standings,
            range(start, stop),
            offsets,
            cells,
        )
        start, part = stop, part + 1


def _game_cells(rating: Rating, lang: str) -> list[list[Any]]:
    """The game rows of every card, column by column, in the points frame's order."""
    import pandas as pd

    points, games = rating.points, rating.games.drop_duplicates("game")
    # round and table are converted once per game, then spread over its seats
    where = pd.Index(games["game"]).get_indexer(points["game"])
    rounds = _spread(mixed_cells(games["round"]), where)
    tables = _spread(mixed_cells(games["table"]), where)
    roles = word_cells(points["role"], {r: display_value("role", r, lang) for r in ROLES})
    win = points["win"].to_numpy(dtype=bool)
    draw = points["result"].to_numpy(dtype=object) == "draw"
    results = np.where(
        win, OUTCOME["win"](lang), np.where(draw, OUTCOME["draw"](lang), OUTCOME["loss"](lang))
    ).tolist()
    return [
        rounds,
        tables,
        number_cells(points["seat"]),
        roles,
        results,
        *(
            number_cells(shown_points(points, code, rating.points_scale), blank_zero=True)
            for code in ("win_points", "best_move", "awards", "penalty")
        ),
        number_cells(shown_points(points, "total", rating.points_scale)),
    ]


def _spread(cells: list[Any], where: np.ndarray) -> list[Any]:
    table = np.empty(len(cells) + 1, dtype=object)  # the last slot: a game not found
    table[:-1] = cells
    return table[where].tolist()


def _cards_sheet(
    workbook: Any,
    formats: CardFormats,
    rating: Rating,
    lang: str,
    name: str,
    stats: Stats,
    standings: Sequence[Standing],
    players: range,
    offsets: np.ndarray,
    cells: list[list[Any]],
) -> None:
    fmt = formats.fmt
    ws = workbook.add_worksheet(name)
    top = write_top(ws, fmt, rating, lang, STATS_SHEETS["cards"](lang))
    for col, width in enumerate(WIDTHS):
        ws.set_column(col, col, width)
    games = np.diff(offsets)[players.start : players.stop]
    starts = top + np.concatenate([[0], np.cumsum(HEAD_ROWS + games + 1)[:-1]])
    end = int(starts[-1] + HEAD_ROWS + games[-1])
    stream = _Stream(ws, top, end - top + 1, len(WIDTHS))
    column_formats = [
        (fmt.center, fmt.code),
        (fmt.center, fmt.code),
        (fmt.center, fmt.integer),
        (fmt.text, None),
        (fmt.center, None),
    ] + [(fmt.text, fmt.number)] * 5
    # cards are taken in batches of about GAME_BATCH game rows, rendered together
    batch_start = 0
    while batch_start < len(games):
        batch_stop = batch_start + 1
        while (
            batch_stop < len(games)
            and offsets[players.start + batch_stop + 1] - offsets[players.start + batch_start]
            <= GAME_BATCH
        ):
            batch_stop += 1
        first = int(offsets[players.start + batch_start])
        last = int(offsets[players.start + batch_stop])
        lengths = games[batch_start:batch_stop]
        local = np.arange(last - first) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        card_starts = starts[batch_start:batch_stop]
        rows = (np.repeat(card_starts + HEAD_ROWS, lengths) + local).tolist()
        body = stream.table(rows, [column[first:last] for column in cells], column_formats)
        chosen = range(players.start + batch_start, players.start + batch_stop)
        heads = _card_heads(formats, stats, standings, chosen, lang)
        assert len(heads) == HEAD_ROWS
        rendered = [
            stream.head_row(height, (card_starts + offset).tolist(), spec)
            for offset, (height, spec) in enumerate(heads)
        ]
        at = 0
        for offset in range(batch_stop - batch_start):
            size = int(lengths[offset])
            stream.card(
                [row[offset] for row in rendered],
                body[at : at + size],
                int(card_starts[offset]),
                HEAD_ROWS + size,
            )
            at += size
        batch_start = batch_stop
    stream.close()
    if len(starts) > 1:
        ws.set_h_pagebreaks(starts[1:].tolist())
    page_setup(ws, rating, lang, landscape=False, header_row=None)
    # a fixed scale (the columns fit portrait A4): Excel drops manual breaks under fit-to
    ws.set_print_scale(PRINT_SCALE)
    ws.print_area(0, 0, end, len(WIDTHS) - 1)


# A head row: its height and its cells as columns over the cards of a batch, each
# (values, format of numbers and texts, format of a blank); a constant is one value.
HeadCell = tuple[Any, Any, Any]
HeadRow = tuple[float | None, list[HeadCell]]


def _card_heads(
    formats: CardFormats, stats: Stats, standings: Sequence[Standing], chosen: range, lang: str
) -> list[HeadRow]:
    """Title, totals, role table, best moves and discipline, the games' header: each row
    for all `chosen` cards at once."""
    fmt, pct = formats.fmt, formats.pct
    table = _columns(stats)
    rows_of = [standings[i] for i in chosen]

    def col(name: str) -> list[Any]:
        return table[name][chosen.start : chosen.stop]

    def header(titles: Sequence[str]) -> HeadRow:
        return (HEADER_HEIGHT, [(S[t](lang), fmt.header, fmt.header) for t in titles])

    def share(part: list[int], whole: list[int]) -> HeadCell:
        return ([p / w if w else None for p, w in zip(part, whole, strict=True)], pct, pct)

    def points(units: list[int]) -> list[float]:
        return [float(stats.points(u)) for u in units]

    def integer(values: list[Any]) -> HeadCell:
        return (values, fmt.integer, fmt.center)

    def number(values: list[Any]) -> HeadCell:
        return (values, fmt.number, fmt.text)

    titles = [
        S["card_removed"](lang).format(player=s.player)
        if s.removed or s.place is None
        else S["card_title"](lang).format(place=s.place_range or str(s.place), player=s.player)
        for s in rows_of
    ]
    gap: HeadRow = (None, [])
    rows: list[HeadRow] = [
        (22, [(titles, formats.title, formats.title)]),
        header(
            (
                "total",
                "win_points",
                "additional",
                "games",
                "wins",
                "win_pct",
                "killed_first_night",
                "bp",
                "bp2",
                "bpl",
            )
        ),
        (
            None,
            [
                number([float(s.total) for s in rows_of]),
                number([float(s.win_points) for s in rows_of]),
                number([float(s.additional) for s in rows_of]),
                integer(col("games")),
                integer(col("wins")),
                share(col("wins"), col("games")),
                integer(col("killed_first_night")),
                integer(col("bp")),
                integer(col("bp2")),
                integer(col("bpl")),
            ],
        ),
        gap,
        header(("role", "games", "wins", "win_pct", "additional")),
    ]
    for role in (*ROLES, "red", "black"):
        games, wins = col(f"{role}_games"), col(f"{role}_wins")
        extra: HeadCell = (
            number(points(col(f"{role}_additional_u")))
            if role in ROLES
            else (None, fmt.number, fmt.text)
        )
        rows.append(
            (
                None,
                [
                    (ROLE_WORDS[role](lang), fmt.text, fmt.text),
                    integer(games),
                    integer(wins),
                    share(wins, games),
                    extra,
                ],
            )
        )
    made, three, two = col("best_moves"), col("best_moves_three"), col("best_moves_two")
    rows += [
        gap,
        header(
            (
                "bm_count",
                "bm_three",
                "bm_two",
                "bm_fewer",
                "bm_points_long",
                "penalties",
                "fouls",
                "fouled_out",
                "disqualified",
            )
        ),
        (
            None,
            [
                integer(made),
                integer(three),
                integer(two),
                integer([m - a - b for m, a, b in zip(made, three, two, strict=True)]),
                number(points(col("best_move_u"))),
                number(points(col("penalty_u"))),
                integer(col("fouls")),
                integer(col("fouled_out")),
                integer(col("disqualified")),
            ],
        ),
        gap,
        header(
            (
                "round",
                "table",
                "seat",
                "role",
                "result",
                "win_point",
                "best_move",
                "award",
                "penalty",
                "total",
            )
        ),
    ]
    return rows


_COLUMN_CACHE: dict[int, dict[str, list[Any]]] = {}


def _columns(stats: Stats) -> dict[str, list[Any]]:
    """The players frame as plain lists, converted once per Stats object."""
    key = id(stats.players)
    cached = _COLUMN_CACHE.get(key)
    if cached is None or len(cached["games"]) != len(stats.players):
        _COLUMN_CACHE.clear()
        cached = _COLUMN_CACHE[key] = {c: stats.players[c].tolist() for c in stats.players.columns}
    return cached


class _Tails(dict):  # type: ignore[type-arg]
    """value → the end of its cell's markup (after `<c r="A1"`), built on first use.

    Texts become shared strings: a card repeats its headers and role words, and an index
    is a fraction of an inline string's bytes, which the zip must then compress.
    """

    def __init__(self, ws: Any, style: str, text: bool) -> None:
        super().__init__()
        self.ws, self.style, self.text = ws, style, text

    def __missing__(self, value: Any) -> str:
        if self.text:
            index = self.ws.str_table._get_shared_string_index(value)
            tail = f'"{self.style} t="s"><v>{index}</v></c>'
        else:
            tail = f'"{self.style}><v>{value:.16G}</v></c>'
        self[value] = tail
        return tail


class _Stream:
    """Rows appended to a constant-memory sheet as XML, or written cell by cell."""

    def __init__(self, ws: Any, first_row: int, count: int, width: int) -> None:
        self.ws = ws
        self.fast = xlsx_bulk.can_bulk(ws, first_row, count, width) and hasattr(
            getattr(ws, "str_table", None), "_get_shared_string_index"
        )
        self.first: int | None = None
        self.last = first_row
        self.width = width
        self.letters = (
            [f'<c r="{xlsx_bulk.xl_col_to_name(c)}' for c in range(width)] if self.fast else []
        )
        self.tails: dict[tuple[int, bool], _Tails] = {}
        if self.fast:
            ws._write_single_row(first_row)  # rows still pending go out first

    def _tails(self, cell_format: Any, text: bool) -> _Tails:
        key = (id(cell_format), text)
        found = self.tails.get(key)
        if found is None:
            style = "" if cell_format is None else f' s="{cell_format._get_xf_index()}"'
            found = self.tails[key] = _Tails(self.ws, style, text)
        return found

    def head_row(self, height: float | None, rows: list[int], cells: list[HeadCell]) -> list[Any]:
        """One head row of every card of a batch (`rows`: where it falls in each card)."""
        if not self.fast:
            out = []
            for index, row in enumerate(rows):
                placed = []
                for col, (values, number, blank) in enumerate(cells):
                    value = values[index] if isinstance(values, list) else values
                    kind = blank if value is None else number
                    placed.append((col, value, kind))
                out.append((row, height, placed))
            return out
        labels = [str(row + 1) for row in rows]
        if not cells:  # a gap: no row at all reads as an empty one
            return [""] * len(labels)
        size = f' ht="{height}" customHeight="1"' if height else ""
        if not any(isinstance(values, list) for values, _, _ in cells):
            # the same cells on every card (a header): rendered once, the row put in
            template = self._template(size, cells)
            return [template.replace("\x00", label) for label in labels]
        parts = [[f'<row r="{label}"{size}>' for label in labels]]
        for col, (values, number, blank) in enumerate(cells):
            head = self.letters[col]
            empty = f'"{self._tails(blank, True).style}/>'
            if not isinstance(values, list):  # one value on every card
                values = [values] * len(labels)
            texts, numbers = self._tails(number, True), self._tails(number, False)
            parts.append(
                [
                    f"{head}{label}{empty}"
                    if value is None
                    else f"{head}{label}"
                    f"{texts[value] if value.__class__ is str else numbers[value]}"
                    for label, value in zip(labels, values, strict=True)
                ]
            )
        parts.append(["</row>"] * len(labels))
        return list(map("".join, zip(*parts, strict=True)))

    def _template(self, size: str, cells: list[HeadCell]) -> str:
        """A row of constant cells with \\x00 where its row number goes."""
        body = []
        for col, (value, number, blank) in enumerate(cells):
            if value is None:
                body.append(f'{self.letters[col]}\x00"{self._tails(blank, True).style}/>')
            else:
                tails = self._tails(number, value.__class__ is str)
                body.append(f"{self.letters[col]}\x00{tails[value]}")
        return f'<row r="\x00"{size}>{"".join(body)}</row>'

    def card(self, head: list[Any], body: list[Any], first: int, count: int) -> None:
        """A card's head rows (from :meth:`head_row`), then its game rows."""
        if self.first is None:
            self.first = first
        self.last = first + count - 1
        if self.fast:
            self.ws.fh.write("".join(head) + "".join(body))
            return
        for row, height, cells in head:
            if height:
                self.ws.set_row(row, height)
            for col, value, cell_format in cells:
                if value is None:
                    self.ws.write_blank(row, col, None, cell_format)
                else:
                    self.ws.write(row, col, value, cell_format)
        for row, cells in body:
            for col, value, cell_format in cells:
                self.ws.write(row, col, value, cell_format)

    def table(
        self, rows: list[int], columns: list[list[Any]], formats: Sequence[tuple[Any, Any]]
    ) -> list[Any]:
        """Game rows at the given (0-based) rows: each row's XML, or its cells when the
        sheet is written the ordinary way. A None cell is not written."""
        if not self.fast:
            return [
                (
                    row,
                    [
                        (col, column[i], text if isinstance(column[i], str) else number)
                        for col, (column, (text, number)) in enumerate(
                            zip(columns, formats, strict=True)
                        )
                        if column[i] is not None
                    ],
                )
                for i, row in enumerate(rows)
            ]
        labels = [str(row + 1) for row in rows]
        parts = []
        for col, (column, (text, number)) in enumerate(zip(columns, formats, strict=True)):
            head = self.letters[col]
            texts, numbers = self._tails(text, True), self._tails(number, False)
            parts.append(
                [
                    ""
                    if value is None
                    else f"{head}{label}"
                    f"{texts[value] if value.__class__ is str else numbers[value]}"
                    for label, value in zip(labels, column, strict=True)
                ]
            )
        return [
            f'<row r="{label}">{body}</row>'
            for label, body in zip(labels, map("".join, zip(*parts, strict=True)), strict=True)
        ]

    def close(self) -> None:
        if self.fast and self.first is not None:
            self.ws._check_dimensions(self.first, 0)
            self.ws._check_dimensions(self.last, self.width - 1)
            self.ws.previous_row = self.last
