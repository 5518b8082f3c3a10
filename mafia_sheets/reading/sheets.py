"""Open a protocol workbook and hand each of its sheets to the reader of its layout.

Any workbook laid out per SPEC §2 is accepted, not only our template: the row layout
(:mod:`.rows`), one sheet per game (:mod:`.blank`), one row per game (:mod:`.wide`), in
any mix (:mod:`.layouts` asks each reader in turn). Values stay exactly as the reader
gives them (typing is `parse`'s job). Formulas are read as their cached values.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import python_calamine
from python_calamine import CalamineSheet, CalamineWorkbook

from .. import vocab
from ..errors import SAVE_AGAIN, ProtocolReadError
from ..findings import Finding, define, finding
from ..model import Source
from ..text import Text
from .apart import Apart, Parsed, sheets_apart, take_parsed, take_reads
from .grid import Grid
from .layouts import Judged, judge, read_sheets
from .odsscan import OdsScan
from .raw import RawSheet, RawWorkbook, column_letter
from .safety import judge_game_sheets
from .xlsxscan import WorkbookScan

__all__ = ["RawSheet", "RawWorkbook", "column_letter", "read_workbook"]

MISSING_SHEET = define(
    "missing-sheet",
    "error",
    Text("Нет листа «{expected}»", "Sheet “{expected}” is missing"),
    Text(
        "лист «{expected}»; найдены листы: {found}", "a sheet “{expected}”; sheets found: {found}"
    ),
    Text(
        "Добавьте лист «{expected}» (или переименуйте свой) — см. шаблон: mafia-sheets template",
        "Add the sheet “{expected}” (or rename yours) — see the template: mafia-sheets template",
    ),
)


def read_workbook(
    source: Source, scan: WorkbookScan | OdsScan | None = None
) -> tuple[RawWorkbook, list[Finding]]:
    """Open the bytes, read every sheet by its layout, return the raw tables and findings.

    With the safety scan's `scan`, the reader is handed exactly the parts the scan judged,
    and what python-calamine does not say (hidden columns; an .ods's merged cells) comes
    from the scan's pass. An .xlsx and an .ods are read by the same reader into the same
    grids, so every layout reads both alike."""
    parsed = _parsed(source, scan)
    names = tuple(parsed.workbook.sheet_names)
    hidden = scan.hidden_columns() if scan is not None else {}
    merges = scan.merges if isinstance(scan, OdsScan) else {}
    grids: Iterator[Grid | Judged] = _grids(parsed, names, (hidden, merges), source.name)
    apart = take_reads(source.data)
    if apart is not None and scan is not None:
        grids = _with_apart(parsed, names, (hidden, merges), source.name, (apart, scan))
    read = read_sheets(grids, source.name)
    played = {game.sheet for game in read.games if game.played}
    judge_game_sheets(scan, {game.sheet for game in read.games}, played, source.name)
    findings = read.findings
    for code in vocab.REQUIRED_SHEETS:
        if code not in read.sheets:
            expected = f"{vocab.SHEETS[code].ru} / {vocab.SHEETS[code].en}"
            found = ", ".join(names) or "—"
            findings.append(
                finding(MISSING_SHEET, expected, expected=expected, found=found, source=source.name)
            )
    fields = {
        name: str(game.header[name][0])
        for game in read.games
        for name in ("tournament",)
        if name in game.header and str(game.header[name][0]).strip()
    }
    raw = RawWorkbook(
        source.name, read.sheets, names, tuple(read.headers), read.reading, fields or None
    )
    return raw, findings


def _parsed(source: Source, scan: WorkbookScan | OdsScan | None) -> Parsed:
    """The workbook python-calamine opened, with the sheets it parsed ahead (see
    :func:`parse_ahead`), or opened now: from exactly the parts the scan judged."""
    ahead = take_parsed(source.data)
    parsed = ahead() if ahead is not None else None
    if parsed is not None:
        return parsed
    try:
        data = scan.reader_archive() if scan is not None else source.data
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except _READER_ERRORS as exc:  # calamine raises its own types for every corrupt part
        raise ProtocolReadError(
            Text(
                f"{source.name}: книгу не удаётся прочитать ({_short(exc)}). {SAVE_AGAIN.ru}",
                f"{source.name}: the workbook cannot be read ({_short(exc)}). {SAVE_AGAIN.en}",
            ),
        ) from exc
    return Parsed(workbook, {})


def parse_ahead(scan: WorkbookScan | OdsScan) -> Parsed | None:
    """The workbook opened from the parts `scan` passed, and the sheets this process is to
    read itself (those not read apart) parsed by python-calamine — for a thread to call
    while the main thread imports: the library lets go of the interpreter's lock while it
    parses. What raises is left to be met again in its turn and said there: a workbook
    that will not open gives None, a sheet that will not parse ends the parsing ahead."""
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(scan.reader_archive()))
        names = tuple(workbook.sheet_names)
    except _READER_ERRORS:
        return None
    theirs, sheets = sheets_apart(scan), {}
    for name in names:
        if name in theirs:
            continue
        try:
            sheets[name] = workbook.get_sheet_by_name(name)
        except _READER_ERRORS:
            break
    return Parsed(workbook, sheets)


Merges = list[tuple[tuple[int, int], tuple[int, int]]]


def _grids(
    parsed: Parsed,
    names: tuple[str, ...],
    facts: tuple[dict[str, frozenset[int]], dict[str, Merges]],
    source: str,
) -> Iterator[Grid]:
    """Each sheet's cells, one sheet at a time (parsed now, unless it was ahead), with the
    hidden columns and (an .ods) the merges the scan read (only the library's work is
    guarded: a bug of ours is an internal error, not "save again")."""
    hidden, merges = facts
    for name in names:
        try:
            sheet = _sheet(parsed, name)
            grid = Grid.of(name, sheet, hidden.get(name, frozenset()), merges.get(name))
        except _READER_ERRORS as exc:
            raise ProtocolReadError(
                Text(
                    f"{source}: лист «{name}» не читается ({_short(exc)}). {SAVE_AGAIN.ru}",
                    f"{source}: sheet “{name}” cannot be read ({_short(exc)}). {SAVE_AGAIN.en}",
                ),
            ) from exc
        yield grid


def _sheet(parsed: Parsed, name: str) -> CalamineSheet:
    """The sheet parsed ahead (handed over once: its cells are not kept twice), or now."""
    ahead = parsed.sheets.pop(name, None)
    return ahead if ahead is not None else parsed.workbook.get_sheet_by_name(name)


def read_apart(source: Source, scan: WorkbookScan | OdsScan) -> Apart | None:
    """In the child that has scanned `source` (and whose scan has passed it): its
    :func:`sheets_apart`, as the layout readers make them. A sheet that raises is left out
    (this process reads it in its turn and raises there, as in series)."""
    wanted = sheets_apart(scan)
    if not wanted:
        return {}
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(scan.reader_archive()))
        names = [name for name in workbook.sheet_names if name in wanted]
    except _READER_ERRORS:
        return None
    hidden, read = scan.hidden_columns(), {}
    for name in names:
        try:
            grid = Grid.of(name, workbook.get_sheet_by_name(name), hidden.get(name, frozenset()))
            read[name] = judge(grid, source.name)
        except Exception:  # raised again here, in its turn, where it is said
            continue
    return read


def _with_apart(
    parsed: Parsed,
    names: tuple[str, ...],
    facts: tuple[dict[str, frozenset[int]], dict[str, Merges]],
    source: str,
    apart: tuple[Callable[[], Apart | None], WorkbookScan | OdsScan],
) -> Iterator[Grid | Judged]:
    """Every sheet in its order: this process's own read first, while the child reads the
    rest, then the child's. A sheet the child did not deliver, and this process's own from
    the first that raises on, is read in its turn (and raises there, as in series)."""
    took, scan = apart
    theirs = sheets_apart(scan)
    mine: dict[str, Judged] = {}
    for name in names:
        if name in theirs or name in mine:
            continue
        try:
            mine[name] = judge(next(_grids(parsed, (name,), facts, source)), source)
        except Exception:  # raised again in its turn
            break
    delivered = took() or {}
    for name in names:
        made = mine.get(name) or delivered.get(name)
        yield made if made is not None else next(_grids(parsed, (name,), facts, source))


def _reader_errors() -> tuple[type[BaseException], ...]:
    """What python-calamine raises for a file it cannot read (its own types, and the
    builtin ones its bindings map Rust errors to)."""
    own = tuple(
        value
        for value in vars(python_calamine).values()
        if isinstance(value, type) and issubclass(value, Exception)
    )
    return (*own, ValueError, OSError, UnicodeError, OverflowError)


_READER_ERRORS = _reader_errors()


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:120]
