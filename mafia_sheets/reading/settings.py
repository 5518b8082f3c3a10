"""The «Турнир» sheet: tournament name and the rule options of SPEC §2.1."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from .. import vocab
from ..findings import Finding, define, finding
from ..model import Table, Tournament
from ..rules import QUIET_WINDOWS
from ..text import LANGS, Text
from .values import BAD, parse_number, parse_text, parse_yes_no

UNKNOWN_SETTING = define(
    "unknown-setting",
    "warning",
    Text("Неизвестный параметр «{value}» — не учтён", "Unknown setting “{value}” — ignored"),
    Text("один из: {allowed}", "one of: {allowed}"),
    Text(
        "Проверьте написание параметра или удалите строку",
        "Check the setting's spelling or delete the row",
    ),
)
BAD_SETTING = define(
    "bad-setting",
    "error",
    Text(
        "Параметр «{setting}» = «{value}» не понят",
        "Setting “{setting}” = “{value}” is not understood",
    ),
    Text("{allowed}", "{allowed}"),
    Text(
        "Исправьте значение параметра на листе «Турнир»",
        "Fix the setting's value on the Tournament sheet",
    ),
)


def read_settings(
    table: Table | None, default_name: str
) -> tuple[Tournament, dict[str, Any], list[Finding]]:
    """(descriptive settings, rule overrides by key, findings)."""
    texts: dict[str, str] = {}
    overrides: dict[str, Any] = {}
    findings: list[Finding] = []
    if table is not None:
        lookup = vocab.setting_lookup()
        for index, row in table.frame.iterrows():
            name = row["setting"]
            if name is None:
                continue
            key = lookup.get(vocab.fold(name))
            raw_value = table.raw["value"].iat[cast(int, index)] if "value" in table.raw else ""
            cell = table.cell("value", int(row["_row"]))
            if key is None:
                findings.append(
                    finding(
                        UNKNOWN_SETTING,
                        table.sheet,
                        table.cell("setting", int(row["_row"])),
                        name,
                        row=int(row["_row"]),
                        source=table.source,
                        allowed=Text(
                            *(", ".join(n(lang) for n in vocab.SETTINGS.values()) for lang in LANGS)
                        ),
                    )
                )
                continue
            value, allowed = _setting_value(key, raw_value)
            if value is BAD:
                findings.append(
                    finding(
                        BAD_SETTING,
                        table.sheet,
                        cell,
                        raw_value,
                        row=int(row["_row"]),
                        setting=name,
                        allowed=allowed,
                        source=table.source,
                    )
                )
            elif value is not None and key in vocab.TEXT_SETTINGS:
                texts[key] = str(value)
            elif value is not None:
                overrides[key] = value
    tournament = Tournament(
        name=texts.get("name") or default_name,
        dates=texts.get("dates", ""),
        city=texts.get("city", ""),
        chief_judge=texts.get("chief_judge", ""),
        season_name=texts.get("season_name", ""),
    )
    return tournament, overrides, findings


def _setting_value(key: str, raw: object) -> tuple[object, Text | str]:
    if key in vocab.TEXT_SETTINGS:
        return parse_text(raw), ""
    if key in vocab.FLAG_SETTINGS:
        return parse_yes_no(raw), Text("да или нет", "yes or no")
    if key == vocab.QUIET_SETTING:
        return parse_quiet_window(raw), Text("5, 6 или нет", "5, 6 or no")
    number = parse_number(raw)
    if number is BAD:
        return BAD, Text("число, например 2 или 0,5", "a number, e.g. 2 or 0.5")
    return (None if number is None else Fraction(Decimal(number))), ""  # type: ignore[arg-type]


# «6 фаз», «5 phases»: the number of phases with its unit
_PHASES = re.compile(r"(?<=\d)\s*(?:фаз[аы]?|phases?)\s*\.?\s*$", re.IGNORECASE)


def parse_quiet_window(raw: object) -> object:
    """Special situation 9's window: 5 or 6 phases, or a «no» word (0: not applied).

    «да» is refused rather than guessed: the judge must say which reading applies.
    """
    number = parse_number(_PHASES.sub("", raw) if isinstance(raw, str) else raw)
    if number is None:
        return None
    if number is not BAD:  # 0 is a «no» word of the yes/no vocabulary as well
        return int(number) if number in (0, *QUIET_WINDOWS) else BAD  # type: ignore[call-overload]
    return 0 if parse_yes_no(raw) is False else BAD
