"""The JSON of SPEC §6 (`rate --json`, `check --json`): fixed English keys, 4 decimals."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..reading.layouts import reading_text
from ..reading.summary import game_read_json
from ..vocab import phase_name

if TYPE_CHECKING:
    import pandas as pd

from ..model import Outcome, Rating, Reading, Standing, Stats
from ..rules import OPTION_KEYS, POINT_KEYS, QUIET_KEY, RULE_KEYS, RuleSet
from .headers import header_record
from .phrases import half_up, title


def rounded(value: Fraction, places: int = 4) -> float:
    """Round an exact value half up for display: 2.80005 → 2.8001 (never binary-first)."""
    return float(half_up(value, places))


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
    "sheets": [{"sheet", "layout"}], "text", "per_game": [what each game sheet gave]}` — the
    layout detected, stated."""
    return [
        {
            "file": r.source,
            "layout": r.layout,
            "games": r.games,
            "unplayed": r.unplayed,
            "sheets": [{"sheet": name, "layout": kind} for name, kind in r.sheets],
            "text": reading_text(r, lang),
            "per_game": [
                game_read_json(g, dict(r.sheets).get(g.sheet, r.layout), lang) for g in r.games_read
            ],
        }
        for r in reading
    ]


def outcome_json(outcome: Outcome, lang: str = "ru") -> dict[str, Any]:
    """`rate --json` when there is a rating; the findings with `"standings": null` when not."""
    if outcome.rating is None:
        return {**findings_json(outcome, lang), "standings": None}
    return rating_json(outcome.rating, lang)


def rating_json(rating: Rating, lang: str = "ru") -> dict[str, Any]:
    k = rating.k
    return {
        "tournament": {"name": title(rating.tournament, lang)},
        "provisional": rating.provisional,
        "lot_needed": rating.lot.needed,
        "k": {
            "applied": k.applied,
            "value": rounded(k.value),
            "heavy_side": k.heavy_side,
            "games": k.games,
            "heavy_games": k.heavy_games,
        },
        "settings": settings_json(rating.rules),
        "read": reading_json(rating.reading, lang),
        "standings": [_standing(s, rating.rules.pays_ci) for s in rating.standings],
        "removed": [s.player for s in rating.removed],
        "merged": [{"player": p, "spellings": list(names)} for p, names in rating.merged],
        "findings": [f.record(lang) for f in rating.findings],
        **({"stats": stats_json(rating.stats)} if rating.stats is not None else {}),
        "headers": [header_record(read, lang) for read in rating.headers],
    }


def settings_json(rules: RuleSet) -> dict[str, Any]:
    """Every rule value in force: the edition (its code, and where its values come from),
    point values (numbers), yes/no options, the situation-9 window (5, 6 or null when
    off), words as their codes, limits (null: none), the tie-break order and the protest
    deadline."""
    settings: dict[str, Any] = {key: rounded(rules.points[key]) for key in POINT_KEYS}
    settings.update({key: bool(getattr(rules, key)) for key in OPTION_KEYS})
    settings[QUIET_KEY] = rules.draw_quiet_phases or None
    settings["tiebreak"] = list(rules.tiebreak)
    settings["protest_deadline_minutes"] = rules.protest_deadline_minutes
    for key in RULE_KEYS:
        settings.setdefault(key, _setting(rules.value(key)))
    edition = rules.edition
    settings["edition_source"] = {
        "repository": edition.source,
        "files": edition.files,
        "commit": edition.commit,
    }
    return settings


def _setting(value: object) -> Any:
    if isinstance(value, Fraction):
        return rounded(value)
    if isinstance(value, tuple):
        return [_setting(v) for v in value]
    return value


def _standing(row: Standing, ci: bool = False) -> dict[str, Any]:
    """One standings record; `ci` (first-killed compensation) where the edition pays it."""
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
        **({"ci": rounded(row.ci)} if ci else {}),
    }


# ---- statistics (SPEC §6 sheets 7–9) ---------------------------------------------------


def stats_json(stats: Stats) -> dict[str, Any]:
    """`stats`: per player, the tournament's own figures and (several rounds or files)
    head to head. Counts are integers; points are rounded to 4 decimals like the
    standings."""
    frame = stats.players
    columns = {name: frame[name].tolist() for name in frame.columns}
    players = [_player_stats(stats, columns, i) for i in range(len(frame))]
    out: dict[str, Any] = {"players": players, "tournament": _tournament_stats(stats)}
    if stats.pairs is not None:
        names = columns["player"]
        pairs = stats.pairs
        out["pairs"] = [
            {
                "players": [names[a], names[b]],
                "games": games,
                "together": together,
                "together_wins": together_wins,
                "against": against,
                "a_won": a_won,
                "b_won": b_won,
            }
            for a, b, games, together, together_wins, against, a_won, b_won in zip(
                *(
                    pairs[c].tolist()
                    for c in (
                        "a",
                        "b",
                        "games",
                        "together",
                        "together_wins",
                        "against",
                        "a_won",
                        "b_won",
                    )
                ),
                strict=True,
            )
        ]
        out["pairs_total"] = stats.pairs_total
    return out


def _player_stats(stats: Stats, c: dict[str, list[Any]], i: int) -> dict[str, Any]:
    def points(column: str) -> float:
        return rounded(stats.points(c[column][i]))

    return {
        "player": c["player"][i],
        "games": c["games"][i],
        "wins": c["wins"][i],
        "by_team": {
            team: {"games": c[f"{team}_games"][i], "wins": c[f"{team}_wins"][i]}
            for team in ("red", "black")
        },
        "by_role": {
            role: {
                "games": c[f"{role}_games"][i],
                "wins": c[f"{role}_wins"][i],
                "additional": points(f"{role}_additional_u"),
            }
            for role in ("civilian", "sheriff", "mafia", "don")
        },
        "killed_first_night": c["killed_first_night"][i],
        "best_moves": {
            "made": c["best_moves"][i],
            "three": c["best_moves_three"][i],
            "two": c["best_moves_two"][i],
            "fewer": c["best_moves"][i] - c["best_moves_three"][i] - c["best_moves_two"][i],
            "points": points("best_move_u"),
        },
        "fouls": c["fouls"][i],
        "fouled_out": c["fouled_out"][i],
        "disqualified": c["disqualified"][i],
        "awards": {code: c[code][i] for code in ("bp", "bp2", "bpl")},
        "additional": points("additional_u"),
    }


def _by_label(frame: Any, key: str) -> list[dict[str, Any]]:
    return [
        {key: label, "games": games, "red_wins": red, "black_wins": black, "draws": draw}
        for label, games, red, black, draw in zip(
            *(frame[c].tolist() for c in ("label", "games", "red", "black", "draw")), strict=True
        )
    ]


def _tournament_stats(stats: Stats) -> dict[str, Any]:
    seats = stats.by_seat
    return {
        "games": stats.games,
        "red_wins": stats.red_wins,
        "black_wins": stats.black_wins,
        "draws": stats.draws,
        "by_seat": {
            str(seat): {"games": games, "wins": wins}
            for seat, games, wins in zip(
                seats["seat"].tolist(), seats["games"].tolist(), seats["wins"].tolist(), strict=True
            )
        },
        "by_table": _by_label(stats.by_table, "table"),
        "by_round": _by_label(stats.by_round, "round"),
        "ended": [
            {**row, "phase": _phase(row["phase"])} for row in _by_label(stats.ended, "phase")
        ],
    }


def _phase(ordinal: int) -> str | None:
    """The phase of a game's last departure as `D3` / `N2`; None when nobody left."""

    return phase_name(int(ordinal), "en") if ordinal else None


def cards_json(rating: Rating) -> dict[str, list[list[Any]]]:
    """Each player's games for the page's player card: `[round, table, seat, role,
    outcome ("win" | "loss" | "draw"), win_points, best_move, awards, penalty, total]`,
    in the points sheet's order (standings, then game)."""
    points = rating.points
    games = rating.games.drop_duplicates("game").set_index("game")
    rounds = points["game"].map(games["round"]).astype(object)
    tables = points["game"].map(games["table"]).astype(object)
    outcome = [
        "win" if w else "draw" if r == "draw" else "loss"
        for w, r in zip(points["win"].tolist(), points["result"].tolist(), strict=True)
    ]
    cards: dict[str, list[list[Any]]] = {}
    columns = zip(
        points["player"].tolist(),
        rounds.where(rounds.notna(), None).tolist(),
        tables.where(tables.notna(), None).tolist(),
        points["seat"].tolist(),
        points["role"].tolist(),
        outcome,
        *(
            _shown(points, c, rating.points_scale)
            for c in ("win_points", "best_move", "awards", "penalty", "total")
        ),
        strict=True,
    )
    for player, *row in columns:
        cards.setdefault(str(player), []).append(
            [None if v is None else v.item() if hasattr(v, "item") else v for v in row]
        )
    return cards


def _shown(points: pd.DataFrame, code: str, scale: int) -> list[float]:
    """A points column as JSON numbers (4 decimals): exact units shown as points."""
    units = points[f"{code}_u"]
    shown = {u: rounded(Fraction(int(u), scale)) for u in units.unique().tolist()}
    return units.map(shown).tolist()
