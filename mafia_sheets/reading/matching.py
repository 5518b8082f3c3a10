"""How a typed header or value is matched to the schema: folding, aliases, near misses.

One place for every layout reader (the seat-row sheets, a sheet per game, a row per game):
a header cell is folded (:func:`mafia_sheets.vocab.fold_key`, then without spaces), tried as a
whole, without its bracketed part and part by part (`Лучший ход (ЛХ)`, `Игрок / Player`),
and looked up among the column names and aliases of :mod:`.columns`. The canonical name
ranks before every alias, an earlier alias before a later one, so when two headers could
be one column the better-named wins. Near misses are only *suggested*, never applied.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .. import vocab
from ..text import LANGS
from .columns import SCHEMA

_BRACKETS = re.compile(r"[(\[{]([^)\]}]*)[)\]}]")
_PARTS = re.compile(r"\s*[/|\\]\s*")

# Headers of a running row counter: read as such, never as a column
COUNTER_HEADERS = ("№ п/п", "п/п", "пп", "№пп", "row", "row no", "n/n", "строка")
# Headers of a comment column: shown in the header map, never counted
NOTE_HEADERS = (
    "Пояснение",
    "Explanation",
    "Примечание",
    "Примечания",
    "Комментарий",
    "Комментарии",
    "Comment",
    "Comments",
    "Note",
    "Notes",
    "Remarks",
)


@dataclass(frozen=True)
class Match:
    """A header read as a column: its code and rank (0 = canonical name, then aliases)."""

    code: str
    rank: int

    @property
    def canonical(self) -> bool:
        return self.rank == 0


def header_key(text: object) -> str:
    """The lookup key of a header: folded, without spaces (`Доп. баллы` = `Доп.баллы`)."""
    return vocab.fold_key(text).replace(" ", "")


def header_keys(text: object) -> list[str]:
    """Every reading of a header cell, the whole first: `'Лучший ход (ЛХ)'` →
    `['лучшийходлх', 'лучшийход', 'лх']`; `'Игрок / Player'` → `[…, 'игрок', 'рlауеr']`."""
    raw = str(text)
    keys = [header_key(raw)]
    outside = _BRACKETS.sub(" ", raw)
    keys.append(header_key(outside))
    keys += [header_key(inner) for inner in _BRACKETS.findall(raw)]
    if len(_PARTS.split(outside.strip())) > 1:
        keys += [header_key(part) for part in _PARTS.split(outside.strip())]
    seen: list[str] = []
    for key in keys:
        if key and key not in seen:
            seen.append(key)
    return seen


@cache
def header_table(sheet: str) -> dict[str, Match]:
    """Header key → column of one sheet; a key of two columns keeps its better rank."""
    table: dict[str, Match] = {}
    for code, column in SCHEMA[sheet].items():
        names = [column.name(lang) for lang in LANGS] + list(column.aliases)
        for index, name in enumerate(names):
            rank = 0 if index < len(LANGS) else index - len(LANGS) + 1
            key = header_key(name)
            if key not in table or rank < table[key].rank:
                table[key] = Match(code, rank)
    return table


def match_header(sheet: str, text: object) -> Match | None:
    """The column a header cell names, or None: the whole text is tried before its parts."""
    if not isinstance(text, str) or not text.strip():
        return None
    table = header_table(sheet)
    for key in header_keys(text):
        if key in table:
            return table[key]
    return None


def is_counter_header(text: object) -> bool:
    return isinstance(text, str) and header_key(text) in {header_key(h) for h in COUNTER_HEADERS}


def is_note_header(text: object) -> bool:
    return isinstance(text, str) and header_key(text) in {header_key(h) for h in NOTE_HEADERS}


def closest_column(sheet: str, text: object) -> str | None:
    """The code of the known column whose name or alias is nearest to `text`, or None when
    none is near enough to suggest (a short header needs a closer match: `ЛИ` is not
    `Роли`, nor `Дата` `Карта`).

    >>> closest_column("seats", "Игрк"), closest_column("seats", "ЛИ")
    ('player', None)
    """
    key = header_key(text)
    table = header_table(sheet)
    best = max(
        table,
        key=lambda known: (difflib.SequenceMatcher(None, key, known).ratio(), -table[known].rank),
    )
    ratio = difflib.SequenceMatcher(None, key, best).ratio()
    if ratio < (0.8 if len(key) <= 4 else 0.6):
        return None
    return table[best].code


def is_running_count(values: Sequence[object], minimum: int = 2) -> bool:
    """1, 2, 3 … n down the sheet (blank rows skipped), n ≥ `minimum`: a row counter."""
    numbers = [v for v in values if v not in ("", None)]
    if len(numbers) < minimum:
        return False
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers):
        return False
    floats = [float(v) for v in numbers]  # type: ignore[arg-type]
    ints = [int(v) for v in floats]
    return (
        floats == ints and ints == list(range(ints[0], ints[0] + len(ints))) and ints[0] in (0, 1)
    )


def closest_value(vocab_name: str, text: object) -> str | None:
    """The canonical code whose spelling is nearest to a misspelt value, or None when no
    spelling is close enough to be worth suggesting (`Мирнй` → civilian)."""
    table = vocab.value_lookup(vocab_name)
    key = vocab.fold_key(text)
    near = difflib.get_close_matches(key, list(table), n=1, cutoff=0.6)
    return table[near[0]] if near else None
