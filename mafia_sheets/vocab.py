"""The protocol's vocabulary: sheet names, cell values, phases and settings, RU and EN.

Everything a judge may type is folded with :func:`fold` (case, spacing, punctuation, «ё»→«е»,
invisible characters, Latin look-alike letters) before it is looked up, so `Чёрные`,
` черные. ` and `ЧЕРНЫЕ` are one word.
Canonical codes are short English words; display names come from :data:`SHEETS` and
:data:`VALUES` by language. Columns are declared in :mod:`mafia_sheets.reading.columns`.
"""

from __future__ import annotations

import functools
import re

from .text import DROP_INVISIBLE, LANGS, Text

_SPACES = re.compile(r"\s+")
# Characters a cell may hold without showing them: zero-width spaces and joiners, the soft
# hyphen, the byte-order mark. A nickname copied from a chat often carries one.
INVISIBLE = DROP_INVISIBLE  # one list of what shows as nothing, for names and headers alike
# Punctuation judges add to a word without changing it: `Доп.`, `Фолы:`, `(ЛХ)`, «Дон».
# `+`, `-`, `/`, `*`, `№` and `#` carry meaning (yes/no, marks, seat lists) and stay.
_PUNCTUATION = re.compile(r"[.,:;!?()\[\]{}\"'«»“”„_]+")
# Latin letters that look like Cyrillic ones, after lower-casing (`B`→`b` meets `В`→`в`),
# mapped to the Cyrillic letter: a key folds `Дoп` (Latin o) and `Доп` into one word.
LOOK_ALIKES = str.maketrans("abcehkmoptxy", "авсенкмортху")


def fold(text: object) -> str:
    """Case, «ё», invisible characters, punctuation and spacing folded; letters kept as
    typed: `' Чёрные  '` → `'черные'`, `' Доп. баллы: '` → `'доп баллы'`.

    A protocol repeats a few thousand short texts over hundreds of thousands of cells, so
    short texts are folded once each (long ones, rare and unbounded, every time).
    """
    if text.__class__ is str and len(text) <= _CACHED_LENGTH:
        return _fold_short(text)
    return _fold(str(text))


_CACHED_LENGTH = 64  # a nickname, a word, a phase: the cache stays a few MB at most


@functools.lru_cache(maxsize=1 << 16)
def _fold_short(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    text = text.translate(INVISIBLE).lower().replace("ё", "е")
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", text)).strip()


def fold_key(text: object) -> str:
    """:func:`fold` with Latin look-alike letters read as Cyrillic, for matching headers
    and values: `'Дoп.'` (a Latin o) → `'доп'`. Keys meet keys only, never shown."""
    return fold(text).translate(LOOK_ALIKES)


# Sheet code → display name. Order is the order of the template.
SHEETS: dict[str, Text] = {
    "tournament": Text("Турнир", "Tournament"),
    "players": Text("Игроки", "Players"),
    "games": Text("Игры", "Games"),
    "seats": Text("Протокол", "Seats"),
    "protests": Text("Протесты", "Protests"),
    "lot": Text("Жребий", "Lot"),
}

REQUIRED_SHEETS = ("games", "seats")


def sheet_lookup() -> dict[str, str]:
    """Folded sheet name (either language) → sheet code."""
    return {fold(name(lang)): code for code, name in SHEETS.items() for lang in LANGS}


# ---- cell values -------------------------------------------------------------------------

# Vocabulary: canonical code → accepted spellings (folded). The first RU and first EN
# spellings are the display names and the template's dropdown entries.
VALUES: dict[str, dict[str, tuple[str, ...]]] = {
    "role": {
        "civilian": (
            "Мирный",
            "Civilian",
            "к",
            "c",
            "мирн",
            "мирная",
            "мир",
            "красный",
            "красн",
            "мирный житель",
            "житель",
            "горожанин",
            "citizen",
            "м.ж.",
            "мж",
            "villager",
            "town",
            "мирний",
            "мирний житель",
        ),
        # «комиссар» is what many clubs call the sheriff (the «Комиссар Каттани» variant)
        "sheriff": (
            "Шериф",
            "Sheriff",
            "ш",
            "s",
            "шер",
            "комиссар",
            "ком",
            "коммиссар",
            "detective",
            "cop",
            "sher",
        ),
        "mafia": ("Мафия", "Mafia", "м", "m", "маф", "черный", "черн", "мафиози", "maf"),
        "don": ("Дон", "Don", "д", "d", "дон мафии", "босс", "boss", "don mafia"),
    },
    "result": {
        "red": (
            "Красные",
            "Red",
            "победа красных",
            "мирные",
            "победа мирных",
            "красных",
            "победа мирного города",
            "победа города",
            "мирный город",
            "город",
            "красные победили",
            "победили красные",
            "мирные победили",
            "победа мирного",
            "победа красной команды",
            "красная команда",
            "красн",
            "red win",
            "red wins",
            "red team",
            "civilians",
            "civilians win",
            "town",
            "town win",
            "town wins",
            "citizens",
            "к",
            "мирні",
            "червоні",
            "перемога мирних",
            "перемога червоних",
            "перемогли мирні",
            "перемога мирного міста",
            "мирне місто",
            "місто",
        ),
        "black": (
            "Чёрные",
            "Black",
            "победа черных",
            "мафия",
            "победа мафии",
            "черных",
            "черные победили",
            "победили черные",
            "мафия победила",
            "победила мафия",
            "победа черной команды",
            "черная команда",
            "черн",
            "black win",
            "black wins",
            "black team",
            "mafia",
            "mafia win",
            "mafia wins",
            "ч",
            "мафія",
            "чорні",
            "перемога мафії",
            "перемога чорних",
            "перемогла мафія",
        ),
        "draw": ("Ничья", "Draw", "tie", "н", "ничейный результат", "ничья по фазам", "нічия"),
    },
    "left": {
        "killed": (
            "убит",
            "killed",
            "у",
            "k",
            "shot",
            "убита",
            "убит ночью",
            "отстрел",
            "отстрелян",
            "застрелен",
            "застрелена",
            "kill",
            "night kill",
            "вбитий",
            "вбито",
        ),
        "voted": (
            "заголосован",
            "voted out",
            "voted",
            "з",
            "v",
            "заголосована",
            "ушел",
            "ушёл",
            "заголосовали",
            "голосование",
            "выгнан",
            "посажен",
            "vote",
            "vote out",
            "lynched",
            "lynch",
            "hanged",
            "заголосований",
        ),
        "fouled": (
            "4 фола",
            "fouled out",
            "ф",
            "f",
            "фолы",
            "4 fouls",
            "удален по фолам",
            "по фолам",
            "4ф",
            "4 ф",
            "фол",
            "удален 4 фола",
            "fouls",
            "foul out",
            "4f",
        ),
        "disqualified": (
            "дисквалифицирован",
            "disqualified",
            "дискв",
            "dq",
            "дисквалификация",
            "дисквалифицирована",
            "дисквал",
            "дк",
            "disq",
            "дискваліфікований",
        ),
        # Editions that penalise them (SPEC §2.4): a disqualification that costs the team
        # the game, and a player who leaves accepting the loss.
        "team_removal": (
            "удалён с поражением команды",
            "team removal",
            "удален с поражением команды",
            "удален с поражением",
            "удаление с поражением команды",
            "удаление команды",
            "поражение команды",
            "team kick out",
            "team kicked out",
            "team kick-out",
        ),
        "gave_up": (
            "отказ от игры",
            "gave up",
            "отказ",
            "отказался от игры",
            "сдался",
            "сдалась",
            "give up",
            "gave up the game",
            "surrender",
            "surrendered",
        ),
    },
    "bonus": {
        "bp": ("ЛИ", "BP", "ли1", "bp1", "лучший игрок", "best player"),
        "bp2": ("ЛИ2", "BP2"),
        "bpl": ("ЛИП", "BPL"),
        # The judge's title of the game's best move (not the first-night best move, which
        # has its own column), and the worst move that withholds an edition's auto-bonus.
        "best_move_title": (
            "Лучший ход судьи",
            "Judge's best move",
            "лучший ход",
            "лх",
            "лх судьи",
            "best move",
            "bm",
            "best move title",
            "judges best move",
        ),
        "worst_move": (
            "Худший ход",
            "Worst move",
            "хх",
            "wm",
            "без автодопа",
            "снять автодоп",
            "no auto-bonus",
            "removed auto-bonus",
        ),
    },
    "departures": {
        "all": ("все", "all", "полные", "full", "все записаны", "complete"),
        "partial": (
            "не все",
            "partial",
            "неполные",
            "частично",
            "только первый убитый",
            "first killed only",
            "incomplete",
        ),
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
    # The criteria of a tie-break order by name («Порядок показателей», SPEC §2.1).
    "criterion": {
        "total": ("сумма баллов", "total", "итого", "сумма"),
        "additional": (
            "доп. баллы",
            "additional points",
            "доп баллы",
            "дополнительные баллы",
            "additional",
        ),
        "main": ("основные баллы", "main points", "за победы", "баллы за победы", "main"),
        "extras": ("допы", "extras", "доп судьи", "допы судьи", "бонусы", "extra points"),
        "penalties": ("штрафы", "penalties", "штраф", "penalty"),
        "best_move": ("лучший ход", "best move", "лх", "legacy"),
        "ci": ("ci", "компенсация", "compensation", "ci первой ночи"),
        "wins": ("победы", "wins", "число побед"),
        "wins_don_sheriff": (
            "победы Доном/Шерифом",
            "wins as Don/Sheriff",
            "победы шерифом/доном",
            "победы доном или шерифом",
            "wins as sheriff/don",
        ),
        "killed_first_night": (
            "смерти в 1-ю ночь",
            "deaths on night 1",
            "убит в 1-ю ночь",
            "убит в первую ночь",
            "смерти в первую ночь",
            "killed night 1",
            "first night deaths",
        ),
        "killed_first_night_red": (
            "смерти в 1-ю ночь красным",
            "deaths on night 1 as red",
            "убит в 1-ю ночь красным",
            "killed night 1 as red",
        ),
        "games": ("игры", "games", "число игр", "сыграно игр", "games played"),
        "lot": ("жребий", "lot"),
    },
    # Values of the scoring settings that are words (SPEC §2.1).
    "extras_in_draw": {
        "no": ("нет", "no", "0", "-", "n", "false"),
        "negative": ("только минус", "negatives only", "минус", "только минусы", "negative"),
        "any": ("да", "yes", "любые", "any", "+", "y", "true"),
    },
    "ci_when": {
        "no": ("нет", "no", "0", "-", "n", "false"),
        "lost": ("в проигрыше", "in lost games", "проигрыш", "в поражении", "lost", "lose"),
        "half_red_win": (
            "половина при победе красных",
            "half when red won",
            "половина при победе мирных",
            "half red win",
        ),
        "half_black_win": (
            "половина при победе чёрных",
            "half when black won",
            "половина при победе черных",
            "половина при победе мафии",
            "half black win",
        ),
    },
    "ci_round": {
        "exact": ("точно", "exact", "нет", "no", "без округления"),
        "hundredths": ("до сотых", "to hundredths", "0,01", "0.01", "сотые", "hundredths"),
    },
    "best_move_team": {
        "red": ("красным", "red players", "красные", "red", "мирным"),
        "any": ("всем", "anyone", "любому", "любой", "any", "all"),
    },
    "shared_places": {
        "no": ("нет", "no", "0", "-", "n", "false"),
        "yes": ("да", "yes", "1", "+", "y", "true"),
        "dense": ("подряд", "dense", "да подряд", "без пропусков"),
    },
}

# Words that mean one of two values; the reader decides by context and says so.
# «удалён» is said of both a 4th foul and a disqualification: the fouls decide (see
# reading.protocol), and a disqualification read from it gets a warning.
AMBIGUOUS: dict[str, dict[str, tuple[str, ...]]] = {
    "left": {"removed": ("удален", "удалена", "removed", "удален из игры")},
}

TEAM_OF_ROLE = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}
ROLE_COUNTS = {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}  # every game's ten seats


def value_lookup(vocab: str) -> dict[str, str]:
    """Folded spelling → canonical code for one vocabulary (and its ambiguous words), each
    spelling under both :func:`fold` and :func:`fold_key`, so either finds it. Built once
    per vocabulary (the readers ask per cell); read it, never change it."""
    known = _LOOKUPS.get(vocab)
    if known is None:
        known = _LOOKUPS[vocab] = _value_lookup(vocab)
    return known


_LOOKUPS: dict[str, dict[str, str]] = {}


def _value_lookup(vocab: str) -> dict[str, str]:
    pairs = [(s, code) for code, spellings in VALUES[vocab].items() for s in spellings]
    pairs += [(s, code) for code, spellings in AMBIGUOUS.get(vocab, {}).items() for s in spellings]
    table = {fold_key(s): code for s, code in pairs}
    table.update({fold(s): code for s, code in pairs})
    return table


def display_value(vocab: str, code: str, lang: str) -> str:
    """The first RU or EN spelling of a value: `display_value("role", "don", "en")` → Don."""
    ru, en = VALUES[vocab][code][:2]
    return Text(ru, en)(lang)


# Phases: Д1 < Н1 < Д2 < Н2 … encoded as an ordinal: day k → 2k−1, night k → 2k.
# Written `Н2`, `н.2`, `Ночь 2`, `2Н`, `2-я ночь`, `N2`, `2n`, `night 2`, `H2` (a Latin H
# for the Cyrillic Н): a letter or word for day or night, and the number, in either order.
_PHASE_WORDS = (
    ("ночь", "н"),
    ("ночи", "н"),
    ("night", "н"),
    ("день", "д"),
    ("дня", "д"),
    ("day", "д"),
)
_PHASE_LETTERS = str.maketrans({"n": "н", "h": "н", "d": "д"})
_PHASE = re.compile(r"^(?:([дн])(\d{1,2})|(\d{1,2})[яйе]?([дн]))$")


def parse_phase(text: str) -> int | None:
    """`'Н1'` → 2, `'d3'` → 5, `'Ночь 2'` → 4, `'2Н'` → 4; None when it is not a phase."""
    folded = fold(text)
    for word, letter in _PHASE_WORDS:
        folded = folded.replace(word, letter)
    folded = folded.translate(_PHASE_LETTERS).replace(" ", "").replace("-", "")
    match = _PHASE.match(folded)
    if not match:
        return None
    letter = match.group(1) or match.group(4)
    number = int(match.group(2) or match.group(3))
    if number < 1:
        return None
    return 2 * number - 1 if letter == "д" else 2 * number


# A departure whose phase the sheet has no place for (a blank's «Дисквалифицирован» row,
# four foul boxes filled): the reader writes PHASE_NOT_WRITTEN (findings then quote the
# departure the judge typed); a judge may type `?` or a word of PHASE_UNKNOWN_WORDS too.
PHASE_UNKNOWN = "?"
PHASE_NOT_WRITTEN = "не записана"
PHASE_UNKNOWN_WORDS = frozenset({"неизвестно", "не записана", "unknown", "not recorded"})
# Departures a player may leave by at any moment, without a phase that matters to points:
# a game sheet may have no place for their phase (`?`), and the game is still judged.
PHASELESS = ("disqualified", "fouled", "team_removal", "gave_up")


def phase_unknown(text: object) -> bool:
    """`?` (or «неизвестно») in place of a phase: the departure happened, its phase is not
    on the sheet."""
    return str(text).strip() == PHASE_UNKNOWN or fold(text) in PHASE_UNKNOWN_WORDS


_DAY, _NIGHT = Text("Д", "D"), Text("Н", "N")


def phase_name(ordinal: int, lang: str) -> str:
    """2 → `'Н1'` (ru) / `'N1'` (en)."""
    day = ordinal % 2 == 1
    number = (ordinal + 1) // 2
    letter = (_DAY if day else _NIGHT)(lang)
    return f"{letter}{number}"


FIRST_NIGHT = 2  # Н1 as an ordinal: the night of the best move and of tie-break 4


def is_day(ordinal: int) -> bool:
    return ordinal % 2 == 1


# Games numbered at each table from 1: the key is (table, game), kept as its Russian
# words (`стол 2, игра 3`; a season prefixes the file, `night-2/стол 2, игра 3`) and shown
# in the language of the output by :func:`game_name`.
PER_TABLE = Text("стол {table}, игра {game}", "table {table}, game {game}")
_PER_TABLE_KEY = re.compile(r"(?:^|(?<=/))стол (.+?), игра (.+)$")
PER_TABLE_MARK = "стол "  # what every per-table key holds (`_PER_TABLE_KEY` needs it)


def per_table_key(table: object, game: object) -> str:
    """The key of game `game` at table `table`: `'стол 2, игра 3'`."""
    return PER_TABLE.ru.format(table=table, game=game)


def game_name(game: object, lang: str) -> str:
    """A game id as shown: a per-table key in the output language, any other id as is.

    >>> game_name("стол 2, игра 3", "en"), game_name("night-2/стол 1, игра 10", "en")
    ('table 2, game 3', 'night-2/table 1, game 10')
    >>> game_name("стол 2, игра 3", "ru"), game_name(7, "en")
    ('стол 2, игра 3', '7')
    """
    text = str(game)
    if PER_TABLE_MARK not in text:  # no key in it to reword: most ids, each met once
        return text
    return _PER_TABLE_KEY.sub(
        lambda m: PER_TABLE(lang).format(table=m.group(1), game=m.group(2)), text
    )


# The roles as words inside a setting's name: «Баллы за победу: шериф».
ROLE_WORDS = {
    "civilian": ("мирный", "civilian"),
    "sheriff": ("шериф", "sheriff"),
    "mafia": ("мафия", "mafia"),
    "don": ("дон", "don"),
}

# Tournament settings: canonical key → (RU, EN) names. Point keys map to the rule set.
SETTINGS: dict[str, Text] = {
    "name": Text("Название", "Name"),
    "dates": Text("Даты", "Dates"),
    "city": Text("Город", "City"),
    "chief_judge": Text("Главный судья", "Chief judge"),
    "season_name": Text("Название сезона", "Season name"),
    "edition": Text("Правила", "Rules"),  # a scoring edition by name (SPEC §2.1)
    "apply_k": Text("Коэффициент K", "Coefficient K"),
    "draws_in_n": Text("Ничьи в N", "Draws in N"),
    "geo_rule_7": Text("Гео-правило 7", "Geo rule 7"),
    "draw_quiet_phases": Text("Ничья после фаз без выбываний", "Draw after quiet phases"),
    "win_when_disqualified": Text("Победа при дисквалификации", "Win points when disqualified"),
    "win": Text("Баллы за победу", "Win points"),
    "disqualification": Text("Штраф за дисквалификацию", "Disqualification penalty"),
    "best_move_3": Text("Лучший ход: 3 чёрных", "Best move: 3 black"),
    "best_move_2": Text("Лучший ход: 2 чёрных", "Best move: 2 black"),
    "bp": Text("ЛИ", "BP"),
    "bp2": Text("ЛИ2", "BP2"),
    "bpl": Text("ЛИП", "BPL"),
    # Scoring editions (SPEC §2.1): every value of a preset is one of these settings.
    **{
        f"win_{role}": Text(f"Баллы за победу: {ru}", f"Win points: {en}")
        for role, (ru, en) in ROLE_WORDS.items()
    },
    **{
        f"loss_{role}": Text(f"Баллы за поражение: {ru}", f"Loss points: {en}")
        for role, (ru, en) in ROLE_WORDS.items()
    },
    **{
        f"draw_{role}": Text(f"Баллы за ничью: {ru}", f"Draw points: {en}")
        for role, (ru, en) in ROLE_WORDS.items()
    },
    "k_draws_black": Text("K: ничьи как победы чёрных", "K: draws as black wins"),
    "fouled_out": Text("Штраф за 4 фола", "4th-foul penalty"),
    "team_removal": Text("Штраф за удаление команды", "Team removal penalty"),
    "gave_up": Text("Штраф за отказ от игры", "Give-up penalty"),
    "best_move_1": Text("Лучший ход: 1 чёрный", "Best move: 1 black"),
    "best_move_team": Text("Лучший ход: кому", "Best move: who earns it"),
    "best_move_title": Text("Лучший ход судьи", "Judge's best move"),
    "bp_any_team": Text("ЛИ любой команде", "BP to any team"),
    "auto_bonus": Text("Автодопы", "Auto-bonus"),
    "extras_numeric": Text("Доп числом", "Numeric extras"),
    "extras_min": Text("Доп: минимум", "Extras: minimum"),
    "extras_max": Text("Доп: максимум", "Extras: maximum"),
    "extras_step": Text("Доп: шаг", "Extras: step"),
    "extras_least": Text("Доп: наименьший по модулю", "Extras: least magnitude"),
    "extras_also": Text("Доп: также", "Extras: also"),
    "extras_sum": Text("Доп: сумма за игру", "Extras: sum per game"),
    "extras_players": Text("Доп: игроков за игру", "Extras: players per game"),
    "extras_in_draw": Text("Доп в ничьей", "Extras in a draw"),
    "ci_share": Text("Ci: доля", "Ci: share"),
    "ci_cap": Text("Ci: предел", "Ci: cap"),
    "ci_from": Text("Ci: с игр", "Ci: from games"),
    "ci_when": Text("Ci: когда", "Ci: when"),
    "ci_round": Text("Ci: округление", "Ci: rounding"),
    "tiebreak": Text("Порядок показателей", "Tie-break order"),
    "shared_places": Text("Общие места", "Shared places"),
}

TEXT_SETTINGS = ("name", "dates", "city", "chief_judge", "season_name")
FLAG_SETTINGS = (
    "apply_k",
    "draws_in_n",
    "geo_rule_7",
    "win_when_disqualified",
    "k_draws_black",
    "bp_any_team",
    "extras_numeric",
)
QUIET_SETTING = "draw_quiet_phases"  # 5, 6 or a «no» word (special situation 9)


def setting_lookup() -> dict[str, str]:
    table = {fold(name(lang)): key for key, name in SETTINGS.items() for lang in LANGS}
    # Common short spellings, with a Latin K typed for the Cyrillic К and back.
    table.update(
        {
            "коэффициент к": "apply_k",
            "к": "apply_k",
            "k": "apply_k",
            "coefficient k": "apply_k",
            "турнир": "name",
            "tournament": "name",
            "лучший ход 3": "best_move_3",
            "лучший ход 2": "best_move_2",
            "best move 3": "best_move_3",
            "best move 2": "best_move_2",
            "гео-правило": "geo_rule_7",
            "geo rule": "geo_rule_7",
            "сезон": "season_name",
            "season": "season_name",
            "название рейтинга": "season_name",
            "rating name": "season_name",
        }
    )
    return table
