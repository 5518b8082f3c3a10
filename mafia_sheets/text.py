"""Text: the words the product shows, and user text kept as text on every output.

Every piece of user-facing text — an error line, a finding's message, a column header, a
label on the page — is a :class:`Text`, always Russian first, English second. Values
stay neutral (codes, numbers, phase ordinals) until they are shown.

User text (a nickname, a tournament name, a file name) may hold control characters (an
ESC that repaints the judge's terminal, a NUL that XML cannot carry) or invisible ones (a
zero-width space that splits one player in two). Nothing is dropped silently: what cannot
be shown is shown as its escape, `\\x1b`, the way Python writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LANGS = ("ru", "en")


@dataclass(frozen=True)
class Text:
    """One phrase in both languages: `Text("Итоги", "Standings")("en")` → `'Standings'`."""

    ru: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    def format(self, **params: object) -> Text:
        """The phrase with its `{fields}` filled in, in both languages."""
        return Text(self.ru.format(**params), self.en.format(**params))

    def both(self) -> str:
        """`Игроки / Players`: for places where either language may be read."""
        return self.ru if self.ru == self.en else f"{self.ru} / {self.en}"


@dataclass(frozen=True)
class Plural:
    """A counted noun: `Plural(("игра", "игры", "игр"), ("game", "games"))(5, "ru")` → `5 игр`.

    Russian has three forms (1 игра, 2 игры, 5 игр; 11–14 take the third), English two.
    """

    ru: tuple[str, str, str]
    en: tuple[str, str]

    def __call__(self, count: int, lang: str) -> str:
        return f"{count} {self.word(count, lang)}"

    def word(self, count: int, lang: str) -> str:
        if lang == "en":
            return self.en[0 if count == 1 else 1]
        if count % 10 == 1 and count % 100 != 11:
            return self.ru[0]
        if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
            return self.ru[1]
        return self.ru[2]


def name_order(name: object) -> tuple[str, str]:
    """A sort key for names shown in order, by Russian collation: case-insensitive, «ё»
    with «е» (`Ёж` between `Енот` and `Жук`), the name itself last so the order is total.

    >>> sorted(["жук", "Ёж", "енот", "Ель"], key=name_order)
    ['Ёж', 'Ель', 'енот', 'жук']
    """
    text = str(name)
    return text.casefold().replace("ё", "е"), text


def cell_text(value: object) -> str:
    """A cell value as the judge typed it: Excel stores the nickname `12` as the float 12.0."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---- user text on every output ------------------------------------------------------------

# Excel's cell limit, in UTF-16 code units: longer text is cut by every writer.
MAX_CELL_TEXT = 32_767

# For a terminal: every C0/C1 control (newline and tab too: a finding is one line), DEL,
# the line/paragraph separators, the bidirectional overrides (they reorder what follows)
# and lone surrogates (undecodable bytes of a file name).
_TERMINAL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# For XML 1.0 (xlsx): what it cannot carry, plus DEL and C1, which Excel shows as boxes.
_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_INVISIBLE_RANGES = (
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical formatting
    (0xE0001, 0xE0001),  # language tag
    (0xE0020, 0xE007F),  # tag characters
    (0xE0100, 0xE01EF),  # variation selectors (supplement)
)
# Characters that show as nothing: zero-width spaces and joiners, direction marks, the
# word joiner and invisible operators, the BOM, the soft hyphen, fillers, the blank Braille
# pattern, variation selectors, tag characters and their kin.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u206a\u206b\u206c"
    "\u206d\u206e\u206f\u2800\u3164\ufe00\ufe01\ufe02\ufe03\ufe04\ufe05\ufe06"
    "\ufe07\ufe08\ufe09\ufe0a\ufe0b\ufe0c\ufe0d\ufe0e\ufe0f\ufeff\uffa0"
    + "".join(chr(code) for first, last in _INVISIBLE_RANGES for code in range(first, last + 1))
)
DROP_INVISIBLE = dict.fromkeys(map(ord, INVISIBLE))  # a str.translate table


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str, lines: bool = False) -> str:
    """`'Кот\\x1b[31m'` → `'Кот\\\\x1b[31m'`: safe to print, always one line.

    With `lines`, the text's own line breaks are kept (a report of several lines), and
    every line is made safe."""
    if lines:
        return "\n".join(_TERMINAL.sub(_escape, line) for line in text.split("\n"))
    return _TERMINAL.sub(_escape, text)


def cell(text: str) -> str:
    """Text an xlsx cell, comment or property can hold, with the unholdable escaped."""
    return _XML.sub(_escape, text)


def without_invisible(text: str) -> str:
    """The text as it looks: `'Ко\\u200bт'` → `'Кот'`."""
    return text.translate(DROP_INVISIBLE)


def utf16_length(text: str) -> int:
    """Length as Excel counts it (a character past U+FFFF is two)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
