"""The standings and each player's points per game as one CSV table (`rate --export csv`).

The shape clubs publish (place, nickname, the totals and tie-break columns, then one
column per game with the player's points in it), written so that a double click opens it
in Excel: UTF-8 with a byte-order mark, `;` between fields and a decimal comma in Russian
(what Russian Excel expects), `,` and a decimal point in English; numbers rounded as the
standings show them (2 places, half up, no trailing zeros: 2,8 · 0,25 · 3).

A text that a spreadsheet would take for a formula (`=…`, `+…`, `-…`, `@…`) starts with
an apostrophe, so that a nickname stays a nickname.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from ..model import Rating, Standing
from ..report.labels import STANDINGS_COLUMNS, decided_text
from ..report.phrases import decimal_text
from ..text import cell
from ..vocab import game_name

SEPARATORS = {"ru": ";", "en": ","}
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_POINTS = ("total", "win_points", "additional", "best_move", "awards", "penalties")
_COUNTS = ("games", "wins", "wins_don_sheriff", "killed_first_night")


def standings_csv(rating: Rating, lang: str = "ru") -> bytes:
    """The CSV bytes: one row per player in standings order (removed players last)."""
    games = [
        g
        for g, annulled in zip(rating.games["game"], rating.games["annulled"], strict=True)
        if not annulled
    ]
    by_player = _points_by_player(rating)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=SEPARATORS[lang], lineterminator="\r\n")
    ci = rating.rules.pays_ci  # its column only where the edition pays it
    writer.writerow(
        [
            *(STANDINGS_COLUMNS[c](lang) for c in STANDINGS_COLUMNS if ci or c != "ci"),
            *(_text(game_name(g, lang)) for g in games),
        ]
    )
    for row in (*rating.standings, *rating.removed):
        points = by_player.get(row.player, {})
        writer.writerow(
            [
                *_standing(row, lang, ci),
                *(_number(points[g], lang) if g in points else "" for g in games),
            ]
        )
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def _points_by_player(rating: Rating) -> dict[str, dict[object, Fraction]]:
    """Each player's total in each game, exact (points are kept in units)."""
    scale = rating.points_scale
    out: dict[str, dict[object, Fraction]] = {}
    frame = rating.points
    for player, game, units in zip(frame["player"], frame["game"], frame["total_u"], strict=True):
        out.setdefault(str(player), {})[game] = Fraction(int(units), scale)
    return out


def _standing(row: Standing, lang: str, ci: bool = False) -> list[str]:
    place = "" if row.removed else row.place_range
    values = [place, _text(row.player)]
    values += [_number(getattr(row, name), lang) for name in (*_POINTS, *(["ci"] if ci else []))]
    values += [str(getattr(row, name)) for name in _COUNTS]
    values.append("" if row.removed else decided_text(row.decided_by, lang))
    return values


def _number(value: Fraction, lang: str) -> str:
    return decimal_text(value, 2, lang)[0]


def _text(text: str) -> str:
    """User text as text: control characters escaped, a formula-like start disarmed."""
    shown = cell(text)
    return "'" + shown if shown.startswith(_FORMULA_STARTS) else shown
