"""Independent reference scorers of the scoring editions, for cross-checking the product.

Written from the editions' sources as this file reads them, not from the package:

- the rating site's scoring (`szotin/mafiaratings`, `include/scoring.php`): each player's
  game gets a set of *matters* (won, lost, killed on the first night, a 4th foul …); an
  edition is groups of *policies* — a matter mask, a role mask and points, a number or a
  function of the matters and the player's counters — summed per group; the standings
  sort by the total, then by the site's letters;
- the 2026 judge app (`nekoalice42/mafia-companion-api`): a rolling counter per player in
  hundredths of a point, Ci computed once all games are counted, places by the total with
  equal totals sharing a place, numbered without gaps.

Games are plain records (:class:`Game`); exact Fractions throughout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

# ---- the games ---------------------------------------------------------------------------

TEAM = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}


@dataclass
class Seat:
    player: str
    role: str  # civilian | sheriff | mafia | don
    left: str = ""  # killed | voted | fouled | disqualified | team_removal | gave_up | ""
    when: int = 0  # phase ordinal: Д1 = 1, Н1 = 2 …
    best_move: tuple[int, ...] = ()
    bonus: str | Fraction | None = None  # bp | bp2 | bpl | best_move_title | worst_move | a number
    fouls: int = 0


@dataclass
class Game:
    game: str
    result: str  # red | black | draw
    seats: list[Seat] = field(default_factory=list)


# ---- the rating site ---------------------------------------------------------------------

PLAY, WIN, LOSE, TIE = 1, 2, 4, 8
KILLED_N1, LEGACY_3, LEGACY_2, LEGACY_1 = 16, 32, 64, 128
WARNINGS_4, KICK_OUT, GAVE_UP, TEAM_KICK_OUT = 256, 512, 1024, 2048
BEST_PLAYER, BEST_MOVE, WORST_MOVE, EXTRA = 4096, 8192, 16384, 32768
CIV, SHERIFF, MAF, DON = 1, 2, 4, 8
RED, ALL = CIV | SHERIFF, CIV | SHERIFF | MAF | DON
ROLE_FLAG = {"civilian": CIV, "sheriff": SHERIFF, "mafia": MAF, "don": DON}
_DEPARTURE = {
    "fouled": WARNINGS_4,
    "disqualified": KICK_OUT,
    "gave_up": GAVE_UP,
    "team_removal": TEAM_KICK_OUT,
}


@dataclass(frozen=True)
class Context:
    """What a policy's points may read: the game's matters, the player's role, the judge's
    number, the difficulty of the game for the player, and the player's final counters."""

    matters: int
    role: int
    bonus: Fraction
    difficulty: Fraction
    games: int  # counter: games played
    red_first_night: int  # counter: killed on the first night as red


Points = Fraction | Callable[[Context], Fraction]


@dataclass(frozen=True)
class Policy:
    matter: int
    roles: int
    points: Points

    def earned(self, ctx: Context) -> Fraction:
        if ctx.matters & self.matter != self.matter or not ctx.role & self.roles:
            return Fraction(0)
        return self.points(ctx) if callable(self.points) else self.points


@dataclass(frozen=True)
class SiteEdition:
    main: tuple[Policy, ...] = ()
    extra: tuple[Policy, ...] = ()
    legacy: tuple[Policy, ...] = ()
    penalty: tuple[Policy, ...] = ()
    night1: tuple[Policy, ...] = ()
    sorting: str = "(epg)wsk"


def _ci(share: Fraction, cap: Fraction) -> Callable[[Context], Fraction]:
    """max(min(F · share / round(N · 0.4), cap), 0); dividing by zero gives the most."""

    def points(ctx: Context) -> Fraction:
        divisor = round(Fraction(ctx.games * 4, 10))  # never a half: Python's rounding is safe
        if divisor == 0:
            return cap if ctx.red_first_night > 0 else Fraction(0)
        return max(min(ctx.red_first_night * share / divisor, cap), Fraction(0))

    return points


def _legacy(three: Fraction, two: Fraction) -> Callable[[Context], Fraction]:
    def points(ctx: Context) -> Fraction:
        if ctx.matters & LEGACY_3:
            return three
        return two if ctx.matters & LEGACY_2 else Fraction(0)

    return points


def _penalty(kick: Fraction, team: Fraction, gave_up: bool) -> Callable[[Context], Fraction]:
    def points(ctx: Context) -> Fraction:
        if ctx.matters & (WARNINGS_4 | KICK_OUT | (GAVE_UP if gave_up else 0)):
            return kick
        return team if ctx.matters & TEAM_KICK_OUT else Fraction(0)

    return points


def _difficulty_win(ctx: Context) -> Fraction:
    return 2 * ctx.difficulty if ctx.difficulty > Fraction(1, 2) else Fraction(1)


_BONUS = Policy(EXTRA, ALL, lambda ctx: ctx.bonus)
_HALF = Fraction(1, 2)
SITE: dict[str, SiteEdition] = {
    # scoring 19, version 7: the auto-bonus withheld for a worst move; team kick-out −0.7
    "mr-fiim-7": SiteEdition(
        main=(Policy(WIN, ALL, Fraction(1)),),
        extra=(
            _BONUS,
            Policy(PLAY, ALL, lambda c: Fraction(0) if c.matters & WORST_MOVE else Fraction(3, 10)),
        ),
        legacy=(Policy(PLAY, RED, _legacy(Fraction(7, 10), _HALF)),),
        penalty=(Policy(PLAY, ALL, _penalty(-_HALF, Fraction(-7, 10), True)),),
        night1=(Policy(KILLED_N1 | LOSE, RED, _ci(_HALF, _HALF)),),
    ),
    # version 3: no auto-bonus, a give-up penalised, no team kick-out policy
    "mr-fiim-3": SiteEdition(
        main=(Policy(WIN, ALL, Fraction(1)),),
        extra=(_BONUS,),
        legacy=(Policy(PLAY, RED, _legacy(Fraction(2, 5), Fraction(1, 4))),),
        penalty=(Policy(PLAY, ALL, _penalty(-_HALF, Fraction(0), True)),),
        night1=(Policy(KILLED_N1 | LOSE, RED, _ci(Fraction(2, 5), Fraction(2, 5))),),
    ),
    # version 1: main points by difficulty; 4 warnings and a kick-out only; the tournaments
    # of «ФИИМ с баллами за трудность» skip the night1 group (no night kills)
    "mr-fiim-1": SiteEdition(
        main=(Policy(WIN, ALL, _difficulty_win),),
        extra=(_BONUS,),
        legacy=(Policy(PLAY, RED, _legacy(Fraction(2, 5), Fraction(1, 4))),),
        penalty=(Policy(PLAY, ALL, _penalty(-_HALF, Fraction(0), False)),),
    ),
    # scoring 9, Club Main: win points by role, a lost sheriff or don −0.5
    "mr-club-main": SiteEdition(
        main=(
            Policy(WIN, CIV | MAF, Fraction(2)),
            Policy(WIN, SHERIFF | DON, Fraction(5, 2)),
            Policy(LOSE, SHERIFF | DON, -_HALF),
        ),
        legacy=(Policy(LEGACY_3, RED, _HALF),),
        extra=(Policy(BEST_PLAYER, ALL, _HALF), Policy(BEST_MOVE, ALL, Fraction(1, 4))),
    ),
}
GROUPS = ("main", "extra", "legacy", "penalty", "night1")


def matters_of(game: Game, seat: Seat) -> int:
    team = TEAM[seat.role]
    matters = PLAY
    matters |= TIE if game.result == "draw" else WIN if team == game.result else LOSE
    if seat.left == "killed" and seat.when == 2:
        matters |= KILLED_N1
    matters |= _DEPARTURE.get(seat.left, 0)
    if seat.best_move:
        guessed = sum(1 for i in set(seat.best_move) if TEAM[game.seats[i - 1].role] == "black")
        matters |= LEGACY_3 if guessed >= 3 else LEGACY_2 if guessed == 2 else 0
        matters |= LEGACY_1 if guessed == 1 else 0
    if isinstance(seat.bonus, Fraction):
        matters |= EXTRA
    else:
        matters |= {"bp": BEST_PLAYER, "best_move_title": BEST_MOVE, "worst_move": WORST_MOVE}.get(
            seat.bonus or "", 0
        )
    return matters


def site_scores(games: list[Game], code: str) -> dict[str, dict[str, Fraction]]:
    """Each player's points per group and the sorting counts, by the site's evaluation."""
    edition = SITE[code]
    played: dict[str, int] = {}
    red_n1: dict[str, int] = {}
    for game in games:
        for seat in game.seats:
            played[seat.player] = played.get(seat.player, 0) + 1
            killed = seat.left == "killed" and seat.when == 2 and TEAM[seat.role] == "red"
            red_n1[seat.player] = red_n1.get(seat.player, 0) + killed
    red_rate = Fraction(sum(g.result == "red" for g in games), len(games)) if games else Fraction(0)
    out: dict[str, dict[str, Fraction]] = {}
    for game in games:
        for seat in game.seats:
            team = TEAM[seat.role]
            row = out.setdefault(
                seat.player, {k: Fraction(0) for k in (*GROUPS, "w", "s", "k", "games")}
            )
            ctx = Context(
                matters_of(game, seat),
                ROLE_FLAG[seat.role],
                seat.bonus if isinstance(seat.bonus, Fraction) else Fraction(0),
                1 - red_rate if team == "red" else red_rate,
                played[seat.player],
                red_n1[seat.player],
            )
            for group in GROUPS:
                row[group] += sum((p.earned(ctx) for p in getattr(edition, group)), Fraction(0))
            won = team == game.result
            row["w"] += won
            row["s"] += won and seat.role in ("sheriff", "don")
            row["k"] += seat.left == "killed" and seat.when == 2 and team == "red"
            row["games"] += 1
    for row in out.values():
        row["total"] = sum((row[g] for g in GROUPS), Fraction(0))
    return out


_LETTERS = {"m": "main", "e": "extra", "p": "penalty", "g": "legacy", "n": "night1"}


def site_key(row: dict[str, Fraction], sorting: str) -> tuple[Fraction, ...]:
    """The site's comparison as a key: the total, then each letter or bracketed sum."""
    key = [row["total"]]
    group: list[Fraction] | None = None
    for char in sorting:
        if char == "(":
            group = []
        elif char == ")":
            assert group is not None
            key.append(sum(group, Fraction(0)))
            group = None
        else:
            value = row[_LETTERS.get(char, char)]
            if group is None:
                key.append(value)
            else:
                group.append(value)
    return tuple(key)


def place_ranges(keys: dict[str, tuple[Fraction, ...]]) -> dict[str, str]:
    """Competition places, a tie on every criterion sharing a range (the lot not held)."""
    ordered = sorted(keys, key=lambda p: tuple(-v for v in keys[p]))
    out: dict[str, str] = {}
    position = 1
    index = 0
    while index < len(ordered):
        tied = [p for p in ordered[index:] if keys[p] == keys[ordered[index]]]
        last = position + len(tied) - 1
        for player in tied:
            out[player] = str(position) if len(tied) == 1 else f"{position}–{last}"
        position, index = last + 1, index + len(tied)
    return out


# ---- the 2026 judge app --------------------------------------------------------------------


def _round_div(value: int, by: int) -> int:
    return value if by == 1 else (value + by // 2) // by


def app_scores(games: list[Game]) -> dict[str, dict[str, int]]:
    """Each player's counters in hundredths, as the app's rolling counter keeps them."""
    rows: dict[str, dict[str, int]] = {}
    dividers: dict[str, list[int | None]] = {}
    for game in games:
        winner = None if game.result == "draw" else game.result
        for seat in game.seats:
            row = rows.setdefault(
                seat.player,
                dict.fromkeys(("games", "wins", "ds_wins", "game", "extra", "turn", "ci", "n1"), 0),
            )
            team = TEAM[seat.role]
            row["games"] += 1
            if isinstance(seat.bonus, Fraction):
                row["extra"] += int(seat.bonus * 100)
            if winner == team:
                row["wins"] += 1
                row["ds_wins"] += seat.role in ("don", "sheriff")
                row["game"] += 100
            if seat.left == "killed" and seat.when == 2:
                row["n1"] += 1
                if team == "red":
                    guessed = sum(
                        1 for i in set(seat.best_move) if TEAM[game.seats[i - 1].role] == "black"
                    )
                    row["turn"] += {0: 0, 1: 10, 2: 30, 3: 60}[min(guessed, 3)]
                    divider = None if guessed == 0 else 1 if winner != "black" else 2
                    dividers.setdefault(seat.player, []).append(divider)
    for player, found in dividers.items():
        row = rows[player]
        if row["games"] < 4:
            continue
        b = int(row["games"] * Fraction(4, 10) + Fraction(1, 2))
        base = min(_round_div(len(found) * 40, b), 50)
        row["ci"] += sum(_round_div(base, k) for k in found if k is not None)
    for row in rows.values():
        row["total"] = row["game"] + row["extra"] + row["ci"] + row["turn"]
    return rows


def dense_places(totals: dict[str, int]) -> dict[str, str]:
    """Places by the total alone, equal totals sharing one, numbered without gaps."""
    distinct = sorted(set(totals.values()), reverse=True)
    return {player: str(distinct.index(total) + 1) for player, total in totals.items()}
