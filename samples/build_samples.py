"""Build the shipped sample tournament and its hand-checked expected standings.

The tournament below is plain data: one ``Game`` per game, one tuple per seat.
Running this script writes, next to itself:

* ``tournament-ru.xlsx`` -- the protocol workbook with Russian sheets, headers and values;
* ``tournament-en.xlsx`` -- the same tournament in English, columns in another order;
* ``tournament.expected.toml`` -- the standings computed here, independently of the
  ``mafia_sheets`` package, with the K arithmetic and every tie explained in comments.

It also checks every game against the regulation before writing anything, and reads
both workbooks back (python-calamine) to confirm that they hold the same tournament.

    python samples/build_samples.py
"""

from __future__ import annotations

import datetime as dt
import sys
import textwrap
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

HERE = Path(__file__).resolve().parent

RED, BLACK, DRAW = "red", "black", "draw"

# ---------------------------------------------------------------------------
# The tournament
# ---------------------------------------------------------------------------

TOURNAMENT = {
    "name": "Кубок клуба «Полночь» 2026",
    "dates": {"ru": "14–15 марта 2026", "en": "14–15 March 2026"},
    "city": "moscow",
    "chief_judge": "Андрей Волков",
}

# Table 1 is judged by one judge for the whole tournament, table 2 by another.
# The table-2 judge leaves civilians' role cell blank, as on the paper form.
JUDGES = {1: "Елена Орлова", 2: "Дмитрий Соколов"}

CITIES = {
    "moscow": {"ru": "Москва", "en": "Moscow"},
    "spb": {"ru": "Санкт-Петербург", "en": "Saint Petersburg"},
    "tver": {"ru": "Тверь", "en": "Tver"},
    "": {"ru": "", "en": ""},
}

# nickname, club, city, removed from the tournament (special situation 4)
PLAYERS = [
    ("Кот", "«Полночь»", "moscow", False),
    ("Лис", "«Полночь»", "moscow", False),
    ("Маэстро", "«Полночь»", "moscow", False),
    ("Ласточка", "«Белые ночи»", "spb", False),
    ("Тень", "«Белые ночи»", "spb", False),
    ("Граф", "«Тверской бульвар»", "tver", False),
    ("Ёжик", "", "tver", False),
    ("Барон", "", "", False),
    ("Бублик", "", "", False),
    ("Ворон", "", "", False),
    ("Вишня", "", "", False),
    ("Доцент", "", "", False),
    ("Кэп", "", "", False),
    ("Медведь", "", "", False),
    ("Мурка", "", "", False),
    ("Пилот", "", "", False),
    ("Профессор", "", "", False),
    ("Рысь", "", "", False),
    ("Сова", "", "", False),
    ("Филин", "", "", False),
    ("Шторм", "", "", False),
    # Caught peeking during round 3 and removed after it: his three games stand,
    # he gets no place.
    ("Призрак", "«Полночь»", "moscow", True),
]


@dataclass(frozen=True)
class Seat:
    """One line of a game protocol.

    role: "C" civilian, "" civilian left blank, "S" sheriff, "M" mafia, "D" don.
    left: "" stayed, "killed", "voted" (voted out), "fouls" (4 fouls), "disq".
    when: "D1", "N1", "D2", ... (day 1, night 1, day 2, ...).
    bonus: "" or the judge's award "BP" (ЛИ), "BP2" (ЛИ2), "BPL" (ЛИП).
    """

    seat: int
    player: str
    role: str
    fouls: int
    left: str
    when: str
    best_move: str
    bonus: str

    @property
    def team(self) -> str:
        return BLACK if self.role in ("M", "D") else RED


@dataclass
class Game:
    id: int
    round: int
    table: int
    result: str
    ended: str
    seats: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seats = [Seat(n, *row) for n, row in enumerate(self.seats, start=1)]

    @property
    def judge(self) -> str:
        return JUDGES[self.table]

    @property
    def ended_time(self) -> dt.time:
        return clock(self.ended)


def clock(text: str) -> dt.time:
    """Turn "14:29" into a time of day (written to Excel as a real time cell)."""
    hours, minutes = text.split(":")
    return dt.time(int(hours), int(minutes))


# 20 games: 10 rounds at 2 tables. Red won 11, black 7, two draws (games 4 and 19),
# so K = 13/10 for black wins. Seats 1-10 in order, one tuple per seat:
#   (player, role, fouls, left, when, best move, bonus)
GAMES = [
    # Призрак plays rounds 1-3 and is removed from the tournament after round 3.
    Game(1, round=1, table=1, result=BLACK, ended="11:52", seats=[
        ("Сова",      "C", 2, "killed", "N3", "",       ""),
        ("Ёжик",      "C", 0, "killed", "N1", "1 4 8",  ""),
        ("Пилот",     "C", 0, "",       "",   "",       ""),
        ("Призрак",   "M", 1, "",       "",   "",       ""),
        ("Кот",       "C", 2, "voted",  "D3", "",       ""),
        ("Профессор", "D", 0, "",       "",   "",       "BP"),
        ("Бублик",    "C", 0, "voted",  "D4", "",       ""),
        ("Шторм",     "C", 0, "killed", "N2", "",       ""),
        ("Лис",       "S", 0, "",       "",   "",       ""),
        ("Вишня",     "M", 1, "voted",  "D2", "",       ""),
    ]),
    Game(2, round=1, table=2, result=RED, ended="11:43", seats=[
        ("Медведь",   "",  2, "killed", "N2", "",       ""),
        ("Доцент",    "D", 0, "voted",  "D1", "",       ""),
        ("Филин",     "",  0, "",       "",   "",       ""),
        ("Граф",      "S", 1, "killed", "N1", "1 2 6",  ""),
        ("Мурка",     "",  3, "",       "",   "",       "BP2"),
        ("Ворон",     "M", 0, "voted",  "D2", "",       ""),
        ("Ласточка",  "",  2, "",       "",   "",       "BP"),
        ("Рысь",      "",  0, "",       "",   "",       ""),
        ("Маэстро",   "M", 0, "voted",  "D3", "",       ""),
        ("Тень",      "",  0, "",       "",   "",       ""),
    ]),
    Game(3, round=2, table=1, result=BLACK, ended="13:11", seats=[
        ("Ворон",     "C", 1, "killed", "N3", "",       ""),
        ("Тень",      "C", 1, "",       "",   "",       ""),
        ("Ласточка",  "M", 0, "voted",  "D1", "",       "BP"),
        ("Пилот",     "C", 1, "killed", "N4", "",       "BPL"),
        ("Бублик",    "C", 0, "killed", "N1", "1 9 10", ""),
        ("Кот",       "M", 1, "",       "",   "",       ""),
        ("Доцент",    "C", 1, "voted",  "D4", "",       ""),
        ("Сова",      "D", 0, "voted",  "D3", "",       "BP2"),
        ("Лис",       "C", 1, "killed", "N2", "",       ""),
        ("Филин",     "S", 1, "voted",  "D2", "",       ""),
    ]),
    # Draw: after D4 three reds face one black; nobody leaves N4, D5, N5 (special situation 9).
    Game(4, round=2, table=2, result=DRAW, ended="13:16", seats=[
        ("Шторм",     "D", 1, "voted",  "D2", "",       ""),
        ("Барон",     "",  0, "killed", "N1", "",       ""),
        ("Вишня",     "M", 0, "",       "",   "",       ""),
        ("Профессор", "",  1, "",       "",   "",       ""),
        ("Кэп",       "M", 1, "voted",  "D4", "",       ""),
        ("Граф",      "",  0, "",       "",   "",       ""),
        ("Мурка",     "",  1, "killed", "N3", "",       ""),
        ("Призрак",   "",  1, "",       "",   "",       ""),
        ("Маэстро",   "",  2, "killed", "N2", "",       ""),
        ("Медведь",   "S", 1, "voted",  "D3", "",       ""),
    ]),
    Game(5, round=3, table=1, result=RED, ended="14:31", seats=[
        ("Кот",       "C", 1, "",       "",   "",       "BP"),
        ("Мурка",     "C", 0, "",       "",   "",       ""),
        ("Вишня",     "D", 1, "voted",  "D1", "",       ""),
        ("Сова",      "C", 0, "killed", "N1", "2 6 7",  ""),
        ("Доцент",    "S", 0, "killed", "N3", "",       ""),
        ("Призрак",   "C", 3, "",       "",   "",       ""),
        ("Кэп",       "M", 0, "voted",  "D4", "",       ""),
        ("Пилот",     "M", 1, "voted",  "D3", "",       ""),
        ("Рысь",      "C", 1, "",       "",   "",       "BP2"),
        ("Барон",     "C", 2, "",       "",   "",       ""),
    ]),
    Game(6, round=3, table=2, result=RED, ended="14:32", seats=[
        ("Граф",      "M", 1, "voted",  "D3", "",       ""),
        ("Бублик",    "M", 1, "voted",  "D4", "",       "BPL"),
        ("Шторм",     "",  1, "killed", "N3", "",       ""),
        ("Филин",     "D", 0, "voted",  "D2", "",       ""),
        ("Ёжик",      "",  2, "",       "",   "",       ""),
        ("Медведь",   "",  2, "killed", "N1", "2 3 10", ""),
        ("Ласточка",  "S", 0, "killed", "N2", "",       ""),
        ("Маэстро",   "",  1, "",       "",   "",       "BP"),
        ("Лис",       "",  1, "",       "",   "",       ""),
        ("Профессор", "",  3, "",       "",   "",       "BP2"),
    ]),
    Game(7, round=4, table=1, result=BLACK, ended="16:08", seats=[
        ("Профессор", "C", 0, "",       "",   "",       ""),
        ("Кэп",       "M", 1, "",       "",   "",       ""),
        ("Барон",     "C", 2, "killed", "N4", "",       ""),
        ("Лис",       "C", 0, "voted",  "D5", "",       ""),
        ("Доцент",    "D", 2, "voted",  "D2", "",       ""),
        ("Кот",       "C", 0, "killed", "N1", "2 7 8",  ""),
        ("Маэстро",   "S", 0, "",       "",   "",       ""),
        ("Медведь",   "M", 1, "",       "",   "",       "BP"),
        ("Бублик",    "C", 0, "voted",  "D4", "",       ""),
        ("Вишня",     "C", 0, "killed", "N2", "",       ""),
    ]),
    Game(8, round=4, table=2, result=RED, ended="15:54", seats=[
        ("Мурка",     "M", 2, "voted",  "D4", "",       ""),
        ("Филин",     "M", 0, "voted",  "D3", "",       ""),
        ("Тень",      "",  0, "killed", "N1", "",       "BP"),
        ("Рысь",      "",  0, "",       "",   "",       ""),
        ("Пилот",     "",  0, "killed", "N4", "",       ""),
        ("Ёжик",      "",  0, "voted",  "D2", "",       ""),
        ("Ворон",     "",  0, "killed", "N2", "",       ""),
        ("Шторм",     "",  1, "killed", "N3", "",       ""),
        ("Ласточка",  "D", 1, "voted",  "D5", "",       ""),
        ("Сова",      "S", 3, "",       "",   "",       ""),
    ]),
    Game(9, round=5, table=1, result=BLACK, ended="17:23", seats=[
        ("Пилот",     "C", 2, "voted",  "D4", "",       ""),
        ("Вишня",     "C", 3, "killed", "N3", "",       ""),
        ("Кот",       "C", 0, "",       "",   "",       ""),
        ("Рысь",      "S", 0, "voted",  "D5", "",       ""),
        ("Кэп",       "C", 0, "killed", "N2", "",       "BPL"),
        ("Граф",      "D", 0, "voted",  "D2", "",       "BP"),
        ("Тень",      "M", 0, "voted",  "D3", "",       "BP2"),
        ("Ёжик",      "C", 1, "killed", "N1", "1 3 7",  ""),
        ("Сова",      "M", 0, "",       "",   "",       ""),
        ("Доцент",    "C", 1, "killed", "N4", "",       ""),
    ]),
    Game(10, round=5, table=2, result=RED, ended="17:21", seats=[
        ("Лис",       "",  1, "killed", "N2", "",       ""),
        ("Шторм",     "",  3, "killed", "N1", "3 4 6",  ""),
        ("Мурка",     "M", 2, "voted",  "D2", "",       ""),
        ("Медведь",   "M", 1, "voted",  "D4", "",       ""),
        ("Маэстро",   "",  2, "killed", "N3", "",       "BP2"),
        ("Ворон",     "D", 1, "voted",  "D3", "",       "BPL"),
        ("Ласточка",  "S", 0, "",       "",   "",       ""),
        ("Филин",     "",  0, "",       "",   "",       ""),
        ("Бублик",    "",  0, "",       "",   "",       "BP"),
        ("Барон",     "",  1, "",       "",   "",       ""),
    ]),
    Game(11, round=6, table=1, result=RED, ended="11:43", seats=[
        ("Филин",     "M", 0, "voted",  "D5", "",       ""),
        ("Кот",       "S", 3, "killed", "N2", "",       "BP2"),
        ("Пилот",     "C", 0, "killed", "N1", "1 4 9",  ""),
        ("Ворон",     "M", 0, "voted",  "D1", "",       ""),
        ("Ласточка",  "C", 0, "",       "",   "",       "BP"),
        ("Бублик",    "C", 0, "killed", "N4", "",       ""),
        ("Лис",       "C", 0, "killed", "N3", "",       ""),
        ("Барон",     "D", 0, "voted",  "D3", "",       "BPL"),
        ("Ёжик",      "C", 0, "",       "",   "",       ""),
        ("Мурка",     "C", 2, "",       "",   "",       ""),
    ]),
    Game(12, round=6, table=2, result=BLACK, ended="12:01", seats=[
        ("Кэп",       "S", 0, "killed", "N1", "6 9 10", ""),
        ("Маэстро",   "",  1, "voted",  "D3", "",       ""),
        ("Вишня",     "M", 0, "",       "",   "",       ""),
        ("Граф",      "",  0, "voted",  "D2", "",       ""),
        ("Тень",      "D", 0, "",       "",   "",       "BP"),
        ("Доцент",    "",  3, "",       "",   "",       "BPL"),
        ("Профессор", "",  0, "",       "",   "",       ""),
        ("Рысь",      "",  0, "",       "",   "",       ""),
        ("Шторм",     "M", 0, "",       "",   "",       ""),
        ("Сова",      "",  1, "killed", "N2", "",       ""),
    ]),
    Game(13, round=7, table=1, result=BLACK, ended="13:25", seats=[
        ("Ласточка",  "M", 0, "",       "",   "",       ""),
        ("Шторм",     "C", 2, "killed", "N1", "3 4 8",  ""),
        ("Вишня",     "C", 0, "",       "",   "",       ""),
        ("Пилот",     "S", 3, "",       "",   "",       ""),
        ("Ворон",     "C", 0, "killed", "N3", "",       ""),
        ("Барон",     "C", 1, "",       "",   "",       "BPL"),
        ("Бублик",    "D", 2, "",       "",   "",       ""),
        ("Доцент",    "C", 1, "voted",  "D2", "",       ""),
        ("Профессор", "M", 0, "",       "",   "",       "BP"),
        ("Кэп",       "C", 1, "voted",  "D3", "",       ""),
    ]),
    Game(14, round=7, table=2, result=BLACK, ended="13:04", seats=[
        ("Кот",       "S", 1, "voted",  "D3", "",       ""),
        ("Граф",      "M", 0, "",       "",   "",       ""),
        ("Ёжик",      "",  0, "",       "",   "",       ""),
        ("Лис",       "",  0, "killed", "N2", "",       "BPL"),
        ("Маэстро",   "D", 1, "voted",  "D1", "",       "BP"),
        ("Тень",      "",  1, "killed", "N3", "",       ""),
        ("Рысь",      "M", 1, "voted",  "D2", "",       ""),
        ("Сова",      "",  0, "voted",  "D4", "",       ""),
        ("Медведь",   "",  0, "killed", "N1", "2 5 7",  ""),
        ("Мурка",     "",  1, "killed", "N4", "",       ""),
    ]),
    # Рысь gets his 4th foul during D2, so there is no vote that day (special situation 1).
    # Seat 3 files a protest six minutes after the game; the chief judge rejects it.
    Game(15, round=8, table=1, result=RED, ended="14:29", seats=[
        ("Ласточка",  "D", 0, "voted",  "D4", "",       ""),
        ("Сова",      "C", 0, "killed", "N3", "",       "BP"),
        ("Ёжик",      "M", 1, "voted",  "D3", "",       ""),
        ("Кэп",       "S", 3, "killed", "N2", "",       ""),
        ("Тень",      "M", 1, "voted",  "D5", "",       "BPL"),
        ("Филин",     "C", 0, "killed", "N4", "",       ""),
        ("Доцент",    "C", 0, "killed", "N1", "6 8 9",  ""),
        ("Лис",       "C", 2, "",       "",   "",       ""),
        ("Рысь",      "C", 4, "fouls",  "D2", "",       ""),
        ("Барон",     "C", 0, "",       "",   "",       ""),
    ]),
    Game(16, round=8, table=2, result=RED, ended="14:33", seats=[
        ("Шторм",     "M", 0, "voted",  "D1", "",       ""),
        ("Профессор", "",  0, "",       "",   "",       ""),
        ("Кот",       "",  0, "",       "",   "",       ""),
        ("Пилот",     "D", 0, "voted",  "D2", "",       ""),
        ("Маэстро",   "",  0, "killed", "N2", "",       "BP"),
        ("Бублик",    "",  3, "",       "",   "",       ""),
        ("Граф",      "S", 1, "",       "",   "",       "BP2"),
        ("Медведь",   "M", 0, "voted",  "D4", "",       "BPL"),
        ("Мурка",     "",  2, "killed", "N3", "",       ""),
        ("Ворон",     "",  0, "",       "",   "",       ""),
    ]),
    Game(17, round=9, table=1, result=RED, ended="16:02", seats=[
        ("Кот",       "S", 0, "killed", "N2", "",       "BP"),
        ("Доцент",    "M", 1, "voted",  "D4", "",       ""),
        ("Барон",     "M", 2, "voted",  "D6", "",       ""),
        ("Тень",      "C", 1, "",       "",   "",       ""),
        ("Ёжик",      "C", 1, "killed", "N3", "",       ""),
        ("Мурка",     "C", 0, "voted",  "D2", "",       ""),
        ("Кэп",       "C", 0, "killed", "N4", "",       "BP2"),
        ("Медведь",   "C", 1, "killed", "N5", "",       ""),
        ("Граф",      "D", 0, "voted",  "D3", "",       ""),
        ("Рысь",      "C", 2, "",       "",   "",       ""),
    ]),
    Game(18, round=9, table=2, result=RED, ended="16:05", seats=[
        ("Вишня",     "",  0, "",       "",   "",       ""),
        ("Пилот",     "",  0, "",       "",   "",       ""),
        ("Профессор", "M", 2, "voted",  "D1", "",       ""),
        ("Ворон",     "",  1, "",       "",   "",       ""),
        ("Маэстро",   "S", 0, "",       "",   "",       ""),
        ("Бублик",    "",  0, "killed", "N3", "",       ""),
        ("Шторм",     "",  0, "killed", "N2", "",       ""),
        ("Сова",      "D", 2, "voted",  "D2", "",       "BPL"),
        ("Филин",     "",  2, "killed", "N1", "3 8 10", "BP"),
        ("Лис",       "M", 0, "voted",  "D4", "",       ""),
    ]),
    # The only disqualification: Ворон (the Don) on D3, no vote that day. After N4 it is
    # three reds against two blacks and nobody leaves for three phases: a draw.
    Game(19, round=10, table=1, result=DRAW, ended="17:19", seats=[
        ("Кот",       "C", 0, "killed", "N4", "",       ""),
        ("Вишня",     "C", 0, "",       "",   "",       ""),
        ("Рысь",      "C", 3, "",       "",   "",       ""),
        ("Доцент",    "C", 1, "killed", "N2", "",       ""),
        ("Филин",     "S", 1, "killed", "N1", "",       ""),
        ("Медведь",   "C", 2, "",       "",   "",       ""),
        ("Граф",      "C", 0, "killed", "N3", "",       ""),
        ("Ласточка",  "M", 2, "",       "",   "",       ""),
        ("Кэп",       "M", 2, "",       "",   "",       ""),
        ("Ворон",     "D", 0, "disq",   "D3", "",       ""),
    ]),
    Game(20, round=10, table=2, result=RED, ended="17:10", seats=[
        ("Маэстро",   "M", 0, "voted",  "D3", "",       ""),
        ("Тень",      "",  1, "voted",  "D1", "",       ""),
        ("Шторм",     "",  1, "",       "",   "",       ""),
        ("Ёжик",      "S", 0, "killed", "N2", "",       "BP"),
        ("Мурка",     "D", 1, "voted",  "D5", "",       ""),
        ("Пилот",     "",  2, "killed", "N3", "",       ""),
        ("Профессор", "M", 0, "voted",  "D2", "",       ""),
        ("Барон",     "",  1, "killed", "N4", "",       ""),
        ("Бублик",    "",  2, "",       "",   "",       ""),
        ("Лис",       "",  1, "",       "",   "",       ""),
    ]),
]

# One protest, filed 6 minutes after game 15 ended, rejected by the chief judge.
PROTESTS = [
    {
        "game": 15,
        "seat": 3,
        "filed": "14:35",
        "text": {
            "ru": "Игроку на месте 3 не дали последнюю минуту после голосования на Д3",
            "en": "Seat 3 was not given the last minute after the vote on D3",
        },
        "decision": "rejected",
        "decided_by": "chief_judge",
    },
]

# ---------------------------------------------------------------------------
# Workbook vocabulary, per language
# ---------------------------------------------------------------------------

SHEETS = {
    "ru": {"tournament": "Турнир", "players": "Игроки", "games": "Игры", "seats": "Протокол",
           "protests": "Протесты", "lot": "Жребий"},
    "en": {"tournament": "Tournament", "players": "Players", "games": "Games", "seats": "Seats",
           "protests": "Protests", "lot": "Lot"},
}

# Column keys in the order each language's workbook lays them out.
COLUMNS = {
    "ru": {
        "tournament": ["key", "value"],
        "players": ["player", "club", "city", "removed"],
        "games": ["game", "round", "table", "judge", "result", "ended", "annulled"],
        "seats": ["game", "seat", "player", "role", "fouls", "left", "when", "best_move",
                  "bonus"],
        "protests": ["game", "seat", "filed", "text", "decision", "decided_by"],
        "lot": ["player", "order"],
    },
    "en": {
        "tournament": ["key", "value"],
        "players": ["player", "removed", "city", "club"],
        "games": ["game", "result", "ended", "round", "table", "judge", "annulled"],
        "seats": ["player", "game", "seat", "role", "left", "when", "fouls", "bonus",
                  "best_move"],
        "protests": ["game", "seat", "filed", "decision", "decided_by", "text"],
        "lot": ["player", "order"],
    },
}

HEADERS = {
    "ru": {
        "tournament": {"key": "Параметр", "value": "Значение"},
        "players": {"player": "Игрок", "club": "Клуб", "city": "Город",
                    "removed": "Удалён с турнира"},
        "games": {"game": "Игра", "round": "Тур", "table": "Стол", "judge": "Судья",
                  "result": "Результат", "ended": "Окончание", "annulled": "Отменена"},
        "seats": {"game": "Игра", "seat": "Место", "player": "Игрок", "role": "Роль",
                  "fouls": "Фолы", "left": "Выбыл", "when": "Когда",
                  "best_move": "Лучший ход", "bonus": "Доп"},
        "protests": {"game": "Игра", "seat": "Место", "filed": "Подан", "text": "Суть",
                     "decision": "Решение", "decided_by": "Кто решил"},
        "lot": {"player": "Игрок", "order": "Порядок"},
    },
    "en": {
        "tournament": {"key": "Setting", "value": "Value"},
        "players": {"player": "Player", "club": "Club", "city": "City",
                    "removed": "Removed from tournament"},
        "games": {"game": "Game", "round": "Round", "table": "Table", "judge": "Judge",
                  "result": "Result", "ended": "Ended", "annulled": "Annulled"},
        "seats": {"game": "Game", "seat": "Seat", "player": "Player", "role": "Role",
                  "fouls": "Fouls", "left": "Left", "when": "When",
                  "best_move": "Best move", "bonus": "Bonus"},
        "protests": {"game": "Game", "seat": "Seat", "filed": "Filed", "text": "Text",
                     "decision": "Decision", "decided_by": "Decided by"},
        "lot": {"player": "Player", "order": "Order"},
    },
}

WORDS = {
    "ru": {
        "setting": {"name": "Название", "dates": "Даты", "city": "Город",
                    "chief_judge": "Главный судья", "k": "Коэффициент K",
                    "draws_in_n": "Ничьи в N"},
        "yes": "да", "no": "нет",
        "role": {"C": "Мирный", "S": "Шериф", "M": "Мафия", "D": "Дон", "": ""},
        "result": {RED: "Красные", BLACK: "Чёрные", DRAW: "Ничья"},
        "left": {"killed": "убит", "voted": "заголосован", "fouls": "4 фола",
                 "disq": "дисквалифицирован", "": ""},
        "phase": {"D": "Д", "N": "Н"},
        "bonus": {"BP": "ЛИ", "BP2": "ЛИ2", "BPL": "ЛИП", "": ""},
        "decision": {"rejected": "отклонён"},
        "decided_by": {"chief_judge": "главный судья"},
    },
    "en": {
        "setting": {"name": "Name", "dates": "Dates", "city": "City",
                    "chief_judge": "Chief judge", "k": "Coefficient K",
                    "draws_in_n": "Draws in N"},
        "yes": "yes", "no": "no",
        "role": {"C": "Civilian", "S": "Sheriff", "M": "Mafia", "D": "Don", "": ""},
        "result": {RED: "Red", BLACK: "Black", DRAW: "Draw"},
        "left": {"killed": "killed", "voted": "voted out", "fouls": "fouled out",
                 "disq": "disqualified", "": ""},
        "phase": {"D": "D", "N": "N"},
        "bonus": {"BP": "BP", "BP2": "BP2", "BPL": "BPL", "": ""},
        "decision": {"rejected": "rejected"},
        "decided_by": {"chief_judge": "chief judge"},
    },
}

BONUS_LABEL = {"BP": "ЛИ", "BP2": "ЛИ2", "BPL": "ЛИП"}


def phase_index(when: str) -> int:
    """D1 -> 0, N1 -> 1, D2 -> 2, N2 -> 3, ... (night k follows day k)."""
    return (int(when[1:]) - 1) * 2 + (1 if when[0] == "N" else 0)


def best_move_seats(text: str) -> list[int]:
    return [int(part) for part in text.split()]


# ---------------------------------------------------------------------------
# The regulation, checked independently of the package
# ---------------------------------------------------------------------------

def regulation_errors(games: list[Game]) -> list[str]:
    """Everything the sample must not contain; an empty list means a clean sample."""
    errors: list[str] = []
    roster = {nick for nick, *_ in PLAYERS}
    removed = {nick for nick, _club, _city, gone in PLAYERS if gone}
    ids = [g.id for g in games]
    if len(ids) != len(set(ids)):
        errors.append("duplicate game id")
    per_round: dict[int, Counter] = defaultdict(Counter)
    last_round_of_removed = 0
    for g in games:
        where = f"game {g.id}"
        seats = g.seats
        if [s.seat for s in seats] != list(range(1, 11)):
            errors.append(f"{where}: seats are not 1-10")
        names = [s.player for s in seats]
        if len(set(names)) != 10:
            errors.append(f"{where}: a player sits twice")
        for name in names:
            per_round[g.round][name] += 1
            if name not in roster:
                errors.append(f"{where}: {name} not in the roster")
            if name in removed:
                last_round_of_removed = max(last_round_of_removed, g.round)
        roles = Counter(s.role or "C" for s in seats)
        if roles != Counter({"C": 6, "S": 1, "M": 2, "D": 1}):
            errors.append(f"{where}: roles {dict(roles)}")
        for s in seats:
            if not 0 <= s.fouls <= 4:
                errors.append(f"{where} seat {s.seat}: fouls {s.fouls}")
            if (s.fouls == 4) != (s.left == "fouls"):
                errors.append(f"{where} seat {s.seat}: 4 fouls and 'fouled out' disagree")
            if bool(s.left) != bool(s.when):
                errors.append(f"{where} seat {s.seat}: left without when or the reverse")
            if s.left == "killed" and s.when[0] != "N":
                errors.append(f"{where} seat {s.seat}: killed in a day")
            if s.left == "voted" and s.when[0] != "D":
                errors.append(f"{where} seat {s.seat}: voted out at night")
        errors += _departure_errors(g)
        errors += _best_move_errors(g)
        errors += _award_errors(g)
    for rnd, counts in per_round.items():
        for name, n in counts.items():
            if n > 1:
                errors.append(f"round {rnd}: {name} plays {n} times")
    for g in games:
        if g.round > last_round_of_removed and any(s.player in removed for s in g.seats):
            errors.append(f"game {g.id}: a removed player after his removal")
    lefts = Counter(s.left for g in games for s in g.seats)
    if lefts["disq"] != 1 or lefts["fouls"] < 1:
        errors.append(f"want exactly one disqualification and a fouled-out player: {lefts}")
    if sum(g.result == DRAW for g in games) < 2:
        errors.append("want at least two draws")
    return errors


def _departure_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    by_phase: dict[int, list[Seat]] = defaultdict(list)
    for s in g.seats:
        if s.left:
            by_phase[phase_index(s.when)].append(s)
    reds, blacks = 7, 3
    decided_at = None
    outcome = DRAW
    for index in sorted(by_phase):
        leaving = by_phase[index]
        kinds = Counter(s.left for s in leaving)
        if kinds["killed"] > 1:
            errors.append(f"{where}: two kills in one night")
        if kinds["voted"] > 1:
            errors.append(f"{where}: several voted out in one day (re-vote): avoided here")
        if decided_at is not None:
            errors.append(f"{where}: departures after the game was decided")
        # Special situations 1-2: a fouled-out or disqualified player stops the
        # current (day) or the next day's vote.
        fouled = [s for s in leaving if s.left in ("fouls", "disq")]
        if fouled:
            vote_phase = index if index % 2 == 0 else index + 1
            if any(s.left == "voted" for s in by_phase.get(vote_phase, [])):
                errors.append(f"{where}: a vote-out despite special situations 1-2")
        for s in leaving:
            if s.team == RED:
                reds -= 1
            else:
                blacks -= 1
        if blacks == 0:
            decided_at, outcome = index, RED
        elif blacks >= reds:
            decided_at, outcome = index, BLACK
    if outcome != g.result:
        errors.append(f"{where}: departures say {outcome}, protocol says {g.result}")
    return errors


def _best_move_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    for s in g.seats:
        if not s.best_move:
            continue
        named = best_move_seats(s.best_move)
        if (s.left, s.when) != ("killed", "N1"):
            errors.append(f"{where} seat {s.seat}: best move but not killed on night 1")
        if s.team != RED:
            errors.append(f"{where} seat {s.seat}: best move by a black player")
        if len(named) != 3 or len(set(named)) != 3 or s.seat in named:
            errors.append(f"{where} seat {s.seat}: best move {s.best_move!r}")
        if not all(1 <= n <= 10 for n in named):
            errors.append(f"{where} seat {s.seat}: best move out of 1-10")
    return errors


def _award_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    awards = Counter(s.bonus for s in g.seats if s.bonus)
    if g.result == DRAW and awards:
        errors.append(f"{where}: awards in a draw")
    if any(n > 1 for n in awards.values()):
        errors.append(f"{where}: an award type given twice")
    for s in g.seats:
        if s.bonus in ("BP", "BP2") and s.team != g.result:
            errors.append(f"{where} seat {s.seat}: {s.bonus} to a loser")
        if s.bonus == "BPL" and s.team == g.result:
            errors.append(f"{where} seat {s.seat}: BPL to a winner")
    return errors


# ---------------------------------------------------------------------------
# Independent calculator: regulation 8.2-8.6, exact fractions
# ---------------------------------------------------------------------------

AWARD_POINTS = {"BP": Fraction(1), "BP2": Fraction(1, 2), "BPL": Fraction(1, 2)}
CRITERIA = ["total", "additional", "wins", "wins_don_sheriff", "killed_first_night"]


def best_move_points(seat: Seat, game: Game) -> Fraction:
    """8.3: a red player killed on night 1 naming 3 blacks gets 1/2, naming 2 gets 1/4."""
    if not seat.best_move or seat.team != RED or (seat.left, seat.when) != ("killed", "N1"):
        return Fraction(0)
    blacks = {s.seat for s in game.seats if s.team == BLACK}
    hits = len(set(best_move_seats(seat.best_move)) & blacks)
    return {3: Fraction(1, 2), 2: Fraction(1, 4)}.get(hits, Fraction(0))


@dataclass
class Line:
    player: str
    win_points: Fraction = Fraction(0)
    best_move: Fraction = Fraction(0)
    awards: Fraction = Fraction(0)
    penalties: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    wins_don_sheriff: int = 0
    killed_first_night: int = 0
    notes: list = field(default_factory=list)

    @property
    def additional(self) -> Fraction:
        return self.best_move + self.awards + self.penalties

    @property
    def total(self) -> Fraction:
        return self.win_points + self.additional


@dataclass
class Standings:
    games: int
    red_wins: int
    black_wins: int
    draws: int
    heavy_side: str | None
    heavy_games: int
    k: Fraction
    rows: list  # of (place, place_range, Line, decided_by)
    removed: list


def coefficient_k(games: list[Game]) -> tuple[int, int, int, str | None, int, Fraction]:
    """8.5: K = 1 + (N/2 - n)/(N/2); N counts draws; n = wins of the side with fewer wins."""
    n_games = len(games)
    red = sum(g.result == RED for g in games)
    black = sum(g.result == BLACK for g in games)
    if red == black:
        return n_games, red, black, None, 0, Fraction(1)
    heavy, n = (RED, red) if red < black else (BLACK, black)
    half = Fraction(n_games, 2)
    return n_games, red, black, heavy, n, 1 + (half - n) / half


def compute(games: list[Game]) -> Standings:
    n_games, red, black, heavy, n, k = coefficient_k(games)
    removed = [nick for nick, _club, _city, gone in PLAYERS if gone]
    lines = {nick: Line(nick) for nick, *_ in PLAYERS}
    for g in games:
        for s in g.seats:
            line = lines[s.player]
            line.games += 1
            if s.team == g.result:
                points = 2 * (k if g.result == heavy else 1)
                line.win_points += points
                line.wins += 1
                as_role = ""
                if s.role in ("D", "S"):
                    line.wins_don_sheriff += 1
                    as_role = " as Don" if s.role == "D" else " as Sheriff"
                line.notes.append(f"g{g.id} {g.result} win{as_role} +{points}")
            if (s.left, s.when) == ("killed", "N1"):
                line.killed_first_night += 1
                line.notes.append(f"g{g.id} killed N1")
            bm = best_move_points(s, g)
            line.best_move += bm
            if s.best_move:
                line.notes.append(f"g{g.id} best move {s.best_move} +{bm}")
            if s.bonus:
                line.awards += AWARD_POINTS[s.bonus]
                line.notes.append(f"g{g.id} {BONUS_LABEL[s.bonus]} +{AWARD_POINTS[s.bonus]}")
            if s.left == "disq":
                line.penalties -= 1
                line.notes.append(f"g{g.id} disqualified -1")
    ranked = sorted(
        (line for line in lines.values() if line.player not in removed),
        key=lambda x: (*(-value for value in criteria_values(x)), x.player),
    )
    decided = []
    for upper, lower in pairwise(ranked):
        pairs = zip(CRITERIA, criteria_values(upper), criteria_values(lower), strict=True)
        decided.append(next((name for name, a, b in pairs if a != b), "tied"))
    decided.append("total")
    rows = []
    start = 0
    for i in range(len(ranked)):
        if decided[i] != "tied":
            first, last = start + 1, i + 1
            place_range = str(first) if first == last else f"{first}–{last}"
            rows += [(first, place_range, ranked[j], decided[j]) for j in range(start, i + 1)]
            start = i + 1
    return Standings(n_games, red, black, n_games - red - black, heavy, n, k, rows, removed)


def criteria_values(line: Line) -> tuple:
    return (line.total, line.additional, line.wins, line.wins_don_sheriff,
            line.killed_first_night)


# ---------------------------------------------------------------------------
# Workbooks
# ---------------------------------------------------------------------------

def sheet_rows(lang: str) -> dict[str, list[dict]]:
    """Every sheet's rows as {column key: cell value} in the given language."""
    w = WORDS[lang]
    yes_no = {True: w["yes"], False: w["no"]}

    def phase(when: str) -> str:
        return w["phase"][when[0]] + when[1:] if when else ""

    settings = [
        ("name", TOURNAMENT["name"]),
        ("dates", TOURNAMENT["dates"][lang]),
        ("city", CITIES[TOURNAMENT["city"]][lang]),
        ("chief_judge", TOURNAMENT["chief_judge"]),
        ("k", w["yes"]),
        ("draws_in_n", w["yes"]),
    ]
    return {
        "tournament": [{"key": w["setting"][key], "value": value} for key, value in settings],
        "players": [
            {"player": nick, "club": club, "city": CITIES[city][lang],
             "removed": yes_no[gone]}
            for nick, club, city, gone in PLAYERS
        ],
        "games": [
            {"game": g.id, "round": g.round, "table": g.table, "judge": g.judge,
             "result": w["result"][g.result], "ended": g.ended_time, "annulled": w["no"]}
            for g in GAMES
        ],
        "seats": [
            {"game": g.id, "seat": s.seat, "player": s.player, "role": w["role"][s.role],
             "fouls": s.fouls or None, "left": w["left"][s.left], "when": phase(s.when),
             "best_move": s.best_move, "bonus": w["bonus"][s.bonus]}
            for g in GAMES
            for s in g.seats
        ],
        "protests": [
            {"game": p["game"], "seat": p["seat"], "filed": clock(p["filed"]),
             "text": p["text"][lang],
             "decision": w["decision"][p["decision"]],
             "decided_by": w["decided_by"][p["decided_by"]]}
            for p in PROTESTS
        ],
        "lot": [],
    }


WIDTHS = {"text": 40, "player": 14, "club": 20, "city": 18, "judge": 18, "key": 18,
          "value": 30, "removed": 16, "result": 10, "left": 18, "best_move": 12}
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDDDDD")


def write_workbook(lang: str, path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    data = sheet_rows(lang)
    for sheet_key, rows in data.items():
        ws = wb.create_sheet(SHEETS[lang][sheet_key])
        columns = COLUMNS[lang][sheet_key]
        ws.append([HEADERS[lang][sheet_key][c] for c in columns])
        for row in rows:
            ws.append([row[c] if row[c] != "" else None for c in columns])
        for number, column in enumerate(columns, start=1):
            letter = get_column_letter(number)
            ws.column_dimensions[letter].width = WIDTHS.get(column, 11)
            header = ws.cell(row=1, column=number)
            header.font, header.fill = HEADER_FONT, HEADER_FILL
            header.alignment = Alignment(horizontal="center", wrap_text=True)
            if column in ("ended", "filed"):
                for (time_cell,) in ws.iter_rows(min_row=2, min_col=number, max_col=number):
                    time_cell.number_format = "hh:mm"
        ws.freeze_panes = "A2"
    wb.properties.title = TOURNAMENT["name"]
    wb.properties.creator = TOURNAMENT["chief_judge"]
    wb.save(path)


def read_workbook(path: Path, lang: str) -> dict[str, list[dict]]:
    """Read a workbook back by header names, as sheet_rows() shaped it."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    if book.sheet_names != [SHEETS[lang][key] for key in COLUMNS[lang]]:
        raise AssertionError(f"{path.name}: sheets {book.sheet_names}")
    data = {}
    for sheet_key in COLUMNS[lang]:
        table = book.get_sheet_by_name(SHEETS[lang][sheet_key]).to_python()
        by_header = {v: k for k, v in HEADERS[lang][sheet_key].items()}
        keys = [by_header[h] for h in table[0]]
        data[sheet_key] = [
            {k: (v if v != "" else None) for k, v in zip(keys, row, strict=True)}
            for row in table[1:]
        ]
    return data


def to_canonical(lang: str, data: dict[str, list[dict]]) -> dict[str, list[tuple]]:
    """Translate one language's cell values into language-free tuples."""
    w = WORDS[lang]
    back = {name: {v: k for k, v in w[name].items() if v} for name in
            ("role", "result", "left", "bonus", "decision", "decided_by", "setting")}
    cities = {CITIES[key][lang]: key for key in CITIES if key}
    texts = {p["text"][lang]: i for i, p in enumerate(PROTESTS)}
    dates = {TOURNAMENT["dates"][lang]: "dates"}

    def number(value):
        return int(value) if isinstance(value, float) and value.is_integer() else value

    def phase(value):
        if not value:
            return None
        letter = {v: k for k, v in w["phase"].items()}[value[0]]
        return letter + value[1:]

    def plain(value, table):
        return table.get(value, value) if value else None

    data = {sheet: [{k: (None if v == "" else v) for k, v in row.items()} for row in rows]
            for sheet, rows in data.items()}
    yes_no = {w["yes"]: True, w["no"]: False}
    settings = []
    for row in data["tournament"]:
        key = back["setting"][row["key"]]
        value = row["value"]
        value = cities.get(value, dates.get(value, yes_no.get(value, value)))
        settings.append((key, value))
    return {
        "tournament": settings,
        "players": [(r["player"], r["club"], plain(r["city"], cities), yes_no[r["removed"]])
                    for r in data["players"]],
        "games": sorted((number(r["game"]), number(r["round"]), number(r["table"]), r["judge"],
                         back["result"][r["result"]], r["ended"], yes_no[r["annulled"]])
                        for r in data["games"]),
        "seats": sorted((number(r["game"]), number(r["seat"]), r["player"],
                         plain(r["role"], back["role"]), number(r["fouls"]),
                         plain(r["left"], back["left"]), phase(r["when"]), r["best_move"],
                         plain(r["bonus"], back["bonus"]))
                        for r in data["seats"]),
        "protests": [(number(r["game"]), number(r["seat"]), r["filed"], texts[r["text"]],
                      back["decision"][r["decision"]], back["decided_by"][r["decided_by"]])
                     for r in data["protests"]],
        "lot": [tuple(r.values()) for r in data["lot"]],
    }


# ---------------------------------------------------------------------------
# Expected standings
# ---------------------------------------------------------------------------

def fraction_text(value: Fraction) -> str:
    return f'"{value}"'


def decimal_text(value: Fraction) -> str:
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def tie_comments(st: Standings) -> list[str]:
    """One paragraph per pair of neighbours not separated by total."""
    out = []
    rows = st.rows
    for (place, place_range, upper, decided_by), below in pairwise(rows):
        if decided_by == "total":
            continue
        lower = below[2]
        ours, theirs = criteria_values(upper), criteria_values(lower)
        same = []
        for name, a, b in zip(CRITERIA, ours, theirs, strict=True):
            if a != b:
                break
            same.append(f"{name} {shown(a)}")
        if decided_by == "tied":
            out += [
                f"# Places {place_range}: {upper.player} and {lower.player} -- a lot is needed",
                f"#   equal on every criterion of 8.6.1-8.6.4: {', '.join(same)}.",
                "#   Only a lot can separate them (8.6.5); the Lot sheet is empty, so they share",
                f"#   the place range {place_range} (decided_by = \"tied\"; the order of the two",
                "#   rows within the range is not significant).",
            ]
        else:
            at = CRITERIA.index(decided_by)
            out += [
                f"# Places {place} and {below[0]}: {upper.player} above {lower.player}"
                f" -- decided by {decided_by}",
                f"#   equal on: {', '.join(same)}.",
                f"#   {decided_by}: {upper.player} {shown(ours[at])}"
                f" > {lower.player} {shown(theirs[at])}, so {upper.player} is placed higher.",
            ]
            rest = zip(CRITERIA[at + 1:], ours[at + 1:], theirs[at + 1:], strict=True)
            later = [(name, a, b) for name, a, b in rest if b > a]
            if later:
                name, a, b = later[0]
                out.append(f"#   Later criteria are not consulted, though {lower.player} leads"
                           f" on {name} ({shown(b)} against {shown(a)}).")
        for member in (upper, lower):
            out += breakdown(member)
        out.append("#")
    return out


def shown(value) -> str:
    return decimal_text(value) if isinstance(value, Fraction) else str(value)


def breakdown(line: Line) -> list[str]:
    """A player's every point, game by game, for checking by hand."""
    out = textwrap.wrap("; ".join(line.notes), width=96, initial_indent=f"#   {line.player}: ",
                        subsequent_indent="#       ", break_on_hyphens=False)
    out.append(f"#     win points {line.win_points} + additional {line.additional}"
               f" (best move {line.best_move}, awards {line.awards},"
               f" penalties {line.penalties}) = total {line.total}"
               f" = {decimal_text(line.total)}")
    return out


def expected_toml(st: Standings) -> str:
    half = Fraction(st.games, 2)
    lot_needed = any(d == "tied" for *_, d in st.rows)
    out = [
        "# Expected standings of the sample tournament (tournament-ru.xlsx and",
        "# tournament-en.xlsx hold the same tournament). Computed independently of the",
        "# mafia_sheets package by samples/build_samples.py, then checked by hand for the",
        "# tied players. Every point value is an exact fraction written as a string.",
        "#",
        "# Coefficient K (regulation 8.5):",
        f"#   N = {st.games} games counted (no game annulled; draws count in N)",
        f"#   red won {st.red_wins}, black won {st.black_wins}, draws {st.draws}",
        f"#   heavy side = {st.heavy_side} (strictly fewer wins), n = {st.heavy_games}",
        f"#   K = 1 + (N/2 - n)/(N/2) = 1 + ({half} - {st.heavy_games})/{half}"
        f" = {st.k} = {decimal_text(st.k)}",
        f"#   a red win is worth 2; a black win 2 x {st.k} = {2 * st.k}"
        f" = {decimal_text(2 * st.k)}; additional points are never multiplied.",
        "#",
        "# Ties (regulation 8.6):",
        *tie_comments(st),
        f"# Removed from the tournament (special situation 4): {', '.join(st.removed)};"
        " his games count (also in N), he gets no place.",
        "",
        "[tournament]",
        f'name = "{TOURNAMENT["name"]}"',
        "",
        "[k]",
        f"applied = {'true' if st.heavy_side else 'false'}",
        f"value = {fraction_text(st.k)}",
        f'heavy_side = "{st.heavy_side}"',
        f"games = {st.games}",
        f"heavy_games = {st.heavy_games}",
        "",
        "[lot]",
        f"needed = {'true' if lot_needed else 'false'}",
    ]
    for place, place_range, line, decided_by in st.rows:
        out += [
            "",
            "[[standings]]",
            f"place = {place}",
            f'place_range = "{place_range}"',
            f'player = "{line.player}"',
            f"total = {fraction_text(line.total)}",
            f"win_points = {fraction_text(line.win_points)}",
            f"additional = {fraction_text(line.additional)}",
            f"best_move = {fraction_text(line.best_move)}",
            f"awards = {fraction_text(line.awards)}",
            f"penalties = {fraction_text(line.penalties)}",
            f"games = {line.games}",
            f"wins = {line.wins}",
            f"wins_don_sheriff = {line.wins_don_sheriff}",
            f"killed_first_night = {line.killed_first_night}",
            f'decided_by = "{decided_by}"',
        ]
    for player in st.removed:
        out += ["", "[[removed]]", f'player = "{player}"']
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------

def main() -> int:
    errors = regulation_errors(GAMES)
    if errors:
        print("The sample breaks the regulation:", *errors, sep="\n  ")
        return 1
    standings = compute(GAMES)
    paths = {lang: HERE / f"tournament-{lang}.xlsx" for lang in ("ru", "en")}
    for lang, path in paths.items():
        write_workbook(lang, path)
    (HERE / "tournament.expected.toml").write_text(expected_toml(standings), encoding="utf-8")

    written = to_canonical("ru", sheet_rows("ru"))
    for lang, path in paths.items():
        read_back = to_canonical(lang, read_workbook(path, lang))
        if read_back != written:
            diff = [key for key in written if written[key] != read_back[key]]
            print(f"{path.name} does not read back as written: sheets {diff}")
            return 1
    for _place, place_range, line, decided_by in standings.rows:
        print(f"{place_range:>6} {line.player:<10} {decimal_text(line.total):>6}"
              f" {decimal_text(line.additional):>5} {line.wins:>2} {line.wins_don_sheriff}"
              f" {line.killed_first_night} {decided_by}")
    print(f"K = {standings.k}; wrote {', '.join(p.name for p in paths.values())},"
          " tournament.expected.toml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
