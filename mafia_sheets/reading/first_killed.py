"""The first-killed field («Первый убитый: 4», «ПУ»), as clubs print it: the seat killed
on night 1, whose best move it is — and so a departure too.

With no departure typed for that seat, the field is taken as «убит в Н1» and said at its
cell (the standings never differ in silence from what the judge typed); a kill typed
without its phase gets Н1 from the field, said so too. A departure typed otherwise, or
another seat killed on night 1, disagrees with the field: an error at both cells.
"""

from __future__ import annotations

from typing import Any

from .. import vocab
from ..findings import define
from ..text import Text, cell_text
from .columns import SHEET_FIELDS
from .page import Page
from .raw import GameSheet, Located
from .values import seat_number

FIRST_KILLED_READ = define(
    "first-killed-read-as-departure",
    "warning",
    Text(
        "«{field}: {value}», а {missing}: прочитано как «убит в Н1»",
        "“{field}: {value}”, and {missing}: read as killed on N1",
    ),
    Text(
        "выбывание первого убитого записано и в его строке (убит, Н1) или в строке убитых по ночам",
        "the first victim's departure recorded on their row too (killed, N1) or in the "
        "row of kills by night",
    ),
    Text(
        "Если это верно, ничего делать не нужно; иначе исправьте «{field}»",
        "If that is right, nothing to do; otherwise fix “{field}”",
    ),
)
FIRST_KILLED_DISAGREES = define(
    "first-killed-disagrees",
    "error",
    Text("«{field}: {value}», но {other}", "“{field}: {value}”, but {other}"),
    Text(
        "первый убитый — игрок, убитый в первую ночь (убит, Н1), один за игру",
        "the first victim is the player killed on night 1 (killed, N1), one a game",
    ),
    Text(
        "Исправьте «{field}» или выбывание в {departure}",
        "Fix “{field}” or the departure at {departure}",
    ),
)
_NO_DEPARTURE = Text(
    "выбывание места {seat} не записано", "no departure is recorded for seat {seat}"
)
_NO_PHASE = Text(
    "фаза выбывания места {seat} не записана", "the phase seat {seat} left in is not written"
)
_OWN = Text(
    "у места {seat} записано «{left}» в {cell}", "seat {seat} is recorded as “{left}” at {cell}"
)
_ANOTHER = Text(
    "в Н1 убит игрок на месте {seat} ({cell})",
    "the player in seat {seat} was killed on N1 ({cell})",
)
_KILLED, _NIGHT_1 = "убит", 2


def take_first_killed(page: Page, game: GameSheet, named: Located | None) -> None:
    """The seat the first-killed field names onto the game's departures, or an error at
    both cells where the departures typed say otherwise."""
    seat = seat_number(named[0]) if named is not None else None
    if named is None or seat is None:
        return
    row = next((row for row in game.seats if _seat_of(row) == seat), None)
    if row is None:
        return  # not a seat of the game: the best move's own findings say so
    r, c = page.grid.cell_of(named[1])
    say: dict[str, Any] = {"field": SHEET_FIELDS["first_killed"].name, "seat": seat}
    others = [o for o in game.seats if o is not row and _killed_on_night_1(o)]
    if others:
        cell = _cell_of(others[0])
        other = _ANOTHER.format(seat=_seat_of(others[0]), cell=cell)
        _disagree(page, (r, c), named[0], cell, other, say)
        return
    left, when = _typed(row.get("left")), _typed(row.get("when"))
    if left is None and when is None:
        row["left"], row["when"] = (_KILLED, named[1]), (vocab.phase_name(_NIGHT_1, "ru"), named[1])
        page.add(FIRST_KILLED_READ, r, c, named[0], missing=_NO_DEPARTURE.format(seat=seat), **say)
        return
    how = vocab.value_lookup("left").get(vocab.fold(left[0])) if left is not None else None
    if how == "killed" and when is None:
        row["when"] = (vocab.phase_name(_NIGHT_1, "ru"), named[1])
        page.add(FIRST_KILLED_READ, r, c, named[0], missing=_NO_PHASE.format(seat=seat), **say)
        return
    if how == "killed" and when is not None and vocab.parse_phase(cell_text(when[0])) == _NIGHT_1:
        return  # the departures say it too
    typed = " ".join(cell_text(v[0]).strip() for v in (left, when) if v is not None)
    cell = _cell_of(row)
    _disagree(page, (r, c), named[0], cell, _OWN.format(seat=seat, left=typed, cell=cell), say)


def _disagree(
    page: Page, at: tuple[int, int], value: object, cell: str, other: Text, say: dict[str, Any]
) -> None:
    grid = page.grid
    also = [(grid.name, cell)] if cell and cell != grid.address(*at) else []
    page.add(FIRST_KILLED_DISAGREES, *at, value, also=also, other=other, departure=cell, **say)


def _killed_on_night_1(row: dict[str, Located]) -> bool:
    left, when = _typed(row.get("left")), _typed(row.get("when"))
    return (
        left is not None
        and when is not None
        and vocab.value_lookup("left").get(vocab.fold(left[0])) == "killed"
        and vocab.parse_phase(cell_text(when[0])) == _NIGHT_1
    )


def _cell_of(row: dict[str, Located]) -> str:
    """Where a seat's departure is written: its «Выбыл», else its «Когда»."""
    for name in ("left", "when"):
        located = _typed(row.get(name))
        if located is not None and located[1]:
            return located[1]
    return ""


def _seat_of(row: dict[str, Located]) -> int | None:
    return seat_number(row.get("seat", ("", ""))[0])


def _typed(located: Located | None) -> Located | None:
    """The value with its cell when something is written there, else None."""
    if located is None or not cell_text(located[0]).strip():
        return None
    return located
