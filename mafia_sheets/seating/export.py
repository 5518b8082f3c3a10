"""A schedule and its figures as plain data: what `seat --json` prints.

Keys are fixed English words whatever the language; only the restriction reasons are
text, in the language asked for::

    {"rounds": [{"round": 1, "tables": [{"table": 1, "players": [ten nicknames]}],
                 "out": [who sits out]}],
     "figures": {"games": {…}, "restrictions": {…}, "pairs": {…}, "seats": {…},
                 "seat_groups": {"1-3": {…}, "4-7": {…}, "8-10": {…}}}}
"""

from __future__ import annotations

from typing import Any

from ..text import Text
from .figures import Figures, Spread
from .model import GROUP_NAMES, Schedule

BREAK_KINDS = ("apart", "together", "judging")
JUDGING = Text("судит в этом туре", "judges this round")


def schedule_json(
    schedule: Schedule, figures: Figures, lang: str = "ru", seed: int | None = None
) -> dict[str, Any]:
    names = schedule.names
    rounds = [
        {
            "round": r + 1,
            "tables": [
                {"table": number, "players": [names[p] for p in table]}
                for number, table in zip(schedule.table_numbers[r], tables, strict=True)
            ],
            "out": [names[p] for p in schedule.out(r)],
        }
        for r, tables in enumerate(schedule.rounds)
    ]
    return {"rounds": rounds, "figures": figures_json(schedule, figures, lang, seed)}


def figures_json(
    schedule: Schedule, figures: Figures, lang: str = "ru", seed: int | None = None
) -> dict[str, Any]:
    names = schedule.names
    return {
        "players": len(names),
        "rounds": len(schedule.rounds),
        "games_total": sum(len(tables) for tables in schedule.rounds),
        "seed": seed,
        "games": {
            **_spread(figures.games),
            "rested_twice": figures.rested_twice,
            "rested_twice_bound": figures.rested_bound,
            "per_player": [
                {"player": name, "games": games}
                for name, games in zip(names, figures.per_player_games, strict=True)
            ],
        },
        "restrictions": {
            "apart_pairs": figures.apart_pairs,
            "together_pairs": figures.together_pairs,
            "judges": figures.judges,
            "broken": len(figures.breaks),
            "bound": figures.breaks_bound,
            "breaks": [
                {
                    "kind": found.kind,
                    "players": [names[p] for p in found.players],
                    "round": found.round + 1,
                    "table": found.table,
                    "reason": (found.reason or JUDGING)(lang),
                }
                for found in figures.breaks
            ],
        },
        "pairs": {
            **_spread(figures.pairs),
            "average": round(figures.average, 4),
            "never_met": figures.never_met,
            "never_met_bound": figures.never_met_bound,
            "histogram": {str(n): count for n, count in enumerate(figures.histogram)},
        },
        "seats": {
            "max_on_one_seat": figures.seat_max,
            "bound": figures.seat_bound,
            "spread": figures.seat_spread,
        },
        "seat_groups": {
            name: _spread(group) for name, group in zip(GROUP_NAMES, figures.groups, strict=True)
        },
    }


def _spread(spread: Spread) -> dict[str, Any]:
    return {
        "min": spread.low,
        "max": spread.high,
        "spread": spread.spread,
        "bound": spread.bound,
    }
