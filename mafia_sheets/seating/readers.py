"""Schedules made elsewhere: one row per game, or the JSON of seating tools.

- **One row per game** (xlsx or csv): a header row with `Тур` / `Round`, `Стол` / `Table`
  (optional: the order of the round's rows), optionally `Игра` / `Game`, and seat columns
  `1` … `10` holding the nicknames in seat order; other columns (judge, result …) are
  left alone. The first sheet with such a header is read.
- **JSON**, as `dimtom/web_schedule` keeps it: `configuration` (`numPlayers`,
  `numTables`, `numRounds` …), `rounds` `[{id, gameIds}]` and `games` `[{id,
  players}]` with ten player numbers (from 0) or names in seat order; a round's tables
  are its games in `gameIds` order. Player numbers are named from the roster (number i
  is the roster's line i + 1), else «Игрок 1» …. This tool's own `seat --json` is read
  too (`rounds` `[{round, tables: [{table, players}]}]`).

Every refusal names the cell (or the JSON path) and what was expected.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from python_calamine import CalamineWorkbook

from ..model import Source
from ..reading.columns import column_lookup
from ..reading.safety import inspect_workbook
from ..reading.sheets import column_letter
from ..reading.textfile import csv_rows
from ..text import Text, cell_text
from ..vocab import fold
from .model import PLAYER_NAME, SEATS, Schedule
from .repeats import repeated, repeats_text
from .shape import SeatingError

MAX_GAMES = 10_000
_SEAT_HEADER = re.compile(r"^(?:место|seat|игрок|player|м|s)?\s*(\d{1,2})$")


@dataclass(frozen=True)
class Row:
    """One game row as read: its round and table, the ten names and where they sit."""

    round: int
    table: int | None
    names: tuple[str, ...]
    cells: tuple[str, ...]  # the ten seat cells, `Лист1!E5`
    where: str  # the row's round cell


def read_schedule(source: Source, roster: Sequence[str] = (), lang: str = "ru") -> Schedule:
    """The schedule in `source` (xlsx, ods, csv or json), players named by `roster` when the
    file numbers them."""
    suffix = PurePath(source.name).suffix.lower()
    if suffix == ".json":
        return _from_json(_load_json(source), roster, lang, source.name)
    if suffix in (".csv", ".txt", ".tsv"):
        what = Text(f"Файл рассадки {source.name}", f"Schedule file {source.name}")
        return _from_rows(_rows(csv_rows(source.data, what), source.name, ""), source.name, roster)
    if suffix in (".xlsx", ".xlsm", ".ods"):
        return _from_rows(_xlsx_rows(source), source.name, roster)
    raise SeatingError(
        Text(
            f"{source.name}: рассадка читается из .xlsx, .ods, .csv или .json.",
            f"{source.name}: a schedule is read from .xlsx, .ods, .csv or .json.",
        )
    )


def read_people(source: Source) -> list[str]:
    """The nicknames of a `players.json` (`{"people": [{"id": 0, "name": "…"}]}`), by id."""
    data = _load_json(source)
    people = data.get("people") if isinstance(data, dict) else None
    if not isinstance(people, list) or not all(isinstance(p, dict) for p in people):
        raise _bad(source.name, "people", Text("список игроков", "a list of players"))
    if all(isinstance(p.get("id"), int) and not isinstance(p.get("id"), bool) for p in people):
        people = sorted(people, key=lambda p: int(p["id"]))
    names = [" ".join(str(p.get("name", "")).split()) for p in people]
    if not all(names):
        raise _bad(
            source.name, "people[].name", Text("ник у каждого игрока", "a name for every player")
        )
    # a nickname twice is refused, never merged (seating.repeats): named by the ids
    ids = [p.get("id") if isinstance(p.get("id"), int) else n for n, p in enumerate(people)]
    twice = repeated(zip(ids, names, strict=True))
    if twice:
        what = Text(f"Список игроков {source.name}", f"Players list {source.name}")
        raise SeatingError(repeats_text(what, twice, (Text("id", "id"), Text("id", "id"))))
    return names


# ---- one row per game ------------------------------------------------------------------------


def _xlsx_rows(source: Source) -> list[Row]:
    judged = inspect_workbook(source.data, source.name).reader_archive()
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(judged))
        sheets = [(name, book.get_sheet_by_name(name).to_python()) for name in book.sheet_names]
    except Exception as exc:  # calamine raises several unrelated types for a bad file
        raise SeatingError(
            Text(
                f"{source.name} не читается как книга Excel ({exc}).",
                f"{source.name} cannot be read as an Excel workbook ({exc}).",
            )
        ) from exc
    for name, grid in sheets:
        if _header(grid) is not None:
            return _rows(grid, source.name, name)
    raise _no_header(source.name)


def _header(grid: Sequence[Sequence[object]]) -> tuple[int, dict[str, int]] | None:
    """(row index, column code → index) of the first row naming `Тур` and seats 1 … 10."""
    lookup = column_lookup("games")
    for index, row in enumerate(grid[:20]):
        columns: dict[str, int] = {}
        for c, value in enumerate(row):
            text = fold(cell_text(value))
            seat = _SEAT_HEADER.match(text)
            if seat and 1 <= int(seat.group(1)) <= SEATS:
                columns.setdefault(f"seat{int(seat.group(1))}", c)
            elif lookup.get(text) in ("round", "table", "game"):
                columns.setdefault(str(lookup[text]), c)
        if "round" in columns and all(f"seat{s}" in columns for s in range(1, SEATS + 1)):
            return index, columns
    return None


def _no_header(name: str) -> SeatingError:
    return SeatingError(
        Text(
            f"{name}: не найдена строка заголовков «Тур | Стол | Игра | 1 … 10» — "
            "одна строка на игру, ники в порядке мест.",
            f"{name}: no header row «Round | Table | Game | 1 … 10» — one row per game, "
            "nicknames in seat order.",
        )
    )


def _rows(grid: Sequence[Sequence[object]], name: str, sheet: str) -> list[Row]:
    found = _header(grid)
    if found is None:
        raise _no_header(name)
    start, columns = found
    prefix = f"{name}, {sheet}!" if sheet else f"{name}, "
    rows: list[Row] = []
    for index in range(start + 1, len(grid)):
        row = list(grid[index]) + [None] * 40
        wanted = [row[c] for c in columns.values()]
        if all(not cell_text(v).strip() for v in wanted):
            continue
        where = f"{prefix}{column_letter(columns['round'])}{index + 1}"
        cells = tuple(
            f"{prefix}{column_letter(columns[f'seat{s}'])}{index + 1}" for s in range(1, SEATS + 1)
        )
        names = tuple(" ".join(cell_text(row[columns[f"seat{s}"]]).split()) for s in range(1, 11))
        table = _number(row[columns["table"]], cells[0]) if "table" in columns else None
        rows.append(Row(_number(row[columns["round"]], where), table, names, cells, where))
        if len(rows) > MAX_GAMES:
            raise SeatingError(
                Text(f"{name}: больше {MAX_GAMES} игр.", f"{name}: over {MAX_GAMES} games.")
            )
    return rows


def _number(value: object, where: str) -> int:
    text = cell_text(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise SeatingError(
            Text(
                f"{where}: «{text}» — нужен номер (1, 2, 3 …).",
                f"{where}: “{text}” — a number is needed (1, 2, 3 …).",
            )
        )
    return int(text)


def _from_rows(rows: list[Row], name: str, roster: Sequence[str]) -> Schedule:
    if not rows:
        raise SeatingError(
            Text(f"{name}: в рассадке нет игр.", f"{name}: the schedule has no games.")
        )
    players = _Players(roster, name)
    by_round: dict[int, list[Row]] = {}
    for row in rows:
        for seat, (player, cell) in enumerate(zip(row.names, row.cells, strict=True), start=1):
            if not player:
                raise SeatingError(
                    Text(f"{cell}: место {seat} пусто.", f"{cell}: seat {seat} is empty.")
                )
            players.number(player, cell, cell)
        by_round.setdefault(row.round, []).append(row)
    rounds, numbers = [], []
    for number in sorted(by_round):
        games = sorted(by_round[number], key=lambda r: (r.table is None, r.table or 0))
        _check_round(games)
        rounds.append(tuple(tuple(players.index[fold(p)] for p in g.names) for g in games))
        numbers.append(tuple(g.table or i + 1 for i, g in enumerate(games)))
    return Schedule(tuple(players.names), tuple(rounds), tuple(numbers))


def _check_round(games: list[Row]) -> None:
    """Nobody twice in one round, no table twice."""
    seen: dict[str, str] = {}
    tables: set[int] = set()  # folded nickname → its first cell
    for game in games:
        if game.table is not None and game.table in tables:
            raise SeatingError(
                Text(
                    f"{game.where}: стол {game.table} в туре {game.round} второй раз.",
                    f"{game.where}: table {game.table} appears twice in round {game.round}.",
                )
            )
        if game.table is not None:
            tables.add(game.table)
        for player, cell in zip(game.names, game.cells, strict=True):
            if fold(player) in seen:
                first = seen[fold(player)]
                raise SeatingError(
                    Text(
                        f"{cell}: «{player}» в туре {game.round} второй раз (уже {first}).",
                        f"{cell}: “{player}” is seated twice in round {game.round} (also {first}).",
                    )
                )
            seen[fold(player)] = cell


# ---- JSON ----------------------------------------------------------------------------------------


def _load_json(source: Source) -> Any:
    try:
        return json.loads(source.data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise SeatingError(
            Text(
                f"{source.name}: не JSON ({exc}).",
                f"{source.name}: not JSON ({exc}).",
            )
        ) from None


def _from_json(data: Any, roster: Sequence[str], lang: str, name: str) -> Schedule:
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        return _web_schedule(data, roster, lang, name)
    if isinstance(data, dict) and isinstance(data.get("rounds"), list):
        return _own_schedule(data, roster, lang, name)
    raise SeatingError(
        Text(
            f"{name}: нет ни «games» и «rounds» (рассадка web_schedule), ни «rounds» с "
            "«tables» (seat --json).",
            f"{name}: neither «games» with «rounds» (a web_schedule file) nor «rounds» "
            "with «tables» (seat --json).",
        )
    )


def _bad(name: str, path: str, expected: Text) -> SeatingError:
    return SeatingError(
        Text(
            f"{name}: {path} — ожидалось {expected.ru}.",
            f"{name}: {path} — expected {expected.en}.",
        )
    )


def _web_schedule(data: dict[str, Any], roster: Sequence[str], lang: str, name: str) -> Schedule:
    games: dict[object, list[object]] = {}
    for index, game in enumerate(data["games"][:MAX_GAMES]):
        players = game.get("players") if isinstance(game, dict) else None
        if not isinstance(players, list) or len(players) != SEATS:
            raise _bad(name, f"games[{index}].players", Text("10 игроков", "10 players"))
        games[_key(game.get("id", index))] = players
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise _bad(name, "rounds", Text("список туров", "a list of rounds"))
    seated: list[list[list[str]]] = []
    for index, entry in enumerate(rounds):
        ids = entry.get("gameIds") if isinstance(entry, dict) else None
        if not isinstance(ids, list) or any(_key(i) not in games for i in ids):
            raise _bad(name, f"rounds[{index}].gameIds", _GAME_IDS)
        where = f"{name}: rounds[{index}]"
        seated.append([[_label(p, roster, lang, where) for p in games[_key(i)]] for i in ids])
    return _named(name, seated, roster)


def _label(player: object, roster: Sequence[str], lang: str, where: str) -> str:
    """A player number (from 0) named from the roster, or «Игрок n + 1»; a name as typed."""
    if isinstance(player, str) and player.strip():
        return " ".join(player.split())
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        raise SeatingError(
            Text(
                f"{where}: «{player}» — ни номер игрока (с 0), ни ник.",
                f"{where}: “{player}” is neither a player number (from 0) nor a nickname.",
            )
        )
    if not roster:
        return PLAYER_NAME.format(n=player + 1)(lang)
    if player >= len(roster):
        raise SeatingError(
            Text(
                f"{where}: игрок номер {player} (с 0), а в списке игроков {len(roster)}.",
                f"{where}: player number {player} (from 0), but the roster has {len(roster)}.",
            )
        )
    return roster[player]


def _own_schedule(data: dict[str, Any], roster: Sequence[str], lang: str, name: str) -> Schedule:
    rounds: list[list[list[object]]] = []
    numbers: list[tuple[int, ...]] = []
    for index, entry in enumerate(data["rounds"]):
        tables = entry.get("tables") if isinstance(entry, dict) else None
        if not isinstance(tables, list):
            raise _bad(name, f"rounds[{index}].tables", Text("список столов", "a list of tables"))
        games, shown = [], []
        for t, table in enumerate(tables):
            players = table.get("players") if isinstance(table, dict) else None
            if not isinstance(players, list) or len(players) != SEATS:
                raise _bad(
                    name, f"rounds[{index}].tables[{t}].players", Text("10 игроков", "10 players")
                )
            games.append(players)
            number = table.get("table", t + 1)
            shown.append(number if isinstance(number, int) else t + 1)
        rounds.append(games)
        numbers.append(tuple(shown))
    where = f"{name}: rounds"
    named = [[[_label(p, roster, lang, where) for p in g] for g in r] for r in rounds]
    return _named(name, named, roster or _own_players(data, named), tuple(numbers))


def _own_players(data: dict[str, Any], named: list[list[list[str]]]) -> list[str]:
    """Every player of a `seat --json` file in its roster order: the figures' list of
    games per player, then whoever sits out, then whoever plays."""
    figures = data.get("figures")
    games = figures.get("games") if isinstance(figures, dict) else None
    listed = games.get("per_player") if isinstance(games, dict) else None
    order: list[str] = []
    if isinstance(listed, list):
        order += [str(p["player"]) for p in listed if isinstance(p, dict) and "player" in p]
    for entry in data["rounds"]:
        out = entry.get("out") if isinstance(entry, dict) else None
        order += [str(p) for p in out] if isinstance(out, list) else []
    order += [p for r in named for g in r for p in g]
    return list(dict.fromkeys(" ".join(p.split()) for p in order if p.strip()))


def _key(game_id: object) -> str:
    return str(game_id)


_GAME_IDS = Text("номера игр из «games»", "game ids from «games»")


def _named(
    name: str,
    rounds: list[list[list[str]]],
    roster: Sequence[str],
    numbers: tuple[tuple[int, ...], ...] = (),
) -> Schedule:
    """Names → player numbers (the roster's order first); nobody twice in a round."""
    players = _Players(roster, name)
    seated = []
    for r, games in enumerate(rounds, start=1):
        seen: set[int] = set()
        table = []
        for g, game in enumerate(games, start=1):
            numbers_of = [
                players.number(p, f"{name}: тур {r}, стол {g}", f"{name}: round {r}, table {g}")
                for p in game
            ]
            for p, number in zip(game, numbers_of, strict=True):
                if number in seen:
                    raise SeatingError(
                        Text(
                            f"{name}: «{p}» в туре {r} дважды.",
                            f"{name}: “{p}” is seated twice in round {r}.",
                        )
                    )
                seen.add(number)
            table.append(tuple(numbers_of))
        seated.append(tuple(table))
    return Schedule(tuple(players.names), tuple(seated), numbers)


class _Players:
    """Player numbers by name: the roster's players first, in its order, each spelled as
    the roster spells it; without a roster, in order of appearance."""

    def __init__(self, roster: Sequence[str], source: str) -> None:
        self.names = list(roster)
        self.index = {fold(n): i for i, n in enumerate(roster)}
        self.closed = bool(roster)
        self.source = source

    def number(self, player: str, where_ru: str, where_en: str) -> int:
        key = fold(player)
        if not key:
            raise SeatingError(Text(f"{where_ru}: пустое место.", f"{where_en}: an empty seat."))
        if key not in self.index:
            if self.closed:
                raise SeatingError(
                    Text(
                        f"{where_ru}: «{player}» нет в списке игроков.",
                        f"{where_en}: “{player}” is not in the roster.",
                    )
                )
            self.index[key] = len(self.names)
            self.names.append(player)
        return self.index[key]
