"""The natural order of ids: numbers by their value, ties kept in their given order, and the
same order whichever way it is found."""

from __future__ import annotations

import random

import pandas as pd

from mafia_sheets.rating.order import _natural, natural_order, natural_rank


def by_keys(texts: list[str]) -> list[int]:
    keys = [_natural(text) for text in texts]
    return sorted(range(len(texts)), key=keys.__getitem__)


def test_plain_numbers_in_the_order_of_their_keys_ties_as_given():
    rng = random.Random(7)
    texts = [str(rng.randrange(0, 300)) for _ in range(2_000)]
    texts += ["007", "7", "0", "00", "١٢", "12", "9" * 18]
    assert natural_order(texts).tolist() == by_keys(texts)


def test_texts_with_letters_keep_the_keys_order():
    texts = ["night10/1", "night2/3", "10", "2", "стол 2, игра 3", "", "a", "1" * 19]
    assert natural_order(texts).tolist() == by_keys(texts)


def test_rank_of_rows_follows_the_distinct_ids():
    ids = pd.Series(["10", "2", "10", "1", None, "2"], dtype=object)
    rank = natural_rank(ids.fillna("\uffff"))
    assert rank.tolist() == [2, 1, 2, 0, 3, 1]
    numbers = pd.Series([3, 10, "\uffff", 3], dtype=object)
    assert natural_rank(numbers).tolist() == [0, 1, 2, 0]
    assert natural_order([]).tolist() == []
