"""The `mafia-sheets` command group: one line of COMMANDS names each command's module.

How to write a command: see :mod:`.common`. Nothing here imports pandas, openpyxl or
xlsxwriter, so `mafia-sheets --help` answers at once.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import click

from ..errors import ExitStatus
from ..text import terminal
from . import deadline
from . import text as msg

__all__ = ["commands", "entry", "main"]

# Each command by the module that defines it, imported when that command runs (or when
# `--help` lists them all): `rate` starts scanning its files on the second core without
# first importing what only the other commands need.
COMMANDS = {
    "check": "check:check",
    "import": "imports:import_command",
    "rate": "rate:rate",
    "rules": "rules:rules",
    "seat": "seat:seat",
    "serve": "serve:serve",
    "template": "template:template",
}


class _Commands(click.Group):
    """The command group, its commands loaded lazily (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, attribute = where.split(":")
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
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


def commands() -> dict[str, click.Command]:
    """Every command by its name, each module imported."""
    context = click.Context(main)
    return {name: command for name in COMMANDS if (command := main.get_command(context, name))}


def _lang_of(argv: Sequence[str]) -> str:
    """The --lang asked for, read by hand: click's parsing may be what failed."""
    words = list(argv)
    for index, word in enumerate(words):
        if word == "--lang" and index + 1 < len(words):
            return "en" if words[index + 1] == "en" else "ru"
        if word.startswith("--lang="):
            return "en" if word.endswith("=en") else "ru"
    return "en" if os.environ.get("MAFIA_SHEETS_LANG") == "en" else "ru"


def entry() -> NoReturn:
    """The console script: a usage error or any unexpected failure is one line."""
    try:
        _entry()
    except SystemExit as done:
        leave(done.code)
    leave(0)


def leave(code: object) -> NoReturn:
    """Ends the process as `sys.exit(code)` would, less the interpreter's teardown.

    Everything is written by now; what the teardown would do is free a big season's
    millions of objects one by one (about 5% of `rate` at 10,000 games), which changes
    nothing on disk. The exit handlers (the scratch folder's removal) still run, and
    both streams are flushed.
    """
    if code is None or isinstance(code, int):
        status = code or 0
    else:  # sys.exit("…") prints its message and fails
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more to say there
            pass
    os._exit(status & 0xFF)


# A command (all but the web page, which keeps running) is one pass over one season: its
# objects live until the end and refcounting frees what dies, so the cycle collector's
# passes over the whole heap find next to nothing (measured: 3% of `rate`, memory alike).
BATCH_COLLECTOR = (100_000, 50, 1_000)


def _entry() -> None:
    deadline.SUPERVISE = True  # this process is the command's own: it may watch a child
    if sys.argv[1:2] != ["serve"]:
        gc.set_threshold(*BATCH_COLLECTOR)
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
