"""SPEC §5.2: one game against the regulation — best move, judge's awards, fouls, phases.

Only games whose structure is sound are judged here (the gate of :mod:`.gate`).

The departure timeline (who left in which phase, when the game was decided, and whether
the result agrees) is judged in :mod:`.situations`, next to the special situations that
read the same timeline; this module owns the seat-level rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, define
from ..text import Text
from . import check
from .gate import Context, Regulated, at_rows

BEST_MOVE_NOT_VICTIM = define(
    "best-move-not-first-victim",
    "error",
    Text(
        "Лучший ход записан игроку, который не был убит в первую ночь",
        "A best move is recorded for a player who was not killed on night 1",
    ),
    Text(
        "лучший ход только у игрока с «Выбыл = убит» и «Когда = Н1»",
        "a best move only for the player with Left = killed and When = N1",
    ),
    Text(
        "Перенесите лучший ход в строку убитого в Н1 или исправьте «Выбыл»/«Когда»",
        "Move the best move to the row of the player killed on N1, or fix Left/When",
    ),
)
BEST_MOVE_TWICE = define(
    "best-move-twice",
    "error",
    Text("Больше одного лучшего хода в игре {game}", "More than one best move in game {game}"),
    Text("не больше одного лучшего хода за игру", "at most one best move per game"),
    Text(
        "Оставьте лучший ход только у одного игрока, убитого в первую ночь",
        "Keep the best move of one player killed on night 1 only",
    ),
)
BEST_MOVE_RANGE = define(
    "best-move-seat-range",
    "error",
    Text(
        "В лучшем ходе «{value}» есть место вне 1–10: {bad}",
        "Best move “{value}” names a seat outside 1–10: {bad}",
    ),
    Text("номера мест 1–10", "seat numbers 1–10"),
    Text("Исправьте номера мест в лучшем ходе", "Fix the seat numbers of the best move"),
)
BEST_MOVE_REPEATED = define(
    "best-move-repeated-seat",
    "error",
    Text(
        "В лучшем ходе «{value}» место {bad} названо дважды",
        "Best move “{value}” names seat {bad} twice",
    ),
    Text("три разных места", "three different seats"),
    Text("Запишите три разных номера мест", "Write three different seat numbers"),
)
BEST_MOVE_SELF = define(
    "best-move-self",
    "error",
    Text(
        "В лучшем ходе «{value}» игрок называет своё место {bad}",
        "Best move “{value}” names the player's own seat {bad}",
    ),
    Text("места других игроков", "other players' seats"),
    Text(
        "Исправьте номер места: себя в лучший ход не называют",
        "Fix the seat number: a player does not name himself",
    ),
)
BEST_MOVE_TOO_MANY = define(
    "best-move-too-many",
    "error",
    Text(
        "В лучшем ходе «{value}» больше трёх мест",
        "Best move “{value}” names more than three seats",
    ),
    Text("ровно три места (регламент 8.3)", "exactly three seats (rule 8.3)"),
    Text("Оставьте три места, названные игроком", "Keep the three seats the player named"),
)
BEST_MOVE_SHORT = define(
    "best-move-short",
    "warning",
    Text(
        "В лучшем ходе «{value}» меньше трёх мест",
        "Best move “{value}” names fewer than three seats",
    ),
    Text("три места (регламент 8.3)", "three seats (rule 8.3)"),
    Text(
        "Проверьте по бланку: обычно называют три места",
        "Check the paper form: three seats are normally named",
    ),
)
AWARD_TO_LOSER = define(
    "award-to-loser",
    "error",
    Text(
        "«{value}» у игрока проигравшей команды", "“{value}” given to a player of the losing team"
    ),
    Text(
        "ЛИ и ЛИ2 — только победителям (8.4.2–8.4.3)", "BP and BP2 go to winners only (8.4.2–8.4.3)"
    ),
    Text(
        "Проигравшему можно дать только ЛИП; исправьте балл или результат игры",
        "A loser may get BPL only; fix the award or the game's result",
    ),
)
AWARD_TO_WINNER = define(
    "award-to-winner",
    "error",
    Text("ЛИП у игрока победившей команды", "BPL given to a player of the winning team"),
    Text("ЛИП — только проигравшим (8.4.4)", "BPL goes to losers only (8.4.4)"),
    Text(
        "Победителю можно дать ЛИ или ЛИ2; исправьте балл или результат игры",
        "A winner may get BP or BP2; fix the award or the game's result",
    ),
)
AWARD_IN_DRAW = define(
    "award-in-draw",
    "error",
    Text("Доп. балл «{value}» в ничейной игре", "Award “{value}” in a drawn game"),
    Text("в ничьей доп. баллов нет (8.4.5)", "no awards in a draw (8.4.5)"),
    Text(
        "Удалите доп. балл или исправьте результат игры",
        "Delete the award or fix the game's result",
    ),
)
AWARD_TWICE = define(
    "award-twice",
    "error",
    Text("«{value}» дважды в игре {game}", "“{value}” twice in game {game}"),
    Text("каждый доп. балл — не больше одного за игру", "each award at most once per game"),
    Text("Оставьте этот доп. балл одному игроку", "Give this award to one player only"),
)
TOO_MANY_AWARDS = define(
    "too-many-awards",
    "error",
    Text("Больше трёх доп. баллов в игре {game}", "More than three awards in game {game}"),
    Text("не больше трёх доп. баллов (8.4.1)", "at most three awards (8.4.1)"),
    Text("Оставьте доп. баллы трём игрокам", "Keep the awards of three players"),
)
FOUR_FOULS_STAYED = define(
    "four-fouls-stayed",
    "error",
    Text(
        "4 фола, но игрок остался за столом до конца",
        "4 fouls, yet the player stayed at the table to the end",
    ),
    Text("после 4-го фола игрок покидает стол", "a player leaves the table on the 4th foul"),
    Text(
        "Исправьте число фолов или впишите «Выбыл = 4 фола» и фазу",
        "Fix the fouls or set Left = fouled out and its phase",
    ),
)
FOULED_OUT_FEW = define(
    "fouled-out-few-fouls",
    "error",
    Text("Удалён по фолам, но фолов {fouls}", "Fouled out with {fouls} fouls"),
    Text("4 фола у удалённого по фолам", "4 fouls for a player who fouled out"),
    Text("Впишите 4 в «Фолы» или исправьте «Выбыл»", "Type 4 in Fouls or fix Left"),
)
KILL_IN_DAY = define(
    "kill-in-day",
    "error",
    Text("«Убит» в дневной фазе {value}", "Killed in the day phase {value}"),
    Text("убивают ночью: Н1, Н2 …", "kills happen at night: N1, N2 …"),
    Text(
        "Исправьте фазу (ночь) или «Выбыл» (заголосован, 4 фола …)",
        "Fix the phase (a night) or Left (voted out, fouled out …)",
    ),
)
VOTE_IN_NIGHT = define(
    "vote-in-night",
    "error",
    Text("«Заголосован» в ночной фазе {value}", "Voted out in the night phase {value}"),
    Text("голосуют днём: Д1, Д2 …", "votes happen by day: D1, D2 …"),
    Text(
        "Исправьте фазу (день) или «Выбыл» (убит, 4 фола …)",
        "Fix the phase (a day) or Left (killed, fouled out …)",
    ),
)
TWO_KILLS = define(
    "two-kills-one-night",
    "error",
    Text("Два убийства в ночь {value} игры {game}", "Two kills in night {value} of game {game}"),
    Text("за ночь убивают не больше одного", "at most one kill per night"),
    Text(
        "Исправьте фазу или «Выбыл» одного из убитых",
        "Fix the phase or Left of one of the killed players",
    ),
)


@check(
    BEST_MOVE_NOT_VICTIM,
    BEST_MOVE_RANGE,
    BEST_MOVE_REPEATED,
    BEST_MOVE_SELF,
    BEST_MOVE_SHORT,
    BEST_MOVE_TOO_MANY,
    BEST_MOVE_TWICE,
)
def best_moves(context: Context) -> Iterator[Finding]:
    """Regulation 8.3: only the first-night victim names seats, once per game."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.seats
    named = seats[seats["best_move"].notna()]
    if named.empty:
        return
    eligible = named["left"].eq("killed") & named["when"].eq(vocab.FIRST_NIGHT)
    yield from at_rows(gate.table, BEST_MOVE_NOT_VICTIM, "best_move", named[~eligible])
    victims = named[eligible]
    yield from at_rows(
        gate.table, BEST_MOVE_TWICE, "best_move", victims[victims.duplicated("game", keep=False)]
    )
    yield from _best_move_seats(gate, named)


def _best_move_seats(gate: Regulated, named: pd.DataFrame) -> Iterator[Finding]:
    """Each named seat 1–10, distinct, not one's own; three of them."""
    moves = named["best_move"].to_numpy(dtype=object)
    own = named["seat"].to_numpy(dtype=object)
    outside = [[s for s in m if not 1 <= s <= 10] for m in moves]
    repeated = [sorted({s for s in m if m.count(s) > 1}) for m in moves]
    self_named = np.array([s in m for s, m in zip(own, moves, strict=True)], dtype=bool)
    length = np.array([len(m) for m in moves])
    faults = ((BEST_MOVE_RANGE, outside), (BEST_MOVE_REPEATED, repeated))
    for code, bad in faults:  # the seats differ per row: one finding call per faulty row
        for position in np.flatnonzero([bool(b) for b in bad]):
            yield from at_rows(
                gate.table,
                code,
                "best_move",
                named.iloc[[int(position)]],
                bad=_seats(bad[position]),
            )
    for position in np.flatnonzero(self_named):
        yield from at_rows(
            gate.table, BEST_MOVE_SELF, "best_move", named.iloc[[int(position)]], bad=own[position]
        )
    yield from at_rows(gate.table, BEST_MOVE_TOO_MANY, "best_move", named[length > 3])
    yield from at_rows(gate.table, BEST_MOVE_SHORT, "best_move", named[length < 3])


def _seats(seats: list[int]) -> str:
    return ", ".join(map(str, seats))


AWARDS = ("bp", "bp2", "bpl")  # the regulation's judge's awards (8.4); other «Доп» marks aside


@check(AWARD_IN_DRAW, AWARD_TO_LOSER, AWARD_TO_WINNER, AWARD_TWICE, TOO_MANY_AWARDS)
def awards(context: Context) -> Iterator[Finding]:
    """Regulation 8.4: who may get ЛИ/ЛИ2/ЛИП, once each, three at most, none in a draw."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.seats
    given = seats[seats["bonus"].isin(AWARDS) & seats["result"].notna()]
    if given.empty:
        return
    # an edition may give ЛИ (its best player) to either team, in a draw too
    free = given["bonus"].eq("bp") & context.protocol.rules.bp_any_team
    draw = given["result"].eq("draw")
    yield from at_rows(gate.table, AWARD_IN_DRAW, "bonus", given[draw & ~free])
    decided = given[~draw]
    winner = decided["team"].eq(decided["result"])
    to_winners = decided["bonus"].isin(["bp", "bp2"]) & ~free[~draw]
    yield from at_rows(gate.table, AWARD_TO_LOSER, "bonus", decided[to_winners & ~winner])
    yield from at_rows(
        gate.table, AWARD_TO_WINNER, "bonus", decided[decided["bonus"].eq("bpl") & winner]
    )
    # Which of the awards is the wrong one only the judge knows: mark every one involved.
    many = decided.groupby("game", sort=False)["bonus"].transform("size") > 3
    yield from at_rows(gate.table, TOO_MANY_AWARDS, "bonus", decided[many])
    within = decided[~many]
    yield from at_rows(
        gate.table, AWARD_TWICE, "bonus", within[within.duplicated(["game", "bonus"], keep=False)]
    )


@check(FOULED_OUT_FEW, FOUR_FOULS_STAYED)
def fouls(context: Context) -> Iterator[Finding]:
    """The 4th foul removes a player from the table; fouling out takes four fouls."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.counted_seats
    count = np.nan_to_num(gate.coded("fouls", counted=True).numbers(), nan=0.0)
    left = gate.coded("left", counted=True)
    stayed = left.missing() & ~gate.coded("game", counted=True).isin(gate.partial)
    yield from at_rows(gate.table, FOUR_FOULS_STAYED, "fouls", seats[(count >= 4) & stayed])
    few = left.eq("fouled") & (count < 4)
    for fouls_found, rows in seats[few].groupby(count[few], sort=True):
        yield from at_rows(
            gate.table, FOULED_OUT_FEW, "left", rows, fouls=int(cast(int, fouls_found))
        )


@check(KILL_IN_DAY, TWO_KILLS, VOTE_IN_NIGHT)
def phases_of_departures(context: Context) -> Iterator[Finding]:
    """Kills happen at night, votes by day, one kill per night."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.counted_seats
    phase = gate.coded("when", counted=True).numbers()
    day = np.nan_to_num(phase) % 2 == 1
    night = ~np.isnan(phase) & ~day
    left = gate.coded("left", counted=True)
    killed = left.eq("killed")
    yield from at_rows(gate.table, KILL_IN_DAY, "when", seats[killed & day])
    yield from at_rows(gate.table, VOTE_IN_NIGHT, "when", seats[left.eq("voted") & night])
    kills = seats[killed & night]  # both kills: which phase is mistyped only the judge knows
    yield from at_rows(
        gate.table, TWO_KILLS, "when", kills[kills.duplicated(["game", "when"], keep=False)]
    )
