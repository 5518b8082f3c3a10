"""A phase written in a cell beside something else: seats (`Н1: 5`, `5 (Д3)`) in a blank's
rows of kills and votes, or the departure itself (`убит Н1`, `заголосован Д2`, a phase
alone) in a «Выбыл» cell with no phase cell of its own — on a game sheet, in a row of
games, or on a sheet of seat rows without «Когда». Every layout reads them here, alike,
and says alike the departures it read from a phase alone."""

from __future__ import annotations

import re

from .. import vocab
from ..findings import Finding, define, finding
from ..text import LANGS, Text, cell_text

DEPARTURE_FROM_PHASE = define(
    "departure-read-from-phase",
    "warning",
    Text(
        "В «Выбыл» записана только фаза — прочитано как выбывание в ней: {cells}",
        "Only a phase is written in Left — read as the departure in that phase: {cells}",
    ),
    Text(
        "как выбыл игрок (убит, заголосован …) и фаза в своём столбце",
        "how the player left (killed, voted out …) and the phase in its own column",
    ),
    Text(
        "Если это верно, ничего делать не нужно; иначе впишите, как выбыл игрок",
        "If that is right, nothing to do; otherwise write how the player left",
    ),
)

# A phase written in a cell with something else: `Н1: 5`, `5 (Д3)`, `ночь 2 — 7`, `2н 7`
_PHASE_IN_CELL = re.compile(
    r"(?:(?<![а-яa-z])(?P<w1>ночь|ніч|night|день|day|[ндnhd])\s*-?\s*(?P<n1>\d{1,2})(?!\d)"
    r"|(?<!\d)(?P<n2>\d{1,2})\s*-?\s*(?:[яй]\s*)?"
    r"(?P<w2>ночь|ніч|night|день|day|[ндnhd])(?![а-яa-z0-9]))"
)
# The word a departure may take before its phase: «убит в Н1», «killed in N1»
_BEFORE_PHASE = re.compile(r"\s+(?:в|во|на|in|at|on)$")
_LEFT_BY_PHASE = {True: "заголосован", False: "убит"}  # a day: voted out; a night: killed
_LEFT_SHOWN = {True: Text("заголосован", "voted out"), False: Text("убит", "killed")}
_IN = Text("в", "in")
_QUOTED = Text("«{}»", "“{}”")


def phase_in(folded: str) -> tuple[int | None, str] | None:
    """The phase a folded cell text names and the text around it (unstripped), or None
    when it names none: `'н1: 5'` → (2, `' : 5'`); the phase None when its number is out
    of range."""
    match = _PHASE_IN_CELL.search(folded)
    if match is None:
        return None
    phase = vocab.parse_phase(
        f"{match.group('w1') or match.group('w2')}{match.group('n1') or match.group('n2')}"
    )
    return phase, folded[: match.start()] + " " + folded[match.end() :]


def departure_and_phase(value: str) -> tuple[str, int, bool] | None:
    """A departure cell that holds its phase too: `убит Н1` → («убит», Н1, False); a phase
    alone is the departure of that phase — `Н1` → («убит», Н1, True), `Д2` →
    («заголосован», Д2, True). None for a departure word alone, a cell without a phase,
    or words beside the phase that are no departure."""
    lookup = vocab.value_lookup("left")
    folded = vocab.fold(value)
    if lookup.get(folded) is not None:
        return None  # a departure word alone
    found = phase_in(folded)
    if found is None:
        return None
    phase, rest = found
    word = _BEFORE_PHASE.sub("", rest.strip(" -–—:(),"))  # «убита в Н3», «killed in N1»
    if phase is None or (word and lookup.get(word) is None):
        return None
    if word:
        return word, phase, False
    return _LEFT_BY_PHASE[vocab.is_day(phase)], phase, True


def read_from_phase(sheet: str, cells: list[tuple[str, object, int, int]], source: str) -> Finding:
    """`departure-read-from-phase` at the first of `cells` — (cell, value, phase, Excel
    row), in reading order — naming every cell with what it was read as («AK4 «Н1» —
    убит в Н1; …»)."""
    listed = {
        lang: "; ".join(
            f"{cell} {_quoted(value, lang)} — "
            f"{_LEFT_SHOWN[vocab.is_day(phase)](lang)} {_IN(lang)} {vocab.phase_name(phase, lang)}"
            for cell, value, phase, _ in cells
        )
        for lang in LANGS
    }
    (cell, value, _, row), rest = cells[0], cells[1:]
    return finding(
        DEPARTURE_FROM_PHASE,
        sheet,
        cell,
        value,
        row=row,
        source=source,
        also=[(sheet, other) for other, *_ in rest],
        cells=Text(listed["ru"], listed["en"]),
    )


def _quoted(value: object, lang: str) -> str:
    return _QUOTED(lang).format(cell_text(value))
