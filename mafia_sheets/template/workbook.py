"""The blank protocol workbook of SPEC §2 that judges type games into (`mafia-sheets template`).

The workbook must read back as an empty-but-valid protocol, so protocol sheets hold only
canonical headers and plain values: no merged cells, no formulas, nothing hidden.
Dropdowns are inline lists, because lists that point at another sheet are dropped when
openpyxl (or our own `check --annotate`) saves a copy. Lists warn instead of refusing,
since the reader also accepts short forms (К, Ш, М, Д) and spellings a dropdown cannot hold.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from .. import text as texts
from ..reading.columns import COLUMNS, SCHEMA, display_values, dropdown
from ..rules import load_rules
from ..text import LANGS, Text
from ..vocab import FLAG_SETTINGS, QUIET_SETTING, SETTINGS, SHEETS, display_value
from .roster import PlayerRow

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

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
        "Настройки турнира (необязательно). Пустое значение — правило регламента ФИИМ.",
        "Tournament settings (optional). A blank value means the FIIM default.",
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
}

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
    book = Workbook()
    _instructions_sheet(book.worksheets[0], lang)
    rows = {
        "tournament": _settings_rows(lang, settings or {}),
        "players": roster_rows(players),
        "games": [[game] for game in range(1, games + 1)],
        "seats": [
            [game, seat] for game in range(1, games + 1) for seat in range(1, SEATS_PER_GAME + 1)
        ],
        **(filled or {}),
    }
    for code, name in SHEETS.items():
        sheet = book.create_sheet(name(lang))
        _protocol_sheet(sheet, code, lang, rows.get(code, []), (extra or {}).get(code, ()))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


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


def _protocol_sheet(
    sheet: Worksheet, code: str, lang: str, rows: list[list[Any]], extra: Sequence[str] = ()
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
    _header_row(sheet, headers, widths)
    for row in rows:
        sheet.append(row)
    _borders(sheet, len(rows), len(headers))
    last_row = max(VALIDATED_ROWS[code], len(rows) + VALIDATED_ROWS[code] // 2)
    for index, column in enumerate(columns, start=1):
        _column_rules(sheet, code, column, index, last_row, lang)
    if code == "tournament":
        _flag_dropdown(sheet, lang)
    _print_setup(sheet, lang, sum(widths))


def _header_row(sheet: Worksheet, headers: Sequence[str], widths: Sequence[int]) -> None:

    sheet.append(list(headers))
    for index, width in enumerate(widths, start=1):
        cell = sheet.cell(row=1, column=index)
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor=HEADER_FILL)
        cell.border = _thin_border()
        cell.alignment = Alignment(vertical="center", wrap_text=True)
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = "A2"


def _thin_border() -> Any:

    side = Side(style="thin", color="808080")
    return Border(left=side, right=side, top=side, bottom=side)


def _borders(sheet: Worksheet, count: int, width: int) -> None:
    """Grid lines on pre-filled rows so a printed blank reads like the paper form."""
    border = _thin_border()
    for row in sheet.iter_rows(min_row=2, max_row=count + 1, max_col=width):
        for cell in row:
            cell.border = border


def _column_rules(
    sheet: Worksheet, code: str, column: str, index: int, last_row: int, lang: str
) -> None:
    """Dropdown, number range and display format of one column, rows 2..last_row."""

    letter = get_column_letter(index)
    target = f"{letter}2:{letter}{last_row}"
    declared = SCHEMA[code][column]
    entries = dropdown(code, column, lang)
    if entries:
        sheet.add_data_validation(_list_validation(entries, target, lang, code, column))
    if declared.whole is not None:
        sheet.add_data_validation(_number_validation(*declared.whole, target, lang))
    if declared.number_format is not None:
        sheet.column_dimensions[letter].number_format = declared.number_format


def nickname_list(players: Sequence[PlayerRow]) -> list[str]:
    """The roster's nicknames for an inline dropdown, as a cell shows them (control
    characters escaped); none when one holds a list's separator or quote, or the list is
    longer than Excel lets an inline list be."""
    names = [texts.cell(p.nickname) for p in players]
    if len('"' + ",".join(names) + '"') > 257 or any("," in n or '"' in n for n in names):
        return []
    return names


def _list_validation(
    entries: Sequence[str], target: str, lang: str, code: str = "", column: str = ""
) -> Any:

    formula = '"' + ",".join(entries) + '"'
    # Excel refuses to open a workbook whose inline list is longer than this.
    if len(formula) > 255 + 2 or any("," in entry for entry in entries):
        raise ValueError(f"dropdown {entries} does not fit an inline list")
    title, message = (text(lang) for text in LIST_ERROR)
    validation = DataValidation(
        type="list",
        formula1=formula,
        allow_blank=True,
        showErrorMessage=True,
        errorStyle="warning",
        errorTitle=title,
        error=message,
    )
    if (code, column) == ("seats", "role"):
        # The one rule a judge cannot see in the dropdown itself.
        validation.showInputMessage = True
        validation.promptTitle = COLUMNS[code][column](lang)
        validation.prompt = SCHEMA[code][column].help(lang)
    for part in target.split():  # separate cells such as the flag rows of «Турнир»
        validation.add(part)
    return validation


def _number_validation(low: int, high: int | None, target: str, lang: str) -> Any:

    title = NUMBER_ERROR(lang)
    if high is None:
        validation = DataValidation(
            type="whole", operator="greaterThanOrEqual", formula1=str(low), error=f"≥ {low}"
        )
    else:
        validation = DataValidation(
            type="whole",
            operator="between",
            formula1=str(low),
            formula2=str(high),
            error=f"{low}–{high}",
        )
    validation.allow_blank = True
    validation.showErrorMessage = True
    validation.errorStyle = "stop"
    validation.errorTitle = title
    validation.add(target)
    return validation


def _print_setup(sheet: Worksheet, lang: str, total_width: int) -> None:
    """A4, one page wide, header row on every page, sheet name on top, page numbers below."""
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.page_setup.orientation = "landscape" if total_width > PORTRAIT_MAX_WIDTH else "portrait"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    fit = sheet.sheet_properties.pageSetUpPr
    assert fit is not None  # openpyxl creates it with every sheet
    fit.fitToPage = True
    sheet.print_title_rows = "1:1"
    header, footer = sheet.oddHeader, sheet.oddFooter
    assert header is not None and footer is not None  # openpyxl creates both with every sheet
    header.center.text = "&A"
    footer.center.text = FOOTER(lang)


# ---- Турнир ------------------------------------------------------------------------------


def _settings_rows(lang: str, given: dict[str, Any]) -> list[list[Any]]:
    """Every setting key with the bundled rule set's default (or the value `given`) and
    what it means."""
    rules = load_rules()
    rows: list[list[Any]] = []
    for key, name in SETTINGS.items():
        value: Any = None
        if key in given:
            rows.append([name(lang), given[key], SETTING_HELP[key](lang)])
            continue
        if key in FLAG_SETTINGS:
            value = display_value("yesno", "yes" if getattr(rules, key) else "no", lang)
        elif key == QUIET_SETTING:
            value = rules.draw_quiet_phases or display_value("yesno", "no", lang)
        elif key in rules.points:
            value = _number(rules.points[key])
        rows.append([name(lang), value, SETTING_HELP[key](lang)])
    return rows


def _number(value: Fraction) -> int | float:
    # Regulation values are halves and quarters: exact as binary floats.
    return int(value) if value.denominator == 1 else float(value)


def _flag_dropdown(sheet: Worksheet, lang: str) -> None:
    cells = [f"B{row}" for row, key in enumerate(SETTINGS, start=2) if key in FLAG_SETTINGS]
    validation = _list_validation(display_values("yesno", lang), " ".join(cells), lang)
    sheet.add_data_validation(validation)
    # special situation 9: the two readings of the window, or off
    row = list(SETTINGS).index(QUIET_SETTING) + 2
    no = display_value("yesno", "no", lang)
    sheet.add_data_validation(_list_validation(["5", "6", no], f"B{row}", lang))


# ---- Инструкция --------------------------------------------------------------------------


def _instructions_sheet(sheet: Worksheet, lang: str) -> None:
    """How to fill each sheet: one row per column with its meaning and allowed values."""

    sheet.title = INSTRUCTIONS[lang]
    widths = (26, 70, 44)
    _header_row(sheet, [text(lang) for text in INSTRUCTION_HEADERS], widths)
    for text in GENERAL:
        sheet.append(["", text(lang), ""])
    for code, name in SHEETS.items():
        sheet.append([name(lang), SHEET_HELP[code](lang), ""])
        for cell in sheet[sheet.max_row]:
            cell.font = Font(bold=True)
            cell.fill = PatternFill("solid", fgColor=SECTION_FILL)
        for declared in SCHEMA[code].values():
            sheet.append([declared.name(lang), declared.help(lang), declared.accepts(lang)])
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(vertical="top", wrap_text=True)
        # Neither Excel nor LibreOffice grows a row for wrapped text written by a library.
        lines = max(
            -(-len(str(cell.value or "")) // (width - 3))
            for cell, width in zip(row, widths, strict=True)
        )
        sheet.row_dimensions[int(row[0].row or 1)].height = LINE_HEIGHT * max(lines, 1)
    _print_setup(sheet, lang, sum(widths))
