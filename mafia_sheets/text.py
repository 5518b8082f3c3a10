"""Words the product shows, in Russian and English: one type, rendered in one place.

Every piece of user-facing text — an error line, a finding's message, a column header, a
label on the page — is a :class:`Text`, always Russian first, English second. Values
stay neutral (codes, numbers, phase ordinals) until they are shown.
"""

from __future__ import annotations

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


def cell_text(value: object) -> str:
    """A cell value as the judge typed it: Excel stores the nickname `12` as the float 12.0."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
