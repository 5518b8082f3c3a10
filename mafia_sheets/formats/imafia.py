"""The iMafia platform's tournament games, as the rating site imports them.

The document is `{"games": [...], "referees_array": {id: {"name": …}}}` (or the list of
games alone). A game has `stage` (1 the first; the highest the final), `name` (the game's
number), `table`, `referees_id`, `result` (1 red, 2 black, 3 draw; anything else: not
played), `first_blood` (the seat killed on night 1), `best_move_1` … `best_move_3` (the
seats it named) and `players` keyed by seat 1–10, each with `players_id`, `name`,
`roles_id` (2 sheriff, 3 mafia, 4 don, anything else civilian) and the judge's
`points_plus` and `points_minus`, which the rating site adds into one bonus.

Only the first night's victim is recorded, not the other departures: the games are
marked so, and `check` does not judge their end.
"""

from __future__ import annotations

from typing import Any

from ..text import Text
from .base import GameData, Imported, Lost, all_are, games_of, text_of, whole
from .platform import PlatformGame, platform_game, said_not_played

NAME = Text("игры платформы iMafia (JSON)", "iMafia platform games (JSON)")
RESULTS = {1: "red", 2: "black", 3: "draw"}
ROLES = {2: "sheriff", 3: "mafia", 4: "don"}
_KNOWN = (
    "stage",
    "name",
    "table",
    "referees_id",
    "result",
    "first_blood",
    "best_move_1",
    "best_move_2",
    "best_move_3",
    "players",
    "comment",
    "id",
)
_PLAYER_KNOWN = ("players_id", "name", "roles_id", "points_plus", "points_minus")


def _players(game: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(seat 1–10, player) from `players` keyed by seat (an object) or listed from seat 1."""
    players = game.get("players")
    items = (
        players.items()
        if isinstance(players, dict)
        else enumerate(players or [], start=1)
        if isinstance(players, list)
        else []
    )
    return [
        (seat, player)
        for key, player in items
        if (seat := whole(key, 1, 10)) is not None and isinstance(player, dict)
    ]


def claims(document: Any) -> bool:
    """Games with a numeric `result` whose players carry `roles_id`."""
    return all_are(
        games_of(document, "games"),
        lambda g: (
            "result" in g
            and not isinstance(g.get("result"), dict | str)
            and bool(_players(g))
            and all("roles_id" in p for _, p in _players(g))
        ),
    )


def read(document: Any, source: str, out: Imported) -> int:
    referees = document.get("referees_array") if isinstance(document, dict) else None
    games = games_of(document, "games")
    for game in games:
        if not isinstance(game, dict):
            continue
        result = RESULTS.get(whole(game.get("result")) or 0)
        if result is None:
            said_not_played(out.lost)
            continue
        out.games.append(_game(game, result, referees, out.lost))
    return len(games)


def _game(game: dict[str, Any], result: str, referees: Any, lost: list[Lost]) -> GameData:
    referee = text_of(game.get("referees_id"))
    names = referees.get(referee) if isinstance(referees, dict) else None
    seats = {}
    for seat, player in _players(game):
        plus, minus = player.get("points_plus"), player.get("points_minus")
        seats[seat] = (
            text_of(player.get("name")) or text_of(player.get("players_id")),
            ROLES.get(whole(player.get("roles_id")) or 0, "civilian"),
            (plus, minus, 1),  # the rating site adds them: points_minus is negative
            [k for k in player if k not in _PLAYER_KNOWN],
        )
    return platform_game(
        PlatformGame(
            stage=whole(game.get("stage"), 0) or 1,
            number=text_of(game.get("name")),
            table=whole(game.get("table"), 0),
            judge=text_of(names.get("name")) if isinstance(names, dict) else "",
            result=result,
            first_killed=whole(game.get("first_blood"), 1, 10),
            best_move=[game.get(f"best_move_{n}") for n in (1, 2, 3)],
            seats=seats,
            comment=text_of(game.get("comment")),
            unknown=[k for k in game if k not in _KNOWN],
        ),
        lost,
    )
