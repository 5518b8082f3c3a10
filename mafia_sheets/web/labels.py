"""The page's words, from the product's one catalogue: served as `/api/labels`.

The page has no text of its own: it asks for these at start-up, in both languages, so the
page and the workbook can never word one thing differently (the standings columns and
«Решено по» are the workbook's own labels). `{name}` fields are filled in by the page.
"""

from __future__ import annotations

from typing import Any

from ..report.labels import DECIDED_BY, STANDINGS_COLUMNS, decided_text
from ..report.labels_stats import OUTCOME, ROLE_WORDS
from ..rules import presets
from ..text import LANGS, Text
from .seating import PAGE_LABELS

# The standings columns the page shows, by their codes on the results workbook.
STANDINGS_SHOWN = (
    "place",
    "player",
    "total",
    "win_points",
    "additional",
    "games",
    "wins",
    "wins_don_sheriff",
    "killed_first_night",
    "decided_by",
)

# «Решено по» of the criteria the bundled editions sum (`extras+penalties+best_move`).
GROUPS = {
    code: Text(*(decided_text(code, lang) for lang in LANGS))
    for rules in presets().values()
    for code in rules.tiebreak
    if "+" in code
}

PAGE: dict[str, Any] = {
    "pageTitle": Text("Mafia Sheets — пересчёт рейтинга", "Mafia Sheets — standings"),
    "title": Text("пересчёт рейтинга", "standings recalculation"),
    "uploadTitle": Text("Протоколы", "Protocols"),
    "intro": Text(
        "Перетащите книги Excel с протоколами игр — одну или несколько (сезон). Файлы "
        "никуда не сохраняются.",
        "Drop Excel workbooks with game protocols — one or several (a season). Files are not "
        "stored anywhere.",
    ),
    "dropTitle": Text(
        "Перетащите сюда протоколы (.xlsx, .ods)", "Drop protocols here (.xlsx, .ods)"
    ),
    "dropOr": Text("или нажмите, чтобы выбрать файлы", "or click to choose files"),
    "limits": Text(
        "Только .xlsx и .ods; до {file} МБ на файл, до {total} МБ за раз.",
        ".xlsx and .ods only; up to {file} MB per file, {total} MB at once.",
    ),
    "standings": Text("Итоги", "Standings"),
    "checkTitle": Text("Проверка протокола", "Protocol check"),
    "findings": Text("Замечания", "Findings"),
    "footer": Text(
        "Расчёт по регламенту ФИИМ: баллы, коэффициент K, дополнительные показатели.",
        "Computed per the FIIM regulation: points, coefficient K, tie-breaks.",
    ),
    "uploading": Text("Загрузка файлов… {p} %", "Uploading files… {p} %"),
    "counting": Text("Считаем…", "Calculating…"),
    "network": Text(
        "Сервер не ответил: проверьте, что mafia-sheets serve запущен, и попробуйте снова.",
        "The server did not answer: check that mafia-sheets serve is running and try again.",
    ),
    "tooBig": Text(
        "Файл «{name}» слишком большой: не больше {mb} МБ на файл.",
        "File “{name}” is too large: the limit is {mb} MB per file.",
    ),
    "tooBigTotal": Text(
        "Слишком большая загрузка: все файлы вместе — не больше {mb} МБ.",
        "The upload is too large: all files together must fit in {mb} MB.",
    ),
    "provisional": Text(
        "Итоги предварительные: есть протест на рассмотрении.",
        "Provisional results: a protest is still pending.",
    ),
    "lotNeeded": Text(
        "Нужен жребий: у части игроков равны все показатели. Проведите жеребьёвку и "
        "заполните лист «Жребий» — пока такие игроки делят диапазон мест.",
        "A lot is needed: some players are equal on every criterion. Hold the draw and fill in "
        "the “Lot” sheet — until then they share a range of places.",
    ),
    "blocked": Text(
        "В протоколе есть ошибки, поэтому итоги не посчитаны: исправьте их и "
        "загрузите файлы снова.",
        "The protocol has errors, so there are no standings: fix them and upload the files again.",
    ),
    "counts": Text("Ошибок: {e}, предупреждений: {w}.", "Errors: {e}, warnings: {w}."),
    "clean": Text("Замечаний нет.", "No findings."),
    "downloadResults": Text("Скачать итоги (.xlsx)", "Download results (.xlsx)"),
    "downloadCsv": Text("Итоги для Excel (.csv)", "Results for Excel (.csv)"),
    "downloadMwt": Text("Выгрузка world tour (.json)", "World tour upload (.json)"),
    "downloadAnnotated": Text("Скачать протокол с пометками", "Download annotated protocol"),
    "downloadAnnotatedOf": Text("Протокол с пометками: {name}", "Annotated protocol: {name}"),
    "print": Text("Печать итогов", "Print standings"),
    "general": Text("Общие замечания", "General findings"),
    "game": Text("Игра {id}", "Game {id}"),
    "where": Text("Где", "Where"),
    "severity": Text("Важность", "Severity"),
    "message": Text("Замечание", "Finding"),
    "error": Text("Ошибка", "Error"),
    "warning": Text("Предупреждение", "Warning"),
    "expected": Text("Ожидалось: ", "Expected: "),
    "hint": Text("Как исправить: ", "How to fix: "),
    "kValue": Text("Коэффициент K", "Coefficient K"),
    "rulesTitle": Text("Правила подсчёта", "Scoring rules"),
    "kOff": Text("не применяется", "not applied"),
    "heavy": Text("Сторона с меньшим числом побед", "Side with fewer wins"),
    "heavyNone": Text("нет (равное число побед)", "none (equal wins)"),
    "red": Text("красные", "red"),
    "black": Text("чёрные", "black"),
    "games": Text("N — игр в зачёте", "N — games counted"),
    "heavyGames": Text("n — побед этой стороны", "n — that side's wins"),
    "removed": Text("Удалены с турнира (без места): ", "Removed from the tournament (no place): "),
    "statsTab": Text("Статистика", "Statistics"),
    "statsTitle": Text("Статистика по ролям", "Statistics by role"),
    "statsHint": Text(
        "Нажмите на игрока, чтобы открыть его карточку.", "Click a player to open their card."
    ),
    "printCard": Text("Печать карточки", "Print card"),
    "closeCard": Text("Закрыть", "Close"),
    "openCard": Text("Карточка игрока {name}", "Player card of {name}"),
    "roles": ROLE_WORDS,
    "outcome": OUTCOME,
    "statCols": [
        Text("Игрок", "Player"),
        Text("Игр", "Games"),
        Text("Побед", "Wins"),
        Text("% побед", "Win %"),
        Text("Мирный", "Civilian"),
        Text("Шериф", "Sheriff"),
        Text("Мафия", "Mafia"),
        Text("Дон", "Don"),
        Text("Красные", "Red"),
        Text("Чёрные", "Black"),
        Text("Убит в 1-ю ночь", "Killed night 1"),
        Text("Лучший ход (3 / 2)", "Best move (3 / 2)"),
        Text("Фолы", "Fouls"),
    ],
    "roleCols": [
        Text("Роль", "Role"),
        Text("Игр", "Games"),
        Text("Побед", "Wins"),
        Text("% побед", "Win %"),
        Text("Доп. баллы", "Additional"),
    ],
    "totalsCols": [
        Text("Итого", "Total"),
        Text("За победы", "Win points"),
        Text("Доп. баллы", "Additional"),
        Text("Игр", "Games"),
        Text("Побед", "Wins"),
        Text("% побед", "Win %"),
        Text("Убит в 1-ю ночь", "Killed night 1"),
    ],
    "extraCols": [
        Text("Лучших ходов", "Best moves"),
        Text("3 чёрных", "3 blacks"),
        Text("2 чёрных", "2 blacks"),
        Text("Фолы", "Fouls"),
        Text("Удалён (4 фола)", "Fouled out"),
        Text("Дисквал.", "Disqualified"),
        Text("ЛИ / ЛИ2 / ЛИП", "BP / BP2 / BPL"),
    ],
    "gameCols": [
        Text("Тур", "Round"),
        Text("Стол", "Table"),
        Text("Место", "Seat"),
        Text("Роль", "Role"),
        Text("Итог игры", "Result"),
        Text("За победу", "Win points"),
        Text("Лучший ход", "Best move"),
        Text("ЛИ", "Award"),
        Text("Штраф", "Penalty"),
        Text("Итого", "Total"),
    ],
    "seatTitle": Text("Победы по номерам мест", "Wins by seat number"),
    "seatCols": [
        Text("Место", "Seat"),
        Text("Игр", "Games"),
        Text("Побед", "Wins"),
        Text("% побед", "Win %"),
    ],
    "colourLine": Text(
        "Игр: {g}; побед красных: {r}; чёрных: {b}; ничьих: {d}.",
        "Games: {g}; red wins: {r}; black wins: {b}; draws: {d}.",
    ),
    "files": Text("Файлы ({n}): ", "Files ({n}): "),
    "filesOne": Text("Файл: ", "File: "),
    "readGames": Text("Что дал каждый бланк", "What each game sheet gave"),
    "cardTitle": Text("Место {place} — {name}", "Place {place} — {name}"),
    "cardTitleRemoved": Text("{name} (удалён с турнира)", "{name} (removed from the tournament)"),
    "cols": [STANDINGS_COLUMNS[code] for code in STANDINGS_SHOWN],
    "decimalMark": Text(",", "."),
    "decided": {**DECIDED_BY, **GROUPS},
}


def labels(lang: str) -> Any:
    """Every label of the page in one language: strings, lists and maps of strings."""
    return _render({**PAGE, **PAGE_LABELS}, lang)


def all_labels() -> dict[str, Any]:
    return {lang: labels(lang) for lang in LANGS}


def _render(value: Any, lang: str) -> Any:
    if isinstance(value, Text):
        return value(lang)
    if isinstance(value, list):
        return [_render(item, lang) for item in value]
    return {key: _render(item, lang) for key, item in value.items()}
