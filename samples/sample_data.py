"""The sample tournament as plain data: one ``Game`` per game, one tuple per seat."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

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
    Game(
        1,
        round=1,
        table=1,
        result=BLACK,
        ended="11:52",
        seats=[
            ("Сова", "C", 2, "killed", "N3", "", ""),
            ("Ёжик", "C", 0, "killed", "N1", "1 4 8", ""),
            ("Пилот", "C", 0, "", "", "", ""),
            ("Призрак", "M", 1, "", "", "", ""),
            ("Кот", "C", 2, "voted", "D3", "", ""),
            ("Профессор", "D", 0, "", "", "", "BP"),
            ("Бублик", "C", 0, "voted", "D4", "", ""),
            ("Шторм", "C", 0, "killed", "N2", "", ""),
            ("Лис", "S", 0, "", "", "", ""),
            ("Вишня", "M", 1, "voted", "D2", "", ""),
        ],
    ),
    # A slow game: after the N1 kill nobody leaves N2, D3, N3, D4 (the mafia miss twice,
    # two days end without a vote-out), then play goes on. Four quiet phases from a night
    # are not the five of special situation 9, so the game is not a draw.
    Game(
        2,
        round=1,
        table=2,
        result=RED,
        ended="11:43",
        seats=[
            ("Медведь", "", 2, "killed", "N4", "", ""),
            ("Доцент", "D", 0, "voted", "D1", "", ""),
            ("Филин", "", 0, "", "", "", ""),
            ("Граф", "S", 1, "killed", "N1", "1 2 6", ""),
            ("Мурка", "", 3, "", "", "", "BP2"),
            ("Ворон", "M", 0, "voted", "D5", "", ""),
            ("Ласточка", "", 2, "", "", "", "BP"),
            ("Рысь", "", 0, "", "", "", ""),
            ("Маэстро", "M", 0, "voted", "D6", "", ""),
            ("Тень", "", 0, "", "", "", ""),
        ],
    ),
    Game(
        3,
        round=2,
        table=1,
        result=BLACK,
        ended="13:11",
        seats=[
            ("Ворон", "C", 1, "killed", "N3", "", ""),
            ("Тень", "C", 1, "", "", "", ""),
            ("Ласточка", "M", 0, "voted", "D1", "", "BP"),
            ("Пилот", "C", 1, "killed", "N4", "", "BPL"),
            ("Бублик", "C", 0, "killed", "N1", "1 9 10", ""),
            ("Кот", "M", 1, "", "", "", ""),
            ("Доцент", "C", 1, "voted", "D4", "", ""),
            ("Сова", "D", 0, "voted", "D3", "", "BP2"),
            ("Лис", "C", 1, "killed", "N2", "", ""),
            ("Филин", "S", 1, "voted", "D2", "", ""),
        ],
    ),
    # Draw: after D4 three reds face one black; nobody leaves N4, D5, N5, D6, N6 (special
    # situation 9: five phases in a row from a night).
    Game(
        4,
        round=2,
        table=2,
        result=DRAW,
        ended="13:16",
        seats=[
            ("Шторм", "D", 1, "voted", "D2", "", ""),
            ("Барон", "", 0, "killed", "N1", "", ""),
            ("Вишня", "M", 0, "", "", "", ""),
            ("Профессор", "", 1, "", "", "", ""),
            ("Кэп", "M", 1, "voted", "D4", "", ""),
            ("Граф", "", 0, "", "", "", ""),
            ("Мурка", "", 1, "killed", "N3", "", ""),
            ("Призрак", "", 1, "", "", "", ""),
            ("Маэстро", "", 2, "killed", "N2", "", ""),
            ("Медведь", "S", 1, "voted", "D3", "", ""),
        ],
    ),
    Game(
        5,
        round=3,
        table=1,
        result=RED,
        ended="14:31",
        seats=[
            ("Кот", "C", 1, "", "", "", "BP"),
            ("Мурка", "C", 0, "", "", "", ""),
            ("Вишня", "D", 1, "voted", "D1", "", ""),
            ("Сова", "C", 0, "killed", "N1", "2 6 7", ""),
            ("Доцент", "S", 0, "killed", "N3", "", ""),
            ("Призрак", "C", 3, "", "", "", ""),
            ("Кэп", "M", 0, "voted", "D4", "", ""),
            ("Пилот", "M", 1, "voted", "D3", "", ""),
            ("Рысь", "C", 1, "", "", "", "BP2"),
            ("Барон", "C", 2, "", "", "", ""),
        ],
    ),
    Game(
        6,
        round=3,
        table=2,
        result=RED,
        ended="14:32",
        seats=[
            ("Граф", "M", 1, "voted", "D3", "", ""),
            ("Бублик", "M", 1, "voted", "D4", "", "BPL"),
            ("Шторм", "", 1, "killed", "N3", "", ""),
            ("Филин", "D", 0, "voted", "D2", "", ""),
            ("Ёжик", "", 2, "", "", "", ""),
            ("Медведь", "", 2, "killed", "N1", "2 3 10", ""),
            ("Ласточка", "S", 0, "killed", "N2", "", ""),
            ("Маэстро", "", 1, "", "", "", "BP"),
            ("Лис", "", 1, "", "", "", ""),
            ("Профессор", "", 3, "", "", "", "BP2"),
        ],
    ),
    Game(
        7,
        round=4,
        table=1,
        result=BLACK,
        ended="16:08",
        seats=[
            ("Профессор", "C", 0, "", "", "", ""),
            ("Кэп", "M", 1, "", "", "", ""),
            ("Барон", "C", 2, "killed", "N4", "", ""),
            ("Лис", "C", 0, "voted", "D5", "", ""),
            ("Доцент", "D", 2, "voted", "D2", "", ""),
            ("Кот", "C", 0, "killed", "N1", "2 7 8", ""),
            ("Маэстро", "S", 0, "", "", "", ""),
            ("Медведь", "M", 1, "", "", "", "BP"),
            ("Бублик", "C", 0, "voted", "D4", "", ""),
            ("Вишня", "C", 0, "killed", "N2", "", ""),
        ],
    ),
    Game(
        8,
        round=4,
        table=2,
        result=RED,
        ended="15:54",
        seats=[
            ("Мурка", "M", 2, "voted", "D4", "", ""),
            ("Филин", "M", 0, "voted", "D3", "", ""),
            ("Тень", "", 0, "killed", "N1", "", "BP"),
            ("Рысь", "", 0, "", "", "", ""),
            ("Пилот", "", 0, "killed", "N4", "", ""),
            ("Ёжик", "", 0, "voted", "D2", "", ""),
            ("Ворон", "", 0, "killed", "N2", "", ""),
            ("Шторм", "", 1, "killed", "N3", "", ""),
            ("Ласточка", "D", 1, "voted", "D5", "", ""),
            ("Сова", "S", 3, "", "", "", ""),
        ],
    ),
    Game(
        9,
        round=5,
        table=1,
        result=BLACK,
        ended="17:23",
        seats=[
            ("Пилот", "C", 2, "voted", "D4", "", ""),
            ("Вишня", "C", 3, "killed", "N3", "", ""),
            ("Кот", "C", 0, "", "", "", ""),
            ("Рысь", "S", 0, "voted", "D5", "", ""),
            ("Кэп", "C", 0, "killed", "N2", "", "BPL"),
            ("Граф", "D", 0, "voted", "D2", "", "BP"),
            ("Тень", "M", 0, "voted", "D3", "", "BP2"),
            ("Ёжик", "C", 1, "killed", "N1", "1 3 7", ""),
            ("Сова", "M", 0, "", "", "", ""),
            ("Доцент", "C", 1, "killed", "N4", "", ""),
        ],
    ),
    Game(
        10,
        round=5,
        table=2,
        result=RED,
        ended="17:21",
        seats=[
            ("Лис", "", 1, "killed", "N2", "", ""),
            ("Шторм", "", 3, "killed", "N1", "3 4 6", ""),
            ("Мурка", "M", 2, "voted", "D2", "", ""),
            ("Медведь", "M", 1, "voted", "D4", "", ""),
            ("Маэстро", "", 2, "killed", "N3", "", "BP2"),
            ("Ворон", "D", 1, "voted", "D3", "", "BPL"),
            ("Ласточка", "S", 0, "", "", "", ""),
            ("Филин", "", 0, "", "", "", ""),
            ("Бублик", "", 0, "", "", "", "BP"),
            ("Барон", "", 1, "", "", "", ""),
        ],
    ),
    Game(
        11,
        round=6,
        table=1,
        result=RED,
        ended="11:43",
        seats=[
            ("Филин", "M", 0, "voted", "D5", "", ""),
            ("Кот", "S", 3, "killed", "N2", "", "BP2"),
            ("Пилот", "C", 0, "killed", "N1", "1 4 9", ""),
            ("Ворон", "M", 0, "voted", "D1", "", ""),
            ("Ласточка", "C", 0, "", "", "", "BP"),
            ("Бублик", "C", 0, "killed", "N4", "", ""),
            ("Лис", "C", 0, "killed", "N3", "", ""),
            ("Барон", "D", 0, "voted", "D3", "", "BPL"),
            ("Ёжик", "C", 0, "", "", "", ""),
            ("Мурка", "C", 2, "", "", "", ""),
        ],
    ),
    Game(
        12,
        round=6,
        table=2,
        result=BLACK,
        ended="12:01",
        seats=[
            ("Кэп", "S", 0, "killed", "N1", "6 9 10", ""),
            ("Маэстро", "", 1, "voted", "D3", "", ""),
            ("Вишня", "M", 0, "", "", "", ""),
            ("Граф", "", 0, "voted", "D2", "", ""),
            ("Тень", "D", 0, "", "", "", "BP"),
            ("Доцент", "", 3, "", "", "", "BPL"),
            ("Профессор", "", 0, "", "", "", ""),
            ("Рысь", "", 0, "", "", "", ""),
            ("Шторм", "M", 0, "", "", "", ""),
            ("Сова", "", 1, "killed", "N2", "", ""),
        ],
    ),
    Game(
        13,
        round=7,
        table=1,
        result=BLACK,
        ended="13:25",
        seats=[
            ("Ласточка", "M", 0, "", "", "", ""),
            ("Шторм", "C", 2, "killed", "N1", "3 4 8", ""),
            ("Вишня", "C", 0, "", "", "", ""),
            ("Пилот", "S", 3, "", "", "", ""),
            ("Ворон", "C", 0, "killed", "N3", "", ""),
            ("Барон", "C", 1, "", "", "", "BPL"),
            ("Бублик", "D", 2, "", "", "", ""),
            ("Доцент", "C", 1, "voted", "D2", "", ""),
            ("Профессор", "M", 0, "", "", "", "BP"),
            ("Кэп", "C", 1, "voted", "D3", "", ""),
        ],
    ),
    Game(
        14,
        round=7,
        table=2,
        result=BLACK,
        ended="13:04",
        seats=[
            ("Кот", "S", 1, "voted", "D3", "", ""),
            ("Граф", "M", 0, "", "", "", ""),
            ("Ёжик", "", 0, "", "", "", ""),
            ("Лис", "", 0, "killed", "N2", "", "BPL"),
            ("Маэстро", "D", 1, "voted", "D1", "", "BP"),
            ("Тень", "", 1, "killed", "N3", "", ""),
            ("Рысь", "M", 1, "voted", "D2", "", ""),
            ("Сова", "", 0, "voted", "D4", "", ""),
            ("Медведь", "", 0, "killed", "N1", "2 5 7", ""),
            ("Мурка", "", 1, "killed", "N4", "", ""),
        ],
    ),
    # Рысь gets his 4th foul during D2, so there is no vote that day (special situation 1).
    # Seat 3 files a protest six minutes after the game; the chief judge rejects it.
    Game(
        15,
        round=8,
        table=1,
        result=RED,
        ended="14:29",
        seats=[
            ("Ласточка", "D", 0, "voted", "D4", "", ""),
            ("Сова", "C", 0, "killed", "N3", "", "BP"),
            ("Ёжик", "M", 1, "voted", "D3", "", ""),
            ("Кэп", "S", 3, "killed", "N2", "", ""),
            ("Тень", "M", 1, "voted", "D5", "", "BPL"),
            ("Филин", "C", 0, "killed", "N4", "", ""),
            ("Доцент", "C", 0, "killed", "N1", "6 8 9", ""),
            ("Лис", "C", 2, "", "", "", ""),
            ("Рысь", "C", 4, "fouls", "D2", "", ""),
            ("Барон", "C", 0, "", "", "", ""),
        ],
    ),
    Game(
        16,
        round=8,
        table=2,
        result=RED,
        ended="14:33",
        seats=[
            ("Шторм", "M", 0, "voted", "D1", "", ""),
            ("Профессор", "", 0, "", "", "", ""),
            ("Кот", "", 0, "", "", "", ""),
            ("Пилот", "D", 0, "voted", "D2", "", ""),
            ("Маэстро", "", 0, "killed", "N2", "", "BP"),
            ("Бублик", "", 3, "", "", "", ""),
            ("Граф", "S", 1, "", "", "", "BP2"),
            ("Медведь", "M", 0, "voted", "D4", "", "BPL"),
            ("Мурка", "", 2, "killed", "N3", "", ""),
            ("Ворон", "", 0, "", "", "", ""),
        ],
    ),
    Game(
        17,
        round=9,
        table=1,
        result=RED,
        ended="16:02",
        seats=[
            ("Кот", "S", 0, "killed", "N2", "", "BP"),
            ("Доцент", "M", 1, "voted", "D4", "", ""),
            ("Барон", "M", 2, "voted", "D6", "", ""),
            ("Тень", "C", 1, "", "", "", ""),
            ("Ёжик", "C", 1, "killed", "N3", "", ""),
            ("Мурка", "C", 0, "voted", "D2", "", ""),
            ("Кэп", "C", 0, "killed", "N4", "", "BP2"),
            ("Медведь", "C", 1, "killed", "N5", "", ""),
            ("Граф", "D", 0, "voted", "D3", "", ""),
            ("Рысь", "C", 2, "", "", "", ""),
        ],
    ),
    Game(
        18,
        round=9,
        table=2,
        result=RED,
        ended="16:05",
        seats=[
            ("Вишня", "", 0, "", "", "", ""),
            ("Пилот", "", 0, "", "", "", ""),
            ("Профессор", "M", 2, "voted", "D1", "", ""),
            ("Ворон", "", 1, "", "", "", ""),
            ("Маэстро", "S", 0, "", "", "", ""),
            ("Бублик", "", 0, "killed", "N3", "", ""),
            ("Шторм", "", 0, "killed", "N2", "", ""),
            ("Сова", "D", 2, "voted", "D2", "", "BPL"),
            ("Филин", "", 2, "killed", "N1", "3 8 10", "BP"),
            ("Лис", "M", 0, "voted", "D4", "", ""),
        ],
    ),
    # The only disqualification: Ворон (the Don) on D3, no vote that day. After N4 it is
    # three reds against two blacks and nobody leaves N5, D6, N6, D7, N7 (D5 follows a night
    # departure and opens no window): a draw by special situation 9.
    Game(
        19,
        round=10,
        table=1,
        result=DRAW,
        ended="17:19",
        seats=[
            ("Кот", "C", 0, "killed", "N4", "", ""),
            ("Вишня", "C", 0, "", "", "", ""),
            ("Рысь", "C", 3, "", "", "", ""),
            ("Доцент", "C", 1, "killed", "N2", "", ""),
            ("Филин", "S", 1, "killed", "N1", "", ""),
            ("Медведь", "C", 2, "", "", "", ""),
            ("Граф", "C", 0, "killed", "N3", "", ""),
            ("Ласточка", "M", 2, "", "", "", ""),
            ("Кэп", "M", 2, "", "", "", ""),
            ("Ворон", "D", 0, "disq", "D3", "", ""),
        ],
    ),
    Game(
        20,
        round=10,
        table=2,
        result=RED,
        ended="17:10",
        seats=[
            ("Маэстро", "M", 0, "voted", "D3", "", ""),
            ("Тень", "", 1, "voted", "D1", "", ""),
            ("Шторм", "", 1, "", "", "", ""),
            ("Ёжик", "S", 0, "killed", "N2", "", "BP"),
            ("Мурка", "D", 1, "voted", "D5", "", ""),
            ("Пилот", "", 2, "killed", "N3", "", ""),
            ("Профессор", "M", 0, "voted", "D2", "", ""),
            ("Барон", "", 1, "killed", "N4", "", ""),
            ("Бублик", "", 2, "", "", "", ""),
            ("Лис", "", 1, "", "", "", ""),
        ],
    ),
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

BONUS_LABEL = {"BP": "ЛИ", "BP2": "ЛИ2", "BPL": "ЛИП"}
