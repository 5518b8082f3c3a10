"""Cell references (`A1`, `$B$7`, `A1:C3`) and column letters, read and written here only."""

from __future__ import annotations

import re

MAX_ROW = 1_048_576  # Excel's grid: rows 1…1,048,576, columns A…XFD (16,384)
MAX_COL = 16_384

# letters then digits, each optionally after `$`; any length (a hostile one may be long)
_REF = re.compile(r"\s*\$?([A-Za-z]+)\$?([0-9]+)\s*")


def column_number(letters: bytes | str) -> int:
    """`A` → 1, `XFD` → 16384; past 8 letters the value is off the grid anyway."""
    raw = letters.encode("ascii", "replace") if isinstance(letters, str) else letters
    number = 0
    for byte in raw[:8]:
        number = number * 26 + (byte & 0x1F)
    return number if len(raw) <= 8 else MAX_COL * 26


def column_letter(index: int) -> str:
    """0 → 'A', 25 → 'Z', 26 → 'AA'."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def parse_ref(text: str) -> tuple[int, int] | None:
    """`B7` → (2, 7): the 1-based column and row, on the grid or not; None if it is no
    reference."""
    found = _REF.fullmatch(text)
    if found is None:
        return None
    digits = found.group(2)
    return column_number(found.group(1)), int(digits) if len(digits) < 20 else 10**20


def parse_range(text: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """`A1:C3` (or one cell) → its corners, each (column, row); None if unreadable."""
    corners = [parse_ref(part) for part in text.split(":")]
    if len(corners) == 1:
        corners *= 2
    if len(corners) != 2 or corners[0] is None or corners[1] is None:
        return None
    return corners[0], corners[1]


def range_area(text: str) -> int:
    """Cells of a range such as a merged one; 0 when it cannot be read."""
    corners = parse_range(text)
    if corners is None:
        return 0
    (c1, r1), (c2, r2) = corners
    return (abs(c2 - c1) + 1) * (abs(r2 - r1) + 1)


def in_grid(col: int, row: int) -> bool:
    return 1 <= col <= MAX_COL and 1 <= row <= MAX_ROW
