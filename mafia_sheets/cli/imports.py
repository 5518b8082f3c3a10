"""`mafia-sheets import`: other software's game records as a protocol workbook.

The command only parses its arguments and calls the library: :func:`formats.import_games`
recognises and reads each file, the template's writers lay the games out, and what could
not be placed is printed one line per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import MafiaSheetsError
from ..text import Plural, Text, terminal
from .common import DEBUG, LANG, Run, gathered

if TYPE_CHECKING:
    from ..formats.base import Imported

_GAMES = Plural(("игра", "игры", "игр"), ("game", "games"))
_LINES = {
    "read": Text("{file}: прочитано: {format}, {games}", "{file}: read: {format}, {games}"),
    "lost": Text(
        "Не перенесено в протокол (нет места в протоколе):",
        "Not carried into the protocol (it has no place for them):",
    ),
    "written": Text(
        "Протокол записан: {path} ({games}). Проверьте: mafia-sheets check {path}",
        "Protocol written: {path} ({games}). Check it: mafia-sheets check {path}",
    ),
    "no_games": Text(
        "В файлах нет сыгранных игр — протокол не записан.",
        "The files hold no played games — no protocol written.",
    ),
}


@dataclass(frozen=True)
class ImportOptions:
    files: tuple[Path, ...]
    out: Path
    layout: str
    lang: str
    debug: bool


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="Протокол для записи / the protocol workbook to write (.xlsx).",
)
@click.option(
    "--layout",
    type=click.Choice(["rows", "blank", "wide"]),
    default="rows",
    show_default=True,
    help="rows — строка на место; blank — бланк на игру; wide — строка на игру / one row "
    "per seat; one sheet per game; one row per game.",
)
@LANG
@DEBUG
@gathered(ImportOptions)
def import_command(options: ImportOptions) -> None:
    """Игры из других программ — в протокол / other software's games as a protocol.

    Читает JSON сайта рейтинга, онлайн-платформ и выгрузку world tour; формат
    распознаётся сам / reads the rating site's, the online platforms' and the world
    tour's JSON; the format is recognised, not configured.
    """
    from ..formats import import_games
    from ..formats.base import lost_lines
    from ..reading.safety import load_source
    from ..template.layouts import write_games
    from .files import guard_output, write_atomic

    run, lang = Run(options.lang, options.debug), options.lang
    try:
        guard_output(options.out, options.files)
        imported = import_games([load_source(path) for path in options.files])
        for name, kind, games in imported.read:
            said = _LINES["read"](lang).format(
                file=name, format=kind(lang), games=_GAMES(games, lang)
            )
            click.echo(terminal(said))
        if not imported.games:
            raise MafiaSheetsError(_LINES["no_games"])
        settings = _settings(imported, options.files[0])
        write_atomic(
            options.out, write_games(options.layout, imported.games, lang, settings=settings)
        )
    except MafiaSheetsError as error:
        run.fail(error)
    lines = lost_lines(imported.lost, lang)
    if lines:
        click.echo(_LINES["lost"](lang))
        click.echo(terminal("\n".join(f"  {text}" for text in lines), lines=True))
    count = _GAMES(len(imported.games), lang)
    click.echo(terminal(_LINES["written"](lang).format(path=options.out, games=count)))


def _settings(imported: Imported, first: Path) -> dict[str, Any]:
    """The tournament's name (the source's, else the first file's) and the edition its
    games were scored by, when the source says or implies it."""
    return {"name": imported.name or first.stem}
