"""What stops a run (unusable input, unwritable output) and the exit codes.

Rule violations are findings, not exceptions. Exceptions are for the few things after
which there is nothing to compute; each carries one line a judge can act on, in RU and EN.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from .text import Text

# What to do about a workbook a reader cannot open: the one advice every reader gives.
SAVE_AGAIN = Text(
    "Откройте её в Excel или LibreOffice и сохраните заново как .xlsx.",
    "Open it in Excel or LibreOffice and save it again as .xlsx.",
)


class ExitStatus(IntEnum):
    OK = 0
    FINDINGS = 1  # errors in the protocol: fix them, then rate again
    UNUSABLE = 2  # the file cannot be read, the output cannot be written, or bad usage


class MafiaSheetsError(Exception):
    """Base of every error that stops a run: one line in both languages. `str()` is English."""

    exit_status = ExitStatus.UNUSABLE

    def __init__(self, message: Text, *more: Text) -> None:
        super().__init__("\n".join(m.en for m in (message, *more)))
        self.message = message
        self.more = more  # the further lines of a refusal of several files, one each

    def lines(self, lang: str) -> list[str]:
        """Each line of the refusal in `lang`: one, or one per file refused."""
        return [m(lang) for m in (self.message, *self.more)]

    @property
    def en(self) -> str:
        return self.text("en")

    @property
    def ru(self) -> str:
        return self.text("ru")

    def text(self, lang: str) -> str:
        return "\n".join(self.lines(lang))


class Stopped(MafiaSheetsError):
    """The run was stopped from outside (a deadline): never a fact of the data, so never
    held back as an error found while working ahead of the checks."""


class ProtocolReadError(MafiaSheetsError, ValueError):
    """The input is not a readable protocol workbook (SPEC §5.5)."""

    @classmethod
    def of_each(cls, errors: Sequence[MafiaSheetsError]) -> MafiaSheetsError:
        """One refusal saying each file's on a line of its own (one alone stays itself):
        every unreadable file of a season is named in one run, not one run each."""
        if len(errors) == 1:
            return errors[0]
        first, *more = (line for e in errors for line in (e.message, *e.more))
        return cls(first, *more)


class OutputWriteError(MafiaSheetsError, OSError):
    """The output cannot be written (open in Excel, no permission, no space)."""


class RulesFileError(MafiaSheetsError, ValueError):
    """The bundled rule set (`rules/fiim.toml`) is broken: an installation fault."""


class SeasonConflictError(MafiaSheetsError, ValueError):
    """Files of one season disagree on a tournament setting."""
