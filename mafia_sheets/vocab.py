"""The protocol's vocabulary: sheet names, column headers and cell values, RU and EN.

Everything a judge may type is folded with :func:`fold` (case, surrounding and inner
spaces, «ё»→«е») before it is looked up, so `Чёрные`, ` черные ` and `ЧЕРНЫЕ` are one word.
Canonical codes are short English words; display names come from :data:`SHEETS` and
:data:`COLUMNS` by language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LANGS = ("ru", "en")

_SPACES = re.compile(r"\s+")


def fold(text: object) -> str:
    """Fold a header or vocabulary value for matching: `' Чёрные  '` → `'черные'`."""
    return _SPACES.sub(" ", str(text)).strip().lower().replace("ё", "е")


@dataclass(frozen=True)
class Name:
    """A sheet or column name in both languages."""

    ru: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


# Sheet code → display name. Order is the order of the template.
SHEETS: dict[str, Name] = {
    "tournament": Name("Турнир", "Tournament"),
    "players": Name("Игроки", "Players"),
    "games": Name("Игры", "Games"),
    "seats": Name("Протокол", "Seats"),
    "protests": Name("Протесты", "Protests"),
    "lot": Name("Жребий", "Lot"),
}

REQUIRED_SHEETS = ("games", "seats")

# Sheet code → column code → display name. Order is the order of the template.
COLUMNS: dict[str, dict[str, Name]] = {
    "tournament": {
        "setting": Name("Параметр", "Setting"),
        "value": Name("Значение", "Value"),
    },
    "players": {
        "player": Name("Игрок", "Player"),
        "club": Name("Клуб", "Club"),
        "city": Name("Город", "City"),
        "removed": Name("Удалён с турнира", "Removed from tournament"),
    },
    "games": {
        "game": Name("Игра", "Game"),
        "round": Name("Тур", "Round"),
        "table": Name("Стол", "Table"),
        "judge": Name("Судья", "Judge"),
        "result": Name("Результат", "Result"),
        "ended": Name("Окончание", "Ended"),
        "annulled": Name("Отменена", "Annulled"),
    },
    "seats": {
        "game": Name("Игра", "Game"),
        "seat": Name("Место", "Seat"),
        "player": Name("Игрок", "Player"),
        "role": Name("Роль", "Role"),
        "fouls": Name("Фолы", "Fouls"),
        "left": Name("Выбыл", "Left"),
        "when": Name("Когда", "When"),
        "best_move": Name("Лучший ход", "Best move"),
        "bonus": Name("Доп", "Bonus"),
    },
    "protests": {
        "game": Name("Игра", "Game"),
        "seat": Name("Место", "Seat"),
        "filed": Name("Подан", "Filed"),
        "text": Name("Суть", "Text"),
        "decision": Name("Решение", "Decision"),
        "decided_by": Name("Кто решил", "Decided by"),
    },
    "lot": {
        "player": Name("Игрок", "Player"),
        "order": Name("Порядок", "Order"),
    },
}

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "tournament": ("setting", "value"),
    "players": ("player",),
    "games": ("game", "result"),
    "seats": ("game", "seat", "player", "role"),
    "protests": ("game", "decision"),
    "lot": ("player", "order"),
}

# Extra header spellings seen in real protocols (folded).
_COLUMN_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "games": {"game": ("№ игры", "игра №", "game id"),
              "ended": ("конец", "end", "время окончания")},
    "seats": {"game": ("№ игры", "игра №", "game id"), "seat": ("№", "слот", "slot"),
              "player": ("ник", "nickname"), "fouls": ("фол", "foul"),
              "bonus": ("доп. баллы", "доп баллы", "extra", "award", "awards")},
    "players": {"player": ("ник", "nickname"),
                "removed": ("удален", "удалён", "removed")},
    "protests": {"filed": ("время", "time")},
}


def sheet_lookup() -> dict[str, str]:
    """Folded sheet name (either language) → sheet code."""
    return {fold(name(lang)): code for code, name in SHEETS.items() for lang in LANGS}


def column_lookup(sheet: str) -> dict[str, str]:
    """Folded column header (either language, or a known alias) → column code."""
    table = {fold(name(lang)): code for code, name in COLUMNS[sheet].items() for lang in LANGS}
    for code, aliases in _COLUMN_ALIASES.get(sheet, {}).items():
        table.update({fold(alias): code for alias in aliases})
    return table


# ---- cell values -------------------------------------------------------------------------

# Vocabulary: canonical code → accepted spellings (folded). The first RU and first EN
# spellings are the display names and the template's dropdown entries.
VALUES: dict[str, dict[str, tuple[str, ...]]] = {
    "role": {
        "civilian": ("Мирный", "Civilian", "к", "c", "мирн", "мирная", "красный",
                     "citizen", "м.ж.", "мж"),
        "sheriff": ("Шериф", "Sheriff", "ш", "s", "шер"),
        "mafia": ("Мафия", "Mafia", "м", "m", "маф", "черный"),
        "don": ("Дон", "Don", "д", "d"),
    },
    "result": {
        "red": ("Красные", "Red", "победа красных", "мирные", "победа мирных", "красных",
                "red win", "red wins", "civilians", "town", "к"),
        "black": ("Чёрные", "Black", "победа черных", "мафия", "победа мафии", "черных",
                  "black win", "black wins", "mafia", "mafia win", "ч"),
        "draw": ("Ничья", "Draw", "tie", "н"),
    },
    "left": {
        "killed": ("убит", "killed", "у", "k", "shot", "убита"),
        "voted": ("заголосован", "voted out", "voted", "з", "v", "заголосована", "ушел",
                  "ушёл"),
        "fouled": ("4 фола", "fouled out", "ф", "f", "фолы", "4 fouls", "удален по фолам"),
        "disqualified": ("дисквалифицирован", "disqualified", "дискв", "dq",
                         "дисквалификация", "дисквалифицирована", "удален"),
    },
    "bonus": {
        "bp": ("ЛИ", "BP", "ли1", "bp1"),
        "bp2": ("ЛИ2", "BP2"),
        "bpl": ("ЛИП", "BPL"),
    },
    "decision": {
        "pending": ("на рассмотрении", "pending", "рассматривается", "не рассмотрен"),
        "rejected": ("отклонён", "rejected", "отклонен", "отклонено", "denied"),
        "upheld": ("удовлетворён", "upheld", "удовлетворен", "удовлетворено", "accepted"),
    },
    "decided_by": {
        "chief_judge": ("главный судья", "chief judge", "гс"),
        "appeals": ("апелляционная комиссия", "appeals commission", "ак", "appeals"),
    },
    "yesno": {
        "yes": ("да", "yes", "true", "1", "+", "y", "д", "истина"),
        "no": ("нет", "no", "false", "0", "-", "n", "ложь"),
    },
}

# Which seat column uses which vocabulary.
VOCAB_OF_COLUMN: dict[tuple[str, str], str] = {
    ("seats", "role"): "role",
    ("seats", "left"): "left",
    ("seats", "bonus"): "bonus",
    ("games", "result"): "result",
    ("games", "annulled"): "yesno",
    ("players", "removed"): "yesno",
    ("protests", "decision"): "decision",
    ("protests", "decided_by"): "decided_by",
}

TEAM_OF_ROLE = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}


def value_lookup(vocab: str) -> dict[str, str]:
    """Folded spelling → canonical code for one vocabulary."""
    return {fold(s): code for code, spellings in VALUES[vocab].items() for s in spellings}


def display_values(vocab: str, lang: str) -> list[str]:
    """The display spelling of each canonical value: the dropdown list of the template."""
    pick = 0 if lang == "ru" else 1
    return [spellings[pick] for spellings in VALUES[vocab].values()]


def display_value(vocab: str, code: str, lang: str) -> str:
    return VALUES[vocab][code][0 if lang == "ru" else 1]


# Phases: Д1 < Н1 < Д2 < Н2 … encoded as an ordinal: day k → 2k−1, night k → 2k.
_PHASE = re.compile(r"^\s*([дднnd])\s*\.?\s*-?\s*(\d{1,2})\s*$", re.IGNORECASE)
_DAY_LETTERS = {"д", "d"}


def parse_phase(text: str) -> int | None:
    """`'Н1'` → 2, `'d3'` → 5, `'Ночь 2'` → 4; None when it is not a phase."""
    folded = fold(text).replace("ночь", "н").replace("день", "д").replace("night", "n")
    folded = folded.replace("day", "d").replace(" ", "")
    match = _PHASE.match(folded)
    if not match:
        return None
    number = int(match.group(2))
    if number < 1:
        return None
    return 2 * number - 1 if match.group(1).lower() in _DAY_LETTERS else 2 * number


def phase_name(ordinal: int, lang: str) -> str:
    """2 → `'Н1'` (ru) / `'N1'` (en)."""
    day = ordinal % 2 == 1
    number = (ordinal + 1) // 2
    letter = ("Д" if day else "Н") if lang == "ru" else ("D" if day else "N")
    return f"{letter}{number}"


def is_day(ordinal: int) -> bool:
    return ordinal % 2 == 1


# Tournament settings: canonical key → (RU, EN) names. Point keys map to the rule set.
SETTINGS: dict[str, Name] = {
    "name": Name("Название", "Name"),
    "dates": Name("Даты", "Dates"),
    "city": Name("Город", "City"),
    "chief_judge": Name("Главный судья", "Chief judge"),
    "apply_k": Name("Коэффициент K", "Coefficient K"),
    "draws_in_n": Name("Ничьи в N", "Draws in N"),
    "geo_rule_7": Name("Гео-правило 7", "Geo rule 7"),
    "draw_quiet_phases": Name("Ничья после фаз без выбываний", "Draw after quiet phases"),
    "win_when_disqualified": Name("Победа при дисквалификации", "Win points when disqualified"),
    "win": Name("Баллы за победу", "Win points"),
    "disqualification": Name("Штраф за дисквалификацию", "Disqualification penalty"),
    "best_move_3": Name("Лучший ход: 3 чёрных", "Best move: 3 black"),
    "best_move_2": Name("Лучший ход: 2 чёрных", "Best move: 2 black"),
    "bp": Name("ЛИ", "BP"),
    "bp2": Name("ЛИ2", "BP2"),
    "bpl": Name("ЛИП", "BPL"),
}

TEXT_SETTINGS = ("name", "dates", "city", "chief_judge")
FLAG_SETTINGS = ("apply_k", "draws_in_n", "geo_rule_7", "win_when_disqualified")
QUIET_SETTING = "draw_quiet_phases"  # 5, 6 or a «no» word (special situation 9)


def setting_lookup() -> dict[str, str]:
    table = {fold(name(lang)): key for key, name in SETTINGS.items() for lang in LANGS}
    # Common short spellings, with a Latin K typed for the Cyrillic К and back.
    table.update({"коэффициент к": "apply_k", "к": "apply_k", "k": "apply_k",
                  "coefficient k": "apply_k", "турнир": "name", "tournament": "name",
                  "лучший ход 3": "best_move_3", "лучший ход 2": "best_move_2",
                  "best move 3": "best_move_3", "best move 2": "best_move_2",
                  "гео-правило": "geo_rule_7", "geo rule": "geo_rule_7"})
    return table
