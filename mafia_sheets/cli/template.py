"""`mafia-sheets template`: a blank protocol workbook in any layout."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from ..errors import MafiaSheetsError
from ..text import terminal
from . import text as msg
from .common import DEBUG, FORCE, LANG, LAYOUT, Run, gathered
from .files import guard_new_protocol, guard_output, write_atomic

# `--help` imports this module: the command's library is imported when the command runs.


@dataclass(frozen=True)
class TemplateOptions:
    out: Path
    games: int
    players_file: Path | None
    layout: str
    tables: int
    force: bool
    lang: str
    debug: bool


@click.command()
@click.argument("out", type=click.Path(path_type=Path))
@click.option(
    "--games",
    type=click.IntRange(0, 10_000),
    default=0,
    show_default=True,
    help="Заготовить N игр с местами 1–10 / pre-fill N games with seats 1–10.",
)
@click.option(
    "--players",
    "players_file",
    type=click.Path(path_type=Path),
    help="Список игроков, csv, xlsx или ods / roster file, csv, xlsx or ods.",
)
@LAYOUT
@click.option(
    "--tables",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Столов (номера игр по столам) / tables (games numbered per table).",
)
@FORCE
@LANG
@DEBUG
@gathered(TemplateOptions)
def template(options: TemplateOptions) -> None:
    """Записать пустой протокол турнира / write a blank protocol workbook.

    --layout blank: по листу на игру (по умолчанию 10 игр) / one sheet per game (10 by
    default); --layout wide: строка на игру / one row per game.
    """
    from ..template.layouts import empty_games, write_games
    from ..template.roster import read_players_file
    from ..template.workbook import build_template

    run = Run(options.lang, options.debug)
    games = options.games
    try:
        inputs = [options.players_file] if options.players_file else []
        guard_output(options.out, inputs)
        guard_new_protocol(options.out, options.force)
        players = read_players_file(options.players_file) if options.players_file else []
        if options.layout == "rows":
            data = build_template(options.lang, games, players)
        else:
            games = games or 10
            data = write_games(
                options.layout, empty_games(games, options.tables), options.lang, players
            )
        write_atomic(options.out, data)
    except MafiaSheetsError as error:
        run.fail(error)
    said = msg.line("template_written", options.lang)
    click.echo(terminal(said.format(path=options.out, games=games, players=len(players))))
