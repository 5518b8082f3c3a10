"""The emotion.games platform's tournament games, as the rating site imports them.

The document is `{"body": {"games": {key: game}}}` (or `{"games": …}`, or the games
alone). A game has `table_number`, `session_number` (the game's number), `is_final`,
`referee_eg_id` / `referee_nickname`, `result` (`red`, `black`, `draw`; anything else:
not played), `best_move_numbers` (the seats the first night's victim named) and
`players` in seat order, each with `eg_id`, `nickname`, `role` (`sheriff`, `black`,
`don`; anything else civilian), `points_plus` and `points_minus` (the rating site
subtracts the second), `killed_first` and `best_move`.

Like every platform it records the first night's victim only: see :mod:`.platform`.
"""

from __future__ import annotations

from typing import Any

from ..text import Text
from .base import GameData, Imported, Lost, all_are, text_of, whole
from .platform import PlatformGame, platform_game, said_not_played

NAME = Text("игры платформы emotion.games (JSON)", "emotion.games platform games (JSON)")
RESULTS = ("red", "black", "draw")
ROLES = {"sheriff": "sheriff", "black": "mafia", "don": "don"}
_KNOWN = (
    "table_number",
    "session_number",
    "is_final",
    "referee_eg_id",
    "referee_nickname",
    "result",
    "best_move_numbers",
    "players",
    "comment",
    "id",
)
_PLAYER_KNOWN = (
    "eg_id",
    "nickname",
    "role",
    "points_plus",
    "points_minus",
    "killed_first",
    "best_move",
)


def _games(document: Any) -> list[Any]:
    body = document.get("body", document) if isinstance(document, dict) else document
    games = body.get("games") if isinstance(body, dict) else body
    if isinstance(games, dict):
        return [games[key] for key in sorted(games, key=_natural)]
    return games if isinstance(games, list) else []


def _natural(key: str) -> tuple[int, str]:
    return (int(key), "") if str(key).isdigit() else (1 << 62, str(key))


def claims(document: Any) -> bool:
    """Games with `table_number` and `session_number` whose players are listed at the
    game (the world tour's upload keeps them under `result`)."""
    return all_are(
        _games(document),
        lambda g: (
            "session_number" in g
            and isinstance(g.get("players"), list | dict)
            and not isinstance(g.get("result"), dict)
        ),
    )


def read(document: Any, source: str, out: Imported) -> int:
    games = _games(document)
    for game in games:
        if not isinstance(game, dict):
            continue
        if game.get("result") not in RESULTS:
            said_not_played(out.lost)
            continue
        out.games.append(_game(game, out.lost))
    return len(games)


# a best move kept as the number of blacks guessed, without the seats named
_COUNT_ONLY = Lost(
    Text("лучший ход без мест (только число угаданных)", "a best move without seats (a count)"),
    why=Text("нужны номера мест", "the seats are needed"),
)


def _game(game: dict[str, Any], lost: list[Lost]) -> GameData:
    players = game.get("players")
    items = players.items() if isinstance(players, dict) else enumerate(players or [])
    seats = {}
    first_killed: int | None = None
    named: list[Any] = list(game.get("best_move_numbers") or [])
    for key, player in items:
        seat = whole(key, 0, 9)
        if seat is None or not isinstance(player, dict):
            continue
        if player.get("killed_first"):
            first_killed = seat + 1
            legacy = player.get("best_move")
            if not named and isinstance(legacy, list):
                named = legacy
            elif not named and legacy not in (None, "", 0):
                lost.append(_COUNT_ONLY)
        seats[seat + 1] = (
            text_of(player.get("nickname")) or text_of(player.get("eg_id")),
            ROLES.get(str(player.get("role")), "civilian"),
            (player.get("points_plus"), player.get("points_minus"), -1),
            [k for k in player if k not in _PLAYER_KNOWN],
        )
    return platform_game(
        PlatformGame(
            stage=2 if game.get("is_final") else 1,
            number=text_of(game.get("session_number")),
            table=whole(game.get("table_number"), 0),
            judge=text_of(game.get("referee_nickname")),
            result=str(game["result"]),
            first_killed=first_killed,
            best_move=named,
            seats=seats,
            comment=text_of(game.get("comment")),
            unknown=[k for k in game if k not in _KNOWN],
        ),
        lost,
    )
