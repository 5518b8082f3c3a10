"""Sheets read beside this process: where the safety scan is made in a forked child (the
command line's), that child goes on to read the sheets it can send back cheaply while this
process imports what it needs and reads the others (:mod:`.sheets` reads them, both sides).

Which sheets go to the child is decided from the scan alone, so both processes agree on it
without a word: an .xlsx's sheets of up to READ_HERE_BYTES of XML. What the child sends is
kept here by the very bytes object of its file, like the scans (:mod:`.safety`), until the
reading of that file takes it. So are the sheets python-calamine parsed ahead, on a thread
of this process, once the scan had passed them (:class:`Parsed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from .odsscan import OdsScan
from .xlsxscan import WorkbookScan

if TYPE_CHECKING:
    from python_calamine import CalamineSheet, CalamineWorkbook

    from .layouts import Judged

# A larger sheet is read by the process that goes on with the protocol: sent back pickled,
# it would cost more (~0.2 s for the 30 MB sheet of a 10,000-game protocol) than to read.
READ_HERE_BYTES = 16 * 1024**2

Apart = dict[str, "Judged"]
"""The sheets a child read, by name (a sheet it could not read is not among them)."""

T = TypeVar("T")


@dataclass(frozen=True)
class Parsed:
    """A workbook python-calamine opened ahead from the scan's parts, and the sheets it
    parsed then, by name (one that raised, and those after it, are not among them)."""

    workbook: CalamineWorkbook
    sheets: dict[str, CalamineSheet]


@dataclass
class _ByFile(Generic[T]):
    """What waits for the reading of a file, kept by the very bytes object of that file
    (two equal files are two files), until that reading takes it, once."""

    kept: list[tuple[bytes, Callable[[], T | None]]] = field(default_factory=list)

    def take(self, data: bytes) -> Callable[[], T | None] | None:
        took = next((took for seen, took in self.kept if seen is data), None)
        if took is not None:
            self.kept[:] = [(seen, other) for seen, other in self.kept if seen is not data]
        return took


# What gives the child's sheets (None: it did not deliver), and the sheets parsed ahead.
_READ = _ByFile[Apart]()
_PARSED = _ByFile[Parsed]()


def sheets_apart(scan: WorkbookScan | OdsScan) -> frozenset[str]:
    """The sheets the child that made `scan` reads (an .ods keeps them all in one part)."""
    if not isinstance(scan, WorkbookScan):
        return frozenset()
    entries = scan.archive.entries
    return frozenset(
        sheet.name
        for sheet in scan.sheets
        if sheet.scan is not None and entries[sheet.part].size <= READ_HERE_BYTES
    )


def adopt_reads(reads: Iterable[tuple[bytes, Callable[[], Apart | None]]]) -> None:
    """The sheets a child reads of each file, by the file's bytes: reading those bytes here
    takes them instead of reading them again."""
    _READ.kept.extend(reads)


def take_reads(data: bytes) -> Callable[[], Apart | None] | None:
    """What gives the sheets read apart of the file `data` (once), or None."""
    return _READ.take(data)


def adopt_parsed(data: bytes, parsed: Callable[[], Parsed | None]) -> None:
    """What gives the file `data`'s sheets parsed ahead (None: none were): reading those
    bytes here takes them instead of parsing them again."""
    _PARSED.kept.append((data, parsed))


def take_parsed(data: bytes) -> Callable[[], Parsed | None] | None:
    """What gives the sheets of the file `data` parsed ahead (once), or None."""
    return _PARSED.take(data)


def forget_reads() -> None:
    """Drop what was adopted and not taken (the evaluation is over)."""
    _READ.kept.clear()
    _PARSED.kept.clear()
