"""Words of the results workbook (SPEC §6), Russian and English.

Sheet names and column headers of the output live here, in one place, so that the
workbook, its tests and anything else that shows results use the same spelling.
Input-side words (protocol columns, roles, results) come from :mod:`mafia_sheets.vocab`.
"""

from __future__ import annotations

from ..vocab import COLUMNS, Name

# Output sheet code → display name, in workbook order (SPEC §6).
SHEETS: dict[str, Name] = {
    "standings": Name("Итоги", "Standings"),
    "games": Name("Игры", "Games"),
    "points": Name("Баллы", "Points"),
    "summary": Name("Сводка", "Summary"),
    "findings": Name("Замечания", "Findings"),
    "charts": Name("Диаграммы", "Charts"),
}

STANDINGS_COLUMNS: dict[str, Name] = {
    "place": Name("Место", "Place"),
    "player": Name("Игрок", "Player"),
    "total": Name("Итого", "Total"),
    "win_points": Name("За победы", "Win points"),
    "additional": Name("Доп. баллы", "Additional"),
    "best_move": Name("Лучший ход", "Best move"),
    "awards": Name("ЛИ", "Awards"),
    "penalties": Name("Штрафы", "Penalties"),
    "games": Name("Игр", "Games"),
    "wins": Name("Побед", "Wins"),
    "wins_don_sheriff": Name("Побед Доном/Шерифом", "Wins as Don/Sheriff"),
    "killed_first_night": Name("Убит в 1-ю ночь", "Killed night 1"),
    "decided_by": Name("Решено по", "Decided by"),
}

# What separated a player from the next one below (SPEC §6 `decided_by`), read after
# «Решено по» / «Decided by».
DECIDED_BY: dict[str, Name] = {
    "total": Name("сумме баллов", "total"),
    "additional": Name("доп. баллам", "additional points"),
    "wins": Name("победам", "wins"),
    "wins_don_sheriff": Name("победам Доном/Шерифом", "wins as Don/Sheriff"),
    "killed_first_night": Name("смертям в 1-ю ночь", "deaths on night 1"),
    "lot": Name("жребию", "lot"),
    "tied": Name("нужен жребий", "lot needed"),
}

# The same criteria as items of the tie-break order (regulation 8.6).
TIEBREAK: dict[str, Name] = {
    "total": Name("сумма баллов", "total"),
    "additional": Name("доп. баллы", "additional points"),
    "wins": Name("победы", "wins"),
    "wins_don_sheriff": Name("победы Доном/Шерифом", "wins as Don/Sheriff"),
    "killed_first_night": Name("смерти в 1-ю ночь", "deaths on night 1"),
    "lot": Name("жребий", "lot"),
}

_GAME = COLUMNS["games"]
_SEAT = COLUMNS["seats"]

GAMES_COLUMNS: dict[str, Name] = {
    "game": _GAME["game"],
    "source": Name("Файл", "File"),
    "round": _GAME["round"],
    "table": _GAME["table"],
    "judge": _GAME["judge"],
    "result": _GAME["result"],
    "annulled": _GAME["annulled"],
    "k_applied": Name("K применён", "K applied"),
    "k": Name("K", "K"),
    **{f"seat_{i}": Name(f"Место {i}", f"Seat {i}") for i in range(1, 11)},
}

# Every component names the regulation clause it comes from.
POINTS_COLUMNS: dict[str, Name] = {
    "game": _GAME["game"],
    "source": Name("Файл", "File"),
    "round": _GAME["round"],
    "table": _GAME["table"],
    "seat": _SEAT["seat"],
    "player": _SEAT["player"],
    "role": _SEAT["role"],
    "team": Name("Команда", "Team"),
    "result": _GAME["result"],
    "win": Name("Победа", "Win"),
    "heavy": Name("Тяжёлая игра (8.5)", "Heavy game (8.5)"),
    "win_points": Name("За победу (8.2, 8.5)", "Win points (8.2, 8.5)"),
    "penalty": Name("Штраф (8.2.4)", "Penalty (8.2.4)"),
    "best_move": Name("Лучший ход (8.3)", "Best move (8.3)"),
    "awards": Name("ЛИ (8.4)", "Awards (8.4)"),
    "additional": Name("Доп. баллы", "Additional"),
    "total": Name("Итого", "Total"),
    "running_total": Name("Нарастающий итог", "Running total"),
    "killed_first_night": Name("Убит в 1-ю ночь (8.6)", "Killed night 1 (8.6)"),
}

FINDINGS_COLUMNS: dict[str, Name] = {
    "code": Name("Код", "Code"),
    "severity": Name("Важность", "Severity"),
    "where": Name("Где", "Where"),
    "value": Name("Значение", "Value"),
    "message": Name("Что найдено", "Found"),
    "expected": Name("Ожидалось", "Expected"),
    "hint": Name("Как исправить", "How to fix"),
}

SEVERITY: dict[str, Name] = {
    "error": Name("ошибка", "error"),
    "warning": Name("предупреждение", "warning"),
}

# Free-standing phrases: titles, notices, summary items.
TEXT: dict[str, Name] = {
    "provisional": Name("ПРЕДВАРИТЕЛЬНЫЕ ИТОГИ: есть нерассмотренный протест",
                        "PROVISIONAL: a protest is pending"),
    "final": Name("Окончательные итоги", "Final results"),
    "footer": Name("Страница &P из &N", "Page &P of &N"),
    "chief_judge": Name("Главный судья", "Chief judge"),
    "removed": Name("Удалены с турнира (особая ситуация 4): без места",
                    "Removed from the tournament (special situation 4): no place"),
    "no_findings": Name("Замечаний нет", "No findings"),
    "blank_is_zero": Name("Пустая ячейка баллов — это 0: видны только начисленные баллы",
                          "A blank points cell is 0, so only the points earned stand out"),
    "item": Name("Показатель", "Item"),
    "value": Name("Значение", "Value"),
    "note": Name("Примечание", "Note"),
    "sec_status": Name("Статус", "Status"),
    "sec_games": Name("Игры (8.5)", "Games (8.5)"),
    "sec_k": Name("Коэффициент K (8.5)", "Coefficient K (8.5)"),
    "sec_rules": Name("Правила турнира", "Tournament rules"),
    "sec_lot": Name("Жребий (8.6)", "Lot (8.6)"),
    "sec_sources": Name("Файлы протоколов", "Protocol files"),
    "sec_tournament": Name("Турнир", "Tournament"),
    "results": Name("Итоги", "Results"),
    "games_n": Name("Засчитано игр, N", "Games counted, N"),
    "red_wins": Name("Побед красных", "Red wins"),
    "black_wins": Name("Побед чёрных", "Black wins"),
    "draws": Name("Ничьих", "Draws"),
    "annulled": Name("Отменено (не считаются)", "Annulled (not counted)"),
    "draws_counted": Name("ничьи входят в N", "draws count in N"),
    "draws_not_counted": Name("ничьи не входят в N", "draws do not count in N"),
    "k_applied": Name("K применяется", "K applied"),
    "heavy_side": Name("Тяжёлая сторона", "Heavy side"),
    "heavy_none": Name("нет", "none"),
    "heavy_games": Name("Побед тяжёлой стороны, n", "Heavy side's wins, n"),
    "k_value": Name("K", "K"),
    "k_formula": Name("Формула", "Formula"),
    "heavy_win": Name("За победу в тяжёлой игре", "Win points in a heavy game"),
    "option_off": Name("K отключён настройкой турнира",
                       "K is switched off by the tournament's settings"),
    "equal_wins": Name("у красных и чёрных поровну побед: тяжёлой стороны нет",
                       "red and black won equally often: there is no heavy side"),
    "no_games": Name("нет засчитанных игр", "no games counted"),
    "set_by_tournament": Name("задано турниром", "set by the tournament"),
    "tiebreak": Name("Порядок при равенстве баллов", "Tie-break order"),
    "deadline": Name("Срок подачи протеста, минут", "Protest deadline, minutes"),
    "lot_status": Name("Жребий", "Lot"),
    "lot_seed": Name("Зерно жребия (--lot-seed)", "Lot seed (--lot-seed)"),
    "lot_groups": Name("Равные игроки", "Tied players"),
    "lot_none": Name("не потребовался", "not needed"),
    "lot_sheet": Name("проведён, порядок — с листа «Жребий»",
                      "held, order taken from the «Lot» sheet"),
    "lot_seed_used": Name("псевдослучайный, воспроизводимый по зерну",
                          "pseudo-random, reproducible from the seed"),
    "lot_open": Name("НУЖЕН ЖРЕБИЙ: проведите его и заполните лист «Жребий»",
                     "LOT NEEDED: hold the draw and fill in the «Lot» sheet"),
    "chart_wins": Name("Победы по цвету", "Wins by colour"),
    "chart_top": Name("Лучшие игроки: сумма баллов", "Top players: total points"),
    "games_word": Name("Игр", "Games"),
    "draws_word": Name("Ничьи", "Draws"),
}


def headers(columns: dict[str, Name], codes: list[str], lang: str) -> list[str]:
    """Display headers of the chosen column codes, in that order."""
    return [columns[code](lang) for code in codes]
