"""`rate --export mwt|csv`: the rating written for other software instead of the workbook."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from ..errors import MafiaSheetsError
from ..model import Rating
from ..text import Plural, Text, terminal
from .options import fail

SUFFIXES = {"mwt": ".json", "csv": ".csv"}
_STEMS = {"mwt": Text("mwt", "mwt"), "csv": Text("итоги", "results")}
_GAMES = Plural(("игра", "игры", "игр"), ("game", "games"))
_WRITTEN = {
    "mwt": Text(
        "Выгрузка world tour записана: {path} ({games})",
        "World tour upload written: {path} ({games})",
    ),
    "csv": Text("Итоги CSV записаны: {path}", "Results CSV written: {path}"),
}


def default_export(first: Path, kind: str, lang: str) -> Path:
    """`cup-mwt.json`, `cup-итоги.csv` beside the first protocol (or in its folder)."""
    folder = first if first.is_dir() else first.parent
    stem = first.name if first.is_dir() else first.stem
    return folder / f"{stem}-{_STEMS[kind](lang)}{SUFFIXES[kind]}"


def write_export(
    kind: str, rating: Rating, out: Path, inputs: Sequence[Path], lang: str, debug: bool
) -> None:
    """Write the export atomically, then say what it holds and what it leaves empty."""
    from ..formats.csvtable import standings_csv
    from ..formats.mwt import upload_bytes
    from .files import guard_output, write_atomic

    notes: list[Text] = []
    try:
        guard_output(out, inputs, SUFFIXES[kind])
        if kind == "mwt":
            data, notes = upload_bytes(rating)
        else:
            data = standings_csv(rating, lang)
        write_atomic(out, data)
    except MafiaSheetsError as error:
        fail(error, lang, debug)
    games = _GAMES(int((~rating.games["annulled"]).sum()), lang)
    click.echo(terminal(_WRITTEN[kind](lang).format(path=out, games=games)))
    for note in notes:
        click.echo(terminal(f"  {note(lang)}"))
