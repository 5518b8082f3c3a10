"""Words of the results workbook (SPEC §6), Russian and English.

Sheet names and column headers of the output live here, in one place, so that the
workbook, its tests and anything else that shows results use the same spelling.
Input-side words (protocol columns, roles, results) come from :mod:`mafia_sheets.vocab`.
"""

from __future__ import annotations

from ..reading.columns import COLUMNS
from ..text import LANGS, Text
from ..vocab import display_value

# The names of the files this tool writes: `cup-итоги.xlsx`, `cup-замечания.xlsx`, and a
# season of several files is called `сезон` on the page.
RESULTS_SUFFIX = Text("итоги", "results")
ANNOTATED_SUFFIX = Text("замечания", "annotated")
SEASON_STEM = Text("сезон", "season")

# Output sheet code → display name, in workbook order (SPEC §6).
SHEETS: dict[str, Text] = {
    "standings": Text("Итоги", "Standings"),
    "games": Text("Игры", "Games"),
    "points": Text("Баллы", "Points"),
    "summary": Text("Сводка", "Summary"),
    "findings": Text("Замечания", "Findings"),
    "charts": Text("Диаграммы", "Charts"),
}

STANDINGS_COLUMNS: dict[str, Text] = {
    "place": Text("Место", "Place"),
    "player": Text("Игрок", "Player"),
    "total": Text("Итого", "Total"),
    "win_points": Text("За победы", "Win points"),
    "additional": Text("Доп. баллы", "Additional"),
    "best_move": Text("Лучший ход", "Best move"),
    "awards": Text("ЛИ", "Awards"),
    "penalties": Text("Штрафы", "Penalties"),
    "ci": Text("Ci", "Ci"),  # first-killed compensation: only where the edition pays it
    "games": Text("Игр", "Games"),
    "wins": Text("Побед", "Wins"),
    "wins_don_sheriff": Text("Побед Доном/Шерифом", "Wins as Don/Sheriff"),
    "killed_first_night": Text("Убит в 1-ю ночь", "Killed night 1"),
    "decided_by": Text("Решено по", "Decided by"),
}

# What separated a player from the next one below (SPEC §6 `decided_by`), read after
# «Решено по» / «Decided by».
DECIDED_BY: dict[str, Text] = {
    "total": Text("сумме баллов", "total"),
    "additional": Text("доп. баллам", "additional points"),
    "wins": Text("победам", "wins"),
    "wins_don_sheriff": Text("победам Доном/Шерифом", "wins as Don/Sheriff"),
    "killed_first_night": Text("смертям в 1-ю ночь", "deaths on night 1"),
    "lot": Text("жребию", "lot"),
    "tied": Text("нужен жребий", "lot needed"),
    # the criteria an edition's tie-break order may name (SPEC §2.1 «Порядок показателей»)
    "main": Text("основным баллам", "main points"),
    "extras": Text("допам", "extras"),
    "penalties": Text("штрафам", "penalties"),
    "best_move": Text("лучшему ходу", "best move"),
    "ci": Text("Ci", "Ci"),
    "killed_first_night_red": Text("смертям красным в 1-ю ночь", "deaths on night 1 as red"),
    "games": Text("числу игр", "games played"),
    "shared": Text("общее место", "shared place"),
}


def decided_text(code: str, lang: str) -> str:
    """«Решено по» of a standings row; a sum of criteria reads `допам+штрафам+лучшему ходу`."""
    return "+".join(DECIDED_BY[part](lang) for part in code.split("+"))


# Criteria only the editions' orders name (SPEC §2.1 «Порядок показателей»).
_EDITION_CRITERIA = (
    "main",
    "extras",
    "penalties",
    "best_move",
    "ci",
    "killed_first_night_red",
    "games",
)

# The same criteria as items of the tie-break order (regulation 8.6).
TIEBREAK: dict[str, Text] = {
    "total": Text("сумма баллов", "total"),
    "additional": Text("доп. баллы", "additional points"),
    "wins": Text("победы", "wins"),
    "wins_don_sheriff": Text("победы Доном/Шерифом", "wins as Don/Sheriff"),
    "killed_first_night": Text("смерти в 1-ю ночь", "deaths on night 1"),
    "lot": Text("жребий", "lot"),
    **{
        code: Text(*(display_value("criterion", code, lang) for lang in LANGS))
        for code in _EDITION_CRITERIA
    },
}


def tiebreak_text(order: tuple[str, ...], lang: str) -> str:
    """The tie-break order in words: `сумма баллов → доп. баллы → … → жребий`."""
    return " → ".join("+".join(TIEBREAK[p](lang) for p in c.split("+")) for c in order)


_GAME = COLUMNS["games"]
_SEAT = COLUMNS["seats"]

GAMES_COLUMNS: dict[str, Text] = {
    "game": _GAME["game"],
    "source": Text("Файл", "File"),
    "round": _GAME["round"],
    "table": _GAME["table"],
    "judge": _GAME["judge"],
    "result": _GAME["result"],
    "annulled": _GAME["annulled"],
    "k_applied": Text("K применён", "K applied"),
    "k": Text("K", "K"),
    **{f"seat_{i}": Text(f"Место {i}", f"Seat {i}") for i in range(1, 11)},
}

# Every component names the regulation clause it comes from.
POINTS_COLUMNS: dict[str, Text] = {
    "game": _GAME["game"],
    "source": Text("Файл", "File"),
    "round": _GAME["round"],
    "table": _GAME["table"],
    "seat": _SEAT["seat"],
    "player": _SEAT["player"],
    "role": _SEAT["role"],
    "team": Text("Команда", "Team"),
    "result": _GAME["result"],
    "win": Text("Победа", "Win"),
    "heavy": Text("Тяжёлая игра (8.5)", "Heavy game (8.5)"),
    "win_points": Text("За победу (8.2, 8.5)", "Win points (8.2, 8.5)"),
    "penalty": Text("Штраф (8.2.4)", "Penalty (8.2.4)"),
    "best_move": Text("Лучший ход (8.3)", "Best move (8.3)"),
    "awards": Text("ЛИ (8.4)", "Awards (8.4)"),
    "ci": Text("Ci (1-я ночь)", "Ci (night 1)"),
    "additional": Text("Доп. баллы", "Additional"),
    "total": Text("Итого", "Total"),
    "running_total": Text("Нарастающий итог", "Running total"),
    "killed_first_night": Text("Убит в 1-ю ночь (8.6)", "Killed night 1 (8.6)"),
}

FINDINGS_COLUMNS: dict[str, Text] = {
    "code": Text("Код", "Code"),
    "severity": Text("Важность", "Severity"),
    "where": Text("Где", "Where"),
    "value": Text("Значение", "Value"),
    "message": Text("Что найдено", "Found"),
    "expected": Text("Ожидалось", "Expected"),
    "hint": Text("Как исправить", "How to fix"),
}

SEVERITY: dict[str, Text] = {
    "error": Text("ошибка", "error"),
    "warning": Text("предупреждение", "warning"),
}

# Free-standing phrases: titles, notices, summary items.
TEXT: dict[str, Text] = {
    "provisional": Text(
        "ПРЕДВАРИТЕЛЬНЫЕ ИТОГИ: есть нерассмотренный протест", "PROVISIONAL: a protest is pending"
    ),
    "final": Text("Окончательные итоги", "Final results"),
    "footer": Text("Страница &P из &N", "Page &P of &N"),
    "chief_judge": Text("Главный судья", "Chief judge"),
    "removed": Text(
        "Удалены с турнира (особая ситуация 4): без места",
        "Removed from the tournament (special situation 4): no place",
    ),
    "no_findings": Text("Замечаний нет", "No findings"),
    "blank_is_zero": Text(
        "Пустая ячейка баллов — это 0: видны только начисленные баллы",
        "A blank points cell is 0, so only the points earned stand out",
    ),
    "item": Text("Показатель", "Item"),
    "value": Text("Значение", "Value"),
    "note": Text("Примечание", "Note"),
    "sec_status": Text("Статус", "Status"),
    "sec_games": Text("Игры (8.5)", "Games (8.5)"),
    "sec_k": Text("Коэффициент K (8.5)", "Coefficient K (8.5)"),
    "sec_rules": Text("Правила турнира", "Tournament rules"),
    "sec_lot": Text("Жребий (8.6)", "Lot (8.6)"),
    "sec_sources": Text("Файлы протоколов", "Protocol files"),
    "sec_tournament": Text("Турнир", "Tournament"),
    "results": Text("Итоги", "Results"),
    "games_n": Text("Засчитано игр, N", "Games counted, N"),
    "red_wins": Text("Побед красных", "Red wins"),
    "black_wins": Text("Побед чёрных", "Black wins"),
    "draws": Text("Ничьих", "Draws"),
    "annulled": Text("Отменено (не считаются)", "Annulled (not counted)"),
    "draws_counted": Text("ничьи входят в N", "draws count in N"),
    "draws_not_counted": Text("ничьи не входят в N", "draws do not count in N"),
    "k_applied": Text("K применяется", "K applied"),
    "heavy_side": Text("Тяжёлая сторона", "Heavy side"),
    "heavy_none": Text("нет", "none"),
    "heavy_games": Text("Побед тяжёлой стороны, n", "Heavy side's wins, n"),
    "k_value": Text("K", "K"),
    "k_formula": Text("Формула", "Formula"),
    "heavy_win": Text("За победу в тяжёлой игре", "Win points in a heavy game"),
    "option_off": Text(
        "K отключён настройкой турнира", "K is switched off by the tournament's settings"
    ),
    "edition_off": Text(
        "K не предусмотрен выбранными правилами", "the chosen scoring rules have no K"
    ),
    "equal_wins": Text(
        "у красных и чёрных поровну побед: тяжёлой стороны нет",
        "red and black won equally often: there is no heavy side",
    ),
    "no_games": Text("нет засчитанных игр", "no games counted"),
    "set_by_tournament": Text("задано турниром", "set by the tournament"),
    "tiebreak": Text("Порядок при равенстве баллов", "Tie-break order"),
    "deadline": Text("Срок подачи протеста, минут", "Protest deadline, minutes"),
    "lot_status": Text("Жребий", "Lot"),
    "lot_seed": Text("Зерно жребия (--lot-seed)", "Lot seed (--lot-seed)"),
    "lot_groups": Text("Равные игроки", "Tied players"),
    "lot_none": Text("не потребовался", "not needed"),
    "lot_sheet": Text(
        "проведён, порядок — с листа «Жребий»", "held, order taken from the «Lot» sheet"
    ),
    "lot_seed_used": Text(
        "псевдослучайный, воспроизводимый по зерну", "pseudo-random, reproducible from the seed"
    ),
    "lot_open": Text(
        "НУЖЕН ЖРЕБИЙ: проведите его и заполните лист «Жребий»",
        "LOT NEEDED: hold the draw and fill in the «Lot» sheet",
    ),
    "chart_wins": Text("Победы по цвету", "Wins by colour"),
    "chart_top": Text("Лучшие игроки: сумма баллов", "Top players: total points"),
    "games_word": Text("Игр", "Games"),
    "draws_word": Text("Ничьи", "Draws"),
}


def headers(columns: dict[str, Text], codes: list[str], lang: str) -> list[str]:
    """Display headers of the chosen column codes, in that order."""
    return [columns[code](lang) for code in codes]
