"""Rows deflated while they are written, and the zip that holds them.

zlib lets go of the interpreter's lock while it compresses, so one worker thread deflates
each sheet's rows as they are emitted — on the second core, while the next rows are
rendered — instead of the rows going to a temporary file that is read back, copied into
the sheet's XML and deflated after everything else. The workbook's zip is then put
together from the pieces: each part's head and tail deflated at the end, its rows already
deflated between them (three raw deflate streams joined at byte-aligned sync flushes, as
pigz joins its blocks), its CRC combined from the pieces'. The parts unpack to the very
bytes xlsxwriter would have zipped.

Standard library only; :mod:`.engine` wires it to xlsxwriter.
"""

from __future__ import annotations

import functools
import queue
import struct
import threading
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from typing import IO

FLUSH_AT = 1 << 20  # bytes gathered before they go to the worker
QUEUED = 2  # chunks waiting for the worker at most: memory stays bounded
MARKER = b"\x00rows-"  # where a sheet's deflated rows go; no XML holds a NUL
# Every part is dated 31 January 1980, 00:00, as xlsxwriter dates its parts on disk.
_DOS_DATE, _DOS_TIME = (1 << 5) | 31, 0
_REGULAR_FILE = 0o100600 << 16  # external attributes: a plain file, owner read/write
_LIMIT = 0xFFFFFFFF  # beyond this a zip needs Zip64, which xlsxwriter does not ask for


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of `a + b` from crc32(a), crc32(b) and len(b) — zlib's crc32_combine,
    which Python's zlib does not expose (square-and-multiply over GF(2) matrices).

    >>> a, b = b"protocol ", b"results"
    >>> crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
    True
    """
    if length2 <= 0:
        return crc1
    power = 0
    while length2:  # one multiply for each bit of length2
        if length2 & 1:
            crc1 = _times(_zero_bytes(power), crc1)
        length2 >>= 1
        power += 1
    return crc1 ^ crc2


@functools.cache
def _zero_bytes(power: int) -> tuple[int, ...]:
    """The operator that runs a CRC over 2**power zero bytes: squared from the one of a
    zero bit, once for all (a book's parts combine a few dozen CRCs)."""
    if power == 0:
        zero_bit = (0xEDB88320, *(1 << n for n in range(31)))
        return _squared(_squared(_squared(zero_bit)))  # one bit, 2, 4, 8: one byte
    return _squared(_zero_bytes(power - 1))


def _times(matrix: tuple[int, ...], vector: int) -> int:
    total, row = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[row]
        vector >>= 1
        row += 1
    return total


def _squared(matrix: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_times(matrix, matrix[n]) for n in range(32))


class Deflater:
    """One worker thread for a book's rows: chunks are deflated in the order they come."""

    def __init__(self, level: int) -> None:
        self.level = level
        self._queue: queue.Queue[tuple[DeflatedRows, bytes | None] | None] = queue.Queue(QUEUED)
        self._thread: threading.Thread | None = None
        self._streams = 0

    def stream(self) -> DeflatedRows:
        """A new sheet's rows, found again in its XML by their `marker`."""
        return DeflatedRows(self, self.marker())

    def marker(self) -> bytes:
        """A marker no other sheet of this book has."""
        self._streams += 1
        return MARKER + b"%d\x00" % self._streams

    def put(self, stream: DeflatedRows, data: bytes | None) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="deflate", daemon=True)
            self._thread.start()
        self._queue.put((stream, data))

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            stream, data = item
            stream.deflate(data)

    def stop(self) -> None:
        """Ends the worker once what is queued is done (a book's last act)."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None


class DeflatedRows:
    """A sheet's row data as a write-only text file (what xlsxwriter writes rows to):
    gathered as UTF-8 (xlsxwriter's text encoded as it comes, the streamer's rows already
    bytes) and deflated by the book's worker."""

    def __init__(self, deflater: Deflater, marker: bytes) -> None:
        self.marker = marker
        self._deflater = deflater
        self._texts: list[bytes] = []  # UTF-8
        self._gathered = 0
        self._compressor = zlib.compressobj(deflater.level, zlib.DEFLATED, -15)
        self._chunks: list[bytes] = []
        self._crc = 0
        self._size = 0
        self._error: BaseException | None = None
        self._done = threading.Event()

    def write(self, text: str) -> int:
        data = text.encode()
        self._texts.append(data)
        self._gathered += len(data)
        if self._gathered >= FLUSH_AT:
            self._send()
        return len(text)

    def writelines(self, texts: list[bytes]) -> None:
        """Many rows at once, already UTF-8: joined only when they go to the worker."""
        self._texts += texts
        self._gathered += sum(map(len, texts))
        if self._gathered >= FLUSH_AT:
            self._send()

    def close(self) -> None:
        """xlsxwriter closes its row file at the end; nothing is open here."""

    def _send(self) -> None:
        if self._texts:
            data = b"".join(self._texts)
            self._texts, self._gathered = [], 0
            self._deflater.put(self, data)

    def deflate(self, data: bytes | None) -> None:
        """In the worker: one chunk, or (None) the sync flush that ends the rows."""
        try:
            if self._error is not None:
                pass  # the rows are lost already: only the end is awaited
            elif data is None:
                self._chunks.append(self._compressor.flush(zlib.Z_SYNC_FLUSH))
            else:
                self._crc = zlib.crc32(data, self._crc)
                self._size += len(data)
                self._chunks.append(self._compressor.compress(data))
        except BaseException as error:  # said where the rows are asked for
            self._error = error
        finally:
            if data is None:
                self._done.set()

    def finish(self) -> tuple[list[bytes], int, int]:
        """The deflated rows (ending on a byte boundary, not final), their CRC and size."""
        self._send()
        self._deflater.put(self, None)
        self._done.wait()
        if self._error is not None:
            raise self._error
        chunks, self._chunks = self._chunks, []  # the package holds them from here on
        return chunks, self._crc, self._size


class DeliveredRows:
    """A sheet's rows deflated elsewhere (by a forked child): what
    :meth:`DeflatedRows.finish` gave there, found by this book's `marker`."""

    def __init__(self, marker: bytes, rows: tuple[list[bytes], int, int]) -> None:
        self.marker = marker
        self._rows = rows

    def write(self, text: str) -> int:
        raise RuntimeError("the rows of a sheet written elsewhere are finished")

    def close(self) -> None:
        """Nothing is open: the rows arrived finished."""

    def finish(self) -> tuple[list[bytes], int, int]:
        return self._rows


SheetRows = DeflatedRows | DeliveredRows


class Package:
    """The subset of :class:`zipfile.ZipFile` that xlsxwriter's store uses (`write` of
    a part's temporary file, `writestr`, `close`), writing deflated parts whose rows may
    already be deflated (`streams`, by marker)."""

    def __init__(
        self,
        file: IO[bytes],
        mode: str = "w",
        compression: int = zipfile.ZIP_DEFLATED,
        allowZip64: bool = False,
        *,
        streams: Mapping[bytes, SheetRows],
        level: int = 1,
    ) -> None:
        if mode != "w" or compression != zipfile.ZIP_DEFLATED:
            raise ValueError("a package is written once, deflated")
        self._out, self._streams, self._level = file, dict(streams), level
        self._central: list[bytes] = []

    def write(self, filename: str, arcname: str) -> None:
        with open(filename, "rb") as handle:
            self.writestr(arcname, handle.read())

    def writestr(self, name: str | zipfile.ZipInfo, data: bytes | str) -> None:
        arcname = name.filename if isinstance(name, zipfile.ZipInfo) else name
        content = data.encode() if isinstance(data, str) else data
        start = content.find(MARKER)
        end = content.find(b"\x00", start + 1) + 1 if start >= 0 else 0
        stream = self._streams.pop(content[start:end], None) if end else None
        if stream is None:
            self._entry(arcname, self._deflated([content]), zlib.crc32(content), len(content))
            return
        head, tail = content[:start], content[end:]
        rows, crc, size = stream.finish()
        crc = crc32_combine(crc32_combine(zlib.crc32(head), crc, size), zlib.crc32(tail), len(tail))
        pieces = [*self._deflated([head], final=False), *rows, *self._deflated([tail])]
        self._entry(arcname, pieces, crc, len(head) + size + len(tail))

    def _deflated(self, data: Iterable[bytes], final: bool = True) -> list[bytes]:
        compressor = zlib.compressobj(self._level, zlib.DEFLATED, -15)
        pieces = [compressor.compress(piece) for piece in data]
        return [*pieces, compressor.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)]

    def _entry(self, arcname: str, pieces: list[bytes], crc: int, size: int) -> None:
        name = arcname.encode()
        flags = 0 if name.isascii() else 0x800  # UTF-8 names are flagged as such
        offset = self._out.tell()
        packed = sum(map(len, pieces))
        if max(size, packed, offset) >= _LIMIT:
            raise zipfile.LargeZipFile("Filesize would require ZIP64 extensions")
        stamp = (8, _DOS_TIME, _DOS_DATE, crc, packed, size, len(name))
        self._out.write(struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, flags, *stamp, 0))
        self._out.write(name)
        for piece in pieces:
            self._out.write(piece)
        made = (20, 3, 20, 0, flags)  # version 2.0 on Unix, needs 2.0
        rest = (0, 0, 0, 0, _REGULAR_FILE, offset)  # extra, comment, disk, internal attributes
        self._central.append(struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", *made, *stamp, *rest))
        self._central[-1] += name

    def close(self) -> None:
        start = self._out.tell()
        for record in self._central:
            self._out.write(record)
        size = self._out.tell() - start
        if start + size >= _LIMIT or len(self._central) >= 0xFFFF:
            raise zipfile.LargeZipFile("Filesize would require ZIP64 extensions")
        count = len(self._central)
        self._out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, size, start, 0))
        for stream in self._streams.values():  # rows of a sheet that wrote none: dropped
            stream.finish()
