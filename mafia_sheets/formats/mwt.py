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

import datetime as dt
import json
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..reading.unrecorded import NOT_ALL
from ..rules import DEFAULT_EDITION, load_rules
from ..text import Text
from .base import (
    LEFT_BLANK,
    NOT_KEPT,
    GameData,
    Imported,
    Lost,
    SeatData,
    all_are,
    bonus_value,
    empty_game,
    game_refusal,
    games_of,
    iter_dicts,
    malformed,
    moment,
    named_seats,
    place_bonus,
    place_of,
    text_of,
    whole,
)

if TYPE_CHECKING:
    from ..model import Rating

NAME = Text("выгрузка world tour (JSON)", "world tour upload (JSON)")
RESULTS = ("red", "black", "draw")
ROLES = {"red": "civilian", "sheriff": "sheriff", "black": "mafia", "don": "don"}
TEAM_OF = {"civilian": "red", "sheriff": "sheriff", "mafia": "black", "don": "don"}
LEAVES = {1: "voted", 2: "killed", 3: "disqualified", 4: "team_removal"}
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
    """Games whose `result` object holds the ten `players` and their `player_roles`: at
    least one such game, the others objects (a game lacking them is refused by name)."""
    games = games_of(document, "games")
    return all_are(games, lambda g: True) and any(_missing(g) is None for g in games)


def _missing(game: dict[str, Any]) -> str | None:
    """The first field the upload needs that `game` lacks (None: it has them all)."""
    result = game.get("result")
    if not isinstance(result, dict):
        return "result"
    for key in ("players", "player_roles"):
        if not isinstance(result.get(key), list):
            return f"result.{key}"
    return None


def read(document: Any, source: str, out: Imported) -> int:
    games = games_of(document, "games")
    for index, game in enumerate(games):
        missing = _missing(game)
        if missing is not None:
            found = Text(
                "нет списка (ожидается по значению на место 1–10)",
                "no list (one value per seat 1–10 expected)",
            )
            session = text_of(game.get("session_number"))
            raise game_refusal(source, index, session, missing, found)
        data = _game(game, out.lost)
        out.games.append(data)
        withheld = game["result"].get("game_autobonus")
        out.titles.extend(
            (data, seat, "worstMove") for seat in range(10) if _at(withheld, seat) == 0
        )
    return len(games)


def _game(game: dict[str, Any], lost: list[Lost]) -> GameData:
    result: dict[str, Any] = game["result"]
    session = text_of(game.get("session_number"))
    part = whole(game.get("part_number"), 0) or 1
    data = empty_game(session if part <= 1 else f"{part}-{session}")
    data.table = _plain_number(game.get("table_number"))  # a table may be named
    data.round = whole(session, 0)
    data.judge = _person(game.get("referee_user_id"))
    data.result = _result(result.get("result"), data, lost)
    data.ended = _ended(result.get("end_time"), data, lost)
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


def _result(value: Any, data: GameData, lost: list[Lost]) -> str | None:
    """`red`, `black` or `draw`; anything else is listed and the result left blank, for
    `check` to report at its cell."""
    if value in RESULTS:
        return str(value)
    if value not in (None, ""):
        why = Text(
            f"ожидается red, black или draw — {LEFT_BLANK.ru}",
            f"red, black or draw expected — {LEFT_BLANK.en}",
        )
        lost.append(malformed(_RESULT, value, place_of(data, "result.result"), why, "game"))
    return None


def _ended(value: Any, data: GameData, lost: list[Lost]) -> dt.datetime | None:
    ended = moment(value)
    if ended is None and value not in (None, ""):
        why = Text(f"не дата и время — {LEFT_BLANK.ru}", f"not a date and time — {LEFT_BLANK.en}")
        lost.append(malformed(_ENDED, value, place_of(data, "result.end_time"), why, "game"))
    return ended


def _seats(result: dict[str, Any], data: GameData, lost: list[Lost]) -> None:
    for seat in range(10):

        def value(key: str, seat: int = seat) -> tuple[Any, Text]:
            """The seat's entry of the array `key`, and where it stands."""
            return _at(result.get(key), seat), place_of(data, f"result.{key}[{seat}]")

        data.seats[seat] = SeatData(
            _person(_at(result.get("players"), seat)),
            _role(*value("player_roles"), lost),
            _fouls(*value("player_fouls"), lost),
        )
        # the judge's extras and their penalties are one number in «Доп», as the rating
        # site's own import adds them into one bonus
        extras = bonus_value(*value("game_bonus"), lost, _BONUS)
        extras += bonus_value(*value("penalty"), lost, _BONUS)
        place_bonus(data.seats[seat], extras, lost, _BONUS)
        if _at(result.get("is_replacement"), seat):
            lost.append(Lost(Text("замена игрока", "a replacement player"), why=NOT_KEPT))


def _role(value: Any, at: Text, lost: list[Lost]) -> str | None:
    """The seat's role; one the upload does not know is listed and left blank (read as a
    civilian, so that `check` counts the roles and says which game lacks one)."""
    if value is None:
        return "civilian"
    role = ROLES.get(str(value))
    if role is None:
        why = Text(
            f"ожидается red, sheriff, black или don — {LEFT_BLANK.ru} (читается мирным)",
            f"red, sheriff, black or don expected — {LEFT_BLANK.en} (read as civilian)",
        )
        lost.append(malformed(_ROLE, value, at, why))
    return role


def _fouls(value: Any, at: Text, lost: list[Lost]) -> int:
    """Fouls 0–4; more than 4 is written as 4, as the rating site reads a 4th warning (and
    the paper form has four boxes); what is no count is listed and left blank."""
    if value is None or value == "":
        return 0
    count = whole(value)
    if count is not None and count <= 4:
        return count
    if count is not None:
        lost.append(
            malformed(_FOULS, value, at, Text("больше 4 — записано 4", "over 4 — written as 4"))
        )
        return 4
    why = Text(f"ожидается число 0–4 — {LEFT_BLANK.ru}", f"0–4 expected — {LEFT_BLANK.en}")
    lost.append(malformed(_FOULS, value, at, why))
    return 0


_RESULT = Text("результат", "result")
_ENDED = Text("время окончания", "end time")
_ROLE = Text("роль", "role")
_FOULS = Text("фолы", "fouls")
_BONUS = Text("бонус", "bonus")


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
    if first is None and result.get("killed_first") not in (None, ""):
        why = Text(f"не место 1–10 — {LEFT_BLANK.ru}", f"not a seat 1–10 — {LEFT_BLANK.en}")
        kind = Text("убитый в первую ночь", "the first night's victim")
        where = place_of(data, "result.killed_first")
        lost.append(malformed(kind, result.get("killed_first"), where, why))
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
        victim.best_move = named_seats(named, place_of(data, "result.best_move_value"), lost)
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


# ---- writing the upload from the rating -------------------------------------------------------

# 3: removed from the table — by fouls, a disqualification, a team removal or giving up
LEAVE_TYPES = {
    "voted": 1,
    "killed": 2,
    "fouled": 3,
    "disqualified": 3,
    "team_removal": 3,
    "gave_up": 3,
}
_EMPTY = (
    "tournament_id",
    "result.start_time",
    "result.is_replacement",
    "result.reveal_don",
    "result.reveal_sheriff",
    "leaves[].votes_count",
)


def upload(rating: Rating) -> tuple[list[dict[str, Any]], list[Text]]:
    """The rating's counted games in the world tour's upload shape, and what to say about
    them once: the fields the protocol does not record (left empty), the names written
    where the world tour expects its user ids, draws kept, annulled games left out."""
    seats = rating.seats
    if seats is None:
        raise ValueError("the rating was built without its seat rows (keep_seats)")
    unit = rating.points_scale  # every `_u` column of the seat rows is in these units
    sessions = _sessions(rating.games[~rating.games["annulled"]])
    auto = rating.rules.points.get("auto_bonus", Fraction(0))
    games = []
    for key, rows in seats.groupby("game", sort=False):
        game = _upload_game(rows.sort_values("seat"), sessions.get(key), unit)
        game["result"].update(_extras(rows.sort_values("seat"), unit, auto))
        games.append(game)
    games.sort(key=lambda g: (g["session_number"] or 0, str(g["table_number"] or "")))
    ended = seats.drop_duplicates("game")["game_ended"]
    bare = sum(1 for e in ended if isinstance(e, dt.datetime) and e.year <= 1900)
    return games, _notes(rating, games, bare)


def upload_bytes(rating: Rating) -> tuple[bytes, list[Text]]:
    """The upload as UTF-8 JSON, one field a line and each array of ten on one line."""
    games, notes = upload(rating)
    text = json.dumps(games, ensure_ascii=False, indent=1)
    # a list of plain values, spread one a line: on one line (no raw newline can be
    # inside a JSON string, so only the layout's own line breaks are joined)
    text = _SCALARS.sub(lambda m: "[" + _BREAKS.sub(" ", m.group(1)).strip() + "]", text)
    return text.encode("utf-8"), notes


_SCALARS = re.compile(r"\[([^\[\]{}]*)\]")
_BREAKS = re.compile(r"\n\s*")


def _sessions(games: pd.DataFrame) -> dict[object, int]:
    """session_number of each game: its round, when rounds tell the games of each table
    apart (the rating site's game number at a table); else its number, else its order."""
    rounds = pd.to_numeric(games["round"], errors="coerce")
    keyed = pd.DataFrame({"table": games["table"].astype(str), "round": rounds})
    if rounds.notna().all() and not keyed.duplicated().any():
        return dict(zip(games["game"], rounds.astype(int), strict=True))
    numbers = pd.to_numeric(games["game"], errors="coerce")
    if numbers.notna().all() and (numbers % 1 == 0).all() and not numbers.duplicated().any():
        return dict(zip(games["game"], numbers.astype(int), strict=True))
    return {game: index for index, game in enumerate(games["game"], start=1)}


def _upload_game(rows: pd.DataFrame, session: int | None, unit: int) -> dict[str, Any]:
    first = rows.iloc[0]
    table = first["game_table"]
    ended = first["game_ended"]
    partial = first["game_departures"] in NOT_ALL
    result: dict[str, Any] = {
        "start_time": None,
        "end_time": _time(ended),
        "result": first["result"],
        **_alive(rows, partial),
        "players": [text_of(p) for p in rows["player"]],
        "is_replacement": [],
        "player_roles": [TEAM_OF[str(r)] for r in rows["role"]],
        "penalty_disciplinary": [_points(u, unit) for u in rows["penalty_u"]],
        "reveal_don": [],
        "reveal_sheriff": [],
        "player_fouls": [int(f or 0) for f in rows["fouls"]],
        "leaves": _leaves_of(rows),
        "comment": "",
        **_best_move_of(rows),
    }
    return {
        "tournament_id": None,
        "table_number": _plain_number(table),
        "part_number": 1,
        "session_number": session,
        "referee_user_id": text_of(first["game_judge"]) or None,
        "result": result,
    }


def _extras(rows: pd.DataFrame, unit: int, auto: Fraction) -> dict[str, list[Any]]:
    """The judge's points per seat as the world tour splits them: `game_bonus` (awards and
    positive extras), `penalty` (negative extras), `game_autobonus` (0: withheld for a
    worst move). The rating's award units hold all three and the auto-bonus together."""
    bonus, penalty, kept = [], [], []
    extras = rows["extra"] if "extra" in rows else pd.Series(None, index=rows.index)
    for units, mark, typed in zip(rows["awards_u"], rows["bonus"], extras, strict=True):
        withheld = mark == "worst_move"
        extra = Fraction(typed) if typed is not None and typed == typed else Fraction(0)
        award = Fraction(int(units), unit) - (0 if withheld else auto) - extra
        bonus.append(_number(award + max(extra, Fraction(0))))
        penalty.append(_number(min(extra, Fraction(0))))
        kept.append(0 if withheld else 1)
    return {"game_autobonus": kept, "game_bonus": bonus, "penalty": penalty}


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _time(ended: Any) -> str | None:
    """`Y-m-d G:i:s` (the hour without a leading zero), as the rating site writes it; a bare
    clock time (the protocol read it as a time of 1 January 1900) has no date: None."""
    if not isinstance(ended, dt.datetime) or ended.year <= 1900:
        return None
    return f"{ended:%Y-%m-%d} {ended.hour}:{ended:%M:%S}"


def _alive(rows: pd.DataFrame, partial: bool) -> dict[str, int | None]:
    stayed = rows[rows["left"].isna()]
    if partial:  # who stayed is not recorded
        return {"black_count": None, "red_count": None}
    return {
        "black_count": int(stayed["team"].eq("black").sum()),
        "red_count": int(stayed["team"].eq("red").sum()),
    }


def _leaves_of(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Each departure, ordered as the rating site orders them (nights, days, type), with
    the players at the table before it, how many left along and whether it ended the game."""
    leaves = []
    for seat, left, when in zip(rows["seat"], rows["left"], rows["when"], strict=True):
        if not isinstance(left, str) or left not in LEAVE_TYPES or when is None or when != when:
            continue
        leaves.append(
            {
                "p_num": int(seat),
                "leave_type": LEAVE_TYPES[left],
                "votes_count": None,
                "nights_before_count": int(when) // 2,
                "days_before_count": (int(when) + 1) // 2,
            }
        )
    leaves.sort(key=lambda v: (v["nights_before_count"], v["days_before_count"], v["leave_type"]))
    start = 0
    for index, leave in enumerate(leaves):
        leave["players_before_count"] = 10 - index
        leave["game_ended"] = int(index == len(leaves) - 1)
        if index and not _together(leaves[start], leave):
            for earlier in leaves[start:index]:
                earlier["leave_along_count"] = index - start
            start = index
    for earlier in leaves[start:]:
        earlier["leave_along_count"] = len(leaves) - start
    return leaves


def _together(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Voted out in one vote: the rating site counts them as leaving along."""
    keys = ("nights_before_count", "days_before_count")
    return one["leave_type"] == other["leave_type"] == 1 and all(one[k] == other[k] for k in keys)


def _best_move_of(rows: pd.DataFrame) -> dict[str, Any]:
    first = rows[rows["killed_first_night"]]
    if first.empty:
        return {"killed_first": None, "best_move_value": None, "best_move": None}
    named = first["best_move"].iloc[0]
    seats = [int(s) for s in named] if isinstance(named, list | tuple) else []
    black = set(rows.loc[rows["team"].eq("black"), "seat"].astype(int))
    return {
        "killed_first": int(first["seat"].iloc[0]),
        "best_move_value": seats or None,
        "best_move": len(set(seats) & black) if seats else None,
    }


def _points(units: Any, unit: int) -> int | float:
    return _number(Fraction(int(units), unit))


def _plain_number(value: Any) -> Any:
    number_ = whole(value, 0)
    return number_ if number_ is not None else (text_of(value) or None)


def _empty_ends(games: list[dict[str, Any]], bare: int) -> list[Text]:
    """The games whose `end_time` stays empty: a clock time without its date (`bare`), or
    no end time written at all."""
    notes = []
    if bare:
        notes.append(
            Text(
                f"end_time пуст в {bare} играх: в протоколе время окончания без даты",
                f"end_time is empty in {bare} games: the protocol has the time they ended, "
                "not the date",
            )
        )
    unwritten = sum(1 for g in games if g["result"]["end_time"] is None) - bare
    if unwritten:
        notes.append(
            Text(
                f"end_time пуст в {unwritten} играх: время окончания в протоколе не вписано",
                f"end_time is empty in {unwritten} games: the protocol has no time they ended",
            )
        )
    return notes


def _rules_not_carried(rating: Rating) -> list[Text]:
    """The upload holds games, not how they are scored: rules other than the regulation's
    own must be given again to whatever reads it back (an import reads the regulation)."""
    rules = rating.rules
    if rules.values() == load_rules(DEFAULT_EDITION).values():
        return []
    name = rules.edition.name
    return [
        Text(
            f"правила подсчёта («{name.ru}», и параметры листа «Турнир») в выгрузке не "
            "записаны: после загрузки или импорта задайте их снова (--rules или лист «Турнир»)",
            f"the scoring rules (“{name.en}”, and the Tournament sheet's settings) are not "
            "in the upload: after uploading or importing it, set them again (--rules or "
            "the Tournament sheet)",
        )
    ]


def _notes(rating: Rating, games: list[dict[str, Any]], bare: int) -> list[Text]:
    """What to say once about the upload; `bare`: games whose end is a time with no date."""
    empty = ", ".join(_EMPTY)
    notes = [
        Text(
            f"не записаны в протоколе и оставлены пустыми: {empty}",
            f"not recorded in the protocol and left empty: {empty}",
        ),
        Text(
            "players и referee_user_id: ники и имена из протокола, а не номера world tour — "
            "сопоставьте их при загрузке",
            "players and referee_user_id: the protocol's nicknames and names, not world "
            "tour ids — match them when uploading",
        ),
    ]
    draws = sum(1 for g in games if g["result"]["result"] == "draw")
    if draws:
        notes.append(
            Text(
                f"ничьи ({draws}) записаны как «draw», а не победой красных",
                f"draws ({draws}) written as “draw”, not as red wins",
            )
        )
    if rating.removed:
        names = ", ".join(row.player for row in rating.removed)
        notes.append(
            Text(
                f"удаление с турнира (особая ситуация 4) в выгрузке не отмечено: {names}",
                f"removal from the tournament (special situation 4) is not in the upload: {names}",
            )
        )
    notes += _empty_ends(games, bare)
    notes += _rules_not_carried(rating)
    annulled = int(rating.games["annulled"].sum())
    if annulled:
        notes.append(
            Text(
                f"отменённые игры ({annulled}) не выгружены",
                f"annulled games ({annulled}) are left out",
            )
        )
    if any(g["result"]["red_count"] is None for g in games):
        notes.append(
            Text(
                "red_count и black_count пусты там, где записаны не все выбывания",
                "red_count and black_count are empty where not every departure is recorded",
            )
        )
    return notes
