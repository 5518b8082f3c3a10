"""The zip mechanics under every zip-based format the product reads (an .xlsx, and any
other archive of XML parts), with nothing format-specific in them.

The archive is opened once. Its directory is judged before anything is unpacked: the
number of entries, the sizes they declare (each, and all together, against what the file
weighs), names in normal form and no two that a reader could take for one another,
entries that do not overlap. Every entry is then unpacked at most as far as it declares,
its checksum verified, and the entries a reader needs are handed on as a new archive
(:meth:`Archive.rebuild`) that holds exactly the compressed bytes judged, under exactly
the names judged — so no reader can be shown anything the scan did not see.

A refusal raises :class:`Unsafe`, :class:`Damaged` or :class:`Malformed` with the reason
only (a clause in RU and EN); what to do is worded by the caller (`reading/safety.py`).
"""

from __future__ import annotations

import copy
import itertools
import struct
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from io import BytesIO

from ..text import Text

_CHUNK_IN = 1 << 16  # compressed bytes fed to zlib at a time
_CHUNK_OUT = 1 << 20  # unpacked bytes handed on at a time


class Refused(Exception):
    """Why the archive cannot be read (a clause, not a whole message)."""

    def __init__(self, why: Text) -> None:
        super().__init__(why.en)
        self.why = why


class Unsafe(Refused):
    """The archive unpacks to more than it declares or than a protocol can be."""


class Damaged(Refused):
    """The archive is truncated, corrupt or misses a part."""


class Malformed(Refused):
    """The archive is built so that two readers could read it differently: no
    spreadsheet program writes it, and a re-save in one makes it plain."""


_THOUSANDS = Text("\u00a0", ",")  # 10 001 in Russian, 10,001 in English
_MEGABYTES = Text("МБ", "MB")


def number(value: int, lang: str) -> str:
    """10001 → `10,001` (en) / `10 001` (ru)."""
    return f"{value:,}".replace(",", _THOUSANDS(lang))


def megabytes(size: int, lang: str, up: bool = False) -> str:
    """Whole megabytes; `up` for a size over a limit, so that it never reads as the limit."""
    whole = -(-size // 1024**2) if up else round(size / 1024**2)
    return f"{number(whole, lang)} {_MEGABYTES(lang)}"


@dataclass(frozen=True)
class ZipLimits:
    """What an archive of the format may be (the format's module sets the values)."""

    max_entries: int
    max_expanded: int  # bytes of every entry together, unpacked
    max_ratio: int  # unpacked : packed, for an entry and for the whole archive …
    ratio_min_bytes: int  # … once it unpacks to more than this


@dataclass(frozen=True)
class Entry:
    name: str
    start: int  # of its compressed bytes in the file
    packed: int
    size: int
    crc: int
    method: int
    raw_name: bytes  # the name as stored (flag bit 11 says how it is encoded)
    utf8: bool


# ---- the directory -----------------------------------------------------------------------


def declared_entries(data: bytes) -> int | None:
    """Entries counted from the end-of-archive record, before zipfile builds one object
    each. None when there is no record (or a look-alike in the comment): zipfile judges."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if (
        end == -1
        or end + 22 > len(data)
        or struct.unpack_from("<H", data, end + 20)[0] != len(data) - end - 22
    ):
        return None
    (entries,) = struct.unpack_from("<H", data, end + 10)
    locator = end - 20
    if entries == 0xFFFF and locator >= 0 and data[locator : locator + 4] == b"PK\x06\x07":
        (zip64_end,) = struct.unpack_from("<Q", data, locator + 8)
        if zip64_end + 40 <= len(data) and data[zip64_end : zip64_end + 4] == b"PK\x06\x06":
            (entries,) = struct.unpack_from("<Q", data, zip64_end + 32)
    return int(entries)


def normal_key(name: str) -> str:
    """What readers may take a part name for: case and the separator folded (python-
    calamine looks names up this way, Office compares part names ignoring case)."""
    return name.replace("\\", "/").lower()


def is_normal_name(name: str) -> bool:
    """A part name as every reader spells it: `/`-separated segments, none empty, `.`
    or `..`, no backslash, no control character, no leading `/`."""
    if not name or "\\" in name or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return False
    return all(segment not in ("", ".", "..") for segment in name.split("/"))


class Archive:
    """One zip archive, opened once from its bytes and judged against `limits`."""

    def __init__(self, data: bytes, limits: ZipLimits) -> None:
        self.data, self.limits = data, limits
        self.unpacked = 0  # bytes unpacked so far, every entry and every pass together
        self._verified: set[str] = set()
        declared = declared_entries(data)  # before zipfile builds one object per entry
        if declared is not None:
            self._check_count(declared)
        try:
            with zipfile.ZipFile(BytesIO(data)) as archive:
                infos = archive.infolist()
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError):
            raise Damaged(
                Text("архив обрезан или повреждён", "the archive is truncated or damaged")
            ) from None
        self._check_count(len(infos))  # the end record may understate it
        self.encrypted = any(info.flag_bits & 0x1 for info in infos)
        self.entries = self._entries(infos)
        self._check_sizes()

    # ---- judging the directory ---------------------------------------------------------

    def _check_count(self, entries: int) -> None:
        if entries > self.limits.max_entries:
            limit = self.limits.max_entries
            raise Unsafe(
                Text(
                    f"в нём {number(entries, 'ru')} частей (предел {number(limit, 'ru')})",
                    f"it holds {number(entries, 'en')} parts (limit {number(limit, 'en')})",
                )
            )

    def _entries(self, infos: list[zipfile.ZipInfo]) -> dict[str, Entry]:
        """Entries by name (folders left out); two names a reader could confuse, a name
        not in normal form, a local header that disagrees or entries that overlap:
        refused."""
        entries: dict[str, Entry] = {}
        keys: dict[str, str] = {}
        for info in infos:
            if _is_folder(info):
                continue  # some zip tools add one for each folder: nothing to read
            if info.orig_filename != info.filename or not is_normal_name(info.filename):
                raise _odd_name(info.orig_filename)
            key = normal_key(info.filename)
            if key in keys:
                raise Malformed(
                    Text(
                        f"в нём две части с одним именем ({keys[key]} и {info.filename})",
                        f"it holds two parts of one name ({keys[key]} and {info.filename})",
                    )
                )
            keys[key] = info.filename
            entries[info.filename] = self._entry(info)
        _check_overlap(entries.values(), len(self.data))
        return entries

    def _entry(self, info: zipfile.ZipInfo) -> Entry:
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise Damaged(
                Text(
                    f"{info.filename} сжат способом, которым Excel не пользуется",
                    f"{info.filename} uses a compression Excel does not write",
                )
            )
        data, offset = self.data, info.header_offset
        if offset + 30 > len(data) or data[offset : offset + 4] != b"PK\x03\x04":
            raise Damaged(Text(f"нет части {info.filename}", f"{info.filename} is missing"))
        name_len, extra_len = struct.unpack_from("<HH", data, offset + 26)
        utf8 = bool(info.flag_bits & 0x800)
        raw = info.orig_filename.encode("utf-8" if utf8 else "cp437")
        if data[offset + 30 : offset + 30 + name_len] != raw:
            raise _odd_name(info.filename)  # zipfile reads one name, another reader the other
        start = offset + 30 + name_len + extra_len
        if start + info.compress_size > len(data):
            raise Damaged(Text("архив обрезан", "the archive is truncated"))
        return Entry(
            info.filename,
            start,
            info.compress_size,
            info.file_size,
            info.CRC,
            info.compress_type,
            raw,
            utf8,
        )

    def _check_sizes(self) -> None:
        """The sizes declared, before anything is unpacked: the whole archive's total, each
        entry's ratio, then the whole archive's (many parts just under the floor)."""
        limits = self.limits
        total = sum(entry.size for entry in self.entries.values())
        if total > limits.max_expanded:
            raise Unsafe(
                Text(
                    f"он распаковывается в {megabytes(total, 'ru', up=True)} (предел "
                    f"{megabytes(limits.max_expanded, 'ru')})",
                    f"it would unpack to {megabytes(total, 'en', up=True)} (limit "
                    f"{megabytes(limits.max_expanded, 'en')})",
                )
            )
        for entry in self.entries.values():
            if entry.size > limits.ratio_min_bytes and entry.size > limits.max_ratio * max(
                entry.packed, 1
            ):
                ratio = entry.size // max(entry.packed, 1)
                raise Unsafe(
                    Text(
                        f"{entry.name} сжат в {number(ratio, 'ru')} раз "
                        f"(предел {limits.max_ratio})",
                        f"{entry.name} is packed {number(ratio, 'en')}:1 "
                        f"(limit {limits.max_ratio}:1)",
                    )
                )
        packed = sum(entry.packed for entry in self.entries.values())
        if total > limits.ratio_min_bytes and total > limits.max_ratio * max(packed, 1):
            ratio = total // max(packed, 1)
            raise Unsafe(
                Text(
                    f"его части вместе сжаты в {number(ratio, 'ru')} раз "
                    f"(предел {limits.max_ratio})",
                    f"its parts together are packed {number(ratio, 'en')}:1 "
                    f"(limit {limits.max_ratio}:1)",
                )
            )

    # ---- unpacking ---------------------------------------------------------------------

    def unpack(self, name: str) -> Iterator[bytes]:
        """Yield one entry's bytes in chunks, stopping the moment it produces more than it
        declares; at the end its size and checksum must match.

        zlib is driven here rather than through zipfile so that a lying header is stopped
        at once, whatever reads the entry later."""
        entry = self.entries[name]
        raw = memoryview(self.data)[entry.start : entry.start + entry.packed]
        chunks = (
            (bytes(raw[at : at + _CHUNK_OUT]) for at in range(0, len(raw), _CHUNK_OUT))
            if entry.method == zipfile.ZIP_STORED
            else _inflate(raw)
        )
        produced, crc = 0, 0
        try:
            for chunk in chunks:
                produced += len(chunk)
                self.unpacked += len(chunk)
                if produced > entry.size:
                    raise _lying(entry)
                self._check_budget()
                crc = zlib.crc32(chunk, crc)
                yield chunk
        except zlib.error:
            raise Damaged(
                Text(f"{name} не распаковывается", f"{name} cannot be unpacked")
            ) from None
        if produced != entry.size or crc != entry.crc:
            raise Damaged(
                Text(
                    f"контрольная сумма {name} не совпадает",
                    f"the checksum of {name} does not match",
                )
            )
        self._verified.add(name)

    def read(self, name: str) -> bytes:
        """A whole (small) entry."""
        return b"".join(self.unpack(name))

    def verify(self, name: str) -> None:
        """Unpack an entry nobody reads here, for its size and checksum."""
        if name not in self._verified:
            for _ in self.unpack(name):
                pass

    def _check_budget(self) -> None:
        """Reading an entry twice (or many entries) is bounded like declaring them."""
        if self.unpacked > 2 * self.limits.max_expanded:
            raise Unsafe(
                Text(
                    f"его чтение распаковывает больше {megabytes(self.unpacked, 'ru')}",
                    f"reading it unpacks over {megabytes(self.unpacked, 'en')}",
                )
            )

    # ---- handing the judged bytes on ---------------------------------------------------

    def without_bytes(self) -> Archive:
        """This archive less the bytes it was opened from, for a process that holds them
        already (the parent of the child that judged them): sent, its facts cost a few
        kilobytes instead of the whole file. :meth:`Archive.with_bytes` gives them back."""
        light = copy.copy(self)
        light.data = b""
        return light

    def with_bytes(self, data: bytes) -> Archive:
        """This archive with `data`, the very bytes it was opened from, again."""
        whole = copy.copy(self)
        whole.data = data
        return whole

    def rebuild(self, names: Iterable[str]) -> bytes:
        """A new archive of exactly these entries: their compressed bytes as stored (so
        they unpack to exactly what was judged), plain headers, nothing else."""
        body, directory = bytearray(), bytearray()
        count = 0
        for name in names:
            self.verify(name)
            entry = self.entries[name]
            directory += _central(entry, len(body))
            body += _local(entry)
            body += memoryview(self.data)[entry.start : entry.start + entry.packed]
            count += 1
        end = struct.pack(
            "<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(directory), len(body), 0
        )
        return bytes(body + directory + end)


def _is_folder(info: zipfile.ZipInfo) -> bool:
    name = info.orig_filename
    return name.endswith("/") and info.file_size == 0 and is_normal_name(name[:-1])


def _odd_name(name: str) -> Malformed:
    shown = name.encode("unicode_escape").decode("ascii")[:120]
    return Malformed(
        Text(
            f"имя его части «{shown}» записано не так, как его записывают Excel и LibreOffice",
            f"the name of its part “{shown}” is not written as Excel or LibreOffice write names",
        )
    )


def _lying(entry: Entry) -> Unsafe:
    return Unsafe(
        Text(
            f"{entry.name} распаковывается больше заявленных {number(entry.size, 'ru')} байт",
            f"{entry.name} unpacks to more than its declared {number(entry.size, 'en')} bytes",
        )
    )


def _check_overlap(entries: Iterable[Entry], size: int) -> None:
    """Entries that share bytes let a small file declare many large ones (a zip bomb made
    of one stream referenced many times)."""
    spans = sorted((entry.start, entry.start + entry.packed, entry.name) for entry in entries)
    for (_, end, name), (start, _, other) in itertools.pairwise(spans):
        if start < end:
            raise Unsafe(
                Text(
                    f"его части {name} и {other} занимают одни и те же байты",
                    f"its parts {name} and {other} share the same bytes",
                )
            )
    if spans and spans[-1][1] > size:
        raise Damaged(Text("архив обрезан", "the archive is truncated"))


def _inflate(raw: memoryview) -> Iterator[bytes]:
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    for at in range(0, len(raw), _CHUNK_IN):
        pending: bytes | memoryview = raw[at : at + _CHUNK_IN]
        while pending and not inflater.eof:
            chunk = inflater.decompress(pending, _CHUNK_OUT)
            pending = inflater.unconsumed_tail
            if chunk:
                yield chunk
        if inflater.eof:
            return
    while not inflater.eof:  # output held back by the _CHUNK_OUT cap
        chunk = inflater.decompress(b"", _CHUNK_OUT)
        if not chunk:
            raise zlib.error("truncated deflate stream")
        yield chunk


def _local(entry: Entry) -> bytes:
    flags = 0x800 if entry.utf8 else 0
    return (
        struct.pack(
            "<4s5H3L2H",
            b"PK\x03\x04",
            20,
            flags,
            entry.method,
            0,
            0x21,  # 1980-01-01: a fixed date, the copy is not a new version of anything
            entry.crc,
            entry.packed,
            entry.size,
            len(entry.raw_name),
            0,
        )
        + entry.raw_name
    )


def _central(entry: Entry, offset: int) -> bytes:
    flags = 0x800 if entry.utf8 else 0
    return (
        struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            20,
            20,
            flags,
            entry.method,
            0,
            0x21,
            entry.crc,
            entry.packed,
            entry.size,
            len(entry.raw_name),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        + entry.raw_name
    )
