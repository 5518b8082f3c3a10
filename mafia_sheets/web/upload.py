"""Reading an upload: a multipart body streamed into memory under size limits, as Sources.

Nothing touches the disk (Starlette's own form parser spools large files to temporary
files), and an upload is never buffered past its limit: the count is kept while the body
streams in, and the request is answered with 413 as soon as it is exceeded. All uploads in
flight share one memory budget (`UploadBudget`), and a body must keep arriving: a client that
stops sending gets 408 (`BodyTimes`).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import ClientDisconnect, Request

from ..errors import MafiaSheetsError
from ..model import Source
from ..reading.files import distinct_names
from ..text import Text

MAX_FILES = 100  # a weekly club's whole season fits; more is a mistake or abuse
TOTAL_FACTOR = 4  # a request may carry this many full-size files' worth of bytes
MULTIPART_SLACK = 64 * 1024  # boundaries and part headers on top of the file bytes
BUDGET_STEP = 1024 * 1024  # a body of unknown length takes its budget a megabyte at a time
BUDGET_POLL_S = 0.05  # how often a waiting upload looks for room in the budget


class UploadError(MafiaSheetsError):
    """A request the page cannot serve; carries its HTTP status and one line in RU and EN."""

    def __init__(self, status: int, message: Text) -> None:
        super().__init__(message)
        self.status = status


class UploadDropped(Exception):
    """The client went away before its whole upload arrived (logged in one line)."""

    def __init__(self, received: int) -> None:
        super().__init__(f"dropped after {received:,} bytes")
        self.received = received


@dataclass(frozen=True)
class Limits:
    per_file: int
    total: int

    def json(self) -> dict[str, int]:
        return {
            "max_file_bytes": self.per_file,
            "max_total_bytes": self.total,
            "max_files": MAX_FILES,
        }


@dataclass(frozen=True)
class BodyTimes:
    idle: float  # longest pause between two pieces of a body
    deadline: float  # the whole body


class UploadBudget:
    """Bytes of upload that all requests together may hold in memory at once.

    A request takes its share as its bytes arrive, a step ahead of them — never as its
    Content-Length announces them, so a client that announces 200 MB and sends a byte now
    and then holds a step, not the page — and gives it back after its answer. While the
    budget is full it waits up to `wait` seconds, then is refused with 503; meanwhile an
    upload that has sent nothing for `stall` seconds loses its share to it (and its own
    request is answered 408: it stopped arriving).
    """

    def __init__(self, capacity: int, wait: float, stall: float = 5.0) -> None:
        self.capacity, self.wait, self.stall, self.used = capacity, wait, stall, 0
        self.holds: set[BudgetHold] = set()

    def hold(self) -> BudgetHold:
        hold = BudgetHold(self)
        self.holds.add(hold)
        return hold

    async def _take(self, size: int, taker: BudgetHold) -> None:
        deadline = time.monotonic() + self.wait
        taker.waiting = True
        try:
            while self.used + size > self.capacity:
                self._reclaim(taker)
                if self.used + size <= self.capacity:
                    break
                if time.monotonic() >= deadline:
                    raise UploadError(
                        503,
                        Text(
                            "Страница занята приёмом других загрузок: попробуйте через минуту.",
                            "The page is busy receiving other uploads: try again in a minute.",
                        ),
                    )
                await asyncio.sleep(BUDGET_POLL_S)
        finally:
            taker.waiting = False
        self.used += size

    def _reclaim(self, taker: BudgetHold) -> None:
        """Uploads that have sent nothing for `stall` seconds give their share up."""
        now = time.monotonic()
        for hold in list(self.holds):
            stalled = now - hold.progress >= self.stall
            if hold is not taker and hold.size and not hold.waiting and stalled:
                hold.evict()


class BudgetHold:
    """One request's share of the budget; `release()` gives all of it back."""

    def __init__(self, budget: UploadBudget) -> None:
        self.budget, self.size = budget, 0
        self.progress = time.monotonic()  # when its last bytes arrived
        self.waiting = False  # waiting for room: not the client's stall
        self.evicted = False
        self.timer: asyncio.Timeout | None = None  # the wait for its next bytes, if any

    async def grow_to(self, size: int) -> None:
        if size > self.size and not self.evicted:
            await self.budget._take(size - self.size, self)
            self.size = size

    def moved(self) -> None:
        self.progress = time.monotonic()

    def evict(self) -> None:
        """Give the share up now and stop the upload at once (its wait ends: 408)."""
        self.evicted = True
        self.release()
        if self.timer is not None:
            self.timer.reschedule(asyncio.get_running_loop().time())

    def release(self) -> None:
        self.budget.used -= self.size
        self.size = 0
        self.budget.holds.discard(self)


def request_cap(limits: Limits) -> int:
    """The most bytes one request's body may have."""
    return limits.total + MULTIPART_SLACK


@dataclass
class _Part:
    headers: dict[bytes, bytes] = field(default_factory=dict)
    name: str | None = None  # file name; None for a plain form field
    data: bytearray = field(default_factory=bytearray)
    oversize: bool = False


class _UploadReader:
    """Feeds the request body to a streaming multipart parser, keeping only bounded bytes.

    A file over the per-file limit stops being kept but the body is still drained (up to
    the total limit) so that the browser reads a clean 413 instead of a reset connection.
    """

    def __init__(self, boundary: bytes, limits: Limits) -> None:
        self.limits, self.received, self.kept = limits, 0, 0
        self.files: list[_Part] = []
        self.fields: dict[str, str] = {}
        self.oversize: list[str] = []
        self._part = _Part()
        self._header = [b"", b""]
        self._parser = MultipartParser(
            boundary,
            {
                "on_part_begin": self._begin,
                "on_part_data": self._data,
                "on_part_end": self._end,
                "on_header_field": lambda d, s, e: self._grow(0, d[s:e]),
                "on_header_value": lambda d, s, e: self._grow(1, d[s:e]),
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_done,
            },
        )

    def feed(self, chunk: bytes) -> None:
        self.received += len(chunk)
        if self.received > request_cap(self.limits):
            raise _too_large_total(self.limits.total)
        self._parser.write(chunk)

    def finish(self) -> None:
        self._parser.finalize()

    def _grow(self, index: int, data: bytes) -> None:
        if len(self._header[index]) + len(data) > 8192:  # a header line, not a payload
            raise _bad_request()
        self._header[index] += data

    def _begin(self) -> None:
        self._part = _Part()

    def _header_end(self) -> None:
        self._part.headers[self._header[0].strip().lower()] = self._header[1].strip()
        self._header = [b"", b""]

    def _headers_done(self) -> None:
        _, options = parse_options_header(self._part.headers.get(b"content-disposition"))
        if b"filename" in options:
            self._part.name = _file_name(options[b"filename"])
            if len(self.files) >= MAX_FILES:
                raise UploadError(
                    413,
                    Text(
                        f"Слишком много файлов сразу: не больше {MAX_FILES}.",
                        f"Too many files at once: at most {MAX_FILES}.",
                    ),
                )

    def _data(self, data: bytes, start: int, end: int) -> None:
        part = self._part
        if part.oversize:
            return
        part.data += data[start:end]
        if part.name is None:
            if len(part.data) > 1024:  # plain fields are a token or a number
                raise _bad_request()
            return
        self.kept += end - start
        if self.kept > self.limits.total:
            raise _too_large_total(self.limits.total)
        if len(part.data) > self.limits.per_file:
            self.kept -= len(part.data)
            part.oversize, part.data = True, bytearray()

    def _end(self) -> None:
        part = self._part
        if part.name is None:
            key = parse_options_header(part.headers.get(b"content-disposition"))[1].get(b"name")
            self.fields[_decode(key or b"")] = _decode(bytes(part.data))
        elif part.oversize:
            self.oversize.append(part.name)
        elif part.name or part.data:  # an empty file input sends a nameless empty part
            self.files.append(part)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# Browsers escape these three characters of a file name in a multipart upload (HTML
# standard, "multipart/form-data encoding algorithm"); the name is taken back as it was.
BROWSER_ESCAPES = (("%22", '"'), ("%0D", "\r"), ("%0A", "\n"))


def _file_name(raw: bytes) -> str:
    """The base name only: some browsers send a whole client path."""
    name = _decode(raw)
    for escaped, char in BROWSER_ESCAPES:
        name = name.replace(escaped, char)
    return name.replace("\\", "/").rsplit("/", 1)[-1].strip()


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.3g}"


def _decimal_comma(number: str) -> str:
    return number.replace(".", ",")  # the decimal comma


def _too_large_total(total: int) -> UploadError:
    mb = _megabytes(total)
    return UploadError(
        413,
        Text(
            f"Слишком большая загрузка: все файлы вместе — не больше {_decimal_comma(mb)} МБ.",
            f"The upload is too large: all files together must fit in {mb} MB.",
        ),
    )


def _bad_request() -> UploadError:
    return UploadError(
        400,
        Text(
            "Запрос не похож на загрузку файлов (multipart/form-data).",
            "The request is not a file upload (multipart/form-data).",
        ),
    )


# ---- turning a request into sources -----------------------------------------------------


async def read_sources(
    request: Request,
    limits: Limits,
    hold: BudgetHold,
    times: BodyTimes,
    suffixes: tuple[str, ...] | None = None,
) -> tuple[list[Source], dict[str, str]]:
    """The uploaded workbooks (checked by name and size) and the plain form fields; the
    bytes are counted in `hold`, and the body must arrive within `times`. With `suffixes`
    (a roster: `.csv`, `.xlsx` …) the files may have those endings and may be none."""
    ctype, options = parse_options_header(request.headers.get("content-type", ""))
    if ctype != b"multipart/form-data" or not options.get(b"boundary"):
        raise _bad_request()
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > request_cap(limits):
        raise _too_large_total(limits.total)  # refuse before reading a byte
    reader = _UploadReader(options[b"boundary"], limits)
    try:
        async for chunk in _timed(request.stream(), times, hold):
            reader.feed(chunk)
            if reader.received > hold.size:  # never more than one request may carry
                await hold.grow_to(min(reader.received + BUDGET_STEP, request_cap(limits)))
        reader.finish()
    except FormParserError as exc:
        raise _bad_request() from exc
    except ClientDisconnect:
        raise UploadDropped(reader.received) from None
    if reader.oversize:
        mb, name = _megabytes(limits.per_file), reader.oversize[0]
        raise UploadError(
            413,
            Text(
                f"Файл «{name}» слишком большой: не больше {_decimal_comma(mb)} МБ на файл.",
                f"File “{name}” is too large: the limit is {mb} MB per file.",
            ),
        )
    if suffixes is not None:
        return _other_files(reader, suffixes), reader.fields
    if not reader.files:
        raise UploadError(
            400,
            Text(
                "Файлы не выбраны: выберите одну или несколько книг .xlsx или .ods.",
                "No file was uploaded: choose one or several .xlsx or .ods workbooks.",
            ),
        )
    for part in reader.files:
        if not (part.name or "").lower().endswith((".xlsx", ".ods")):
            raise UploadError(
                415,
                Text(
                    f"«{part.name}» — не книга Excel или LibreOffice: принимаются файлы .xlsx "
                    "и .ods (в Excel: «Сохранить как» → «Книга Excel (*.xlsx)»).",
                    f"“{part.name}” is not an Excel or LibreOffice workbook: .xlsx and .ods "
                    "files are accepted (in Excel: Save As → Excel Workbook (*.xlsx)).",
                ),
            )
    uploaded = [Source(part.name or "", bytes(part.data)) for part in reader.files]
    return distinct_names(uploaded), reader.fields


def _other_files(reader: _UploadReader, suffixes: tuple[str, ...]) -> list[Source]:
    for part in reader.files:
        if not (part.name or "").lower().endswith(suffixes):
            raise UploadError(
                415,
                Text(
                    f"«{part.name}»: принимаются файлы {', '.join(suffixes)}.",
                    f"“{part.name}”: the files accepted are {', '.join(suffixes)}.",
                ),
            )
    return [Source(part.name or "", bytes(part.data)) for part in reader.files]


async def _timed(
    stream: AsyncIterator[bytes], times: BodyTimes, hold: BudgetHold
) -> AsyncIterator[bytes]:
    """The body's pieces, as long as each follows the last within `times.idle`, all of
    them arrive within `times.deadline` and the upload keeps its share of the budget
    (`hold`); otherwise 408."""
    deadline = time.monotonic() + times.deadline
    while True:
        wait = min(times.idle, deadline - time.monotonic())
        try:
            if wait <= 0 or hold.evicted:
                raise TimeoutError
            async with asyncio.timeout(wait) as timer:
                hold.timer = timer
                chunk = await anext(stream)
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise UploadError(
                408,
                Text(
                    "Загрузка перестала поступать: отправьте файлы снова.",
                    "The upload stopped arriving: send the files again.",
                ),
            ) from None
        finally:
            hold.timer = None
        hold.moved()
        yield chunk


def fingerprint(sources: Sequence[Source]) -> str:
    """Names and bytes of the uploaded set: the page sends it back with a download to make
    sure the workbook it gets is computed from the very files whose results it shows."""
    digest = hashlib.sha256()
    for source in sources:
        for chunk in (source.name.encode(), source.data):
            digest.update(len(chunk).to_bytes(8, "big"))
            digest.update(chunk)
    return digest.hexdigest()[:32]
