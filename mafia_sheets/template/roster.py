"""The roster a judge already has (`template --players FILE`): a csv or an xlsx list.

Club secretaries keep player lists in whatever Excel or a registration form exported:
utf-8 or Windows-1251, commas, semicolons or tabs, with or without a header row. We
accept all of those and return clean, de-duplicated roster rows for the template.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from python_calamine import CalamineWorkbook

from ..errors import ProtocolReadError
from ..reading.columns import column_lookup
from ..reading.safety import inspect_workbook, load_source
from ..text import Text, cell_text
from ..vocab import SHEETS, fold


class PlayerRow(NamedTuple):
    """One roster row: nickname, club, city (the last two may be blank)."""

    nickname: str
    club: str = ""
    city: str = ""


TEXT_SUFFIXES = (".csv", ".txt", ".tsv")
BOOK_SUFFIXES = (".xlsx", ".xlsm")
_DELIMITERS = ("\t", ";", ",")  # on equal counts the earlier one wins
# Header words beyond the roster sheet's own names and aliases.
_EXTRA_HEADERS = {
    "имя": "player",
    "никнейм": "player",
    "name": "player",
    "nick": "player",
    "игроки": "player",
    "players": "player",
}
_FIELDS = ("player", "club", "city")


def read_players_file(path: str | os.PathLike[str]) -> list[PlayerRow]:
    """Roster rows from a `.csv` or `.xlsx` file, blank rows skipped, duplicates dropped.

    Raises :class:`ProtocolReadError` with one line saying what is wrong and what to do.
    """
    file = Path(path)
    suffix = file.suffix.lower()
    if not file.is_file():
        raise ProtocolReadError(
            Text(
                f"Файл со списком игроков не найден: {file}. Проверьте путь и имя файла.",
                f"Players file not found: {file}. Check the path and the file name.",
            ),
        )
    if suffix in TEXT_SUFFIXES:
        rows = _csv_rows(file)
    elif suffix in BOOK_SUFFIXES:
        rows = _xlsx_rows(file)
    else:
        raise ProtocolReadError(
            Text(
                f"Файл игроков {file.name}: формат {suffix or '(без расширения)'} не "
                "поддерживается. "
                "Сохраните список как .xlsx или .csv.",
                f"Players file {file.name}: unsupported format {suffix or '(no extension)'}. "
                "Save the list as .xlsx or .csv.",
            ),
        )
    players = roster_from_rows(rows)
    if not players:
        raise ProtocolReadError(
            Text(
                f"В файле игроков {file.name} нет ни одного ника. Впишите по одному нику в строку "
                "в первую колонку (или под заголовок «Игрок»).",
                f"Players file {file.name} has no nicknames. Put one nickname per row "
                "in the first column (or under a «Player» header).",
            ),
        )
    return players


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


def _csv_rows(file: Path) -> list[Sequence[object]]:

    text = _decode(file)
    delimiter = _sniff_delimiter(text)
    return list(csv.reader(text.splitlines(), delimiter=delimiter))


def _decode(file: Path) -> str:
    """utf-8 (with or without BOM) when it decodes, else Windows-1251 (Russian Excel)."""
    data = file.read_bytes()
    if b"\x00" in data[:4096]:
        raise ProtocolReadError(
            Text(
                f"Файл игроков {file.name} не текстовый. Сохраните список как .csv или .xlsx.",
                f"Players file {file.name} is not a text file. Save the list as .csv or .xlsx.",
            ),
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1251")
    except UnicodeDecodeError as exc:
        raise ProtocolReadError(
            Text(
                f"Файл игроков {file.name}: неизвестная кодировка. Сохраните его как CSV UTF-8.",
                f"Players file {file.name}: unknown text encoding. Save it as CSV UTF-8.",
            ),
        ) from exc


def _sniff_delimiter(text: str) -> str:
    """The separator used most in the first lines; a one-column list has none."""
    sample = [line for line in text.splitlines() if line.strip()][:50]
    counts = {d: sum(line.count(d) for line in sample) for d in _DELIMITERS}
    best = max(_DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


# ---- xlsx --------------------------------------------------------------------------------


def _xlsx_rows(file: Path) -> list[Sequence[object]]:
    """The sheet named Игроки/Players when there is one, else the first sheet; read from
    the parts the safety scan judged, like a protocol."""
    source = load_source(file)
    judged = inspect_workbook(source.data, source.name).reader_archive()
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
                f"Файл игроков {file.name} не читается как книга Excel ({exc}). Откройте его "
                "в Excel и сохраните заново как .xlsx или сохраните список как .csv.",
                f"Players file {file.name} cannot be read as an Excel workbook ({exc}). "
                "Open it in Excel and save it again as .xlsx, or save the list as .csv.",
            ),
        ) from exc
