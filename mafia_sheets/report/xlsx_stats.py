"""The statistics and head-to-head sheets, and the standings over time on the chart sheet
(SPEC §6 sheets 6, 7 and 9). Layout only: every figure arrives in :class:`..stats.Stats`.

Zero counts and points are left blank, as on `Баллы`; a percentage is written as the exact
share (a float) under a `0.0%` format, so it is rounded only on display.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..model import Rating
from ..rating.stats import ROLES, Stats
from ..vocab import phase_name
from .labels_stats import ROLE_WORDS, STATS_SHEETS, S
from .xlsx_layout import (
    Column,
    Formats,
    game_cells,
    mixed_cells,
    page_setup,
    text_width,
    write_header,
    write_rows,
    write_table,
    write_top,
)

PAIRS_SHOWN = 5_000  # rows of the head-to-head sheet (a 100-player season has ≤ 4,950)


def rotated_header(workbook: Any) -> Any:
    """Header text turned upwards: the statistics' many narrow columns fit one page wide."""
    return workbook.add_format(
        {
            "border": 1,
            "border_color": "#BFBFBF",
            "bold": True,
            "bg_color": "#D9E1F2",
            "text_wrap": True,
            "rotation": 90,
            "align": "center",
            "valign": "bottom",
        }
    )


def percent_format(workbook: Any) -> Any:
    return workbook.add_format(
        {
            "border": 1,
            "border_color": "#BFBFBF",
            "valign": "top",
            "num_format": "0.0%",
            "align": "center",
        }
    )


Counts = Sequence[int] | np.ndarray | pd.Series  # a column of whole numbers


def _counts(values: Counts) -> list[int | None]:
    """Integers, zeros blank."""
    return [int(v) or None for v in np.asarray(values).tolist()]


def _shares(part: Counts, whole: Counts) -> list[float | None]:
    """part / whole as floats for a `%` format; blank where the share is 0 or undefined."""
    part, whole = np.asarray(part, dtype=np.int64), np.asarray(whole, dtype=np.int64)
    out = np.full(len(part), None, dtype=object)
    shown = (whole > 0) & (part > 0)
    out[shown] = (part[shown] / whole[shown]).tolist()
    return out.tolist()


def _points(stats: Stats, units: Counts) -> list[float | None]:
    return [float(stats.points(u)) if u else None for u in np.asarray(units).tolist()]


def _places(rating: Rating, count: int) -> list[Any]:
    from .xlsx_tables import _place

    places = [_place(s) for s in (*rating.standings, *rating.removed)]
    return (places + [None] * count)[:count]


# ---- Статистика ------------------------------------------------------------------------


def _player_columns(
    fmt: Formats, pct: Any, rating: Rating, stats: Stats, lang: str
) -> tuple[list[Column], list[tuple[str, int, int]]]:
    """The per-player table and its header groups (title, first column, last column)."""
    p = stats.players
    names = p["player"].astype(str).tolist()
    columns = [
        Column(S["place"](lang), 6, fmt.integer, fmt.center, _places(rating, len(p))),
        Column(S["player"](lang), text_width(names, 14, 26), None, fmt.text, names),
    ]
    groups: list[tuple[str, int, int]] = []

    def block(title: str, games: str, wins: str, additional: str | None = None) -> None:
        first = len(columns)
        columns.extend(
            [
                Column(S["games"](lang), 4.5, fmt.integer, fmt.center, _counts(p[games])),
                Column(S["wins"](lang), 4.5, fmt.integer, fmt.center, _counts(p[wins])),
                Column(S["win_pct"](lang), 6.5, pct, fmt.center, _shares(p[wins], p[games])),
            ]
        )
        if additional:
            columns.append(
                Column(
                    S["additional"](lang), 5.5, fmt.number, fmt.text, _points(stats, p[additional])
                )
            )
        groups.append((title, first, len(columns) - 1))

    block(S["overall"](lang), "games", "wins")
    block(ROLE_WORDS["red"](lang), "red_games", "red_wins")
    block(ROLE_WORDS["black"](lang), "black_games", "black_wins")
    for role in ROLES:
        block(ROLE_WORDS[role](lang), f"{role}_games", f"{role}_wins", f"{role}_additional_u")
    first = len(columns)
    fewer = p["best_moves"] - p["best_moves_three"] - p["best_moves_two"]
    columns += [
        Column(
            S["additional_all"](lang), 5.5, fmt.number, fmt.text, _points(stats, p["additional_u"])
        ),
        Column(
            S["killed_first_night"](lang),
            4.5,
            fmt.integer,
            fmt.center,
            _counts(p["killed_first_night"]),
        ),
    ]
    groups.append(("", first, len(columns) - 1))
    first = len(columns)
    columns += [
        Column(S["bm_made"](lang), 4.5, fmt.integer, fmt.center, _counts(p["best_moves"])),
        Column(S["bm_three"](lang), 4.5, fmt.integer, fmt.center, _counts(p["best_moves_three"])),
        Column(S["bm_two"](lang), 4.5, fmt.integer, fmt.center, _counts(p["best_moves_two"])),
        Column(S["bm_fewer"](lang), 4.5, fmt.integer, fmt.center, _counts(fewer)),
        Column(S["bm_points"](lang), 5.5, fmt.number, fmt.text, _points(stats, p["best_move_u"])),
    ]
    groups.append((S["best_moves"](lang), first, len(columns) - 1))
    first = len(columns)
    columns += [
        Column(S["fouls"](lang), 4.5, fmt.integer, fmt.center, _counts(p["fouls"])),
        Column(S["fouled_out"](lang), 4.5, fmt.integer, fmt.center, _counts(p["fouled_out"])),
        Column(S["disqualified"](lang), 4.5, fmt.integer, fmt.center, _counts(p["disqualified"])),
    ]
    groups.append((S["discipline"](lang), first, len(columns) - 1))
    first = len(columns)
    columns += [
        Column(S[code](lang), 4.5, fmt.integer, fmt.center, _counts(p[code]))
        for code in ("bp", "bp2", "bpl")
    ]
    groups.append((S["awards"](lang), first, len(columns) - 1))
    return columns, groups


def _results_columns(fmt: Formats, pct: Any, frame: Any, label: Column) -> list[Column]:
    games = frame["games"].to_numpy()
    return [
        label,
        Column("", 7, fmt.integer, fmt.center, _counts(games)),
        *(
            column
            for code, share in (("red", "red_pct"), ("black", "black_pct"), ("draw", "draw_pct"))
            for column in (
                Column("", 8, fmt.integer, fmt.center, _counts(frame[code])),
                Column(share, 8, pct, fmt.center, _shares(frame[code], games)),
            )
        ),
    ]


def _titled(columns: list[Column], lang: str, first: str) -> list[Column]:
    titles = [
        first,
        S["games"](lang),
        S["red_wins"](lang),
        S["red_pct"](lang),
        S["black_wins"](lang),
        S["black_pct"](lang),
        S["draws"](lang),
        S["draw_pct"](lang),
    ]
    for column, title in zip(columns, titles, strict=True):
        column.header = title
    return columns


def _tournament_tables(
    fmt: Formats, pct: Any, stats: Stats, lang: str
) -> list[tuple[str, list[Column]]]:
    """The tournament's own figures: colours overall, by table, by round, by seat, endings."""
    import pandas as pd

    overall = pd.DataFrame(
        {
            "label": [S["overall"](lang)],
            "games": [stats.games],
            "red": [stats.red_wins],
            "black": [stats.black_wins],
            "draw": [stats.draws],
        }
    )
    out = [
        (
            S["sec_colours"](lang),
            _titled(
                _results_columns(
                    fmt, pct, overall, Column("", 14, None, fmt.text, [S["overall"](lang)])
                ),
                lang,
                "",
            ),
        )
    ]
    for key, frame, head in (
        ("sec_tables", stats.by_table, "table"),
        ("sec_rounds", stats.by_round, "round"),
    ):
        if len(frame):
            label = Column("", 14, fmt.code, fmt.center, mixed_cells(frame["label"]))
            out.append(
                (
                    S[key](lang),
                    _titled(_results_columns(fmt, pct, frame, label), lang, S[head](lang)),
                )
            )
    seats = stats.by_seat
    out.append(
        (
            S["sec_seats"](lang),
            [
                Column(S["seat"](lang), 14, fmt.integer, fmt.center, seats["seat"].tolist()),
                Column(S["games"](lang), 7, fmt.integer, fmt.center, _counts(seats["games"])),
                Column(S["wins"](lang), 8, fmt.integer, fmt.center, _counts(seats["wins"])),
                Column(
                    S["win_pct"](lang), 8, pct, fmt.center, _shares(seats["wins"], seats["games"])
                ),
                Column(
                    S["as_red"](lang), 8, fmt.integer, fmt.center, _counts(seats["as_red_games"])
                ),
                Column(
                    S["as_red_pct"](lang),
                    8,
                    pct,
                    fmt.center,
                    _shares(seats["as_red_wins"], seats["as_red_games"]),
                ),
                Column(
                    S["as_black"](lang),
                    8,
                    fmt.integer,
                    fmt.center,
                    _counts(seats["as_black_games"]),
                ),
                Column(
                    S["as_black_pct"](lang),
                    8,
                    pct,
                    fmt.center,
                    _shares(seats["as_black_wins"], seats["as_black_games"]),
                ),
            ],
        )
    )
    ended = stats.ended
    phases = [
        phase_name(int(p), lang) if p else S["nobody_left"](lang) for p in ended["label"].tolist()
    ]
    out.append(
        (
            S["sec_ended"](lang),
            _titled(
                _results_columns(fmt, pct, ended, Column("", 14, None, fmt.center, phases)),
                lang,
                S["phase"](lang),
            ),
        )
    )
    return out


def statistics_sheet(workbook: Any, fmt: Formats, rating: Rating, lang: str) -> None:
    """One row per player (grouped headers: all games, red, black, each role, best moves,
    discipline, awards), then the tournament's own figures below."""
    stats = rating.stats
    if stats is None:
        return
    pct = percent_format(workbook)
    name = STATS_SHEETS["statistics"](lang)
    ws = workbook.add_worksheet(name)
    row = write_top(ws, fmt, rating, lang, name) - 1
    ws.write_string(row, 0, S["blank_is_zero"](lang), fmt.notice)
    group_row = row + 2
    columns, groups = _player_columns(fmt, pct, rating, stats, lang)
    for title, first, last in groups:
        if first == last:
            ws.write_string(group_row, first, title, fmt.header)
        else:
            ws.merge_range(group_row, first, group_row, last, title, fmt.header)
    ws.write_blank(group_row, 0, None, fmt.header)
    ws.write_blank(group_row, 1, None, fmt.header)
    header_row = group_row + 1
    turned = rotated_header(workbook)
    for col, column in enumerate(columns):
        ws.write_string(header_row, col, column.header, fmt.header if col < 2 else turned)
        ws.set_column(col, col, column.width)
    ws.set_row(header_row, 74)
    end = header_row + 1 + write_rows(ws, header_row + 1, columns)
    ws.autofilter(header_row, 0, max(end - 1, header_row + 1), len(columns) - 1)
    widest = len(columns)
    row = end + 1
    ws.write_string(row, 0, S["sec_tournament"](lang), fmt.section)
    row += 2
    tables = _tournament_tables(fmt, pct, stats, lang)
    _widen_for_shares(ws, columns, tables, pct)
    for title, table in tables:
        ws.write_string(row, 1, title, fmt.section)
        # the player column is wide: tournament tables start beside the place column
        row = _write_offset_table(ws, fmt, turned, row + 1, table) + 1
    page_setup(ws, rating, lang, landscape=True, header_row=header_row)
    ws.repeat_rows(group_row, header_row)
    ws.freeze_panes(header_row + 1, 2)
    ws.print_area(0, 0, row, widest - 1)


SHARE_WIDTH = 7  # «100,0 %» fits; a narrower column shows ### instead


def _widen_for_shares(
    ws: Any, columns: list[Column], tables: list[tuple[str, list[Column]]], pct: Any
) -> None:
    """The tournament tables sit under the player table and share its column widths: a
    column that holds a percentage below is widened so the share is readable."""
    shares = {
        col
        for _, table in tables
        for col, column in enumerate(table, start=1)
        if column.number_format is pct
    }
    for col in sorted(shares):
        width = columns[col].width if col < len(columns) else 0
        if width < SHARE_WIDTH:
            ws.set_column(col, col, SHARE_WIDTH)


def _write_offset_table(ws: Any, fmt: Formats, turned: Any, row: int, columns: list[Column]) -> int:
    """A small table from column B on, headers in the sheet's own (already set) widths."""
    for col, column in enumerate(columns, start=1):
        ws.write_string(row, col, column.header, fmt.header if col == 1 else turned)
    ws.set_row(row, 74)
    count = len(columns[0].cells)
    for offset in range(count):
        for col, column in enumerate(columns, start=1):
            value = column.cells[offset]
            if value is None:
                ws.write_blank(row + 1 + offset, col, None, column.text_format)
            elif isinstance(value, str):
                ws.write_string(row + 1 + offset, col, value, column.text_format)
            else:
                ws.write_number(row + 1 + offset, col, value, column.number_format)
    return row + 1 + count


# ---- Встречи ----------------------------------------------------------------------------


def pairs_columns(fmt: Formats, stats: Stats, lang: str) -> list[Column]:
    pairs = stats.pairs
    assert pairs is not None
    shown = pairs.iloc[:PAIRS_SHOWN]
    names = np.asarray(stats.players["player"].astype(str).tolist(), dtype=object)
    a = names[shown["a"].to_numpy()].tolist()
    b = names[shown["b"].to_numpy()].tolist()
    draws = shown["against"] - shown["a_won"] - shown["b_won"]
    return [
        Column(S["player_a"](lang), text_width(a, 12, 24), None, fmt.text, a),
        Column(S["player_b"](lang), text_width(b, 12, 24), None, fmt.text, b),
        Column(S["met"](lang), 9, fmt.integer, fmt.center, _counts(shown["games"])),
        Column(S["together"](lang), 9, fmt.integer, fmt.center, _counts(shown["together"])),
        Column(
            S["together_wins"](lang), 9, fmt.integer, fmt.center, _counts(shown["together_wins"])
        ),
        Column(S["against"](lang), 9, fmt.integer, fmt.center, _counts(shown["against"])),
        Column(S["a_won"](lang), 8, fmt.integer, fmt.center, _counts(shown["a_won"])),
        Column(S["b_won"](lang), 8, fmt.integer, fmt.center, _counts(shown["b_won"])),
        Column(S["pair_draws"](lang), 8, fmt.integer, fmt.center, _counts(draws)),
    ]


def pairs_sheet(workbook: Any, fmt: Formats, rating: Rating, lang: str) -> None:
    """Head to head (several rounds or files): one row per pair who met, with a filter."""
    stats = rating.stats
    if stats is None or stats.pairs is None:
        return
    name = STATS_SHEETS["pairs"](lang)
    ws = workbook.add_worksheet(name)
    row = write_top(ws, fmt, rating, lang, name) - 1
    ws.write_string(row, 0, S["pairs_note"](lang), fmt.notice)
    row += 1
    if stats.pairs_total > min(PAIRS_SHOWN, len(stats.pairs)):
        shown = min(PAIRS_SHOWN, len(stats.pairs))
        ws.write_string(
            row,
            0,
            S["pairs_cut"](lang).format(
                shown=f"{shown:,}".replace(",", " "),
                total=f"{stats.pairs_total:,}".replace(",", " "),
            ),
            fmt.alert,
        )
        row += 1
    header_row = row + 1
    write_table(ws, fmt, header_row, pairs_columns(fmt, stats, lang))
    page_setup(ws, rating, lang, landscape=False, header_row=header_row)


# ---- the standings over time (chart sheet) ----------------------------------------------


def over_time_block(
    workbook: Any, ws: Any, fmt: Formats, rating: Rating, lang: str, row: int, sheet: str
) -> int:
    """A line chart of the leaders' cumulative totals and the table behind it, from `row`
    on (its own page); returns the next free row."""
    stats = rating.stats
    if stats is None or stats.over_time is None or not stats.over_time.steps:
        return row
    over = stats.over_time
    ws.set_h_pagebreaks([row])
    ws.write_string(row, 0, S["over_time"](lang), fmt.section)
    chart_row = row + 1
    header_row = chart_row + 22
    step = S[f"step_{over.kind}"](lang)
    if over.kind == "file":
        labels = [str(v) for v in over.steps]
        label = Column(step, text_width(labels, 14, 30), None, fmt.text, labels)
    else:
        label = Column(
            step,
            14,
            fmt.code,
            fmt.center,
            [None if v is None else v for v in game_cells(_series(over.steps), lang)],
        )
    columns = [label] + [
        Column(
            player,
            text_width([player], 10, 18),
            fmt.number,
            fmt.text,
            [float(total) for total in totals],
        )
        for player, totals in zip(over.leaders, over.totals, strict=True)
    ]
    write_header(ws, fmt, header_row, columns)
    count = write_rows(ws, header_row + 1, columns)
    chart = workbook.add_chart({"type": "line"})
    first, last = header_row + 1, header_row + count
    for index in range(1, len(columns)):
        chart.add_series(
            {
                "name": [sheet, header_row, index],
                "categories": [sheet, first, 0, last, 0],
                "values": [sheet, first, index, last, index],
                "marker": {"type": "circle", "size": 4},
            }
        )
    chart.set_title({"name": S["over_time"](lang)})
    chart.set_x_axis({"name": step})
    chart.set_y_axis({"num_format": "0", "major_gridlines": {"visible": True}})
    chart.set_legend({"position": "right"})
    ws.insert_chart(chart_row, 0, chart, {"x_scale": 1.7, "y_scale": 1.45})
    return last + 1


def print_scale(rows_on_first_page: int) -> int:
    """A print scale that keeps the first `rows_on_first_page` default rows on one
    landscape A4 page: Excel ignores manual page breaks under «fit to page»."""
    return max(35, min(85, int(100 * 640 / max(1, rows_on_first_page * 20))))


def _series(values: Sequence[object]) -> Any:
    import pandas as pd

    return pd.Series(list(values), dtype=object)
