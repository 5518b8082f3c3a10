"""The summary and chart sheets of the results workbook (SPEC §6, sheets 4 and 6)."""

from __future__ import annotations

from typing import Any

from ..model import Rating
from ..rules import OPTION_KEYS, POINT_KEYS, QUIET_KEY
from ..text import Text
from ..vocab import SETTINGS, display_value
from .headers import header_lines
from .labels import SHEETS, STANDINGS_COLUMNS, TEXT, TIEBREAK
from .phrases import heavy_win_text, k_formula, k_reason, lot_groups_text, lot_status_text
from .xlsx_layout import Column, Formats, page_setup, row_height, write_table, write_top
from .xlsx_stats import over_time_block, print_scale
from .xlsx_tables import standings_columns

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
        ("name", t.title(lang)),
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


def _rule_lines(rating: Rating, lang: str) -> list[Line]:
    rules = rating.rules
    changed = TEXT["set_by_tournament"](lang)

    def note(key: str) -> str:
        return changed if key in rules.overridden else ""

    lines: list[Line] = [(TEXT["sec_rules"](lang), None, "")]
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
    order = " → ".join(TIEBREAK[c](lang) if c in TIEBREAK else c for c in rules.tiebreak)
    lines.append((TEXT["tiebreak"](lang), order, ""))
    lines.append((TEXT["deadline"](lang), rules.protest_deadline_minutes, ""))
    return lines


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
    from ..reading.layouts import reading_text
    from ..reading.summary import reading_lines

    if not rating.reading:
        return []
    lines: list[Line] = [(Text("Как прочитано", "How it was read")(lang), None, "")]
    for r in rating.reading:
        lines.append((r.source, reading_text(r, lang), ""))
        lines += [(sheet, text, "") for sheet, text in reading_lines(r, lang)]
    return lines


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
        *_rule_lines(rating, lang),
        *_lot_lines(rating, lang),
        *_tournament_lines(rating, lang),
        *_source_lines(rating, lang),
        *_reading_lines(rating, lang),
        *header_lines(rating.headers, rating.findings, lang),
    ]


def summary_sheet(workbook: Any, fmt: Formats, rating: Rating, lang: str) -> None:
    """N, wins by colour, K with its formula, rule options, lot status, source files."""
    ws = workbook.add_worksheet(SHEETS["summary"](lang))
    header_row = write_top(ws, fmt, rating, lang, SHEETS["summary"](lang))
    for col, (key, width) in enumerate(zip(("item", "value", "note"), WIDTHS, strict=True)):
        ws.write_string(header_row, col, TEXT[key](lang), fmt.header)
        ws.set_column(col, col, width)
    alerts = {TEXT["provisional"](lang), TEXT["lot_open"](lang)}
    row = header_row + 1
    for item, value, note in summary_lines(rating, lang):
        if value is None:
            row += 1  # a gap before each section keeps the printout readable
            ws.write_string(row, 0, item, fmt.section)
            row += 1
            continue
        text = value if isinstance(value, str) else None
        height = row_height(zip((item, text, note), WIDTHS, strict=True))
        if height:
            ws.set_row(row, height)
        ws.write_string(row, 0, item, fmt.wrap)
        if text is None:
            # K keeps its four decimals (a decimal comma in a Russian Excel)
            number = fmt.k if item == TEXT["k_value"](lang) else fmt.general
            ws.write_number(row, 1, value, number)
        else:
            ws.write_string(row, 1, text, fmt.alert_cell if text in alerts else fmt.wrap)
        if note:
            ws.write_string(row, 2, note, fmt.wrap)
        else:
            ws.write_blank(row, 2, None, fmt.wrap)
        row += 1
    page_setup(ws, rating, lang, landscape=False, header_row=header_row)


# ---- charts ------------------------------------------------------------------------------


def _wins_table(fmt: Formats, rating: Rating, lang: str) -> list[Column]:
    k = rating.k
    words = [
        display_value("result", "red", lang),
        display_value("result", "black", lang),
        TEXT["draws_word"](lang),
    ]
    return [
        Column(TEXT["chart_wins"](lang), 22, None, fmt.text, words),
        Column(
            TEXT["games_word"](lang), 10, fmt.integer, fmt.text, [k.red_wins, k.black_wins, k.draws]
        ),
    ]


def _top_table(fmt: Formats, rating: Rating, lang: str) -> list[Column]:
    names = STANDINGS_COLUMNS
    top = standings_columns(fmt, rating.standings[:TOP_PLAYERS], lang)
    by_header = {column.header: column for column in top}
    return [by_header[names[code](lang)] for code in ("place", "player", "total")]


def _wins_chart(workbook: Any, sheet: str, first: int, lang: str) -> Any:
    chart = workbook.add_chart({"type": "column"})
    chart.add_series(
        {
            "name": TEXT["chart_wins"](lang),
            "categories": [sheet, first, 0, first + 2, 0],
            "values": [sheet, first, 1, first + 2, 1],
            "points": [
                {"fill": {"color": "#C00000"}},
                {"fill": {"color": "#262626"}},
                {"fill": {"color": "#A6A6A6"}},
            ],
            "data_labels": {"value": True},
        }
    )
    chart.set_title({"name": TEXT["chart_wins"](lang)})
    chart.set_legend({"none": True})
    chart.set_y_axis({"min": 0, "major_gridlines": {"visible": True}})
    return chart


def _top_chart(workbook: Any, sheet: str, first: int, totals: list[float], lang: str) -> Any:
    count = len(totals)
    chart = workbook.add_chart({"type": "bar"})
    chart.add_series(
        {
            "name": TEXT["chart_top"](lang),
            "categories": [sheet, first, 1, first + count - 1, 1],
            "values": [sheet, first, 2, first + count - 1, 2],
            "fill": {"color": "#2F5597"},
            "data_labels": {"value": True, "num_format": "0.00"},
        }
    )
    chart.set_title({"name": TEXT["chart_top"](lang)})
    chart.set_legend({"none": True})
    # Bars run top-down in standings order, as a judge reads the table.
    chart.set_y_axis({"reverse": True})
    # Bars start at zero, or an automatic axis would exaggerate small differences.
    chart.set_x_axis({"num_format": "0.0", **({"min": 0} if min(totals) >= 0 else {})})
    return chart


def charts_sheet(workbook: Any, fmt: Formats, rating: Rating, lang: str) -> None:
    """Native charts fed by value cells on the same sheet (never by formulas)."""
    name = SHEETS["charts"](lang)
    ws = workbook.add_worksheet(name)
    row = write_top(ws, fmt, rating, lang, name)
    wins_first = row + 1
    row = write_table(ws, fmt, row, _wins_table(fmt, rating, lang), autofilter=False) + 1
    top_first = row + 1
    top = _top_table(fmt, rating, lang)
    totals = top[2].cells
    row = write_table(ws, fmt, row, top, autofilter=False)
    ws.set_column(0, 0, 22)
    ws.insert_chart(
        1, 4, _wins_chart(workbook, name, wins_first, lang), {"x_scale": 1.2, "y_scale": 1.0}
    )
    height = max(1.0, len(totals) / 9)
    if totals:
        ws.insert_chart(
            17,
            4,
            _top_chart(workbook, name, top_first, totals, lang),
            {"x_scale": 1.2, "y_scale": height},
        )
    # the standings over time start on a page of their own, below both charts
    below = max(row, 17 + int(15 * height) + 1) + 1
    more = over_time_block(workbook, ws, fmt, rating, lang, below, name) > below
    page_setup(ws, rating, lang, landscape=True, header_row=None, fit_height=1)
    if more:  # the block starts a page of its own: a fixed scale keeps that break
        ws.set_print_scale(print_scale(below))
