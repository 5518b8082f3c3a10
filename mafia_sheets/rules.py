"""The rule set: every point value, option and tie-break of one scoring edition, as data.

Editions ship as TOML files beside `rules/fiim.toml` (this regulation, the default), one
file per edition, each naming the public source its values were read from. A tournament
picks one with the «Правила» setting and overrides any of its values from the «Турнир»
sheet (SPEC §2.1). Point values are exact fractions; the rating stage reads values only,
never an edition's name.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from . import vocab
from .errors import RulesFileError
from .text import Text

ROLES = ("civilian", "sheriff", "mafia", "don")

# Point values every edition states (exact fractions), in the order they are echoed.
POINT_KEYS = ("win", "disqualification", "best_move_3", "best_move_2", "bp", "bp2", "bpl")
EDITION_POINT_KEYS = (
    "best_move_1",
    "best_move_title",
    "auto_bonus",
    "fouled_out",
    "team_removal",
    "gave_up",
    *(f"loss_{role}" for role in ROLES),
    *(f"draw_{role}" for role in ROLES),
    "ci_share",
    "ci_cap",
)
ALL_POINT_KEYS = (*POINT_KEYS, *EDITION_POINT_KEYS)
# Penalties: numbers ≤ 0 counted as additional points, by how the player left (SPEC §2.4).
PENALTY_OF_LEFT = {
    "disqualified": "disqualification",
    "fouled": "fouled_out",
    "team_removal": "team_removal",
    "gave_up": "gave_up",
}
PENALTY_KEYS = tuple(PENALTY_OF_LEFT.values())
ROLE_WIN_KEYS = tuple(f"win_{role}" for role in ROLES)  # unset: «Баллы за победу»
OPTION_KEYS = ("apply_k", "draws_in_n", "geo_rule_7", "win_when_disqualified")  # yes / no
FLAG_KEYS = vocab.FLAG_SETTINGS  # every yes/no setting: the four above and the editions' own
# Special situation 9: how many quiet phases from a night end a game as a draw; 0 = off.
QUIET_KEY = "draw_quiet_phases"
QUIET_WINDOWS = (5, 6)
# Settings whose value is a word of a vocabulary of :data:`vocab.VALUES` (its code kept).
CHOICE_KEYS = ("best_move_team", "extras_in_draw", "ci_when", "ci_round", "shared_places")
# Limits of numeric extras: a number, or None for no limit.
LIMIT_KEYS = ("extras_min", "extras_max", "extras_step", "extras_least", "extras_sum")
COUNT_KEYS = ("extras_players", "ci_from")  # whole numbers; extras_players None = no limit
NUMBERS_KEYS = ("extras_also",)  # a list of numbers

# The criteria a tie-break order may name, with the rating site's letter for each.
CRITERIA = (
    "additional",
    "main",
    "extras",
    "penalties",
    "best_move",
    "ci",
    "wins",
    "wins_don_sheriff",
    "killed_first_night",
    "killed_first_night_red",
    "games",
)
# The rating site's sorting letters (`include/scoring.php`, SCORING_SORTING_*): brackets
# sum their letters, `k` counts first-night deaths of red players only (as its query does).
LETTERS = {
    "m": "main",
    "e": "extras",
    "p": "penalties",
    "g": "best_move",
    "n": "ci",
    "w": "wins",
    "s": "wins_don_sheriff",
    "k": "killed_first_night_red",
}
TIEBREAK_KEYS = ("total", "additional", "wins", "wins_don_sheriff", "killed_first_night", "lot")
GROUP = "+"  # criteria summed into one: `extras+penalties+best_move` is the site's `(epg)`

# Every rule setting's key, in the order the summary and `rules` show them.
RULE_KEYS = (
    "edition",
    "win",
    *ROLE_WIN_KEYS,
    *(f"loss_{role}" for role in ROLES),
    *(f"draw_{role}" for role in ROLES),
    "apply_k",
    "draws_in_n",
    "k_draws_black",
    "win_when_disqualified",
    "disqualification",
    "fouled_out",
    "team_removal",
    "gave_up",
    "best_move_3",
    "best_move_2",
    "best_move_1",
    "best_move_team",
    "bp",
    "bp2",
    "bpl",
    "bp_any_team",
    "best_move_title",
    "auto_bonus",
    "extras_numeric",
    *LIMIT_KEYS[:4],
    "extras_also",
    "extras_sum",
    "extras_players",
    "extras_in_draw",
    "ci_when",
    "ci_share",
    "ci_cap",
    "ci_from",
    "ci_round",
    "tiebreak",
    "shared_places",
    "geo_rule_7",
    QUIET_KEY,
    "protest_deadline_minutes",
)


@dataclass(frozen=True)
class Edition:
    """Which edition a rule set is, and where its values were read from."""

    code: str
    name: Text
    aliases: tuple[str, ...] = ()
    source: str = ""  # the public repository
    files: str = ""  # the files in it that define the values
    commit: str = ""
    about: Text = field(default_factory=lambda: Text("", ""))


@dataclass(frozen=True)
class RuleSet:
    """Point values (exact), rule options and the tie-break order of one tournament.

    `points` holds every value of :data:`ALL_POINT_KEYS`; `role_win` the win points of
    the roles an edition pays apart (any other role wins `points["win"]`); limits that
    are None do not apply. `overridden` lists the keys the tournament's sheet set.
    """

    points: dict[str, Fraction]
    apply_k: bool = True
    draws_in_n: bool = True
    geo_rule_7: bool = True
    win_when_disqualified: bool = True  # 8.2.1 with 8.2.4: a disqualified winner keeps them
    draw_quiet_phases: int = 5  # special situation 9 (SPEC §5.3); 0 = not applied
    tiebreak: tuple[str, ...] = TIEBREAK_KEYS
    protest_deadline_minutes: int = 10
    overridden: tuple[str, ...] = field(default=())
    edition: Edition = Edition("regulation", Text("Регламент", "Regulation"))
    role_win: dict[str, Fraction] = field(default_factory=dict)
    k_draws_black: bool = False  # K of the red win share: draws count as black's
    bp_any_team: bool = False  # ЛИ to a player of either team, in a draw too
    best_move_team: str = "red"  # "red" | "any"
    extras_numeric: bool = False
    extras_min: Fraction | None = None
    extras_max: Fraction | None = None
    extras_step: Fraction | None = None
    extras_least: Fraction | None = None
    extras_also: tuple[Fraction, ...] = ()
    extras_sum: Fraction | None = None
    extras_players: int | None = None
    extras_in_draw: str = "no"  # "no" | "negative" | "any"
    ci_when: str = "no"  # "no" | "lost" | "half_red_win" | "half_black_win"
    ci_from: int = 1
    ci_round: str = "exact"  # "exact" | "hundredths"
    shared_places: str = "no"  # "no" | "yes" | "dense"

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleSet:
        """A copy with the tournament's settings applied (typed by :func:`typed`)."""
        points = dict(self.points)
        role_win = dict(self.role_win)
        fields: dict[str, Any] = {}
        for key, value in overrides.items():
            if key in ALL_POINT_KEYS:
                points[key] = Fraction(value)
            elif key in ROLE_WIN_KEYS:
                role_win[key.removeprefix("win_")] = Fraction(value)
            elif key in _FIELDS:
                fields[key] = typed(key, value)
        return replace(
            self, points=points, role_win=role_win, overridden=tuple(sorted(overrides)), **fields
        )

    def win_of(self, role: str) -> Fraction:
        """Win points of a role: its own value where the edition has one."""
        return self.role_win.get(role, self.points["win"])

    @property
    def award_points(self) -> dict[str, Fraction]:
        return {key: self.points[key] for key in ("bp", "bp2", "bpl")}

    @property
    def pays_ci(self) -> bool:
        return self.ci_when != "no"

    def value(self, key: str) -> object:
        """The value in force of one rule setting (as :data:`RULE_KEYS` names them)."""
        if key == "edition":
            return self.edition.code
        if key in ALL_POINT_KEYS:
            return self.points[key]
        if key in ROLE_WIN_KEYS:
            return self.win_of(key.removeprefix("win_"))
        return getattr(self, key)

    def values(self) -> dict[str, object]:
        """Every rule setting's value in force, in :data:`RULE_KEYS` order."""
        return {key: self.value(key) for key in RULE_KEYS}


_FIELDS = {f.name for f in dataclasses.fields(RuleSet)} - {"points", "role_win", "overridden"}


NO_LIMIT = "none"  # «нет» typed for a limit: none applies (a blank keeps the edition's)


def typed(key: str, value: Any) -> Any:
    """A setting's value as the rule set keeps it (flags bool, counts int, numbers
    Fraction, lists tuples, :data:`NO_LIMIT` None)."""
    if value == NO_LIMIT:
        return None
    if key in FLAG_KEYS:
        return bool(value)
    if key in (QUIET_KEY, "protest_deadline_minutes", "ci_from"):
        return int(value)
    if key == "extras_players":
        return None if value is None else int(value)
    if key in LIMIT_KEYS:
        return None if value is None else Fraction(value)
    if key in NUMBERS_KEYS:
        return tuple(Fraction(v) for v in value)
    if key == "tiebreak":
        return tuple(value)
    return value


# ---- presets -------------------------------------------------------------------------------

RULES_DIR = "rules"
RULES_FILE = "rules/fiim.toml"  # this regulation: the default edition
DEFAULT_EDITION = "regulation"


def load_rules(edition: str | None = None) -> RuleSet:
    """The rule set of a bundled edition (this regulation by default); a broken file
    raises RulesFileError naming the file and the key."""
    return presets()[edition or DEFAULT_EDITION]


def presets() -> dict[str, RuleSet]:
    """Every bundled edition by its code, the regulation first."""
    return dict(_presets())


@cache
def _presets() -> dict[str, RuleSet]:
    """The preset files, parsed once a process (a season of many files asks often)."""
    folder = resources.files("mafia_sheets").joinpath(RULES_DIR)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml"))
    names.sort(key=lambda name: name != "fiim.toml")
    loaded = [_load(f"{RULES_DIR}/{name}") for name in names]
    return {rules.edition.code: rules for rules in loaded}


def find_edition(name: object) -> RuleSet | None:
    """The edition a judge named: its code, either language's name or an alias, folded
    (a hyphen reads as a space: `mr-fiim-7`, `MR FIIM 7`)."""
    wanted = _edition_key(name)
    for rules in presets().values():
        edition = rules.edition
        spellings = (edition.code, edition.name.ru, edition.name.en, *edition.aliases)
        if wanted in {_edition_key(s) for s in spellings}:
            return rules
    return None


def _edition_key(name: object) -> str:
    return " ".join(vocab.fold(name).replace("-", " ").split())


def _load(path: str) -> RuleSet:
    text = resources.files("mafia_sheets").joinpath(path).read_text("utf-8")
    try:
        return _rule_set(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise _broken(path, f"not TOML ({error})") from error
    except KeyError as error:
        raise _broken(path, f"no key {error.args[0]!r}") from error
    except (ValueError, TypeError, ZeroDivisionError) as error:
        raise _broken(path, str(error)) from error


def _broken(path: str, why: str) -> RulesFileError:
    return RulesFileError(
        Text(
            f"{path} в установке повреждён: {why}. Переустановите mafia-sheets.",
            f"{path} of this installation is broken: {why}. Reinstall mafia-sheets.",
        )
    )


def _rule_set(data: dict[str, Any]) -> RuleSet:
    """One preset file's tables → a rule set; every value must be stated."""
    points_table, options, extras, ci = (
        data["points"],
        data["options"],
        data["extras"],
        data["ci"],
    )
    points = {key: Fraction(points_table[key]) for key in ALL_POINT_KEYS}
    for key in PENALTY_KEYS:
        if points[key] > 0:
            raise ValueError(f"points.{key} is {points[key]}, a penalty must be ≤ 0")
    role_win = {
        role: Fraction(points_table[f"win_{role}"])
        for role in ROLES
        if f"win_{role}" in points_table
    }
    values: dict[str, Any] = {
        key: _flag(options, key) for key in (*OPTION_KEYS, "k_draws_black", "bp_any_team")
    }
    values.update({key: _limit(extras[key.removeprefix("extras_")]) for key in LIMIT_KEYS})
    return RuleSet(
        points=points,
        role_win=role_win,
        edition=_edition(data["edition"]),
        tiebreak=_order(data["tiebreak"]["order"]),
        shared_places=_choice("shared_places", data["tiebreak"]["shared_places"]),
        protest_deadline_minutes=int(data["protests"]["deadline_minutes"]),
        draw_quiet_phases=_quiet_window(options[QUIET_KEY]),
        best_move_team=_choice("best_move_team", options["best_move_team"]),
        extras_numeric=_flag(extras, "numeric"),
        extras_in_draw=_choice("extras_in_draw", extras["in_draw"]),
        extras_also=tuple(Fraction(v) for v in extras["also"]),
        extras_players=_optional_int(extras["players"]),
        ci_when=_choice("ci_when", ci["when"]),
        ci_from=int(ci["from_games"]),
        ci_round=_choice("ci_round", ci["round"]),
        **values,
    )


def _order(value: object) -> tuple[str, ...]:
    try:
        if isinstance(value, str):
            return parse_order(value)
    except OrderError:
        pass
    raise ValueError(f"tiebreak.order is {value!r}, not a tie-break order")


def _edition(table: dict[str, Any]) -> Edition:
    return Edition(
        code=str(table["code"]),
        name=Text(str(table["name_ru"]), str(table["name_en"])),
        aliases=tuple(str(a) for a in table["aliases"]),
        source=str(table["source"]),
        files=str(table["files"]),
        commit=str(table["commit"]),
        about=Text(str(table["about_ru"]), str(table["about_en"])),
    )


def _flag(table: dict[str, Any], key: str) -> bool:
    value = table[key]
    if not isinstance(value, bool):
        raise ValueError(f"{key} is {value!r}, not true or false")
    return value


def _choice(vocab_name: str, value: object) -> str:
    if value not in vocab.VALUES[vocab_name]:
        raise ValueError(f"{vocab_name} is {value!r}, not one of {list(vocab.VALUES[vocab_name])}")
    return str(value)


def _limit(value: object) -> Fraction | None:
    """A limit of numeric extras: a number as text, or false for none."""
    return None if value is False else Fraction(str(value))


def _optional_int(value: object) -> int | None:
    if value is False:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{value!r} is not a whole number ≥ 1 or false")
    return value


def _quiet_window(value: object) -> int:
    if value is False or value == 0:
        return 0
    if value not in QUIET_WINDOWS:
        raise ValueError(f"options.{QUIET_KEY} is {value!r}, not 5, 6 or false")
    return int(value)


# ---- the tie-break order -------------------------------------------------------------------


class OrderError(ValueError):
    """A tie-break order that names no known criterion; the message says which part."""


def parse_order(text: str) -> tuple[str, ...]:
    """A tie-break order in the rating site's letters or by names → criteria in order.

    The total always comes first and the lot last; brackets (or `+` between names) sum
    their criteria into one. The rating site's default:

    >>> parse_order("(epg)wsk")  # doctest: +NORMALIZE_WHITESPACE
    ('total', 'extras+penalties+best_move', 'wins', 'wins_don_sheriff',
     'killed_first_night_red', 'lot')
    >>> parse_order("доп. баллы, победы, победы доном/шерифом, смерти в 1-ю ночь")
    ('total', 'additional', 'wins', 'wins_don_sheriff', 'killed_first_night', 'lot')
    >>> parse_order("")
    ('total', 'lot')
    """
    compact = "".join(text.split()).lower()
    criteria = _letters(compact) if compact and set(compact) <= {*LETTERS, "(", ")"} else None
    if criteria is None:
        criteria = _names(text)
    for criterion in criteria:
        if criteria.count(criterion) > 1:
            raise OrderError(f"«{criterion}» twice")
    return ("total", *criteria, "lot")


def _letters(text: str) -> list[str]:
    out: list[str] = []
    group: list[str] | None = None
    for char in text:
        if char == "(":
            if group is not None:
                raise OrderError("a bracket inside a bracket")
            group = []
        elif char == ")":
            if not group:
                raise OrderError("a closing bracket without its group")
            out.append(GROUP.join(group))
            group = None
        elif group is not None:
            group.append(LETTERS[char])
        else:
            out.append(LETTERS[char])
    if group is not None:
        raise OrderError("a bracket left open")
    return out


def _names(text: str) -> list[str]:
    lookup = vocab.value_lookup("criterion")
    out: list[str] = []
    for item in (p for p in _items(text) if p.strip()):
        parts = [part for part in item.split(GROUP) if part.strip()]
        codes = []
        for part in parts:
            code = lookup.get(vocab.fold(part), lookup.get(vocab.fold_key(part)))
            if code is None:
                raise OrderError(f"«{part.strip()}»")
            if code in ("total", "lot"):
                continue  # always first and last: naming them changes nothing
            codes.append(code)
        if codes:
            out.append(GROUP.join(codes))
    return out


def _items(text: str) -> list[str]:
    """`a, b; c → d` → its items: commas, semicolons, arrows and line breaks separate."""
    for separator in (";", "→", ">", "\n"):
        text = text.replace(separator, ",")
    return text.split(",")


def order_parts(criterion: str) -> tuple[str, ...]:
    """The criteria a tie-break item sums: `extras+penalties` → ('extras', 'penalties')."""
    return tuple(criterion.split(GROUP))
