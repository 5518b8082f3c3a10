"""The shape a judge asks for, checked: players, tables, and rounds or games per player.

Every refusal is one line (:class:`SeatingError`, exit 2) saying what cannot work and
what would.
"""

from __future__ import annotations

from ..errors import MafiaSheetsError
from ..text import Text
from .model import SEATS, Shape

MAX_PLAYERS = 2_000
MAX_ROUNDS = 200


class SeatingError(MafiaSheetsError, ValueError):
    """The seating asked for cannot be made, or a schedule file cannot be read."""


def shape_for(
    players: int, tables: int | None, rounds: int | None, games_per_player: int | None
) -> Shape:
    """The shape of the tournament: `tables` per round (default: as many as the players
    fill), and `rounds` — or enough rounds for `games_per_player` games each, the last
    round with only the tables still needed.

    >>> shape_for(27, 2, None, 10).tables
    (2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1)
    """
    if players < SEATS:
        raise SeatingError(
            Text(
                f"Игроков {players}: для стола нужно не меньше {SEATS}.",
                f"{players} players: a table needs at least {SEATS}.",
            )
        )
    if players > MAX_PLAYERS:
        raise SeatingError(
            Text(f"Игроков больше {MAX_PLAYERS}.", f"More than {MAX_PLAYERS} players.")
        )
    most = players // SEATS
    tables = most if tables is None else tables
    if tables > most:
        raise SeatingError(
            Text(
                f"{players} игроков не займут {tables} столов по {SEATS}: столов не больше {most}.",
                f"{players} players cannot fill {tables} tables of {SEATS}: at most {most}.",
            )
        )
    if (rounds is None) == (games_per_player is None):
        raise SeatingError(
            Text(
                "Укажите одно из двух: --rounds R (туров) или --games-per-player G (игр на "
                "игрока).",
                "Give one of --rounds R or --games-per-player G.",
            )
        )
    if rounds is not None:
        return Shape(players, (tables,) * rounds)
    assert games_per_player is not None
    return _by_games(players, tables, games_per_player)


def _by_games(players: int, tables: int, games: int) -> Shape:
    """Rounds of `tables` games until everyone has `games`; the last round is short."""
    seats = games * players
    full, rest = divmod(seats, SEATS * tables)
    last = -(-rest // SEATS)  # the last round's tables; a part-filled one is filled up
    shape = (tables,) * full + ((last,) if last else ())
    if len(shape) > MAX_ROUNDS:
        raise SeatingError(Text(f"Туров больше {MAX_ROUNDS}.", f"More than {MAX_ROUNDS} rounds."))
    return Shape(players, shape)
