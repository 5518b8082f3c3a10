"""`mafia-sheets seat`: a balanced seating schedule, or one made elsewhere, with its
quality figures, a printable plan and a pre-filled protocol."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..errors import MafiaSheetsError
from ..text import Text, terminal

MAX_SEED = 2**32 - 1


def _pairs(values: Sequence[str], option: str) -> list[tuple[str, str]]:
    """`A,B` (or `A,B,C`: every pair of the group) → name pairs."""
    from ..seating.shape import SeatingError

    pairs: list[tuple[str, str]] = []
    for value in values:
        names = [" ".join(n.split()) for n in value.split(",")]
        if len(names) < 2 or not all(names):
            raise SeatingError(
                Text(
                    f"{option} «{value}»: нужны ники через запятую, например {option} Кот,Пёс.",
                    f"{option} “{value}”: nicknames separated by commas are needed, e.g. "
                    f"{option} Cat,Dog.",
                )
            )
        pairs += [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return pairs


def _judges(values: Sequence[str], entrants: list[Any]) -> list[Any]:
    """`--judge NAME:ROUNDS`: the player does not play the rounds they judge."""
    from dataclasses import replace

    from ..seating.restrict import find, parse_rounds
    from ..seating.shape import SeatingError

    for value in values:
        name, _, rounds_text = value.rpartition(":")
        rounds = parse_rounds(rounds_text) if name.strip() else None
        if not rounds:
            raise SeatingError(
                Text(
                    f"--judge «{value}»: нужно НИК:ТУРЫ, например --judge Кот:1,3-4.",
                    f"--judge “{value}”: NAME:ROUNDS is needed, e.g. --judge Cat:1,3-4.",
                )
            )
        index = find(entrants, name.strip(), "--judge")
        entrants[index] = replace(entrants[index], judges=entrants[index].judges | rounds)
    return entrants


def roster_entrants(players: str | None, lang: str) -> list[Any] | None:
    """The roster of `--players`: a file (csv, xlsx, or a players.json), or a count."""
    from ..reading.safety import load_source
    from ..seating.readers import read_people
    from ..seating.restrict import entrant_of, numbered
    from ..template.roster import read_players_file

    if players is None:
        return None
    path = Path(players)
    if players.strip().isdigit() and not path.exists():
        return numbered(int(players), lang)
    if path.suffix.lower() == ".json":
        return [entrant_of(name) for name in read_people(load_source(path))]
    return [
        entrant_of(r.nickname, r.club, r.team, r.city, r.judges, r.aliases)
        for r in read_players_file(path)
    ]


def _seed(seed: int | None) -> int:
    return secrets.randbelow(MAX_SEED + 1) if seed is None else seed


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
    "--apart",
    multiple=True,
    metavar="A,B",
    help="Не сажать вместе (можно много раз) / keep apart (repeatable).",
)
@click.option(
    "--together",
    multiple=True,
    metavar="A,B",
    help="Сажать вместе / keep at one table (repeatable).",
)
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
@click.option(
    "--lang",
    type=click.Choice(["ru", "en"]),
    default="ru",
    show_default=True,
    envvar="MAFIA_SHEETS_LANG",
    help="Язык вывода / output language.",
)
@click.option("--debug", is_flag=True, help="Показать трассировку / show tracebacks.")
def seat(**options: Any) -> None:
    """Рассадка турнира / a balanced seating schedule with its quality figures.

    \b
    mafia-sheets seat --players roster.csv --tables 2 --rounds 10 -o plan.xlsx
    mafia-sheets seat --players 27 --tables 2 --games-per-player 10 --json
    mafia-sheets seat --schedule schedule.json --players roster.csv
    """
    from .commands import fail

    lang, debug = options["lang"], options["debug"]
    try:
        _run(options)
    except MafiaSheetsError as error:
        fail(error, lang, debug)


def _run(options: dict[str, Any]) -> None:
    from ..seating.figures import measure
    from ..seating.shape import SeatingError

    lang = options["lang"]
    inputs = [p for p in (options["schedule_file"], options["players"]) if p]
    for out in (options["plan_out"], options["protocol_out"]):
        if out is not None:
            from .files import guard_output

            guard_output(out, [Path(p) for p in inputs])
    entrants = roster_entrants(options["players"], lang)
    if options["schedule_file"] is None and entrants is None:
        raise SeatingError(
            Text(
                "Укажите --players (файл или число игроков) или --schedule (готовая рассадка).",
                "Give --players (a roster file or a count) or --schedule (a schedule file).",
            )
        )
    schedule, entrants, restrictions, seed = _schedule(options, entrants)
    figures = measure(schedule, restrictions)
    _write_outputs(options, schedule, entrants, figures)
    if options["as_json"]:
        from ..seating.export import schedule_json

        click.echo(
            json.dumps(schedule_json(schedule, figures, lang, seed), ensure_ascii=False, indent=2)
        )
        return
    _say(options, schedule, figures, seed)


def _schedule(
    options: dict[str, Any], entrants: list[Any] | None
) -> tuple[Any, Any, Any, int | None]:
    """The schedule asked for: read from a file, or made; with its restrictions."""
    from ..seating.restrict import entrant_of, restrictions_for

    apart = _pairs(options["apart"], "--apart")
    together = _pairs(options["together"], "--together")
    if options["schedule_file"] is not None:
        from ..reading.safety import load_source
        from ..seating.readers import read_schedule

        names = [e.name for e in entrants] if entrants else []
        schedule = read_schedule(load_source(options["schedule_file"]), names, options["lang"])
        known = {e.name: e for e in entrants or []}
        entrants = [known.get(n) or entrant_of(n) for n in schedule.names]
        entrants = _judges(options["judge"], entrants)
        return schedule, entrants, restrictions_for(entrants, schedule.shape, apart, together), None
    from ..seating.optimise import seat_players
    from ..seating.shape import shape_for
    from .seat_text import Progress

    assert entrants is not None
    entrants = _judges(options["judge"], entrants)
    shape = shape_for(
        len(entrants), options["tables"], options["rounds"], options["games_per_player"]
    )
    restrictions = restrictions_for(entrants, shape, apart, together)
    seed = _seed(options["seed"])
    progress = Progress(options["lang"])
    try:
        schedule = seat_players([e.name for e in entrants], shape, restrictions, seed, progress)
    finally:
        progress.done()
    return schedule, entrants, restrictions, seed


def _write_outputs(options: dict[str, Any], schedule: Any, entrants: Any, figures: Any) -> None:
    from ..seating.wording import line
    from .files import write_atomic

    lang = options["lang"]
    if options["plan_out"] is not None:
        from ..report.plan import plan_workbook

        write_atomic(options["plan_out"], plan_workbook(schedule, figures, lang))
        click.echo(terminal(line("plan_written", lang, path=options["plan_out"])), err=True)
    if options["protocol_out"] is not None:
        from ..template.prefill import prefilled_protocol

        data = prefilled_protocol(schedule, entrants, options["layout"], lang)
        write_atomic(options["protocol_out"], data)
        click.echo(terminal(line("protocol_written", lang, path=options["protocol_out"])), err=True)


def _say(options: dict[str, Any], schedule: Any, figures: Any, seed: int | None) -> None:
    from ..seating.wording import (
        GAMES,
        PLAYERS,
        ROUNDS,
        TABLES,
        figures_text,
        line,
        schedule_text,
    )

    lang = options["lang"]
    shape = schedule.shape
    counts = {
        "players": PLAYERS(shape.players, lang),
        "rounds": ROUNDS(shape.rounds, lang),
        "games": GAMES(shape.games, lang),
    }
    if seed is None:
        head = line("read", lang, file=Path(options["schedule_file"]).name, **counts)
    else:
        head = line("made", lang, tables=TABLES(max(shape.tables), lang), seed=seed, **counts)
    click.echo(terminal(head))
    click.echo(terminal(figures_text(schedule, figures, lang), lines=True))
    if options["plan_out"] is None and options["protocol_out"] is None:
        click.echo(terminal(schedule_text(schedule, lang), lines=True))
