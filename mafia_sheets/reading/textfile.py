"""Text files a club exports (csv, tsv, txt): the encoding and the separator guessed.

Registration forms and Excel save utf-8 (with or without a BOM), Windows-1251 (a Russian
Excel's «CSV»), with commas, semicolons or tabs.
"""

from __future__ import annotations

import csv

from ..errors import ProtocolReadError
from ..text import Text

DELIMITERS = ("\t", ";", ",")  # on equal counts the earlier one wins


def decode_text(data: bytes, what: Text) -> str:
    """utf-8 (with or without BOM) when it decodes, else Windows-1251; `what` names the
    file in the refusal («Файл игроков cup.csv»)."""
    if b"\x00" in data[:4096]:
        raise ProtocolReadError(
            Text(
                f"{what.ru} не текстовый. Сохраните его как .csv или .xlsx.",
                f"{what.en} is not a text file. Save it as .csv or .xlsx.",
            ),
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1251")
    except UnicodeDecodeError as exc:
        raise ProtocolReadError(
            Text(
                f"{what.ru}: неизвестная кодировка. Сохраните его как CSV UTF-8.",
                f"{what.en}: unknown text encoding. Save it as CSV UTF-8.",
            ),
        ) from exc


def sniff_delimiter(text: str) -> str:
    """The separator used most in the first lines; a one-column list has none."""
    sample = [line for line in text.splitlines() if line.strip()][:50]
    counts = {d: sum(line.count(d) for line in sample) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def csv_rows(data: bytes, what: Text) -> list[list[str]]:
    """The rows of a csv file, its encoding and separator guessed."""
    text = decode_text(data, what)
    return list(csv.reader(text.splitlines(), delimiter=sniff_delimiter(text)))
