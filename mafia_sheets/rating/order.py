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
        texts = pd.Series(distinct, dtype=object).astype(str).tolist()
    else:
        codes, uniques = pd.factorize(ids.astype(str), use_na_sentinel=False)
        texts = uniques.tolist()
    keys = [_key(str(text)) for text in texts]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    return rank[codes]


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
