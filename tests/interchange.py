"""Game records in the other software's formats, written here for the tests.

One game is described once, plainly (:class:`Game`: ten seats with role, departure and
phase), and written by independent little writers into each format with that software's
own field names — the rating site's game JSON, the iMafia and emotion.games platform
games and the world tour upload. None of it is copied data; the games are ours.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

DAY, NIGHT = "day", "night"


@dataclass
class Seat:
    name: str
    role: str = "civ"  # civ | sheriff | maf | don
    left: str | None = None  # voted | killed | fouled | disqualified
    phase: str | None = None  # Д1, Н1 …
    fouls: int = 0
    bonus: float = 0
    named: tuple[int, ...] = ()  # the best move of the first night's victim


@dataclass
class Game:
    number: int
    table: int
    judge: str
    winner: str  # civ | maf | tie
    seats: list[Seat]
    stage: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def first_killed(self) -> int | None:
        for n, seat in enumerate(self.seats, 1):
            if seat.left == "killed" and seat.phase == "Н1":
                return n
        return None


def _round(phase: str) -> tuple[str, int]:
    """Д(k) is the site's day k − 1; Н(k) is its night k."""
    number = int(phase[1:])
    return (DAY, number - 1) if phase[0] == "Д" else (NIGHT, number)


def _is_black(role: str) -> bool:
    return role in ("maf", "don")


# ---- the rating site's game JSON --------------------------------------------------------------

_DEATH = {"voted": "day", "killed": "night", "fouled": "warnings", "disqualified": "kickOut"}


def site_game(game: Game, **more: Any) -> dict[str, Any]:
    players = []
    for n, seat in enumerate(game.seats, 1):
        player: dict[str, Any] = {"id": 100 + n, "name": seat.name, "role": seat.role}
        if seat.fouls:
            player["warnings"] = seat.fouls
        if seat.left:
            kind, number = _round(seat.phase or "Д1")
            death: dict[str, Any] = {"type": _DEATH[seat.left], "round": number}
            if seat.left in ("fouled", "disqualified"):
                death["time"] = {
                    "round": number,
                    "time": "shooting" if kind == NIGHT else "speaking",
                }
            player["death"] = death
        if seat.named:
            player["legacy"] = list(seat.named)
        if seat.bonus:
            player["bonus"] = seat.bonus
        players.append(player)
    return {
        "id": f"{game.table}{game.number:03d}",
        "tableNum": game.table,
        "gameNum": game.number,
        "moderator": {"id": 7, "name": game.judge},
        "startTime": 1714580000 + 3600 * game.number,
        "endTime": 1714582400 + 3600 * game.number,
        "winner": game.winner,
        "players": players,
        **game.extra,
        **more,
    }


# ---- the iMafia platform ----------------------------------------------------------------------

_IMAFIA_ROLE = {"civ": 1, "sheriff": 2, "maf": 3, "don": 4}
_IMAFIA_RESULT = {"civ": 1, "maf": 2, "tie": 3}


def imafia_games(games: list[Game]) -> dict[str, Any]:
    out = []
    for game in games:
        first = game.first_killed
        named = game.seats[first - 1].named if first else ()
        record: dict[str, Any] = {
            "stage": game.stage,
            "name": str(game.number),
            "table": game.table,
            "referees_id": 70 + game.table,
            "result": _IMAFIA_RESULT[game.winner],
            "first_blood": first,
            "players": {
                str(n): {
                    "players_id": 1000 + sum(map(ord, seat.name)),
                    "name": seat.name,
                    "roles_id": _IMAFIA_ROLE[seat.role],
                    "points_plus": max(seat.bonus, 0),
                    "points_minus": min(seat.bonus, 0),
                }
                for n, seat in enumerate(game.seats, 1)
            },
        }
        for k in range(3):
            record[f"best_move_{k + 1}"] = named[k] if k < len(named) else None
        out.append(record)
    judges = {str(70 + g.table): {"name": g.judge} for g in games}
    return {"games": out, "referees_array": judges}


# ---- the emotion.games platform ---------------------------------------------------------------

_EMO_ROLE = {"civ": "red", "sheriff": "sheriff", "maf": "black", "don": "don"}
_EMO_RESULT = {"civ": "red", "maf": "black", "tie": "draw"}


def emo_games(games: list[Game]) -> dict[str, Any]:
    out = {}
    for key, game in enumerate(games):
        first = game.first_killed
        out[str(key)] = {
            "table_number": game.table,
            "session_number": game.number,
            "is_final": game.stage > 1,
            "referee_eg_id": 70 + game.table,
            "referee_nickname": game.judge,
            "result": _EMO_RESULT[game.winner],
            "best_move_numbers": list(game.seats[first - 1].named) if first else [],
            "players": [
                {
                    "eg_id": 2000 + n,
                    "nickname": seat.name,
                    "role": _EMO_ROLE[seat.role],
                    "points_plus": max(seat.bonus, 0),
                    "points_minus": -min(seat.bonus, 0),
                    "killed_first": n == first,
                }
                for n, seat in enumerate(game.seats, 1)
            ],
        }
    return {"status": "ok", "body": {"games": out}}


# ---- the world tour upload --------------------------------------------------------------------

_MWT_ROLE = {"civ": "red", "sheriff": "sheriff", "maf": "black", "don": "don"}
_MWT_LEAVE = {"voted": 1, "killed": 2, "fouled": 3, "disqualified": 3}


def mwt_game(game: Game) -> dict[str, Any]:
    leaves = []
    for n, seat in enumerate(game.seats, 1):
        if seat.left:
            k = int((seat.phase or "Д1")[1:])
            night = (seat.phase or "Д")[0] == "Н"
            leaves.append(
                {
                    "p_num": n,
                    "leave_type": _MWT_LEAVE[seat.left],
                    "votes_count": 0,
                    "nights_before_count": k if night else k - 1,
                    "days_before_count": k,
                }
            )
    first = game.first_killed
    named = list(game.seats[first - 1].named) if first else None
    blacks = {n for n, s in enumerate(game.seats, 1) if _is_black(s.role)}
    return {
        "tournament_id": 4242,
        "table_number": game.table,
        "part_number": game.stage,
        "session_number": game.number,
        "referee_user_id": 900 + game.table,
        "result": {
            "start_time": "2024-05-01 18:00:00",
            "end_time": f"2024-05-01 {18 + game.number}:40:00",
            "result": {"civ": "red", "maf": "black", "tie": "draw"}[game.winner],
            "players": [seat.name for seat in game.seats],
            "player_roles": [_MWT_ROLE[seat.role] for seat in game.seats],
            "player_fouls": [seat.fouls for seat in game.seats],
            "game_bonus": [max(seat.bonus, 0) for seat in game.seats],
            "penalty": [min(seat.bonus, 0) for seat in game.seats],
            "game_autobonus": [1] * 10,
            "leaves": leaves,
            "killed_first": first,
            "best_move_value": named,
            "best_move": len(set(named) & blacks) if named else None,
        },
    }


def as_bytes(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")


# ---- the games --------------------------------------------------------------------------------


def red_game(number: int = 1, table: int = 1) -> Game:
    """Red wins on Д4: the blacks voted out Д2, Д3, Д4; Сова killed on Н1 names 2 5 7 (all
    black: +0.5); the Sheriff gets a 1 (ЛИ in the seed regulation)."""
    return Game(
        number,
        table,
        "Ветрова",
        "civ",
        [
            Seat("Кот", fouls=1),
            Seat("Лис", "maf", "voted", "Д2"),
            Seat("Сова", left="killed", phase="Н1", named=(2, 5, 7)),
            Seat("Ёж", "sheriff", bonus=1),
            Seat("Бобр", "don", "voted", "Д3"),
            Seat("Волк", left="killed", phase="Н2"),
            Seat("Рысь", "maf", "voted", "Д4"),
            Seat("Заяц"),
            Seat("Крот", fouls=2),
            Seat("Утка"),
        ],
    )


def black_game(number: int = 2, table: int = 1) -> Game:
    """Black wins after Д3 (blacks 3, reds 3): Кот killed on Н1 names 4 6 7 (all black:
    +0.5), Заяц voted out Д2, Крот killed Н2, Утка disqualified Д3 (−1); the Don gets a
    0.5 (ЛИ2 for a winner in the seed regulation)."""
    return Game(
        number,
        table,
        "Ветрова",
        "maf",
        [
            Seat("Утка", left="disqualified", phase="Д3", fouls=2),
            Seat("Кот", left="killed", phase="Н1", named=(4, 6, 7)),
            Seat("Заяц", left="voted", phase="Д2"),
            Seat("Лис", "maf"),
            Seat("Крот", left="killed", phase="Н2"),
            Seat("Рысь", "don", bonus=0.5),
            Seat("Бобр", "maf"),
            Seat("Ёж", "sheriff"),
            Seat("Волк"),
            Seat("Сова"),
        ],
    )


# Both games in this regulation (the world tour upload is imported under it): equal wins,
# so no K.
FULL_TOTALS = {
    "Кот": 2.5,
    "Сова": 2.5,
    "Ёж": 3.0,
    "Волк": 2.0,
    "Заяц": 2.0,
    "Крот": 2.0,
    "Утка": 1.0,
    "Лис": 2.0,
    "Рысь": 2.5,
    "Бобр": 2.0,
}
# The rating site's games under its «ФИИМ» 7, by hand: a win 1, the auto-bonus 0.3 to
# everyone (no worst move here), the best move 0.7 for three blacks (Сова, Кот), the
# judge's numbers as typed (Ёж +1, Рысь +0.5), Утка's removal −0.5, and Кот's Ci: killed
# on night 1 as red in a lost game, F = 1, N = 2: min(0.5 · 1 / round(0.8), 0.5) = 0.5.
SITE_TOTALS = {
    "Кот": 2.8,  # 1.3 + (0.3 + 0.7 + 0.5)
    "Сова": 2.3,  # (1.3 + 0.7) + 0.3
    "Ёж": 2.6,  # (1.3 + 1) + 0.3
    "Волк": 1.6,
    "Заяц": 1.6,
    "Крот": 1.6,
    "Утка": 1.1,  # 1.3 + (0.3 − 0.5)
    "Лис": 1.6,
    "Рысь": 2.1,  # 0.3 + (1.3 + 0.5)
    "Бобр": 1.6,
}
# A platform records only the first night's victims: no removal to count.
PLATFORM_TOTALS = {**SITE_TOTALS, "Утка": 1.6}
