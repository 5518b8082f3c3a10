"""The world tour's game upload (mafiaworldtour), read and written.

One game, as the rating site writes it for the upload:

    {"tournament_id", "table_number", "part_number", "session_number", "referee_user_id",
     "result": {"start_time", "end_time" ("Y-m-d G:i:s"), "result" ("red", "black"; ours
                also "draw"), "red_count", "black_count" (left alive at the end),
                "players", "is_replacement", "player_roles" ("red", "black", "sheriff",
                "don"), "player_fouls", "game_bonus", "game_autobonus", "penalty",
                "penalty_disciplinary" (arrays of ten, in seat order),
                "reveal_don", "reveal_sheriff", "comment",
                "leaves": [{"p_num", "leave_type" (1 voted out, 2 killed at night,
                            3 removed by the judge, 4 removed with the team's loss),
                            "nights_before_count", "days_before_count", "votes_count",
                            "players_before_count", "leave_along_count", "game_ended"}],
                "killed_first", "best_move_value" (the seats named), "best_move" (blacks
                among them)}}

A leave's phase is its nights and days before: Дk has k − 1 nights and k days, Нk has k
of each, so the phase ordinal is their sum. The rating site uploads a drawn game as a red
win; this module writes `"draw"` (see the README).
"""

from __future__ import annotations

from typing import Any

from ..text import Text
from .base import (
    NO_COLUMN,
    NOT_KEPT,
    GameData,
    Imported,
    Lost,
    SeatData,
    all_are,
    empty_game,
    games_of,
    iter_dicts,
    moment,
    number,
    seats_of,
    text_of,
    whole,
)

NAME = Text("выгрузка world tour (JSON)", "world tour upload (JSON)")
RESULTS = ("red", "black", "draw")
ROLES = {"red": "civilian", "sheriff": "sheriff", "black": "mafia", "don": "don"}
TEAM_OF = {"civilian": "red", "sheriff": "sheriff", "mafia": "black", "don": "don"}
LEAVES = {1: "voted", 2: "killed", 3: "disqualified", 4: "disqualified"}
_GAME_KNOWN = (
    "tournament_id",
    "table_number",
    "part_number",
    "session_number",
    "referee_user_id",
    "result",
)
_RESULT_KNOWN = (
    "start_time",
    "end_time",
    "result",
    "red_count",
    "black_count",
    "players",
    "is_replacement",
    "player_roles",
    "player_fouls",
    "game_bonus",
    "game_autobonus",
    "penalty",
    "penalty_disciplinary",
    "reveal_don",
    "reveal_sheriff",
    "comment",
    "leaves",
    "killed_first",
    "best_move_value",
    "best_move",
)


def claims(document: Any) -> bool:
    """Games whose `result` object holds the ten `players` and their `player_roles`."""
    return all_are(
        games_of(document, "games"),
        lambda g: (
            isinstance(g.get("result"), dict)
            and isinstance(g["result"].get("players"), list)
            and isinstance(g["result"].get("player_roles"), list)
        ),
    )


def read(document: Any, source: str, out: Imported) -> int:
    games = games_of(document, "games")
    for game in games:
        if isinstance(game, dict):
            out.games.append(_game(game, out.lost))
    return len(games)


def _game(game: dict[str, Any], lost: list[Lost]) -> GameData:
    result: dict[str, Any] = game["result"]
    session = text_of(game.get("session_number"))
    part = whole(game.get("part_number"), 0) or 1
    data = empty_game(session if part <= 1 else f"{part}-{session}")
    data.table = whole(game.get("table_number"), 0)
    data.round = whole(session, 0)
    data.judge = _person(game.get("referee_user_id"))
    data.result = str(result.get("result")) if result.get("result") in RESULTS else None
    data.ended = moment(result.get("end_time"))
    if part > 1:
        lost.append(
            Lost(
                Text(f"часть (part_number) {part}", f"part (part_number) {part}"),
                per="game",
                why=Text("нет столбца; записана в номер игры", "no column; kept in the game's id"),
            )
        )
    _seats(result, data, lost)
    _leaves(result, data, lost)
    _best_move(result, data, lost)
    _game_lost(game, result, lost)
    return data


def _person(value: Any) -> str:
    """A world tour user id as the rating site names an unknown one (`MWT_123`); a name as is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"MWT_{value}"
    return text_of(value)


def _at(array: Any, seat: int) -> Any:
    return array[seat] if isinstance(array, list) and seat < len(array) else None


def _seats(result: dict[str, Any], data: GameData, lost: list[Lost]) -> None:
    for seat in range(10):
        role = _at(result.get("player_roles"), seat)
        data.seats[seat] = SeatData(
            _person(_at(result.get("players"), seat)),
            ROLES.get(str(role), "civilian"),
            min(whole(_at(result.get("player_fouls"), seat)) or 0, 4),
        )
        for key, kind in (("game_bonus", _BONUS), ("penalty", _PENALTY)):
            value = number(_at(result.get(key), seat))
            if value:
                lost.append(Lost(kind, value, why=NO_COLUMN))
        if _at(result.get("game_autobonus"), seat) == 0:
            lost.append(Lost(Text("автобонус снят", "auto-bonus withheld"), why=NO_COLUMN))
        if _at(result.get("is_replacement"), seat):
            lost.append(Lost(Text("замена игрока", "a replacement player"), why=NOT_KEPT))


_BONUS = Text("бонус", "bonus")
_PENALTY = Text("штраф", "penalty")


def _leaves(result: dict[str, Any], data: GameData, lost: list[Lost]) -> None:
    for _, leave in iter_dicts(result.get("leaves")):
        seat, kind = whole(leave.get("p_num"), 1, 10), whole(leave.get("leave_type"), 1, 4)
        if seat is None or kind is None:
            lost.append(
                Lost(
                    Text("выбывание без места или типа", "a leave without seat or type"),
                    per="game",
                    why=NOT_KEPT,
                )
            )
            continue
        player = data.seats[seat - 1]
        player.left = LEAVES[kind]
        if kind == 3 and player.fouls >= 4:
            player.left = "fouled"
        if kind == 4:
            lost.append(
                Lost(
                    Text("удаление с поражением команды", "team removal"),
                    why=Text("записано как дисквалификация", "written as a disqualification"),
                )
            )
        player.when = _phase(kind, leave)


def _phase(kind: int, leave: dict[str, Any]) -> int | None:
    """Дk has k − 1 nights and k days before it, Нk k of each: the ordinal is their sum.
    With one count only, as the rating site reads it: a kill is at night, others by day."""
    nights, days = (
        whole(leave.get("nights_before_count"), 0),
        whole(leave.get("days_before_count"), 0),
    )
    if nights is not None and days is not None:
        return max(nights + days, 1)
    if nights is None and days is None:
        return None
    if kind == 2:
        return 2 * (nights if nights is not None else days or 1)
    return 2 * nights + 1 if nights is not None else max(2 * (days or 1) - 1, 1)


def _best_move(result: dict[str, Any], data: GameData, lost: list[Lost]) -> None:
    first = whole(result.get("killed_first"), 1, 10)
    named = result.get("best_move_value")
    if first is None:
        if named:
            lost.append(
                Lost(
                    Text("лучший ход без убитого в первую ночь", "a best move without its maker"),
                    per="game",
                    why=Text("неизвестно, чей он", "whose it is is unknown"),
                )
            )
        return
    victim = data.seats[first - 1]
    if victim.left is None:
        victim.left, victim.when = "killed", 2
    if isinstance(named, list):
        victim.best_move = seats_of(named)
    elif named is not None:
        lost.append(
            Lost(
                Text(
                    f"лучший ход без мест ({text_of(named)} угадано)",
                    f"a best move without seats ({text_of(named)} guessed)",
                ),
                why=Text("нужны номера мест", "the seats are needed"),
            )
        )


def _game_lost(game: dict[str, Any], result: dict[str, Any], lost: list[Lost]) -> None:
    if result.get("start_time"):
        lost.append(Lost(Text("время начала", "start time"), per="game"))
    if game.get("tournament_id") not in (None, ""):
        lost.append(
            Lost(
                Text("номер турнира world tour", "the world tour's tournament id"),
                per="game",
                why=NOT_KEPT,
            )
        )
    if result.get("reveal_don") or result.get("reveal_sheriff"):
        lost.append(
            Lost(
                Text("проверки шерифа и дона", "the Sheriff's and Don's checks"),
                per="game",
                why=NOT_KEPT,
            )
        )
    if result.get("comment"):
        lost.append(Lost(Text("комментарий к игре", "the game's comment"), per="game"))
    if any(
        isinstance(v, dict) and v.get("votes_count") for _, v in iter_dicts(result.get("leaves"))
    ):
        lost.append(
            Lost(
                Text("число голосов за выбывших", "the votes against those voted out"),
                per="game",
                why=NOT_KEPT,
            )
        )
    for key in game:
        if key not in _GAME_KNOWN and game[key] not in (None, "", [], {}):
            lost.append(Lost(Text(f"поле «{key}»", f"field “{key}”"), per="game", why=NOT_KEPT))
    for key in result:
        if key not in _RESULT_KNOWN and result[key] not in (None, "", [], {}):
            lost.append(
                Lost(
                    Text(f"поле «result.{key}»", f"field “result.{key}”"), per="game", why=NOT_KEPT
                )
            )
