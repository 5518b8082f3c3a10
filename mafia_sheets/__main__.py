"""`python -m mafia_sheets` is the `mafia-sheets` command."""

from .cli import entry

entry()
