"""The summary and chart sheets of the results workbook (SPEC §6, sheets 4 and 6)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...model import Rating
from ...reading.layouts import reading_text
from ...reading.settings import shown_value
from ...reading.summary import reading_lines
from ...rules import OPTION_KEYS, POINT_KEYS, QUIET_KEY, RULE_KEYS, Edition
from ...text import Text
from ...vocab import SETTINGS, display_value
from ..cells import row_height
from ..engine import Book, Chart, Column, Series
from ..headers import header_lines
from ..labels import SHEETS, STANDINGS_COLUMNS, TEXT, tiebreak_text
from ..phrases import (
    heavy_win_text,
    k_formula,
    k_reason,
    lot_groups_text,
    lot_status_text,
    title,
)
from .common import LOOK, OWN_CALL, page, write_table, write_top
from .stats import over_time_block, print_scale
from .tables import standings_columns

# A summary line: item, value (text or number), note; `None` value starts a section.
Line = tuple[str, Any, str]

TOP_PLAYERS = 20
WIDTHS = (40, 44, 34)  # item, value, note: portrait A4


def _yes_no(flag: bool, lang: str) -> str:
    return display_value("yesno", "yes" if flag else "no", lang)


def _status_lines(rating: Rating, lang: str) -> list[Line]:
    status = TEXT["provisional" if rating.provisional else "final"](lang)
    return [(TEXT["sec_status"](lang), None, ""), (TEXT["results"](lang), status, "")]


def _tournament_lines(rating: Rating, lang: str) -> list[Line]:
    t = rating.tournament
    lines: list[Line] = [(TEXT["sec_tournament"](lang), None, "")]
    for key, value in (
        ("name", title(t, lang)),
        ("dates", t.dates),
        ("city", t.city),
        ("chief_judge", t.chief_judge),
    ):
        if value:
            lines.append((SETTINGS[key](lang), value, ""))
    return lines


def _games_lines(rating: Rating, lang: str) -> list[Line]:
    k = rating.k
    draws_note = TEXT["draws_counted" if rating.rules.draws_in_n else "draws_not_counted"]
    return [
        (TEXT["sec_games"](lang), None, ""),
        (TEXT["games_n"](lang), k.games, draws_note(lang)),
        (TEXT["red_wins"](lang), k.red_wins, ""),
        (TEXT["black_wins"](lang), k.black_wins, ""),
        (TEXT["draws"](lang), k.draws, ""),
        (TEXT["annulled"](lang), k.annulled, ""),
    ]


def _k_lines(rating: Rating, lang: str) -> list[Line]:
    k = rating.k
    side = display_value("result", k.heavy_side, lang) if k.heavy_side else TEXT["heavy_none"](lang)
    lines: list[Line] = [
        (TEXT["sec_k"](lang), None, ""),
        (TEXT["k_applied"](lang), _yes_no(k.applied, lang), k_reason(k, lang)),
        (TEXT["heavy_side"](lang), side, ""),
        (TEXT["heavy_games"](lang), k.heavy_games, ""),
        (TEXT["k_value"](lang), float(k.value), ""),
    ]
    if k.applied:
        lines.append((TEXT["k_formula"](lang), k_formula(k, lang), ""))
        lines.append(
            (TEXT["heavy_win"](lang), heavy_win_text(rating.rules.points["win"], k, lang), "")
        )
    return lines


def rule_lines(rating: Rating, lang: str) -> list[Line]:
    """The scoring edition and every value in force, each marked where the tournament set
    it: on «Сводка» and on the page."""
    rules = rating.rules
    changed = TEXT["set_by_tournament"](lang)

    def note(key: str) -> str:
        return changed if key in rules.overridden else ""

    lines: list[Line] = [(TEXT["sec_rules"](lang), None, "")]
    edition = rules.edition
    lines.append((SETTINGS["edition"](lang), edition.name(lang), edition_source(edition)))
    lines += [
        (SETTINGS[key](lang), float(rules.points[key]), note(key))
        for key in POINT_KEYS
        if key in rules.points
    ]
    lines += [
        (SETTINGS[key](lang), _yes_no(getattr(rules, key), lang), note(key)) for key in OPTION_KEYS
    ]
    window = rules.draw_quiet_phases
    lines.append(
        (SETTINGS[QUIET_KEY](lang), window if window else _yes_no(False, lang), note(QUIET_KEY))
    )
    lines.append((TEXT["tiebreak"](lang), tiebreak_text(rules.tiebreak, lang), note("tiebreak")))
    lines.append((TEXT["deadline"](lang), rules.protest_deadline_minutes, ""))
    # every other value of the edition in force (SPEC §2.1), after the regulation's own
    shown = {"edition", *POINT_KEYS, *OPTION_KEYS, QUIET_KEY, "tiebreak"}
    shown.add("protest_deadline_minutes")
    for key in (k for k in RULE_KEYS if k not in shown):
        value = rules.value(key)
        cell: Any = shown_value(key, value)(lang)
        if isinstance(value, Fraction):
            cell = float(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            cell = value  # a count of games or players
        lines.append((SETTINGS[key](lang), cell, note(key)))
    return lines


def edition_source(edition: Edition) -> str:
    """Where an edition's values come from: `szotin/mafiaratings @0ab7207: db/alter153.sql …`."""
    commit = f" @{edition.commit[:7]}" if edition.commit else ""
    return f"{edition.source}{commit}: {edition.files}" if edition.files else edition.source


def _lot_lines(rating: Rating, lang: str) -> list[Line]:
    lot = rating.lot
    lines: list[Line] = [
        (TEXT["sec_lot"](lang), None, ""),
        (TEXT["lot_status"](lang), lot_status_text(lot, lang), ""),
    ]
    if lot.seed is not None:
        lines.append((TEXT["lot_seed"](lang), lot.seed, ""))
    if lot.groups:
        lines.append((TEXT["lot_groups"](lang), lot_groups_text(lot), ""))
    return lines


def _reading_lines(rating: Rating, lang: str) -> list[Line]:
    """How each file was read: «прочитано: бланк на игру, 12 игр»."""
    if not rating.reading:
        return []
    lines: list[Line] = [(Text("Как прочитано", "How it was read")(lang), None, "")]
    for r in rating.reading:
        lines.append((r.source, reading_text(r, lang), ""))
        lines += [(sheet, text, "") for sheet, text in reading_lines(r, lang)]
    return lines


def _merged_lines(rating: Rating, lang: str) -> list[Line]:
    """Players whose games were typed under other spellings («Другие ники»)."""
    if not rating.merged:
        return []
    note = Text("засчитаны этому игроку", "counted for this player")(lang)
    head = Text("Объединённые ники («Другие ники»)", "Merged nicknames («Also known as»)")
    return [(head(lang), None, "")] + [
        (player, ", ".join(spellings), note) for player, spellings in rating.merged
    ]


def _source_lines(rating: Rating, lang: str) -> list[Line]:
    if not rating.sources:
        return []
    return [(TEXT["sec_sources"](lang), None, "")] + [
        (str(i), name, "") for i, name in enumerate(rating.sources, 1)
    ]


def summary_lines(rating: Rating, lang: str) -> list[Line]:
    """Everything on the summary sheet, in order; kept apart from layout to be testable."""
    return [
        *_status_lines(rating, lang),
        *_games_lines(rating, lang),
        *_k_lines(rating, lang),
        *rule_lines(rating, lang),
        *_lot_lines(rating, lang),
        *_tournament_lines(rating, lang),
        *_merged_lines(rating, lang),
        *_source_lines(rating, lang),
        *_reading_lines(rating, lang),
        *header_lines(rating.headers, rating.findings, lang),
    ]


def summary_size(rating: Rating) -> int:
    """About the cells of the summary sheet (some fifty lines and one a source or reading
    note), each written by a call of its own."""
    return (50 + len(rating.sources) + len(rating.reading)) * len(WIDTHS) * OWN_CALL


def summary_sheet(book: Book, rating: Rating, lang: str) -> None:
    """N, wins by colour, K with its formula, rule options, lot status, source files."""
    sheet = book.sheet(SHEETS["summary"](lang))
    header_row = write_top(sheet, rating, lang, SHEETS["summary"](lang))
    for col, (key, width) in enumerate(zip(("item", "value", "note"), WIDTHS, strict=True)):
        sheet.text(header_row, col, TEXT[key](lang), LOOK.header)
        sheet.width(col, col, width)
    alerts = {TEXT["provisional"](lang), TEXT["lot_open"](lang)}
    row = header_row + 1
    for item, value, note in summary_lines(rating, lang):
        if value is None:
            row += 1  # a gap before each section keeps the printout readable
            sheet.text(row, 0, item, LOOK.section)
            row += 1
            continue
        text = value if isinstance(value, str) else None
        height = row_height(zip((item, text, note), WIDTHS, strict=True))
        if height:
            sheet.height(row, height)
        sheet.text(row, 0, item, LOOK.wrap)
        if text is None:
            # K keeps its four decimals (a decimal comma in a Russian Excel)
            sheet.number(row, 1, value, LOOK.k if item == TEXT["k_value"](lang) else LOOK.general)
        else:
            sheet.text(row, 1, text, LOOK.alert_cell if text in alerts else LOOK.wrap)
        sheet.write(row, 2, note or None, LOOK.wrap)
        row += 1
    sheet.page(page(rating, lang, landscape=False, header_row=header_row))


# ---- charts ------------------------------------------------------------------------------


def _wins_table(rating: Rating, lang: str) -> list[Column]:
    k = rating.k
    words = [
        display_value("result", "red", lang),
        display_value("result", "black", lang),
        TEXT["draws_word"](lang),
    ]
    return [
        Column(TEXT["chart_wins"](lang), 22, None, LOOK.text, words),
        Column(
            TEXT["games_word"](lang),
            10,
            LOOK.integer,
            LOOK.text,
            [k.red_wins, k.black_wins, k.draws],
        ),
    ]


def _top_table(rating: Rating, lang: str) -> list[Column]:
    names = STANDINGS_COLUMNS
    top = standings_columns(rating.standings[:TOP_PLAYERS], lang)
    by_header = {column.header: column for column in top}
    return [by_header[names[code](lang)] for code in ("place", "player", "total")]


def _wins_chart(sheet: str, first: int, lang: str) -> Chart:
    colours = ("#C00000", "#262626", "#A6A6A6")
    series = Series(
        TEXT["chart_wins"](lang),
        (sheet, first, 0, first + 2, 0),
        (sheet, first, 1, first + 2, 1),
        {"points": [{"fill": {"color": c}} for c in colours], "data_labels": {"value": True}},
    )
    return Chart(
        "column",
        TEXT["chart_wins"](lang),
        (series,),
        y_axis={"min": 0, "major_gridlines": {"visible": True}},
        legend={"none": True},
    )


def _top_chart(sheet: str, first: int, totals: list[float], lang: str) -> Chart:
    last = first + len(totals) - 1
    series = Series(
        TEXT["chart_top"](lang),
        (sheet, first, 1, last, 1),
        (sheet, first, 2, last, 2),
        {"fill": {"color": "#2F5597"}, "data_labels": {"value": True, "num_format": "0.00"}},
    )
    # Bars run top-down in standings order, as a judge reads the table, and start at zero,
    # or an automatic axis would exaggerate small differences.
    return Chart(
        "bar",
        TEXT["chart_top"](lang),
        (series,),
        x_axis={"num_format": "0.0", **({"min": 0} if min(totals) >= 0 else {})},
        y_axis={"reverse": True},
        legend={"none": True},
    )


def charts_size(rating: Rating) -> int:
    """About the cells behind the charts, and the charts themselves."""
    return (TOP_PLAYERS + 3) * 3 * OWN_CALL


def charts_sheet(book: Book, rating: Rating, lang: str) -> None:
    """Native charts fed by value cells on the same sheet (never by formulas)."""
    name = SHEETS["charts"](lang)
    sheet = book.sheet(name)
    row = write_top(sheet, rating, lang, name)
    wins_first = row + 1
    row = write_table(sheet, row, _wins_table(rating, lang), autofilter=False) + 1
    top_first = row + 1
    top = _top_table(rating, lang)
    totals = top[2].cells
    row = write_table(sheet, row, top, autofilter=False)
    sheet.width(0, 0, 22)
    sheet.chart((1, 4), _wins_chart(name, wins_first, lang), (1.2, 1.0))
    height = max(1.0, len(totals) / 9)
    if totals:
        sheet.chart((17, 4), _top_chart(name, top_first, totals, lang), (1.2, height))
    # the standings over time start on a page of their own, below both charts
    below = max(row, 17 + int(15 * height) + 1) + 1
    more = over_time_block(sheet, rating, lang, below) > below
    setup = page(rating, lang, landscape=True, header_row=None)
    # the block starts a page of its own: a fixed scale keeps that break
    sheet.page(
        replace(setup, scale=print_scale(below), breaks=(below,))
        if more
        else replace(setup, fit=(1, 1))
    )
