"""`mafia-sheets rules [NAME]`: the scoring editions shipped, or one edition's values and
where they were read from (SPEC §2.1, §7)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..errors import MafiaSheetsError
from ..rules import DEFAULT_EDITION, RULE_KEYS, find_edition, presets
from ..text import LANGS, Text, terminal
from ..vocab import SETTINGS
from .common import DEBUG, LANG, Run, gathered

# `--help` imports this module: the command's library is imported when the command runs.

_HEAD = Text(
    "Правила подсчёта (лист «Турнир», параметр «Правила»; mafia-sheets rules НАЗВАНИЕ — "
    "все значения):",
    "Scoring rules (Tournament sheet, setting “Rules”; mafia-sheets rules NAME shows every value):",
)
_SOURCE = Text("Источник", "Source")
_COMMIT = Text("коммит", "commit")
_VALUES = Text(
    "Значения (любое меняется строкой листа «Турнир»):", "Values (a Tournament row changes any):"
)
_DEFAULT = Text(" (по умолчанию)", " (the default)")


@dataclass(frozen=True)
class RulesOptions:
    name: str | None
    lang: str
    debug: bool


@click.command("rules")
@click.argument("name", required=False)
@LANG
@DEBUG
@gathered(RulesOptions)
def rules(options: RulesOptions) -> None:
    """Редакции правил подсчёта / the scoring editions shipped.

    \b
    mafia-sheets rules                    — список / the list
    mafia-sheets rules "ФИИМ рейтинга 7"  — все значения и источник / every value and its source
    """
    lang = options.lang
    try:
        if options.name is None:
            click.echo(terminal("\n".join(listing(lang)), lines=True))
            return
        found = find_edition(options.name)
        if found is None:
            raise MafiaSheetsError(_unknown(options.name))
        click.echo(terminal("\n".join(edition_lines(found.edition.code, lang)), lines=True))
    except MafiaSheetsError as error:
        Run(lang, options.debug).fail(error)


def listing(lang: str) -> list[str]:
    """Every edition shipped: its name, code and what it is, the default marked."""
    lines = [_HEAD(lang)]
    for code, edition in ((c, r.edition) for c, r in presets().items()):
        default = _DEFAULT(lang) if code == DEFAULT_EDITION else ""
        lines.append(f"  {edition.name(lang)} [{code}]{default} — {edition.about(lang)}")
    return lines


def edition_lines(code: str, lang: str) -> list[str]:
    """One edition: its name, what it is, its source, then every value by setting name."""
    from ..reading.settings import shown_value

    rules_set = presets()[code]
    edition = rules_set.edition
    lines = [f"{edition.name(lang)} [{edition.code}]", edition.about(lang)]
    commit = f" ({_COMMIT(lang)} {edition.commit})" if edition.commit else ""
    lines.append(f"{_SOURCE(lang)}: {edition.source}{commit}")
    if edition.files:
        lines.append(f"  {edition.files}")
    lines.append(_VALUES(lang))
    names = {**SETTINGS, "protest_deadline_minutes": _DEADLINE}
    for key in RULE_KEYS:
        if key == "edition":
            continue
        lines.append(f"  {names[key](lang)}: {shown_value(key, rules_set.value(key))(lang)}")
    return lines


_DEADLINE = Text("Срок подачи протеста, минут", "Protest deadline, minutes")


def _unknown(name: str) -> Text:
    listed = {
        lang: "; ".join(f"{r.edition.name(lang)} [{c}]" for c, r in presets().items())
        for lang in LANGS
    }
    return Text(
        f"Нет правил «{name}». Есть: {listed['ru']}.",
        f"No rules called “{name}”. There are: {listed['en']}.",
    )
