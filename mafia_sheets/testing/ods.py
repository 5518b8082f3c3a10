"""OpenDocument spreadsheets written by hand for the tests and the hostile corpus: sound
ones, and the hostile shapes an .ods allows (repeated rows and cells standing for
billions, runs of spaces, entities, a huge content.xml, a tag without end, a part that
declares gigabytes, nesting a hundred thousand deep)."""

from __future__ import annotations

import io
import random
import struct
import zipfile
from xml.sax.saxutils import escape

MIME = b"application/vnd.oasis.opendocument.spreadsheet"
NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)
MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type="'
    'application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
    'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
)


def text(value: object) -> str:
    return (
        '<table:table-cell office:value-type="string"><text:p>'
        f"{escape(str(value))}</text:p></table:table-cell>"
    )


def number(value: float) -> str:
    return (
        f'<table:table-cell office:value-type="float" office:value="{value}">'
        f"<text:p>{value:g}</text:p></table:table-cell>"
    )


def cell(inner: str = "", attrs: str = "", kind: str = "string") -> str:
    """A cell with `attrs` (repeats, spans …) holding the paragraph `inner` (markup)."""
    typed = f' office:value-type="{kind}"' if kind else ""
    return f"<table:table-cell{attrs}{typed}><text:p>{inner}</text:p></table:table-cell>"


def row(*cells: str, repeat: int = 1) -> str:
    attrs = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{attrs}>{''.join(cells)}</table:table-row>"


def table(name: str, *rows: str, style: str = "", columns: str = "") -> str:
    attrs = f' table:style-name="{style}"' if style else ""
    return f'<table:table table:name="{escape(name)}"{attrs}>{columns}{"".join(rows)}</table:table>'


def content(*tables: str, styles: str = "", prolog: str = "") -> bytes:
    head = f"<office:automatic-styles>{styles}</office:automatic-styles>" if styles else ""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog}<office:document-content {NS} '
        f'office:version="1.3">{head}<office:body><office:spreadsheet>{"".join(tables)}'
        "</office:spreadsheet></office:body></office:document-content>"
    ).encode()


def package(body: bytes, manifest: str = MANIFEST, extra: dict[str, bytes] | None = None) -> bytes:
    """An .ods: `mimetype` first and stored, as ODF requires, then the parts."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), MIME)
        archive.writestr("content.xml", body, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in (extra or {}).items():
            archive.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


# ---- a small sound protocol -----------------------------------------------------------------

GAME_HEAD = ("Игра", "Результат")
SEAT_HEAD = ("Игра", "Место", "Игрок", "Роль", "Выбыл", "Когда")
ROLES = ("", "", "Мафия", "", "Шериф", "", "Дон", "", "Мафия", "")
# blacks 3, 7, 9 voted out Д1, Д2, Д3; 1 and 2 killed Н1, Н2: a red win
FLOW = {
    3: ("заголосован", "Д1"),
    1: ("убит", "Н1"),
    7: ("заголосован", "Д2"),
    2: ("убит", "Н2"),
    9: ("заголосован", "Д3"),
}


def seat_rows(game: int = 1, prefix: str = "P") -> list[str]:
    rows = []
    for seat in range(1, 11):
        left, when = FLOW.get(seat, ("", ""))
        cells = [
            number(game),
            number(seat),
            text(f"{prefix}{seat}"),
            text(ROLES[seat - 1] or "Мирный"),
        ]
        cells += [
            text(left) if left else "<table:table-cell/>",
            text(when) if when else "<table:table-cell/>",
        ]
        rows.append(row(*cells))
    return rows


def protocol(games: int = 1, extra_tables: tuple[str, ...] = (), typo: str = "") -> bytes:
    """A valid protocol of `games` red wins, one row per seat (with `typo` for the first
    «Мафия» typed)."""
    game_rows = [row(*map(text, GAME_HEAD))] + [
        row(number(g), text("Красные")) for g in range(1, games + 1)
    ]
    seats = [row(*map(text, SEAT_HEAD))]
    for game in range(1, games + 1):
        seats += seat_rows(game, f"G{game}-")
    body = content(table("Игры", *game_rows), table("Протокол", *seats), *extra_tables)
    if typo:
        body = body.replace("Мафия".encode(), escape(typo).encode(), 1)
    return package(body)


# ---- hostile shapes ---------------------------------------------------------------------------

GAMES = table("Игры", row(*map(text, GAME_HEAD)), row(number(1), text("Красные")))


def declaring(data: bytes, name: str, size: int) -> bytes:
    """The archive with part `name`'s unpacked size in the central directory set to `size`
    (how a zip bomb announces itself; the bytes stay small)."""
    at = data.rfind(b"PK\x01\x02", 0, data.rfind(name.encode()))
    return data[: at + 24] + struct.pack("<L", size) + data[at + 28 :]


def _nested(depth: int) -> dict[str, bytes]:
    """Elements nested `depth` deep, each with its own name so that nothing compresses them
    away: spans in a cell and styles are read (the depth costs nothing), tables in cells
    put their innermost cell past the last column and are refused."""
    rng = random.Random(depth)
    spans = "".join(f'<text:span text:style-name="T{rng.getrandbits(40)}">' for _ in range(depth))
    tables = "".join(
        f'<table:table-cell><table:table table:name="N{rng.getrandbits(40)}"><table:table-row>'
        for _ in range(depth)
    )
    styles = "".join(f'<style:style style:name="S{rng.getrandbits(40)}">' for _ in range(depth))
    return {
        "deep-spans": package(
            content(
                GAMES,
                table(
                    "Протокол",
                    row(
                        f"<table:table-cell><text:p>{spans}x"
                        + "</text:span>" * depth
                        + "</text:p></table:table-cell>"
                    ),
                ),
            )
        ),
        "nested-tables": package(
            content(
                GAMES,
                table(
                    "Протокол",
                    row(
                        tables
                        + text("x")
                        + "</table:table-row></table:table></table:table-cell>" * depth
                    ),
                ),
            )
        ),
        "deep-styles": package(
            content(GAMES),
            extra={
                "styles.xml": (
                    f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {NS}>'
                    f"{styles}" + "</style:style>" * depth + "</office:document-styles>"
                ).encode()
            },
        ),
    }


def hostile() -> dict[str, bytes]:
    """Each hostile shape, as a whole .ods, by name (`far-cell`, `deep-spans` and
    `deep-styles` are harmless: one cell past a million empty rows costs the reader one
    cell, nesting costs nothing, and they are read)."""
    value = cell("1", ' table:number-columns-repeated="16000" office:value="1"', "float")
    far = '<table:table-cell table:number-columns-repeated="16000"/>' + text("x")
    laughs = (
        '<!DOCTYPE office:document-content [<!ENTITY a0 "aaaaaaaaaa">'
        + "".join(f'<!ENTITY a{i + 1} "{f"&a{i};" * 10}">' for i in range(8))
        + "]>"
    )
    return {
        "repeated-cells": package(content(GAMES, table("Протокол", row(value, repeat=1_000_000)))),
        "repeated-rows": package(
            content(GAMES, table("Протокол", row(text("y"), repeat=3_000_000)))
        ),
        "far-cell": package(
            content(
                GAMES, table("Протокол", row("<table:table-cell/>", repeat=1_000_000), row(far))
            )
        ),
        "spaces": package(
            content(
                table(
                    "Игры",
                    row(
                        text("Игра"),
                        cell('a<text:s text:c="2000000000"/>b'),
                    ),
                )
            )
        ),
        "entities": package(content(table("Игры", row(cell("&a8;"))), prolog=laughs)),
        "dtd": package(content(GAMES, prolog="<!DOCTYPE office:document-content>")),
        "copied-text": package(
            content(
                GAMES,
                table(
                    "Протокол",
                    row(cell("z" * 30000, ' table:number-columns-repeated="1000"'), repeat=100),
                ),
            )
        ),
        "long-tag": package(
            content(GAMES).replace(b"<office:body>", b'<office:body x="' + b"a" * 2_000_000 + b'">')
        ),
        "comment-flood": package(
            content(GAMES).replace(b"<office:body>", b"<office:body>" + b"<!---->" * 150_000)
        ),
        "huge-content": package(
            content(GAMES, table("Протокол", *[row(text("q" * 50)) for _ in range(300_000)]))
        ),
        "declared-bomb": declaring(
            package(content(GAMES), extra={"Thumbnails/thumbnail.png": b"\x89PNG" * 25}),
            "Thumbnails/thumbnail.png",
            4_000_000_000,
        ),
        **_nested(100_000),
    }
