"""The JSON of SPEC §6 (`rate --json`, `check --json`): fixed English keys, 4 decimals."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from ..model import Outcome, Rating, Reading, Standing
from ..rules import OPTION_KEYS, POINT_KEYS, QUIET_KEY, RuleSet
from .headers import header_record


def rounded(value: Fraction, places: int = 4) -> float:
    """Round an exact value half up for display: 2.80005 → 2.8001 (never binary-first)."""
    quantum = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(quantum, rounding=ROUND_HALF_UP))


def findings_json(outcome: Outcome, lang: str = "ru") -> dict[str, Any]:
    """`check --json`: counts, how each file was read and every finding record."""
    return {
        "errors": outcome.errors,
        "warnings": outcome.warnings,
        "read": reading_json(outcome.reading, lang),
        "findings": [f.record(lang) for f in outcome.findings],
        "headers": [header_record(read, lang) for read in outcome.headers],
    }


def reading_json(reading: tuple[Reading, ...], lang: str = "ru") -> list[dict[str, Any]]:
    """One record a file: `{"file", "layout": rows|blank|wide|mixed, "games", "unplayed",
    "sheets": [{"sheet", "layout"}], "text"}` — the layout detected, stated."""
    from ..reading.layouts import reading_text

    return [{"file": r.source, "layout": r.layout, "games": r.games, "unplayed": r.unplayed,
             "sheets": [{"sheet": name, "layout": kind} for name, kind in r.sheets],
             "text": reading_text(r, lang)} for r in reading]


def outcome_json(outcome: Outcome, lang: str = "ru") -> dict[str, Any]:
    """`rate --json` when there is a rating; the findings with `"standings": null` when not."""
    if outcome.rating is None:
        return {**findings_json(outcome, lang), "standings": None}
    return rating_json(outcome.rating, lang)


def rating_json(rating: Rating, lang: str = "ru") -> dict[str, Any]:
    k = rating.k
    return {
        "tournament": {"name": rating.tournament.name},
        "provisional": rating.provisional,
        "lot_needed": rating.lot.needed,
        "k": {"applied": k.applied, "value": rounded(k.value), "heavy_side": k.heavy_side,
              "games": k.games, "heavy_games": k.heavy_games},
        "settings": settings_json(rating.rules),
        "read": reading_json(rating.reading, lang),
        "standings": [_standing(s) for s in rating.standings],
        "removed": [s.player for s in rating.removed],
        "findings": [f.record(lang) for f in rating.findings],
        "headers": [header_record(read, lang) for read in rating.headers],
    }


def settings_json(rules: RuleSet) -> dict[str, Any]:
    """Every rule option in force: point values, yes/no options, the situation-9 window
    (5, 6 or null when off), the tie-break order and the protest deadline."""
    settings: dict[str, Any] = {key: rounded(rules.points[key]) for key in POINT_KEYS}
    settings.update({key: bool(getattr(rules, key)) for key in OPTION_KEYS})
    settings[QUIET_KEY] = rules.draw_quiet_phases or None
    settings["tiebreak"] = list(rules.tiebreak)
    settings["protest_deadline_minutes"] = rules.protest_deadline_minutes
    return settings


def _standing(row: Standing) -> dict[str, Any]:
    return {
        "place": row.place,
        "place_range": row.place_range,
        "player": row.player,
        "total": rounded(row.total),
        "win_points": rounded(row.win_points),
        "additional": rounded(row.additional),
        "best_move": rounded(row.best_move),
        "awards": rounded(row.awards),
        "penalties": rounded(row.penalties),
        "games": row.games,
        "wins": row.wins,
        "wins_don_sheriff": row.wins_don_sheriff,
        "killed_first_night": row.killed_first_night,
        "decided_by": row.decided_by,
    }
