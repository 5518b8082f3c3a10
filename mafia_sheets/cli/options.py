"""The options and the failure line every command shares (a command's own module imports
them from here, so that `commands` can register it without a cycle)."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from ..errors import MafiaSheetsError
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


def fail(error: MafiaSheetsError, lang: str, debug: bool) -> NoReturn:
    """One line on stderr and exit 2; the traceback only with --debug."""
    if debug:
        raise error
    click.echo(terminal(msg.line("error_prefix", lang) + error.text(lang)), err=True)
    sys.exit(int(error.exit_status))
