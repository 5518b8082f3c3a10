"""The departure timeline of a game: when it was decided, whether the result agrees (SPEC
§5.2), and the special situations 1–3, 9 and 10 of the regulation (SPEC §5.3).

The protocol records in which phase each player left (Д1 < Н1 < Д2 < Н2 …), not the
moment; departures of one phase count as simultaneous. After each phase the table holds
`reds` (of 7) and `blacks` (of 3). The game is decided at the first phase after which
blacks = 0 (red win) or blacks ≥ reds (black win).

Special situation 9 (a draw after «3 ночей и дней … начиная с ночи» without a departure)
is read as a window of quiet phases starting at a night: five by default (Нk, Д(k+1),
Н(k+1), Д(k+2), Н(k+2)), six or not at all by the tournament's setting. A game that went
on after a complete window gets one warning: the table's recorded result stands.

Situations 1–3 depend on the order of events inside a phase (was the 4th foul before or
after the vote's result?), which the protocol does not keep: those are warnings. Situation
7 would need the votes, which the protocol does not record: it is not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

import numpy as np
import pandas as pd

from .. import vocab
from ..findings import Finding, Phase, Phases, define, finding
from ..reading.unrecorded import NOT_RECORDED
from ..text import Plural, Text
from . import check
from .gate import Coded, Context, Regulated, at_rows, departure_quoted, game_ids

REDS, BLACKS = 7, 3
OUT = ("fouled", "disqualified")  # leaving the table by a 4th or disqualifying foul

AFTER_END = define(
    "departure-after-end",
    "error",
    Text(
        "Игрок выбыл в фазе {value}, но игра {game} уже решилась в фазе {phase}",
        "A player left in phase {value}, but game {game} was already decided in {phase}",
    ),
    Text(
        "после фазы {phase} никто не выбывает ({outcome})",
        "no departures after {phase} ({outcome})",
    ),
    Text(
        "Исправьте фазу выбывания — или «Выбыл»/«Когда» другого игрока, из-за которых "
        "игра закончилась раньше",
        "Fix this phase — or the Left/When of another player that ended the game earlier",
    ),
)
DRAW_MISSED = define(
    "draw-missed",
    "warning",
    Text(
        "Игрок выбыл в фазе {value}, но в фазах {quiet} никто не выбыл: по особой "
        "ситуации 9 игра {game} должна была закончиться ничьей после {end}",
        "A player left in phase {value}, but nobody left in {quiet}: by special "
        "situation 9 game {game} should have ended as a draw after {end}",
    ),
    Text(
        "после {window} фаз подряд без выбываний, начиная с ночи, присуждается ничья; "
        "записанный столом результат остаётся в силе, пока его не изменит протест",
        "{window} phases in a row without a departure, starting at a night, are a draw; "
        "the result the table recorded stands unless a protest changes it",
    ),
    Text(
        "Сверьте фазы с бланком: если выбывание в {quiet} пропущено — впишите его; "
        "если нет — результат меняет только решение по протесту (лист «Протесты»)",
        "Check the phases against the paper form: if a departure in {quiet} is missing, "
        "add it; if not, only a protest decision changes the result (Protests sheet)",
    ),
)
DRAW_RULE_OFF = define(
    "draw-rule-off",
    "warning",
    Text(
        "Ничья, хотя ничья по особой ситуации 9 на этом турнире не применяется "
        "(«Ничья после фаз без выбываний» = нет)",
        "Draw, although special situation 9 does not apply at this tournament "
        "(Draw after quiet phases = no)",
    ),
    Text(
        "без ситуации 9 игра заканчивается победой красных или чёрных",
        "without situation 9 a game ends with a red or a black win",
    ),
    Text(
        "Проверьте результат игры {game}; если ситуация 9 действует — укажите 5 или 6 "
        "на листе «Турнир»",
        "Check the result of game {game}; if situation 9 applies, set 5 or 6 on the "
        "Tournament sheet",
    ),
)
DEPARTURES_PARTIAL = define(
    "departures-partial",
    "warning",
    Text(
        "Записаны не все выбывания в {count}: конец игры, ничья по фазам и 4 фола "
        "у оставшихся за столом по ним не проверяются",
        "Not every departure is recorded in {count}: the game's end, a draw by quiet "
        "phases and 4 fouls of those still at the table are not checked against them",
    ),
    Text("все выбывания игры", "every departure of the game"),
    Text(
        "Если выбывания известны, впишите их на лист «Протокол» и очистите «Записаны "
        "выбывания»; иначе ничего делать не нужно",
        "If the departures are known, enter them on «Seats» and clear «Departures "
        "recorded»; otherwise there is nothing to do",
    ),
)
DEPARTURES_NOT_RECORDED = define(
    "departures-not-recorded",
    "warning",
    Text(
        "Выбывания не записаны в {count}: конец игры, ничья по фазам и 4 фола у "
        "оставшихся за столом не проверяются; результат взят как записан",
        "No departures are recorded in {count}: the game's end, a draw by quiet phases and "
        "4 fouls of those still at the table are not checked; the result stands as written",
    ),
    Text(
        "выбывания каждой игры: кто, как и в какой фазе",
        "every game's departures: who, how and in which phase",
    ),
    Text(
        "Если выбывания известны, впишите их; иначе ничего делать не нужно",
        "If the departures are known, record them; otherwise there is nothing to do",
    ),
)
RED_WIN_BLACKS_LEFT = define(
    "red-win-blacks-left",
    "error",
    Text(
        "Победа красных, но за столом остаются чёрные: {blacks} (красных {reds}){at}",
        "Red win, yet {blacks} black player(s) remain at the table (red {reds}){at}",
    ),
    Text("победа красных — когда выбыли все чёрные", "a red win once every black player has left"),
    Text(
        "Проверьте результат игры {game} и выбывания чёрных игроков",
        "Check the result of game {game} and the departures of the black players",
    ),
)
BLACK_WIN_REDS_MORE = define(
    "black-win-reds-outnumber",
    "error",
    Text(
        "Победа чёрных, но красных за столом больше: {reds} против {blacks}{at}",
        "Black win, yet the reds outnumber the blacks: {reds} against {blacks}{at}",
    ),
    Text(
        "победа чёрных — когда чёрных не меньше, чем красных",
        "a black win once the blacks are at least as many as the reds",
    ),
    Text(
        "Проверьте результат игры {game} и выбывания игроков",
        "Check the result of game {game} and the players' departures",
    ),
)
DRAW_DECIDED = define(
    "draw-already-decided",
    "error",
    Text(
        "Ничья, но по выбываниям игра решилась в фазе {phase}: {outcome}",
        "Draw, yet the departures decided the game in {phase}: {outcome}",
    ),
    Text(
        "ничья — только если игра не решилась (особая ситуация 9)",
        "a draw only when the game was not decided (special situation 9)",
    ),
    Text(
        "Исправьте результат игры {game} или выбывания игроков",
        "Fix the result of game {game} or the players' departures",
    ),
)
TEAM_REMOVAL_RESULT = define(
    "team-removal-result",
    "error",
    Text(
        "Результат «{value}», но игрок на месте {seat} удалён с поражением команды в {phase}",
        "Result “{value}”, yet the player in seat {seat} was removed with a team loss in {phase}",
    ),
    Text(
        "удаление с поражением команды — победа другой команды: {outcome}",
        "a team removal is the other team's win: {outcome}",
    ),
    Text(
        "Исправьте результат игры {game} или «Выбыл» игрока (если команда не проиграла — "
        "«дисквалифицирован»)",
        "Fix the result of game {game} or the player's Left (if the team did not lose: "
        "“disqualified”)",
    ),
)
VOTE_AFTER_FOUL_OUT = define(
    "vote-after-foul-out",
    "warning",
    Text(
        "Заголосован в {value}, хотя в {phase} игрок на месте {seat} покинул стол по "
        "фолам или дисквалификации",
        "Voted out in {value}, although the player in seat {seat} left the table by fouls "
        "or disqualification in {phase}",
    ),
    Text(
        "ближайшее голосование после удаления не проводится (особая ситуация 1){unless}",
        "the next vote after such a removal is not held (special situation 1){unless}",
    ),
    Text(
        "Проверьте по бланку порядок событий игры {game}",
        "Check the order of events of game {game} on the paper form",
    ),
)
VOTE_AFTER_FOUL_OUT_NEXT = define(
    "vote-after-foul-out-next",
    "warning",
    Text(
        "Заголосован в {value}, хотя в {phase} игрок на месте {seat} покинул стол по "
        "фолам во время голосования",
        "Voted out in {value}, although in {phase} the player in seat {seat} left by "
        "fouls during the vote",
    ),
    Text(
        "следующее голосование не проводится (особая "
        "ситуация 2), если только чёрным не оставалось одно убийство до победы (ситуация 3)",
        "the following vote is not held (special situation 2) unless the blacks needed only "
        "a kill to win (situation 3)",
    ),
    Text(
        "Проверьте по бланку порядок событий игры {game}",
        "Check the order of events of game {game} on the paper form",
    ),
)
PHASE_NOT_RECORDED = define(
    "phase-not-recorded",
    "warning",
    Text(
        "Фаза выбывания игрока на месте {seat} не записана: ход игры {game} проверен по "
        "её концу, особые ситуации 1, 2 и 9 — без этого выбывания",
        "The phase the player in seat {seat} left in is not recorded: game {game} is "
        "checked by its end, special situations 1, 2 and 9 without this departure",
    ),
    Text(
        "фаза, в которой игрок покинул стол, если она известна (Д1, Н1 …)",
        "the phase the player left the table in, when known (D1, N1 …)",
    ),
    Text(
        "Если фаза известна, впишите её рядом с местом («5 Д3») или в «Когда»; если нет — "
        "ничего делать не нужно: штраф и итоги от фазы не зависят",
        "If the phase is known, write it beside the seat («5 D3») or in When; if not, "
        "nothing to do: the penalty and the standings do not depend on it",
    ),
)
VOTE_REMOVED_ALL = define(
    "vote-removed-everyone",
    "warning",
    Text(
        "В {value} заголосованы все игроки, остававшиеся за столом",
        "Every player still at the table was voted out in {value}",
    ),
    Text(
        "голосование за подъём всех игроков не проводится (особая ситуация 10)",
        "a vote to remove every player at the table is not held (special situation 10)",
    ),
    Text(
        "Проверьте выбывания дня {value} игры {game}",
        "Check the departures of day {value} of game {game}",
    ),
)


# ---- the timeline -----------------------------------------------------------------------


def departure_phases(
    seats: pd.DataFrame, coded: Callable[[str], Coded] | None = None
) -> pd.DataFrame:
    """One row per (game, phase with departures), phases in order, with the counts after it.

    Columns: game, when, red_out, black_out, voted_red, voted_black, voted; removed_red,
    removed_black (team removals: that team loses at once); reds, blacks (left at the table
    after the phase) and reds_before, blacks_before; prev (the previous departure phase,
    0 at the start); outcome ("red", "black" or "": decided by a team removal, else by the
    counts after this phase). `coded`: a column of `seats` hashed (the gate's, hashed once).
    """
    code = coded or (lambda column: Coded.of(seats[column]))
    left = code("left")
    # the rows that left in a known phase, as positions: only their values are taken
    rows = np.flatnonzero(~left.missing() & ~code("when").missing())
    team = seats["team"].to_numpy(dtype=object)[rows]
    red, black = team == "red", team == "black"
    removal = left.eq("team_removal")[rows]
    voted = left.eq("voted")[rows]
    codes, games = _sorted_codes(code("game").at(rows))
    phase = seats["when"].to_numpy(dtype=object)[rows].astype(np.int64)
    counts = {
        "red_out": red,
        "black_out": black,
        "voted_red": voted & red,
        "voted_black": voted & black,
        "removed_red": removal & red,
        "removed_black": removal & black,
    }
    steps = _summed_by_game_and_phase(codes, phase, counts)
    steps["voted"] = steps["voted_red"] + steps["voted_black"]
    by_game = steps.groupby("game", sort=False)
    steps["reds"] = REDS - by_game["red_out"].cumsum()
    steps["blacks"] = BLACKS - by_game["black_out"].cumsum()
    steps["reds_before"] = steps["reds"] + steps["red_out"]
    steps["blacks_before"] = steps["blacks"] + steps["black_out"]
    steps["prev"] = by_game["when"].shift(fill_value=0)
    steps["game"] = np.asarray(games, dtype=object)[steps["game"].to_numpy()]
    red_removed, black_removed = steps["removed_red"].gt(0), steps["removed_black"].gt(0)
    steps["outcome"] = np.select(
        [
            red_removed & black_removed,  # both teams "lost": contradictory, said at the result
            red_removed,
            black_removed,
            steps["blacks"].eq(0),
            steps["blacks"] >= steps["reds"],
        ],
        ["both", "black", "red", "red", "black"],
        "",
    )
    return steps


def _sorted_codes(game: Coded) -> tuple[np.ndarray, np.ndarray]:
    """The rows' codes into their distinct game ids sorted, and those ids: what
    `pd.factorize(ids, sort=True)` gives, with only the distinct ids sorted (a missing id
    keeps its -1)."""
    present = np.unique(game.codes[game.codes >= 0])
    ranks, ids = pd.factorize(game.values[present], sort=True)
    lookup = np.full(len(game.values) + 1, -1, dtype=np.intp)
    lookup[present] = ranks
    return lookup[game.codes], np.asarray(ids, dtype=object)


def _summed_by_game_and_phase(
    codes: np.ndarray, phase: np.ndarray, counts: dict[str, np.ndarray]
) -> pd.DataFrame:
    """One row per (game code, phase), sorted so, with each of `counts` summed: what
    `groupby(["game", "when"], sort=True, as_index=False).sum()` gives, by one sort of
    an int64 key."""
    low = int(phase.min()) if len(phase) else 0
    span = int(phase.max()) - low + 1 if len(phase) else 1
    key = codes.astype(np.int64) * span + (phase - low)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    columns = {"game": codes[first].astype(np.int64), "when": phase[first]}
    for name, marked in counts.items():
        summed = np.bincount(inverse, weights=marked, minlength=len(first))
        columns[name] = summed.astype(np.int64)
    return pd.DataFrame(columns)


def timeline(gate: Regulated, games: pd.Series | None = None) -> pd.DataFrame:
    """:func:`departure_phases` of the gate's seat rows of `games` (a mask of the games'
    ids), else of every game. A game's timeline is made of its own rows alone, so the
    whole gate's is computed once and each check takes its games' rows, in the same
    order (by game, then phase)."""
    steps = gate.memo.get("steps")
    if steps is None:
        steps = gate.memo["steps"] = departure_phases(gate.seats, gate.coded)
    if games is None:
        return cast(pd.DataFrame, steps)
    wanted = steps["game"].isin(set(games.to_numpy(dtype=object)))
    if wanted.all():
        return cast(pd.DataFrame, steps)
    return cast(pd.DataFrame, steps[wanted].reset_index(drop=True))


def decisions(steps: pd.DataFrame) -> pd.DataFrame:
    """Per game (index): the deciding `phase`, its `outcome`, and `reds`/`blacks` then.

    Only departures decide a game here: a missed situation-9 draw is a warning, and the
    table's recorded result stands (see :func:`missed_draws`). Games never decided by
    their departures get the state after their last departure and an empty outcome;
    games without departures are absent (7 reds, 3 blacks).
    """
    decided = steps["outcome"].ne("")
    state = pd.DataFrame(
        {
            "game": steps["game"].astype(object),  # not Arrow strings: their isin() is slow
            "phase": steps["when"],
            "outcome": steps["outcome"],
            "reds": steps["reds"],
            "blacks": steps["blacks"],
            "removal": steps["removed_red"].gt(0) | steps["removed_black"].gt(0),
        }
    )
    first = state[decided].drop_duplicates("game", keep="first")
    last = state[~state["game"].isin(game_ids(first))].drop_duplicates("game", keep="last")
    last = last.assign(phase=0, outcome="")
    return pd.concat([first, last]).set_index("game")


# ---- §5.2: end state and departures after the end ---------------------------------------

_IN_GAMES = Plural(("игре", "играх", "играх"), ("game", "games"))


@check(DEPARTURES_PARTIAL, DEPARTURES_NOT_RECORDED)
def partial_departures(context: Context) -> Iterator[Finding]:
    """Games that record only some departures, or none, are judged by what is recorded;
    the rules that read an absence are not applied to them — said once for each kind, at
    the first such game, marking every one: at «Записаны выбывания» where the judge said
    so, at the result where the protocol simply has none."""
    gate = context.regulated
    if gate is None or not gate.partial:
        return
    listed = gate.listed[gate.listed["game"].isin(gate.partial)]
    for code, said, column in (
        (DEPARTURES_PARTIAL, "partial", "departures"),
        (DEPARTURES_NOT_RECORDED, NOT_RECORDED, "result"),
    ):
        rows = listed[listed["departures"].eq(said)]
        if not rows.empty:
            yield _once_for_games(gate, code, rows, column)


def _once_for_games(gate: Regulated, code: str, rows: pd.DataFrame, column: str) -> Finding:
    places = [gate.games.locate(column, int(row)) for row in rows["_row"]]
    sheet, cell, row = places[0]
    raw = gate.games.raw.get(column)
    value = raw.at[rows.index[0]] if raw is not None else ""
    count = Text(_IN_GAMES(len(rows), "ru"), _IN_GAMES(len(rows), "en"))
    also = [(s, c) for s, c, _ in places[1:]]
    return finding(
        code, sheet, cell, value, row=row, source=gate.games.source, also=also, count=count
    )


@check(
    AFTER_END,
    BLACK_WIN_REDS_MORE,
    DRAW_DECIDED,
    DRAW_RULE_OFF,
    RED_WIN_BLACKS_LEFT,
    TEAM_REMOVAL_RESULT,
)
def end_state(context: Context) -> Iterator[Finding]:
    """The recorded result against the departures, at the result cell in «Игры»."""
    gate = context.regulated
    if gate is None:
        return
    steps = timeline(gate, gate.whole(gate.seats)["game"] if gate.partial else None)
    state = decisions(steps)
    unsure = _unsure_games(gate)
    if unsure:  # a departure's moment unknown: the end state is known, the course is not
        state = _final_states(steps, state, unsure)
    yield from _late_departures(gate, state.drop(index=list(unsure), errors="ignore"))
    listed = gate.whole(gate.listed)
    games = listed[listed["result"].notna()]
    removed = state["removal"].eq(True) & state["outcome"].ne("")
    yield from _team_removals(gate, games[games["game"].isin(set(state.index[removed]))], state)
    games = games[~games["game"].isin(set(state.index[removed]))]
    known = state.reindex(games["game"])
    outcome = known["outcome"].fillna("").to_numpy(dtype=object)
    reds = known["reds"].fillna(REDS).astype(int).to_numpy()
    blacks = known["blacks"].fillna(BLACKS).astype(int).to_numpy()
    phase = known["phase"].fillna(0).astype(int).to_numpy()
    result = games["result"].to_numpy(dtype=object)
    facts = pd.DataFrame(
        {"reds": reds, "blacks": blacks, "phase": phase, "outcome": outcome}, index=games.index
    )
    for code, wanted in ((RED_WIN_BLACKS_LEFT, "red"), (BLACK_WIN_REDS_MORE, "black")):
        wrong = (result == wanted) & (outcome != wanted)
        yield from _at_results(gate, code, games, facts.assign(outcome="")[wrong])
    # A recorded draw needs a game its departures left open; the quiet phases after the
    # last departure are not in the context.protocol, so such a draw is accepted as recorded.
    draw = result == "draw"
    draw_bad = draw & np.isin(outcome, ["red", "black"])
    yield from _at_results(gate, DRAW_DECIDED, games, facts[draw_bad])
    if not context.protocol.rules.draw_quiet_phases:
        # no rule of the tournament ends a game as a draw: say so, but the result stands
        yield from at_rows(gate.games, DRAW_RULE_OFF, "result", games[draw & ~draw_bad])


def _unsure_games(gate: Regulated) -> set[object]:
    """Games with a departure whose phase the sheet does not give."""
    return set(gate.seats.loc[gate.seats["phase_unknown"], "game"])


def _final_states(steps: pd.DataFrame, state: pd.DataFrame, games: set[object]) -> pd.DataFrame:
    """For `games`, the state after their last departure phase in place of the first
    deciding one: with a departure's moment unknown only the end is certain."""
    last = steps[steps["game"].isin(games)].drop_duplicates("game", keep="last")
    final = pd.DataFrame(
        {
            "phase": last["when"].to_numpy(),
            "outcome": last["outcome"].to_numpy(dtype=object),
            "reds": last["reds"].to_numpy(),
            "blacks": last["blacks"].to_numpy(),
            "removal": (last["removed_red"].gt(0) | last["removed_black"].gt(0)).to_numpy(),
        },
        index=pd.Index(last["game"].astype(object), name="game"),
    )
    final.loc[final["outcome"].eq(""), "phase"] = 0
    return pd.concat([state.drop(index=list(games), errors="ignore"), final])


def _team_removals(gate: Regulated, games: pd.DataFrame, state: pd.DataFrame) -> Iterator[Finding]:
    """A game decided by a team removal: the result must be the other team's win."""
    for index, game in zip(games.index, games["game"], strict=True):
        decided = state.loc[game]
        if decided["outcome"] == games.at[index, "result"]:
            continue
        phase = int(decided["phase"])
        seats = gate.seats[
            gate.seats["game"].eq(game)
            & gate.seats["left"].eq("team_removal")
            & gate.seats["when"].eq(phase)
        ]
        yield from at_rows(
            gate.games,
            TEAM_REMOVAL_RESULT,
            "result",
            games.loc[[index]],
            seat=", ".join(str(int(s)) for s in seats["seat"]),
            phase=Phase(phase),
            outcome=OUTCOMES[str(decided["outcome"])],
        )


def _at_results(
    gate: Regulated, code: str, games: pd.DataFrame, facts: pd.DataFrame
) -> Iterator[Finding]:
    """One finding per contradicting game (the rows of `facts`: reds and blacks left, the
    phase that decided the game, who it gave the win), grouped by the facts its message
    states."""
    for (red, black, ended, won), group in facts.groupby(
        ["reds", "blacks", "phase", "outcome"], sort=False
    ):
        params: dict[str, object] = {"reds": red, "blacks": black, "at": _NOTHING}
        if ended:
            decided_in = Phase(_int(ended))
            params.update(phase=decided_in, at=_after(decided_in))
        if won:
            params.update(outcome=OUTCOMES[str(won)])
        yield from at_rows(gate.games, code, "result", games.loc[group.index], **params)


def _int(key: object) -> int:
    """A groupby key of an integer column (typed as Hashable by pandas)."""
    return int(cast(int, key))


OUTCOMES = {
    "red": Text("победа красных", "a red win"),
    "black": Text("победа чёрных", "a black win"),
    "draw": Text("ничья", "a draw"),
    # team removals of both teams in one phase: no result can agree
    "both": Text("но удалены игроки обеих команд", "but players of both teams were removed"),
}
_NOTHING = Text("", "")


def _after(phase: Phase) -> Text:
    """` (после Н2)`: the phase after which the departures decided the game."""
    return Text(
        f" (после {vocab.phase_name(phase.ordinal, 'ru')})",
        f" (after {vocab.phase_name(phase.ordinal, 'en')})",
    )


def _late_departures(gate: Regulated, state: pd.DataFrame) -> Iterator[Finding]:
    """Departures recorded in a phase after the one that decided the game."""
    decided = state[state["outcome"].ne("")]
    game = gate.coded("game")
    # judged at positions, each game's end found once: only the late rows are taken
    rows = np.flatnonzero(~gate.coded("when").missing() & game.isin(decided.index))
    ends = pd.Series(game.values, dtype=object).map(decided["phase"]).to_numpy()
    end = ends[game.codes[rows]].astype(np.int64)
    when = gate.seats["when"].to_numpy(dtype=object)[rows].astype(np.int64)
    late = gate.seats.iloc[rows[when > end]]
    late = late.assign(
        ended=late["game"].map(decided["phase"]), won=late["game"].map(decided["outcome"])
    )
    for (ended, won), rows in late.groupby(["ended", "won"], sort=False):
        yield from at_rows(
            gate.table,
            AFTER_END,
            "when",
            rows,
            phase=Phase(_int(ended)),
            outcome=OUTCOMES[str(won)],
        )


# ---- §5.3: special situation 9 ----------------------------------------------------------


def quiet_windows(steps: pd.DataFrame, window: int) -> pd.DataFrame:
    """The departure phases (rows of `steps`) reached after a complete quiet window.

    The window starts at the first night after the previous departure phase (Д1 never
    belongs to one: a quiet opening counts from Н1) and spans `window` phases; it is
    complete when all of them come before this departure phase. A later night would
    leave an even shorter gap, so the first night is the only start worth trying.
    Adds `quiet_from` and `quiet_to`, the window's first and last phases.
    """
    start = steps["prev"] + 1
    first_night = start + start % 2
    last = first_night + window - 1
    done = steps.assign(quiet_from=first_night, quiet_to=last)
    return done[last < steps["when"]]


@check(DRAW_MISSED)
def missed_draws(context: Context) -> Iterator[Finding]:
    """Situation 9: a game that went on after a complete quiet window — one warning a game,
    at the first departure after the window. Gaps after the deciding phase are left to
    `departure-after-end`."""
    window = context.protocol.rules.draw_quiet_phases
    gate = context.regulated
    if gate is None or not window:
        return
    seats = gate.whole(gate.seats)
    seats = seats[~seats["game"].isin(_unsure_games(gate))]
    steps = timeline(gate, seats["game"])
    decided = steps[steps["outcome"].ne("")].drop_duplicates("game").set_index("game")
    end = steps["game"].map(decided["when"]).fillna(np.iinfo(np.int64).max)
    late = quiet_windows(steps[steps["when"].to_numpy() <= end.to_numpy()], window)
    late = late.drop_duplicates("game", keep="first")
    if late.empty:
        return
    seats = seats[seats["when"].notna()]
    hits = seats.reset_index().merge(
        late[["game", "when", "quiet_from", "quiet_to"]], on=["game", "when"]
    )
    hits = hits.drop_duplicates("game", keep="first").set_index("index")
    for (first, last), rows in hits.groupby(["quiet_from", "quiet_to"], sort=True):
        yield from at_rows(
            gate.table,
            DRAW_MISSED,
            "when",
            rows,
            window=window,
            quiet=Phases(tuple(range(_int(first), _int(last) + 1))),
            end=Phase(_int(last)),
        )


# ---- §5.3: special situations 1–3 and 10 ------------------------------------------------


@check(VOTE_AFTER_FOUL_OUT, VOTE_AFTER_FOUL_OUT_NEXT)
def votes_after_foul_outs(context: Context) -> Iterator[Finding]:
    """Situations 1–3: after a player leaves by fouls, the nearest vote is not held.

    A foul-out by day with a vote-out the same day breaks situation 1 — unless the 4th
    foul came after the vote's result (situation 2), and then the next day's vote is the
    one not held, unless situation 3 applies: the player was black and after that vote
    the blacks needed only a kill to win. A foul-out at night cancels the next day's vote
    (situation 1), with the same exception.
    """
    gate = context.regulated
    if gate is None:
        return
    known, left = ~gate.coded("when").missing(), gate.coded("left")
    out = gate.seats[known & left.isin(OUT) & ~gate.seats["phase_unknown"].to_numpy(dtype=bool)]
    if out.empty:
        return
    # the vote-outs of those games; their timelines are those of the foul-outs' games
    games = gate.coded("game").isin(set(out["game"]))
    voted = gate.seats[known & games & left.eq("voted")]
    targets = _cancelled_votes(out, voted, timeline(gate, out["game"]))
    hits = voted.reset_index().merge(targets, on=["game", "when"])
    hits = hits.drop_duplicates(["index", "code"]).set_index("index")
    keys = ["code", "phase", "fouled_seat", "unless"]
    for (code, phase, seat, unless), rows in hits.groupby(keys, sort=True):
        yield from at_rows(
            gate.table,
            str(code),
            "when",
            rows,
            seat=seat,
            phase=Phase(_int(phase)),
            unless=_UNLESS[str(unless)],
        )


_UNLESS = {
    "": _NOTHING,
    "after_result": Text(
        " — если только 4-й фол не получен после подсчёта голосов (ситуация 2)",
        " — unless the 4th foul came after the vote's result (situation 2)",
    ),
}


def _cancelled_votes(out: pd.DataFrame, voted: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """(game, when) of each vote-out that should not have happened: code, foul-out phase."""
    phase = out["when"].to_numpy(dtype=np.int64)
    day = phase % 2 == 1
    state = steps.set_index(["game", "when"]).reindex(
        pd.MultiIndex.from_arrays([out["game"].to_numpy(dtype=object), phase])
    )
    # situation 3: the state after that day's vote (a night: after the day before it)
    reds = state["reds_before"].to_numpy() - np.where(day, state["voted_red"].to_numpy(), 0)
    blacks = state["blacks_before"].to_numpy() - np.where(day, state["voted_black"].to_numpy(), 0)
    exempt = out["team"].eq("black").to_numpy() & (blacks > 0) & (reds - 1 <= blacks)
    vote_days = set(zip(voted["game"], voted["when"], strict=True))
    same_day = day & np.array(
        [(g, w) in vote_days for g, w in zip(out["game"], phase, strict=True)], dtype=bool
    )
    game = out["game"].to_numpy(dtype=object)
    seat = out["seat"].to_numpy(dtype=object)
    parts = [
        (same_day, phase, VOTE_AFTER_FOUL_OUT, "after_result"),
        (same_day & ~exempt, phase + 2, VOTE_AFTER_FOUL_OUT_NEXT, ""),
        (~day & ~exempt, phase + 1, VOTE_AFTER_FOUL_OUT, ""),
    ]
    return pd.concat(
        [
            pd.DataFrame(
                {
                    "game": game[mask],
                    "when": target[mask],
                    "code": code,
                    "phase": phase[mask],
                    "fouled_seat": seat[mask],
                    "unless": unless,
                }
            )
            for mask, target, code, unless in parts
        ],
        ignore_index=True,
    )


@check(PHASE_NOT_RECORDED)
def phases_not_recorded(context: Context) -> Iterator[Finding]:
    """A foul-out or disqualification whose phase the sheet does not give: said once, at
    it — the course of its game (situations 1, 2 and 9, departures after the end) needs
    the phase; the end of the game and the points do not."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.seats
    rows = seats[seats["phase_unknown"]]
    for seat, group in rows.groupby("seat", sort=True):
        found = at_rows(gate.table, PHASE_NOT_RECORDED, "when", group, seat=seat)
        yield from departure_quoted(gate.table, found, group)


@check(VOTE_REMOVED_ALL)
def vote_removing_everyone(context: Context) -> Iterator[Finding]:
    """Situation 10: a vote to remove every player at the table is not held."""
    gate = context.regulated
    if gate is None:
        return
    seats = gate.whole(gate.seats)
    voted = seats[seats["left"].eq("voted") & seats["when"].notna()]
    crowded = voted.duplicated(["game", "when"], keep=False)  # two or more in one vote
    if not crowded.any():
        return
    steps = timeline(gate, voted.loc[crowded, "game"])
    day = steps["when"] % 2 == 1
    everyone = steps[
        day
        & (steps["voted"] >= 2)
        & (steps["voted"] == steps["reds_before"] + steps["blacks_before"])
    ]
    for game, phase in zip(everyone["game"], everyone["when"], strict=True):
        rows = voted[voted["game"].eq(game) & voted["when"].eq(phase)]
        yield from at_rows(gate.table, VOTE_REMOVED_ALL, "when", rows.iloc[[0]])
