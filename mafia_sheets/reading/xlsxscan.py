"""An .xlsx package read once, from its bytes, exactly as its readers will read it.

The readers are python-calamine (the protocol) and openpyxl (the annotated copy). Each
opens parts by names of its own making — python-calamine glues a relationship's target to
`xl/` as written, openpyxl normalises it, one looks names up ignoring case, the other
does not — so the scan takes the package's parts only by names on which all of them
agree, and refuses the rest: a target not in normal form, an entry two readers would take
for one another (`archive.Archive` refuses those), a reference to a part by another
spelling, a workbook that is not `xl/workbook.xml`, a part that nothing reaches. Every XML
part reached is streamed through `xmlscan.regions` (UTF-8, no document type, bounded
tags); every worksheet through `xlsxsheet.scan_sheet`; the shared strings through
`xlsxsheet.scan_strings`.

The result, :class:`WorkbookScan`, holds the facts (every sheet's state, grid, merges,
formulas, hidden columns; the strings table) and hands the readers the bytes it judged:
:meth:`WorkbookScan.reader_archive` holds exactly the parts python-calamine opens,
:meth:`WorkbookScan.copy_archive` every part reached, for openpyxl's copy.

Nothing here words a message for the judge: a refused archive raises an
`archive.Refused` with the reason only, and `reading/safety.py` says what to do.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..text import Text
from .archive import Archive, Damaged, Malformed, ZipLimits, normal_key
from .archive import is_normal_name as _normal
from .xlsxsheet import Loose, LooseCells, Scan, Strings, malformed, scan_sheet, scan_strings
from .xmlscan import ANY_PREFIX, Markup, attributes, regions, tag_pattern, text_of

WORKBOOK = "xl/workbook.xml"
WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
ROOT_RELS = "_rels/.rels"
CONTENT_TYPES = "[Content_Types].xml"
SHARED_STRINGS = "xl/sharedStrings.xml"
STYLES = "xl/styles.xml"
# what python-calamine opens besides the sheets, each by this very name
_READER_PARTS = (CONTENT_TYPES, ROOT_RELS, WORKBOOK, WORKBOOK_RELS, SHARED_STRINGS, STYLES)
_XML_SUFFIXES = (".xml", ".rels", ".vml")
_SHEET_TYPES = ("/worksheet", "/chartsheet", "/dialogsheet")
_RELATIONSHIP = tag_pattern(ANY_PREFIX, b"Relationship")
_SHEET = tag_pattern(ANY_PREFIX, b"sheet")
_OVERRIDE = tag_pattern(ANY_PREFIX, b"Override")


@dataclass(frozen=True)
class ScanLimits:
    zip: ZipLimits
    max_tag: int  # bytes of one tag, comment or CDATA section
    max_cell: int  # bytes of one cell's XML
    max_relationships: int  # in the whole package
    max_sheets: int
    max_markup: int  # comments, processing instructions and CDATA sections, in the package
    max_loose_cells: int  # cells without a reference, in the package


@dataclass(frozen=True)
class Sheet:
    """One `<sheet>` of the workbook: its name as the reader shows it, its part, its state
    and what its XML holds (None: the part is missing)."""

    name: str
    part: str
    state: str  # visible | hidden | veryHidden
    scan: Scan | None


@dataclass
class WorkbookScan:
    archive: Archive
    sheets: tuple[Sheet, ...]  # every sheet of the workbook, in its order
    strings: Strings | None  # the shared-strings table, when there is one
    parts: tuple[str, ...]  # every part reached, in the archive's order
    _reader: bytes | None = field(default=None, repr=False)

    def sheet(self, name: str) -> Sheet | None:
        return next((sheet for sheet in self.sheets if sheet.name == name), None)

    def hidden_columns(self) -> dict[str, frozenset[int]]:
        """Sheet name → 0-based indices of its hidden columns (helper columns a club
        hides): python-calamine does not say, the scan has read each sheet's `<cols>`."""
        return {s.name: s.scan.hidden_columns for s in self.sheets if s.scan is not None}

    def reader_archive(self) -> bytes:
        """The archive python-calamine is given: the parts it opens, as judged."""
        if self._reader is None:
            wanted = set(_READER_PARTS) | {s.part for s in self.sheets if s.scan is not None}
            self._reader = self.archive.rebuild(p for p in self.parts if p in wanted)
        return self._reader

    def copy_archive(self) -> bytes:
        """The archive openpyxl is given for the annotated copy: every part reached."""
        return self.archive.rebuild(self.parts)


def scan_workbook(archive: Archive, limits: ScanLimits) -> WorkbookScan:
    """Read the package (see the module's docstring); raises `archive.Refused`."""
    package = _Package(archive, limits)
    sheets = package.sheets()
    parts = package.reach()
    scans: dict[str, Scan] = {}
    for sheet in sheets:
        if sheet.part in archive.entries and sheet.part not in scans:
            scans[sheet.part] = package.scan_sheet(sheet.part)
    strings = None
    if SHARED_STRINGS in archive.entries:
        strings = scan_strings(package.regions(SHARED_STRINGS), SHARED_STRINGS)
    done = {*scans, SHARED_STRINGS, *package.read}
    for part in parts:
        if part not in done and part.lower().endswith(_XML_SUFFIXES):
            for _ in package.regions(part):  # well-formed enough for any reader
                pass
    return WorkbookScan(
        archive,
        tuple(Sheet(s.name, s.part, s.state, scans.get(s.part)) for s in sheets),
        strings,
        tuple(parts),
    )


@dataclass(frozen=True)
class _Rel:
    type: str
    target: str
    external: bool


class _Package:
    """The package's index: relationships, content types, the workbook's sheets."""

    def __init__(self, archive: Archive, limits: ScanLimits) -> None:
        self.archive, self.limits = archive, limits
        self.markup = Markup(limits.max_markup)  # these two shared by every part
        self.loose = LooseCells(limits.max_loose_cells)
        self.relationships = 0
        self.read: set[str] = set()  # index parts already streamed
        self._rels: dict[str, dict[bytes, _Rel]] = {}
        self._check_root()
        self._check_content_types()

    def regions(self, part: str) -> Iterator[bytes]:
        return regions(self.archive.unpack(part), part, self.limits.max_tag, self.markup)

    def scan_sheet(self, part: str) -> Scan:
        try:
            return scan_sheet(self.regions(part), part, self.limits.max_cell)
        except Loose:  # a cell without a reference: every cell placed in turn
            return scan_sheet(self.regions(part), part, self.limits.max_cell, self.loose)

    # ---- relationships -------------------------------------------------------------

    def rels(self, part: str) -> dict[bytes, _Rel]:
        """The relationships of the rels part `part`, by Id (none twice)."""
        if part not in self._rels:
            self._rels[part] = self._read_rels(part)
        return self._rels[part]

    def _read_rels(self, part: str) -> dict[bytes, _Rel]:
        found: dict[bytes, _Rel] = {}
        for attrs in self._tags(part, _RELATIONSHIP):
            rel_id = attrs.get(b"Id", b"")
            if rel_id in found:
                raise malformed(part, Text("повторный Id связи", "a repeated relationship Id"))
            found[rel_id] = _Rel(
                attrs.get(b"Type", b"").decode("utf-8", "replace"),
                attrs.get(b"Target", b"").decode("utf-8", "replace"),  # as python-calamine
                attrs.get(b"TargetMode", b"") == b"External",
            )
            self.relationships += 1
            if self.relationships > self.limits.max_relationships:
                raise malformed(part, Text("тысячи связей", "thousands of relationships"))
        return found

    def _tags(self, part: str, pattern: re.Pattern[bytes]) -> Iterator[dict[bytes, bytes]]:
        self.read.add(part)
        for region in self.regions(part):
            for tag in pattern.finditer(region):
                attrs = attributes(tag.group(1).removesuffix(b"/"))
                if attrs is None:
                    raise malformed(part, Text("тег", "a tag"), tag.group(0))
                yield attrs

    def resolve(self, source: str, target: str) -> str | None:
        """The entry `target` names from the part `source`, as every reader resolves it;
        None when there is no such part. Refused unless the target is in normal form
        and names the entry by its own spelling."""
        if not target or any(ch in target for ch in "\\&?#") or target != target.strip():
            raise _not_normal(source, target)
        if target.startswith("/"):
            path = target[1:]
        else:
            segments, base = target.split("/"), posixpath.dirname(source).split("/")
            ups = next((i for i, s in enumerate(segments) if s != ".."), len(segments))
            base = [s for s in base if s]
            if ups > len(base):
                raise _not_normal(source, target)
            path = "/".join([*base[: len(base) - ups], *segments[ups:]])
        if not _normal(path):
            raise _not_normal(source, target)
        if path in self.archive.entries:
            return path
        if any(normal_key(name) == normal_key(path) for name in self.archive.entries):
            raise _not_normal(source, target)  # one reader finds it, another does not
        return None

    # ---- the root and the content types --------------------------------------------

    def _check_root(self) -> None:
        """The workbook is `xl/workbook.xml`: python-calamine reads that name (after the
        folder of the package's main part), openpyxl the content types' main part."""
        if ROOT_RELS not in self.archive.entries:
            return  # no reader opens such a package: it is refused there, in one line
        main = [r for r in self.rels(ROOT_RELS).values() if r.type.endswith("/officeDocument")]
        if len(main) > 1 or (main and self.resolve("", main[0].target) != WORKBOOK):
            raise Malformed(
                Text(
                    "книга лежит в архиве не там, где её хранит Excel (xl/workbook.xml)",
                    "its workbook is not where Excel keeps it (xl/workbook.xml)",
                )
            )

    def _check_content_types(self) -> None:
        if CONTENT_TYPES not in self.archive.entries:
            return
        for attrs in self._tags(CONTENT_TYPES, _OVERRIDE):
            kind = attrs.get(b"ContentType", b"").decode("utf-8", "replace")
            name = text_of(attrs.get(b"PartName", b"")) or ""
            excel = "spreadsheetml" in kind or "ms-excel" in kind
            if excel and kind.endswith(".main+xml") and name != "/" + WORKBOOK:
                raise _not_normal(CONTENT_TYPES, name)  # openpyxl reads the workbook named here
            if excel and kind.endswith(".sharedStrings+xml") and name != "/" + SHARED_STRINGS:
                raise _not_normal(CONTENT_TYPES, name)  # … and the strings

    # ---- the sheets ----------------------------------------------------------------

    def sheets(self) -> list[_Listed]:
        """Every `<sheet>` of the workbook with the part python-calamine opens for it."""
        if WORKBOOK not in self.archive.entries:
            raise Damaged(Text(f"нет части {WORKBOOK}", f"{WORKBOOK} is missing"))
        rels = self.rels(WORKBOOK_RELS) if WORKBOOK_RELS in self.archive.entries else {}
        listed = []
        for attrs in self._tags(WORKBOOK, _SHEET):
            listed.append(self._sheet(attrs, rels))
            if len(listed) > self.limits.max_sheets:
                raise malformed(WORKBOOK, Text("тысячи листов", "thousands of sheets"))
        return listed

    def _sheet(self, attrs: dict[bytes, bytes], rels: dict[bytes, _Rel]) -> _Listed:
        ids = [value for key, value in attrs.items() if key == b"id" or key.endswith(b":id")]
        name = text_of(attrs.get(b"name", b""))
        if len(ids) > 1 or name is None:
            raise malformed(WORKBOOK, Text("тег листа", "a sheet tag"))
        rel = rels.get(ids[0]) if ids else None
        if rel is None or rel.external or not rel.type.endswith(_SHEET_TYPES):
            return _Listed(name, "", _state(attrs))
        literal = rel.target[1:] if rel.target.startswith("/") else "xl/" + rel.target
        if self.resolve(WORKBOOK, rel.target) not in (literal, None) or not _normal(literal):
            raise _not_normal(WORKBOOK_RELS, rel.target)  # python-calamine reads `literal`
        return _Listed(name, literal, _state(attrs))

    # ---- what the package reaches --------------------------------------------------

    def reach(self) -> list[str]:
        """Every part a relationship reaches from the package's root (with the rels parts
        of reached parts, and the parts python-calamine opens by name), in the archive's
        order; a part nothing reaches is refused."""
        entries = self.archive.entries
        reached = {part for part in _READER_PARTS if part in entries}
        queue, seen = [WORKBOOK, *self._targets("", ROOT_RELS)], set()
        while queue:
            part = queue.pop()
            if part in seen or part not in entries:
                continue
            seen.add(part)
            rels = _rels_of(part)
            if rels in entries:
                reached.add(rels)
                queue += self._targets(part, rels)
        reached |= seen
        unreached = [name for name in entries if name not in reached]
        if unreached:
            raise Malformed(
                Text(
                    f"в нём есть часть, которой книга не пользуется ({unreached[0]})",
                    f"it holds a part the workbook does not use ({unreached[0]})",
                )
            )
        return list(entries)

    def _targets(self, source: str, rels: str) -> list[str]:
        if rels not in self.archive.entries:
            return []
        found = []
        for rel in self.rels(rels).values():
            if not rel.external:
                path = self.resolve(source, rel.target)
                if path is not None:
                    found.append(path)
        return found


@dataclass(frozen=True)
class _Listed:
    name: str
    part: str  # "" when no part is related
    state: str


def _state(attrs: dict[bytes, bytes]) -> str:
    return attrs.get(b"state", b"visible").decode("ascii", "replace")


def _rels_of(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _not_normal(source: str, target: str) -> Malformed:
    shown = target.encode("unicode_escape").decode("ascii")[:100]
    return Malformed(
        Text(
            f"{source} ссылается на часть «{shown}» не так, как ссылаются Excel и LibreOffice",
            f"{source} names a part “{shown}” as neither Excel nor LibreOffice would",
        )
    )
