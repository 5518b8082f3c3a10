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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from .. import vocab
from ..errors import ProtocolReadError
from ..findings import Finding, define, finding
from ..model import HeaderRead, Reading
from ..text import Plural, Text
from . import blank, rows, wide
from .grid import Grid, Records, from_raw
from .raw import GameSheet, RawSheet, SheetRead
from .summary import game_read
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
DUPLICATE_SHEET = define(
    "duplicate-sheet",
    "warning",
    Text(
        "Два листа одного назначения: «{value}» и «{other}»",
        "Two sheets with one purpose: “{value}” and “{other}”",
    ),
    Text("один такой лист", "one such sheet"),
    Text(
        "Удалите или переименуйте лишний лист; учтён «{value}»",
        "Delete or rename the extra sheet; “{value}” is used",
    ),
)

SEATS_BY_HEADERS = define(
    "sheet-read-as-seats",
    "warning",
    Text(
        "Лист «{value}» прочитан как «Протокол» (строки мест) — по его заголовкам",
        "Sheet “{value}” is read as “Seats” (the seat rows) — by its headers",
    ),
    Text("лист «Протокол» / «Seats»", "a sheet named «Протокол» / “Seats”"),
    Text(
        "Ничего делать не нужно; чтобы не видеть замечания, переименуйте лист в «Протокол»",
        "Nothing to do; to silence this, rename the sheet to “Seats”",
    ),
)

GAME_ON_TWO_SHEETS = define(
    "game-on-two-sheets",
    "error",
    Text(
        "Игра {value} записана и на листе «{other}», и на листе «{sheet}»",
        "Game {value} is written both on sheet “{other}” and on sheet “{sheet}”",
    ),
    Text("у каждого листа игры свой номер", "a number of its own for each game sheet"),
    Text(
        "Исправьте номер игры на листе «{sheet}» (лист скопирован, а номер остался?)",
        "Correct the game number on sheet “{sheet}” (a copied sheet that kept its number?)",
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


# ---- the readers, asked in turn ----------------------------------------------------------


class LayoutReader(Protocol):
    """One layout: asked first whether a sheet is its own, then handed the sheet.

    `detect` looks, cheaply, and answers None (not mine) or what it found (the header's
    place, the protocol sheet's code …); `read` gets that answer back with the sheet.
    A sheet is read by the first reader whose answer is not None, and by it alone."""

    layout: str

    def detect(self, grid: Grid) -> object | None: ...

    def read(self, grid: Grid, found: object, source: str) -> SheetRead: ...


# In the order they are asked: a row of ten seat columns is unmistakable and may sit on a
# sheet named `Игры`; a protocol sheet is known by its name; a game sheet by its grid.
READERS: list[LayoutReader] = [wide.READER, rows.READER, blank.READER]


def register(reader: LayoutReader, before: str | None = None) -> None:
    """Add a layout reader: asked before the reader of layout `before`, else last."""
    at = next((i for i, r in enumerate(READERS) if r.layout == before), len(READERS))
    READERS.insert(at, reader)


def detect(grid: Grid) -> tuple[LayoutReader, object] | None:
    """The reader whose sheet this is, and what it found; None when no reader claims it."""
    for reader in READERS:
        found = reader.detect(grid)
        if found is not None:
            return reader, found
    return None


@dataclass
class SheetsRead:
    """A workbook's sheets as the layout readers read them, put together."""

    sheets: dict[str, RawSheet]  # the canonical tables: games, seats, players …
    reading: Reading
    findings: list[Finding] = field(default_factory=list)
    headers: list[HeaderRead] = field(default_factory=list)
    games: list[GameSheet] = field(default_factory=list)  # the game sheets and game rows


def read_sheets(grids: Iterable[Grid | Judged], source: str) -> SheetsRead:
    """Every sheet to the reader of its layout; the games of every layout put into the
    two raw tables `games` and `seats`, each value keeping its own sheet and cell. A sheet
    is given as its grid, read here in its turn, or as what :func:`judge` made of it
    beforehand (here or in a forked child): the result is the same."""
    with _no_collector_pauses():
        return _read_sheets(grids, source)


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


@dataclass(frozen=True)
class Judged:
    """What the layout readers make of one sheet before the sheets are put together:
    whether it is the template's help, the layout that claims it and what that reader
    found (None: no reader does), where a finding about the whole sheet goes (its first
    filled cell and Excel row) and what the reader read. Made beforehand — by a forked
    child too, which sends it pickled."""

    name: str
    own: bool
    claim: tuple[str, object] | None
    empty: bool
    first: tuple[str, int]
    read: SheetRead | None


def judge(grid: Grid, source: str) -> Judged:
    """One sheet as :func:`read_sheets` would take it in its turn, read now (a sheet the
    others leave out — a second sheet of one purpose — is read for nothing, and dropped).
    Raises what the reader raises."""
    own = _fold(grid.name) in _OWN_SHEETS
    claim = None if own else detect(grid)
    read = None if claim is None else claim[0].read(grid, claim[1], source)
    layout = None if claim is None else (claim[0].layout, claim[1])
    filled = grid.first_filled()
    return Judged(grid.name, own, layout, filled is None, _first_cell(grid, filled), read)


def _claimed(sheet: Grid | Judged) -> tuple[bool, tuple[str, object] | None, LayoutReader | None]:
    """Whether a sheet is the template's help, the layout that claims it and what its
    reader found, and the reader that is to read it now: a grid is claimed here (and read
    only if it is used); a sheet judged beforehand was read then (no reader)."""
    if not isinstance(sheet, Grid):
        return sheet.own, sheet.claim, None
    if _fold(sheet.name) in _OWN_SHEETS:
        return True, None, None
    claim = detect(sheet)
    if claim is None:
        return False, None, None
    return False, (claim[0].layout, claim[1]), claim[0]


def _read_sheets(sheets: Iterable[Grid | Judged], source: str) -> SheetsRead:
    done = SheetsRead({}, Reading(source, "rows", 0))
    kinds: list[tuple[str, str]] = []
    guessed: list[tuple[Grid | Judged, SheetRead]] = []  # headed as `Протокол`, named not
    for sheet in sheets:
        own, claim, reader = _claimed(sheet)
        if own:  # the template's instructions: help, not data
            continue
        if claim is None:
            if not _empty(sheet):
                done.findings.append(_at_first_cell(UNPLACED_SHEET, sheet, source))
            continue
        layout, found = claim
        if found == rows.SEATS_BY_HEADERS:
            guessed.append((sheet, _read_now(sheet, reader, found, source)))
            continue
        if layout == "rows" and found in done.sheets:
            kept = done.sheets[str(found)].name
            note = _at_first_cell(DUPLICATE_SHEET, sheet, source, value=kept, other=sheet.name)
            done.findings.append(note)
            continue
        read = _read_now(sheet, reader, found, source)
        done.findings += read.findings
        done.headers += read.headers
        if read.raw is not None and read.code is not None:
            done.sheets[read.code] = read.raw
        else:
            done.games += read.games
            kinds.append((sheet.name, read.layout))
    _take_guessed(done, guessed, source)
    done.reading = _assemble(done, kinds, source)
    return done


def _read_now(
    sheet: Grid | Judged, reader: LayoutReader | None, found: object, source: str
) -> SheetRead:
    """What the reader claiming `sheet` makes of it (read beforehand, or now)."""
    read = sheet.read if isinstance(sheet, Judged) else None
    if isinstance(sheet, Grid) and reader is not None:
        read = reader.read(sheet, found, source)
    assert read is not None  # a claimed sheet judged beforehand was read then
    return read


def _take_guessed(
    done: SheetsRead, guessed: list[tuple[Grid | Judged, SheetRead]], source: str
) -> None:
    """A sheet headed as `Протокол` under another name is the seat rows where no sheet is
    named so (the first such, said at its first cell); beside one so named, a copy."""
    for sheet, read in guessed:
        if "seats" in done.sheets:
            kept = done.sheets["seats"].name
            note = _at_first_cell(DUPLICATE_SHEET, sheet, source, value=kept, other=sheet.name)
            done.findings.append(note)
            continue
        assert read.raw is not None
        done.sheets["seats"] = read.raw
        done.findings.append(_at_first_cell(SEATS_BY_HEADERS, sheet, source, value=sheet.name))
        done.findings += read.findings
        done.headers += read.headers


def _empty(sheet: Grid | Judged) -> bool:
    return sheet.first_filled() is None if isinstance(sheet, Grid) else sheet.empty


def _first_cell(grid: Grid, filled: tuple[int, int] | None) -> tuple[str, int]:
    """Where a finding about the whole sheet goes: its first filled cell (the grid's first
    cell when none is filled) and that cell's Excel row."""
    r, c = filled if filled is not None else (0, 0)
    return grid.address(r, c), grid.excel_row(r)


def _at_first_cell(code: str, sheet: Grid | Judged, source: str, **params: object) -> Finding:
    """A finding about a whole sheet, at its first filled cell (A1 when it has none)."""
    cell, row = _first_cell(sheet, sheet.first_filled()) if isinstance(sheet, Grid) else sheet.first
    value = params.pop("value", "")
    return finding(code, sheet.name, cell, value, row=row, source=source, **params)  # type: ignore[arg-type]


def _assemble(done: SheetsRead, kinds: list[tuple[str, str]], source: str) -> Reading:
    """The games of game sheets and game rows joined to the row layout's tables."""
    sheets = done.sheets
    if not kinds:
        return Reading(source, "rows", _count(sheets), ())
    played = [game for game in done.games if game.played]
    for game in done.games:
        done.findings.extend(game.findings)
    done.findings.extend(_ids_on_two_sheets(played, source))
    game_records, seat_records = _records(played)
    layouts = {kind for _, kind in kinds}
    if "games" in sheets or "seats" in sheets:
        _refuse_overlap(sheets, game_records, kinds, source)
        layouts.add("rows")
        for code, records in (("games", game_records), ("seats", seat_records)):
            if code in sheets:
                merged = from_raw(sheets[code])
                merged.extend(records)
                records = merged
            sheets[code] = records.raw_sheet(sheets[code].name if code in sheets else kinds[0][0])
    else:
        sheets["games"] = game_records.raw_sheet(kinds[0][0])
        sheets["seats"] = seat_records.raw_sheet(kinds[0][0])
    layout = layouts.pop() if len(layouts) == 1 else "mixed"
    unplayed = len(done.games) - len(played)
    games_read = tuple(map(game_read, played, _game_ids(played)))
    return Reading(source, layout, _count(sheets), tuple(kinds), unplayed, games_read)


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
    """Games listed: a (table, game) pair each, so that games numbered at each table from 1
    count once a table (two tables × 3 games are 6 games, not 3)."""
    games = sheets.get("games")
    if games is None or "game" not in games.columns:
        return 0
    tables = games.columns.get("table") or [None] * len(games.columns["game"])
    pairs = {
        (parse_text(t), g)
        for t, g in zip(tables, map(parse_text, games.columns["game"]), strict=True)
        if g is not None
    }
    return len(pairs)


def _fold(name: str) -> str:
    return " ".join(name.lower().split())


# ---- games and seats from game sheets --------------------------------------------------------


def _records(games: list[GameSheet]) -> tuple[Records, Records]:
    """The games and seats tables of game sheets and game rows. Every value has a cell to
    point at: one the sheet has no cell for (a game id from the sheet's name, a role
    column the grid lacks) points at its game's or seat's own first cell."""
    ids = _game_ids(games)
    game_records, seat_records = Records("games"), Records("seats")
    for game, game_id in zip(games, ids, strict=True):
        anchor = _anchor(game)
        id_cell = game.header.get("game", ("", ""))[1] or anchor
        values = {"game": (game_id, id_cell), "result": game.header.get("result", ("", ""))}
        for column in _GAME_COLUMNS[2:]:
            if column in game.header and column != "result":
                values[column] = game.header[column]
        game_records.add(game.sheet, game.first_row, _placed(values, anchor))
        for seat, row in zip(game.seats, game.seat_rows, strict=True):
            located = {
                "game": (game_id, id_cell),
                **{column: seat[column] for column in _SEAT_COLUMNS[1:] if column in seat},
            }
            located.setdefault("player", ("", ""))
            located.setdefault("role", ("", ""))
            own = seat.get("seat", ("", ""))[1] or seat.get("player", ("", ""))[1] or anchor
            seat_records.add(game.sheet, row, _placed(located, own))
    return game_records, seat_records


def _anchor(game: GameSheet) -> str:
    """The game's first cell: its id's, else its result's, else its first seat row's."""
    for name in ("game", "result", "table", "round"):
        cell = game.header.get(name, ("", ""))[1]
        if cell:
            return cell
    for row in game.seats[:1]:
        for _, cell in row.values():
            if cell:
                return cell
    return "A1"


def _placed(values: dict[str, tuple[object, str]], cell: str) -> dict[str, tuple[object, str]]:
    if all(c for _, c in values.values()):
        return values  # the usual row: every value has its own cell
    return {k: (v, c or cell) for k, (v, c) in values.items()}


def _game_ids(games: list[GameSheet]) -> list[str]:
    """Each game's id (:func:`_typed_ids`); a game sheet whose round, table and number an
    earlier sheet has already (a sheet copied, its «Игра №» left as it was) takes that id
    told apart by its sheet's name, and :func:`_ids_on_two_sheets` says so: one slip is
    neither read as one game of twenty seats nor renames every other game."""
    copies = _copies(games)
    own = [game for i, game in enumerate(games) if i not in copies]
    typed = iter(_typed_ids(own))
    ids: list[str] = []
    for i, game in enumerate(games):
        ids.append(f"{ids[copies[i]]} ({game.sheet})" if i in copies else next(typed))
    return ids


def _copies(games: list[GameSheet]) -> dict[int, int]:
    """Each game sheet repeating an earlier sheet's round, table and game number → that
    earlier game's index (game rows of one sheet repeating are the checks' to say)."""
    first: dict[tuple[str, ...], int] = {}
    copies = {}
    for i, game in enumerate(games):
        key = tuple(_part(game, name) for name in ("round", "table", "game"))
        if not key[2]:
            continue  # no number: its sheet's name is its id
        earlier = first.setdefault(key, i)
        if earlier != i and games[earlier].sheet != game.sheet:
            copies[i] = earlier
    return copies


def _ids_on_two_sheets(games: list[GameSheet], source: str) -> list[Finding]:
    """`game-on-two-sheets` at the «Игра №» of each game sheet that repeats an earlier
    sheet's game, quoting the number as typed."""
    found = []
    for i, earlier in _copies(games).items():
        game = games[i]
        cell = game.header.get("game", ("", ""))[1] or _anchor(game)
        number = _part(game, "game")
        other = games[earlier].sheet
        found.append(
            finding(GAME_ON_TWO_SHEETS, game.sheet, cell, number, source=source, other=other)
        )
    return found


def _part(game: GameSheet, name: str) -> str:
    """A game's field as typed (its number, table, round), "" when it has none."""
    value = parse_text(game.header.get(name, ("", ""))[0])
    return "" if value is None else str(value)


def _typed_ids(games: list[GameSheet]) -> list[str]:
    """A game's id: its number when unique in the workbook, else «стол 2, игра 3» when the
    tables tell the games apart (as the row layout keys them), else `round-table-game`;
    the sheet's name for a game sheet with no number at all."""

    part = _part
    plain = [part(g, "game") or g.sheet for g in games]
    if len(set(plain)) == len(plain):
        return plain
    keyed = [
        vocab.per_table_key(part(g, "table"), p) if part(g, "table") else p
        for g, p in zip(games, plain, strict=True)
    ]
    if len(set(keyed)) == len(keyed):
        return keyed
    return [
        "-".join([*(part(g, k) for k in ("round", "table") if part(g, k)), p])
        for g, p in zip(games, plain, strict=True)
    ]


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
