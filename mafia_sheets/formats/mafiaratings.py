"""The rating site's game JSON (the federation's mafiaratings site and its game client).

One game is an object with `winner` (`civ`, `maf`, `tie`), `players[10]` in seat order
and the game's frame (`id`, `tableNum`, `gameNum`, `moderator {id, name}`, `startTime`,
`endTime`); each player has `name`, `role` (`civ`, `sheriff`, `maf`, `don`; none =
civilian), `warnings` (a count, or the list of the moments they were given), `death
{type, round, time}`, `legacy` (the seats a first-night victim named) and `bonus` (a
number, a title `bestPlayer` / `bestMove` / `worstMove`, or a list of both), plus what
the protocol does not keep (nominations, votes, shots, checks, comments).

Rounds count from 0: round 0 is the first day, night 1 follows it, so the site's day `r`
is our Д(r+1) and its night `r` is our Нr (phase ordinals 2r+1 and 2r).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from ..text import Text
from .base import (
    LEFT_BLANK,
    NO_COLUMN,
    NOT_KEPT,
    FormatError,
    GameData,
    Imported,
    Lost,
    SeatData,
    all_are,
    as_written,
    bonus_value,
    empty_game,
    game_refusal,
    games_of,
    iter_dicts,
    malformed,
    moment,
    named_seats,
    number,
    place_bonus,
    place_of,
    text_of,
    whole,
)
from .platform import said_not_played
from .settle import TITLES

NAME = Text("игры сайта рейтинга (JSON)", "rating site games (JSON)")
WINNERS = {"civ": "red", "maf": "black", "tie": "draw"}
ROLES = {"civ": "civilian", "sheriff": "sheriff", "srf": "sheriff", "maf": "mafia", "don": "don"}
# death types → how the player left; those our protocol words otherwise are said aloud
DEATHS = {
    "day": "voted",
    "night": "killed",
    "warnings": "fouled",
    "kickOut": "disqualified",
    "techFouls": "disqualified",  # the site scores it as a 4th warning; ours has no column
    "giveUp": "gave_up",
    "teamKickOut": "team_removal",
}
_NIGHT_TIMES = frozenset(
    {
        "start",
        "arrangement",
        "relaxed sitting",
        "night start",
        "shooting",
        "don",
        "sheriff",
        "night end",
    }
)
# What the site keeps about a game that is no fact of the protocol: its own ids, and the
# game client's state while the game runs.
_SITE_IDS = ("id", "clubId", "eventId", "tournamentId", "club_id", "event_id", "moderator_id")
_CLIENT = ("time", "features", "version", "rating", "streaming", "hideRoles", "obsScene")
_GAME_KNOWN = (
    *_SITE_IDS,
    *_CLIENT,
    "winner",
    "players",
    "tableNum",
    "gameNum",
    "table_num",
    "game_num",
    "moderator",
    "startTime",
    "endTime",
    "start_time",
    "end_time",
    "language",
    "timezone",  # the zone of `startTime` / `endTime`, which carry its offset anyway
    "rules",
    "comment",
    "club",
    "event",
)
_PLAYER_FACTS = ("name", "nickname", "nick_name", "user", "role", "warnings", "death", "legacy")
_PLAYER_LOST = {
    "nominating": Text("выдвижения", "nominations"),
    "voting": Text("голосования", "votes"),
    "shooting": Text("выстрелы мафии", "mafia shots"),
    "don": Text("проверки дона", "Don's checks"),
    "sheriff": Text("проверки шерифа", "Sheriff's checks"),
    "arranged": Text("договорённости мафии", "the mafia's arrangement"),
    "techFouls": Text("технические фолы", "technical fouls"),
    "comment": Text("комментарии судьи к игроку", "the judge's comments on a player"),
    "rating": Text("изменения рейтинга на сайте", "the site's rating changes"),
}
_PLAYER_QUIET = ("id", "user_id", "record", "connected", "waiter", "bonus")


_PLAYER_SIGNS = ("name", "nickname", "role", "warnings", "death", "legacy")


def claims(document: Any) -> bool:
    """Games with a list of players, at least one of them with a `winner` or with the
    site's players (`name`, `role`, `death` …): a game whose `winner` is missing or wrong
    is then refused by name (or, beside finished games, not played), never unrecognised."""
    games = games_of(document, "games")
    return all_are(games, lambda g: isinstance(g.get("players"), list)) and any(
        "winner" in g or _site_players(g["players"]) for g in games
    )


def _site_players(players: list[Any]) -> bool:
    return bool(players) and all(
        isinstance(p, dict) and any(key in p for key in _PLAYER_SIGNS) for p in players
    )


def read(document: Any, source: str, out: Imported) -> int:
    """Append the document's games to `out`; returns how many were read."""
    games = games_of(document, "games")
    finished = any(game.get("winner") in WINNERS for _, game in iter_dicts(games))
    for index, game in iter_dicts(games):
        winner = game.get("winner")
        if winner not in WINNERS:
            if winner is None and finished:
                said_not_played(out.lost)  # as the site keeps a game in progress
                continue
            raise _no_winner(source, index, game)
        data = _game(game, index, out.lost)
        out.games.append(data)
        for seat, player in iter_dicts((game.get("players") or [])[:10]):
            out.titles.extend((data, seat, title) for title in _titles(player.get("bonus")))
    return len(games)


def _no_winner(source: str, index: int, game: dict[str, Any]) -> FormatError:
    """A game with a `winner` the site never writes, or the only games without one."""
    winner = game.get("winner")
    if winner is None:
        found = Text(
            "нет (ожидается civ, maf или tie; в файле нет ни одной оконченной игры)",
            "missing (civ, maf or tie expected; the file holds no finished game)",
        )
    else:
        shown = as_written(winner)
        found = Text(f"{shown}, ожидается civ, maf или tie", f"{shown}, civ, maf or tie expected")
    return game_refusal(source, index, text_of(game.get("id")), "winner", found)


def _game(game: dict[str, Any], index: int, lost: list[Lost]) -> GameData:
    table = whole(game.get("tableNum", game.get("table_num")), 0)
    number_at_table = whole(game.get("gameNum", game.get("game_num")), 0)
    game_id = text_of(game.get("id")) or text_of(number_at_table) or str(index + 1)
    data = empty_game(game_id)
    data.table, data.round = table, number_at_table
    data.result = WINNERS.get(str(game.get("winner")))
    data.ended = moment(game.get("endTime", game.get("end_time")))
    moderator = game.get("moderator")
    data.judge = text_of(moderator.get("name")) if isinstance(moderator, dict) else ""
    _game_lost(game, lost)
    players = game.get("players") or []
    if len(players) != 10:
        lost.append(
            Lost(
                Text(f"игроков не 10, а {len(players)}", f"{len(players)} players, not 10"),
                per="game",
                why=Text("места без игрока пусты", "seats without a player are blank"),
            )
        )
    for seat, player in iter_dicts(players[:10]):
        data.seats[seat] = _seat(player, partial(_place, data, seat), lost)
    return data


def _place(data: GameData, seat: int, key: str) -> Text:
    return place_of(data, f"players[{seat}].{key}")


def _game_lost(game: dict[str, Any], lost: list[Lost]) -> None:
    if game.get("startTime", game.get("start_time")) is not None:
        lost.append(Lost(Text("время начала", "start time"), per="game"))
    if any(game.get(key) not in (None, "") for key in _SITE_IDS):
        lost.append(
            Lost(
                Text(
                    "номера на сайте (игра, клуб, событие, турнир)",
                    "the site's ids (game, club, event, tournament)",
                ),
                per="game",
                why=NOT_KEPT,
            )
        )
    if game.get("comment"):
        lost.append(Lost(Text("комментарий к игре", "the game's comment"), per="game"))
    if game.get("rules"):
        lost.append(
            Lost(
                Text(
                    f"код правил «{text_of(game.get('rules'))}»",
                    f"rules code “{text_of(game.get('rules'))}”",
                ),
                per="game",
                why=Text(
                    "правила турнира задаёт «Правила» на листе «Турнир»",
                    "the tournament's rules are the «Rules» setting of «Tournament»",
                ),
            )
        )
    for key, value in game.items():
        if key not in _GAME_KNOWN and value not in (None, "", [], {}):
            lost.append(Lost(Text(f"поле «{key}»", f"field “{key}”"), per="game", why=NOT_KEPT))


def _seat(player: dict[str, Any], at: Callable[[str], Text], lost: list[Lost]) -> SeatData:
    """One seat; `at(field)` says where a field of this player stands."""
    seat = SeatData(_name(player), ROLES.get(str(player.get("role", "civ")), "civilian"))
    if player.get("role") not in (None, *ROLES):
        lost.append(
            Lost(
                Text(
                    f"роль «{text_of(player.get('role'))}»", f"role “{text_of(player.get('role'))}”"
                ),
                why=Text("записан мирный", "written as civilian"),
                at=at("role"),
            )
        )
    seat.fouls = _warnings(player.get("warnings"), at("warnings"), lost)
    seat.left, seat.when = _death(player, lost)
    if seat.left == "fouled" and seat.fouls < 4:  # the 4th warning removed the player
        lost.append(
            Lost(
                Text(
                    f"{seat.fouls} фола при удалении за фолы",
                    f"{seat.fouls} fouls at a 4-foul removal",
                ),
                why=Text("записано 4", "written as 4"),
            )
        )
        seat.fouls = 4
    legacy = player.get("legacy")
    if legacy is not None and (seat.left, seat.when) != ("killed", 2):
        # the site keeps a best move only for the first night's victim (it drops others)
        lost.append(
            Lost(
                Text(
                    "лучший ход не убитого в первую ночь",
                    "a best move not of the first night's victim",
                ),
                why=Text("не считается и на сайте", "the site does not count it either"),
            )
        )
    elif isinstance(legacy, list):
        seat.best_move = named_seats(legacy, at("legacy"), lost)
    elif legacy is not None:
        lost.append(
            Lost(
                Text(
                    f"лучший ход без мест ({text_of(legacy)} угадано)",
                    f"a best move without seats ({text_of(legacy)} guessed)",
                ),
                why=Text("нужны номера мест", "the seats are needed"),
            )
        )
    _bonus(player.get("bonus"), seat, at("bonus"), lost)
    for key, kind in _PLAYER_LOST.items():
        if player.get(key) not in (None, "", [], {}):
            lost.append(Lost(kind, why=NOT_KEPT))
    known = {*_PLAYER_FACTS, *_PLAYER_LOST, *_PLAYER_QUIET}
    for key, value in player.items():
        if key not in known and value not in (None, "", [], {}):
            lost.append(Lost(Text(f"поле игрока «{key}»", f"player field “{key}”"), why=NOT_KEPT))
    return seat


def _name(player: dict[str, Any]) -> str:
    user = player.get("user")
    for value in (
        player.get("name"),
        player.get("nickname"),
        player.get("nick_name"),
        user.get("name") if isinstance(user, dict) else None,
    ):
        if text_of(value):
            return text_of(value)
    found = text_of(player.get("id", player.get("user_id")))
    return f"id {found}" if found else ""


def _warnings(value: Any, at: Text, lost: list[Lost]) -> int:
    """A count, or the list of the moments they were given; what is neither is listed and
    left blank."""
    count = len(value) if isinstance(value, list) else whole(value)
    if count is None:
        if value not in (None, ""):
            why = Text(
                f"ожидается число фолов или их список — {LEFT_BLANK.ru}",
                f"a count of fouls or their list expected — {LEFT_BLANK.en}",
            )
            lost.append(malformed(Text("фолы", "fouls"), value, at, why))
        return 0
    if count > 4:
        lost.append(
            Lost(
                Text(f"{count} фолов", f"{count} fouls"),
                why=Text("записано 4", "written as 4"),
                at=at,
            )
        )
    return min(count, 4)


def _death(player: dict[str, Any], lost: list[Lost]) -> tuple[str | None, int | None]:
    death = player.get("death")
    if death in (None, False):
        return None, None
    kind: Any = death if isinstance(death, str) else None
    round_: Any = death if isinstance(death, int) and not isinstance(death, bool) else None
    time: Any = None
    if isinstance(death, dict):
        kind, round_, time = death.get("type"), death.get("round"), death.get("time")
        if round_ is None and isinstance(time, dict):
            round_ = time.get("round")
    left = DEATHS.get(str(kind))
    if left is None:
        lost.append(
            Lost(
                Text("выбыл, но неизвестно как", "left, but not how"),
                text_of(kind),
                why=Text("«Выбыл» не заполнен", "«Left» is blank"),
            )
        )
        return None, None
    if kind == "techFouls":
        lost.append(
            Lost(
                _SAID[kind],
                why=Text("записано как дисквалификация", "written as a disqualification"),
            )
        )
    rounds = whole(round_, 0, 100)
    if rounds is None:
        lost.append(
            Lost(
                Text("выбывание без круга", "a departure without its round"),
                why=Text("«Когда» не заполнено", "«When» is blank"),
            )
        )
        return left, None
    return left, _phase(kind, rounds, time, player)


_SAID = {"techFouls": Text("удаление за технические фолы", "removal for technical fouls")}


def _phase(kind: Any, rounds: int, time: Any, player: dict[str, Any]) -> int:
    """Our phase ordinal: the site's day r is Д(r+1) = 2r+1, its night r is Нr = 2r. A
    removal is at night when the moment it happened (or the last foul's) was a night's."""
    if kind == "day":
        return 2 * rounds + 1
    if kind == "night":
        return max(2 * rounds, 2)
    if not isinstance(time, dict):
        marks = player.get("warnings" if kind == "warnings" else "techFouls")
        time = marks[-1] if isinstance(marks, list) and marks else None
    night = isinstance(time, dict) and time.get("time") in _NIGHT_TIMES
    return max(2 * rounds + (0 if night else 1), 1)


def _bonus(value: Any, seat: SeatData, at: Text, lost: list[Lost]) -> None:
    """The judge's numbers, summed as the site sums them (its bonus() and the upload do);
    its titles are settled with the edition (:func:`_titles`); a text the site never
    writes is an unknown title, and a number no judge gives (NaN, 1e308) is listed."""
    total = Fraction(0)
    for item in value if isinstance(value, list) else [value]:
        if item is None or item in TITLES:
            continue
        if isinstance(item, str) and number(item) is None:
            lost.append(
                Lost(Text(f"титул «{text_of(item)}»", f"title “{text_of(item)}”"), why=NO_COLUMN)
            )
        else:
            total += bonus_value(item, at, lost, _BONUS)
    place_bonus(seat, total, lost)


_BONUS = Text("бонус", "bonus")


def _titles(value: Any) -> list[str]:
    """The titles among a seat's bonus (`bestPlayer`, `bestMove`, `worstMove`)."""
    return [item for item in (value if isinstance(value, list) else [value]) if item in TITLES]
