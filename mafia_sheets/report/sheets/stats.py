"""The statistics and head-to-head sheets, and the standings over time on the chart sheet
(SPEC §6 sheets 6, 7 and 9). Layout only: every figure arrives in :class:`~...model.Stats`.

Zero counts and points are left blank, as on `Баллы`; a percentage is written as the exact
share (a float) under a `0.0%` format, so it is rounded only on display.

`Статистика` prints at a fixed scale that keeps its type above 8 pt: its column
groups are spread over as many landscape pages across as they need (a page break between
groups, place and player repeated on each), its header rows repeated down, its title and
note in the page's header and footer, so that no page prints them cut. The
tournament's own figures have a sheet of their own (`Статистика турнира`), so that the
players' headers are printed over the players' table only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ...model import Rating, Stats
from ...rating.stats import ROLES
from ...vocab import phase_name
from ..cells import counts, game_cells, mixed_cells, place, shares, stat_points, text_width
from ..engine import Book, Chart, Column, Series, Sheet, column_breaks
from ..labels_stats import ROLE_WORDS, STATS_SHEETS, S
from .common import LOOK, OWN_CALL, page, write_header, write_table, write_top

PAIRS_SHOWN = 5_000  # rows of the head-to-head sheet (a 100-player season has ≤ 4,950)
PRINT_SCALE = 75  # % of the 11-pt type: 8.25 pt on paper
HEADER_HEIGHT = 74  # the turned header row


@dataclass(frozen=True)
class Group:
    """Columns of the players' table under one title: `first` … `last`."""

    title: str
    first: int
    last: int


def _places(rating: Rating, count: int) -> list[Any]:
    places = [place(s) for s in (*rating.standings, *rating.removed)]
    return (places + [None] * count)[:count]


# ---- Статистика ------------------------------------------------------------------------


def _role_block(stats: Stats, lang: str, code: str, title: str) -> list[Column]:
    """Games, wins and win % of one side or role (`code` prefixes the count columns);
    a role adds the additional points it earned."""
    p = stats.players
    prefix = "" if code == "overall" else f"{code}_"
    games, wins = p[f"{prefix}games"], p[f"{prefix}wins"]
    columns = [
        Column(S["games"](lang), 4.5, LOOK.integer, LOOK.center, counts(games)),
        Column(S["wins"](lang), 4.5, LOOK.integer, LOOK.center, counts(wins)),
        Column(S["win_pct"](lang), 6.5, LOOK.percent, LOOK.center, shares(wins, games)),
    ]
    if code in ROLES:
        columns.append(
            Column(
                S["additional"](lang),
                5.5,
                LOOK.number,
                LOOK.text,
                stat_points(stats, p[f"{code}_additional_u"]),
            )
        )
    return columns


def _count_columns(p: pd.DataFrame, lang: str, codes: Sequence[str]) -> list[Column]:
    return [Column(S[c](lang), 4.5, LOOK.integer, LOOK.center, counts(p[c])) for c in codes]


def _player_blocks(stats: Stats, lang: str) -> list[tuple[str, list[Column]]]:
    """The per-player table after place and player, as titled blocks."""
    p = stats.players
    blocks = [
        (S["overall"](lang), _role_block(stats, lang, "overall", "")),
        *((ROLE_WORDS[c](lang), _role_block(stats, lang, c, "")) for c in ("red", "black")),
        *((ROLE_WORDS[r](lang), _role_block(stats, lang, r, "")) for r in ROLES),
    ]
    extra = Column(
        S["additional_all"](lang),
        5.5,
        LOOK.number,
        LOOK.text,
        stat_points(stats, p["additional_u"]),
    )
    blocks.append(("", [extra, *_count_columns(p, lang, ("killed_first_night",))]))
    fewer = p["best_moves"] - p["best_moves_three"] - p["best_moves_two"]
    moves = _count_columns(
        p.assign(
            bm_made=p["best_moves"],
            bm_three=p["best_moves_three"],
            bm_two=p["best_moves_two"],
            bm_fewer=fewer,
        ),
        lang,
        ("bm_made", "bm_three", "bm_two", "bm_fewer"),
    )
    moves.append(
        Column(
            S["bm_points"](lang), 5.5, LOOK.number, LOOK.text, stat_points(stats, p["best_move_u"])
        )
    )
    blocks.append((S["best_moves"](lang), moves))
    blocks.append(
        (S["discipline"](lang), _count_columns(p, lang, ("fouls", "fouled_out", "disqualified")))
    )
    blocks.append((S["awards"](lang), _count_columns(p, lang, ("bp", "bp2", "bpl"))))
    return blocks


def _player_columns(rating: Rating, stats: Stats, lang: str) -> tuple[list[Column], list[Group]]:
    """Place, player, then every block, and the blocks' groups of columns."""
    names = stats.players["player"].astype(str).tolist()
    columns = [
        Column(S["place"](lang), 6, LOOK.integer, LOOK.center, _places(rating, len(names))),
        Column(S["player"](lang), text_width(names, 14, 26), None, LOOK.text, names),
    ]
    groups: list[Group] = []
    for title, block in _player_blocks(stats, lang):
        groups.append(Group(title, len(columns), len(columns) + len(block) - 1))
        columns += block
    return columns, groups


def statistics_size(rating: Rating) -> int:
    """About the cells of the statistics sheet: a row a player, a column or so a figure."""
    stats = rating.stats
    return 0 if stats is None else len(stats.players) * len(stats.players.columns)


def statistics_sheet(book: Book, rating: Rating, lang: str) -> None:
    """One row per player (grouped headers: all games, red, black, each role, best moves,
    discipline, awards), on pages a person reads at arm's length."""
    stats = rating.stats
    if stats is None:
        return
    name = STATS_SHEETS["statistics"](lang)
    sheet = book.sheet(name)
    row = write_top(sheet, rating, lang, name) - 1
    sheet.text(row, 0, S["blank_is_zero"](lang), LOOK.notice)
    group_row = row + 2
    columns, groups = _player_columns(rating, stats, lang)
    sheet.blank(group_row, 0, LOOK.header)
    sheet.blank(group_row, 1, LOOK.header)
    for group in groups:
        cells = (group_row, group.first, group_row, group.last)
        sheet.merge(cells, group.title, LOOK.header)
    header_row = group_row + 1
    for col, column in enumerate(columns):
        sheet.text(header_row, col, column.header, LOOK.header if col < 2 else LOOK.turned)
        sheet.width(col, col, column.width)
    sheet.height(header_row, HEADER_HEIGHT)
    end = header_row + 1 + sheet.table(header_row + 1, columns)
    sheet.autofilter(header_row, 0, max(end - 1, header_row + 1), len(columns) - 1)
    note = S["blank_is_zero"](lang)
    setup = page(rating, lang, landscape=True, header_row=header_row, named=name, note=note)
    sheet.page(
        replace(
            setup,
            scale=PRINT_SCALE,
            repeat_rows=(group_row, header_row),
            repeat_columns=(0, 1),
            freeze=(header_row + 1, 2),
            # the title rows stay on screen; on paper the page's header and footer say them
            area=(group_row, 0, max(end - 1, header_row + 1), len(columns) - 1),
            column_breaks=column_breaks(
                [c.width for c in columns],
                [(g.first, g.last) for g in groups],
                2,
                PRINT_SCALE,
            ),
        )
    )


# ---- Статистика турнира -----------------------------------------------------------------


def _results_columns(frame: pd.DataFrame, label: Column, lang: str) -> list[Column]:
    """A label column, then games and red / black / draw counts with their shares."""
    games = frame["games"].to_numpy()
    columns = [label, Column(S["games"](lang), 7, LOOK.integer, LOOK.center, counts(games))]
    for code, count, share in (
        ("red", "red_wins", "red_pct"),
        ("black", "black_wins", "black_pct"),
        ("draw", "draws", "draw_pct"),
    ):
        columns += [
            Column(S[count](lang), 8, LOOK.integer, LOOK.center, counts(frame[code])),
            Column(S[share](lang), 8, LOOK.percent, LOOK.center, shares(frame[code], games)),
        ]
    return columns


def _seat_columns(seats: pd.DataFrame, lang: str) -> list[Column]:
    def count(code: str, key: str) -> Column:
        return Column(S[key](lang), 8, LOOK.integer, LOOK.center, counts(seats[code]))

    def share(wins: str, games: str, key: str) -> Column:
        return Column(S[key](lang), 8, LOOK.percent, LOOK.center, shares(seats[wins], seats[games]))

    return [
        Column(S["seat"](lang), 14, LOOK.integer, LOOK.center, seats["seat"].tolist()),
        count("games", "games"),
        count("wins", "wins"),
        share("wins", "games", "win_pct"),
        count("as_red_games", "as_red"),
        share("as_red_wins", "as_red_games", "as_red_pct"),
        count("as_black_games", "as_black"),
        share("as_black_wins", "as_black_games", "as_black_pct"),
    ]


def _tournament_tables(stats: Stats, lang: str) -> list[tuple[str, list[Column]]]:
    """The tournament's own figures: colours overall, by table, by round, by seat, endings."""
    overall = pd.DataFrame(
        {
            "games": [stats.games],
            "red": [stats.red_wins],
            "black": [stats.black_wins],
            "draw": [stats.draws],
        }
    )
    label = Column("", 14, None, LOOK.text, [S["overall"](lang)])
    out = [(S["sec_colours"](lang), _results_columns(overall, label, lang))]
    for key, frame, head in (
        ("sec_tables", stats.by_table, "table"),
        ("sec_rounds", stats.by_round, "round"),
    ):
        if len(frame):
            label = Column(S[head](lang), 14, LOOK.code, LOOK.center, mixed_cells(frame["label"]))
            out.append((S[key](lang), _results_columns(frame, label, lang)))
    out.append((S["sec_seats"](lang), _seat_columns(stats.by_seat, lang)))
    phases = [
        phase_name(int(p), lang) if p else S["nobody_left"](lang)
        for p in stats.ended["label"].tolist()
    ]
    label = Column(S["phase"](lang), 14, None, LOOK.center, phases)
    out.append((S["sec_ended"](lang), _results_columns(stats.ended, label, lang)))
    return out


def tournament_size(rating: Rating) -> int:
    """About the cells of the tournament's tables and of the standings over time."""
    stats = rating.stats
    if stats is None:
        return 0
    frames = (stats.by_seat, stats.by_table, stats.by_round, stats.ended)
    over = stats.over_time
    steps = 0 if over is None else len(over.steps) * (len(over.leaders) + 1)
    return sum(len(frame) for frame in frames) * 8 * OWN_CALL // 4 + steps + 50 * OWN_CALL


def tournament_sheet(book: Book, rating: Rating, lang: str) -> None:
    """The tournament's own figures, table under table, on portrait pages of their own."""
    stats = rating.stats
    if stats is None:
        return
    name = STATS_SHEETS["tournament"](lang)
    sheet = book.sheet(name)
    row = write_top(sheet, rating, lang, name)
    for title, table in _tournament_tables(stats, lang):
        sheet.text(row, 0, title, LOOK.section)
        row = write_table(sheet, row + 1, table, autofilter=False) + 1
    sheet.page(page(rating, lang, landscape=False, header_row=None))


# ---- Встречи ----------------------------------------------------------------------------


def pairs_columns(stats: Stats, lang: str) -> list[Column]:
    pairs = stats.pairs
    assert pairs is not None
    shown = pairs.iloc[:PAIRS_SHOWN]
    names = np.asarray(stats.players["player"].astype(str).tolist(), dtype=object)
    a = names[shown["a"].to_numpy()].tolist()
    b = names[shown["b"].to_numpy()].tolist()
    draws = shown["against"] - shown["a_won"] - shown["b_won"]

    def count(key: str, values: Any, width: float = 9) -> Column:
        return Column(S[key](lang), width, LOOK.integer, LOOK.center, counts(values))

    return [
        Column(S["player_a"](lang), text_width(a, 12, 24), None, LOOK.text, a),
        Column(S["player_b"](lang), text_width(b, 12, 24), None, LOOK.text, b),
        count("met", shown["games"]),
        count("together", shown["together"]),
        count("together_wins", shown["together_wins"]),
        count("against", shown["against"]),
        count("a_won", shown["a_won"], 8),
        count("b_won", shown["b_won"], 8),
        count("pair_draws", draws, 8),
    ]


def pairs_size(rating: Rating) -> int:
    """About the cells of the head-to-head sheet."""
    stats = rating.stats
    return 0 if stats is None or stats.pairs is None else min(PAIRS_SHOWN, len(stats.pairs)) * 9


def pairs_sheet(book: Book, rating: Rating, lang: str) -> None:
    """Head to head (several rounds or files): one row per pair who met, with a filter."""
    stats = rating.stats
    if stats is None or stats.pairs is None:
        return
    name = STATS_SHEETS["pairs"](lang)
    sheet = book.sheet(name)
    row = write_top(sheet, rating, lang, name) - 1
    sheet.text(row, 0, S["pairs_note"](lang), LOOK.notice)
    row += 1
    shown = min(PAIRS_SHOWN, len(stats.pairs))
    if stats.pairs_total > shown:
        cut = S["pairs_cut"](lang).format(
            shown=f"{shown:,}".replace(",", " "), total=f"{stats.pairs_total:,}".replace(",", " ")
        )
        sheet.text(row, 0, cut, LOOK.alert)
        row += 1
    header_row = row + 1
    write_table(sheet, header_row, pairs_columns(stats, lang))
    sheet.page(page(rating, lang, landscape=False, header_row=header_row))


# ---- the standings over time (chart sheet) ----------------------------------------------


def _over_time_columns(stats: Stats, lang: str) -> list[Column]:
    over = stats.over_time
    assert over is not None
    step = S[f"step_{over.kind}"](lang)
    if over.kind == "file":
        labels = [str(v) for v in over.steps]
        label = Column(step, text_width(labels, 14, 30), None, LOOK.text, labels)
    else:
        steps = pd.Series(list(over.steps), dtype=object)
        label = Column(step, 14, LOOK.code, LOOK.center, game_cells(steps, lang))
    return [label] + [
        Column(
            player, text_width([player], 10, 18), LOOK.number, LOOK.text, [float(t) for t in totals]
        )
        for player, totals in zip(over.leaders, over.totals, strict=True)
    ]


def over_time_block(sheet: Sheet, rating: Rating, lang: str, row: int) -> int:
    """A line chart of the leaders' cumulative totals and the table behind it, from `row`
    on (its own page); returns the next free row."""
    stats = rating.stats
    if stats is None or stats.over_time is None or not stats.over_time.steps:
        return row
    sheet.text(row, 0, S["over_time"](lang), LOOK.section)
    chart_row = row + 1
    header_row = chart_row + 22
    columns = _over_time_columns(stats, lang)
    write_header(sheet, header_row, columns)
    count = sheet.table(header_row + 1, columns)
    first, last = header_row + 1, header_row + count
    name = sheet.name
    series = tuple(
        Series(
            (name, header_row, index),
            (name, first, 0, last, 0),
            (name, first, index, last, index),
            {"marker": {"type": "circle", "size": 4}},
        )
        for index in range(1, len(columns))
    )
    chart = Chart(
        "line",
        S["over_time"](lang),
        series,
        x_axis={"name": columns[0].header},
        y_axis={"num_format": "0", "major_gridlines": {"visible": True}},
        legend={"position": "right"},
    )
    sheet.chart((chart_row, 0), chart, (1.7, 1.45))
    return last + 1


def print_scale(rows_on_first_page: int) -> int:
    """A print scale that keeps the first `rows_on_first_page` default rows on one
    landscape A4 page: Excel ignores manual page breaks under «fit to page».

    >>> print_scale(20), print_scale(60)
    (85, 53)
    """
    return max(35, min(85, int(100 * 640 / max(1, rows_on_first_page * 20))))
