"""The blank protocol workbook of SPEC §2 that judges type games into (`mafia-sheets template`).

The workbook must read back as an empty-but-valid protocol, so protocol sheets hold only
canonical headers and plain values: no merged cells, no formulas, nothing hidden. It is
written through the report's engine, like every workbook the product writes.
Dropdowns are inline lists, because lists that point at another sheet are dropped when
openpyxl (or our own `check --annotate`) saves a copy. Lists warn instead of refusing,
since the reader also accepts short forms (К, Ш, М, Д) and spellings a dropdown cannot hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import text as texts
from ..reading.columns import COLUMNS, SCHEMA, display_values, dropdown
from ..reading.settings import shown_value
from ..report.engine import Book, Dropdown, Page, Sheet, Style, cell_name, open_book
from ..rules import CHOICE_KEYS, RULE_KEYS, load_rules, presets
from ..text import LANGS, Text
from ..vocab import FLAG_SETTINGS, QUIET_SETTING, ROLE_WORDS, SETTINGS, SHEETS, display_value
from .roster import PlayerRow

# The first sheet, by language (tests and the CLI look it up by name).
INSTRUCTIONS = {lang: Text("Инструкция", "Instructions")(lang) for lang in LANGS}
SEATS_PER_GAME = 10
# How far dropdowns reach, so judges can add rows; widened when pre-filled rows go further.
VALIDATED_ROWS = {
    "tournament": 100,
    "players": 2000,
    "games": 2000,
    "seats": 20000,
    "protests": 2000,
    "lot": 2000,
}
WIDTHS = {
    "player": 24,
    "club": 20,
    "city": 16,
    "text": 50,
    "judge": 20,
    "result": 14,
    "left": 20,
    "decision": 18,
    "decided_by": 26,
    "setting": 30,
    "value": 18,
    "removed": 20,
}
LINE_HEIGHT = 15  # points per line of the default 11-pt font
PORTRAIT_MAX_WIDTH = 95  # characters of column width that fit across portrait A4

HEADER_FILL = "DDEBF7"
SECTION_FILL = "F2F2F2"


# ---- text --------------------------------------------------------------------------------

GENERAL: tuple[Text, ...] = (
    Text(
        "Одна книга — один турнир (или сезон клуба). Обязательны листы «Игры» и «Протокол», "
        "остальные можно оставить пустыми.",
        "One workbook = one tournament (or one club season). The «Games» and «Seats» sheets are "
        "required; the others may stay empty.",
    ),
    Text(
        "Не меняйте заголовки в строке 1. Порядок колонок не важен, лишние колонки и пустые "
        "строки пропускаются. Регистр букв и «ё/е» не важны.",
        "Keep the headers in row 1 as they are. Column order does not matter; extra columns and "
        "blank rows are ignored; so are letter case and «ё/е».",
    ),
    Text(
        "Значения выбирайте из выпадающих списков. Русские и английские значения можно смешивать.",
        "Pick values from the dropdown lists. Russian and English values may be mixed.",
    ),
    Text(
        "Проверка: mafia-sheets check файл.xlsx. Итоги: mafia-sheets rate файл.xlsx.",
        "Check: mafia-sheets check file.xlsx. Standings: mafia-sheets rate file.xlsx.",
    ),
)

SHEET_HELP: dict[str, Text] = {
    "tournament": Text(
        "Настройки турнира (необязательно). «Правила» — редакция подсчёта (по умолчанию "
        "регламент); пустое значение — значение этих правил.",
        "Tournament settings (optional). “Rules” names the scoring edition (the regulation "
        "by default); a blank value is that edition's own.",
    ),
    "players": Text(
        "Список игроков (необязательно). Если заполнен, каждый ник из «Протокола» "
        "должен быть здесь.",
        "Roster (optional). When filled, every nickname in «Seats» must be listed here.",
    ),
    "games": Text("Одна строка на игру (обязательно).", "One row per game (required)."),
    "seats": Text(
        "Десять строк на игру, места 1–10 (обязательно).",
        "Ten rows per game, seats 1–10 (required).",
    ),
    "protests": Text(
        "Протесты (необязательно): подаются в течение 10 минут после окончания игры. "
        "Протест «на рассмотрении» делает итоги предварительными.",
        "Protests (optional): filed within 10 minutes after the game ended. A pending "
        "protest makes the results provisional.",
    ),
    "lot": Text(
        "Жребий (необязательно): заполняет главный судья после жеребьёвки между игроками "
        "с равными показателями.",
        "Lot (optional): filled by the chief judge after a draw between tied players.",
    ),
}

SETTING_HELP: dict[str, Text] = {
    "name": Text(
        "Печатается на каждой странице итогов; пусто — имя файла.",
        "Printed on every results page; blank = the file name.",
    ),
    "dates": Text("Даты турнира, для заголовка страниц.", "Tournament dates, for page headers."),
    "city": Text("Город, для заголовка страниц.", "City, for page headers."),
    "chief_judge": Text("Главный судья, для заголовка страниц.", "Chief judge, for page headers."),
    "season_name": Text(
        "Название сезона, когда итоги считаются по нескольким файлам сразу; "
        "пусто — название первого файла.",
        "The season's title when several files are rated as one; blank = the first file's name.",
    ),
    "apply_k": Text("Применять коэффициент K (регламент 8.5).", "Apply coefficient K (reg. 8.5)."),
    "draws_in_n": Text("Считать ничьи в N при расчёте K.", "Count drawn games in N for K."),
    "geo_rule_7": Text("Действует особая ситуация 7.", "Special situation 7 applies."),
    "draw_quiet_phases": Text(
        "Особая ситуация 9: ничья после стольких фаз подряд без выбываний, "
        "начиная с ночи: 5 (ночь, день, ночь, день, ночь), 6 или нет.",
        "Special situation 9: a draw after this many phases in a row "
        "without a departure, from a night: 5 (night, day, night, day, "
        "night), 6, or no.",
    ),
    "win_when_disqualified": Text(
        "Дисквалифицированный игрок победившей команды получает баллы "
        "за победу (8.2.1, 8.2.4); штраф −1 остаётся в любом случае.",
        "A disqualified player of the winning team keeps the win "
        "points (8.2.1, 8.2.4); the −1 stays either way.",
    ),
    "win": Text(
        "Каждому игроку победившей команды (8.2).", "Each player of the winning team (8.2)."
    ),
    "disqualification": Text(
        "За дисквалификацию из-за стола, доп. баллы (8.2.4).",
        "Disqualification from the table, additional points (8.2.4).",
    ),
    "best_move_3": Text("Лучший ход: все три места чёрные (8.3).", "Best move: all 3 black (8.3)."),
    "best_move_2": Text("Лучший ход: ровно два чёрных (8.3).", "Best move: exactly 2 black (8.3)."),
    "bp": Text("ЛИ, победившей команде (8.4).", "BP, to the winning team (8.4)."),
    "bp2": Text("ЛИ2, победившей команде (8.4).", "BP2, to the winning team (8.4)."),
    "bpl": Text("ЛИП, проигравшей команде (8.4).", "BPL, to the losing team (8.4)."),
    "edition": Text(
        "Правила подсчёта по названию (mafia-sheets rules — список); строки ниже меняют "
        "отдельные значения.",
        "Scoring rules by name (mafia-sheets rules lists them); the rows below change "
        "single values.",
    ),
    **{
        f"win_{role}": Text(
            f"Баллы за победу, если правила платят роли «{ru}» отдельно.",
            f"Win points where the rules pay the {en} apart.",
        )
        for role, (ru, en) in ROLE_WORDS.items()
    },
    **{
        f"loss_{role}": Text(
            f"Баллы за поражение роли «{ru}» (клубные правила).",
            f"Loss points of the {en} (club editions).",
        )
        for role, (ru, en) in ROLE_WORDS.items()
    },
    **{
        f"draw_{role}": Text(f"Баллы за ничью роли «{ru}».", f"Draw points of the {en}.")
        for role, (ru, en) in ROLE_WORDS.items()
    },
    "k_draws_black": Text(
        "K по доле побед красных, как на сайте рейтинга: ничьи — победы чёрных.",
        "K from the red win share, as the rating site: draws count as black wins.",
    ),
    "fouled_out": Text(
        "Штраф за выбывание по 4-му фолу, ≤ 0, доп. баллы.",
        "Penalty for leaving on a 4th foul, ≤ 0, additional points.",
    ),
    "team_removal": Text(
        "Штраф за «удалён с поражением команды», ≤ 0 (вместо дисквалификации).",
        "Penalty for a “team removal”, ≤ 0 (instead of the disqualification's).",
    ),
    "gave_up": Text("Штраф за «отказ от игры», ≤ 0.", "Penalty for “gave up”, ≤ 0."),
    "best_move_1": Text("Лучший ход: ровно один чёрный.", "Best move: exactly 1 black."),
    "best_move_team": Text(
        "Кто получает баллы за лучший ход: красным или всем.",
        "Who earns the best move: red players or anyone.",
    ),
    "best_move_title": Text(
        "«Лучший ход судьи» в «Доп»: звание судьи, не лучший ход первой ночи.",
        "“Judge's best move” in Bonus: the judge's title, not the first-night best move.",
    ),
    "bp_any_team": Text(
        "ЛИ можно дать игроку любой команды, и в ничьей.",
        "BP may go to a player of either team, in a draw too.",
    ),
    "auto_bonus": Text(
        "Каждому игроку за игру; «Худший ход» в «Доп» его снимает.",
        "To every player each game; “Worst move” in Bonus withholds it.",
    ),
    "extras_numeric": Text(
        "«Доп» принимает числа (в пределах ниже); иначе ЛИ / ЛИ2 / ЛИП.",
        "Bonus takes numbers (within the limits below); else BP / BP2 / BPL.",
    ),
    "extras_min": Text("Наименьший доп числом; «нет» — без предела.", "Smallest numeric extra."),
    "extras_max": Text("Наибольший доп числом; «нет» — без предела.", "Largest numeric extra."),
    "extras_step": Text("Доп кратен шагу, например 0,1.", "Extras are multiples of it, e.g. 0.1."),
    "extras_least": Text(
        "Доп не меньше этого по модулю, например 0,2.",
        "Extras at least this large in magnitude, e.g. 0.2.",
    ),
    "extras_also": Text(
        "Ещё допустимые значения через «;», например −1,5; −2,1.",
        "Further allowed values separated by “;”, e.g. −1.5; −2.1.",
    ),
    "extras_sum": Text(
        "Сумма положительных допов за игру не больше.", "Positive extras in one game at most."
    ),
    "extras_players": Text("Игроков с допом за игру не больше.", "Players with extras per game."),
    "extras_in_draw": Text(
        "Допы числом в ничьей: нет, только минус или да.",
        "Numeric extras in a draw: no, negatives only, or yes.",
    ),
    "ci_share": Text(
        "Ci = min(доля · F / round(0,4 · N), предел); F — смерти красным в 1-ю ночь, N — игры.",
        "Ci = min(share · F / round(0.4 · N), cap); F: first-night deaths as red, N: games.",
    ),
    "ci_cap": Text("Предел Ci за игру.", "The most Ci per game."),
    "ci_from": Text("Ci только у сыгравших не меньше игр.", "Ci only from this many games."),
    "ci_when": Text(
        "Когда платится Ci: нет, в проигрыше, половина при победе красных или чёрных.",
        "When Ci is paid: no, in lost games, half when red or when black won.",
    ),
    "ci_round": Text("Ci точно или до сотых.", "Ci exact or to hundredths."),
    "tiebreak": Text(
        "После суммы: буквы сайта рейтинга, например (epg)wsk, или показатели через запятую.",
        "After the total: the rating site's letters, e.g. (epg)wsk, or criteria by name.",
    ),
    "shared_places": Text(
        "Равные суммы делят место без жребия: да (2–3, затем 4) или подряд (2, 2, затем 3).",
        "Equal totals share a place, no lot: yes (2–3, then 4) or dense (2, 2, then 3).",
    ),
}

DEFAULT_NOTE = Text(
    " Пусто — по «Правилам» (регламент: {value}).",
    " Blank: as the Rules say (regulation: {value}).",
)

INSTRUCTION_HEADERS: tuple[Text, ...] = (
    Text("Лист / колонка", "Sheet / column"),
    Text("Что вписывать", "What to enter"),
    Text("Допустимые значения", "Allowed values"),
)
EXPLANATION: Text = Text("Пояснение", "Explanation")
FOOTER: Text = Text("Стр. &P из &N", "Page &P of &N")
LIST_ERROR: tuple[Text, Text] = (
    Text("Значение не из списка", "Not in the list"),
    Text(
        "Такого значения нет в списке. Оставить как есть?",
        "This value is not in the list. Keep it anyway?",
    ),
)
NUMBER_ERROR: Text = Text("Нужно целое число", "A whole number is needed")


# ---- the workbook ------------------------------------------------------------------------


def build_template(
    lang: str = "ru",
    games: int = 0,
    players: Sequence[PlayerRow] = (),
    filled: dict[str, list[list[Any]]] | None = None,
    settings: dict[str, Any] | None = None,
    extra: dict[str, Sequence[str]] | None = None,
) -> bytes:
    """The xlsx bytes of a blank protocol: instructions, then the six sheets of SPEC §2.

    `games=N` pre-fills game ids 1..N in «Игры» and ten seat rows per game in «Протокол»;
    `players` become the roster rows of «Игроки». `filled` gives the rows of «Игры» and
    «Протокол» instead (each in the order of :func:`written_columns`, with the columns
    `extra` names that the blank leaves out), and `settings` the values of some «Турнир»
    keys instead of their defaults.
    """

    if lang not in ("ru", "en"):
        raise ValueError(f"unknown language {lang!r}")
    if games < 0:
        raise ValueError("games must not be negative")
    rows = {
        "tournament": _settings_rows(lang, settings or {}),
        "players": roster_rows(players),
        "games": [[game] for game in range(1, games + 1)],
        "seats": [
            [game, seat] for game in range(1, games + 1) for seat in range(1, SEATS_PER_GAME + 1)
        ],
        **(filled or {}),
    }
    with open_book(streamed=False) as book:
        _instructions_sheet(book, lang)
        for code, name in SHEETS.items():
            sheet = book.sheet(name(lang))
            _protocol_sheet(sheet, code, lang, rows.get(code, []), (extra or {}).get(code, ()))
        return book.close()


def roster_rows(players: Sequence[PlayerRow]) -> list[list[Any]]:
    """Roster rows in the order of the «Игроки» columns (blank where a row has nothing)."""
    fields = {"player": "nickname"}
    columns = written_columns("players")
    return [[_written(getattr(p, fields.get(c, c), None)) for c in columns] for p in players]


def _written(value: object) -> object:
    """A roster value as the cell shows it: blank as None, text escaped as every text is."""
    if not value:
        return None
    return texts.cell(value) if isinstance(value, str) else value


def written_columns(code: str, extra: Sequence[str] = ()) -> list[str]:
    """The columns a protocol sheet is written with: the template's, and those of `extra`
    (a column only some games need, such as «Записаны выбывания»)."""
    return [c for c, column in SCHEMA[code].items() if column.template or c in extra]


_BORDER = Style(border=1, border_color="#808080")
HEADER = Style(
    bold=True,
    bg_color=f"#{HEADER_FILL}",
    pattern=1,
    border=1,
    border_color="#808080",
    valign="vcenter",
    text_wrap=True,
)


def _protocol_sheet(
    sheet: Sheet, code: str, lang: str, rows: list[list[Any]], extra: Sequence[str] = ()
) -> None:
    columns = written_columns(code, extra)
    headers = [COLUMNS[code][column](lang) for column in columns]
    widths = [
        max(WIDTHS.get(column, 10), len(header) + 3)
        for column, header in zip(columns, headers, strict=True)
    ]
    if code == "tournament":
        headers.append(EXPLANATION(lang))
        widths.append(60)
    formats = [SCHEMA[code][column].number_format for column in columns]
    _header_row(sheet, headers, widths, formats)
    # grid lines on pre-filled rows, so that a printed blank reads like the paper form
    wrap = code == "tournament"  # the explanations wrap within their column
    for r, row in enumerate(rows, start=1):
        cells = list(row) + [None] * (len(headers) - len(row))
        for c, value in enumerate(cells):
            style = _BORDER if c < len(formats) or not wrap else Style(**_WRAPPED)
            sheet.write(r, c, value, style)
        if wrap:
            sheet.height(r, LINE_HEIGHT * _lines(cells, widths))
    last_row = max(VALIDATED_ROWS[code], len(rows) + VALIDATED_ROWS[code] // 2)
    for index, column in enumerate(columns):
        _column_rules(sheet, code, column, cell_range(index, last_row), lang)
    if code == "tournament":
        _flag_dropdown(sheet, lang)
    _print_setup(sheet, lang, sum(widths))


_WRAPPED: dict[str, Any] = {"border": 1, "border_color": "#808080", "text_wrap": True}


def cell_range(col: int, last_row: int) -> str:
    """`C2:C200`: a column from its first data row to `last_row` (1-based)."""
    return f"{cell_name(1, col)}:{cell_name(last_row - 1, col)}"


def _lines(cells: Sequence[Any], widths: Sequence[int]) -> int:
    """Lines a row's longest wrapped text takes (neither Excel nor LibreOffice grows a row
    for wrapped text written by a library)."""
    needed = [
        -(-len(str(value or "")) // max(width - 3, 1))
        for value, width in zip(cells, widths, strict=False)
    ]
    return max([*needed, 1])


def _header_row(
    sheet: Sheet, headers: Sequence[str], widths: Sequence[int], formats: Sequence[str | None] = ()
) -> None:
    """The header row, frozen; each column's width and its cells' number format."""
    for index, (header, width) in enumerate(zip(headers, widths, strict=True)):
        sheet.text(0, index, header, HEADER)
        number = formats[index] if index < len(formats) else None
        sheet.width(index, index, width, Style(num_format=number) if number else None)


def _column_rules(sheet: Sheet, code: str, column: str, target: str, lang: str) -> None:
    """Dropdown and number range of one column over `target`."""
    declared = SCHEMA[code][column]
    entries = dropdown(code, column, lang)
    if entries:
        sheet.dropdown(target, _list_validation(entries, lang, code, column))
    if declared.whole is not None:
        sheet.whole_numbers(target, declared.whole, NUMBER_ERROR(lang))


def nickname_list(players: Sequence[PlayerRow]) -> list[str]:
    """The roster's nicknames for an inline dropdown, as a cell shows them (control
    characters escaped); none when one holds a list's separator or quote, or the list is
    longer than Excel lets an inline list be."""
    names = [texts.cell(p.nickname) for p in players]
    if len('"' + ",".join(names) + '"') > 257 or any("," in n or '"' in n for n in names):
        return []
    return names


def _list_validation(
    entries: Sequence[str], lang: str, code: str = "", column: str = ""
) -> Dropdown:
    """An inline list that warns; the role's says that a blank is a civilian."""
    title, message = (text(lang) for text in LIST_ERROR)
    prompt = None
    if (code, column) == ("seats", "role"):  # the one rule a judge cannot see in the list
        prompt = (COLUMNS[code][column](lang), SCHEMA[code][column].help(lang))
    return Dropdown(tuple(entries), title, message, prompt)


def _print_setup(sheet: Sheet, lang: str, total_width: int) -> None:
    """A4, one page wide, header row on every page, sheet name on top, page numbers below."""
    sheet.page(
        Page(
            landscape=total_width > PORTRAIT_MAX_WIDTH,
            header="&C&A",
            footer=f"&C{FOOTER(lang)}",
            repeat_rows=(0, 0),
            freeze=(1, 0),
        )
    )


# ---- Турнир ------------------------------------------------------------------------------


def _settings_rows(lang: str, given: dict[str, Any]) -> list[list[Any]]:
    """Every setting key with what it means (or the value `given`). The rules are named,
    not their values: a value typed in a row replaces the chosen rules' own, so the rows
    are left blank and the explanation says the regulation's value."""
    rules = load_rules()
    rows: list[list[Any]] = []
    for key, name in SETTINGS.items():
        value: Any = rules.edition.name(lang) if key == "edition" else None
        explanation = SETTING_HELP[key](lang)
        if key in RULE_KEYS and key != "edition":
            default = shown_value(key, rules.value(key))(lang)
            explanation += DEFAULT_NOTE.format(value=default)(lang)
        rows.append([name(lang), given.get(key, value), explanation])
    return rows


def settings_sheet(sheet: Sheet, lang: str, given: dict[str, Any]) -> None:
    """The «Турнир» sheet of every template, in every layout: each setting with what it
    means and its dropdown, the values `given` filled in."""
    _protocol_sheet(sheet, "tournament", lang, _settings_rows(lang, given))


def _flag_dropdown(sheet: Sheet, lang: str) -> None:
    cells = [f"B{row}" for row, key in enumerate(SETTINGS, start=2) if key in FLAG_SETTINGS]
    sheet.dropdown(" ".join(cells), _list_validation(display_values("yesno", lang), lang))
    # special situation 9: the two readings of the window, or off
    row = list(SETTINGS).index(QUIET_SETTING) + 2
    no = display_value("yesno", "no", lang)
    sheet.dropdown(f"B{row}", _list_validation(["5", "6", no], lang))
    # the editions by name, and every setting whose value is a word
    lists = {"edition": [r.edition.name(lang) for r in presets().values()]}
    lists.update({key: display_values(key, lang) for key in CHOICE_KEYS})
    for key, entries in lists.items():
        row = list(SETTINGS).index(key) + 2
        sheet.dropdown(f"B{row}", _list_validation(entries, lang))


# ---- Инструкция --------------------------------------------------------------------------

SECTION = Style(bold=True, bg_color=f"#{SECTION_FILL}", pattern=1, valign="top", text_wrap=True)
TOP = Style(valign="top", text_wrap=True)


def _instructions_sheet(book: Book, lang: str) -> None:
    """How to fill each sheet: one row per column with its meaning and allowed values."""
    sheet = book.sheet(INSTRUCTIONS[lang])
    widths = (26, 70, 44)
    _header_row(sheet, [text(lang) for text in INSTRUCTION_HEADERS], widths)
    rows: list[tuple[list[str], Style]] = [(["", text(lang), ""], TOP) for text in GENERAL]
    for code, name in SHEETS.items():
        rows.append(([name(lang), SHEET_HELP[code](lang), ""], SECTION))
        rows += [
            ([d.name(lang), d.help(lang), d.accepts(lang)], TOP) for d in SCHEMA[code].values()
        ]
    for r, (cells, style) in enumerate(rows, start=1):
        for c, value in enumerate(cells):
            sheet.write(r, c, value or None, style)
        sheet.height(r, LINE_HEIGHT * _lines(cells, widths))
    _print_setup(sheet, lang, sum(widths))
