"""Other software's game records: read into the protocol, and the rating written out.

One module per format. Each reader is asked in turn whether a document is its own
(`claims`), before anything is read, and the first that says yes reads it — the format is
recognised, never configured (as frictionless asks each format plugin for a resource).
The readers produce the protocol's own records (:class:`~.base.GameData`), which the
template's writers lay out as a protocol workbook; what a reader finds but the protocol
cannot hold is listed, never dropped (:class:`~.base.Lost`). The writers (:mod:`.mwt`'s
upload, :mod:`.csvtable`) take the finished rating.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Source
from ..rules import load_rules
from ..text import Text
from . import emo, imafia, mafiaratings, mwt
from .base import FormatError, Imported, load_json
from .settle import settle


@dataclass(frozen=True)
class Reader:
    """A format that `import` can read: its name, whether a document is its own, and how
    to read it into an :class:`Imported` (returning the number of games it held)."""

    name: Text
    claims: Callable[[Any], bool]
    read: Callable[[Any, str, Imported], int]
    edition: str | None = None  # the scoring edition its games were played by, if known


# The order matters only where two formats could claim one document; none can today
# (each tests its own distinguishing fields), but the most specific comes first.
# The rating site scores by its «ФИИМ» (version 7) unless a tournament says otherwise, and
# its game records and the platforms' games it imports carry no scoring of their own; the
# world tour's upload is scored by the world tour's tournament, not said in it either: the
# product's own default is assumed there (`import --rules` chooses another).
RATING_SITE_EDITION = "mr-fiim-7"
READERS: tuple[Reader, ...] = (
    Reader(mwt.NAME, mwt.claims, mwt.read),
    Reader(emo.NAME, emo.claims, emo.read, RATING_SITE_EDITION),
    Reader(imafia.NAME, imafia.claims, imafia.read, RATING_SITE_EDITION),
    Reader(mafiaratings.NAME, mafiaratings.claims, mafiaratings.read, RATING_SITE_EDITION),
)


def recognise(source: Source) -> tuple[Reader, Any]:
    """The reader whose format `source` is, and the parsed document; one line otherwise."""
    document = load_json(source)
    if document is not None:
        for reader in READERS:
            if reader.claims(document):
                return reader, document
    raise FormatError(_unknown(source))


def import_games(sources: Sequence[Source], edition: str | None = None) -> Imported:
    """Every game of every file, in file order, with what could not be placed under the
    scoring `edition` (a preset's code; None: the one the first file's format implies,
    else the product's default)."""
    out = Imported()
    for source in sources:
        reader, document = recognise(source)
        before = len(out.games)
        reader.read(document, source.name, out)
        out.read.append((source.name, reader.name, len(out.games) - before))
        if reader.edition and out.edition is None:
            out.edition = reader.edition
    out.assumed = edition is None
    out.edition = edition or out.edition
    rules = load_rules(out.edition)
    out.edition = rules.edition.code
    settle(out, rules)
    _distinct_ids(out, sources)
    return out


def _distinct_ids(out: Imported, sources: Sequence[Source]) -> None:
    """Two files numbering their games alike: each file's ids get its name in front."""
    seen: set[tuple[object, str]] = set()
    clash = False
    for game in out.games:
        key = (game.table, game.game)
        clash |= key in seen
        seen.add(key)
    if not clash or len(out.read) < 2:
        return
    at = 0
    for name, _, count in out.read:
        stem = name.rsplit(".", 1)[0]
        for game in out.games[at : at + count]:
            game.game = f"{stem}/{game.game}"
        at += count


def _unknown(source: Source) -> Text:
    names = Text(
        "; ".join(reader.name.ru for reader in READERS),
        "; ".join(reader.name.en for reader in READERS),
    )
    if source.data.startswith(b"PK"):
        return Text(
            f"{source.name} — книга или архив, а не записи игр. Протокол проверяет "
            f"mafia-sheets check; import читает: {names.ru}.",
            f"{source.name} is a workbook or an archive, not game records. A protocol is "
            f"checked with mafia-sheets check; import reads: {names.en}.",
        )
    return Text(
        f"{source.name}: формат не распознан. import читает: {names.ru}.",
        f"{source.name}: the format is not recognised. import reads: {names.en}.",
    )
