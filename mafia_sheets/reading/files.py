"""The workbooks of one run: each read once, each known by a name of its own.

A season's games are told apart by their file's name (`night1/12`), and every finding
names its file: two files both called `night1.xlsx` (from two folders, or two uploads)
would pour their games into one another, and one workbook given twice would count its
games twice — both without a word. Here names are made distinct and a second copy of the
same bytes is refused.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePath

from ..errors import ProtocolReadError
from ..model import Source
from ..text import Text


def each_once(sources: Sequence[Source], paths: Sequence[Path] | None = None) -> list[Source]:
    """`sources` with their names told apart, the same workbook given twice refused.

    With the `paths` they were read from, a name shared by several files becomes each
    one's path as given (`sA/night1.xlsx`); without (uploads), the second and later take a
    number as a browser's downloads do (`night1 (2).xlsx`).

    >>> [s.name for s in each_once([Source("a.xlsx", b"1"), Source("a.xlsx", b"2")])]
    ['a.xlsx', 'a (2).xlsx']
    """
    refuse_copies(sources, paths)
    return distinct_names(sources, paths)


def distinct_names(sources: Sequence[Source], paths: Sequence[Path] | None = None) -> list[Source]:
    """`sources` with their names told apart, as :func:`each_once` tells them."""
    names = [s.name for s in sources]
    if paths is not None:
        names = _by_path(names, paths)
    names = _numbered(names)
    return [
        source if name == source.name else Source(name, source.data)
        for source, name in zip(sources, names, strict=True)
    ]


def refuse_copies(sources: Sequence[Source], paths: Sequence[Path] | None = None) -> None:
    """One line naming every workbook that is another's copy, byte for byte."""
    shown = [os.fspath(p) for p in paths] if paths is not None else [s.name for s in sources]
    first: dict[bytes, int] = {}
    copies = []
    for index, source in enumerate(sources):
        seen = first.setdefault(source.data, index)
        if seen != index:
            copies.append((shown[seen], shown[index]))
    if not copies:
        return
    ru = "; ".join(f"{copy} — копия {original}" for original, copy in copies)
    en = "; ".join(f"{copy} is a copy of {original}" for original, copy in copies)
    raise ProtocolReadError(
        Text(
            f"Один и тот же файл дан дважды ({ru}): его игры посчитались бы два раза. "
            "Оставьте один.",
            f"The same file is given twice ({en}): its games would count twice. Keep one.",
        )
    )


def _by_path(names: list[str], paths: Sequence[Path]) -> list[str]:
    """A name several files share replaced by each one's path as given."""
    count = Counter(name.casefold() for name in names)
    return [
        os.fspath(path) if count[name.casefold()] > 1 else name
        for name, path in zip(names, paths, strict=True)
    ]


def _numbered(names: list[str]) -> list[str]:
    """Each name once: a repeated one gets ` (2)`, ` (3)` … before its extension."""
    taken = {name.casefold() for name in names}
    seen: set[str] = set()
    distinct = []
    for name in names:
        unique, number = name, 1
        # a number another file's own name holds is passed over
        while unique.casefold() in seen or (number > 1 and unique.casefold() in taken):
            number += 1
            path = PurePath(name)
            unique = f"{path.stem} ({number}){path.suffix}"
        seen.add(unique.casefold())
        distinct.append(unique)
    return distinct
