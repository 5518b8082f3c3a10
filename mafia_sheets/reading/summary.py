"""What each game sheet (or game row) gave, in a judge's words: one line a game.

`Стол1Игра2: игра 3 — результат ✓ красные; лучший ход 1 → 3, 7, 9; выбыли 6 (Д1, Н1, Д2,
Н2, Д3, Н3); фолов 4; доп. баллов 2; протест —` — read with the same parsers the protocol
is typed with (:mod:`.columns`), before any check, so that a judge sees at a glance that
a sheet gave «result ✓, best move —, departures 6» before trusting the standings.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import vocab
from ..model import GameRead, Reading
from ..text import Plural, Text
from .blank_fields import PROTEST_ON_SHEET
from .columns import SCHEMA
from .raw import GameSheet
from .values import BAD


def _memo(parse: Callable[[object], object]) -> Callable[[object], object]:
    """A column's parser, each distinct cell value parsed once: game sheets repeat them."""
    known: dict[object, object] = {}

    def parsed(value: object) -> object:
        try:
            return known[value]
        except KeyError:
            if len(known) >= 4096:
                known.clear()
            found = known[value] = parse(value)
            return found
        except TypeError:  # an unhashable value: parsed as it comes
            return parse(value)

    return parsed


_SEATS = {name: _memo(column.parse) for name, column in SCHEMA["seats"].items()}
_RESULT = _memo(SCHEMA["games"]["result"].parse)


def game_read(game: GameSheet, game_id: str) -> GameRead:
    """The facts of one game as its sheet or row holds them."""
    result = _RESULT(game.header.get("result", ("", ""))[0])
    best: tuple[int | None, tuple[int, ...]] | None = None
    phases: list[int] = []
    unknown = departures = fouls = awards = 0
    for row in game.seats:
        seats = _SEATS["best_move"](row.get("best_move", ("", ""))[0])
        if isinstance(seats, tuple):
            seat = _SEATS["seat"](row.get("seat", ("", ""))[0])
            best = (seat if isinstance(seat, int) else None, seats)
        left = _SEATS["left"](row.get("left", ("", ""))[0])
        if left is not None and left is not BAD:
            departures += 1
            when = row.get("when", ("", ""))[0]
            phase = _SEATS["when"](when)
            if isinstance(phase, int):
                phases.append(phase)
            else:
                unknown += 1
        count = _SEATS["fouls"](row.get("fouls", ("", ""))[0])
        fouls += count if isinstance(count, int) else 0
        bonus = _SEATS["bonus"](row.get("bonus", ("", ""))[0])
        awards += bonus is not None and bonus is not BAD
    return GameRead(
        sheet=game.sheet,
        row=game.first_row,
        game=game_id,
        result=result if isinstance(result, str) else None,
        best_move=best,
        departures=departures,
        phases=tuple(sorted(phases)),
        unknown_phases=unknown,
        fouls=fouls,
        awards=awards,
        protest=any(f.code == PROTEST_ON_SHEET for f in game.findings),
        unread=game.unread,
    )


_DEPARTED = Plural(("выбывание", "выбывания", "выбываний"), ("departure", "departures"))
_FOULS = Plural(("фол", "фола", "фолов"), ("foul", "fouls"))
_AWARDS = Plural(("доп. балл", "доп. балла", "доп. баллов"), ("award", "awards"))
_CELLS = Plural(("ячейка", "ячейки", "ячеек"), ("cell", "cells"))
_NONE = "—"
_UNWRITTEN = Text("фаза не записана", "phase not written")  # a departure typed without one


def game_read_text(read: GameRead, layout: str, lang: str) -> str:
    """`Стол1Игра2: игра 3 — результат ✓ красные; лучший ход 1 → 3, 7, 9; выбыли 6 …`."""
    where = (
        read.sheet
        if layout != "wide"
        else Text(f"{read.sheet}, строка {read.row}", f"{read.sheet}, row {read.row}")(lang)
    )
    game = vocab.game_name(read.game, lang)
    result = (
        f"✓ {vocab.display_value('result', read.result, lang).lower()}" if read.result else _NONE
    )
    best = _NONE
    if read.best_move is not None:
        victim, seats = read.best_move
        named = ", ".join(map(str, seats))
        best = f"{victim} → {named}" if victim is not None else named
    phases = [vocab.phase_name(p, lang) for p in read.phases]
    phases += [_UNWRITTEN(lang)] * read.unknown_phases
    departed = _DEPARTED(read.departures, lang) + (f" ({', '.join(phases)})" if phases else "")
    parts = [
        Text(f"результат {result}", f"result {result}")(lang),
        Text(f"лучший ход {best}", f"best move {best}")(lang),
        departed,
        _FOULS(read.fouls, lang),
        _AWARDS(read.awards, lang),
        Text("протест ", "protest ")(lang) + (Text("есть", "yes")(lang) if read.protest else _NONE),
    ]
    if read.unread:
        parts.append(Text("не прочитано: ", "not read: ")(lang) + _CELLS(read.unread, lang))
    head = Text(f"{where}: игра {game}", f"{where}: game {game}")(lang)
    return f"{head} — {'; '.join(parts)}"


def reading_lines(reading: Reading, lang: str) -> list[tuple[str, str]]:
    """(sheet, what it gave) for every game sheet or game row of one file."""
    layouts = dict(reading.sheets)
    return [
        (read.sheet, game_read_text(read, layouts.get(read.sheet, "blank"), lang))
        for read in reading.games_read
    ]


def game_read_json(read: GameRead, layout: str, lang: str) -> dict[str, object]:
    """One game's facts under `read` in the JSON outputs (fixed English keys)."""
    victim, seats = read.best_move if read.best_move is not None else (None, ())
    return {
        "sheet": read.sheet,
        "row": read.row,
        "game": vocab.game_name(read.game, lang),
        "result": read.result,
        "best_move": None if read.best_move is None else {"victim": victim, "seats": list(seats)},
        "departures": read.departures,
        "phases": [vocab.phase_name(p, "en") for p in read.phases] + ["?"] * read.unknown_phases,
        "fouls": read.fouls,
        "awards": read.awards,
        "protest": read.protest,
        "unread": read.unread,
        "text": game_read_text(read, layout, lang),
    }
