"""Findings: what a check found, where, and how to fix it — as data, in RU and EN.

Every finding code is defined once with :func:`define` (severity and three message
templates, each a :class:`~mafia_sheets.text.Text`); checks create :class:`Finding`
records that carry the code, the sheet and cell and neutral template parameters (text
as typed, a phase ordinal, a phrase in both languages). Text is rendered only when
shown, in the language asked for, by :meth:`Finding.message` and its siblings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from .text import Text, cell_text
from .vocab import game_name, phase_name

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Template:
    """One finding code: its severity and what was found, what was expected, how to fix it."""

    code: str
    severity: Severity
    found: Text
    expected: Text
    fix: Text

    def part(self, index: int) -> Text:
        return (self.found, self.expected, self.fix)[index]

    def text(self, lang: str) -> tuple[str, str, str]:
        """(found, expected, fix) in one language, placeholders unfilled."""
        return self.found(lang), self.expected(lang), self.fix(lang)


CATALOG: dict[str, Template] = {}


def define(code: str, severity: Severity, found: Text, expected: Text, fix: Text) -> str:
    """Register a finding code; returns the code so modules can keep it as a constant."""
    if code in CATALOG:
        raise ValueError(f"finding code {code} defined twice")
    CATALOG[code] = Template(code, severity, found, expected, fix)
    return code


@dataclass(frozen=True)
class Phase:
    """A phase as a finding parameter: shown as Н2 in Russian and N2 in English."""

    ordinal: int


@dataclass(frozen=True)
class Phases:
    """Several phases as one parameter: `Н2, Д3, Н3`."""

    ordinals: tuple[int, ...]


# What a finding parameter may hold: plain text (a value as typed, a number, a seat list),
# a phrase in both languages, or a phase; each is rendered for the language shown.
Param = str | Text | Phase | Phases


def render_param(value: Param, lang: str) -> str:
    if isinstance(value, Text):
        return value(lang)
    if isinstance(value, Phase):
        return phase_name(value.ordinal, lang)
    if isinstance(value, Phases):
        return ", ".join(phase_name(ordinal, lang) for ordinal in value.ordinals)
    return value


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:  # a template never crashes on a missing field
        return "…"


@dataclass(frozen=True)
class Finding:
    """One problem at one place: `Протокол!D14`. `row` keeps the sort order of the sheet."""

    code: str
    sheet: str
    cell: str = ""
    value: str = ""
    game: str | None = None
    row: int = 0
    params: tuple[tuple[str, Param], ...] = field(default=())
    source: str = ""  # the file, when several files are rated as one season
    # the other places of one problem found in several cells (a misspelt value typed in
    # every row), as (sheet, cell): the finding stands at the first, the copy marks them all
    also: tuple[tuple[str, str], ...] = ()

    @property
    def places(self) -> tuple[tuple[str, str], ...]:
        """Every (sheet, cell) of the finding, its own first."""
        return ((self.sheet, self.cell), *self.also) if self.cell else self.also

    @property
    def severity(self) -> Severity:
        return CATALOG[self.code].severity

    @property
    def where(self) -> str:
        return f"{self.sheet}!{self.cell}" if self.cell else self.sheet

    def _render(self, part: int, lang: str) -> str:
        params = _Params((key, render_param(value, lang)) for key, value in self.params)
        params.setdefault("value", self.value)
        params.setdefault("game", game_name(self.game, lang) if self.game else "")
        params.setdefault("sheet", self.sheet)
        params.setdefault("cell", self.cell)
        return CATALOG[self.code].part(part)(lang).format_map(params)

    def message(self, lang: str = "ru") -> str:
        return self._render(0, lang)

    def expected(self, lang: str = "ru") -> str:
        return self._render(1, lang)

    def hint(self, lang: str = "ru") -> str:
        return self._render(2, lang)

    def record(self, lang: str = "ru") -> dict[str, object]:
        """The JSON record of SPEC §6."""
        return {
            "file": self.source or None,
            "code": self.code,
            "severity": self.severity,
            "sheet": self.sheet,
            "cell": self.cell,
            "game": game_name(self.game, lang) if self.game is not None else None,
            "value": self.value,
            "message": self.message(lang),
            "expected": self.expected(lang),
            "hint": self.hint(lang),
        }


def finding(
    code: str,
    sheet: str,
    cell: str = "",
    value: object = "",
    *,
    game: object = None,
    row: int = 0,
    source: str = "",
    also: Iterable[tuple[str, str]] = (),
    **params: object,
) -> Finding:
    """Build a finding; every parameter is kept as text so records stay hashable."""
    return Finding(
        source=source,
        also=tuple(also),
        code=code,
        sheet=sheet,
        cell=cell,
        value=cell_text(value),
        game=None if game is None else str(game),
        row=row,
        params=tuple(sorted((k, _param(v)) for k, v in params.items())),
    )


def _param(value: object) -> Param:
    return value if isinstance(value, Text | Phase | Phases) else cell_text(value)


def sort_findings(findings: Iterable[Finding], sheet_order: dict[str, int]) -> list[Finding]:
    """Sheet by sheet in workbook order, then by row; errors before warnings at one place.
    Findings alike in all of that (the notes of several absent columns, all at the header)
    keep the order they were made in: each is kept once, at its first place, not through a
    set, whose order would change from run to run with the strings' hashes."""
    return sorted(
        dict.fromkeys(findings),
        key=lambda f: (
            f.source,
            sheet_order.get(f.sheet, 99),
            f.row,
            f.cell,
            f.severity != "error",
            f.code,
        ),
    )


def count(findings: Iterable[Finding]) -> tuple[int, int]:
    """(errors, warnings)."""
    errors = warnings = 0
    for f in findings:
        if f.severity == "error":
            errors += 1
        else:
            warnings += 1
    return errors, warnings
