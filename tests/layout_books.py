"""Workbooks in the other layouts typed the way clubs type them, with their row-layout twins.

Each builder takes the games of a :class:`builders.Proto` (the twin) and lays them out
by hand with openpyxl — not with the product's own writer — with the quirks of real
files: merged titles, labels in other places and languages, foul boxes marked «+» or «x»,
the result marked beside printed options, best-move seats in separate cells, departures
as rows of kills by night and votes by day, a half-filled last game.
"""

from __future__ import annotations

import io
from typing import Any

import openpyxl
from builders import Proto

from mafia_sheets import vocab

ROLE_LETTER = {"Мирный": "", "": "", "Мафия": "М", "Шериф": "Ш", "Дон": "Д"}


def _save(book: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _seats(proto: Proto, game: Any) -> list[dict[str, Any]]:
    return sorted((r for r in proto.seats if r["game"] == game), key=lambda r: r["seat"])


def _phases(rows: list[dict[str, Any]], left: str) -> dict[int, list[int]]:
    """phase number (day k or night k) → seats that left that way."""
    out: dict[int, list[int]] = {}
    for row in rows:
        if row["left"] == left:
            ordinal = vocab.parse_phase(row["when"])
            assert ordinal is not None
            out.setdefault((ordinal + 1) // 2, []).append(row["seat"])
    return out


def ukrainian_club(proto: Proto, tables: dict[Any, int], unplayed: bool = True) -> bytes:
    """A Ukrainian club's Google-Sheets blank (FIELD.md §2A): sheets `Стіл1Гра1` …, the
    red/black marks at J1/J2, roles in column A, seats in B, nicknames in C, four foul
    boxes D–G marked «+», bonus in H with a decimal comma, best move in row 23 (victim's
    seat first), kills by night in row 34, votes by day in row 45 (`37` = seats 3 and 7)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    numbers: dict[int, int] = {}
    for game in proto.games:
        table = tables[game["game"]]
        numbers[table] = numbers.get(table, 0) + 1
        ws = book.create_sheet(f"Стіл{table}Гра{numbers[table]}")
        ws["A1"] = "ПРОТОКОЛ ГРИ"
        ws.merge_cells("A1:F1")
        ws["I1"], ws["I2"] = "Перемога мирних", "Перемога мафії"
        result = game["result"]
        if result == "Красные":
            ws["J1"] = "+"
        elif result == "Чёрные":
            ws["J2"] = "+"
        ws["B2"], ws["C2"] = "Суддя", game.get("judge", "Олена")
        ws["B4"], ws["C4"] = "Клуб", "Полтава"
        ws["E5"], ws["F5"] = "Стіл", table
        ws["B7"], ws["C7"] = "Гра №", game["game"]
        ws["A10"], ws["B10"], ws["C10"], ws["D10"], ws["H10"] = (
            "Роль",
            "№",
            "Гравець",
            "Фоли",
            "Дод. бали",
        )
        ws.merge_cells("D10:G10")
        rows = _seats(proto, game["game"])
        for index, row in enumerate(rows):
            r = 11 + index
            ws.cell(r, 1, ROLE_LETTER[row["role"]] or None)
            ws.cell(r, 2, row["seat"])
            ws.cell(r, 3, row["player"])
            for box in range(int(row["fouls"] or 0)):
                ws.cell(r, 4 + box, "+")
            bonus = {"ЛИ": 1, "ЛИ2": "0,5", "ЛИП": "0,5"}.get(row["bonus"])
            ws.cell(r, 8, bonus)
        maker = next((row for row in rows if row["best_move"]), None)
        ws["A23"] = "ЛХ"
        if maker is not None:
            ws["B23"] = maker["seat"]
            for offset, seat in enumerate(str(maker["best_move"]).split()):
                ws.cell(23, 3 + offset, int(seat))
        ws["A34"] = "Вбито"
        for night, seats in _phases(rows, "убит").items():
            ws.cell(34, 1 + night, seats[0])
        ws["A45"] = "Заголосовані"
        for day, seats in _phases(rows, "заголосован").items():
            ws.cell(45, 1 + day, "".join(map(str, seats)))
    if unplayed:  # the next game: prepared, not played
        ws = book.create_sheet(f"Стіл1Гра{numbers.get(1, 0) + 1}")
        ws["I1"], ws["I2"] = "Перемога мирних", "Перемога мафії"
        ws["E5"], ws["F5"] = "Стіл", 1
        ws["A10"], ws["B10"], ws["C10"], ws["D10"] = "Роль", "№", "Гравець", "Фоли"
        for seat in range(1, 11):
            ws.cell(10 + seat, 2, seat)
    return _save(book)


def russian_paper(proto: Proto, tables: dict[Any, int]) -> bytes:
    """The FIIM paper form typed into Excel: a merged title, `ИГРА №3` in one cell, the
    table under its label, a seat grid with four merged foul boxes marked «x», departures
    and phases per seat, the result written as «Победа мафии», the best move as three
    cells then «Игрок №» and the victim's seat."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for game in proto.games:
        ws = book.create_sheet(f"Игра {game['game']}")
        ws["B1"] = "ПРОТОКОЛ ИГРЫ В СПОРТИВНУЮ МАФИЮ"
        ws.merge_cells("B1:J2")
        ws["B3"], ws["C3"] = "ТУРНИР", "Кубок осени"
        ws.merge_cells("C3:F3")
        ws["G3"] = f"ИГРА №{game['game']}"
        ws["H3"] = "СТОЛ №"
        ws["H4"] = tables[game["game"]]
        ws["B5"], ws["C5"], ws["D5"], ws["E5"] = "№", "Игрок", "Роль", "Фолы"
        ws.merge_cells("E5:H5")
        ws["I5"], ws["J5"], ws["K5"], ws["L5"] = "Баллы", "Доп. баллы", "Выбыл", "Когда"
        rows = _seats(proto, game["game"])
        for index, row in enumerate(rows):
            r = 6 + index
            ws.cell(r, 2, row["seat"])
            ws.cell(r, 3, row["player"])
            ws.cell(r, 4, row["role"] or None)
            for box in range(int(row["fouls"] or 0)):
                ws.cell(r, 5 + box, "x")
            ws.cell(r, 10, row["bonus"] or None)
            ws.cell(r, 11, row["left"] or None)
            ws.cell(r, 12, row["when"] or None)
        ws["B17"] = "ПОБЕДИВШАЯ КОМАНДА"
        ws.merge_cells("B17:C17")
        ws["D17"] = {"Красные": "Победа красных", "Чёрные": "Победа мафии", "Ничья": "Ничья"}.get(
            game["result"], game["result"]
        )
        ws["B18"] = "ЛУЧШИЙ ХОД"
        maker = next((row for row in rows if row["best_move"]), None)
        ws["G18"] = "Игрок №"
        if maker is not None:
            for offset, seat in enumerate(str(maker["best_move"]).split()):
                ws.cell(18, 4 + offset, int(seat))
            ws["H18"] = maker["seat"]
        ws["B20"], ws["D20"] = "СУДЬЯ", game.get("judge", "Орлова")
    return _save(book)


def club_rows(proto: Proto, tables: dict[Any, int]) -> bytes:
    """One row per game on a sheet named by the club: a merged title over a two-row
    header (block labels merged over `1 … 10`), roles and fouls in blocks, the first
    victim's seat and three best-move columns, and a totals row at the bottom."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Сезон"
    ws["A1"] = "Игры клуба «Полночь»"
    ws.merge_cells("A1:F1")
    ws.append([])  # row 2: block labels below
    ws["G2"], ws["Q2"], ws["AA2"], ws["AK2"], ws["AU2"] = (
        "Игроки",
        "Роли",
        "Фолы",
        "Выбыл",
        "Когда",
    )
    for start in ("G2:P2", "Q2:Z2", "AA2:AJ2", "AK2:AT2", "AU2:BD2"):
        ws.merge_cells(start)
    header = ["Тур", "Стол", "Игра", "Судья", "Результат", "Дата"] + list(range(1, 11)) * 5
    header += [f"Доп {n}" for n in range(1, 11)]  # this block names itself in each header
    header += ["ПУ", "ЛХ1", "ЛХ2", "ЛХ3"]
    for c, value in enumerate(header, start=1):
        ws.cell(3, c, value)
    for r, game in enumerate(proto.games, start=4):
        rows = _seats(proto, game["game"])
        values: list[Any] = [
            1,
            tables[game["game"]],
            game["game"],
            "Орлова",
            game["result"],
            "01.10.2026",
        ]
        values += [row["player"] for row in rows]
        values += [row["role"] or None for row in rows]
        values += [row["fouls"] or None for row in rows]
        values += [row["left"] or None for row in rows]
        values += [row["when"] or None for row in rows]
        bonus = {"ЛИ": 1, "ЛИ2": "ЛИ2", "ЛИП": 0.5}
        values += [bonus.get(row["bonus"], row["bonus"] or None) for row in rows]
        maker = next((row for row in rows if row["best_move"]), None)
        named = [int(s) for s in str(maker["best_move"]).split()] if maker else []
        values += [maker["seat"] if maker else None, *(named + [None] * 3)[:3]]
        for c, value in enumerate(values, start=1):
            ws.cell(r, c, value)
    ws.cell(4 + len(proto.games), 4, "Итого игр:")
    ws.cell(4 + len(proto.games), 5, len(proto.games))
    return _save(book)
