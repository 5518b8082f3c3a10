"""`python -m mafia_sheets` is the `mafia-sheets` command."""

from .cli.commands import entry

entry()
