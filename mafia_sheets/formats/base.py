"""What every format module shares: the imported games, what could not be placed, the
bounded JSON reading and the small value readers.

A reader turns one document into the protocol's records — :class:`GameData` with its ten
:class:`SeatData`, the very records the protocol writers take — and says, for each value
it found but the protocol has no column for, one :class:`Lost` item. Nothing is dropped in
silence: the import lists every kind of lost value on one line
(«бонус 0,2 у 4 игроков: нет столбца»).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import ProtocolReadError
from ..model import Source
from ..template.layouts import GameData, SeatData
from ..text import Plural, Text

__all__ = ["GameData", "SeatData"]

# A JSON file of games: a 10,000-game season in the most verbose format (every vote of
# every round) is ~40 MB; parsed, Python holds ~10× that. Past this it is not a season.
MAX_JSON_BYTES = 64 * 1024**2
SEATS = 10

_PLAYERS = Plural(("игрока", "игроков", "игроков"), ("player", "players"))
_GAMES = Plural(("игре", "играх", "играх"), ("game", "games"))
NO_COLUMN = Text("нет столбца", "no column")
NOT_KEPT = Text("протокол их не хранит", "the protocol does not keep them")


@dataclass(frozen=True)
class Lost:
    """A value found in the source that the protocol cannot hold.

    `kind` names it («бонус», «голосования»); `value` is the value as shown (grouped per
    kind: «бонус 0,2 у 4 игроков, 0,3 у 1 игрока»); `per` counts it per seat (player) or
    per game; `why` says what is missing.
    """

    kind: Text
    value: Fraction | str = ""  # a number is shown as the language writes it: 0,2 / 0.2
    per: str = "player"  # player | game
    why: Text = NO_COLUMN
    # where a value the source wrote wrongly stands («игра 3, стол 1: player_fouls[0]»),
    # so that the judge can find it in the source and in the protocol
    at: Text | None = None


@dataclass
class Imported:
    """The games of one or several files, how each file was read, and what was left out."""

    games: list[GameData] = field(default_factory=list)
    lost: list[Lost] = field(default_factory=list)
    read: list[tuple[str, Text, int]] = field(default_factory=list)  # file, format, games
    edition: str | None = None  # the scoring edition's code the protocol will carry
    assumed: bool = True  # the edition is the format's (or the default), not chosen
    # the judge's titles (`bestPlayer`, `bestMove`, `worstMove`): game, seat index, title
    titles: list[tuple[GameData, int, str]] = field(default_factory=list)
    name: str = ""  # the tournament's name, when the source gives one


def lost_lines(lost: Iterable[Lost], lang: str) -> list[str]:
    """One line per kind: «бонус 0,2 у 4 игроков, 0,3 у 1 игрока: нет столбца»; a value
    written wrongly in its source is named where it stands instead of counted
    («фолы «7» (игра 3, стол 1: result.player_fouls[1]): больше 4 — записано 4»)."""
    groups: dict[tuple[Text, str, Text], Counter[Fraction | str]] = {}
    placed: dict[tuple[Text, str, Text], list[Lost]] = {}
    for item in lost:
        key = (item.kind, item.per, item.why)
        if item.at is None:
            groups.setdefault(key, Counter())[item.value] += 1
        else:
            placed.setdefault(key, []).append(item)
    lines = []
    for (kind, per, why), values in groups.items():
        unit = _PLAYERS if per == "player" else _GAMES
        at = Text("у", "for") if per == "player" else Text("в", "in")
        parts = [
            f"{_shown(value, lang)}{at(lang)} {unit(count, lang)}"
            for value, count in values.most_common()
        ]
        lines.append(f"{kind(lang)} {', '.join(parts)}: {why(lang)}")
    for (kind, _, why), items in placed.items():
        lines.append(f"{kind(lang)} {_placed(items, lang)}: {why(lang)}")
    return lines


_MAX_PLACES = 10  # a line a judge can read; the rest are counted


def _placed(items: Sequence[Lost], lang: str) -> str:
    """«vampire» (игра 1: result.player_roles[0]), «x» (игра 2: …) и ещё 3."""
    shown = ", ".join(
        f"{_shown(item.value, lang)}({item.at(lang) if item.at else ''})"
        for item in items[:_MAX_PLACES]
    )
    rest = len(items) - _MAX_PLACES
    return shown + (Text(f" и ещё {rest}", f" and {rest} more")(lang) if rest > 0 else "")


def _shown(value: Fraction | str, lang: str) -> str:
    if isinstance(value, Fraction):
        return shown_number(value, lang) + " "
    return f"{value} " if value else ""


# ---- values the source wrote wrongly ----------------------------------------------------------

# A judge's extra points are a few points either way; past this a number is a slip (or
# 1e308, past what Excel can hold), never a score.
MAX_BONUS = 100
LEFT_BLANK = Text("в протоколе пусто", "left blank in the protocol")


def place_of(game: GameData, field: str, seat: int | None = None) -> Text:
    """Where a value stands: the game as the protocol numbers it (and the seat, where the
    source's field does not say it) and the source's field, «игра 3, стол 1: winner»."""
    ru, en = f"игра {game.game}", f"game {game.game}"
    if game.table not in (None, ""):
        ru, en = f"{ru}, стол {game.table}", f"{en}, table {game.table}"
    if seat is not None:
        ru, en = f"{ru}, место {seat}", f"{en}, seat {seat}"
    return Text(f"{ru}: {field}", f"{en}: {field}")


def as_written(value: Any) -> str:
    """A source value as its JSON spells it, quoted: «vampire», «NaN», «[1, 2]»."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"«{text if len(text) <= 40 else text[:39] + '…'}»"


def malformed(kind: Text, value: Any, at: Text, why: Text, per: str = "player") -> Lost:
    """A value the source wrote wrongly, named with where it stands."""
    return Lost(kind, as_written(value), per, why, at)


def bonus_value(value: Any, at: Text, lost: list[Lost], kind: Text) -> Fraction:
    """A judge's number for a seat (0 for none); a value that is no number, or a number no
    judge gives (not finite, beyond ±MAX_BONUS), is listed where it stands and counts 0."""
    if value is None or value == "":
        return Fraction(0)
    found = number(value)
    if found is None:
        why = Text(f"не число — {LEFT_BLANK.ru}", f"not a number — {LEFT_BLANK.en}")
    elif abs(found) > MAX_BONUS:
        why = Text(
            f"больше {MAX_BONUS} по модулю — {LEFT_BLANK.ru}",
            f"beyond ±{MAX_BONUS} — {LEFT_BLANK.en}",
        )
    else:
        return found
    lost.append(malformed(kind, value, at, why))
    return Fraction(0)


def named_seats(values: Any, at: Text, lost: list[Lost]) -> tuple[int, ...]:
    """The seats a best move names; entries that are no seat 1–10 are listed where they
    stand, and the seats read are kept (a seat named twice too) for `check` to judge."""
    if not isinstance(values, list):
        return ()
    seats: list[int] = []
    wrong: list[Any] = []
    for value in values:
        seat = whole(value, 1, SEATS)
        if seat is None:
            wrong.append(value)
        else:
            seats.append(seat)
    if wrong:
        lost.append(
            Lost(
                Text("места лучшего хода", "best-move seats"),
                ", ".join(as_written(value) for value in wrong),
                why=Text("не номера 1–10 — не перенесены", "not seats 1–10 — not carried over"),
                at=at,
            )
        )
    return tuple(seats)


# ---- reading the document ---------------------------------------------------------------------


class FormatError(ProtocolReadError):
    """The file is no document of a known format (one line, exit 2)."""


def load_json(source: Source) -> Any | None:
    """The parsed JSON of `source`, or None when it is not JSON at all (another reader's).

    Bounded: a file past MAX_JSON_BYTES or nested past Python's recursion limit is one
    line, never a crash; UTF-8 with or without a BOM and UTF-16 with one (what Windows
    Notepad saves as "Unicode") are read."""
    data = source.data
    encoding = "utf-16" if data.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig"
    head = data[:4096].decode(encoding, "ignore").lstrip("\ufeff \t\r\n")
    if head[:1] not in ("{", "["):
        return None
    if len(data) > MAX_JSON_BYTES:
        raise FormatError(
            Text(
                f"{source.name}: файл игр больше {MAX_JSON_BYTES // 1024**2} МБ — это не "
                "записи турнира. Разделите его по турам.",
                f"{source.name}: the games file is over {MAX_JSON_BYTES // 1024**2} MB — that "
                "is no tournament's record. Split it by rounds.",
            )
        )
    try:
        return json.loads(data.decode(encoding))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        where = (
            f" ({error.msg}, {error.lineno}:{error.colno})"
            if isinstance(error, json.JSONDecodeError)
            else ""
        )
        raise FormatError(
            Text(
                f"{source.name}: это не правильный JSON{where}. Выгрузите игры заново.",
                f"{source.name}: this is not valid JSON{where}. Export the games again.",
            )
        ) from None


def game_refusal(source: str, index: int, game_id: str, field: str, found: Text) -> FormatError:
    """One line refusing a file for one game's field: which game (its place in the file
    and its id), which field, what is there and what was expected."""
    named = f" (id {game_id})" if game_id else ""
    return FormatError(
        Text(
            f"{source}: игра №{index + 1}{named}: {field} — {found.ru}. Исправьте запись "
            "или выгрузите игры заново.",
            f"{source}: game #{index + 1}{named}: {field} — {found.en}. Correct the record "
            "or export the games again.",
        )
    )


def games_of(document: Any, *keys: str) -> list[Any]:
    """The game objects of a document that holds one game, a list of games, or an object
    with the list under one of `keys` (`{"games": […]}`)."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        for key in keys:
            inner = document.get(key)
            if isinstance(inner, list):
                return inner
            if (
                isinstance(inner, dict)
                and inner
                and all(isinstance(v, dict) for v in inner.values())
            ):
                return list(inner.values())  # games keyed by number
        return [document]
    return []


def all_are(items: Sequence[Any], test: Any) -> bool:
    return bool(items) and all(isinstance(item, dict) and test(item) for item in items)


# ---- small value readers ----------------------------------------------------------------------


def number(value: Any) -> Fraction | None:
    """A JSON number (or a number written as text) as an exact fraction of its decimal
    spelling: 0.2 is 1/5, not the binary float; None for anything else."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            return Fraction(text) if text and len(text) < 40 else None
        except (ValueError, ZeroDivisionError):
            return None
    return None


def whole(value: Any, low: int = 0, high: int = 10**9) -> int | None:
    """A whole number within [low, high], or None."""
    found = number(value)
    if found is None or found.denominator != 1 or not low <= found <= high:
        return None
    return int(found)


def shown_number(value: Fraction, lang: str) -> str:
    """0,2 in Russian, 0.2 in English: a number as the regulation writes it."""
    if value.denominator == 1:
        text = str(value.numerator)
    else:
        text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    text = text.replace("-", "−")
    return text.replace(".", ",") if lang == "ru" else text


def text_of(value: Any) -> str:
    """A name or label as text ("" for nothing); numbers as typed, 12 not 12.0."""
    if value is None or isinstance(value, bool | dict | list):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def moment(value: Any) -> dt.datetime | None:
    """A UNIX timestamp or an ISO 8601 time (`2020-10-18T20:48:57+00:00`, `20201018T204857Z`,
    `2024-05-01 19:45:00`) as a wall-clock time: in the offset it was written with, UTC
    for a bare timestamp."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and math.isfinite(value) and 0 < value < 32503680000:
        return dt.datetime.fromtimestamp(value, dt.UTC).replace(tzinfo=None)
    if isinstance(value, str) and 8 <= len(value.strip()) <= 40:
        text = value.strip()
        for form in (None, "%Y%m%dT%H%M%SZ", "%Y-%m-%d %H:%M:%S"):
            try:
                parsed = (
                    dt.datetime.fromisoformat(text)
                    if form is None
                    else dt.datetime.strptime(text, form)
                )
            except ValueError:
                continue
            return parsed.replace(tzinfo=None)
        if text.isdigit():
            return moment(int(text))
    return None


def unknown_fields(
    item: Mapping[str, Any], known: Iterable[str], per: str, out: list[Lost]
) -> None:
    """Every field of `item` the reader does not know, as lost («поле «xyz» в 3 играх»)."""
    known = set(known)
    for key, value in item.items():
        if key not in known and value not in (None, "", [], {}):
            out.append(Lost(Text(f"поле «{key}»", f"field “{key}”"), per=per, why=NOT_KEPT))


_BONUS = Text("бонус", "bonus")


def place_bonus(seat: SeatData, value: Fraction, lost: list[Lost], kind: Text = _BONUS) -> None:
    """A judge's number for a seat, in «Доп» (whether the edition can count it is settled
    once the edition is known: :func:`.settle.settle`); a second one is lost."""
    if not value:
        return
    if seat.bonus is None:
        seat.bonus = value
    else:
        lost.append(Lost(kind, value, why=NO_COLUMN))


def empty_game(game: str) -> GameData:
    return GameData(game, seats=[SeatData() for _ in range(SEATS)])


def seat_index(value: Any) -> int | None:
    """A seat number 1–10 as a 0-based index."""
    seat = whole(value, 1, SEATS)
    return None if seat is None else seat - 1


def iter_dicts(items: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """(index, object) of a list's objects; anything else yields nothing."""
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield index, item
