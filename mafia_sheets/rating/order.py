"""The natural order of game ids: 2 before 10, `night2/3` before `night10/1`."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype

_NUMBERS = re.compile(r"(\d+)")


def natural_rank(ids: pd.Series) -> np.ndarray:
    """Sort ranks of game ids in natural order: 2 before 10, `night2/3` before `night10/1`.

    Each distinct id is ranked once, so a million seat rows cost one factorize.
    """
    if ids.dtype == object and infer_dtype(ids, skipna=False) == "string":
        # texts already (game ids): as text they are themselves, so the rows are
        # factorized as they are and only the distinct ids converted
        codes, distinct = pd.factorize(ids.to_numpy(), use_na_sentinel=False)
        texts = [str(text) for text in distinct]
    else:
        codes, uniques = pd.factorize(ids.astype(str), use_na_sentinel=False)
        texts = [str(text) for text in uniques.tolist()]
    order = natural_order(texts)
    rank = np.empty(len(texts), dtype=np.int64)
    rank[order] = np.arange(len(texts))
    return rank[codes]


# A text of at most this many decimal digits is a number that int64 holds.
_DIGITS_MAX = 18


def natural_order(texts: list[str]) -> np.ndarray:
    """The positions of `texts` in natural order, ties in their given order (a stable sort).

    Texts that are all plain numbers (`12`, the usual game ids) have the key `('', 12,
    '')`: their order is that of the numbers, found by one stable sort in numpy.

    >>> natural_order(["10", "2", "02", "1"]).tolist()
    [3, 1, 2, 0]
    >>> natural_order(["b2", "a10", "a2"]).tolist()
    [2, 1, 0]
    """
    if all(text.isdecimal() and len(text) <= _DIGITS_MAX for text in texts):
        numbers = np.fromiter(map(int, texts), dtype=np.int64, count=len(texts))
        return np.argsort(numbers, kind="stable")
    keys = [_key(text) for text in texts]
    return np.asarray(sorted(range(len(keys)), key=keys.__getitem__), dtype=np.intp)


# each id's key by its text: the standings, the games, the history and the statistics rank
# the same ids again. Bounded: cleared when full.
_KEYS: dict[str, tuple[object, ...]] = {}
_KEYS_MAX = 1 << 17


def _key(text: str) -> tuple[object, ...]:
    key = _KEYS.get(text)
    if key is None:
        if len(_KEYS) >= _KEYS_MAX:
            _KEYS.clear()
        key = _KEYS[text] = _natural(text)
    return key


def _natural(text: str) -> tuple[object, ...]:
    # re.split with a group alternates text and digits, so positions never mix types.
    return tuple(int(p) if i % 2 else p for i, p in enumerate(_NUMBERS.split(text)))
