"""One player, one roster line: nicknames a roster repeats are refused, never merged.

Two lines that spell one nickname alike — or differ only by case, spacing, punctuation,
«ё/е», invisible characters or Latin letters that look Cyrillic (`Kот` with a Latin K) —
are one person typed twice or two people the protocol could not tell apart (SPEC §5.4):
either way the judge decides, so the roster is refused naming the lines. The key folds
what :func:`mafia_sheets.checks.names.name_key` folds and what :func:`..vocab.fold` folds,
without importing the checks (and numpy) into `template` and `seat`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..text import Text
from ..vocab import fold, fold_key

MAX_SHOWN = 5  # repeated nicknames named in the one line; the rest counted


def roster_key(name: str) -> str:
    """`'Kот'` (Latin K), `' кот'`, `'КО Т'`, `'Кот.'` → `'кот'`."""
    return "".join(fold_key(name).split())


def repeated(names: Iterable[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """The families of (line, nickname) sharing one key, in order of first appearance;
    only those of two lines or more."""
    families: dict[str, list[tuple[int, str]]] = {}
    for line, name in names:
        families.setdefault(roster_key(name), []).append((line, name))
    return [family for family in families.values() if len(family) > 1]


def repeats_text(
    what: Text, families: Sequence[list[tuple[int, str]]], unit: tuple[Text, Text]
) -> Text:
    """One line naming each repeated nickname with its lines (`unit`: the word for one
    line and for several): «Файл игроков d.csv: ники повторяются — «Кот» (строка 1) =
    «кот» (строка 2); «Ёж» (строки 3, 4). …»."""
    shown = [_family(family, unit) for family in families[:MAX_SHOWN]]
    rest = len(families) - MAX_SHOWN
    ru = "; ".join(part.ru for part in shown) + (f"; и ещё {rest}" if rest > 0 else "")
    en = "; ".join(part.en for part in shown) + (f"; and {rest} more" if rest > 0 else "")
    return Text(
        f"{what.ru}: ники повторяются — {ru}. Один игрок — одна строка: удалите повтор "
        "или, если это разные игроки, сделайте ники заметно разными.",
        f"{what.en}: repeated nicknames — {en}. One player, one line: delete the repeat "
        "or, if they are different players, make the nicknames clearly different.",
    )


def _family(family: list[tuple[int, str]], units: tuple[Text, Text]) -> Text:
    unit, many = units
    spellings = {name for _, name in family}
    if len(spellings) == 1:  # the very same spelling: name it once, with every line
        lines = ", ".join(str(line) for line, _ in family)
        name = family[0][1]
        return Text(f"«{name}» ({many.ru} {lines})", f"“{name}” ({many.en} {lines})")
    ru = " = ".join(f"«{name}» ({unit.ru} {line})" for line, name in family)
    en = " = ".join(f"“{name}” ({unit.en} {line})" for line, name in family)
    if len({"".join(fold(name).split()) for name in spellings}) > 1:
        # they meet only once Latin letters are read as Cyrillic: name the letters that no
        # quote shows apart
        latin = sorted({c for name in spellings for c in name if c.lower() in _LATIN})
        ru += f" (латинские буквы: {', '.join(latin)})"
        en += f" (Latin letters: {', '.join(latin)})"
    return Text(ru, en)


_LATIN = frozenset("abcehkmoptxy")
