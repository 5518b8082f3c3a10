"""Which layout a workbook keeps its games in, detected from its sheets, never configured.

* `rows` — the `Игры` + `Протокол` sheets of SPEC §2 (one row per seat);
* `blank` — one sheet per game, laid out like the paper protocol (:mod:`.blank`);
* `wide` — one row per game with ten seat columns (:mod:`.wide`);
* `mixed` — more than one of these, read sheet by sheet when their games are distinct.

Every layout ends as the same two raw tables, `games` and `seats`; in the other layouts
their values keep their own sheet and cell through :class:`~mafia_sheets.model.Places`.
The settings, roster, protests and lot sheets are read as in the row layout whatever the
games' layout. A non-empty sheet that is none of these is reported, never skipped in
silence. Games that two layouts both hold cannot be told apart and stop the reading.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..errors import ProtocolReadError
from ..findings import Finding, define, finding
from ..model import Reading
from ..text import Plural, Text
from . import blank, wide
from .blank import GameSheet
from .grid import Grid, Records, from_raw
from .sheets import RawSheet
from .values import parse_text

LAYOUTS: dict[str, Text] = {
    "rows": Text("строка на место", "one row per seat"),
    "blank": Text("бланк на игру", "one sheet per game"),
    "wide": Text("строка на игру", "one row per game"),
    "mixed": Text("смешанная раскладка", "mixed layouts"),
}
# Sheets the product writes itself into a template: help, not data.
_OWN_SHEETS = frozenset({"инструкция", "instructions", "справка", "help"})

UNPLACED_SHEET = define(
    "unplaced-sheet",
    "warning",
    Text(
        "Лист «{sheet}» не распознан и не учтён",
        "Sheet “{sheet}” is not recognised and is left out",
    ),
    Text(
        "лист протокола (Игры, Протокол, Игроки, Турнир, Протесты, Жребий), бланк игры "
        "(заголовок «Игрок» над десятью местами) или строки игр (столбцы мест 1 … 10)",
        "a protocol sheet (Games, Seats, Players, Tournament, Protests, Lot), a game sheet "
        "(a «Player» header over ten seats) or rows of games (seat columns 1 … 10)",
    ),
    Text(
        "Если на листе игры — подпишите столбцы как в шаблоне (mafia-sheets template "
        "--layout blank|wide); иначе это предупреждение можно не учитывать",
        "If the sheet holds games, label its columns as the template does (mafia-sheets "
        "template --layout blank|wide); otherwise this warning can be ignored",
    ),
)

_GAME_COLUMNS = (
    "game",
    "round",
    "table",
    "judge",
    "result",
    "ended",
    "annulled",
    "departures",
)
_SEAT_COLUMNS = ("game", "seat", "player", "role", "fouls", "left", "when", "best_move", "bonus")


def read_layouts(
    workbook: object,
    others: Sequence[str],
    sheets: dict[str, RawSheet],
    findings: list[Finding],
    source: str,
) -> Reading:
    """Read the game sheets and rows of games among `others` (the sheets the row layout
    does not name) into `sheets["games"]` / `sheets["seats"]`; say which layout it was."""
    with _no_collector_pauses():
        return _read_layouts(workbook, others, sheets, findings, source)


@contextmanager
def _no_collector_pauses() -> Iterator[None]:
    """Hold the cycle collector while the sheets are read: 200 game sheets make ~100,000
    small containers, none of them in a cycle (refcounting frees them), and each pass of
    the collector would walk the whole heap, pandas' included, for nothing (measured:
    ~8 ms of a 200-sheet read). Left as it was found: off stays off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_layouts(
    workbook: object,
    others: Sequence[str],
    sheets: dict[str, RawSheet],
    findings: list[Finding],
    source: str,
) -> Reading:
    games: list[GameSheet] = []
    kinds: list[tuple[str, str]] = []
    candidates = list(others)
    if "games" in sheets and "seats" not in sheets:  # `Игры` may be a sheet of game rows
        candidates.insert(0, sheets["games"].name)
    for name in candidates:
        if _fold(name) in _OWN_SHEETS:  # the template's instructions hold labels, not a game
            continue
        grid = Grid(name, workbook.get_sheet_by_name(name))  # type: ignore[attr-defined]
        if wide.is_games_sheet(grid):
            games += wide.read_game_rows(grid, source)
            kinds.append((name, "wide"))
            if sheets.get("games") is not None and sheets["games"].name == name:
                del sheets["games"]
        elif blank.is_game_sheet(grid):
            games.append(blank.read_game_sheet(grid, source))
            kinds.append((name, "blank"))
        elif name in others and not grid.is_empty() and _fold(name) not in _OWN_SHEETS:
            findings.append(finding(UNPLACED_SHEET, name, source=source))
    played = [game for game in games if game.played]
    rows = "games" in sheets or "seats" in sheets
    if not kinds:
        return Reading(source, "rows", _count(sheets), ())
    for game in games:
        findings.extend(game.findings)
    game_records, seat_records = _records(played)
    layouts = {kind for _, kind in kinds}
    if rows:
        _refuse_overlap(sheets, game_records, kinds, source)
        layouts.add("rows")
        for code, records in (("games", game_records), ("seats", seat_records)):
            if code in sheets:
                merged = from_raw(sheets[code])
                merged.extend(records)
                records = merged
            sheets[code] = records.raw_sheet(sheets.get(code, _named(code, kinds)).name)
    else:
        sheets["games"] = game_records.raw_sheet(kinds[0][0])
        sheets["seats"] = seat_records.raw_sheet(kinds[0][0])
    layout = layouts.pop() if len(layouts) == 1 else "mixed"
    return Reading(source, layout, _count(sheets), tuple(kinds), len(games) - len(played))


def reading_text(reading: Reading, lang: str) -> str:
    """`прочитано: бланк на игру, 12 игр` / `read: one sheet per game, 12 games`."""
    name = LAYOUTS.get(reading.layout, LAYOUTS["rows"])(lang)
    games = _games_word(reading.games, lang)
    text = Text(f"прочитано: {name}, {games}", f"read: {name}, {games}")(lang)
    if reading.unplayed:
        text += Text(
            f" (ещё не сыграно: {reading.unplayed})", f" ({reading.unplayed} not played yet)"
        )(lang)
    return text


GAMES = Plural(("игра", "игры", "игр"), ("game", "games"))


def _games_word(count: int, lang: str) -> str:
    return GAMES(count, lang)


def _count(sheets: dict[str, RawSheet]) -> int:
    games = sheets.get("games")
    if games is None or "game" not in games.columns:
        return 0
    return len({parse_text(v) for v in games.columns["game"]} - {None})


def _fold(name: str) -> str:
    return " ".join(name.lower().split())


def _named(code: str, kinds: list[tuple[str, str]]) -> RawSheet:
    return RawSheet(code, kinds[0][0], 0, {}, {}, [])


# ---- games and seats from game sheets --------------------------------------------------------


def _records(games: list[GameSheet]) -> tuple[Records, Records]:
    ids = _game_ids(games)
    game_records, seat_records = Records("games"), Records("seats")
    for game, game_id in zip(games, ids, strict=True):
        id_cell = game.header.get("game", ("", ""))[1]
        values = {"game": (game_id, id_cell), "result": game.header.get("result", ("", ""))}
        for column in _GAME_COLUMNS[2:]:
            if column in game.header and column != "result":
                values[column] = game.header[column]
        if "round" in game.header:
            values["round"] = (_round(game.header["round"][0]), game.header["round"][1])
        game_records.add(game.sheet, game.first_row, values)
        for seat, row in zip(game.seats, game.seat_rows, strict=True):
            located = {
                "game": (game_id, id_cell),
                **{column: seat[column] for column in _SEAT_COLUMNS[1:] if column in seat},
            }
            located.setdefault("player", ("", ""))
            located.setdefault("role", ("", ""))
            seat_records.add(game.sheet, row, located)
    return game_records, seat_records


def _game_ids(games: list[GameSheet]) -> list[str]:
    """A game's id: its number when unique in the workbook, else `table-game`, else
    `round-table-game`; the sheet's name for a game sheet with no number at all."""

    def part(game: GameSheet, name: str) -> str:
        value = parse_text(game.header.get(name, ("", ""))[0])
        return "" if value is None else str(value)

    plain = [part(g, "game") or g.sheet for g in games]
    for keys in (("table",), ("round", "table")):
        if len(set(plain)) == len(plain):
            break
        plain = [
            "-".join([*(part(g, k) for k in keys if part(g, k)), p])
            for g, p in zip(games, [part(g, "game") or g.sheet for g in games], strict=True)
        ]
    return plain


def _round(value: object) -> object:
    """`Тур 3`, `3 тур`, `Отбор 2` → 3 / 2; a stage without a number («Финал») is no round."""
    if isinstance(value, int | float) or value in ("", None):
        return value
    numbers = re.findall(r"\d+", str(value))
    return numbers[0] if len(numbers) == 1 else ""


def _refuse_overlap(
    sheets: dict[str, RawSheet], records: Records, kinds: list[tuple[str, str]], source: str
) -> None:
    """The same game in two layouts cannot be read sheet by sheet: say which sheets."""
    listed = sheets.get("games")
    if listed is None or "game" not in listed.columns:
        return
    known = {str(parse_text(v)) for v in listed.columns["game"]} - {"None"}
    clash = sorted(known & {str(parse_text(v)) for v in records.columns.get("game", [])})
    if not clash:
        return
    names = ", ".join(f"«{name}»" for name, _ in kinds)
    games = ", ".join(str(g) for g in clash[:5])
    raise ProtocolReadError(
        Text(
            f"{source}: игры {games} есть и на листе «{listed.name}», и на листах {names}. "
            "Оставьте каждую игру в одной раскладке (удалите или переименуйте копии).",
            f"{source}: the games {games} are both in the sheet “{listed.name}” and in the "
            f"sheets {names}. Keep each game in one layout (delete or rename the copies).",
        ),
    )
