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
from ..reading.files import each_once
from ..reading.safety import load_source
from ..rules import find_edition, load_rules, presets
from ..text import Plural, Text, terminal
from .common import DEBUG, FORCE, LANG, LAYOUT, Run, gathered
from .files import guard_new_protocol, guard_output, write_atomic

if TYPE_CHECKING:
    from ..formats.base import Imported

# `--help` imports this module: the command's library is imported when the command runs.

_GAMES = Plural(("игра", "игры", "игр"), ("game", "games"))
_LINES = {
    "read": Text("{file}: прочитано: {format}, {games}", "{file}: read: {format}, {games}"),
    "lost": Text(
        "Не перенесено в протокол (нет места в протоколе):",
        "Not carried into the protocol (it has no place for them):",
    ),
    "wrong": Text(
        "Значения с ошибкой в записях игр (где стоят и что с ними сделано):",
        "Values the game records hold wrongly (where each stands and what was done with it):",
    ),
    "written": Text(
        "Протокол записан: {path} ({games}). Проверьте: mafia-sheets check {path}",
        "Protocol written: {path} ({games}). Check it: mafia-sheets check {path}",
    ),
    "no_games": Text(
        "В файлах нет сыгранных игр — протокол не записан.",
        "The files hold no played games — no protocol written.",
    ),
    "assumed": Text(
        "Правила: «{edition}» — в этих записях игр правила подсчёта не указаны, взяты "
        "правила, по которым их считает {whose}; другие — --rules или «Правила» на листе "
        "«Турнир».",
        "Rules: “{edition}” — these game records do not say how they were scored; these are "
        "the rules {whose} scores them by; others — --rules or «Rules» on the Tournament "
        "sheet.",
    ),
    "chosen": Text("Правила: «{edition}» (--rules).", "Rules: “{edition}” (--rules)."),
}
_WHOSE = {
    True: Text("сайт рейтинга", "the rating site"),
    False: Text("этот протокол по умолчанию", "this protocol by default"),
}


@dataclass(frozen=True)
class ImportOptions:
    files: tuple[Path, ...]
    out: Path
    layout: str
    rules: str | None
    force: bool
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
@LAYOUT
@click.option(
    "--rules",
    metavar="NAME",
    help="Правила подсчёта для протокола (список: mafia-sheets rules) / the scoring edition "
    "the protocol carries (list: mafia-sheets rules).",
)
@FORCE
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
    from ..template.layouts import write_games

    run, lang = Run(options.lang, options.debug), options.lang
    try:
        guard_output(options.out, options.files)
        guard_new_protocol(options.out, options.force)
        edition = _edition(options.rules)
        read = each_once([load_source(path) for path in options.files], options.files)
        imported = import_games(read, edition)
        for name, kind, games in imported.read:
            said = _LINES["read"](lang).format(
                file=name, format=kind(lang), games=_GAMES(games, lang)
            )
            click.echo(terminal(said))
        if not imported.games:
            raise MafiaSheetsError(_LINES["no_games"])
        settings = _settings(imported, options.files[0], lang)
        write_atomic(
            options.out, write_games(options.layout, imported.games, lang, settings=settings)
        )
    except MafiaSheetsError as error:
        run.fail(error)
    click.echo(terminal(_edition_line(imported, lang)))
    # what has no column, then what the source wrote wrongly, each under its own heading
    for heading, placed in (("lost", False), ("wrong", True)):
        lines = lost_lines([i for i in imported.lost if (i.at is not None) == placed], lang)
        if lines:
            click.echo(_LINES[heading](lang))
            click.echo(terminal("\n".join(f"  {text}" for text in lines), lines=True))
    count = _GAMES(len(imported.games), lang)
    click.echo(terminal(_LINES["written"](lang).format(path=options.out, games=count)))


def _settings(imported: Imported, first: Path, lang: str) -> dict[str, Any]:
    """The tournament's name (the source's, else the first file's) and the scoring edition
    the games are rated by («Правила»)."""
    edition = load_rules(imported.edition).edition
    return {"name": imported.name or first.stem, "edition": edition.name(lang)}


def _edition(name: str | None) -> str | None:
    """The edition `--rules` names, by its code; an unknown name is one line listing them."""
    if name is None:
        return None
    found = find_edition(name)
    if found is None:
        known = ", ".join(f"«{r.edition.name.ru}»" for r in presets().values())
        known_en = ", ".join(f"“{r.edition.name.en}”" for r in presets().values())
        raise MafiaSheetsError(
            Text(
                f"Нет правил «{name}». Есть: {known} (mafia-sheets rules).",
                f"No rules “{name}”. There are: {known_en} (mafia-sheets rules).",
            )
        )
    return found.edition.code


def _edition_line(imported: Imported, lang: str) -> str:
    from ..formats import RATING_SITE_EDITION

    edition = load_rules(imported.edition).edition.name(lang)
    if not imported.assumed:
        return _LINES["chosen"](lang).format(edition=edition)
    whose = _WHOSE[imported.edition == RATING_SITE_EDITION](lang)
    return _LINES["assumed"](lang).format(edition=edition, whose=whose)
