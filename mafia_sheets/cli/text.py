"""What the CLI prints, in RU and EN: findings grouped by game, summaries, progress."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..findings import Finding, count
from ..report.headers import ABSENT_SECTION, SECTION, read_as, typed_header
from ..report.phrases import decimal_text
from ..rules import DEFAULT_EDITION
from ..text import Plural, Text, terminal
from ..vocab import game_name

if TYPE_CHECKING:
    from ..model import HeaderRead, Rating

LINES: dict[str, Text] = {
    "error_prefix": Text("Ошибка: ", "Error: "),
    "internal_error": Text(
        "Внутренняя ошибка mafia-sheets ({error}). Ничего не записано. "
        "Запустите ту же команду с --debug и пришлите вывод разработчикам.",
        "Internal error in mafia-sheets ({error}). Nothing was written. "
        "Run the same command with --debug and send the output to the "
        "developers.",
    ),
    "template_written": Text(
        "Протокол записан: {path} (игр: {games}, игроков: {players})",
        "Protocol written: {path} (games: {games}, players: {players})",
    ),
    "no_workbooks": Text(
        "В папке нет книг .xlsx или .ods — укажите файлы протоколов",
        "No .xlsx or .ods workbooks in the folder — name the protocol files",
    ),
    "annotate_one": Text(
        "--annotate работает с одним файлом — укажите один протокол",
        "--annotate works on one file — give one protocol",
    ),
    "annotated_written": Text("Копия с пометками: {path}", "Annotated copy: {path}"),
    "annotated_from_ods": Text(
        "Копия с пометками: {path} — книга Excel (.xlsx) со значениями листов .ods, без их "
        "оформления; ячейки те же, что в .ods",
        "Annotated copy: {path} — an Excel workbook (.xlsx) of the .ods's values, without its "
        "formatting; the cells are those of the .ods",
    ),
    "fix_then_rate": Text(
        "Итоги не посчитаны: исправьте ошибки и запустите снова.",
        "No standings: fix the errors and run again.",
    ),
    "clean": Text("Ошибок и замечаний нет.", "No errors, no warnings."),
    "summary": Text(
        "Итого: ошибок {errors}, предупреждений {warnings}.",
        "Total: {errors}, {warnings}.",  # `1 error, 2 warnings`: see _summary
    ),
    "general": Text("Общее", "General"),
    "game": Text("Игра {game}", "Game {game}"),
    "file": Text("Файл {file}", "File {file}"),
    "error": Text("ОШИБКА", "ERROR"),
    "warning": Text("замечание", "warning"),
    "expected": Text("ожидалось", "expected"),
    "fix": Text("как исправить", "how to fix"),
    "written": Text("Итоги записаны: {path}", "Results written: {path}"),
    "edition": Text(
        "Правила: {name} (mafia-sheets rules — все значения)",
        "Rules: {name} (mafia-sheets rules shows every value)",
    ),
    "players": Text(
        "Игроков в таблице: {n}; игр: {games}.", "Players ranked: {n}; games: {games}."
    ),
    "k_on": Text(
        "K = {k} (тяжёлая сторона: {side}, N = {n_games}, n = {n})",
        "K = {k} (heavy side: {side}, N = {n_games}, n = {n})",
    ),
    "k_off": Text("K не применяется ({reason})", "K not applied ({reason})"),
    "provisional": Text(
        "ВНИМАНИЕ: итоги предварительные — есть нерассмотренный протест.",
        "NOTE: the results are provisional — a protest is pending.",
    ),
    "lot_needed": Text(
        "Нужен жребий: {groups}. Проведите жеребьёвку и заполните лист «Жребий» "
        "(или --lot-seed N).",
        "A lot is needed: {groups}. Hold the draw and fill the Lot sheet (or use --lot-seed N).",
    ),
    "lot_seed": Text("Жребий проведён по затравке {seed}.", "Lots drawn with seed {seed}."),
    "warnings_in": Text(
        "Замечаний: {n} — см. лист «Замечания».", "Warnings: {n} — see the Findings sheet."
    ),
    "red": Text("красные", "red"),
    "black": Text("чёрные", "black"),
    "option_off": Text("выключен в настройках турнира", "switched off in the settings"),
    "edition_off": Text("не предусмотрен выбранными правилами", "the chosen rules have no K"),
    "equal_wins": Text("побед поровну", "equal wins"),
    "no_games": Text("нет сыгранных игр", "no games played"),
    "progress_read": Text("Читаю {name}…", "Reading {name}…"),
    "progress_check": Text("Проверяю…", "Checking…"),
    "progress_score": Text("Считаю баллы…", "Scoring…"),
    "progress_write": Text("Записываю итоги…", "Writing the results…"),
}


def line(key: str, lang: str) -> str:
    return LINES[key](lang)


def headers_text(reads: Sequence[HeaderRead], findings: Sequence[Finding], lang: str) -> str:
    """`check`'s header map, before the findings: what the protocol lacks in plain words,
    then one line a sheet — `Протокол: «Ник» → Игрок, «Баллы» → не прочитан: …`."""

    several = len({read.source for read in reads}) > 1
    out: list[str] = []
    absent = [f for f in findings if f.code == "column-absent"]
    if absent:
        out.append(f"{ABSENT_SECTION(lang)}:")
        out += [
            f"  {f.source + ': ' if several and f.source else ''}{f.message(lang)}" for f in absent
        ]
    if reads:
        out.append(f"{SECTION(lang)}:")
    for (source, sheet), group in groupby(reads, key=lambda read: (read.source, read.sheet)):
        where = f"{source}: {sheet}" if several and source else sheet
        out.append(f"  {where}: " + ", ".join(_header_read(read, lang) for read in group))
    return terminal("\n".join(out), lines=True)


def _header_read(read: HeaderRead, lang: str) -> str:
    """`Игра` when read as typed; `«Ник» → Игрок` when the header is another spelling."""

    shown = read_as(read, lang)
    if read.status == "column" and read.typed == shown:
        return shown
    where = "" if read.typed.strip() else f"{read.cell} "
    return f"{where}{typed_header(read, lang)} → {shown}"


def findings_text(findings: Sequence[Finding], lang: str, several: bool = False) -> str:
    """Findings grouped by file and game, in sheet-then-row order, and a summary line."""
    if not findings:
        return line("clean", lang)
    out: list[str] = []
    for source, in_file in groupby(findings, key=lambda f: f.source):
        if several and source:
            out.append(terminal(line("file", lang).format(file=source)))
        items = sorted(in_file, key=lambda f: (f.game is not None, _game_key(f.game)))
        for game, in_game in groupby(items, key=lambda f: f.game):
            title = (
                line("game", lang).format(game=game_name(game, lang))
                if game
                else line("general", lang)
            )
            out.append(terminal(f"  {title}:" if several else f"{title}:"))
            out.extend(_finding_lines(f, lang, indent="    " if several else "  ") for f in in_game)
    out.append(_summary(*count(findings), lang))
    return "\n".join(out)


def _game_key(game: str | None) -> tuple[int, float, str]:
    if game is None:
        return (0, 0.0, "")
    try:
        return (0, float(game), "")
    except ValueError:
        return (1, 0.0, game)


def _finding_lines(f: Finding, lang: str, indent: str) -> str:
    label = line(f.severity, lang)
    value = f" «{f.value}»" if f.value and f.value not in f.message(lang) else ""
    return terminal(
        f"{indent}{f.where} [{label} {f.code}] {f.message(lang)}{value}; "
        f"{line('expected', lang)}: {f.expected(lang)}; "
        f"{line('fix', lang)}: {f.hint(lang)}"
    )


def rating_summary(rating: Rating, out: Path | None, lang: str) -> str:
    k = rating.k
    games = int((~rating.games["annulled"]).sum()) if len(rating.games) else 0
    parts = []
    if rating.provisional:
        parts.append(line("provisional", lang))
    if out is not None:
        parts.append(line("written", lang).format(path=out))
    parts.append(line("players", lang).format(n=len(rating.standings), games=games))
    if rating.rules.edition.code != DEFAULT_EDITION:  # the regulation goes without saying
        parts.append(line("edition", lang).format(name=rating.rules.edition.name(lang)))
    if k.applied:
        parts.append(
            line("k_on", lang).format(
                k=_decimal(k.value, lang),
                side=line(k.heavy_side or "red", lang),
                n_games=k.games,
                n=k.heavy_games,
            )
        )
    else:
        parts.append(line("k_off", lang).format(reason=line(k.reason or "equal_wins", lang)))
    if rating.lot.needed:
        groups = "; ".join(", ".join(g) for g in rating.lot.groups)
        parts.append(line("lot_needed", lang).format(groups=groups))
    elif rating.lot.method == "seed":
        parts.append(line("lot_seed", lang).format(seed=rating.lot.seed))
    warnings = sum(1 for f in rating.findings if f.severity == "warning")
    if warnings:
        parts.append(line("warnings_in", lang).format(n=warnings))
    return "\n".join(map(terminal, parts))


def _decimal(value: Fraction, lang: str) -> str:
    """K to four decimals, with the language's decimal mark: `1,4` in Russian."""

    return decimal_text(value, lang=lang)[0]


class Status:
    """A progress bar on stderr — `[███░░░░░] Проверяю…` — for work past half a second.

    Stages are reported by the pipeline (`read:NAME`, `check`, `score`) and by the CLI
    (`write`); `total` is how many stages the whole command has. Quiet when stderr is not
    a terminal (scripts, CI, the web page), so output stays clean.
    """

    WIDTH = 20

    def __init__(self, lang: str, total: int, stream: TextIO | None = None) -> None:
        self.lang = lang
        self.total = max(total, 1)
        self.step = 0
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.shown = False
        self.live = self.stream.isatty()

    def __call__(self, stage: str) -> None:
        self.step = min(self.step + 1, self.total)
        if not self.live or time.monotonic() - self.started < 0.5:
            return
        key, _, name = stage.partition(":")
        text = terminal(line(f"progress_{key}", self.lang).format(name=Path(name).name))
        filled = self.WIDTH * (self.step - 1) // self.total
        bar = "█" * filled + "░" * (self.WIDTH - filled)
        self.stream.write(f"\r\x1b[2K[{bar}] {text}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False


_ERRORS = Plural(("ошибка", "ошибки", "ошибок"), ("error", "errors"))
_WARNINGS = Plural(("замечание", "замечания", "замечаний"), ("warning", "warnings"))


def _summary(errors: int, warnings: int, lang: str) -> str:
    """`Итого: ошибок 1, предупреждений 2.` / `Total: 1 error, 2 warnings.` (in Russian the
    count follows its noun, which then needs no agreement)."""
    if lang == "ru":
        return line("summary", lang).format(errors=errors, warnings=warnings)
    shown = {"errors": _ERRORS(errors, lang), "warnings": _WARNINGS(warnings, lang)}
    return line("summary", lang).format(**shown)
