"""SPEC §5.4: nicknames that differ only by case, spacing, «ё/е» or Latin/Cyrillic
look-alike letters — most likely one person split into two rating rows.

When no roster decides, that is an error (`name-split`): the standings would print two
identical-looking rows for one person. A roster that lists exactly one of the spellings
names the one meant (a warning beside its `not-in-roster` error); a roster that lists
both says they are two people, and nothing is reported.

Runs over every file of a season at once: a player typed `Кот` in March and `Kот` (a
Latin K) in April is one player. Each less common spelling gets one finding, at the first
cell where it appears, naming the spelling it most likely means: the one in a roster when
exactly one variant is listed there, else the most frequent one (the earlier on a tie).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..findings import Finding, define, finding
from ..model import Protocol, Table
from ..text import DROP_INVISIBLE, Text, without_invisible
from . import cross_check

LOOK_ALIKE = define(
    "name-look-alike",
    "warning",
    Text(
        "Ник «{value}» отличается от «{other}» только {how}",
        "Nickname “{value}” differs from “{other}” only by {how}",
    ),
    Text(
        "одно написание ника у одного игрока («{other}» — строк: {count})",
        "one spelling per player (“{other}”: {count} rows)",
    ),
    Text(
        "Если это один игрок, исправьте «{value}» на «{other}» во всех файлах; если разные — "
        "сделайте ники заметно разными",
        "If it is one player, change “{value}” to “{other}” in every file; if two players, "
        "make their nicknames clearly different",
    ),
)

NAME_SPLIT = define(
    "name-split",
    "error",
    Text(
        "В итогах это два игрока: ник «{value}» отличается от «{other}» только {how}",
        "The standings would show two players: nickname “{value}” differs from "
        "“{other}” only by {how}",
    ),
    Text(
        "одно написание ника у одного игрока («{other}» — строк: {count})",
        "one spelling per player (“{other}”: {count} rows)",
    ),
    Text(
        "Если это один игрок, исправьте «{value}» на «{other}» во всех файлах; если разные — "
        "перечислите оба ника на листе «Игроки» или сделайте их заметно разными",
        "If it is one player, change “{value}” to “{other}” in every file; if two players, "
        "list both nicknames on the Players sheet or make them clearly different",
    ),
)

# Latin letters that look like Cyrillic ones (in either case, so that a Latin `k` meets a
# Cyrillic `К` once case is folded too), mapped to the Cyrillic letter.
LATIN_LOOK_ALIKES = "ABCEHKMOPTXYabcehkmoptxy"
HOMOGLYPHS = str.maketrans(LATIN_LOOK_ALIKES, "АВСЕНКМОРТХУавсенкмортху")


def _case(text: str) -> str:
    return text.lower()


def _spacing(text: str) -> str:
    return "".join(text.split())


def _yo(text: str) -> str:
    return text.replace("ё", "е").replace("Ё", "Е")


def _latin(text: str) -> str:
    return text.translate(HOMOGLYPHS)


def _invisible(text: str) -> str:
    return without_invisible(text)


# Order matters only for the wording: each folding is applied to both names in turn.
FOLDINGS: tuple[tuple[str, str, str, Callable[[str], str]], ...] = (
    ("case", "регистром букв", "letter case", _case),
    ("spacing", "пробелами", "spacing", _spacing),
    ("yo", "буквами «ё/е»", "«ё/е»", _yo),
    ("latin", "латинскими буквами вместо русских", "Latin letters in place of Cyrillic", _latin),
    ("invisible", "невидимыми символами", "invisible characters", _invisible),
)
LATIN, HIDDEN = 3, 4  # the indexes of the Latin and invisible foldings in FOLDINGS


def name_key(name: str) -> str:
    """`'Kот'` (Latin K), `' кот'`, `'КОТ'` → `'кот'`: one key per look-alike family."""
    return _latin(_yo(_spacing(_case(_invisible(name)))))


def differences(variant: str, other: str) -> list[int]:
    """Which foldings the two names need to meet: a folding is needed when applying all
    the others still leaves them apart."""
    needed = []
    for index in range(len(FOLDINGS)):
        fold_a, fold_b = variant, other
        for position, (*_, function) in enumerate(FOLDINGS):
            if position != index:
                fold_a, fold_b = function(fold_a), function(fold_b)
        if fold_a != fold_b:
            needed.append(index)
    return needed


@dataclass(frozen=True)
class Place:
    """Where a spelling first appears."""

    table: Table
    row: int
    game: object


@cross_check(LOOK_ALIKE, NAME_SPLIT)
def look_alike_names(protocols: Sequence[Protocol]) -> Iterator[Finding]:
    counts: Counter[str] = Counter()
    first: dict[str, Place] = {}
    rosters: list[set[str]] = []  # each file's own: one roster listing two spellings decides
    for protocol in protocols:
        seats = protocol.table("seats")
        if seats is not None:
            _gather(seats, counts, first)
        roster = protocol.table("players")
        if roster is not None:
            rosters.append(set(roster.frame["player"].dropna()))
            _gather(roster, Counter(), first, only_new=True)
    families: dict[str, list[str]] = {}
    for name in first:  # dict order: the order of first appearance
        families.setdefault(name_key(name), []).append(name)
    for family in families.values():
        if len(family) > 1:
            yield from _family(family, counts, first, rosters)


def _gather(
    table: Table, counts: Counter[str], first: dict[str, Place], only_new: bool = False
) -> None:
    # the named rows of the three columns read, not of the whole sheet
    frame = table.frame
    named = frame["player"].notna().to_numpy()
    players = frame["player"][named]
    if not only_new:
        counts.update({str(p): int(n) for p, n in players.value_counts().items()})
    new = ~players.duplicated(keep="first").to_numpy()  # what drop_duplicates keeps
    at = np.flatnonzero(named)[new]
    games = frame["game"].to_numpy(dtype=object)[at] if "game" in frame else [None] * len(at)
    for name, row, game in zip(players[new], frame["_row"].to_numpy()[at], games, strict=True):
        if name not in first:
            first[name] = Place(table, int(row), game)


def _family(
    family: list[str], counts: Counter[str], first: dict[str, Place], rosters: list[set[str]]
) -> Iterator[Finding]:
    if any(len(roster.intersection(family)) > 1 for roster in rosters):
        return  # one roster lists two of the spellings: two people
    in_roster = [name for name in family if any(name in roster for roster in rosters)]
    if len(in_roster) == 1:
        main, code = in_roster[0], LOOK_ALIKE
    else:
        main = max(family, key=lambda name: (counts[name], -family.index(name)))
        code = NAME_SPLIT
    for variant in family:
        if variant == main:
            continue
        place = first[variant]
        needed = differences(variant, main)
        letters = _letters(needed, variant, main)
        sheet, cell, row = place.table.locate("player", place.row)
        yield finding(
            code,
            sheet,
            cell,
            variant,
            game=place.game,
            row=row,
            source=place.table.source,
            other=main,
            count=counts[main],
            how=Text(
                _joined([FOLDINGS[i][1] for i in needed], "и") + letters,
                _joined([FOLDINGS[i][2] for i in needed], "and") + letters,
            ),
        )


def _joined(parts: list[str], conjunction: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]


def _letters(needed: list[int], variant: str, main: str) -> str:
    """The characters themselves where the difference is hardest to see: the Latin
    letters, and the invisible ones by their code (`U+200B`), which no quote can show."""
    both = set(variant) | set(main)
    shown = sorted(both & set(LATIN_LOOK_ALIKES)) if LATIN in needed else []
    if HIDDEN in needed:
        shown += [f"U+{ord(c):04X}" for c in sorted(c for c in both if ord(c) in DROP_INVISIBLE)]
    return f": {', '.join(shown)}" if shown else ""
