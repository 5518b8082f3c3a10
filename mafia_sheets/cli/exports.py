"""`rate --export mwt|csv`: the rating written for other software instead of the workbook.

Only `rate --export` imports this module, so its formats are imported at the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from ..formats.csvtable import standings_csv
from ..formats.mwt import upload_bytes
from ..model import Rating
from ..text import Plural, Text, terminal
from .common import Run, write

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


def write_export(kind: str, rating: Rating, out: Path, inputs: Sequence[Path], run: Run) -> None:
    """Write the export atomically, then say what it holds and what it leaves empty."""
    notes: list[Text] = []

    def data() -> bytes:
        if kind == "csv":
            return standings_csv(rating, run.lang)
        written, said = upload_bytes(rating)
        notes.extend(said)
        return written

    write(out, inputs, data, run, SUFFIXES[kind])
    games = _GAMES(int((~rating.games["annulled"]).sum()), run.lang)
    click.echo(terminal(_WRITTEN[kind](run.lang).format(path=out, games=games)))
    for note in notes:
        click.echo(terminal(f"  {note(run.lang)}"))
