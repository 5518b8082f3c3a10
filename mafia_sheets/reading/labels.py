"""The labels printed on game sheets and over blocks of ten seat columns, RU / EN / UK.

Every entry is folded with :func:`grid.label_of` (case, «ё», №, colons and dots gone), so
`СТОЛ №`, `Стол:` and `стол` are one label. A label names a field of the game (header
block and footer of a «бланк», a column of a game row) or a column of the seat grid.
"""

from __future__ import annotations

from .. import vocab
from .grid import label_of


def _folded(*labels: str) -> frozenset[str]:
    return frozenset(label_of(label) for label in labels)


# Fields of one game: header block, footer and game-level columns.
GAME_FIELDS: dict[str, frozenset[str]] = {
    "tournament": _folded("Турнир", "Tournament", "Турнір", "Название турнира"),
    "round": _folded(
        "Тур", "Раунд", "Стадия", "Этап", "Round", "Stage", "Стадія", "Етап", "Тур №", "Номер тура"
    ),
    "date": _folded("Дата", "Date", "Дата игры"),
    "table": _folded("Стол", "Стол №", "Table", "Стіл", "Номер стола", "Table no"),
    "game": _folded(
        "Игра",
        "Игра №",
        "Game",
        "Гра",
        "Номер игры",
        "Game no",
        "Game id",
        "Партия",
        "№ игры",
        "Игра номер",
    ),
    "judge": _folded(
        "Судья",
        "Ведущий",
        "Judge",
        "Referee",
        "Host",
        "Суддя",
        "Ведучий",
        "Судья за столом",
        "Судья игры",
    ),
    "ended": _folded(
        "Окончание", "Конец", "Время окончания", "Ended", "End", "Закінчення", "Кінець"
    ),
    "annulled": _folded("Отменена", "Annulled", "Скасована"),
    "departures": _folded(
        "Записаны выбывания", "Departures recorded", "Выбывания записаны", "Записані вибування"
    ),
    "result": _folded(
        "Результат",
        "Победа",
        "Победила",
        "Победила команда",
        "Победившая команда",
        "Победитель",
        "Победители",
        "Winner",
        "Result",
        "Winning team",
        "Переможець",
        "Перемогла",
        "Перемога",
        "Результат гри",
        "Итог",
        "Исход",
    ),
    "best_move": _folded("Лучший ход", "ЛХ", "Best move", "Кращий хід", "КХ", "Лучший ход игрока"),
    "first_killed": _folded(
        "Первый убитый",
        "Убит первым",
        "ПУ",
        "Первоубиенный",
        "Убит в первую ночь",
        "First killed",
        "Killed first",
        "Перший вбитий",
        "Вбитий першим",
        "Первый отстрел",
    ),
    "kills": _folded(
        "Убит",
        "Убиты",
        "Убитые",
        "Убит ночью",
        "Убиты ночью",
        "Отстрел",
        "Стрельба",
        "Ночь",
        "Ночи",
        "Killed",
        "Kills",
        "Shot",
        "Night kills",
        "Вбито",
        "Вбиті",
        "Вбитий",
        "Відстріл",
        "Ніч",
        "Убийства",
    ),
    "votes": _folded(
        "Заголосован",
        "Заголосованы",
        "Заголосованные",
        "Голосование",
        "Ушли",
        "Ушёл",
        "Ушли днём",
        "День",
        "Дни",
        "Voted out",
        "Voted",
        "Votes",
        "Vote",
        "Заголосовані",
        "Заголосований",
        "Голосування",
        "Заголосовано",
    ),
    "disqualified": _folded(
        "Дисквалифицирован",
        "Дисквалифицированы",
        "Дисквалификация",
        "Удалён",
        "Удалены",
        "Disqualified",
        "Дискваліфіковано",
        "Дискваліфікація",
        "Дискваліфікований",
    ),
    "protest": _folded("Протест", "Протесты", "Protest", "Protests", "Протести"),
}

# Columns of the seat grid (and, numbered 1 … 10, the blocks of a game row).
SEAT_FIELDS: dict[str, frozenset[str]] = {
    "seat": _folded("№", "#", "Место", "Слот", "Seat", "Slot", "No", "Номер", "Місце", "N"),
    "player": _folded(
        "Игрок",
        "Игроки",
        "Ник",
        "Никнейм",
        "Player",
        "Players",
        "Nickname",
        "Nick",
        "Гравець",
        "Гравці",
        "Нік",
        "Нікнейм",
        "Имя",
        "Name",
    ),
    "role": _folded("Роль", "Роли", "Role", "Roles", "Ролі"),
    "fouls": _folded("Фолы", "Фол", "Fouls", "Foul", "Фоли", "Фол", "Замечания"),
    "bonus": _folded(
        "Доп",
        "Доп баллы",
        "Доп. баллы",
        "Допы",
        "ДБ",
        "Extra",
        "Extra points",
        "Bonus",
        "Award",
        "Awards",
        "ЛИ",
        "Доп бали",
        "Додаткові бали",
        "Бонус",
        "Дод",
        "Дод бали",
    ),
    "left": _folded(
        "Выбыл",
        "Выбытие",
        "Выбывание",
        "Как выбыл",
        "Покинул",
        "Left",
        "Departure",
        "Вибув",
        "Вибуття",
        "Departures",
        "Выбыли",
    ),
    "when": _folded(
        "Когда", "Фаза", "Фазы", "When", "Phase", "Phases", "Коли", "Фаза выбывания", "Круг"
    ),
    "best_move": _folded("Лучший ход", "ЛХ", "Best move", "Кращий хід"),
    # the judge's own sums: computed here from the protocol, so read as a label only
    "points": _folded(
        "Баллы",
        "Балл",
        "Очки",
        "Points",
        "Score",
        "Бали",
        "Итого",
        "Сумма",
        "Total",
        "Штраф",
        "Penalty",
        "Штрафы",
    ),
}

# Ukrainian result words the shared vocabulary does not hold (it is RU/EN).
_UK_RESULTS = {
    "red": ("мирні", "червоні", "перемога мирних", "перемога червоних", "перемогли мирні", "місто"),
    "black": ("мафія", "чорні", "перемога мафії", "перемога чорних", "перемогла мафія"),
    "draw": ("нічия",),
}


def result_lookup() -> dict[str, str]:
    """Folded result word → red | black | draw, with the label-folding of a game sheet."""
    table = {label_of(spelling): code for spelling, code in vocab.value_lookup("result").items()}
    for code, spellings in _UK_RESULTS.items():
        table.update({label_of(s): code for s in spellings})
    table.pop("", None)
    return table


RESULT_WORDS = result_lookup()
RESULT_DISPLAY = {
    code: vocab.display_value("result", code, "ru") for code in ("red", "black", "draw")
}


_REVERSE: dict[int, dict[str, str]] = {}


def field_of(label: str, fields: dict[str, frozenset[str]]) -> str | None:
    """The field a label names (the first listed wins), via a reverse table built once."""
    table = _REVERSE.get(id(fields))
    if table is None:
        table = {}
        for code, labels in reversed(fields.items()):
            table.update(dict.fromkeys(labels, code))
        _REVERSE[id(fields)] = table
    return table.get(label)


# split_label's answers by text, one table per field set: game sheets repeat their labels.
_SPLITS: dict[int, dict[str, tuple[str, str] | None]] = {}
_SPLITS_MAX = 65_536


def split_label(text: object, fields: dict[str, frozenset[str]]) -> tuple[str, str] | None:
    """`'Стол № 2'` → ('table', '2'); `'Судья: Иванов'` → ('judge', 'Иванов'); a bare
    label → (field, ''); None when the cell is not a label of `fields`."""
    if not isinstance(text, str):
        return None
    known = _SPLITS.setdefault(id(fields), {})
    if text in known:
        return known[text]
    if len(known) >= _SPLITS_MAX:
        known.clear()
    known[text] = found = _split_label(text, fields)
    return found


def _split_label(text: str, fields: dict[str, frozenset[str]]) -> tuple[str, str] | None:
    label = label_of(text)
    if not label:
        return None
    whole = field_of(label, fields)
    if whole is not None:
        return whole, ""
    words = label.split()
    for size in range(min(3, len(words) - 1), 0, -1):
        code = field_of(" ".join(words[:size]), fields)
        if code is not None:
            return code, _rest(text, size)
    return None


def _rest(text: str, size: int) -> str:
    """The original text after the first `size` words of its label (case kept)."""
    import re

    tokens = [t for t in re.split(r"[\s№#:]+", text.strip()) if t]
    if len(tokens) <= size:
        return ""
    return " ".join(tokens[size:]).strip(" .:-")
