"""The roster a judge already has (`template --players FILE`): a csv or an xlsx list.

Club secretaries keep player lists in whatever Excel or a registration form exported:
utf-8 or Windows-1251, commas, semicolons or tabs, with or without a header row. We
accept all of those and return clean, de-duplicated roster rows for the template.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePath
from typing import NamedTuple

from python_calamine import CalamineWorkbook

from ..errors import ProtocolReadError
from ..model import Source
from ..reading.columns import column_lookup
from ..reading.safety import inspect_workbook
from ..reading.textfile import csv_rows
from ..seating.model import Entrant
from ..seating.readers import read_people
from ..seating.restrict import entrant_of
from ..text import Text, cell_text
from ..vocab import SHEETS, fold


class PlayerRow(NamedTuple):
    """One roster row: nickname, club, city, and what seating and the rating read beside
    them (team, the rounds judged, other spellings); all but the nickname may be blank."""

    nickname: str
    club: str = ""
    city: str = ""
    team: str = ""
    judges: str = ""
    aliases: str = ""


TEXT_SUFFIXES = (".csv", ".txt", ".tsv")
BOOK_SUFFIXES = (".xlsx", ".xlsm", ".ods")
# Header words beyond the roster sheet's own names and aliases.
_EXTRA_HEADERS = {
    "имя": "player",
    "никнейм": "player",
    "name": "player",
    "nick": "player",
    "игроки": "player",
    "players": "player",
}
_FIELDS = ("player", "club", "city", "team", "judges", "aliases")


def read_players_file(path: str | os.PathLike[str]) -> list[PlayerRow]:
    """Roster rows from a `.csv`, `.xlsx` or `.ods` file, blank rows skipped, duplicates
    dropped.

    Raises :class:`ProtocolReadError` with one line saying what is wrong and what to do.
    """
    file = Path(path)
    if not file.is_file():
        raise missing_players_file(file)
    return read_players(file.name, file.read_bytes())


def missing_players_file(file: Path) -> ProtocolReadError:
    return ProtocolReadError(
        Text(
            f"Файл со списком игроков не найден: {file}. Проверьте путь и имя файла.",
            f"Players file not found: {file}. Check the path and the file name.",
        ),
    )


def read_players(name: str, data: bytes) -> list[PlayerRow]:
    """Roster rows from the bytes of a `.csv`, `.xlsx` or `.ods` file named `name`."""
    suffix = PurePath(name).suffix.lower()
    if suffix in TEXT_SUFFIXES:
        rows = _csv_rows(name, data)
    elif suffix in BOOK_SUFFIXES:
        rows = _xlsx_rows(name, data)
    else:
        raise ProtocolReadError(
            Text(
                f"Файл игроков {name}: формат {suffix or '(без расширения)'} не "
                "поддерживается. "
                "Сохраните список как .xlsx, .ods или .csv.",
                f"Players file {name}: unsupported format {suffix or '(no extension)'}. "
                "Save the list as .xlsx, .ods or .csv.",
            ),
        )
    players = roster_from_rows(rows)
    if not players:
        raise ProtocolReadError(
            Text(
                f"В файле игроков {name} нет ни одного ника. Впишите по одному нику в строку "
                "в первую колонку (или под заголовок «Игрок»).",
                f"Players file {name} has no nicknames. Put one nickname per row "
                "in the first column (or under a «Player» header).",
            ),
        )
    return players


def entrants(name: str, data: bytes) -> list[Entrant]:
    """The roster as seating reads it: csv or xlsx as above, or a `players.json`
    (`{"people": [{"id", "name"}]}`, the seating tools' roster)."""
    if PurePath(name).suffix.lower() == ".json":
        return [entrant_of(n) for n in read_people(Source(name, data))]
    return [
        entrant_of(r.nickname, r.club, r.team, r.city, r.judges, r.aliases)
        for r in read_players(name, data)
    ]


def roster_from_rows(rows: Iterable[Sequence[object]]) -> list[PlayerRow]:
    """Roster rows from a grid of cells; the first non-blank row may be a header."""
    grid = [[_text(cell) for cell in row] for row in rows]
    grid = [row for row in grid if any(row)]
    if not grid:
        return []
    positions = _header_positions(grid[0])
    if positions is None:
        positions = {"player": 0, "club": 1, "city": 2}
    else:
        grid = grid[1:]
    players: list[PlayerRow] = []
    seen: set[str] = set()
    for row in grid:
        player = PlayerRow(*(_pick(row, positions.get(name)) for name in _FIELDS))
        key = fold(player.nickname)
        if key and key not in seen:
            seen.add(key)
            players.append(player)
    return players


def _header_positions(first: Sequence[str]) -> dict[str, int] | None:
    """Column positions when `first` is a header row, else None."""
    lookup = {**column_lookup("players"), **_EXTRA_HEADERS}
    positions: dict[str, int] = {}
    for index, cell in enumerate(first):
        code = lookup.get(fold(cell))
        if code in _FIELDS and code not in positions:
            positions[code] = index
    if not positions:
        return None
    # A header such as «№; Имя участника; Клуб» names the club but not the nickname:
    # the nickname is then the first column the header did not claim.
    if "player" not in positions:
        claimed = set(positions.values())
        positions["player"] = next(i for i in range(len(first) + 1) if i not in claimed)
    return positions


def _pick(row: Sequence[str], index: int | None) -> str:
    return row[index] if index is not None and index < len(row) else ""


def _text(cell: object) -> str:
    """A cell as the judge sees it: `12.0` read from Excel is the nickname `12`."""
    return " ".join(cell_text(cell).split())


# ---- csv ---------------------------------------------------------------------------------


def _csv_rows(name: str, data: bytes) -> list[Sequence[object]]:
    return list(csv_rows(data, Text(f"Файл игроков {name}", f"Players file {name}")))


# ---- xlsx --------------------------------------------------------------------------------


def _xlsx_rows(file: str, data: bytes) -> list[Sequence[object]]:
    """The sheet named Игроки/Players when there is one, else the first sheet; read from
    the parts the safety scan judged, like a protocol."""
    judged = inspect_workbook(data, file).reader_archive()
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(judged))
        names = book.sheet_names
        wanted = {fold(SHEETS["players"](lang)) for lang in ("ru", "en")}
        name = next((n for n in names if fold(n) in wanted), names[0] if names else None)
        if name is None:
            return []
        return list(book.get_sheet_by_name(name).to_python())
    except Exception as exc:  # calamine raises several unrelated types for a bad zip
        raise ProtocolReadError(
            Text(
                f"Файл игроков {file} не читается как книга Excel ({exc}). Откройте его "
                "в Excel и сохраните заново как .xlsx или сохраните список как .csv.",
                f"Players file {file} cannot be read as an Excel workbook ({exc}). "
                "Open it in Excel and save it again as .xlsx, or save the list as .csv.",
            ),
        ) from exc
