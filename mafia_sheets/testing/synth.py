"""Seeded synthetic tournaments whose every game is valid by the FIIM regulation.

Used by the benchmark and by tests: a correct `check` must find nothing in what
:func:`generate` returns. All games are simulated at once, phase by phase, with numpy
(one phase of 100,000 games is a handful of array operations), so a season of 100,000
games takes a few seconds; writing it to xlsx is the slow part and is the writer's cost.

Game flow (SPEC §2.4, §5): day 1 vote (may remove nobody), then night kill (at most
one, may miss) and day vote in turn. Red wins when the last black leaves, black wins
when blacks ≥ reds after a phase; the game stops there. Rare fouled-out and
disqualified players cancel that day's vote (or the next day's vote after a night
foul-out), so special situations 1–2 never arise. Five empty phases in a row starting
with a night (Нk, Д(k+1), Н(k+1), Д(k+2), Н(k+2)) are a draw (special situation 9, as the
game's software reads it): games meant as draws stall from a chosen night on; every other
game gets a kill on the night that would complete such a window, so that it never draws.
Shorter quiet runs (a missed night, a day without a vote-out) happen as they come.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import IO, NamedTuple

import numpy as np

from ..reading.columns import COLUMNS
from ..report.engine import Sheet, Style, open_book
from ..text import Text
from ..vocab import SETTINGS, SHEETS, display_value, phase_name

ROLES = ("civilian", "sheriff", "mafia", "don")
LEFT = ("", "killed", "voted", "fouled", "disqualified")  # 0 = stayed to the end
RESULTS = ("red", "black", "draw")
BONUSES = ("", "bp", "bp2", "bpl")
SEATS = 10

_CIVILIAN, _SHERIFF, _MAFIA, _DON = range(4)
_STAYED, _KILLED, _VOTED, _FOULED, _DISQUALIFIED = range(5)
_RED, _BLACK, _DRAW = range(3)
_ROLE_DECK = np.array([_CIVILIAN] * 6 + [_SHERIFF, _MAFIA, _MAFIA, _DON], dtype=np.int8)
DRAW_WINDOW = 5  # special situation 9: quiet phases from a night that end a game as a draw
# A game cannot last longer: a departure at least every 6 phases (the day after a night
# departure, then a window of 5), and at most 8 departures before the game is decided.
_MAX_PHASES = 60


@dataclass(frozen=True)
class Odds:
    """How often things happen; tuned so the season looks like a real one."""

    vote_day1: float = 0.55  # the first day often ends without anyone voted out
    vote_later: float = 0.85
    black_vote_weight: float = 1.8  # reds find blacks more often than chance
    kill: float = 0.9  # a night may miss
    day_foul: float = 0.02
    day_disqualify: float = 0.004
    night_foul: float = 0.006
    best_move: float = 0.6  # share of red first-night victims who name three seats
    best_move_black_weight: float = 2.5
    bp: float = 0.35
    bp2: float = 0.25
    bpl: float = 0.3
    fouls: tuple[float, float, float, float] = (0.55, 0.28, 0.12, 0.05)  # 0..3 fouls


@dataclass(frozen=True)
class SynthProtocol:
    """A generated tournament: each sheet's columns as arrays of canonical codes.

    `games` and `seats` are keyed by the column codes of :data:`reading.columns.COLUMNS`. Coded
    columns hold indexes into :data:`ROLES`, :data:`LEFT`, :data:`RESULTS`,
    :data:`BONUSES`; `seats["player"]` indexes `players`; `seats["when"]` is the phase
    ordinal (Д1 = 1, Н1 = 2 …, 0 = stayed); `seats["best_move"]` has three seats per row
    (zeros = none); `games["end_phase"]` is the phase that decided the game (or, for a
    draw, the last of its :data:`DRAW_WINDOW` empty phases). `settings` are (setting key,
    value) pairs.
    """

    seed: int
    players: tuple[str, ...]
    clubs: tuple[str, ...]
    settings: tuple[tuple[str, str], ...]
    games: dict[str, np.ndarray]
    seats: dict[str, np.ndarray]
    judges: tuple[str, ...]

    @property
    def n_games(self) -> int:
        return len(self.games["game"])

    def by_game(self, column: str) -> np.ndarray:
        """A seat column as a (games, 10) matrix, seat 1 in column 0."""
        values = self.seats[column]
        return values.reshape((self.n_games, SEATS, *values.shape[1:]))

    def to_xlsx(
        self,
        target: str | IO[bytes],
        *,
        lang: str = "ru",
        shuffle_columns: bool = False,
        seed: int = 0,
        extras: bool = False,
    ) -> None:
        """Write the protocol workbook of SPEC §2 (the report's engine, constant memory).

        `shuffle_columns` permutes each sheet's columns (column order is free);
        `extras` adds an ignored comment column and an ignored notes sheet.
        """
        order = np.random.default_rng(seed)
        with open_book(streamed=True) as book:
            for sheet, columns in _sheet_columns(self, lang, extras):
                names = list(columns)
                if shuffle_columns:
                    names = [names[i] for i in order.permutation(len(names))]
                _write_sheet(book.sheet(SHEETS[sheet](lang)), names, [columns[n] for n in names])
            if extras:
                notes = book.sheet(Text("Заметки", "Notes")(lang))
                notes.write(0, 0, "synthetic")
                notes.write(0, 1, self.seed)
            data = book.close()
        if isinstance(target, str):
            with open(target, "wb") as out:
                out.write(data)
        else:
            target.write(data)


def generate(
    games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    draws: float = 0.1,
    tables: int | None = None,
    odds: Odds | None = None,
) -> SynthProtocol:
    """A seeded tournament of `games` valid games.

    Players default to max(20, games // 5); tables per round default to everyone
    playing every round (players // 10). Each round seats every player at most once.
    `draws` is the share of games meant to end in a draw (a few of them get decided
    before they stall, so the actual share is slightly lower).
    """
    n_players = max(20, games // 5) if players is None else players
    n_tables = max(1, min(n_players // SEATS, games)) if tables is None else tables
    _validate(games, n_players, n_tables, draws)
    odds = odds or Odds()
    rng = np.random.default_rng(seed)
    role = _deal_roles(rng, games)
    black = role >= _MAFIA
    stall = _stall_nights(rng, games, draws)
    left, when, result, end_phase = _play(rng, black, stall, odds)
    fouls = _fouls(rng, left, odds)
    best_move = _best_moves(rng, black, left, when, odds)
    bonus = _awards(rng, black, left, result, odds)
    rounds, table, seat_player = _seat_players(rng, games, n_players, n_tables)
    game_ids = np.arange(1, games + 1, dtype=np.int64)
    seats: dict[str, np.ndarray] = {
        "game": np.repeat(game_ids, SEATS),
        "seat": np.tile(np.arange(1, SEATS + 1, dtype=np.int8), games),
        "player": seat_player.ravel(),
        "role": role.ravel(),
        "fouls": fouls.ravel(),
        "left": left.ravel(),
        "when": when.ravel(),
        "best_move": best_move.reshape(games * SEATS, 3),
        "bonus": bonus.ravel(),
    }
    game_cols = {
        "game": game_ids,
        "round": rounds + 1,
        "table": table + 1,
        "judge": table % len(_JUDGES),
        "result": result,
        "ended": _end_times(rounds, table, n_tables),
        "annulled": np.zeros(games, dtype=bool),
        "end_phase": end_phase,
    }
    return SynthProtocol(
        seed=seed,
        players=_nicknames(n_players),
        clubs=_CLUBS,
        settings=_settings(seed),
        games=game_cols,
        seats=seats,
        judges=_JUDGES,
    )


def _validate(games: int, players: int, tables: int, draws: float) -> None:
    if games < 1:
        raise ValueError("games must be at least 1")
    if players < SEATS:
        raise ValueError(f"a game needs {SEATS} players, got {players}")
    if tables < 1 or tables * SEATS > players:
        raise ValueError(
            f"{tables} tables per round need {tables * SEATS} players, only {players} given"
        )
    if not 0 <= draws <= 1:
        raise ValueError("draws is a share between 0 and 1")


def _deal_roles(rng: np.random.Generator, games: int) -> np.ndarray:
    """Each game's seats get a shuffled deck of 6 civilians, sheriff, 2 mafia, don."""
    order = rng.random((games, SEATS)).argsort(axis=1)
    return _ROLE_DECK[order]


def _stall_nights(rng: np.random.Generator, games: int, draws: float) -> np.ndarray:
    """Phase from which a game meant as a draw has no more departures (0 = never)."""
    meant = rng.random(games) < draws
    night = rng.choice([2, 4, 6], size=games, p=[0.3, 0.4, 0.3])
    return np.where(meant, night, 0).astype(np.int16)


def _pick(
    rng: np.random.Generator, eligible: np.ndarray, weight: np.ndarray | None = None
) -> np.ndarray:
    """One random eligible seat index per row (weighted keys); rows with none get 0."""
    keys = rng.random(eligible.shape)
    if weight is not None:
        keys *= weight
    keys[~eligible] = -1.0
    best: np.ndarray = keys.argmax(axis=1)
    return best


def _play(
    rng: np.random.Generator, black: np.ndarray, stall: np.ndarray, odds: Odds
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Simulate every game phase by phase; returns left, when, result, end phase."""
    games = black.shape[0]
    left = np.zeros((games, SEATS), dtype=np.int8)
    when = np.zeros((games, SEATS), dtype=np.int16)
    result = np.full(games, -1, dtype=np.int8)
    end_phase = np.zeros(games, dtype=np.int16)
    quiet = np.zeros(games, dtype=np.int8)  # empty phases in a row, counted from a night
    no_vote = np.zeros(games, dtype=bool)  # a night foul-out cancels the next day's vote
    active = np.arange(games)
    for phase in range(1, _MAX_PHASES + 1):
        if active.size == 0:
            break
        state = _Phase(
            phase,
            left[active] == _STAYED,
            black[active],
            (stall[active] > 0) & (phase >= stall[active]),
            quiet[active],
            no_vote[active],
        )
        seat, code = (_day if phase % 2 == 1 else _night)(rng, state, odds)
        no_vote[active] = code[:, -1] == _FOULED if phase % 2 == 0 else False
        rows = np.repeat(np.arange(active.size), seat.shape[1])
        hit = code.ravel() > 0
        left[active[rows[hit]], seat.ravel()[hit]] = code.ravel()[hit]
        when[active[rows[hit]], seat.ravel()[hit]] = phase
        departed = np.asarray((code > 0).any(axis=1))
        quiet[active] = _quiet_after(quiet[active], departed, night=phase % 2 == 0)
        done = _decide(left[active] == _STAYED, black[active], quiet[active])
        finished = done >= 0
        result[active[finished]] = done[finished]
        end_phase[active[finished]] = phase
        active = active[~finished]
    if active.size:
        raise RuntimeError("a game did not end within the phase limit")
    return left, when, result, end_phase


class _Phase(NamedTuple):
    """The active games at the start of one phase."""

    ordinal: int
    alive: np.ndarray  # (games, 10)
    black: np.ndarray  # (games, 10)
    frozen: np.ndarray  # a game meant as a draw that has stalled: nobody leaves
    quiet: np.ndarray  # the situation 9 counter: quiet phases so far, from a night
    no_vote: np.ndarray  # a night foul-out cancels this day's vote


def _day(rng: np.random.Generator, state: _Phase, odds: Odds) -> tuple[np.ndarray, np.ndarray]:
    """A day: maybe a foul-out or disqualification (then no vote), else maybe a vote."""
    u = rng.random((state.alive.shape[0], 2))
    foul = (u[:, 0] < odds.day_foul) & ~state.frozen
    disq = (u[:, 0] >= odds.day_foul) & (u[:, 0] < odds.day_foul + odds.day_disqualify)
    disq &= ~state.frozen
    chance = odds.vote_day1 if state.ordinal == 1 else odds.vote_later
    vote = (u[:, 1] < chance) & ~foul & ~disq & ~state.frozen & ~state.no_vote
    weight = np.where(state.black, odds.black_vote_weight, 1.0)
    seat = np.where(vote, _pick(rng, state.alive, weight), _pick(rng, state.alive))
    code = np.select([foul, disq, vote], [_FOULED, _DISQUALIFIED, _VOTED], _STAYED)
    return seat[:, None], code.astype(np.int8)[:, None]


def _night(rng: np.random.Generator, state: _Phase, odds: Odds) -> tuple[np.ndarray, np.ndarray]:
    """A night: the mafia kill a red (or miss), rarely someone fouls out as well.

    On the night that would complete a quiet window the kill is forced, so that only
    games meant as draws (frozen) meet special situation 9.
    """
    alive, frozen = state.alive, state.frozen
    u = rng.random((alive.shape[0], 2))
    kill = ((u[:, 0] < odds.kill) | (state.quiet == DRAW_WINDOW - 1)) & ~frozen
    victim = _pick(rng, alive & ~state.black)
    others = alive.copy()
    others[np.arange(alive.shape[0]), victim] &= ~kill
    foul = (u[:, 1] < odds.night_foul) & ~frozen & others.any(axis=1)
    seat = np.stack([victim, _pick(rng, others)], axis=1)
    code = np.stack([np.where(kill, _KILLED, _STAYED), np.where(foul, _FOULED, _STAYED)], axis=1)
    return seat, code.astype(np.int8)


def _quiet_after(quiet: np.ndarray, departed: np.ndarray, *, night: bool) -> np.ndarray:
    """Situation 9 counter: a night starts it, a day continues it, a departure resets it."""
    counting = quiet > 0
    grown = np.where(counting, quiet + 1, 1 if night else 0)
    return np.where(departed, 0, grown).astype(np.int8)


def _decide(alive: np.ndarray, black: np.ndarray, quiet: np.ndarray) -> np.ndarray:
    """Result code after a phase: red when no black is left, black when blacks ≥ reds,
    draw after a window of empty phases from a night; -1 while the game goes on."""
    blacks = (alive & black).sum(axis=1)
    reds = (alive & ~black).sum(axis=1)
    return np.select([blacks == 0, blacks >= reds, quiet == DRAW_WINDOW], [_RED, _BLACK, _DRAW], -1)


def _fouls(rng: np.random.Generator, left: np.ndarray, odds: Odds) -> np.ndarray:
    """0–3 fouls for everyone, exactly 4 for the fouled-out."""
    fouls = rng.choice(4, size=left.shape, p=list(odds.fouls)).astype(np.int8)
    fouls[left == _FOULED] = 4
    return fouls


def _best_moves(
    rng: np.random.Generator, black: np.ndarray, left: np.ndarray, when: np.ndarray, odds: Odds
) -> np.ndarray:
    """Three distinct seats (not one's own) named by some red players killed at night 1."""
    best = np.zeros((*left.shape, 3), dtype=np.int8)
    victim = (left == _KILLED) & (when == 2) & ~black
    games = np.flatnonzero(victim.any(axis=1) & (rng.random(left.shape[0]) < odds.best_move))
    if games.size == 0:
        return best
    seat = victim[games].argmax(axis=1)
    keys = rng.random((games.size, SEATS)) * np.where(
        black[games], odds.best_move_black_weight, 1.0
    )
    keys[np.arange(games.size), seat] = -1.0
    named = np.argsort(-keys, axis=1)[:, :3] + 1
    best[games, seat] = named
    return best


def _awards(
    rng: np.random.Generator, black: np.ndarray, left: np.ndarray, result: np.ndarray, odds: Odds
) -> np.ndarray:
    """ЛИ and ЛИ2 to two different winners, ЛИП to a loser; none in draws or to the
    disqualified."""
    bonus = np.zeros(left.shape, dtype=np.int8)
    decided = np.flatnonzero(result != _DRAW)
    winner = black[decided] == (result[decided] == _BLACK)[:, None]
    fair = left[decided] != _DISQUALIFIED
    u = rng.random((decided.size, 3))
    ranked = np.argsort(-np.where(winner & fair, rng.random(winner.shape), -1.0), axis=1)
    count = (winner & fair).sum(axis=1)
    give = (u[:, 0] < odds.bp) & (count >= 1)
    bonus[decided[give], ranked[give, 0]] = BONUSES.index("bp")
    give = (u[:, 1] < odds.bp2) & (count >= 2)
    bonus[decided[give], ranked[give, 1]] = BONUSES.index("bp2")
    losers = ~winner & fair
    give = (u[:, 2] < odds.bpl) & losers.any(axis=1)
    bonus[decided[give], _pick(rng, losers)[give]] = BONUSES.index("bpl")
    return bonus


def _seat_players(
    rng: np.random.Generator, games: int, players: int, tables: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round and table of each game, and who sits where: a fresh draw every round."""
    game = np.arange(games)
    rounds, table = game // tables, game % tables
    n_rounds = int(rounds[-1]) + 1
    drawn = rng.random((n_rounds, players)).argsort(axis=1)[:, : tables * SEATS]
    seated = drawn.reshape(n_rounds * tables, SEATS)[:games]
    return rounds, table, seated.astype(np.int32)


def _end_times(rounds: np.ndarray, table: np.ndarray, tables: int) -> np.ndarray:
    """Strictly increasing end times: tables of a round finish a few seconds apart."""
    step = max(1, 2400 // tables)  # seconds between tables finishing
    spacing = max(7200, 4800 + tables * step)  # one round, seconds
    per_day = max(1, 36000 // spacing)
    day = -(-spacing // 86400) * 86400
    start = (rounds // per_day) * day + (rounds % per_day) * spacing + 4200 + table * step
    stamps: np.ndarray = _EPOCH + start.astype("timedelta64[s]")
    return stamps


_EPOCH = np.datetime64("2024-03-02T11:00:00", "s")

_STEM_WORDS = """Барон Комиссар Лис Сова Пилот Гром Шторм Волна Ветер Кедр Фауст Граф Маэстро
    Рыцарь Янтарь Пума Сокол Байкал Тайга Гефест Лотос Нептун Орион Цезарь Бархат Дракон Жасмин
    Изумруд Кобра Лавина Магнат Нарцисс Омега Пантера Рубин Сапфир Титан Ураган Феникс Хамелеон
    Циклон Чароит Шаман Щит Эхо Юпитер"""
_STEMS = tuple(_STEM_WORDS.split())
_CLUBS = ("Красная площадь", "Полночь", "Северный ветер", "Дон Карлеоне", "Лунный свет")
_JUDGES = ("Иванова", "Петров", "Смирнов", "Кузнецова", "Попов", "Соколова", "Лебедев")


def _nicknames(count: int) -> tuple[str, ...]:
    """Unique nicknames, no two alike even after folding case, spaces or look-alikes."""
    stems = len(_STEMS)
    return tuple(_STEMS[i % stems] + (str(i // stems) if i >= stems else "") for i in range(count))


def _settings(seed: int) -> tuple[tuple[str, str], ...]:
    return (
        ("name", f"Synthetic {seed}"),
        ("city", "Москва"),
        ("chief_judge", "Орлова"),
        ("apply_k", "yes"),
        ("draws_in_n", "yes"),
        ("draw_quiet_phases", str(DRAW_WINDOW)),
        ("win_when_disqualified", "yes"),
    )


def _shown(vocab: str, codes: tuple[str, ...], values: np.ndarray, lang: str) -> list[object]:
    """Coded values as the display words of `lang` (code "" → blank)."""
    words = [display_value(vocab, code, lang) if code else None for code in codes]
    return list(np.array(words, dtype=object)[values].tolist())


def _sheet_columns(
    proto: SynthProtocol, lang: str, extras: bool
) -> list[tuple[str, dict[str, list[object]]]]:
    """Each sheet's columns as display values (header → cells), in template order."""
    g, s, count = proto.games, proto.seats, len(proto.players)
    no = display_value("yesno", "no", lang)
    phases = np.array(
        [None, *(phase_name(p, lang) for p in range(1, _MAX_PHASES + 1))], dtype=object
    )
    cells: dict[str, dict[str, list[object]]] = {
        "tournament": {
            "setting": [SETTINGS[key](lang) for key, _ in proto.settings],
            "value": [
                display_value("yesno", v, lang) if v in ("yes", "no") else v
                for _, v in proto.settings
            ],
        },
        "players": {
            "player": list(proto.players),
            "club": [proto.clubs[i % len(proto.clubs)] for i in range(count)],
            "city": ["Москва"] * count,
            "removed": [no] * count,
        },
        "games": {
            "game": g["game"].tolist(),
            "round": g["round"].tolist(),
            "table": g["table"].tolist(),
            "judge": np.array(proto.judges, dtype=object)[g["judge"]].tolist(),
            "result": _shown("result", RESULTS, g["result"], lang),
            "ended": g["ended"].astype("datetime64[s]").tolist(),
            "annulled": [no] * proto.n_games,
        },
        "seats": {
            "game": s["game"].tolist(),
            "seat": s["seat"].tolist(),
            "player": np.array(proto.players, dtype=object)[s["player"]].tolist(),
            "role": _shown("role", ROLES, s["role"], lang),
            "fouls": s["fouls"].tolist(),
            "left": _shown("left", LEFT, s["left"], lang),
            "when": phases[s["when"]].tolist(),
            "best_move": _best_move_text(s["best_move"]),
            "bonus": _shown("bonus", BONUSES, s["bonus"], lang),
        },
    }
    sheets = [
        (sheet, {COLUMNS[sheet][code](lang): values for code, values in columns.items()})
        for sheet, columns in cells.items()
    ]
    if extras:
        comment = Text("Комментарий", "Comment")(lang)
        sheets[2][1][comment] = [None if i % 5 else "ок" for i in range(proto.n_games)]
    return sheets


def _best_move_text(best: np.ndarray) -> list[object]:
    """`3 5 7`, `3,5,7` or `3;5;7` (all accepted spellings) where a best move was named."""
    text: list[object] = [None] * best.shape[0]
    for row in np.flatnonzero(best[:, 0]).tolist():
        seats = best[row].tolist()
        text[row] = " ,;"[row % 3].join(str(seat) for seat in seats)
    return text


STAMP = Style(num_format="yyyy-mm-dd hh:mm")


def _write_sheet(sheet: Sheet, headers: list[str], columns: list[list[object]]) -> None:
    """Header row, then every row in order (constant memory flushes row by row)."""
    for col, header in enumerate(headers):
        sheet.write(0, col, header)
    for row, cells in enumerate(zip(*columns, strict=True), start=1):
        for col, value in enumerate(cells):
            style = STAMP if isinstance(value, dt.datetime) else None
            sheet.write(row, col, value, style)
