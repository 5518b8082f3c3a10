"""`mafia-sheets seat`: a balanced seating schedule, or one made elsewhere, with its
quality figures, a printable plan and a pre-filled protocol."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import MafiaSheetsError, OutputWriteError
from ..reading.safety import load_source
from ..text import Text, terminal
from .common import DEBUG, FORCE, LANG, Run, gathered
from .files import guard_new_protocol, guard_output, write_atomic

if TYPE_CHECKING:
    from ..seating.model import Entrant
    from ..seating.run import Ask, Seated

# `--help` imports this module: the command's library is imported when the command runs.

MAX_SEED = 2**32 - 1  # the seeds numpy's generator takes, as `--lot-seed`


@dataclass(frozen=True)
class SeatOptions:
    players: str | None
    tables: int | None
    rounds: int | None
    games_per_player: int | None
    seed: int | None
    effort: float
    apart: tuple[str, ...]
    together: tuple[str, ...]
    judge: tuple[str, ...]
    schedule_file: Path | None
    as_json: bool
    plan_out: Path | None
    protocol_out: Path | None
    layout: str
    force: bool
    lang: str
    debug: bool


@click.command()
@click.option(
    "--players",
    metavar="FILE|N",
    help="Список игроков (csv, xlsx, players.json) или их число / roster file, or a count.",
)
@click.option(
    "--tables",
    type=click.IntRange(1, 200),
    help="Столов в туре (по умолчанию — сколько наберётся) / tables a round.",
)
@click.option("--rounds", type=click.IntRange(1, 200), help="Туров / rounds.")
@click.option(
    "--games-per-player",
    type=click.IntRange(1, 200),
    help="Игр на игрока вместо --rounds / games per player instead of --rounds.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    help="Затравка: та же рассадка при повторе / seed: the same schedule again.",
)
@click.option(
    "--effort",
    type=click.FloatRange(0.01, 20),
    default=1.0,
    show_default=True,
    help="Длина поиска: больше — дольше и, может быть, лучше / search length: more is "
    "slower and may be better.",
)
@click.option(
    "--apart",
    multiple=True,
    metavar="A,B",
    help="Не сажать вместе (можно много раз) / keep apart (repeatable).",
)
@click.option("--together", multiple=True, metavar="A,B", help="Сажать вместе / keep at one table.")
@click.option(
    "--judge",
    multiple=True,
    metavar="NAME:ROUNDS",
    help="Игрок судит эти туры и не играет их / a player judging these rounds.",
)
@click.option(
    "--schedule",
    "schedule_file",
    type=click.Path(path_type=Path),
    help="Готовая рассадка (xlsx, csv, json) / a schedule made elsewhere.",
)
@click.option("--json", "as_json", is_flag=True, help="Вывод JSON / print JSON.")
@click.option(
    "-o",
    "--output",
    "plan_out",
    type=click.Path(path_type=Path),
    help="План рассадки для печати / the printable seating plan (.xlsx).",
)
@click.option(
    "--protocol",
    "protocol_out",
    type=click.Path(path_type=Path),
    help="Протокол с рассаженными игроками / a protocol pre-filled with the seating.",
)
@click.option(
    "--layout",
    type=click.Choice(["rows", "blank", "wide"]),
    default="rows",
    show_default=True,
    help="Вид протокола / the protocol's layout.",
)
@FORCE
@LANG
@DEBUG
@gathered(SeatOptions)
def seat(options: SeatOptions) -> None:
    """Рассадка турнира / a balanced seating schedule with its quality figures.

    \b
    mafia-sheets seat --players roster.csv --tables 2 --rounds 10 -o plan.xlsx
    mafia-sheets seat --players 27 --tables 2 --games-per-player 10 --json
    mafia-sheets seat --schedule schedule.json --players roster.csv
    """
    try:
        _guard(options)
        seated = _seated(options, roster_entrants(options.players, options.lang), _ask(options))
        _write_outputs(options, seated)
    except MafiaSheetsError as error:
        Run(options.lang, options.debug).fail(error)
    if options.as_json:
        from ..seating.export import schedule_json

        data = schedule_json(seated.schedule, seated.figures, options.lang, seated.seed)
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        _say(options, seated)


def roster_entrants(players: str | None, lang: str) -> list[Entrant] | None:
    """The roster of `--players`: a file (csv, xlsx, or a players.json), or a count."""
    from ..seating.restrict import numbered
    from ..template.roster import entrants, missing_players_file

    if players is None:
        return None
    path = Path(players)
    if players.strip().isdigit() and not path.exists():
        return numbered(int(players), lang)
    if not path.is_file():
        raise missing_players_file(path)
    source = load_source(path)
    return entrants(source.name, source.data)


def _guard(options: SeatOptions) -> None:
    """The outputs are judged before anything is made: never over an input, and never
    one over the other (the protocol, written second, would replace the plan)."""
    inputs = [Path(p) for p in (options.schedule_file, options.players) if p]
    for out in (options.plan_out, options.protocol_out):
        if out is not None:
            guard_output(out, inputs)
    plan, protocol = options.plan_out, options.protocol_out
    if protocol is not None:
        guard_new_protocol(protocol, options.force)
    if plan is not None and protocol is not None and _one_file(plan, protocol):
        raise OutputWriteError(
            Text(
                f"-o и --protocol указывают на один файл {protocol}: план рассадки и протокол "
                "— две разные книги. Дайте им разные имена, например plan.xlsx и cup.xlsx.",
                f"-o and --protocol name one file, {protocol}: the seating plan and the "
                "protocol are two workbooks. Give them different names, e.g. plan.xlsx and "
                "cup.xlsx.",
            )
        )


def _one_file(one: Path, other: Path) -> bool:
    """Whether two output paths lead to one file (also through links, or `./`)."""
    try:
        return os.path.samefile(one, other)
    except OSError:  # not written yet (the usual case): compare where the paths lead
        pass
    try:
        return os.path.normcase(one.resolve()) == os.path.normcase(other.resolve())
    except (OSError, RuntimeError):  # a link loop: writing it will say so
        return False


def _ask(options: SeatOptions) -> Ask:
    from ..seating.run import Ask, name_pairs

    return Ask(
        options.tables,
        options.rounds,
        options.games_per_player,
        options.seed,
        name_pairs(options.apart, "--apart"),
        name_pairs(options.together, "--together"),
        options.judge,
        options.effort,
    )


def _seated(options: SeatOptions, entrants: list[Entrant] | None, ask: Ask) -> Seated:
    """The schedule read from a file and judged, or made, with a progress line."""
    from ..seating import run
    from ..seating.shape import SeatingError

    if options.schedule_file is not None:
        from ..seating.readers import read_schedule

        names = [e.name for e in entrants] if entrants else []
        source = load_source(options.schedule_file)
        return run.judge(read_schedule(source, names, options.lang), entrants, ask)
    if entrants is None:
        raise SeatingError(
            Text(
                "Укажите --players (файл или число игроков) или --schedule (готовая рассадка).",
                "Give --players (a roster file or a count) or --schedule (a schedule file).",
            )
        )
    from .seat_text import Progress

    progress = Progress(options.lang)
    try:
        return run.make(entrants, ask, progress)
    finally:
        progress.done()


def _write_outputs(options: SeatOptions, seated: Seated) -> None:
    from ..seating.wording import line

    lang = options.lang
    if options.plan_out is not None:
        from ..report.plan import plan_workbook

        write_atomic(options.plan_out, plan_workbook(seated.schedule, seated.figures, lang))
        click.echo(terminal(line("plan_written", lang, path=options.plan_out)), err=True)
    if options.protocol_out is not None:
        from ..template.prefill import prefilled_protocol

        data = prefilled_protocol(seated.schedule, seated.entrants, options.layout, lang)
        write_atomic(options.protocol_out, data)
        said = line("protocol_written", lang, path=options.protocol_out)
        click.echo(terminal(said), err=True)


def _say(options: SeatOptions, seated: Seated) -> None:
    from ..seating.wording import (
        GAMES,
        PLAYERS,
        ROUNDS,
        TABLES,
        figures_text,
        line,
        schedule_text,
    )

    lang = options.lang
    schedule, shape = seated.schedule, seated.schedule.shape
    counts = {
        "players": PLAYERS(shape.players, lang),
        "rounds": ROUNDS(shape.rounds, lang),
        "games": GAMES(shape.games, lang),
    }
    if seated.seed is None:
        assert options.schedule_file is not None
        head = line("read", lang, file=options.schedule_file.name, **counts)
    else:
        tables = TABLES(max(shape.tables), lang)
        head = line("made", lang, tables=tables, seed=seated.seed, **counts)
    click.echo(terminal(head))
    click.echo(terminal(figures_text(schedule, seated.figures, lang), lines=True))
    if options.plan_out is None and options.protocol_out is None:
        click.echo(terminal(schedule_text(schedule, lang), lines=True))
