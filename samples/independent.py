"""The regulation, applied to the sample independently of the mafia_sheets package.

A validator that every game is lawful and a calculator of regulation 8.2-8.6 in exact
fractions: the expected standings of the golden test come from here, not from the package.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from sample_data import BLACK, BONUS_LABEL, DRAW, PLAYERS, RED, Game, Seat


def phase_index(when: str) -> int:
    """D1 -> 0, N1 -> 1, D2 -> 2, N2 -> 3, ... (night k follows day k)."""
    return (int(when[1:]) - 1) * 2 + (1 if when[0] == "N" else 0)


def best_move_seats(text: str) -> list[int]:
    return [int(part) for part in text.split()]


# ---------------------------------------------------------------------------
# The regulation, checked independently of the package
# ---------------------------------------------------------------------------


def regulation_errors(games: list[Game]) -> list[str]:
    """Everything the sample must not contain; an empty list means a clean sample."""
    errors: list[str] = []
    roster = {nick for nick, *_ in PLAYERS}
    removed = {nick for nick, _club, _city, gone in PLAYERS if gone}
    ids = [g.id for g in games]
    if len(ids) != len(set(ids)):
        errors.append("duplicate game id")
    per_round: dict[int, Counter] = defaultdict(Counter)
    last_round_of_removed = 0
    for g in games:
        where = f"game {g.id}"
        seats = g.seats
        if [s.seat for s in seats] != list(range(1, 11)):
            errors.append(f"{where}: seats are not 1-10")
        names = [s.player for s in seats]
        if len(set(names)) != 10:
            errors.append(f"{where}: a player sits twice")
        for name in names:
            per_round[g.round][name] += 1
            if name not in roster:
                errors.append(f"{where}: {name} not in the roster")
            if name in removed:
                last_round_of_removed = max(last_round_of_removed, g.round)
        roles = Counter(s.role or "C" for s in seats)
        if roles != Counter({"C": 6, "S": 1, "M": 2, "D": 1}):
            errors.append(f"{where}: roles {dict(roles)}")
        for s in seats:
            if not 0 <= s.fouls <= 4:
                errors.append(f"{where} seat {s.seat}: fouls {s.fouls}")
            if (s.fouls == 4) != (s.left == "fouls"):
                errors.append(f"{where} seat {s.seat}: 4 fouls and 'fouled out' disagree")
            if bool(s.left) != bool(s.when):
                errors.append(f"{where} seat {s.seat}: left without when or the reverse")
            if s.left == "killed" and s.when[0] != "N":
                errors.append(f"{where} seat {s.seat}: killed in a day")
            if s.left == "voted" and s.when[0] != "D":
                errors.append(f"{where} seat {s.seat}: voted out at night")
        errors += _departure_errors(g)
        errors += _best_move_errors(g)
        errors += _award_errors(g)
    for rnd, counts in per_round.items():
        for name, n in counts.items():
            if n > 1:
                errors.append(f"round {rnd}: {name} plays {n} times")
    for g in games:
        if g.round > last_round_of_removed and any(s.player in removed for s in g.seats):
            errors.append(f"game {g.id}: a removed player after his removal")
    lefts = Counter(s.left for g in games for s in g.seats)
    if lefts["disq"] != 1 or lefts["fouls"] < 1:
        errors.append(f"want exactly one disqualification and a fouled-out player: {lefts}")
    if sum(g.result == DRAW for g in games) < 2:
        errors.append("want at least two draws")
    return errors


QUIET_WINDOW = 5  # special situation 9: quiet phases from a night that make a draw


def _departure_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    by_phase: dict[int, list[Seat]] = defaultdict(list)
    for s in g.seats:
        if s.left:
            by_phase[phase_index(s.when)].append(s)
    reds, blacks = 7, 3
    decided_at = None
    outcome = DRAW
    previous = -1  # the phase of the previous departure; -1 before D1
    for index in sorted(by_phase):
        leaving = by_phase[index]
        # Special situation 9, read as the game's software reads it: five phases in a row
        # without a departure, starting at a night (N, D, N, D, N), end the game as a draw.
        # Nights have odd indexes here; D1 (index 0) never opens the window.
        first_night = previous + 1 if (previous + 1) % 2 == 1 else previous + 2
        if first_night + QUIET_WINDOW - 1 < index:
            errors.append(
                f"{where}: play went on after {QUIET_WINDOW} quiet phases (special situation 9)"
            )
        previous = index
        kinds = Counter(s.left for s in leaving)
        if kinds["killed"] > 1:
            errors.append(f"{where}: two kills in one night")
        if kinds["voted"] > 1:
            errors.append(f"{where}: several voted out in one day (re-vote): avoided here")
        if decided_at is not None:
            errors.append(f"{where}: departures after the game was decided")
        # Special situations 1-2: a fouled-out or disqualified player stops the
        # current (day) or the next day's vote.
        fouled = [s for s in leaving if s.left in ("fouls", "disq")]
        if fouled:
            vote_phase = index if index % 2 == 0 else index + 1
            if any(s.left == "voted" for s in by_phase.get(vote_phase, [])):
                errors.append(f"{where}: a vote-out despite special situations 1-2")
        for s in leaving:
            if s.team == RED:
                reds -= 1
            else:
                blacks -= 1
        if blacks == 0:
            decided_at, outcome = index, RED
        elif blacks >= reds:
            decided_at, outcome = index, BLACK
    if outcome != g.result:
        errors.append(f"{where}: departures say {outcome}, protocol says {g.result}")
    return errors


def _best_move_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    for s in g.seats:
        if not s.best_move:
            continue
        named = best_move_seats(s.best_move)
        if (s.left, s.when) != ("killed", "N1"):
            errors.append(f"{where} seat {s.seat}: best move but not killed on night 1")
        if s.team != RED:
            errors.append(f"{where} seat {s.seat}: best move by a black player")
        if len(named) != 3 or len(set(named)) != 3 or s.seat in named:
            errors.append(f"{where} seat {s.seat}: best move {s.best_move!r}")
        if not all(1 <= n <= 10 for n in named):
            errors.append(f"{where} seat {s.seat}: best move out of 1-10")
    return errors


def _award_errors(g: Game) -> list[str]:
    where = f"game {g.id}"
    errors = []
    awards = Counter(s.bonus for s in g.seats if s.bonus)
    if g.result == DRAW and awards:
        errors.append(f"{where}: awards in a draw")
    if any(n > 1 for n in awards.values()):
        errors.append(f"{where}: an award type given twice")
    for s in g.seats:
        if s.bonus in ("BP", "BP2") and s.team != g.result:
            errors.append(f"{where} seat {s.seat}: {s.bonus} to a loser")
        if s.bonus == "BPL" and s.team == g.result:
            errors.append(f"{where} seat {s.seat}: BPL to a winner")
    return errors


# ---------------------------------------------------------------------------
# Independent calculator: regulation 8.2-8.6, exact fractions
# ---------------------------------------------------------------------------

AWARD_POINTS = {"BP": Fraction(1), "BP2": Fraction(1, 2), "BPL": Fraction(1, 2)}
CRITERIA = ["total", "additional", "wins", "wins_don_sheriff", "killed_first_night"]


def best_move_points(seat: Seat, game: Game) -> Fraction:
    """8.3: a red player killed on night 1 naming 3 blacks gets 1/2, naming 2 gets 1/4."""
    if not seat.best_move or seat.team != RED or (seat.left, seat.when) != ("killed", "N1"):
        return Fraction(0)
    blacks = {s.seat for s in game.seats if s.team == BLACK}
    hits = len(set(best_move_seats(seat.best_move)) & blacks)
    return {3: Fraction(1, 2), 2: Fraction(1, 4)}.get(hits, Fraction(0))


@dataclass
class Line:
    player: str
    win_points: Fraction = Fraction(0)
    best_move: Fraction = Fraction(0)
    awards: Fraction = Fraction(0)
    penalties: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    wins_don_sheriff: int = 0
    killed_first_night: int = 0
    notes: list = field(default_factory=list)

    @property
    def additional(self) -> Fraction:
        return self.best_move + self.awards + self.penalties

    @property
    def total(self) -> Fraction:
        return self.win_points + self.additional


@dataclass
class Standings:
    games: int
    red_wins: int
    black_wins: int
    draws: int
    heavy_side: str | None
    heavy_games: int
    k: Fraction
    rows: list  # of (place, place_range, Line, decided_by)
    removed: list


def coefficient_k(games: list[Game]) -> tuple[int, int, int, str | None, int, Fraction]:
    """8.5: K = 1 + (N/2 - n)/(N/2); N counts draws; n = wins of the side with fewer wins."""
    n_games = len(games)
    red = sum(g.result == RED for g in games)
    black = sum(g.result == BLACK for g in games)
    if red == black:
        return n_games, red, black, None, 0, Fraction(1)
    heavy, n = (RED, red) if red < black else (BLACK, black)
    half = Fraction(n_games, 2)
    return n_games, red, black, heavy, n, 1 + (half - n) / half


def compute(games: list[Game]) -> Standings:
    n_games, red, black, heavy, n, k = coefficient_k(games)
    removed = [nick for nick, _club, _city, gone in PLAYERS if gone]
    lines = {nick: Line(nick) for nick, *_ in PLAYERS}
    for g in games:
        for s in g.seats:
            line = lines[s.player]
            line.games += 1
            if s.team == g.result:
                points = 2 * (k if g.result == heavy else 1)
                line.win_points += points
                line.wins += 1
                as_role = ""
                if s.role in ("D", "S"):
                    line.wins_don_sheriff += 1
                    as_role = " as Don" if s.role == "D" else " as Sheriff"
                line.notes.append(f"g{g.id} {g.result} win{as_role} +{points}")
            if (s.left, s.when) == ("killed", "N1"):
                line.killed_first_night += 1
                line.notes.append(f"g{g.id} killed N1")
            bm = best_move_points(s, g)
            line.best_move += bm
            if s.best_move:
                line.notes.append(f"g{g.id} best move {s.best_move} +{bm}")
            if s.bonus:
                line.awards += AWARD_POINTS[s.bonus]
                line.notes.append(f"g{g.id} {BONUS_LABEL[s.bonus]} +{AWARD_POINTS[s.bonus]}")
            if s.left == "disq":
                line.penalties -= 1
                line.notes.append(f"g{g.id} disqualified -1")
    ranked = sorted(
        (line for line in lines.values() if line.player not in removed),
        key=lambda x: (*(-value for value in criteria_values(x)), x.player),
    )
    decided = []
    for upper, lower in pairwise(ranked):
        pairs = zip(CRITERIA, criteria_values(upper), criteria_values(lower), strict=True)
        decided.append(next((name for name, a, b in pairs if a != b), "tied"))
    decided.append("total")
    rows = []
    start = 0
    for i in range(len(ranked)):
        if decided[i] != "tied":
            first, last = start + 1, i + 1
            place_range = str(first) if first == last else f"{first}–{last}"
            rows += [(first, place_range, ranked[j], decided[j]) for j in range(start, i + 1)]
            start = i + 1
    return Standings(n_games, red, black, n_games - red - black, heavy, n, k, rows, removed)


def criteria_values(line: Line) -> tuple:
    return (line.total, line.additional, line.wins, line.wins_don_sheriff, line.killed_first_night)
