"""What every command shares: the common options, one-line failures, the input files.

How a command is written (every command follows it, so a new one merges as one line in
:mod:`.commands`):

- its module under `cli/` holds a frozen dataclass of its options and a click command
  whose options are gathered into it by :func:`gathered` — the command body takes one
  argument, however many options it has;
- the body parses nothing itself: it calls the library and turns a
  :class:`~mafia_sheets.errors.MafiaSheetsError` into one line and exit 2 (:func:`fail`);
- heavy libraries (pandas, openpyxl, xlsxwriter) are imported inside the body, never at
  the module's top, so that `mafia-sheets --help` loads none of them;
- what `rate` and `check` need only once the files are read (the reading's summary, the
  JSON) is imported in the function that says it: the child that scans the files is
  forked the sooner, and the import is made beside its scan.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import stat
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from ..errors import MafiaSheetsError, ProtocolReadError
from ..parallel import Each, each
from ..reading.apart import Apart, Parsed, adopt_parsed, adopt_reads, forget_reads
from ..reading.files import each_once
from ..reading.safety import (
    PackageScan,
    adopt_scans,
    inspect_workbook,
    load_source,
    with_bytes,
    without_bytes,
)
from ..report.labels import ANNOTATED_SUFFIX, RESULTS_SUFFIX
from ..text import Text, terminal
from . import text as msg
from .deadline import checkpoint
from .files import guard_output, write_atomic

if TYPE_CHECKING:
    from ..model import Outcome, Source

LANG = click.option(
    "--lang",
    type=click.Choice(["ru", "en"]),
    default="ru",
    show_default=True,
    envvar="MAFIA_SHEETS_LANG",
    help="Язык вывода / output language.",
)
# the protocol's layout, for every command that writes one (template, import, …)
LAYOUT = click.option(
    "--layout",
    type=click.Choice(["rows", "blank", "wide"]),
    default="rows",
    show_default=True,
    help="rows — строка на место; blank — бланк на игру (лист A4 на игру); wide — "
    "строка на игру / one row per seat; one A4 sheet per game; one row per game.",
)
# every command that writes a new protocol (template, seat --protocol, import)
FORCE = click.option(
    "--force",
    is_flag=True,
    help="Заменить существующий файл / replace an existing file.",
)
DEBUG = click.option(
    "--debug",
    is_flag=True,
    help="Показать трассировку ошибок / show tracebacks (for bug reports).",
)

Options = TypeVar("Options")


def gathered(
    kind: type[Options],
) -> Callable[[Callable[[Options], None]], Callable[..., None]]:
    """A click callback taking the options as one frozen dataclass of type `kind`.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Greeting:
    ...     name: str
    >>> @gathered(Greeting)
    ... def greet(options: Greeting) -> None:
    ...     print("hello", options.name)
    >>> greet(name="judge")
    hello judge
    """

    def decorate(body: Callable[[Options], None]) -> Callable[..., None]:
        @functools.wraps(body)
        def callback(**given: Any) -> None:
            body(kind(**given))

        return callback

    return decorate


def fail(error: MafiaSheetsError, lang: str, debug: bool) -> NoReturn:
    """One line on stderr and exit 2; the traceback only with --debug."""
    if debug:
        raise error
    for line in error.lines(lang):  # one a file, when several are refused
        click.echo(terminal(msg.line("error_prefix", lang) + line), err=True)
    sys.exit(int(error.exit_status))


@dataclasses.dataclass(frozen=True)
class Run:
    """The two options every command has."""

    lang: str
    debug: bool

    def fail(self, error: MafiaSheetsError) -> NoReturn:
        fail(error, self.lang, self.debug)


def paths(files: Sequence[Path], run: Run) -> list[Path]:
    """The protocol files named, folders expanded (what a folder holds that is no
    workbook is skipped with one line each); none at all is a one-line refusal."""
    found: list[Path] = []
    try:
        for path in files:
            if not path.is_dir():  # a file named is read, or refused, by itself
                found.append(path)
                continue
            for entry in expand_folder(path):
                why = skipped(entry)
                if why is None:
                    found.append(entry)
                else:
                    click.echo(terminal(f"{entry}: {why(run.lang)}"), err=True)
    except MafiaSheetsError as error:
        run.fail(error)
    if not found:
        run.fail(MafiaSheetsError(msg.LINES["no_workbooks"]))
    return found


def skipped(entry: Path) -> Text | None:
    """Why an entry of a season folder is not read (None: it is read): a macOS metadata
    file, a folder, a pipe or a device, an empty file, a broken or looping link."""
    if entry.name.startswith("._"):
        return _SKIPPED["apple"]
    try:
        info = entry.stat()
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        return Text(f"пропущен — не читается ({reason})", f"skipped — cannot be read ({reason})")
    if stat.S_ISDIR(info.st_mode):
        return _SKIPPED["folder"]
    if not stat.S_ISREG(info.st_mode):
        return _SKIPPED["special"]
    return _SKIPPED["empty"] if info.st_size == 0 else None


_SKIPPED = {
    "apple": Text(
        "пропущен — служебный файл macOS (AppleDouble), а не протокол",
        "skipped — a macOS metadata file (AppleDouble), not a protocol",
    ),
    "folder": Text("пропущен — это папка, а не файл", "skipped — a folder, not a file"),
    "special": Text(
        "пропущен — не обычный файл (канал или устройство)",
        "skipped — not a regular file (a pipe or a device)",
    ),
    "empty": Text("пропущен — пустой файл (0 байт)", "skipped — an empty file (0 bytes)"),
}


def expand_folder(folder: Path) -> list[Path]:
    """The protocol workbooks of a season folder: every .xlsx and .ods but Excel's lock
    files and this tool's own outputs; one workbook kept in both formats is refused (its
    games would count twice)."""

    own = tuple(
        f"-{word}" for text in (RESULTS_SUFFIX, ANNOTATED_SUFFIX) for word in (text.ru, text.en)
    )
    found = sorted(
        p
        for pattern in ("*.xlsx", "*.ods")
        for p in folder.glob(pattern)
        if not p.name.startswith("~$") and not p.stem.endswith(own)
    )
    stems = Counter(p.stem.casefold() for p in found)
    twins = ", ".join(p.name for p in found if stems[p.stem.casefold()] > 1)
    if twins:
        raise MafiaSheetsError(
            Text(
                f"В папке {folder} одна книга в двух форматах: {twins}. Оставьте одну из "
                "них (другую переименуйте или уберите из папки).",
                f"The folder {folder} holds one workbook in two formats: {twins}. Keep one "
                "of them (rename the other or move it out of the folder).",
            )
        )
    return found


def sources(found: Sequence[Path], run: Run, *modules: str) -> list[Source]:
    """The files' bytes (exit 2 for one that cannot be read), their safety scans made on
    the other core while this process imports `modules` — the pipeline and what the
    command goes on to need, which the scans do not: each scan is then this process's
    own, and judging the file when it is read scans nothing again. A file the scan refuses
    is scanned again when it is read, in its turn, and refused there exactly as in series.

    The child then reads, file by file, the sheets of each file its scan passed that it
    can send back cheaply (`reading.sheets.read_apart`) while this process reads the
    others; it is stopped when the command ends (or the evaluation, :func:`evaluate`).
    The others of the first file passed are parsed as soon as the scans are here, on a
    thread, while the imports go on (:class:`_ScansAhead`)."""

    try:
        read = each_once(_loaded(found), found)
        child = each(_scanned_and_read, read)
        _CHILDREN.append(child)
        context = click.get_current_context(silent=True)
        if context is not None:  # however the command ends
            context.call_on_close(_stop_children)
        ahead = _ScansAhead(child, read)
        for module in modules:
            importlib.import_module(module)
        scanned = ahead.scans()  # in series the reading scans each file itself, as before
        if scanned is not None:
            _adopt(read, scanned, _ReadApart(child))
            ahead.adopt(read)
    except MafiaSheetsError as error:  # a file that cannot be read, or the deadline
        _stop_children()
        run.fail(error)
    return read


def _loaded(found: Sequence[Path]) -> list[Source]:
    """Every file's bytes; the files that cannot be read are refused together."""
    read: list[Source] = []
    unreadable: list[MafiaSheetsError] = []
    for path in found:
        try:
            read.append(load_source(path))
        except ProtocolReadError as error:  # the others are tried on, to be named too
            unreadable.append(error)
    if unreadable:
        raise ProtocolReadError.of_each(unreadable)
    return read


# The children reading for the command (one at most): stopped when the evaluation ends.
_CHILDREN: list[Each[object]] = []


def _stop_children() -> None:
    forget_reads()  # what the child read is taken by now, or wanted no more
    for child in _CHILDREN:
        child.cancel()
    _CHILDREN.clear()


def _adopt(read: Sequence[Source], scans: list[PackageScan | None], sheets: _ReadApart) -> None:
    """The child's scans as this process's own, and what it reads of each file passed."""
    adopt_scans((s.data, scan) for s, scan in zip(read, scans, strict=True) if scan is not None)
    adopt_reads(
        (s.data, functools.partial(sheets.of, index))
        for index, (s, scan) in enumerate(zip(read, scans, strict=True))
        if scan is not None
    )


def _scanned_and_read(read: Sequence[Source]) -> Iterator[object]:
    """In the child: every file's safety scan, then each file's sheets read apart, one
    file at a time (None for a file the scan refused)."""
    scans = _scans(read)
    yield [None if scan is None else without_bytes(scan) for scan in scans]  # see _ScansAhead
    # the reader, once the scans are sent: this process imports it beside, and later
    from ..reading.sheets import read_apart

    for source, scan in zip(read, scans, strict=True):
        yield None if scan is None else read_apart(source, scan)


class _ScansAhead:
    """The child's scans, taken on a thread of this process as soon as they are sent; that
    thread goes on to have python-calamine parse the first passed file's sheets that this
    process reads itself (:func:`~mafia_sheets.reading.sheets.parse_ahead`). The library
    lets go of the interpreter's lock while it parses, so the imports that the main thread
    goes on with cost the reading nothing, and the parse starts as soon as it may: once
    the scan has passed the parts it parses. Without a child, there is no thread.

    The scans come without the files' bytes, which this process holds (the very objects
    the child was forked with): a few kilobytes through the pipe, not the whole files,
    each read while the main thread imports and holds the interpreter's lock."""

    def __init__(self, child: Each[object], read: Sequence[Source]) -> None:
        self._child = child
        self._data = [source.data for source in read]
        self._scans: list[PackageScan | None] | None = None
        self._parsed: Parsed | None = None
        self._first: int | None = None  # the first file the scan passed
        self._arrived = threading.Event()
        self._thread: threading.Thread | None = None
        if child.forked:
            # the reader, imported before the thread that calls it starts (here, not at the
            # top: `--help` loads no reader)
            from ..reading import sheets

            self._parse_ahead = sheets.parse_ahead
            self._thread = threading.Thread(target=self._take, name="parse-ahead", daemon=True)
            self._thread.start()

    def scans(self) -> list[PackageScan | None] | None:
        """Each file's scan, as the child made them (None: it sent none)."""
        if self._thread is None:
            return None
        self._arrived.wait()
        return self._scans

    def adopt(self, read: Sequence[Source]) -> None:
        """The sheets parsed ahead, for the reading of the first file passed to take."""
        if self._first is not None:
            adopt_parsed(read[self._first].data, self._taken)

    def _taken(self) -> Parsed | None:
        if self._thread is not None:
            self._thread.join()  # done by now, or soon: it parses one file's sheets
        return self._parsed

    def _take(self) -> None:
        try:
            scanned = self._child.next()
            sent = None if scanned is None else cast("list[PackageScan | None]", scanned[0])
            self._scans = None if sent is None else self._with_bytes(sent)
            scans = self._scans or []
            self._first = next((i for i, scan in enumerate(scans) if scan is not None), None)
        except BaseException:  # a stop or a bug: this process reads in series, and meets it
            self._scans, self._first = None, None
        finally:
            self._arrived.set()  # the scans and the first file passed are known by now
        first = None if self._scans is None or self._first is None else self._scans[self._first]
        try:
            self._parsed = None if first is None else self._parse_ahead(first)
        except BaseException:  # a bug (or the library's panic) met again, in its turn
            self._parsed = None

    def _with_bytes(self, sent: list[PackageScan | None]) -> list[PackageScan | None]:
        # zip's ValueError, should the child have scanned other files: read in series
        pairs = zip(sent, self._data, strict=True)
        return [None if scan is None else with_bytes(scan, data) for scan, data in pairs]


class _ReadApart:
    """What the child reads of each file, taken in the files' order as it sends them."""

    def __init__(self, child: Each[object]) -> None:
        self._child = child
        self._sent: list[Apart | None] = []

    def of(self, index: int) -> Apart | None:
        """The sheets the child read of file `index` (None: it did not deliver them)."""
        while len(self._sent) <= index:
            item = self._child.next()
            if item is None:
                return None
            self._sent.append(cast("Apart | None", item[0]))
        return self._sent[index]


def _scans(read: Sequence[Source]) -> list[PackageScan | None]:
    """Each file's safety scan; None for one refused (or worse: it is met again here)."""
    scans: list[PackageScan | None] = []
    for source in read:
        try:
            scans.append(inspect_workbook(source.data, source.name))
        except Exception:  # judged again when it is read, in order, with its own line
            scans.append(None)
    return scans


def guard(out: Path, inputs: Sequence[Path], run: Run, suffix: str = ".xlsx") -> None:
    """The output path is judged before anything is read: no long run is thrown away."""

    try:
        guard_output(out, inputs, suffix)
    except MafiaSheetsError as error:
        run.fail(error)


def write(
    out: Path, inputs: Sequence[Path], data: Callable[[], bytes], run: Run, suffix: str = ".xlsx"
) -> None:
    """`data()` written atomically to `out` (judged again just before)."""

    try:
        guard_output(out, inputs, suffix)
        write_atomic(out, data())
    except MafiaSheetsError as error:
        run.fail(error)


# The last outcome, held until the process ends: a command ends in `commands.leave`, which
# drops a big season's millions of objects at once, where freeing them one by one when
# the command returns would cost ~0.06 s at 10,000 games for nothing (one is held at most).
_HELD: list[Outcome] = []


def evaluate(found: Sequence[Source], run: Run, status: msg.Status, **options: Any) -> Outcome:
    """The library's one evaluation, with a progress line; a refusal is one line."""
    from ..pipeline import evaluate as library_evaluate

    try:
        outcome = library_evaluate(found, progress=status, **options)
        _HELD[:] = [outcome]
        checkpoint()
        return outcome
    except MafiaSheetsError as error:
        status.done()
        run.fail(error)
    finally:
        _stop_children()
        status.done()


def say_reading(outcome: Outcome, lang: str) -> None:
    """`file.xlsx: прочитано: бланк на игру, 12 игр` — one line a file, before anything."""
    from ..reading.layouts import reading_text
    from ..reading.summary import reading_lines

    for reading in outcome.reading:
        click.echo(terminal(f"{reading.source}: {reading_text(reading, lang)}"))
        for _, line in reading_lines(reading, lang):  # what each game sheet gave
            click.echo(terminal(f"  {line}"))
