"""A four-game tournament computed by hand, typed into club blanks the ways clubs lay out
the paper form — each built cell by cell with openpyxl, never with the product's writer.

Ten players, one table, four games (three red wins, one black win: black is the heavy
side, n = 1 of N = 4, K = 1 + (2 − 1)/2 = 1.5, so each black winner of game 2 gets 3):

game 1 (red): seats А Б Г Д Э З Эт Т Й К … roles 3 М, 7 Д, 9 М, 5 Ш; Д1 3 out, Н1 1 killed,
  Д2 7, Н2 2, Д3 9; best move 1 → 3 7 9 (three blacks, +0.5); ЛИ to 5; fouls 6: 2, 4: 1.
game 2 (black): roles 2 Д, 6 М, 8 М, 4 Ш; Д1 nobody, Н1 4, Д2 1, Н2 9, Д3 3 (3 reds to 3
  blacks); best move 4 → 2 6 7 (two blacks, +0.25); ЛИ2 to 6, ЛИП to 7; fouls 10: 3.
game 3 (red): roles 1 М, 5 М, 8 Д, 10 Ш; Д1 1, Н1 3, Д2 6 disqualified (−1), Н2 2, Д3 5,
  Н3 4, Д4 8; best move 3 → 1 5 8 (+0.5); ЛИ to 10, ЛИП to 8; fouls 9: 2.
game 4 (red): roles 2 Д, 4 М, 7 М, 9 Ш; Д1 4, Н1 1, Д2 7, Н2 9, Д3 2; seat 10 fouled out
  (4 fouls); best move 1 → 2 4 5 (+0.25); ЛИ to 8; fouls 3: 1, 6: 3, 10: 4.

The standings, by hand (total = win points + additional points):

| place | player | total | win | additional | best move | awards | penalty | wins | D/S wins | N1 |
|---|---|---|---|---|---|---|---|---|---|---|
| 1 | Альфа | 7.5 | 6 | 1.5 | 0.5 | 1 | 0 | 3 | 0 | 1 |
| 2 | Бета | 7 | 6 | 1 | 0 | 1 | 0 | 3 | 2 | 0 |
| 3 | Йота | 7 | 7 | 0 | 0 | 0 | 0 | 3 | 0 | 0 |
| 4 | Дельта | 6.25 | 6 | 0.25 | 0.25 | 0 | 0 | 3 | 0 | 1 |
| 5 | Зета | 6 | 6 | 0 | 0 | 0 | 0 | 3 | 0 | 0 |
| 6 | Эпсилон | 5.75 | 4 | 1.75 | 0.75 | 1 | 0 | 2 | 1 | 2 |
| 7 | Тета | 5.5 | 6 | −0.5 | 0 | 0.5 | −1 | 3 | 0 | 0 |
| 8 | Гамма | 5 | 5 | 0 | 0 | 0 | 0 | 2 | 1 | 0 |
| 9 | Эта | 3.5 | 3 | 0.5 | 0 | 0.5 | 0 | 1 | 0 | 0 |
| 10 | Каппа | 2.5 | 2 | 0.5 | 0 | 0.5 | 0 | 1 | 0 | 0 |

Бета and Йота tie on 7: Бета's additional point decides (8.6.1).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import openpyxl

A, B, C, D, E, F, G, H, I, J = (  # noqa: E741 (the ten players, by letter)
    "Альфа",
    "Бета",
    "Гамма",
    "Дельта",
    "Эпсилон",
    "Зета",
    "Эта",
    "Тета",
    "Йота",
    "Каппа",
)
ROLE_WORDS = {"": "Мирный", "Ш": "Шериф", "М": "Мафия", "Д": "Дон"}
EN_ROLES = {"": "Citizen", "Ш": "Detective", "М": "Mafia", "Д": "Don"}


@dataclass
class Game:
    number: int
    result: str  # red | black
    players: list[str]
    roles: dict[int, str]  # seat → Ш | М | Д (blank: civilian)
    events: list[tuple[int, str, int]]  # (phase ordinal Д1 = 1, Н1 = 2 …, how, seat)
    fouls: dict[int, int] = field(default_factory=dict)
    bonus: dict[int, str] = field(default_factory=dict)  # seat → ЛИ | ЛИ2 | ЛИП
    best: tuple[int, tuple[int, int, int]] | None = None  # victim, the three seats

    def role(self, seat: int) -> str:
        return self.roles.get(seat, "")

    def by_phase(self, how: str) -> dict[int, list[int]]:
        """Day or night number → the seats that left that way in it."""
        out: dict[int, list[int]] = {}
        for phase, kind, seat in self.events:
            if kind == how:
                out.setdefault((phase + 1) // 2, []).append(seat)
        return out

    def left(self, seat: int) -> tuple[str, int | None]:
        for phase, kind, s in self.events:
            if s == seat:
                return kind, phase
        if self.fouls.get(seat) == 4:
            return "fouled", None
        return "", None

    @property
    def disqualified(self) -> list[int]:
        return [seat for _, kind, seat in self.events if kind == "dq"]


GAMES = [
    Game(
        1,
        "red",
        [A, B, C, D, E, F, G, H, I, J],
        {3: "М", 7: "Д", 9: "М", 5: "Ш"},
        [(1, "voted", 3), (2, "killed", 1), (3, "voted", 7), (4, "killed", 2), (5, "voted", 9)],
        {6: 2, 4: 1},
        {5: "ЛИ"},
        (1, (3, 7, 9)),
    ),
    Game(
        2,
        "black",
        [B, C, D, E, F, G, H, I, J, A],
        {2: "Д", 6: "М", 8: "М", 4: "Ш"},
        [(2, "killed", 4), (3, "voted", 1), (4, "killed", 9), (5, "voted", 3)],
        {10: 3},
        {6: "ЛИ2", 7: "ЛИП"},
        (4, (2, 6, 7)),
    ),
    Game(
        3,
        "red",
        [C, D, E, F, G, H, I, J, A, B],
        {1: "М", 5: "М", 8: "Д", 10: "Ш"},
        [
            (1, "voted", 1),
            (2, "killed", 3),
            (3, "dq", 6),
            (4, "killed", 2),
            (5, "voted", 5),
            (6, "killed", 4),
            (7, "voted", 8),
        ],
        {9: 2},
        {10: "ЛИ", 8: "ЛИП"},
        (3, (1, 5, 8)),
    ),
    Game(
        4,
        "red",
        [D, E, F, G, H, I, J, A, B, C],
        {2: "Д", 4: "М", 7: "М", 9: "Ш"},
        [(1, "voted", 4), (2, "killed", 1), (3, "voted", 7), (4, "killed", 9), (5, "voted", 2)],
        {3: 1, 6: 3, 10: 4},
        {8: "ЛИ"},
        (1, (2, 4, 5)),
    ),
]

Q = Fraction
# (player, place, total, win points, additional, best move, awards, penalties, wins,
#  wins as Don or Sheriff, killed on night 1, decided by)
STANDINGS = [
    (A, 1, Q(15, 2), Q(6), Q(3, 2), Q(1, 2), Q(1), Q(0), 3, 0, 1, "total"),
    (B, 2, Q(7), Q(6), Q(1), Q(0), Q(1), Q(0), 3, 2, 0, "additional"),
    (I, 3, Q(7), Q(7), Q(0), Q(0), Q(0), Q(0), 3, 0, 0, "total"),
    (D, 4, Q(25, 4), Q(6), Q(1, 4), Q(1, 4), Q(0), Q(0), 3, 0, 1, "total"),
    (F, 5, Q(6), Q(6), Q(0), Q(0), Q(0), Q(0), 3, 0, 0, "total"),
    (E, 6, Q(23, 4), Q(4), Q(7, 4), Q(3, 4), Q(1), Q(0), 2, 1, 2, "total"),
    (H, 7, Q(11, 2), Q(6), Q(-1, 2), Q(0), Q(1, 2), Q(-1), 3, 0, 0, "total"),
    (C, 8, Q(5), Q(5), Q(0), Q(0), Q(0), Q(0), 2, 1, 0, "total"),
    (G, 9, Q(7, 2), Q(3), Q(1, 2), Q(0), Q(1, 2), Q(0), 1, 0, 0, "total"),
    (J, 10, Q(5, 2), Q(2), Q(1, 2), Q(0), Q(1, 2), Q(0), 1, 0, 0, "total"),
]

PHASE = {1: "Д1", 2: "Н1", 3: "Д2", 4: "Н2", 5: "Д3", 6: "Н3", 7: "Д4", 8: "Н4"}
EN_PHASE = {k: v.replace("Д", "D").replace("Н", "N") for k, v in PHASE.items()}


def save(book: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def new_book() -> openpyxl.Workbook:
    book = openpyxl.Workbook()
    book.remove(book.active)
    return book


def seats_text(seats: list[int]) -> str:
    return "".join(map(str, seats))


# ---- 1. the FIIM paper form, with its right half ----------------------------------------------


def fiim_form(games: list[Game] = GAMES) -> bytes:
    """The FIIM paper form typed into Excel: a merged title, ТУРНИР / СТАДИЯ / ДАТА / СТОЛ
    № / ИГРА № with their values beside them, the seat grid № | Игрок | Роль | Фолы (four
    merged boxes marked «*») | Баллы | Доп. баллы, the footer (ПОБЕДИВШАЯ КОМАНДА
    красные/черные, ЛУЧШИЙ ХОД three seats then «Игрок №» and the victim, ПРОТЕСТ, СУДЬЯ),
    and the right half beside the seat rows: a row of nights 1 2 3 4 over the seats
    killed, a row of days over the seats voted out (`37` = two), and a disqualified box
    with its seat (the form has no place for the phase)."""
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"Игра {game.number}")
        ws["B1"] = "ПРОТОКОЛ ИГРЫ"
        ws.merge_cells("B1:J1")
        ws["B2"], ws["C2"] = "ТУРНИР", "Кубок Полтавы"
        ws.merge_cells("C2:F2")
        ws["B3"], ws["C3"] = "СТАДИЯ ТУРНИРА", "Отбор"
        ws["B4"], ws["C4"] = "ДАТА", "12.10.2026"
        ws["E4"], ws["F4"], ws["G4"], ws["H4"] = "СТОЛ №", 1, "ИГРА №", game.number
        for column, label in zip(
            "BCDEIJ", ("№", "Игрок", "Роль", "Фолы", "Баллы", "Доп. баллы"), strict=True
        ):
            ws[f"{column}6"] = label
        ws.merge_cells("E6:H6")
        for seat in range(1, 11):
            r = 6 + seat
            ws.cell(r, 2, seat)
            ws.cell(r, 3, game.players[seat - 1])
            ws.cell(r, 4, game.role(seat) or None)
            for box in range(game.fouls.get(seat, 0)):
                ws.cell(r, 5 + box, "*")
            ws.cell(r, 10, game.bonus.get(seat))
        ws["B18"] = "ПОБЕДИВШАЯ КОМАНДА"
        ws.merge_cells("B18:D18")
        ws["E18"] = {"red": "красные", "black": "черные"}[game.result]
        ws["B19"] = "ЛУЧШИЙ ХОД"
        ws.merge_cells("B19:C19")
        ws["G19"] = "Игрок №"
        if game.best:
            victim, named = game.best
            for offset, seat in enumerate(named):
                ws.cell(19, 4 + offset, seat)
            ws["H19"] = victim
        ws["B20"] = "ПРОТЕСТ"
        ws["B21"], ws["C21"] = "СУДЬЯ", "Ветрова"
        # the right half, beside the seat rows
        ws["L6"] = "Ночь"
        ws["L7"] = "Убит"
        ws["L9"] = "День"
        ws["L10"] = "Заголосован"
        for n in range(1, 5):
            ws.cell(6, 12 + n, n)
            ws.cell(9, 12 + n, n)
        for night, seats in game.by_phase("killed").items():
            ws.cell(7, 12 + night, seats_text(seats))
        for day in range(1, 5):
            seats = game.by_phase("voted").get(day)
            if seats:
                ws.cell(10, 12 + day, int(seats_text(seats)))
            elif day < max(game.by_phase("voted"), default=0):
                ws.cell(10, 12 + day, "-")
        ws["L12"] = "Дисквалифицирован"
        ws.merge_cells("L12:M12")
        if game.disqualified:
            ws["N12"] = game.disqualified[0]
    return save(book)


# ---- 2. the Ukrainian club blank --------------------------------------------------------------


def ukrainian_blank(games: list[Game] = GAMES, sheriff_checks: bool = True) -> bytes:
    """The Ukrainian club's blank at FIELD.md §2A's addresses: the red / black marks in
    J1 / J2 beside «Перемога мирних» / «Перемога мафії», the judge in C2, the club in C4,
    the table in F5, the game in C7; roles in A11:A20 as letters, seats in B, nicknames in
    C, four foul boxes D–G in which the judge writes each foul's number 1, 2, 3, 4, the
    bonus in H with a decimal comma (1 ЛИ, 0,5 ЛИ2 or ЛИП); labels over values in rows
    22–23 (first killed, best move, the disqualified seat beside «Видалення»); kills by
    night under printed night numbers 1 … 9 in rows 33–34, votes by day under printed
    day numbers 0 … 8 in rows 44–45 (day 0 is the first day; «х» for nobody; `37` for two),
    and the sheriff's checks typed in row 39 (they carry no points)."""
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"Стіл1Гра{game.number}")
        ws["I1"], ws["I2"] = "Перемога мирних", "Перемога мафії"
        ws["J1" if game.result == "red" else "J2"] = "+"
        ws["B2"], ws["C2"] = "Суддя", "Олена"
        ws["B4"], ws["C4"] = "Клуб", "Полтава"
        ws["B5"], ws["C5"], ws["E5"], ws["F5"] = "Турнір", "Кубок Полтави", "Стіл", 1
        ws["B7"], ws["C7"] = "Гра №", game.number
        for column, label in zip(
            "ABCDH", ("Роль", "#", "Гравець", "Фоли", "Дод. бали"), strict=True
        ):
            ws[f"{column}10"] = label
        ws.merge_cells("D10:G10")
        for seat in range(1, 11):
            r = 10 + seat
            ws.cell(r, 1, game.role(seat) or None)
            ws.cell(r, 2, seat)
            ws.cell(r, 3, game.players[seat - 1])
            for box in range(game.fouls.get(seat, 0)):
                ws.cell(r, 4 + box, box + 1)
            ws.cell(r, 8, {"ЛИ": 1, "ЛИ2": "0,5", "ЛИП": "0,5"}.get(game.bonus.get(seat, "")))
        ws["B22"], ws["C22"], ws["G22"] = "Перший вбитий", "Кращий хід", "Видалення"
        if game.best:
            victim, named = game.best
            ws["B23"] = victim
            for offset, seat in enumerate(named):
                ws.cell(23, 3 + offset, seat)
        if game.disqualified:
            ws["H22"] = game.disqualified[0]
        ws["A33"], ws["B33"] = "Ніч", "Вбивства"
        ws["A44"], ws["B44"] = "День", "Заголосовані"
        for n in range(9):
            ws.cell(33, 3 + n, n + 1)
            ws.cell(44, 3 + n, n)
        for night, seats in game.by_phase("killed").items():
            ws.cell(34, 2 + night, seats[0])
        votes = game.by_phase("voted")
        for day in range(1, max(votes, default=0) + 1):
            ws.cell(45, 2 + day, seats_text(votes[day]) if day in votes else "х")
        ws["B36"] = "Промахи"
        ws["B38"] = "Перевірки шерифа"
        if sheriff_checks:
            ws["C39"], ws["D39"] = 3, 7
    return save(book)


# ---- 3. labels over values, boxes beside the grid, sticks, a column of departures -------------


def labels_over_values(games: list[Game] = GAMES) -> bytes:
    """A club's own form: header labels in row 1 over their values in row 2 (round typed
    «Тур 1»); a seat grid with roles as words and fouls as sticks «I», «II», «ІІІ»
    (Cyrillic), «IIII»; beside the seat rows a «ЛХ» box with its three seats and a
    «Дисквалифицирован» box; a column block beside the grid «Круг | Убит ночью |
    Заголосован днём» with one row a round; the result under its label."""
    sticks = {1: "I", 2: "II", 3: "ІІІ", 4: "IIII"}
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"{game.number}")
        for column, label, value in (
            ("A", "Турнир", "Кубок"),
            ("C", "Тур", "Тур 1"),
            ("D", "Стол", 1),
            ("E", "Игра", game.number),
            ("F", "Судья", "Ветрова"),
        ):
            ws[f"{column}1"], ws[f"{column}2"] = label, value
        for column, label in zip("ABCDE", ("Место", "Ник", "Роль", "Фолы", "Доп"), strict=True):
            ws[f"{column}4"] = label
        for seat in range(1, 11):
            r = 4 + seat
            ws.cell(r, 1, seat)
            ws.cell(r, 2, game.players[seat - 1])
            ws.cell(r, 3, ROLE_WORDS[game.role(seat)])
            ws.cell(r, 4, sticks.get(game.fouls.get(seat, 0)))
            ws.cell(r, 5, game.bonus.get(seat))
        ws["G5"] = "ЛХ"
        if game.best:
            for offset, seat in enumerate(game.best[1]):
                ws.cell(5, 8 + offset, seat)
        ws["G7"] = "Дисквалифицирован"
        if game.disqualified:
            ws["H7"] = game.disqualified[0]
        ws["L4"], ws["M4"], ws["N4"] = "Круг", "Убит ночью", "Заголосован днём"
        kills, votes = game.by_phase("killed"), game.by_phase("voted")
        for n in range(1, max([*kills, *votes]) + 1):
            ws.cell(4 + n, 12, n)
            ws.cell(4 + n, 13, seats_text(kills[n]) if n in kills else "-")
            ws.cell(4 + n, 14, seats_text(votes[n]) if n in votes else "-")
        ws["A17"] = "Результат"
        ws["A18"] = {"red": "Победа красных", "black": "Победа мафии"}[game.result]
    return save(book)


# ---- 4. an English blank with values in their labels' cells ----------------------------------


def english_inline(games: list[Game] = GAMES) -> bytes:
    """An English blank: `Game #3`, `Table: 1`, `Judge: Smith` each in one cell; roles as
    words (Citizen, Detective, Mafia, Don); fouls as a number; the best move in one cell
    `Best move: 3 7 9`; the winner beside its label; kills and votes as `N1: 5` / `D2 3 7`
    cells in their rows; the disqualified seat with its phase, `6 D2`."""
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"Table1Game{game.number}")
        ws["A1"], ws["C1"], ws["E1"] = f"Game #{game.number}", "Table: 1", "Judge: Smith"
        for column, label in zip(
            "ABCDE", ("Seat", "Player", "Role", "Fouls", "Extra points"), strict=True
        ):
            ws[f"{column}3"] = label
        for seat in range(1, 11):
            r = 3 + seat
            ws.cell(r, 1, seat)
            ws.cell(r, 2, game.players[seat - 1])
            ws.cell(r, 3, EN_ROLES[game.role(seat)])
            ws.cell(r, 4, game.fouls.get(seat))
            ws.cell(r, 5, {"ЛИ": "BP", "ЛИ2": "BP2", "ЛИП": "BPL"}.get(game.bonus.get(seat, "")))
        ws["A15"], ws["B15"] = "Winner", {"red": "Red", "black": "Black"}[game.result]
        if game.best:
            _, named = game.best
            ws["A16"] = "Best move: " + " ".join(map(str, named))
        ws["A17"] = "Killed at night"
        for offset, (night, seats) in enumerate(sorted(game.by_phase("killed").items())):
            ws.cell(17, 2 + offset, f"N{night}: {seats_text(seats)}")
        ws["A18"] = "Voted out by day"
        for offset, (day, seats) in enumerate(sorted(game.by_phase("voted").items())):
            ws.cell(18, 2 + offset, f"D{day} " + " ".join(map(str, seats)))
        ws["A19"] = "Disqualified"
        for phase, kind, seat in game.events:
            if kind == "dq":
                ws["B19"] = f"{seat} {EN_PHASE[phase]}"
    return save(book)


# ---- 5. phase words over the right half, numbered boxes, values in their labels' cells -----


def phase_words(games: list[Game] = GAMES) -> bytes:
    """`Судья: Ветрова`, `Стол № 1`, `Игра № 3` each in one cell; four foul boxes under a
    merged «Фолы» with a sub-header 1 2 3 4, ticked «✓»; extras as «+1» / «+0,5»; in the
    right half «Н1 Н2 …» over the seats killed and «Д1 Д2 …» over the seats voted out
    (`3, 7` for two), a disqualified box merged over two rows; the result as
    «Победили: Мирные» in one cell; the best move's three seats under its merged label,
    the first-killed seat under its own."""
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"Стол 1 Игра {game.number}")
        ws["A1"] = "Протокол игры"
        ws.merge_cells("A1:H1")
        ws["A2"], ws["D2"], ws["F2"] = "Судья: Ветрова", "Стол № 1", f"Игра № {game.number}"
        ws["A4"], ws["B4"], ws["C4"], ws["D4"], ws["H4"] = "Место", "Игрок", "Роль", "Фолы", "Доп"
        ws.merge_cells("D4:G4")
        for box in range(4):
            ws.cell(5, 4 + box, box + 1)
        for seat in range(1, 11):
            r = 5 + seat
            ws.cell(r, 1, seat)
            ws.cell(r, 2, game.players[seat - 1])
            ws.cell(r, 3, game.role(seat) or None)
            for box in range(game.fouls.get(seat, 0)):
                ws.cell(r, 4 + box, "✓")
            ws.cell(r, 8, {"ЛИ": "+1", "ЛИ2": "+0,5", "ЛИП": "+0,5"}.get(game.bonus.get(seat, "")))
        ws["K4"], ws["K6"] = "Убит", "Заголосован"
        kills, votes = game.by_phase("killed"), game.by_phase("voted")
        for n in range(1, 6):
            ws.cell(3, 11 + n, f"Н{n}")
            ws.cell(5, 11 + n, f"Д{n}")
            if n in kills:
                ws.cell(4, 11 + n, seats_text(kills[n]))
            if n in votes:
                ws.cell(6, 11 + n, ", ".join(map(str, votes[n])))
        ws["K9"] = "Удален"
        ws.merge_cells("K9:K10")
        if game.disqualified:
            ws["L9"] = game.disqualified[0]
        ws["A17"] = "Победили: " + {"red": "Мирные", "black": "Мафия"}[game.result]
        ws["A18"], ws["E18"] = "Лучший ход", "Первый убитый"
        ws.merge_cells("A18:C18")
        if game.best:
            victim, named = game.best
            for offset, seat in enumerate(named):
                ws.cell(19, 1 + offset, seat)
            ws["E19"] = victim
    return save(book)


def ukrainian_original(games: list[Game] = GAMES) -> bytes:
    """The Ukrainian club's blank as its own generator lays it out (the parser reads other
    addresses): every label it prints — the evening's heading «Фанка», «Номер гри» and
    «Game_id», the marks of how the game was won (3x3, 2x2, 1x1, Чиста), «Рука Чорних»,
    three extras columns (the judge's, the players', the tolerance's), the first killed
    and best move over their values, «Видалення» and «Вскрився», the nominated, the
    breaks and wills table, nights 1 … 9 over the kills, days 0 … 8 over the votes, the
    sheriff's and the don's checks — seats typed as text."""
    book = new_book()
    for g in games:
        ws = book.create_sheet(f"Стіл1Гра{g.number}")
        ws["B1"], ws["C1"], ws["E1"], ws["H1"] = (
            "Дата ",
            "2020-01-18",
            "Фанка ",
            "Перемога Мирного міста ",
        )
        ws["H2"] = "Перемога Мафії"
        ws["J1" if g.result == "red" else "J2"] = "x"
        ws["B2"], ws["C2"] = "Ведучий", "Джентльмен"
        ws["B4"], ws["C4"], ws["E4"], ws["F4"] = "Клуб", "TEST_ZLO", "Номер гри ", g.number
        ws["H4"], ws["I4"], ws["J4"], ws["K4"] = "3x3", "2x2", "1x1", "Чиста"
        ws["B5"], ws["E5"], ws["F5"] = "Турнір", "Стіл", "1"
        ws["B7"], ws["C7"], ws["H7"] = "Game_id", f"id-{g.number}", "Рука Чорних"
        for col, v in zip(
            "ABCDHIJ",
            (
                "Роль",
                "#",
                "Гравець",
                "Фоли",
                "Дод.бали (ведучий)",
                "Дод.бали\n(гравці)",
                "Дод.бали\n(тол.)",
            ),
            strict=True,
        ):
            ws[f"{col}10"] = v
        for seat in range(1, 11):
            r = 10 + seat
            ws.cell(r, 1, g.role(seat) or None)
            ws.cell(r, 2, str(seat))
            ws.cell(r, 3, g.players[seat - 1])
            for b in range(g.fouls.get(seat, 0)):
                ws.cell(r, 4 + b, "x")
            ws.cell(r, 8, {"ЛИ": "1", "ЛИ2": "0.5", "ЛИП": "0.5"}.get(g.bonus.get(seat, "")))
        ws["B22"], ws["C22"], ws["G22"] = "Перший вбитий", "Кращий Хід", "Видалення "
        if g.best:
            ws["B23"] = str(g.best[0])
            for k, s in enumerate(g.best[1]):
                ws.cell(23, 3 + k, str(s))
        if g.disqualified:
            ws["H22"] = str(g.disqualified[0])
        ws["G23"] = "Вскрився"
        ws["B25"] = "Номіновані на кращих "
        for col, v in zip(
            "ABCDEGHIJK",
            (
                "День",
                "Зломи",
                "Скільки гравців за столом",
                "хто зламав",
                "в кого зламав",
                "Заповіти",
                "Кого вбили",
                "Перший",
                "Другий",
                "Третій",
            ),
            strict=True,
        ):
            ws[f"{col}28"] = v
        ws["A34"], ws["B34"] = "Ніч", "Вбивства"
        ws["B36"] = "Промахи"
        ws["B38"] = "Перевірки Шерифа"
        ws["B41"] = "Перевірки Дона"
        ws["A45"], ws["B45"] = "День", "Заголосовані"
        for n in range(9):
            ws.cell(34, 3 + n, str(n + 1))
            ws.cell(38, 3 + n, str(n + 1))
            ws.cell(41, 3 + n, str(n + 1))
            ws.cell(45, 3 + n, str(n))
        kills = g.by_phase("killed")
        for night, seats in kills.items():
            ws.cell(35, 2 + night, str(seats[0]))
        votes = g.by_phase("voted")
        for day in range(1, max(votes) + 1):
            ws.cell(46, 2 + day, seats_text(votes[day]) if day in votes else "х")
    return save(book)


# ---- 7. departures in one column of the grid, sticks in the foul boxes ------------------------


def departures_column(games: list[Game] = GAMES) -> bytes:
    """A club's own blank: «Судья: Ветрова» in one cell, the grid № | Ник | Роль (Шер,
    Маф, Дон) | Фолы (four boxes with sticks «I») | Доп. | Выбыл, the departure and its
    phase in one cell («убит Н1», «дисквалифицирован Д2»), «4 фола» alone (the grid has no column
    for a phase), the result as a word two cells right of «Победа», «ЛХ» with its three
    seats in one cell."""
    book = new_book()
    roles = {"Ш": "Шер", "М": "Маф", "Д": "Дон"}
    words = {"killed": "убит", "voted": "заголосован", "dq": "дисквалифицирован"}
    for game in games:
        ws = book.create_sheet(f"Игра{game.number}")
        ws["A1"] = "Бланк игры клуба «Ночной город»"
        ws.merge_cells("A1:H1")
        ws["A2"], ws["B2"], ws["D2"], ws["E2"] = "Дата", "14.11.2026", "Стол", 1
        ws["F2"], ws["G2"], ws["A3"] = "Игра", game.number, "Судья: Ветрова"
        for column, label in zip(
            "ABCDHI", ("№", "Ник", "Роль", "Фолы", "Доп.", "Выбыл"), strict=True
        ):
            ws[f"{column}5"] = label
        ws.merge_cells("D5:G5")
        for seat in range(1, 11):
            r = 5 + seat
            ws.cell(r, 1, seat)
            ws.cell(r, 2, game.players[seat - 1])
            ws.cell(r, 3, roles.get(game.role(seat)))
            for box in range(game.fouls.get(seat, 0)):
                ws.cell(r, 4 + box, "I")
            ws.cell(r, 8, {"ЛИ": 1, "ЛИ2": 0.5, "ЛИП": 0.5}.get(game.bonus.get(seat, "")))
            kind, phase = game.left(seat)
            if kind == "fouled":
                ws.cell(r, 9, "4 фола")
            elif kind:
                ws.cell(r, 9, f"{words[kind]} {PHASE[phase or 0]}")
        ws["A17"], ws["C17"] = "Победа", {"red": "Мирные", "black": "Мафия"}[game.result]
        if game.best:
            ws["A18"], ws["C18"] = "ЛХ", " ".join(map(str, game.best[1]))
    return save(book)


# ---- 8. an English sheet with a block of rounds beside the grid -------------------------------


def english_rounds(games: list[Game] = GAMES) -> bytes:
    """«MAFIA GAME SHEET», the header fields in a column left of the grid (Tournament,
    Table, Game, Judge), the grid Seat | Nickname | Role (Citizen, Detective, Mafia, Don)
    | Fouls (a number) | Extra points, and beside it a block Round | Killed | Voted out
    (one row a round, «-» for nobody, «3,7» for two), the disqualified seat under the
    block beside «Disqualified» (no place for its phase), Winner: Town or Mafia."""
    book = new_book()
    for game in games:
        ws = book.create_sheet(f"Game {game.number}")
        ws["A1"] = "MAFIA GAME SHEET"
        for r, (label, value) in enumerate(
            (("Tournament", "Autumn Cup"), ("Table", 1), ("Game", game.number), ("Judge", "Smith")),
            3,
        ):
            ws.cell(r, 1, label)
            ws.cell(r, 2, value)
        for column, label in zip(
            "DEFGH", ("Seat", "Nickname", "Role", "Fouls", "Extra points"), strict=True
        ):
            ws[f"{column}3"] = label
        for seat in range(1, 11):
            r = 3 + seat
            ws.cell(r, 4, seat)
            ws.cell(r, 5, game.players[seat - 1])
            ws.cell(r, 6, EN_ROLES[game.role(seat)])
            ws.cell(r, 7, game.fouls.get(seat))
            ws.cell(r, 8, {"ЛИ": 1, "ЛИ2": 0.5, "ЛИП": 0.5}.get(game.bonus.get(seat, "")))
        ws["J3"], ws["K3"], ws["L3"] = "Round", "Killed", "Voted out"
        kills, votes = game.by_phase("killed"), game.by_phase("voted")
        for n in range(1, max([*kills, *votes]) + 1):
            ws.cell(3 + n, 10, n)
            ws.cell(3 + n, 11, ",".join(map(str, kills.get(n, []))) or "-")
            ws.cell(3 + n, 12, ",".join(map(str, votes.get(n, []))) or "-")
        if game.disqualified:
            ws["J10"], ws["K10"] = "Disqualified", game.disqualified[0]
        ws["D15"], ws["E15"] = "Winner", {"red": "Town", "black": "Mafia"}[game.result]
        if game.best:
            ws["D16"], ws["E16"] = "Best move", ", ".join(map(str, game.best[1]))
    return save(book)


def games_by_row(games: list[Game] = GAMES) -> bytes:
    """The same games one row per game under a title row: Стол | Игра | Судья | Победа |
    1 … 10 (nicknames) | Роль n | Фолы n | Доп n | Выбыл n | ЛХ, the departure typed as
    its phase alone («Н1», «Д2»), «дисквалифицирован» and «4 фола» alone (the sheet has
    no place for a phase), and a fifth game seated in advance."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Игры"
    ws.append(["Протокол турнира «Осень»"])
    ws.append(
        ["Стол", "Игра", "Судья", "Победа", *map(str, range(1, 11))]
        + [f"{block} {seat}" for block in ("Роль", "Фолы", "Доп", "Выбыл") for seat in range(1, 11)]
        + ["ЛХ"]
    )
    alone = {"dq": "дисквалифицирован", "fouled": "4 фола"}
    for game in games:
        seats = range(1, 11)
        departures = [game.left(seat) for seat in seats]
        ws.append(
            [1, game.number, "Ветрова", {"red": "Красные", "black": "Чёрные"}[game.result]]
            + game.players
            + [game.role(seat) or None for seat in seats]
            + [game.fouls.get(seat) for seat in seats]
            + [{"ЛИ": 1, "ЛИ2": 0.5, "ЛИП": 0.5}.get(game.bonus.get(seat, "")) for seat in seats]
            + [alone.get(kind) or PHASE.get(phase or 0) for kind, phase in departures]
            + [" ".join(map(str, game.best[1])) if game.best else None]
        )
    ws.append([1, len(games) + 1, "Ветрова", None, *games[0].players])
    return save(book)


BLANKS = {
    "fiim-form": fiim_form,
    "ukrainian-blank": ukrainian_blank,
    "labels-over-values": labels_over_values,
    "english-inline": english_inline,
    "phase-words": phase_words,
    "ukrainian-original": ukrainian_original,
    "departures-column": departures_column,
    "english-rounds": english_rounds,
}


def rows_twin(games: list[Game] = GAMES) -> bytes:
    """The same games in the row layout of SPEC §2 (the fouled-out player of game 4 left
    in Н2, the disqualified one of game 3 in Д2)."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Игры"
    ws.append(["Игра", "Стол", "Результат"])
    for game in games:
        ws.append([game.number, 1, {"red": "Красные", "black": "Чёрные"}[game.result]])
    seats = book.create_sheet("Протокол")
    seats.append(["Игра", "Место", "Игрок", "Роль", "Фолы", "Выбыл", "Когда", "Лучший ход", "Доп"])
    words = {"killed": "убит", "voted": "заголосован", "dq": "дисквалифицирован"}
    for game in games:
        for seat in range(1, 11):
            how, phase = game.left(seat)
            left: Any = words.get(how, "4 фола" if how == "fouled" else None)
            when = PHASE[phase] if phase else ("Н2" if how == "fouled" else None)
            best = None
            if game.best and game.best[0] == seat:
                best = " ".join(map(str, game.best[1]))
            seats.append(
                [
                    game.number,
                    seat,
                    game.players[seat - 1],
                    ROLE_WORDS[game.role(seat)],
                    game.fouls.get(seat),
                    left,
                    when,
                    best,
                    game.bonus.get(seat),
                ]
            )
    return save(book)
