"""What the online platforms' games share, whichever platform wrote them.

A platform records per game its stage, number, table, judge and result, the seat killed
on night 1 with the seats it named, and per seat the player, the role and the judge's
plus and minus points; not the other departures, nor fouls. The game is written with
that one departure and marked as recording only some departures, so that `check` does
not judge its end by departures nobody wrote down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..text import Text
from .base import (
    NOT_KEPT,
    GameData,
    Lost,
    SeatData,
    bonus_value,
    empty_game,
    named_seats,
    place_bonus,
    place_of,
    whole,
)

FIRST_NIGHT = 2  # Н1 as a phase ordinal


@dataclass
class PlatformGame:
    """One platform game, read; `seats` maps seat 1–10 to (player, role, (plus, minus,
    sign), unknown fields), where the bonus is plus + sign × minus."""

    stage: int
    number: str
    table: int | None
    judge: str
    result: str
    first_killed: int | None
    best_move: list[Any]
    seats: dict[int, tuple[str, str, tuple[Any, Any, int], list[str]]]
    comment: str = ""
    unknown: list[str] = field(default_factory=list)


def platform_game(game: PlatformGame, lost: list[Lost]) -> GameData:
    """The protocol's record of a platform game; what it cannot hold goes to `lost`."""
    game_id = game.number if game.stage <= 1 else f"{game.stage}-{game.number}"
    data = empty_game(game_id or "?")
    data.round = whole(game.number, 0)
    data.table, data.judge, data.result = game.table, game.judge, game.result
    data.departures = "partial"
    if game.stage > 1:
        lost.append(
            Lost(
                Text(f"этап {game.stage}", f"stage {game.stage}"),
                per="game",
                why=Text(
                    f"нет столбца; записан в номер игры: «{game_id}»",
                    f"no column; kept in the game's id: “{game_id}”",
                ),
            )
        )
    for seat, (player, role, (plus, minus, sign), unknown) in game.seats.items():
        data.seats[seat - 1] = SeatData(player, role)
        bonus = bonus_value(plus, place_of(data, "points_plus", seat), lost, _BONUS)
        bonus += sign * bonus_value(minus, place_of(data, "points_minus", seat), lost, _BONUS)
        place_bonus(data.seats[seat - 1], bonus, lost)
        for key in unknown:
            lost.append(Lost(Text(f"поле игрока «{key}»", f"player field “{key}”"), why=NOT_KEPT))
    _first_night(game, data, lost)
    if game.comment:
        lost.append(Lost(Text("комментарий к игре", "the game's comment"), per="game"))
    for key in game.unknown:
        lost.append(Lost(Text(f"поле «{key}»", f"field “{key}”"), per="game", why=NOT_KEPT))
    return data


_BONUS = Text("бонус", "bonus")


def _first_night(game: PlatformGame, data: GameData, lost: list[Lost]) -> None:
    given = [value for value in game.best_move if value not in (None, "")]
    named = named_seats(given, place_of(data, "best move"), lost)
    if game.first_killed is None:
        if named:
            lost.append(
                Lost(
                    Text("лучший ход без убитого в первую ночь", "a best move without its maker"),
                    per="game",
                    why=Text("неизвестно, чей он", "whose it is is unknown"),
                )
            )
        return
    victim = data.seats[game.first_killed - 1]
    victim.left, victim.when, victim.best_move = "killed", FIRST_NIGHT, named


def said_not_played(lost: list[Lost]) -> None:
    """A game the platform lists without a result: not played, as the rating site reads it."""
    lost.append(
        Lost(
            Text("игра без результата", "a game without a result"),
            per="game",
            why=Text("не сыграна — не перенесена", "not played — left out"),
        )
    )
