"""The `mafia-sheets` command: parse arguments, call the library, report, exit.

Heavy libraries (pandas, openpyxl, xlsxwriter) are imported inside the commands so that
`--help` answers at once.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from ..errors import ExitStatus, MafiaSheetsError
from ..text import terminal
from . import text as msg

LANG = click.option(
    "--lang",
    type=click.Choice(["ru", "en"]),
    default="ru",
    show_default=True,
    envvar="MAFIA_SHEETS_LANG",
    help="Язык вывода / output language.",
)
DEBUG = click.option(
    "--debug",
    is_flag=True,
    hidden=False,
    help="Показать трассировку ошибок / show tracebacks (for bug reports).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mafia-sheets")
def main() -> None:
    """Итоги турнира по спортивной мафии (регламент ФИИМ) из протоколов Excel.

    Exact FIIM sport-mafia standings from Excel game protocols.

    \b
    1. mafia-sheets template protocol.xlsx    — пустой протокол / a blank protocol
    2. mafia-sheets check protocol.xlsx       — найти ошибки / find mistakes
    3. mafia-sheets rate protocol.xlsx        — итоги / the results workbook
    4. mafia-sheets serve                     — страница в браузере / the web page
    """


def fail(error: MafiaSheetsError, lang: str, debug: bool) -> NoReturn:
    """One line on stderr and exit 2; the traceback only with --debug."""
    if debug:
        raise error
    click.echo(terminal(msg.line("error_prefix", lang) + error.text(lang)), err=True)
    sys.exit(int(error.exit_status))


@main.command()
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
    help="Список игроков, csv или xlsx / roster file, csv or xlsx.",
)
@click.option(
    "--layout",
    type=click.Choice(["rows", "blank", "wide"]),
    default="rows",
    show_default=True,
    help="rows — строка на место; blank — бланк на игру (лист A4 на игру); wide — "
    "строка на игру / one row per seat; one A4 sheet per game; one row per "
    "game.",
)
@click.option(
    "--tables",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Столов (номера игр по столам) / tables (games numbered per table).",
)
@LANG
@DEBUG
def template(
    out: Path,
    games: int,
    players_file: Path | None,
    layout: str,
    tables: int,
    lang: str,
    debug: bool,
) -> None:
    """Записать пустой протокол турнира / write a blank protocol workbook (SPEC §2).

    --layout blank: по листу на игру (по умолчанию 10 игр) / one sheet per game (10 by
    default); --layout wide: строка на игру / one row per game.
    """
    from ..template.layouts import empty_games, write_games
    from ..template.roster import read_players_file
    from ..template.workbook import build_template
    from .files import guard_output, write_atomic

    try:
        guard_output(out, [players_file] if players_file else [])
        players = read_players_file(players_file) if players_file else []
        if layout == "rows":
            write_atomic(out, build_template(lang, games, players))
        else:
            games = games or 10
            write_atomic(out, write_games(layout, empty_games(games, tables), lang, players))
    except MafiaSheetsError as error:
        fail(error, lang, debug)
    click.echo(
        terminal(
            msg.line("template_written", lang).format(path=out, games=games, players=len(players))
        )
    )


def _paths(files: Sequence[Path], lang: str, debug: bool) -> list[Path]:
    """The protocol files named, folders expanded; none at all is a one-line refusal."""
    paths: list[Path] = []
    for path in files:
        paths.extend(expand_folder(path) if path.is_dir() else [path])
    if not paths:
        fail(MafiaSheetsError(msg.LINES["no_workbooks"]), lang, debug)
    return paths


def _sources(paths: Sequence[Path], lang: str, debug: bool) -> list[Any]:
    from ..reading.safety import load_source

    try:
        return [load_source(path) for path in paths]
    except MafiaSheetsError as error:
        fail(error, lang, debug)


def _guard(out: Path, inputs: Sequence[Path], lang: str, debug: bool) -> None:
    """The output path is judged before anything is read: no long run is thrown away."""
    from .files import guard_output

    try:
        guard_output(out, inputs)
    except MafiaSheetsError as error:
        fail(error, lang, debug)


def expand_folder(folder: Path) -> list[Path]:
    """The protocol workbooks of a season folder: every .xlsx but Excel's lock files and
    this tool's own outputs."""
    from ..report.labels import ANNOTATED_SUFFIX, RESULTS_SUFFIX

    own = tuple(
        f"-{word}" for text in (RESULTS_SUFFIX, ANNOTATED_SUFFIX) for word in (text.ru, text.en)
    )
    return sorted(
        p for p in folder.glob("*.xlsx") if not p.name.startswith("~$") and not p.stem.endswith(own)
    )


def _evaluate(
    sources: list[Any], lang: str, debug: bool, status: msg.Status, **options: Any
) -> Any:
    from ..pipeline import evaluate

    try:
        return evaluate(sources, progress=status, **options)
    except MafiaSheetsError as error:
        status.done()
        fail(error, lang, debug)
    finally:
        status.done()


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--annotate",
    "annotate_out",
    type=click.Path(path_type=Path),
    help="Копия протокола с пометками / an annotated copy of the protocol.",
)
@click.option("--json", "as_json", is_flag=True, help="Вывод JSON (SPEC §6) / print JSON.")
@LANG
@DEBUG
def check(
    files: tuple[Path, ...], annotate_out: Path | None, as_json: bool, lang: str, debug: bool
) -> None:
    """Найти ошибки в протоколах / report every mistake with its cell (SPEC §5).

    Коды выхода / exit codes: 0 — чисто / clean, 1 — есть ошибки / errors found,
    2 — файл не читается / unusable input.
    """
    from ..report.json import findings_json

    paths = _paths(files, lang, debug)
    if annotate_out is not None:
        if len(paths) != 1:
            fail(MafiaSheetsError(msg.LINES["annotate_one"]), lang, debug)
        _guard(annotate_out, paths, lang, debug)
    sources = _sources(paths, lang, debug)
    if annotate_out is not None:
        _check_annotatable(sources[0], lang, debug)
    status = msg.Status(lang, total=len(sources) + 1)
    outcome = _evaluate(sources, lang, debug, status, rate=False)
    if annotate_out is not None:
        _write_annotated(annotate_out, sources, outcome, paths, lang, debug)
    if as_json:
        click.echo(json.dumps(findings_json(outcome, lang), ensure_ascii=False, indent=2))
    else:
        _say_reading(outcome, lang)
        headers = msg.headers_text(outcome.headers, outcome.findings, lang)
        if headers:
            click.echo(headers)
        click.echo(
            terminal(
                msg.findings_text(outcome.findings, lang, several=len(sources) > 1), lines=True
            )
        )
    sys.exit(int(ExitStatus.FINDINGS if outcome.errors else ExitStatus.OK))


def _say_reading(outcome: Any, lang: str) -> None:
    """`file.xlsx: прочитано: бланк на игру, 12 игр` — one line a file, before anything."""
    from ..reading.layouts import reading_text
    from ..reading.summary import reading_lines

    for reading in outcome.reading:
        click.echo(terminal(f"{reading.source}: {reading_text(reading, lang)}"))
        for _, line in reading_lines(reading, lang):  # what each game sheet gave
            click.echo(terminal(f"  {line}"))


def _check_annotatable(source: Any, lang: str, debug: bool) -> None:
    """openpyxl's copy is bounded too (MAX_ANNOTATE_CELLS): refused before any work."""
    from ..reading.safety import inspect_workbook

    try:
        inspect_workbook(source.data, source.name, annotate=True)
    except MafiaSheetsError as error:
        fail(error, lang, debug)


def _write_annotated(
    out: Path, sources: list[Any], outcome: Any, inputs: Sequence[Path], lang: str, debug: bool
) -> None:
    from ..report.annotate import annotate_workbook
    from .files import guard_output, write_atomic

    try:
        guard_output(out, inputs)
        write_atomic(out, annotate_workbook(sources[0], outcome.findings, lang))
    except MafiaSheetsError as error:
        fail(error, lang, debug)
    click.echo(terminal(msg.line("annotated_written", lang).format(path=out)), err=True)


@main.command()
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
    help="Печатать итоги JSON (SPEC §6) / print the standings as JSON.",
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
@LANG
@DEBUG
def rate(
    files: tuple[Path, ...],
    out: Path | None,
    as_json: bool,
    lot_seed: str | None,
    no_stats: bool,
    lang: str,
    debug: bool,
) -> None:
    """Посчитать итоги и записать книгу результатов / compute the standings (SPEC §3, §4, §6).

    Несколько файлов (или папка) — один сезон / several files (or a folder) are one season.
    """
    from ..rating.rank import parse_lot_seed
    from ..report.json import outcome_json

    try:
        seed = None if lot_seed is None else parse_lot_seed(lot_seed)
    except MafiaSheetsError as error:
        fail(error, lang, debug)
    paths = _paths(files, lang, debug)
    if out is None and not as_json:
        out = default_output(Path(files[0]), lang)
    if out is not None:
        _guard(out, paths, lang, debug)
    sources = _sources(paths, lang, debug)
    status = msg.Status(lang, total=len(sources) + 3)  # read each, check, score, write
    outcome = _evaluate(sources, lang, debug, status, lot_seed=seed, stats=not no_stats)
    if not as_json:  # JSON states it under "read"
        _say_reading(outcome, lang)
    if outcome.rating is None:
        if as_json:
            click.echo(json.dumps(outcome_json(outcome, lang), ensure_ascii=False, indent=2))
        click.echo(
            terminal(
                msg.findings_text(outcome.findings, lang, several=len(sources) > 1), lines=True
            ),
            err=as_json,
        )
        click.echo(msg.line("fix_then_rate", lang), err=True)
        sys.exit(int(ExitStatus.FINDINGS))
    if out is not None:
        status("write")
        try:
            _write_results(out, outcome.rating, files, lang, debug)
        finally:
            status.done()
    if as_json:
        click.echo(json.dumps(outcome_json(outcome, lang), ensure_ascii=False, indent=2))
    else:
        click.echo(terminal(msg.rating_summary(outcome.rating, out, lang), lines=True))


def default_output(first: Path, lang: str) -> Path:
    from ..report.labels import RESULTS_SUFFIX

    suffix = f"-{RESULTS_SUFFIX(lang)}"
    folder = first if first.is_dir() else first.parent
    stem = first.name if first.is_dir() else first.stem
    return folder / f"{stem}{suffix}.xlsx"


def _write_results(out: Path, rating: Any, inputs: Sequence[Path], lang: str, debug: bool) -> None:
    from ..report.xlsx import results_workbook
    from .files import guard_output, write_atomic

    try:
        guard_output(out, inputs)
        write_atomic(out, results_workbook(rating, lang))
    except MafiaSheetsError as error:
        fail(error, lang, debug)


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Адрес / address to listen on (loopback by default).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@LANG
@DEBUG
def serve(host: str, port: int, lang: str, debug: bool) -> None:
    """Страница для перетаскивания протоколов / the drag-and-drop page (SPEC §9).

    Откройте напечатанный адрес в браузере / open the printed address in a browser.
    """
    from ..web.app import run_server

    try:
        run_server(host, port)
    except MafiaSheetsError as error:
        fail(error, lang, debug)


def _lang_of(argv: Sequence[str]) -> str:
    """The --lang asked for, read by hand: click's parsing may be what failed."""
    words = list(argv)
    for index, word in enumerate(words):
        if word == "--lang" and index + 1 < len(words):
            return "en" if words[index + 1] == "en" else "ru"
        if word.startswith("--lang="):
            return "en" if word.endswith("=en") else "ru"
    return "en" if os.environ.get("MAFIA_SHEETS_LANG") == "en" else "ru"


def entry() -> None:
    """The console script: a usage error or any unexpected failure is one line."""
    try:
        main(standalone_mode=False)
    except click.exceptions.Exit as done:  # --help, --version
        sys.exit(done.exit_code)
    except click.ClickException as error:  # click's own usage errors, worded by click
        lang = _lang_of(sys.argv)
        click.echo(terminal(msg.line("error_prefix", lang) + error.format_message()), err=True)
        sys.exit(error.exit_code)
    except click.exceptions.Abort:  # Ctrl+C at a prompt
        sys.exit(int(ExitStatus.UNUSABLE))
    except Exception as error:  # a bug: say so plainly; --debug shows the traceback
        if "--debug" in sys.argv:
            raise
        lang = _lang_of(sys.argv)
        text = msg.line("internal_error", lang).format(error=f"{type(error).__name__}: {error}")
        click.echo(terminal(text), err=True)
        sys.exit(int(ExitStatus.UNUSABLE))


if __name__ == "__main__":  # pragma: no cover
    entry()
