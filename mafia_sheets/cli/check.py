"""`mafia-sheets check`: every mistake with its cell; exit 0 clean, 1 errors, 2 unusable."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from ..errors import ExitStatus, MafiaSheetsError
from ..model import Outcome, Source
from ..reading.safety import inspect_workbook
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
class CheckOptions:
    files: tuple[Path, ...]
    annotate_out: Path | None
    as_json: bool
    timeout: float
    lang: str
    debug: bool


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--annotate",
    "annotate_out",
    type=click.Path(path_type=Path),
    help="Копия протокола с пометками / an annotated copy of the protocol.",
)
@click.option("--json", "as_json", is_flag=True, help="Вывод JSON / print JSON.")
@TIMEOUT
@LANG
@DEBUG
@gathered(CheckOptions)
def check(options: CheckOptions) -> None:
    """Найти ошибки в протоколах / report every mistake with its cell.

    Коды выхода / exit codes: 0 — чисто / clean, 1 — есть ошибки / errors found,
    2 — файл не читается / unusable input.
    """

    run, lang = Run(options.lang, options.debug), options.lang
    found = paths(options.files, run)
    out = options.annotate_out
    if out is not None:
        if len(found) != 1:
            run.fail(MafiaSheetsError(msg.LINES["annotate_one"]))
        guard(out, found, run)
    deadline.start(options.timeout, lang, [path.name for path in found])
    read = sources(found, run, "mafia_sheets.pipeline")
    judged = _check_annotatable(read[0], run) if out is not None else None
    outcome = evaluate(read, run, msg.Status(lang, total=len(read) + 1), rate=False)
    if out is not None and judged is not None:
        _write_annotated(out, judged, outcome, found, run)
    if options.as_json:
        _print_json(outcome, lang)
    else:
        say_reading(outcome, lang)
        headers = msg.headers_text(outcome.headers, outcome.findings, lang)
        if headers:
            click.echo(headers)
        several = len(read) > 1
        click.echo(terminal(msg.findings_text(outcome.findings, lang, several), lines=True))
    sys.exit(int(ExitStatus.FINDINGS if outcome.errors else ExitStatus.OK))


def _print_json(outcome: Outcome, lang: str) -> None:
    from ..report.json import findings_json

    click.echo(json.dumps(findings_json(outcome, lang), ensure_ascii=False, indent=2))


def _check_annotatable(source: Source, run: Run) -> Source:
    """openpyxl's copy is bounded too (MAX_ANNOTATE_CELLS): refused before any work. The
    copy is made from the parts the scan judged, exactly as judged."""

    try:
        scan = inspect_workbook(source.data, source.name, annotate=True)
    except MafiaSheetsError as error:
        run.fail(error)
    return Source(source.name, scan.copy_archive())


def _write_annotated(
    out: Path, source: Source, outcome: Outcome, inputs: Sequence[Path], run: Run
) -> None:
    from ..report.annotate import annotate_workbook

    write(out, inputs, lambda: annotate_workbook(source, outcome.findings, run.lang), run)
    from ..report.odscopy import is_ods

    said = "annotated_from_ods" if is_ods(source.data) else "annotated_written"
    click.echo(terminal(msg.line(said, run.lang).format(path=out)), err=True)
