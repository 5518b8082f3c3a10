"""The table sheets of the results workbook: standings, games, points, findings (SPEC §6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ...model import Rating, Standing
from ...text import Text
from ...vocab import display_value
from ..cells import (
    column as _series,
)
from ..cells import (
    game_cells,
    mixed_cells,
    number_cells,
    place,
    shown_k,
    shown_points,
    text_cells,
    text_width,
    two_lines,
    word_cells,
)
from ..engine import MAX_ROWS, Book, Column
from ..labels import (
    FINDINGS_COLUMNS,
    GAMES_COLUMNS,
    POINTS_COLUMNS,
    SEVERITY,
    SHEETS,
    STANDINGS_COLUMNS,
    TEXT,
    decided_text,
)
from ..phrases import k_line, lot_line
from .common import LOOK, OWN_CALL, page, write_header, write_table, write_top, write_wrapped

SEATS = [f"seat_{i}" for i in range(1, 11)]
# Points components left blank when zero: a blank reads as 0 and the rare non-zero values
# stand out (the sheet's note says so). Total and running total are always written.
BLANK_ZERO = ("win_points", "penalty", "best_move", "awards", "additional")
TOP_ROWS = 6  # banner, title, details, note, gap, header: rows above the points
BATCH = 50_000  # points rows prepared at a time


# ---- standings ---------------------------------------------------------------------------


def standings_columns(
    rows: Sequence[Standing], lang: str, *, removed: bool = False, ci: bool = False
) -> list[Column]:
    name = STANDINGS_COLUMNS
    players = [s.player for s in rows]

    def number(code: str, values: list[Any]) -> Column:
        return Column(name[code](lang), 11, LOOK.number, LOOK.text, values)

    def integer(code: str, values: list[int], width: float = 8) -> Column:
        return Column(name[code](lang), width, LOOK.integer, LOOK.center, values)

    decided = [None if removed else decided_text(s.decided_by, lang) for s in rows]
    paid_ci = [number("ci", [float(s.ci) for s in rows])] if ci else []  # where it is paid
    return [
        Column(
            name["place"](lang),
            7,
            LOOK.integer,
            LOOK.center,
            [None if removed else place(s) for s in rows],
        ),
        Column(name["player"](lang), text_width(players, 14, 32), None, LOOK.text, players),
        number("total", [float(s.total) for s in rows]),
        number("win_points", [float(s.win_points) for s in rows]),
        number("additional", [float(s.additional) for s in rows]),
        number("best_move", [float(s.best_move) for s in rows]),
        number("awards", [float(s.awards) for s in rows]),
        number("penalties", [float(s.penalties) for s in rows]),
        *paid_ci,
        integer("games", [s.games for s in rows]),
        integer("wins", [s.wins for s in rows]),
        integer("wins_don_sheriff", [s.wins_don_sheriff for s in rows], 17),
        integer("killed_first_night", [s.killed_first_night for s in rows], 13),
        Column(name["decided_by"](lang), 22, None, LOOK.text, decided),
    ]


def standings_size(rating: Rating) -> int:
    """About the cells of the standings sheet (rows × columns)."""
    return (len(rating.standings) + len(rating.removed)) * len(STANDINGS_COLUMNS)


def standings_sheet(book: Book, rating: Rating, lang: str) -> None:
    """Places with every tie-break criterion; K and lot notices above, removed players below."""
    sheet = book.sheet(SHEETS["standings"](lang))
    row = write_top(sheet, rating, lang, SHEETS["standings"](lang))
    sheet.text(row, 0, k_line(rating.k, lang), LOOK.notice)
    row += 1
    lot = lot_line(rating.lot, lang)
    if lot:
        sheet.text(row, 0, lot, LOOK.alert if rating.lot.needed else LOOK.notice)
        row += 1
    header_row = row + 1
    ci = rating.rules.pays_ci
    end = write_table(sheet, header_row, standings_columns(rating.standings, lang, ci=ci))
    if rating.removed:
        sheet.text(end + 1, 0, TEXT["removed"](lang), LOOK.section)
        columns = standings_columns(rating.removed, lang, removed=True, ci=ci)
        write_header(sheet, end + 2, columns)
        sheet.table(end + 3, columns)
    sheet.page(page(rating, lang, landscape=True, header_row=header_row))


# ---- games and points --------------------------------------------------------------------


def _many_sources(rating: Rating, frame: pd.DataFrame) -> bool:
    if len(rating.sources) > 1:
        return True
    return "source" in frame.columns and frame["source"].nunique(dropna=True) > 1


def _yes_no(lang: str) -> dict[Any, str]:
    return {True: display_value("yesno", "yes", lang), False: display_value("yesno", "no", lang)}


def _words(vocab: str, lang: str, codes: Sequence[str]) -> dict[Any, str]:
    return {code: display_value(vocab, code, lang) for code in codes}


def _common_columns(
    frame: pd.DataFrame, names: dict[str, Text], lang: str, with_source: bool
) -> list[Column]:
    """Game id, source file (only for a season of several files), round, table."""
    columns = [
        Column(
            names["game"](lang), 9, LOOK.code, LOOK.center, game_cells(_series(frame, "game"), lang)
        )
    ]
    if with_source:
        sources = text_cells(_series(frame, "source"))
        columns.append(
            Column(names["source"](lang), text_width(sources, 10, 28), None, LOOK.text, sources)
        )
    columns += [
        Column(
            names["round"](lang), 6, LOOK.code, LOOK.center, mixed_cells(_series(frame, "round"))
        ),
        Column(
            names["table"](lang), 6, LOOK.code, LOOK.center, mixed_cells(_series(frame, "table"))
        ),
    ]
    return columns


def games_columns(rating: Rating, lang: str) -> list[Column]:
    """Two lines a game: the game's facts and who sat in each seat, then each seat's
    points below the nickname — a judge checks a game without turning to another sheet."""
    frame, names = rating.games, GAMES_COLUMNS
    results = _words("result", lang, ("red", "black", "draw"))
    judges = text_cells(_series(frame, "judge"))
    columns = _common_columns(frame, names, lang, _many_sources(rating, frame))
    columns += [
        Column(names["judge"](lang), text_width(judges, 10, 24), None, LOOK.text, judges),
        Column(
            names["result"](lang),
            10,
            None,
            LOOK.text,
            word_cells(_series(frame, "result"), results),
        ),
        Column(
            names["annulled"](lang),
            9,
            None,
            LOOK.center,
            word_cells(_series(frame, "annulled"), _yes_no(lang)),
        ),
        Column(
            names["k_applied"](lang),
            9,
            None,
            LOOK.center,
            word_cells(_series(frame, "k_applied"), _yes_no(lang)),
        ),
        Column(names["k"](lang), 7, LOOK.k, LOOK.text, number_cells(shown_k(_series(frame, "k")))),
    ]
    below = {names["result"](lang): [POINTS_LINE(lang)] * len(frame)}  # the second line says so
    columns = [
        Column(
            c.header,
            c.width,
            c.number_format,
            c.text_format,
            two_lines(c.cells, below.get(c.header, [None] * len(c.cells))),
        )
        for c in columns
    ]
    for seat in SEATS:
        players = text_cells(_series(frame, f"player_{seat.removeprefix('seat_')}"))
        points = number_cells(shown_points(frame, seat, rating.points_scale))
        columns.append(
            Column(
                names[seat](lang),
                text_width(players, 9, 14),
                LOOK.number,
                LOOK.text,
                two_lines(players, points),
            )
        )
    return columns


POINTS_LINE = Text("баллы", "points")


def games_size(rating: Rating) -> int:
    """About the cells of the games sheet: two lines a game."""
    return 2 * len(rating.games) * len(GAMES_COLUMNS)


def games_sheet(book: Book, rating: Rating, lang: str) -> None:
    """Two lines a game: result, whether K applied, who sat where; the points of every
    seat below its player."""
    sheet = book.sheet(SHEETS["games"](lang))
    header_row = write_top(sheet, rating, lang, SHEETS["games"](lang))
    write_table(sheet, header_row, games_columns(rating, lang), autofilter=False)
    sheet.page(page(rating, lang, landscape=True, header_row=header_row))


def points_texts(frame: pd.DataFrame, lang: str, with_source: bool) -> dict[str, list[Any]]:
    """The points sheet's text-like cells (player, source, game, role), whole columns.

    Converted once for the whole sheet: each distinct value once, where a batch of a
    player-ordered sheet would meet most games anew.
    """
    roles = _words("role", lang, ("civilian", "sheriff", "mafia", "don"))
    texts = {
        "player": text_cells(_series(frame, "player")),
        "game": game_cells(_series(frame, "game"), lang),
        "role": word_cells(_series(frame, "role"), roles),
    }
    if with_source:
        texts["source"] = text_cells(_series(frame, "source"))
    return texts


def points_columns(
    frame: pd.DataFrame,
    lang: str,
    with_source: bool,
    texts: dict[str, list[Any]] | None = None,
    scale: int = 1,
    ci: bool = False,
) -> list[Column]:
    """Each player's games in turn: who, where, and every component with its clause
    (`ci`: the first-killed compensation too, where the edition pays it).

    Round, table, result and K live on the Games sheet; repeating them on a million
    rows would double the file for nothing a judge needs here. `texts` are the rows'
    :func:`points_texts` when already converted.
    """
    names = POINTS_COLUMNS
    texts = points_texts(frame, lang, with_source) if texts is None else texts
    players = texts["player"]
    columns = [Column(names["player"](lang), text_width(players, 14, 28), None, LOOK.text, players)]
    if with_source:
        sources = texts["source"]
        columns.append(
            Column(names["source"](lang), text_width(sources, 10, 28), None, LOOK.text, sources)
        )
    columns += [
        Column(names["game"](lang), 9, LOOK.code, LOOK.center, texts["game"]),
        Column(
            names["seat"](lang), 6, LOOK.integer, LOOK.center, number_cells(_series(frame, "seat"))
        ),
        Column(names["role"](lang), 9, None, LOOK.text, texts["role"]),
    ]
    parts = [*BLANK_ZERO[:4], *(["ci"] if ci else []), *BLANK_ZERO[4:]]
    for code in (*parts, "total", "running_total"):
        columns.append(
            Column(
                names[code](lang),
                10,
                LOOK.number,
                LOOK.text,
                number_cells(shown_points(frame, code, scale), blank_zero=code in parts),
            )
        )
    return columns


def points_size(rating: Rating) -> int:
    """About the cells of the points sheets: player, game, seat, role, the components,
    total and running total."""
    return len(rating.points) * (6 + len(BLANK_ZERO))


def points_sheets(book: Book, rating: Rating, lang: str) -> None:
    """One row per player per game; past Excel's row limit it continues on `Баллы (2)`."""
    frame = rating.points
    with_source = _many_sources(rating, frame)
    per_sheet = MAX_ROWS - TOP_ROWS
    for part, start in enumerate(range(0, max(len(frame), 1), per_sheet)):
        name = SHEETS["points"](lang) + (f" ({part + 1})" if part else "")
        piece = frame.iloc[start : start + per_sheet]
        _points_sheet(book, rating, lang, name, (piece, with_source))


def _points_sheet(
    book: Book, rating: Rating, lang: str, name: str, rows: tuple[pd.DataFrame, bool]
) -> None:
    # Numbers are prepared a batch at a time: a million rows of Python floats at once
    # would cost more memory than the streamed workbook itself (texts are shared objects,
    # so they are converted once). Blank cells are never written: one conditional format
    # draws their borders.
    frame, with_source = rows
    sheet = book.sheet(name)
    note_row = write_top(sheet, rating, lang, SHEETS["points"](lang)) - 1
    sheet.text(note_row, 0, TEXT["blank_is_zero"](lang), LOOK.notice)
    header_row = note_row + 2
    row = header_row + 1
    width = 0
    texts = points_texts(frame, lang, with_source)
    for start in range(0, max(len(frame), 1), BATCH):
        columns = points_columns(
            frame.iloc[start : start + BATCH],
            lang,
            with_source,
            {code: cells[start : start + BATCH] for code, cells in texts.items()},
            rating.points_scale,
            rating.rules.pays_ci,
        )
        if start == 0:
            write_header(sheet, header_row, columns)
            width = len(columns)
        row += sheet.table(row, columns, blanks=False)
    if row > header_row + 1:
        sheet.blank_borders((header_row + 1, 0, row - 1, width - 1), LOOK.gap)
    sheet.autofilter(header_row, 0, max(row - 1, header_row + 1), width - 1)
    sheet.page(page(rating, lang, landscape=True, header_row=header_row))


# ---- findings ----------------------------------------------------------------------------


def findings_columns(rating: Rating, lang: str) -> list[Column]:
    names, found = FINDINGS_COLUMNS, rating.findings
    codes = [f.code for f in found]
    where = [f.where for f in found]
    values = [f.value or None for f in found]
    return [
        Column(names["code"](lang), text_width(codes, 8, 16), None, LOOK.text, codes),
        Column(
            names["severity"](lang),
            15,
            None,
            LOOK.text,
            [SEVERITY[f.severity](lang) for f in found],
        ),
        Column(names["where"](lang), text_width(where, 10, 24), None, LOOK.text, where),
        Column(names["value"](lang), text_width(values, 10, 20), None, LOOK.wrap, values),
        Column(names["message"](lang), 42, None, LOOK.wrap, [f.message(lang) for f in found]),
        Column(names["expected"](lang), 30, None, LOOK.wrap, [f.expected(lang) for f in found]),
        Column(names["hint"](lang), 36, None, LOOK.wrap, [f.hint(lang) for f in found]),
    ]


def findings_size(rating: Rating) -> int:
    """About the cells of the findings sheet, each written by a call of its own."""
    return len(rating.findings) * len(FINDINGS_COLUMNS) * OWN_CALL


def findings_sheet(book: Book, rating: Rating, lang: str) -> None:
    """Every warning with its cell, what was found, what was expected and how to fix it."""
    sheet = book.sheet(SHEETS["findings"](lang))
    header_row = write_top(sheet, rating, lang, SHEETS["findings"](lang))
    columns = findings_columns(rating, lang)
    end = write_wrapped(sheet, header_row, columns)
    if rating.findings:
        sheet.autofilter(header_row, 0, end - 1, len(columns) - 1)
    else:
        sheet.text(end, 0, TEXT["no_findings"](lang), LOOK.notice)
    sheet.page(page(rating, lang, landscape=True, header_row=header_row))
