"""Sheets read beside this process: where the safety scan is made in a forked child (the
command line's), that child goes on to read the sheets it can send back cheaply while this
process imports what it needs and reads the others (:mod:`.sheets` reads them, both sides).

Which sheets go to the child is decided from the scan alone, so both processes agree on it
without a word: an .xlsx's sheets of up to READ_HERE_BYTES of XML. What the child sends is
kept here by the very bytes object of its file, like the scans (:mod:`.safety`), until the
reading of that file takes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .layouts import Judged
from .odsscan import OdsScan
from .xlsxscan import WorkbookScan

# A larger sheet is read by the process that goes on with the protocol: sent back pickled,
# it would cost more (~0.2 s for the 30 MB sheet of a 10,000-game protocol) than to read.
READ_HERE_BYTES = 16 * 1024**2

Apart = dict[str, Judged]
"""The sheets a child read, by name (a sheet it could not read is not among them)."""

# By the bytes object of their file: what waits for the child's sheets and gives them
# (None: the child did not deliver).
_ADOPTED: list[tuple[bytes, Callable[[], Apart | None]]] = []


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
    _ADOPTED.extend(reads)


def take_reads(data: bytes) -> Callable[[], Apart | None] | None:
    """What gives the sheets read apart of the file `data` (once), or None."""
    took = next((took for seen, took in _ADOPTED if seen is data), None)
    if took is not None:
        _ADOPTED[:] = [(seen, other) for seen, other in _ADOPTED if seen is not data]
    return took


def forget_reads() -> None:
    """Drop what was adopted and not taken (the evaluation is over)."""
    _ADOPTED.clear()
