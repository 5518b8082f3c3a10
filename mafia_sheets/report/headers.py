"""How every header of the protocol was read, for `Сводка` and `check --json` (SPEC §2.7):
`«Ник» → Игрок`, `«Баллы» → не прочитан`, so a judge sees the mapping at a glance."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..findings import Finding
from ..model import HeaderRead
from ..reading.columns import SCHEMA
from ..text import Text

STATUS: dict[str, Text] = {
    "duplicate": Text("не прочитан: повторяет «{column}»", "not read: repeats “{column}”"),
    "counter": Text("номер строки — не считается", "row number — not counted"),
    "note": Text("комментарий — не считается", "comment — not counted"),
    "hidden": Text("скрытый столбец — не считается", "hidden column — not counted"),
    "unknown": Text("не прочитан: такого столбца нет", "not read: no such column"),
}
UNHEADED = Text("не прочитан", "not read")  # its cells are listed by cells-without-header
NO_HEADER = Text("без заголовка", "no header")
SECTION = Text("Как прочитаны заголовки", "How the headers were read")
ABSENT_SECTION = Text("Чего нет в протоколе", "What the protocol lacks")


def read_as(read: HeaderRead, lang: str) -> str:
    """`Игрок`, or why the header is not read, in one language."""
    name = SCHEMA[read.sheet_code][read.column].name(lang) if read.column else ""
    if read.status == "column":
        return name
    if read.status == "unknown" and not read.typed.strip():
        return UNHEADED(lang)
    return STATUS[read.status](lang).format(column=name)


def typed_header(read: HeaderRead, lang: str) -> str:
    """The header as typed, `«Ник»`, or `(без заголовка)` over a column left unheaded."""
    return f"«{read.typed}»" if read.typed.strip() else f"({NO_HEADER(lang)})"


def header_record(read: HeaderRead, lang: str) -> dict[str, Any]:
    """One entry of `headers` in `check --json` and `rate --json`."""
    return {
        "file": read.source or None,
        "sheet": read.sheet,
        "cell": read.cell,
        "header": read.typed,
        "column": read.column if read.status == "column" else None,
        "read_as": read_as(read, lang),
        "status": read.status,
    }


def header_lines(
    reads: Iterable[HeaderRead], findings: Iterable[Finding], lang: str
) -> list[tuple[str, Any, str]]:
    """The lines of `Сводка`: what is absent, in plain words, then every header's reading."""
    reads = list(reads)
    several = len({read.source for read in reads}) > 1
    lines: list[tuple[str, Any, str]] = []
    absent = [f for f in findings if f.code == "column-absent"]
    if absent:
        lines.append((ABSENT_SECTION(lang), None, ""))
        lines += [(f.sheet, f.message(lang), f.source if several else "") for f in absent]
    if reads:
        lines.append((SECTION(lang), None, ""))
        lines += [
            (
                f"{read.sheet}!{read.cell} {typed_header(read, lang)}",
                f"→ {read_as(read, lang)}",
                read.source if several else "",
            )
            for read in reads
        ]
    return lines
