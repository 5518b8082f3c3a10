"""Numeric extras against the edition's limits, and «Доп» marks that earn nothing (SPEC §2.4).

An edition that allows numbers in «Доп» may bound each value (minimum, maximum, step, the
least magnitude, further single values), the positive sum of one game, the number of
players with extras in one game, and what a draw allows. Every value out of its limits
is an error at its cell; a mark the chosen rules pay nothing for is said, not dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction

import numpy as np
import pandas as pd

from ..findings import Finding, define, finding
from ..model import Table
from ..reading.parse import where_text
from ..reading.settings import shown_value
from ..rules import RuleSet
from ..text import Text
from . import check
from .game import AWARDS
from .gate import Context, at_rows

# Whatever an edition's limits: no edition pays an extra past these, and the exact
# arithmetic's common unit stays small (1e20 or 1.2345678901234567e-10 is a slip).
EXTRA_LARGEST = 100
EXTRA_FINEST = Fraction(1, 1000)

EXTRA_OUT_OF_LIMITS = define(
    "extra-out-of-limits",
    "error",
    Text("Доп «{value}» вне пределов правил", "Extra “{value}” is outside the rules' limits"),
    Text("доп числом: {allowed}", "numeric extras: {allowed}"),
    Text(
        "Исправьте доп по бланку — или пределы «Доп: …» на листе «Турнир»",
        "Fix the extra from the paper form — or the “Extras: …” limits on the Tournament sheet",
    ),
)
EXTRAS_SUM = define(
    "extras-sum-exceeded",
    "error",
    Text(
        "Положительные допы игры {game} в сумме {total} — больше {limit}",
        "The positive extras of game {game} add up to {total}, more than {limit}",
    ),
    Text(
        "положительных допов за игру не больше {limit} («Доп: сумма за игру»)",
        "positive extras at most {limit} a game (“Extras: sum per game”)",
    ),
    Text(
        "Сверьте допы игры с бланком и уменьшите их",
        "Check the game's extras against the paper form and lower them",
    ),
)
EXTRAS_PLAYERS = define(
    "extras-too-many-players",
    "error",
    Text("Допы у {count} игроков игры {game}", "Extras for {count} players of game {game}"),
    Text(
        "не больше {limit} игроков с допом за игру («Доп: игроков за игру»)",
        "at most {limit} players with extras a game (“Extras: players per game”)",
    ),
    Text(
        "Оставьте допы тем игрокам, которым их дал судья",
        "Keep the extras of the players the judge gave them to",
    ),
)
EXTRA_IN_DRAW = define(
    "extra-in-draw",
    "error",
    Text("Доп «{value}» в ничейной игре", "Extra “{value}” in a drawn game"),
    Text("в ничьей {allowed} («Доп в ничьей»)", "in a draw {allowed} (“Extras in a draw”)"),
    Text(
        "Удалите доп или исправьте результат игры",
        "Delete the extra or fix the game's result",
    ),
)
WORTH_NOTHING = define(
    "bonus-worth-nothing",
    "warning",
    Text(
        "«{value}» по правилам «{edition}» не даёт баллов{where}",
        "“{value}” earns no points under the rules “{edition}”{where}",
    ),
    Text("{what}", "{what}"),
    Text(
        "Если правила выбраны верно, ничего не делайте; иначе выберите «Правила» или "
        "задайте значение на листе «Турнир»",
        "If the rules are the right ones, do nothing; else choose the Rules or set the "
        "value on the Tournament sheet",
    ),
)

_IN_DRAW = {
    "no": Text("допов нет", "no extras"),
    "negative": Text("только отрицательные допы", "negative extras only"),
}
# «Доп» marks and the point value (or the rule) that pays them.
_MARK_VALUES = {
    "bp": "bp",
    "bp2": "bp2",
    "bpl": "bpl",
    "best_move_title": "best_move_title",
    "worst_move": "auto_bonus",
}
_WHAT = {
    "bp": Text("ЛИ по этим правилам: 0", "BP under these rules: 0"),
    "bp2": Text("ЛИ2 по этим правилам: 0", "BP2 under these rules: 0"),
    "bpl": Text("ЛИП по этим правилам: 0", "BPL under these rules: 0"),
    "best_move_title": Text(
        "«Лучший ход судьи» по этим правилам: 0", "“Judge's best move” under these rules: 0"
    ),
    "worst_move": Text(
        "«Худший ход» снимает автодопы, а их в этих правилах нет",
        "“Worst move” withholds the auto-bonus, and these rules have none",
    ),
}


@check(EXTRA_OUT_OF_LIMITS, EXTRAS_SUM, EXTRAS_PLAYERS, EXTRA_IN_DRAW)
def numeric_extras(context: Context) -> Iterator[Finding]:
    """Each numeric extra within the edition's limits; the sum and the number of players
    with extras in one game; what a draw allows."""
    gate = context.regulated
    rules = context.protocol.rules
    if gate is None or "extra" not in gate.seats:
        return
    seats = gate.seats
    numeric = seats[seats["extra"].notna()]
    if not numeric.empty:
        bad = numeric[_mask(not allowed(rules, Fraction(v)) for v in numeric["extra"])]
        yield from at_rows(gate.table, EXTRA_OUT_OF_LIMITS, "bonus", bad, allowed=limits(rules))
        yield from _in_draw(gate.table, numeric, rules)
        yield from _sums(gate.table, numeric, rules)
    yield from _players(gate.table, seats, rules)


def _mask(flags: Iterable[bool]) -> np.ndarray:
    """Row flags as a boolean mask (a plain list would select columns of an empty frame)."""
    return np.fromiter(flags, dtype=bool)


def allowed(rules: RuleSet, value: Fraction) -> bool:
    """Whether an edition's limits allow one numeric extra.

    >>> from mafia_sheets.rules import load_rules
    >>> app = load_rules("app-2026")
    >>> [allowed(app, Fraction(v)) for v in ("0.3", "-0.2", "0.1", "1.1", "-2.1", "0.25")]
    [True, True, False, False, True, False]
    >>> free = load_rules("mr-fiim-7")
    >>> [allowed(free, Fraction(v)) for v in ("2.5", "100", "1e20", "0.0005")]
    [True, True, False, False]
    """
    if abs(value) > EXTRA_LARGEST or (value / EXTRA_FINEST).denominator != 1:
        return False  # no edition pays such a value: a slip of the keyboard, or of Excel
    if value in rules.extras_also:
        return True
    low, high, step, least = (
        rules.extras_min,
        rules.extras_max,
        rules.extras_step,
        rules.extras_least,
    )
    if (low is not None and value < low) or (high is not None and value > high):
        return False
    if step is not None and (value / step).denominator != 1:
        return False
    return least is None or abs(value) >= least


def limits(rules: RuleSet) -> Text:
    """The limits in force, in words: `от −1 до 1, шаг 0,1, по модулю от 0,2; также −1,5`."""
    parts = [
        _filled(words, value)
        for words, value in (
            (Text("от {v}", "from {v}"), rules.extras_min),
            (Text("до {v}", "to {v}"), rules.extras_max),
            (Text("шаг {v}", "step {v}"), rules.extras_step),
            (Text("по модулю от {v}", "at least {v} in magnitude"), rules.extras_least),
            (Text("также {v}", "also {v}"), rules.extras_also or None),
        )
        if value is not None
    ]
    if not parts:
        return Text("любое число до ±100 с точностью до 0,001", "any number up to ±100, to 0.001")
    return Text(", ".join(p.ru for p in parts), ", ".join(p.en for p in parts))


def _filled(words: Text, value: object) -> Text:
    shown = shown_value("", value)
    return Text(words.ru.format(v=shown.ru), words.en.format(v=shown.en))


def _in_draw(table: Table, numeric: pd.DataFrame, rules: RuleSet) -> Iterator[Finding]:
    if rules.extras_in_draw == "any":
        return
    drawn = numeric[numeric["result"].eq("draw")]
    if rules.extras_in_draw == "negative":
        drawn = drawn[_mask(Fraction(v) > 0 for v in drawn["extra"])]
    words = _IN_DRAW[rules.extras_in_draw]
    yield from at_rows(table, EXTRA_IN_DRAW, "bonus", drawn, allowed=words)


def _sums(table: Table, numeric: pd.DataFrame, rules: RuleSet) -> Iterator[Finding]:
    """Every positive extra of a game whose positive extras add up to more than the limit
    (which of them is wrong only the judge knows)."""
    limit = rules.extras_sum
    if limit is None:
        return
    positive = numeric[_mask(Fraction(v) > 0 for v in numeric["extra"])]
    for _game, rows in positive.groupby("game", sort=False):
        total = sum((Fraction(v) for v in rows["extra"]), Fraction(0))
        if total > limit:
            shown = {"total": shown_value("", total), "limit": shown_value("", limit)}
            yield from at_rows(table, EXTRAS_SUM, "bonus", rows, **shown)


def _players(table: Table, seats: pd.DataFrame, rules: RuleSet) -> Iterator[Finding]:
    """Every extra of a game where more players got one than the edition allows."""
    limit = rules.extras_players
    if limit is None:
        return
    paying = seats["extra"].notna() | seats["bonus"].isin([*AWARDS, "best_move_title"])
    given = seats[paying]
    for _game, rows in given.groupby("game", sort=False):
        count = rows["seat"].nunique()
        if count > limit:
            yield from at_rows(
                table, EXTRAS_PLAYERS, "bonus", rows, count=str(count), limit=str(limit)
            )


@check(WORTH_NOTHING)
def marks_worth_nothing(context: Context) -> Iterator[Finding]:
    """A «Доп» mark the chosen rules pay nothing for: read, and said at its cell."""
    gate = context.regulated
    if gate is None:
        return
    rules = context.protocol.rules
    table = gate.table
    for mark, key in _MARK_VALUES.items():
        if rules.points[key] != 0:  # paid: nothing to say, no rows to look at
            continue
        rows = gate.seats[gate.seats["bonus"].eq(mark)]
        if rows.empty:
            continue
        # one finding a mark, at its first cell, marking every one: a tournament's ЛИ
        # under an edition without them would otherwise be dozens of lines
        places = [table.locate("bonus", int(row)) for row in rows["_row"]]
        sheet, cell, row = places[0]
        raw = table.raw.get("bonus", None)
        first = rows.index[0]
        yield finding(
            WORTH_NOTHING,
            sheet,
            cell,
            raw.iat[int(str(first))] if raw is not None else mark,
            row=row,
            source=table.source,
            game=rows.at[first, "game"] if len(places) == 1 else None,
            also=[(s, c) for s, c, _ in places[1:]],
            edition=rules.edition.name,
            what=_WHAT[mark],
            where=where_text([c if s == sheet else f"{s}!{c}" for s, c, _ in places]),
        )
