"""The words of seating: the quality figures beside their lower bounds, and the plan as
text — one wording for the CLI, the plan workbook and the page."""

from __future__ import annotations

from ..text import Plural, Text
from .figures import Figures, Spread
from .model import Schedule

PLAYERS = Plural(("игрок", "игрока", "игроков"), ("player", "players"))
TABLES = Plural(("стол", "стола", "столов"), ("table", "tables"))
ROUNDS = Plural(("тур", "тура", "туров"), ("round", "rounds"))
GAMES = Plural(("игра", "игры", "игр"), ("game", "games"))
PAIRS = Plural(("пара", "пары", "пар"), ("pair", "pairs"))
TIMES = Plural(("раз", "раза", "раз"), ("time", "times"))

LINES: dict[str, Text] = {
    "made": Text(
        "Рассадка: {players}, {tables} за тур, {rounds} ({games}); затравка {seed} "
        "(повторить: --seed {seed}).",
        "Seating: {players}, {tables} a round, {rounds} ({games}); seed {seed} "
        "(repeat with --seed {seed}).",
    ),
    "read": Text(
        "Рассадка из {file}: {players}, {rounds} ({games}).",
        "Schedule from {file}: {players}, {rounds} ({games}).",
    ),
    "games": Text(
        "Игр у игрока: {low}–{high} (разброс {spread}, нижняя граница {bound}).",
        "Games per player: {low}–{high} (spread {spread}, lower bound {bound}).",
    ),
    "games_equal": Text("Игр у каждого игрока: {low}.", "Games per player: {low} each."),
    "games_split": Text(
        "Поровну нельзя: {seats} мест на {players}; {up} играют {high}, {down} — {low}.",
        "Equal counts are impossible: {seats} seats for {players}; {up} play {high}, "
        "{down} play {low}.",
    ),
    "rested": Text(
        "Два тура подряд не играли: {count} раз (нижняя граница {bound}).",
        "Sat out two rounds running: {count} times (lower bound {bound}).",
    ),
    "restrictions_none": Text("Ограничений нет.", "No restrictions."),
    "restrictions_kept": Text(
        "Ограничения соблюдены все: {what}.", "Every restriction is honoured: {what}."
    ),
    "restrictions_broken": Text(
        "Ограничения нарушены: {count} (нижняя граница {bound}) — {what}.",
        "Restrictions broken: {count} (lower bound {bound}) — {what}.",
    ),
    "restrictions_fewest": Text(
        "Ограничения нарушены: {count} — меньше нельзя при этих столах (нижняя граница "
        "{bound}) — {what}.",
        "Restrictions broken: {count} — the fewest these tables allow (lower bound "
        "{bound}) — {what}.",
    ),
    "apart_pairs": Text("порознь {n}", "apart {n}"),
    "together_pairs": Text("вместе {n}", "together {n}"),
    "judges": Text("судьи-игроки {n}", "judges who play {n}"),
    "break_apart": Text(
        "  тур {round}, стол {table}: {a} и {b} вместе ({reason})",
        "  round {round}, table {table}: {a} and {b} together ({reason})",
    ),
    "break_together": Text(
        "  тур {round}: {a} и {b} за разными столами ({reason})",
        "  round {round}: {a} and {b} at different tables ({reason})",
    ),
    "break_judging": Text(
        "  тур {round}, стол {table}: {a} играет, хотя судит",
        "  round {round}, table {table}: {a} plays although judging",
    ),
    "pairs": Text(
        "Встречи пар за столом: {low}–{high} (разброс {spread}, нижняя граница {bound}; "
        "в среднем {average}); ни разу не встретились: {never} (нижняя граница {never_bound}).",
        "Pair meetings at a table: {low}–{high} (spread {spread}, lower bound {bound}; "
        "average {average}); never met: {never} (lower bound {never_bound}).",
    ),
    "histogram": Text("  встреч: {row}", "  meetings: {row}"),
    "seats": Text(
        "Места: на одном номере не больше {high} (нижняя граница {bound}); у игрока "
        "номера расходятся не больше чем на {spread}.",
        "Seats: at most {high} on one seat number (lower bound {bound}); a player's seat "
        "counts differ by at most {spread}.",
    ),
    "groups": Text(
        "Группы мест 1–3 / 4–7 / 8–10 между игроками: {values} (разброс {spreads}; "
        "нижняя граница {bounds}).",
        "Seat groups 1–3 / 4–7 / 8–10 between players: {values} (spread {spreads}; "
        "lower bound {bounds}).",
    ),
    "round": Text("Тур {round}", "Round {round}"),
    "table": Text("  Стол {table}: {players}", "  Table {table}: {players}"),
    "out": Text("  Не играют: {players}", "  Sitting out: {players}"),
    "plan_written": Text("План рассадки записан: {path}", "Seating plan written: {path}"),
    "protocol_written": Text(
        "Протокол с рассадкой записан: {path}", "Protocol with the seating written: {path}"
    ),
    "progress": Text("Рассаживаю…", "Seating…"),
}


def line(key: str, lang: str, **fields: object) -> str:
    return LINES[key].format(**fields)(lang)


def figures_text(schedule: Schedule, figures: Figures, lang: str) -> str:
    """The figures in the order they are optimised, each beside its lower bound."""
    out = [_games(schedule, figures, lang)]
    if any(schedule.out(r) for r in range(len(schedule.rounds))):
        out.append(line("rested", lang, count=figures.rested_twice, bound=figures.rested_bound))
    out += _restrictions(schedule, figures, lang)
    pairs = figures.pairs
    average = f"{figures.average:.2f}"
    out.append(
        line(
            "pairs",
            lang,
            low=pairs.low,
            high=pairs.high,
            spread=pairs.spread,
            bound=pairs.bound,
            average=average.replace(".", ",") if lang == "ru" else average,
            never=figures.never_met,
            never_bound=figures.never_met_bound,
        )
    )
    row = ", ".join(
        f"{n} — {PAIRS(count, lang)}" for n, count in enumerate(figures.histogram) if count
    )
    out.append(line("histogram", lang, row=row))
    out.append(
        line(
            "seats",
            lang,
            high=figures.seat_max,
            bound=figures.seat_bound,
            spread=figures.seat_spread,
        )
    )
    out.append(_groups(figures.groups, lang))
    return "\n".join(out)


def _games(schedule: Schedule, figures: Figures, lang: str) -> str:
    games = figures.games
    if games.spread == 0:
        return line("games_equal", lang, low=games.low)
    text = line(
        "games", lang, low=games.low, high=games.high, spread=games.spread, bound=games.bound
    )
    if games.spread == 1 and games.bound == 1 and not figures.judges:
        counts = figures.per_player_games
        text += " " + line(
            "games_split",
            lang,
            seats=10 * sum(len(t) for t in schedule.rounds),
            players=PLAYERS(len(counts), lang),
            high=GAMES(games.high, lang),
            low=games.low,
            up=PLAYERS(counts.count(games.high), lang),
            down=PLAYERS(counts.count(games.low), lang),
        )
    return text


def _restrictions(schedule: Schedule, figures: Figures, lang: str) -> list[str]:
    kinds = [
        LINES[key].format(n=n)(lang)
        for key, n in (
            ("apart_pairs", figures.apart_pairs),
            ("together_pairs", figures.together_pairs),
            ("judges", figures.judges),
        )
        if n
    ]
    if not kinds:
        return [line("restrictions_none", lang)]
    what = ", ".join(kinds)
    if not figures.breaks:
        return [line("restrictions_kept", lang, what=what)]
    key = (
        "restrictions_fewest"
        if len(figures.breaks) == figures.breaks_bound
        else ("restrictions_broken")
    )
    out = [line(key, lang, count=len(figures.breaks), bound=figures.breaks_bound, what=what)]
    names = schedule.names
    for found in figures.breaks:
        a = names[found.players[0]]
        b = names[found.players[1]] if len(found.players) > 1 else ""
        reason = found.reason(lang) if found.reason else ""
        out.append(
            line(
                f"break_{found.kind}",
                lang,
                round=found.round + 1,
                table=found.table,
                a=a,
                b=b,
                reason=reason,
            )
        )
    return out


def _groups(groups: tuple[Spread, ...], lang: str) -> str:
    values = " / ".join(f"{g.low}–{g.high}" for g in groups)
    spreads = " / ".join(str(g.spread) for g in groups)
    bounds = " / ".join(str(g.bound) for g in groups)
    return line("groups", lang, values=values, spreads=spreads, bounds=bounds)


def schedule_text(schedule: Schedule, lang: str) -> str:
    """Every round: each table's players in seat order, then who sits out."""
    out: list[str] = []
    names = schedule.names
    for r, tables in enumerate(schedule.rounds):
        out.append(line("round", lang, round=r + 1))
        for number, table in zip(schedule.table_numbers[r], tables, strict=True):
            seated = ", ".join(f"{s} {names[p]}" for s, p in enumerate(table, start=1))
            out.append(line("table", lang, table=number, players=seated))
        resting = schedule.out(r)
        if resting:
            out.append(line("out", lang, players=", ".join(names[p] for p in resting)))
    return "\n".join(out)
