"""The lot seed `rate --lot-seed` and the page accept (the draw itself: :mod:`.rank`).

Apart from the draw so that the command line judges a seed before it imports pandas.
"""

from __future__ import annotations

from ..errors import MafiaSheetsError
from ..text import Text

# The lot seeds `rate --lot-seed` and the page accept, both refused outside it in the same
# words: any 32-bit unsigned number — plenty of draws, and exact in a results cell (Excel keeps
# 15 digits; a 40-digit seed used to crash writing the results).
LOT_SEED_MAX = 2**32 - 1


def parse_lot_seed(raw: str) -> int:
    """`raw` as a lot seed, or one line saying what a seed may be."""
    text = raw.strip()
    if text.isascii() and text.isdigit() and int(text) <= LOT_SEED_MAX:
        return int(text)
    shown = text[:40] + ("…" if len(text) > 40 else "")
    top = f"{LOT_SEED_MAX:,}"
    raise MafiaSheetsError(
        Text(
            f"Зерно жребия должно быть целым числом от 0 до {top.replace(',', ' ')}, "
            f"а не «{shown}».",
            f"The lot seed must be a whole number from 0 to {top}, not “{shown}”.",
        )
    )
