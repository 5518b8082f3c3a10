"""`mafia-sheets rate`: checks, then the standings as a results workbook or JSON."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import click

from ..errors import ExitStatus, MafiaSheetsError
from ..model import Outcome, Rating
from ..rating.lotseed import parse_lot_seed
from ..report.labels import RESULTS_SUFFIX
from ..text import terminal
from . import deadline
from . import text as msg
from .common import (
    DEBUG,
    LANG,
    Run,
    evaluate,
    gathered,
    guard,
    paths,
    say_reading,
    sources,
    write,
)
from .deadline import TIMEOUT


@dataclass(frozen=True)
class RateOptions:
    files: tuple[Path, ...]
    out: Path | None
    as_json: bool
    lot_seed: str | None
    no_stats: bool
    export: str | None
    timeout: float
    lang: str
    debug: bool


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path),
    help="Файл итогов / results workbook (default: <protocol>-итоги.xlsx).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Печатать итоги JSON / print the standings as JSON.",
)
@click.option(
    "--lot-seed",
    metavar="N",
    help="Жребий по числу-затравке / draw lots reproducibly with this seed.",
)
@click.option(
    "--no-stats",
    "no_stats",
    is_flag=True,
    help="Только итоги: без статистики, карточек и встреч / standings only: no "
    "statistics, player cards or head to head.",
)
@click.option(
    "--export",
    type=click.Choice(["mwt", "csv"]),
    help="Вместо книги: игры для world tour (JSON, -o FILE.json) или итоги CSV (-o "
    "FILE.csv) / instead of the workbook: the world tour upload or a CSV of the standings.",
)
@TIMEOUT
@LANG
@DEBUG
@gathered(RateOptions)
def rate(options: RateOptions) -> None:
    """Посчитать итоги и записать книгу результатов / compute the standings and write the
    results workbook.

    Несколько файлов (или папка) — один сезон / several files (or a folder) are one season.
    """
    run, lang = Run(options.lang, options.debug), options.lang
    try:
        seed = None if options.lot_seed is None else parse_lot_seed(options.lot_seed)
    except MafiaSheetsError as error:
        run.fail(error)
    found = paths(options.files, run)
    out = _output(options, found, run)
    deadline.start(options.timeout, lang, [path.name for path in found])
    read = sources(found, run, *_needed(options, out))
    status = msg.Status(lang, total=len(read) + 3)  # read each, check, score, write
    stats = not options.no_stats and options.export is None
    exporting = {"seats": True} if options.export == "mwt" else {}
    outcome = evaluate(read, run, status, lot_seed=seed, stats=stats, **exporting)
    if not options.as_json:  # JSON states it under "read"
        say_reading(outcome, lang)
    if outcome.rating is None:
        _refused(outcome, options, several=len(read) > 1)
    if options.export is not None and out is not None:
        from .exports import write_export

        write_export(options.export, outcome.rating, out, found, run)
        return
    if out is not None:
        status("write")
        try:
            _write_results(out, outcome.rating, found, run)
        finally:
            status.done()
    if options.as_json:
        _print_json(outcome, lang)
    else:
        click.echo(terminal(msg.rating_summary(outcome.rating, out, lang), lines=True))


def _output(options: RateOptions, found: list[Path], run: Run) -> Path | None:
    """Where the results go (judged before anything is read): the workbook by default,
    the export's file with `--export`, nothing with only `--json`."""
    first = Path(options.files[0])
    if options.export is not None:
        from .exports import SUFFIXES, default_export

        target = options.out or default_export(first, options.export, options.lang)
        guard(target, found, run, SUFFIXES[options.export])
        return target
    out = options.out
    if out is None and not options.as_json:
        out = default_output(first, options.lang)
    if out is not None:
        guard(out, found, run)
    return out


def _needed(options: RateOptions, out: Path | None) -> list[str]:
    """What the command goes on to import, imported while the files are scanned."""
    writer = ["mafia_sheets.report.xlsx"] if out is not None and options.export is None else []
    return ["mafia_sheets.pipeline", *writer]


def _refused(outcome: Outcome, options: RateOptions, several: bool) -> NoReturn:
    """Errors block the rating: say them (on stderr beside JSON) and exit 1."""
    if options.as_json:
        _print_json(outcome, options.lang)
    said = msg.findings_text(outcome.findings, options.lang, several=several)
    click.echo(terminal(said, lines=True), err=options.as_json)
    click.echo(msg.line("fix_then_rate", options.lang), err=True)
    sys.exit(int(ExitStatus.FINDINGS))


def _print_json(outcome: Outcome, lang: str) -> None:
    from ..report.json import outcome_json

    click.echo(json.dumps(outcome_json(outcome, lang), ensure_ascii=False, indent=2))


def default_output(first: Path, lang: str) -> Path:
    """`cup.xlsx` → `cup-итоги.xlsx` beside it (a folder: inside it, by its name)."""

    suffix = f"-{RESULTS_SUFFIX(lang)}"
    folder = first if first.is_dir() else first.parent
    stem = first.name if first.is_dir() else first.stem
    return folder / f"{stem}{suffix}.xlsx"


def _write_results(out: Path, rating: Rating, inputs: list[Path], run: Run) -> None:
    from ..report.xlsx import results_workbook

    write(out, inputs, lambda: results_workbook(rating, run.lang), run)
