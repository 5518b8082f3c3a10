"""The protocol's columns, each declared once: name, aliases, parser, accepted values, help.

Everything that knows a column is derived from :data:`SCHEMA`: the header lookup of the
reader, the parser and its finding, the template's dropdowns, number formats and
instructions, and the README's format table (`python -m mafia_sheets.reading.columns`
prints it; a test keeps the README equal to it). To accept a new column or spelling,
change one entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import vocab
from ..text import LANGS, Text
from . import values as v

LAST_PHASE = 24  # Н12: no real game lasts longer; the template's phase dropdown ends there


@dataclass(frozen=True)
class Column:
    """One column of one protocol sheet.

    `parse` turns a cell into its meaning (or :data:`values.BAD`); `accepts` says what a
    valid value looks like, in the bad-value finding and the template's instructions;
    `whole` is the range of a whole-number column (None as the top: no fixed limit).
    """

    name: Text
    help: Text
    parse: Callable[[object], object] = v.parse_text
    aliases: tuple[str, ...] = ()
    header_required: bool = False
    value_required: bool = False
    vocab: str | None = None
    whole: tuple[int, int | None] | None = None
    number_format: str | None = None
    kind: str = "text"  # text | number | vocab | phase | seats | bonus | time | yesno | any
    absent: Text | None = None  # what is not counted when the column is missing
    template: bool = True  # in the blank template; else written only where a game has it

    def accepts(self, lang: str) -> str:
        """What a valid value looks like: `1–10`, `Д1, Н1, Д2 … Н12`, `Мирный, Шериф …`."""
        return _ACCEPTS[self.kind](self, lang)


def _whole(low: int, high: int | None, name: Text, help: Text, **more: Any) -> Column:
    """A whole-number column; without a top, 100,000 only catches typos like 1e9."""
    top = high if high is not None else 100_000
    parse = more.pop("parse", None) or v.integer_in(low, top)
    return Column(name, help, parse, whole=(low, high), kind="number", **more)


def _words(vocab_name: str, name: Text, help: Text, **more: Any) -> Column:
    """A column whose values come from one vocabulary of :mod:`mafia_sheets.vocab`."""
    return Column(name, help, v.vocabulary(vocab_name), vocab=vocab_name, kind="vocab", **more)


def _yes_no(name: Text, help: Text, **more: Any) -> Column:
    return Column(name, help, v.parse_yes_no, vocab="yesno", kind="yesno", **more)


# Aliases rank by their order: when two headers could be one column, the earlier wins
_GAME_ALIASES = (
    "№ игры",
    "игра №",
    "номер игры",
    "# игры",
    "game id",
    "game no",
    "game #",
    "game number",
    "id игры",
    "игра номер",
    "партия",
    "гра",
    "гра №",
    "номер гри",
)
_NICK_ALIASES = (
    "ник",
    "nickname",
    "nick",
    "ник игрока",
    "игрок ник",
    "player name",
    "участник",
    "имя",
    "name",
    "игроки",
    "никнейм",
    "players",
    "гравець",
    "гравці",
    "нік",
    "нікнейм",
)
_SEAT_ALIASES = (
    "№",
    "#",
    "номер места",
    "№ места",
    "место №",
    "место за столом",
    "слот",
    "slot",
    "seat no",
    "seat #",
    "seat number",
    "номер",
    "no",
    "місце",
    "n",
)
_TABLE_ALIASES = ("стол №", "№ стола", "номер стола", "table no", "table #", "стіл", "стіл №")

SCHEMA: dict[str, dict[str, Column]] = {
    "tournament": {
        "setting": Column(
            Text("Параметр", "Setting"),
            Text("Название параметра — не меняйте.", "Setting name — keep it."),
            header_required=True,
        ),
        "value": Column(
            Text("Значение", "Value"),
            Text(
                "Значение; пояснение — в третьей колонке.",
                "The value; the third column explains it.",
            ),
            parse=lambda value: value,
            header_required=True,
            kind="any",
        ),
    },
    "players": {
        "player": Column(
            Text("Игрок", "Player"),
            Text(
                "Ник, уникальный; пишите одинаково на всех листах.",
                "Nickname, unique; spell it the same on every sheet.",
            ),
            aliases=_NICK_ALIASES,
            header_required=True,
            value_required=True,
        ),
        "club": Column(Text("Клуб", "Club"), Text("Клуб (необязательно).", "Club (optional).")),
        "city": Column(Text("Город", "City"), Text("Город (необязательно).", "City (optional).")),
        "removed": _yes_no(
            Text("Удалён с турнира", "Removed from tournament"),
            Text(
                "«да» — удалён с турнира (особая ситуация 4), места не получает.",
                "«yes» — removed (special situation 4): gets no place.",
            ),
            aliases=("удален", "удалён", "removed"),
        ),
        "aliases": Column(
            Text("Другие ники", "Also known as"),
            Text(
                "Другие написания ника этого игрока через запятую («Котик, Kot»): игры под "
                "ними — его игры, одна строка в итогах.",
                "Other spellings of this player's nickname, comma separated («Kitty, Kot»): "
                "games under them are theirs, one row in the standings.",
            ),
            aliases=(
                "другой ник",
                "прежний ник",
                "старый ник",
                "псевдонимы",
                "также известен как",
                "aka",
                "aliases",
                "other nicknames",
                "former nickname",
            ),
        ),
        "team": Column(
            Text("Команда", "Team"),
            Text(
                "Команда (необязательно); при рассадке игроки одной команды или клуба "
                "сидят за разными столами.",
                "Team (optional); seating keeps the players of one team or club at "
                "different tables.",
            ),
        ),
        "judges": Column(
            Text("Судит в турах", "Judges in rounds"),
            Text(
                "Для рассадки: туры, в которых игрок судит и не играет («1, 3–4»).",
                "For seating: the rounds this player judges and does not play («1, 3-4»).",
            ),
            aliases=("судит туры", "судья в турах", "judges rounds", "judging rounds"),
        ),
    },
    "games": {
        "game": Column(
            Text("Игра", "Game"),
            Text(
                "Номер игры (число или текст), уникальный; тот же — в «Протоколе».",
                "Game id (number or text), unique; the same id in «Seats».",
            ),
            # «№» heads the games' own numbers in `Игры` (on `Протокол` it is the seat)
            aliases=(*_GAME_ALIASES, "№", "#"),
            header_required=True,
            value_required=True,
        ),
        "round": _whole(
            0,
            None,
            Text("Тур", "Round"),
            Text("Номер тура (необязательно).", "Round number (optional)."),
            parse=v.parse_round,
            aliases=(
                "тур №",
                "№ тура",
                "раунд",
                "round no",
                "номер тура",
                "стадия",
                "стадия турнира",
                "этап",
                "stage",
                "стадія",
                "етап",
            ),
        ),
        "table": Column(
            Text("Стол", "Table"),
            Text("Стол (необязательно).", "Table (optional)."),
            aliases=_TABLE_ALIASES,
        ),
        "judge": Column(
            Text("Судья", "Judge"),
            Text("Судья за столом (необязательно).", "Table judge (optional)."),
            aliases=(
                "ведущий",
                "судья за столом",
                "referee",
                "host",
                "судья игры",
                "суддя",
                "ведучий",
            ),
        ),
        "result": _words(
            "result",
            Text("Результат", "Result"),
            Text("Кто победил.", "Who won."),
            header_required=True,
            aliases=(
                "победитель",
                "winner",
                "победа",
                "победила команда",
                "победившая команда",
                "кто победил",
                "исход",
                "итог",
                "результат игры",
                "outcome",
                "winning team",
                "won",
                "победила",
                "победители",
                "переможець",
                "перемогла",
                "перемога",
                "результат гри",
                "перемогла команда",
                "победили",
                "победил",
                "winners",
                "перемогли",
            ),
        ),
        "ended": Column(
            Text("Окончание", "Ended"),
            Text(
                "Время окончания, чч:мм: от него отсчитываются 10 минут на протест.",
                "Time the game ended, hh:mm: the 10-minute protest window starts here.",
            ),
            parse=v.parse_time,
            aliases=(
                "конец",
                "end",
                "время окончания",
                "окончание игры",
                "finish",
                "ended at",
                "время",
                "закінчення",
                "кінець",
            ),
            number_format="hh:mm",
            kind="time",
        ),
        "annulled": _yes_no(
            Text("Отменена", "Annulled"),
            Text(
                "«да» — игра отменена по протесту и ничего не даёт.",
                "«yes» — annulled by a protest decision; counts for nothing.",
            ),
            aliases=("аннулирована", "отмена", "cancelled", "canceled", "скасована"),
        ),
        "departures": _words(
            "departures",
            Text("Записаны выбывания", "Departures recorded"),
            Text(
                "«не все» — записаны не все выбывания (так ведут игры онлайн-платформы: "
                "только убитый в первую ночь), и конец игры по ним не проверяется; пусто — "
                "записаны все.",
                "«partial» — not every departure is recorded (as the online platforms keep "
                "games: only the first night's victim), so the game's end is not checked "
                "against them; blank — all are recorded.",
            ),
            aliases=("выбывания записаны", "записаны ли выбывания", "departures logged"),
            template=False,
        ),
    },
    "seats": {
        "game": Column(
            Text("Игра", "Game"),
            Text("Номер игры из листа «Игры».", "Game id from the «Games» sheet."),
            aliases=_GAME_ALIASES,
            header_required=True,
            value_required=True,
        ),
        "seat": _whole(
            1,
            10,
            Text("Место", "Seat"),
            Text(
                "Место за столом; каждое место один раз в игре.",
                "Seat at the table; each seat once per game.",
            ),
            aliases=_SEAT_ALIASES,
            header_required=True,
        ),
        "player": Column(
            Text("Игрок", "Player"),
            Text("Ник игрока.", "Player's nickname."),
            aliases=_NICK_ALIASES,
            header_required=True,
            value_required=True,
        ),
        "role": _words(
            "role",
            Text("Роль", "Role"),
            Text(
                "Роль. Пусто = мирный, как в бумажном протоколе. В игре 6 мирных, "
                "1 шериф, 2 мафии, 1 дон.",
                "Role. Blank = civilian, as on the paper form. A game has 6 "
                "civilians, 1 sheriff, 2 mafia, 1 don.",
            ),
            header_required=True,
            aliases=("роль игрока", "карта", "card", "роли", "roles", "ролі"),
        ),
        "fouls": Column(
            Text("Фолы", "Fouls"),
            Text("Число фолов (пусто = 0).", "Number of fouls (blank = 0)."),
            v.parse_fouls,
            whole=(0, 4),
            kind="number",
            aliases=(
                "фол",
                "foul",
                "фолов",
                "число фолов",
                "кол-во фолов",
                "количество фолов",
                "ф",
                "фоли",
            ),
            absent=Text(
                "фолы не учтены: 4 фола и их выбывания не проверены",
                "fouls are not counted: 4-foul departures are not checked",
            ),
        ),
        "left": _words(
            "left",
            Text("Выбыл", "Left"),
            Text(
                "Как выбыл; пусто — остался за столом до конца.",
                "How the player left; blank = stayed to the end.",
            ),
            aliases=(
                "как выбыл",
                "выбытие",
                "выбывание",
                "уход",
                "статус",
                "departure",
                "eliminated",
                "out",
                "status",
                "покинул",
                "выбыли",
                "departures",
                "вибув",
                "вибуття",
            ),
            absent=Text(
                "выбывания не учтены: штрафы за дисквалификацию и ход игры не учтены, "
                "убитым в первую ночь считается автор лучшего хода",
                "departures are not counted: disqualification penalties and the course "
                "of the game are not counted, the best move's maker is taken as the "
                "first-night victim",
            ),
        ),
        "when": Column(
            Text("Когда", "When"),
            Text(
                "Фаза выбывания: Д1 — первый день, Н1 — ночь после него, Д2, Н2 …",
                "Phase the player left: D1 = day 1, N1 = the night after it, D2, N2 …",
            ),
            parse=v.parse_phase,
            kind="phase",
            aliases=(
                "фаза",
                "phase",
                "фаза выбывания",
                "когда выбыл",
                "выбыл когда",
                "выбыл в",
                "круг",
                "when left",
                "фазы",
                "phases",
                "коли",
            ),
            absent=Text(
                "фазы выбывания не указаны: убитый в первую ночь, его "
                "лучший ход и ход игры не проверены",
                "departure phases are missing: the first-night victim, "
                "the best move and the course of the game are not "
                "checked",
            ),
        ),
        "best_move": Column(
            Text("Лучший ход", "Best move"),
            Text(
                "Только у убитого в первую ночь: три названных места, «3 5 7».",
                "Only for the player killed on night 1: the three seats named, «3 5 7».",
            ),
            # «3,5» would become the number 3.5 in a Russian Excel
            parse=v.parse_seat_list,
            number_format="@",
            kind="seats",
            aliases=(
                "лх",
                "лучш ход",
                "best move",
                "bm",
                "лучший ход лх",
                "ход",
                "лучший ход места",
                "лучший ход игрока",
                "кращий хід",
                "кх",
            ),
            absent=Text("лучший ход не учтён", "best moves are not counted"),
        ),
        "bonus": Column(
            Text("Доп", "Bonus"),
            Text(
                "Доп. баллы судьи: ЛИ (+1) и ЛИ2 (+0,5) — победителям, ЛИП (+0,5) "
                "— проигравшим; каждый вид не больше раза за игру, в ничьей — нет. "
                "Где правила допускают, — число (в их пределах), «Лучший ход судьи» "
                "или «Худший ход» (снимает автодопы).",
                "Judge's awards: BP (+1) and BP2 (+0.5) to winners, BPL (+0.5) "
                "to losers; each at most once per game, none in a draw. Where the "
                "rules allow: a number (within their limits), “Judge's best move”, "
                "or “Worst move” (withholds the auto-bonus).",
            ),
            parse=v.parse_bonus,
            vocab="bonus",
            kind="bonus",
            # not «ЛИ»: it is one of the awards, and a helper column of its own
            aliases=(
                "доп. баллы",
                "доп баллы",
                "бонус",
                "доп балл",
                "дополнительные баллы",
                "доп очки",
                "допы",
                "дб",
                "бонусы",
                "награды",
                "extra",
                "extra points",
                "bonus points",
                "award",
                "awards",
                "дод",
                "дод бали",
                "доп бали",
                "додаткові бали",
            ),
            absent=Text("награды судьи не учтены", "the judge's awards are not counted"),
        ),
        "table": Column(
            Text("Стол", "Table"),
            Text(
                "Стол (нужен, когда игры нумеруются за каждым столом заново).",
                "Table (needed when each table numbers its games from 1).",
            ),
            aliases=_TABLE_ALIASES,
        ),
    },
    "protests": {
        "game": Column(
            Text("Игра", "Game"),
            Text("Номер игры.", "Game id."),
            aliases=_GAME_ALIASES,
            header_required=True,
            value_required=True,
        ),
        "seat": _whole(
            1,
            10,
            Text("Место", "Seat"),
            Text("Место игрока, подавшего протест.", "Seat of the player who filed it."),
        ),
        "filed": Column(
            Text("Подан", "Filed"),
            Text("Время подачи, чч:мм.", "Time filed, hh:mm."),
            parse=v.parse_time,
            aliases=("время", "time"),
            number_format="hh:mm",
            kind="time",
        ),
        "text": Column(Text("Суть", "Text"), Text("Суть протеста.", "What the protest is about.")),
        "decision": _words(
            "decision",
            Text("Решение", "Decision"),
            Text("Решение.", "Decision."),
            header_required=True,
        ),
        "decided_by": _words(
            "decided_by", Text("Кто решил", "Decided by"), Text("Кто решил.", "Who decided.")
        ),
    },
    "lot": {
        "player": Column(
            Text("Игрок", "Player"),
            Text("Ник игрока.", "Player's nickname."),
            aliases=_NICK_ALIASES,
            header_required=True,
            value_required=True,
        ),
        "order": _whole(
            1,
            None,
            Text("Порядок", "Order"),
            Text("Порядок по жребию: 1 — выиграл жребий.", "Order drawn: 1 wins the lot."),
            aliases=("жребий", "lot", "место по жребию", "номер по жребию"),
            header_required=True,
        ),
    },
}


@dataclass(frozen=True)
class Field:
    """A field that game sheets («бланк») and game rows label and the row layout has no
    column for: the kills row, the protest line, the tournament's name …

    `level` says where it sits: `game` — once per game (a header field, a footer line, a
    row of phases); `seat` — a column of the seat grid. A field that is not `counted`
    carries nothing the rating uses (the sheriff's checks, the judge's own sums): its
    label is read, and whatever is typed in it is listed among the cells not read, with
    the reason, so that nothing on a sheet is lost in silence.
    """

    name: Text
    help: Text
    aliases: tuple[str, ...] = ()
    level: str = "game"
    counted: bool = True


_NOT_COUNTED = Text("не влияет на баллы", "carries no points")

# Aliases rank by their order, as the columns' do; a label names one field only.
SHEET_FIELDS: dict[str, Field] = {
    "tournament": Field(
        Text("Турнир", "Tournament"),
        Text(
            "Название турнира; без листа «Турнир» — название итогов.",
            "The tournament's name; without a Tournament sheet, the results' title.",
        ),
        aliases=("турнір", "название турнира", "tournament name", "назва турніру"),
    ),
    "date": Field(
        Text("Дата", "Date"),
        Text("Дата игры (для справки).", "The game's date (for reference)."),
        aliases=("дата игры", "дата гри", "game date"),
    ),
    "club": Field(
        Text("Клуб", "Club"),
        Text("Клуб (для справки).", "Club (for reference)."),
        aliases=("club name",),
    ),
    "first_killed": Field(
        Text("Первый убитый", "First killed"),
        Text(
            "Место убитого в первую ночь: его лучший ход.",
            "Seat of the player killed on night 1: the best move is theirs.",
        ),
        aliases=(
            "убит первым",
            "пу",
            "первоубиенный",
            "убит в первую ночь",
            "killed first",
            "first victim",
            "перший вбитий",
            "вбитий першим",
            "первый отстрел",
        ),
    ),
    "kills": Field(
        Text("Убит ночью", "Killed at night"),
        Text(
            "Места убитых, по ячейке на ночь (Н1, Н2 …); пусто или «-» — промах.",
            "Seats killed, one cell a night (N1, N2 …); blank or «-» for a miss.",
        ),
        aliases=(
            "убит",
            "убиты",
            "убитые",
            "убиты ночью",
            "отстрел",
            "стрельба",
            "убийства",
            "killed",
            "kills",
            "shot",
            "night kills",
            "вбито",
            "вбиті",
            "вбитий",
            "вбивства",
            "відстріл",
            "ночь",
            "ночи",
            "night",
            "nights",
            "ніч",
        ),
    ),
    "votes": Field(
        Text("Заголосован днём", "Voted out by day"),
        Text(
            "Места заголосованных, по ячейке на день (Д1, Д2 …); «37» — места 3 и 7.",
            "Seats voted out, one cell a day (D1, D2 …); «37» is seats 3 and 7.",
        ),
        aliases=(
            "заголосован",
            "заголосованы",
            "заголосованные",
            "ушли",
            "ушел",
            "ушли днем",
            "voted out",
            "voted",
            "votes",
            "заголосовані",
            "заголосований",
            "заголосовано",
            "день",
            "дни",
            "day",
            "days",
        ),
    ),
    "disqualified": Field(
        Text("Дисквалифицирован", "Disqualified"),
        Text(
            "Места дисквалифицированных (−1); фаза, если записана («5 Д3»).",
            "Seats disqualified (−1); the phase when written («5 D3»).",
        ),
        aliases=(
            "дисквалифицированы",
            "дисквалификация",
            "удален",
            "удалены",
            "удаление",
            "дискваліфіковано",
            "дискваліфікація",
            "дискваліфікований",
            "видалення",
            "видалений",
            "disqualification",
        ),
    ),
    "protest": Field(
        Text("Протест", "Protest"),
        Text(
            "Протест, записанный на бланке: перенесите его на лист «Протесты».",
            "A protest written on the sheet: copy it to the Protests sheet.",
        ),
        aliases=("протесты", "protests", "протести"),
    ),
    "points": Field(
        Text("Баллы", "Points"),
        Text(
            "Суммы судьи: баллы считает программа.",
            "The judge's sums: the program computes points.",
        ),
        aliases=("балл", "очки", "score", "бали", "итого", "сумма", "total"),
        level="seat",
        counted=False,
    ),
    "sheriff_checks": Field(
        Text("Проверки шерифа", "Sheriff's checks"),
        _NOT_COUNTED,
        aliases=("перевірки шерифа", "проверки комиссара", "sheriff checks"),
        counted=False,
    ),
    "don_checks": Field(
        Text("Проверки дона", "Don's checks"),
        _NOT_COUNTED,
        aliases=("перевірки дона", "don checks"),
        counted=False,
    ),
    "misses": Field(
        Text("Промахи", "Misses"),
        _NOT_COUNTED,
        aliases=("промах", "miss", "промахи мафии"),
        counted=False,
    ),
    "nominated": Field(
        Text("Номинированы на лучших", "Nominated as best"),
        _NOT_COUNTED,
        aliases=("номіновані на кращих", "номинированы", "nominated"),
        counted=False,
    ),
    "hand": Field(
        Text("Рука чёрных", "Hand of the blacks"),
        _NOT_COUNTED,
        aliases=("рука чорних", "рука мафии", "рука мафії", "hand of mafia"),
        counted=False,
    ),
    "revealed": Field(
        Text("Вскрылся", "Revealed"),
        _NOT_COUNTED,
        aliases=("вскрився", "вскрылась", "вскрытие", "revealed himself"),
        counted=False,
    ),
    "breaks": Field(
        Text("Сломы", "Breaks"),
        _NOT_COUNTED,
        aliases=("зломи", "слом", "злам", "breaks of the game"),
        counted=False,
    ),
    "wills": Field(
        Text("Завещания", "Last words"),
        _NOT_COUNTED,
        aliases=("заповіти", "завещание", "заповіт", "wills"),
        counted=False,
    ),
    "win_kind": Field(
        Text("Как победили", "How the game was won"),
        _NOT_COUNTED,
        aliases=("3x3", "2x2", "1x1", "чистая", "чиста", "сухая", "суха", "clean win"),
        counted=False,
    ),
}

# ---- derived views ---------------------------------------------------------------------------

COLUMNS: dict[str, dict[str, Text]] = {
    sheet: {code: column.name for code, column in columns.items()}
    for sheet, columns in SCHEMA.items()
}
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    sheet: tuple(code for code, column in columns.items() if column.header_required)
    for sheet, columns in SCHEMA.items()
}


def column_lookup(sheet: str) -> dict[str, str]:
    """Folded column header (either language, or a known alias) → column code."""
    table = {
        vocab.fold(column.name(lang)): code
        for code, column in SCHEMA[sheet].items()
        for lang in LANGS
    }
    for code, column in SCHEMA[sheet].items():
        table.update({vocab.fold(alias): code for alias in column.aliases})
    return table


def display_values(vocab_name: str, lang: str) -> list[str]:
    """The display spelling of each canonical value: the dropdown list of the template."""
    return [vocab.display_value(vocab_name, code, lang) for code in vocab.VALUES[vocab_name]]


def dropdown(sheet: str, code: str, lang: str) -> list[str]:
    """The template's dropdown entries of a column (empty: no list)."""
    column = SCHEMA[sheet][code]
    if column.kind == "phase":
        return [vocab.phase_name(ordinal, lang) for ordinal in range(1, LAST_PHASE + 1)]
    return display_values(column.vocab, lang) if column.vocab else []


# ---- what each kind accepts ------------------------------------------------------------------

_ROLE_EXTRA = Text("пусто = Мирный; К, Ш, М, Д", "blank = Civilian; C, S, M, D")
_BONUS_EXTRA = Text(
    "или 1, 0,5; числа — где правила допускают", "or 1, 0.5; numbers where the rules allow"
)


def _accept_number(column: Column, lang: str) -> str:
    assert column.whole is not None
    low, high = column.whole
    return f"{low}–{high}" if high is not None else f"≥ {low}"


def _accept_vocab(column: Column, lang: str) -> str:
    assert column.vocab is not None
    entries = ", ".join(display_values(column.vocab, lang))
    if column.vocab == "role":
        return f"{entries} ({_ROLE_EXTRA(lang)})"
    if column.kind == "bonus":
        return f"{entries} ({_BONUS_EXTRA(lang)})"
    return entries


def _accept_phase(column: Column, lang: str) -> str:
    first = ", ".join(vocab.phase_name(n, lang) for n in (1, 2, 3))
    return f"{first} … {vocab.phase_name(LAST_PHASE, lang)}"


_ACCEPTS: dict[str, Callable[[Column, str], str]] = {
    "text": lambda column, lang: "",
    "any": lambda column, lang: Text("да, нет, числа", "yes, no, numbers")(lang),
    "number": _accept_number,
    "vocab": _accept_vocab,
    "bonus": _accept_vocab,
    "yesno": _accept_vocab,
    "phase": _accept_phase,
    "seats": lambda column, lang: "3 5 7",
    "time": lambda column, lang: "19:45",
}


def format_table(lang: str = "en") -> str:
    """The README's table of protocol columns, in Markdown."""
    head = Text(
        "| лист | столбец | другие заголовки | обязателен | значения | что вписывать |",
        "| sheet | column | other headers | required | values | what to enter |",
    )
    lines = [head(lang), "|---|---|---|---|---|---|"]
    for sheet, columns in SCHEMA.items():
        for column in columns.values():
            aliases = ", ".join(f"`{a}`" for a in column.aliases)
            required = "✓" if column.header_required else ""
            lines.append(
                f"| {vocab.SHEETS[sheet].both()} | {column.name.both()} | {aliases} | "
                f"{required} | {column.accepts(lang)} | {column.help(lang)} |"
            )
    return "\n".join([*lines, "", *_fields_table(lang)])


def _fields_table(lang: str) -> list[str]:
    """The fields only game sheets and game rows label, after the columns they share."""
    head = Text(
        "| поле бланка | другие подписи | читается | что в нём |",
        "| game-sheet field | other labels | read | what it holds |",
    )
    lines = [head(lang), "|---|---|---|---|"]
    for declared in SHEET_FIELDS.values():
        aliases = ", ".join(f"`{a}`" for a in declared.aliases)
        counted = "✓" if declared.counted else ""
        lines.append(f"| {declared.name.both()} | {aliases} | {counted} | {declared.help(lang)} |")
    return lines


if __name__ == "__main__":
    print(format_table())
