"""The rule set: point values, options and tie-break order as data.

The bundled `rules/fiim.toml` holds the regulation's values; a tournament's «Турнир»
sheet overrides any of them (SPEC §2.1). Values are kept as exact fractions.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from importlib import resources
from typing import Any

from .errors import RulesFileError
from .text import Text

POINT_KEYS = ("win", "disqualification", "best_move_3", "best_move_2", "bp", "bp2", "bpl")
OPTION_KEYS = ("apply_k", "draws_in_n", "geo_rule_7", "win_when_disqualified")  # yes / no
# Special situation 9: how many quiet phases from a night end a game as a draw; 0 = off.
QUIET_KEY = "draw_quiet_phases"
QUIET_WINDOWS = (5, 6)
TIEBREAK_KEYS = ("total", "additional", "wins", "wins_don_sheriff", "killed_first_night", "lot")


@dataclass(frozen=True)
class RuleSet:
    """Point values (exact), rule options and the tie-break order of one tournament."""

    points: dict[str, Fraction]
    apply_k: bool = True
    draws_in_n: bool = True
    geo_rule_7: bool = True
    win_when_disqualified: bool = True  # 8.2.1 with 8.2.4: a disqualified winner keeps them
    draw_quiet_phases: int = 5  # special situation 9 (SPEC §5.3); 0 = not applied
    tiebreak: tuple[str, ...] = TIEBREAK_KEYS
    protest_deadline_minutes: int = 10
    overridden: tuple[str, ...] = field(default=())

    def with_overrides(self, overrides: dict[str, Any]) -> RuleSet:
        """A copy with the tournament's settings applied (points as Fractions, flags as bool,
        the quiet window as an int)."""
        points = dict(self.points)
        flags: dict[str, Any] = {}
        for key, value in overrides.items():
            if key in POINT_KEYS:
                points[key] = Fraction(value)
            elif key in OPTION_KEYS:
                flags[key] = bool(value)
            elif key == QUIET_KEY:
                flags[key] = int(value)
        return replace(self, points=points, overridden=tuple(sorted(overrides)), **flags)

    @property
    def award_points(self) -> dict[str, Fraction]:
        return {key: self.points[key] for key in ("bp", "bp2", "bpl")}


RULES_FILE = "rules/fiim.toml"


def load_rules() -> RuleSet:
    """The bundled FIIM rule set; a broken file raises RulesFileError naming the key."""
    text = resources.files("mafia_sheets").joinpath(RULES_FILE).read_text("utf-8")
    try:
        return _rule_set(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise _broken(f"not TOML ({error})") from error
    except KeyError as error:
        raise _broken(f"no key {error.args[0]!r}") from error
    except (ValueError, TypeError) as error:
        raise _broken(str(error)) from error


def _broken(why: str) -> RulesFileError:
    return RulesFileError(
        Text(
            f"{RULES_FILE} в установке повреждён: {why}. Переустановите mafia-sheets.",
            f"{RULES_FILE} of this installation is broken: {why}. Reinstall mafia-sheets.",
        )
    )


def _rule_set(data: dict[str, Any]) -> RuleSet:
    points = {key: Fraction(data["points"][key]) for key in POINT_KEYS}
    order = tuple(data["tiebreak"]["order"])
    unknown = set(order) - set(TIEBREAK_KEYS)
    if unknown or order[0] != "total":
        raise ValueError(f"tiebreak.order is {list(order)}, not a tie-break order")
    return RuleSet(
        points=points,
        tiebreak=order,
        protest_deadline_minutes=int(data["protests"]["deadline_minutes"]),
        apply_k=bool(data["options"]["apply_k"]),
        draws_in_n=bool(data["options"]["draws_in_n"]),
        geo_rule_7=bool(data["options"]["geo_rule_7"]),
        win_when_disqualified=bool(data["options"]["win_when_disqualified"]),
        draw_quiet_phases=_quiet_window(data["options"][QUIET_KEY]),
    )


def _quiet_window(value: object) -> int:
    if value is False or value == 0:
        return 0
    if value not in QUIET_WINDOWS:
        raise ValueError(f"options.{QUIET_KEY} is {value!r}, not 5, 6 or false")
    return int(value)
