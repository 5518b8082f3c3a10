"""The labels of game sheets and game rows: the one vocabulary of :mod:`.columns`, looked up
as printed forms label their fields.

A game sheet («бланк») or a sheet of one row per game names its fields with the same
words as the row layout's headers — a column's name in either language or any of its
aliases (:data:`.columns.SCHEMA`), or a field only these layouts have
(:data:`.columns.SHEET_FIELDS`). A label is folded as a header is
(:func:`.matching.header_keys`: case, «ё», spacing, punctuation, look-alike letters, the
bracketed part, `Игрок / Player`) and also without `№`, `#` and `*`, so `СТОЛ №:`, `Стол`
and `стол` are one label.
"""

from __future__ import annotations

import re

from .. import vocab
from ..text import Text
from .columns import SCHEMA, SHEET_FIELDS
from .matching import header_key, header_keys

_PUNCT = re.compile(r"[№#:.,()\[\]«»\"'_*]+")
_SYMBOLS = str.maketrans("", "", "№#*")

# The seat grid's columns (and, numbered 1 … 10, the blocks of a game row).
SEAT_COLUMNS = ("seat", "player", "role", "fouls", "left", "when", "best_move", "bonus")
# The game's columns, as header fields of a game sheet or columns of a game row.
GAME_COLUMNS = ("game", "round", "table", "judge", "result", "ended", "annulled", "departures")


# Folded labels by text: a workbook of game sheets repeats the same labels, nicknames and
# roles on every sheet, so each distinct text is folded once. Bounded: cleared when full.
_LABELS: dict[str, str] = {}
_LABELS_MAX = 65_536


def label_of(value: object) -> str:
    """A cell as a label: folded, without №, colons and dots: `'Стол №:'` → `'стол'`."""
    if not isinstance(value, str):
        return ""
    label = _LABELS.get(value)
    if label is None:
        label = " ".join(_PUNCT.sub(" ", vocab.fold(value)).split())
        if len(_LABELS) >= _LABELS_MAX:
            _LABELS.clear()
        _LABELS[value] = label
    return label


def _spellings(field: str, level: str) -> list[str]:
    """Every spelling of a field, canonical names first, in the order they rank."""
    if field in SHEET_FIELDS:
        declared = SHEET_FIELDS[field]
        return [declared.name.ru, declared.name.en, *declared.aliases]
    column = SCHEMA["games"].get(field) or SCHEMA["seats"][field]
    return [column.name.ru, column.name.en, *column.aliases]


class Labels:
    """Folded label → field, for one level of a sheet (`seat` or `game`).

    Built from the declarations once; a spelling that would name two fields of one level
    is a declaration error, raised at import, never a silent choice.
    """

    def __init__(self, level: str, fields: tuple[str, ...], symbols: bool) -> None:
        self.level = level
        self.fields = fields
        self._table: dict[str, str] = {}
        for field in fields:
            for spelling in _spellings(field, level):
                key = header_key(spelling)
                bare = key.translate(_SYMBOLS)
                if not bare and not symbols:
                    continue  # `№` heads a games sheet's ids, never a label on a game sheet
                for k in {key, bare} - {""}:
                    known = self._table.setdefault(k, field)
                    if known != field:
                        raise ValueError(f"label {spelling!r} names both {known} and {field}")
        self._answers: dict[str, str | None] = {}
        self._splits: dict[str, tuple[str, str] | None] = {}

    def __contains__(self, key: str) -> bool:
        return key in self._table

    def spellings(self, field: str) -> list[str]:
        return _spellings(field, self.level)

    def field(self, text: object) -> str | None:
        """The field a whole cell names (`Доп. баллы (ведущий)` → bonus), or None."""
        if not isinstance(text, str) or not text.strip():
            return None
        known = self._answers.get(text, _UNSET)
        if known is not _UNSET:
            return known  # type: ignore[return-value]
        found = None
        for key in header_keys(text):
            for k in (key, key.translate(_SYMBOLS)):
                if k in self._table:
                    found = self._table[k]
                    break
            if found is not None:
                break
        if len(self._answers) >= _LABELS_MAX:
            self._answers.clear()
        self._answers[text] = found
        return found

    def split(self, text: object) -> tuple[str, str] | None:
        """`'Стол № 2'` → ('table', '2'); `'Судья: Иванов'` → ('judge', 'Иванов'); a bare
        label → (field, ''); None when the cell is no label of these fields."""
        if not isinstance(text, str):
            return None
        known = self._splits.get(text, _UNSET)
        if known is not _UNSET:
            return known  # type: ignore[return-value]
        found = self._split(text)
        if len(self._splits) >= _LABELS_MAX:
            self._splits.clear()
        self._splits[text] = found
        return found

    def _split(self, text: str) -> tuple[str, str] | None:
        whole = self.field(text)
        if whole is not None:
            return whole, ""
        words = label_of(text).split()
        for size in range(min(3, len(words) - 1), 0, -1):
            code = self._table.get(header_key(" ".join(words[:size])))
            if code is not None:
                return code, _rest(text, size)
        return None


_UNSET = object()


def _rest(text: str, size: int) -> str:
    """The original text after the first `size` words of its label (case kept)."""
    tokens = [t for t in re.split(r"[\s№#:]+", text.strip()) if t]
    if len(tokens) <= size:
        return ""
    return " ".join(tokens[size:]).strip(" .:-")


_GAME_FIELDS = (
    *GAME_COLUMNS,
    "best_move",
    *(name for name, declared in SHEET_FIELDS.items() if declared.level == "game"),
)
_SEAT_FIELDS = (
    *SEAT_COLUMNS,
    *(name for name, declared in SHEET_FIELDS.items() if declared.level == "seat"),
)

# Labels of a game sheet's header block and footer, and of a game row's own columns.
GAME = Labels("game", _GAME_FIELDS, symbols=False)
# The same, where a bare `№` heads the games' ids (a sheet of one row per game).
GAME_ROW = Labels("game", _GAME_FIELDS, symbols=True)
# Columns of the seat grid, and the blocks of ten of a game row.
SEAT = Labels("seat", _SEAT_FIELDS, symbols=True)


def result_lookup() -> dict[str, str]:
    """Folded result word → red | black | draw, with the label-folding of a game sheet."""
    table = {label_of(spelling): code for spelling, code in vocab.value_lookup("result").items()}
    table.pop("", None)
    return table


RESULT_WORDS = result_lookup()
RESULT_DISPLAY = {
    code: vocab.display_value("result", code, "ru") for code in ("red", "black", "draw")
}


def printed(level: str, field: str, ru: str, en: str) -> Text:
    """A label a template prints: checked to be one of the field's own spellings, so
    that what the product writes is what it reads back."""
    labels = SEAT if level == "seat" else GAME
    for spelling in (ru, en):
        if labels.field(spelling) != field:
            raise ValueError(f"{spelling!r} is not a label of {field}")
    return Text(ru, en)


# A sheet's title (`ПРОТОКОЛ ИГРЫ`, `Бланк гри`) is layout, never data.
_TITLE_WORDS = ("протокол", "protocol", "бланк", "blank", "score sheet", "game sheet", "лист игры")


def is_title(value: object) -> bool:
    """A title a form prints over its fields: it names the form, not a field."""
    label = label_of(value)
    return any(word in label for word in _TITLE_WORDS)
