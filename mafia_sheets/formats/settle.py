"""The judge's numbers and titles of imported games, settled against the scoring edition
the protocol will carry.

A reader keeps each seat's numbers (summed, as the sources sum them) and titles as the
source wrote them; which of them «Доп» can hold depends on the edition: a number only
where the edition takes numeric extras within its limits (or the bare 1 and 0.5 every
edition reads as awards), the worst move only where there is an auto-bonus to withhold,
a title only where it earns something — and a «Доп» cell holds one of them. What cannot be
placed is listed, with the reason.
"""

from __future__ import annotations

from fractions import Fraction

from ..checks.extras import allowed
from ..rules import RuleSet
from ..text import Text
from ..vocab import TEAM_OF_ROLE
from .base import Imported, Lost, SeatData, shown_number

# the source's title → the «Доп» mark and the point value that pays it
TITLES = {
    "worstMove": ("worst_move", "auto_bonus"),
    "bestMove": ("best_move_title", "best_move_title"),
    "bestPlayer": ("bp", "bp"),
}
_BARE = (Fraction(1), Fraction(1, 2))  # read as awards by every edition (SPEC §2.4)


def settle(imported: Imported, rules: RuleSet) -> None:
    """Keep in «Доп» what `rules` can count; list the rest."""
    name = rules.edition.name
    refused = Text(
        f"правила «{name.ru}» не допускают доп. баллы числом",
        f"the rules “{name.en}” allow no numeric extras",
    )
    for game in imported.games:
        for seat in game.seats:
            value = seat.bonus
            if isinstance(value, Fraction) and not _numeric(rules, value):
                seat.bonus = None
                imported.lost.append(Lost(Text("бонус", "bonus"), value, why=refused))
    given: set[tuple[int, str]] = set()
    for game, index, title in imported.titles:
        seat = game.seats[index]
        mark, key = TITLES[title]
        why = _refusal(rules, seat, game.result, mark, key)
        if why is None and (id(game), mark) in given and mark != "worst_move":
            why = Text("второй такой титул в игре", "a second such title in the game")
        if why is None:
            seat.bonus = mark
            given.add((id(game), mark))
        else:
            kind = Text(f"титул «{title}»", f"title “{title}”")
            imported.lost.append(Lost(kind, why=why))


def _numeric(rules: RuleSet, value: Fraction) -> bool:
    return value in _BARE or (rules.extras_numeric and allowed(rules, value))


def _refusal(
    rules: RuleSet, seat: SeatData, result: str | None, mark: str, key: str
) -> Text | None:
    """Why a title cannot go into «Доп» under `rules` (None: it can)."""
    name = rules.edition.name
    if rules.points.get(key, Fraction(0)) == 0:
        return Text(
            f"по правилам «{name.ru}» он не даёт баллов", f"under “{name.en}” it earns nothing"
        )
    if seat.bonus is not None:
        ru, en = (
            (seat.bonus, seat.bonus)
            if isinstance(seat.bonus, str)
            else (shown_number(seat.bonus, "ru"), shown_number(seat.bonus, "en"))
        )
        return Text(f"в «Доп» уже {ru}", f"«Bonus» already holds {en}")
    team = TEAM_OF_ROLE.get(seat.role or "civilian")
    if mark == "bp" and not rules.bp_any_team and team != result:
        return Text(
            "ЛИ по этим правилам дают только победителям",
            "these rules give BP to winners only",
        )
    return None
