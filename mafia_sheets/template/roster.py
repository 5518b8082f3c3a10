"""The roster a judge already has (`template --players FILE`): a csv or an xlsx list.

Club secretaries keep player lists in whatever Excel or a registration form exported:
utf-8 or Windows-1251, commas, semicolons or tabs, with or without a header row. We
accept all of those and return clean roster rows for the template. A nickname listed twice
(or spelt twice alike, `Кот` and `кот `) is refused naming its lines, never merged: a
merged line would change the count of players, and two look-alike nicknames are two rating
rows no judge can tell apart (:mod:`..seating.repeats`).
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
from ..seating.repeats import repeated, repeats_text
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
    """Roster rows from a `.csv`, `.xlsx` or `.ods` file, blank rows skipped; a nickname
    listed twice is refused (see :func:`roster_from_rows`).

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
        rows, first, unit = _csv_rows(name, data), 1, _LINE
    elif suffix in BOOK_SUFFIXES:
        (rows, first), unit = _xlsx_rows(name, data), _ROW
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
    what = Text(f"Файл игроков {name}", f"Players file {name}")
    players = roster_from_rows(rows, what, first, unit)
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


# the word for one line and for several, of a text file and of a sheet
_LINE = (Text("строка", "line"), Text("строки", "lines"))
_ROW = (Text("строка", "row"), Text("строки", "rows"))
_A_ROSTER = Text("Список игроков", "The roster")


def roster_from_rows(
    rows: Iterable[Sequence[object]],
    what: Text = _A_ROSTER,
    first: int = 1,
    unit: tuple[Text, Text] = _ROW,
) -> list[PlayerRow]:
    """Roster rows from a grid of cells (its first row is row `first` of the file); the
    first non-blank row may be a header.

    A nickname on two lines, alike once case, spacing, «ё» and look-alike letters are
    folded, is refused naming both lines (`what`: the file, as the refusal names it):
    before anything is written, the judge says whether it is one player or two.
    """
    numbered = [(first + index, [_text(cell) for cell in row]) for index, row in enumerate(rows)]
    numbered = [(line, row) for line, row in numbered if any(row)]
    if not numbered:
        return []
    positions = _header_positions(numbered[0][1])
    if positions is None:
        positions = {"player": 0, "club": 1, "city": 2}
    else:
        numbered = numbered[1:]
    lined = [
        (line, PlayerRow(*(_pick(row, positions.get(name)) for name in _FIELDS)))
        for line, row in numbered
    ]
    lined = [(line, player) for line, player in lined if player.nickname]
    twice = repeated((line, player.nickname) for line, player in lined)
    if twice:
        raise ProtocolReadError(repeats_text(what, twice, unit))
    return [player for _, player in lined]


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


def _xlsx_rows(file: str, data: bytes) -> tuple[list[Sequence[object]], int]:
    """The sheet named Игроки/Players when there is one, else the first sheet, and the
    sheet's row its first row is (calamine starts at the first used cell); read from the
    parts the safety scan judged, like a protocol."""
    judged = inspect_workbook(data, file).reader_archive()
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(judged))
        names = book.sheet_names
        wanted = {fold(SHEETS["players"](lang)) for lang in ("ru", "en")}
        name = next((n for n in names if fold(n) in wanted), names[0] if names else None)
        if name is None:
            return [], 1
        sheet = book.get_sheet_by_name(name)
        start = sheet.start
        return list(sheet.to_python()), (start[0] + 1 if start else 1)
    except Exception as exc:  # calamine raises several unrelated types for a bad zip
        raise ProtocolReadError(
            Text(
                f"Файл игроков {file} не читается как книга Excel ({exc}). Откройте его "
                "в Excel и сохраните заново как .xlsx или сохраните список как .csv.",
                f"Players file {file} cannot be read as an Excel workbook ({exc}). "
                "Open it in Excel and save it again as .xlsx, or save the list as .csv.",
            ),
        ) from exc
