"""The «Турнир» sheet: tournament name, the scoring edition and every rule value (SPEC §2.1)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from .. import rules as r
from .. import vocab
from ..findings import Finding, define, finding
from ..model import Table, Tournament
from ..rules import NO_LIMIT, QUIET_WINDOWS, RuleSet, find_edition, load_rules, presets
from ..text import LANGS, Text
from .values import BAD, parse_number, parse_text, parse_yes_no, vocabulary

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
SETTING_REPLACES_EDITION = define(
    "setting-replaces-edition",
    "warning",
    Text(
        "«{setting}» = {value} заменяет значение правил «{edition}»: {preset}",
        "“{setting}” = {value} replaces the value of the rules “{edition}”: {preset}",
    ),
    Text(
        "строка «Турнир» меняет одно значение выбранных правил",
        "a Tournament row changes one value of the chosen rules",
    ),
    Text(
        "Если так и задумано, ничего не делайте; если строка осталась от шаблона — "
        "очистите значение, и будет действовать значение правил",
        "If that is meant, do nothing; if the row is left from a template, clear its "
        "value and the rules' own value applies",
    ),
)

CI_PAYS_NOTHING = define(
    "ci-pays-nothing",
    "warning",
    Text(
        "Ci включено («{value}»), но его {part} = 0: компенсация не платится",
        "Ci is on (“{value}”), but its {part} is 0: no compensation is paid",
    ),
    Text(
        "«Ci: доля» и «Ci: предел» больше 0, например 0,5 и 0,5",
        "“Ci: share” and “Ci: cap” above 0, e.g. 0.5 and 0.5",
    ),
    Text(
        "Впишите «Ci: доля» и «Ci: предел» на листе «Турнир» — или выберите «Правила», где Ci есть",
        "Set “Ci: share” and “Ci: cap” on the Tournament sheet — or choose Rules that have Ci",
    ),
)

# What a setting's value must look like, by its kind, for the bad-setting finding.
_NUMBER = Text("число, например 2 или 0,5", "a number, e.g. 2 or 0.5")
_PENALTY = Text("число не больше 0, например −0,5", "a number not above 0, e.g. −0.5")
_NOT_NEGATIVE = Text("число не меньше 0, например 0,4", "a number not below 0, e.g. 0.4")
_LIMIT = Text("число или «нет» (без предела)", "a number, or “no” (no limit)")
_STEP = Text("число больше 0, например 0,1, или «нет»", "a number above 0, e.g. 0.1, or “no”")
_COUNT = Text("целое число от 1, или «нет»", "a whole number from 1, or “no”")
_WHOLE = Text("целое число от 1", "a whole number from 1")
_NUMBERS = Text(
    "числа через точку с запятой: −1,5; −2,1", "numbers separated by semicolons: −1.5; −2.1"
)
_ORDER = Text(
    "буквы сайта рейтинга, например (epg)wsk, или показатели через запятую: {names}",
    "the rating site's letters, e.g. (epg)wsk, or criteria separated by commas: {names}",
)


@dataclass(frozen=True)
class SettingCell:
    """Where one setting's value was typed, for findings about it."""

    sheet: str
    cell: str
    row: int
    typed: object
    name: str


def read_settings(
    table: Table | None, default_name: str
) -> tuple[Tournament, dict[str, Any], list[Finding], dict[str, SettingCell]]:
    """(descriptive settings, rule overrides by key, findings, where each override sits)."""
    texts: dict[str, str] = {}
    overrides: dict[str, Any] = {}
    cells: dict[str, SettingCell] = {}
    findings: list[Finding] = []
    if table is not None:
        lookup = vocab.setting_lookup()
        for index, row in table.frame.iterrows():
            name = row["setting"]
            if name is None:
                continue
            key = lookup.get(vocab.fold(name))
            raw_value = table.raw["value"].iat[cast(int, index)] if "value" in table.raw else ""
            excel_row = int(row["_row"])
            if key is None:
                findings.append(_unknown(table, name, excel_row))
                continue
            value, allowed = setting_value(key, raw_value)
            if value is BAD:
                findings.append(
                    finding(
                        BAD_SETTING,
                        table.sheet,
                        table.cell("value", excel_row),
                        raw_value,
                        row=excel_row,
                        setting=name,
                        allowed=allowed,
                        source=table.source,
                    )
                )
            elif value is not None and key in vocab.TEXT_SETTINGS:
                texts[key] = str(value)
            elif value is not None:
                overrides[key] = value
                cells[key] = SettingCell(
                    table.sheet, table.cell("value", excel_row), excel_row, raw_value, str(name)
                )
    tournament = Tournament(
        name=texts.get("name") or default_name,
        dates=texts.get("dates", ""),
        city=texts.get("city", ""),
        chief_judge=texts.get("chief_judge", ""),
        season_name=texts.get("season_name", ""),
    )
    return tournament, overrides, findings, cells


def _unknown(table: Table, name: object, excel_row: int) -> Finding:
    return finding(
        UNKNOWN_SETTING,
        table.sheet,
        table.cell("setting", excel_row),
        name,
        row=excel_row,
        source=table.source,
        allowed=Text(*(", ".join(n(lang) for n in vocab.SETTINGS.values()) for lang in LANGS)),
    )


def rules_of(
    overrides: dict[str, Any], cells: dict[str, SettingCell], source: str = ""
) -> tuple[RuleSet, list[Finding]]:
    """The edition «Правила» names (the regulation when none) with the other rows applied;
    a row that changes a value of another edition named on the sheet is said at its cell."""
    edition = overrides.get("edition")
    base = load_rules(edition)
    values = {key: value for key, value in overrides.items() if key != "edition"}
    limits = [key for key in (*r.LIMIT_KEYS, *r.NUMBERS_KEYS, "extras_players") if key in values]
    if "extras_numeric" not in values and any(values[k] not in (r.NO_LIMIT, ()) for k in limits):
        values["extras_numeric"] = True  # a limit of numeric extras allows them (SPEC §2.4)
    rules = replace(base.with_overrides(values), overridden=tuple(sorted(overrides)))
    findings = _ci_unpaid(rules, cells, source)
    if edition in (None, r.DEFAULT_EDITION):  # the regulation's values are every row's default
        return rules, findings
    for key in values:
        before, after = base.value(key), rules.value(key)
        if before != after:
            place = cells[key]
            findings.append(
                finding(
                    SETTING_REPLACES_EDITION,
                    place.sheet,
                    place.cell,
                    place.typed,
                    row=place.row,
                    source=source,
                    setting=place.name,
                    edition=base.edition.name,
                    preset=shown_value(key, before),
                )
            )
    return rules, findings


def _ci_unpaid(rules: RuleSet, cells: dict[str, SettingCell], source: str) -> list[Finding]:
    """A Ci reading switched on by the sheet whose share or cap leaves it paying nothing."""
    place = cells.get("ci_when")
    zero = [k for k in ("ci_share", "ci_cap") if not rules.points[k]]
    if place is None or not rules.pays_ci or not zero:
        return []
    part = Text(
        " и ".join(vocab.SETTINGS[k].ru.removeprefix("Ci: ") for k in zero),
        " and ".join(vocab.SETTINGS[k].en.removeprefix("Ci: ") for k in zero),
    )
    return [
        finding(
            CI_PAYS_NOTHING,
            place.sheet,
            place.cell,
            place.typed,
            row=place.row,
            source=source,
            part=part,
        )
    ]


def shown_value(key: str, value: object) -> Text:
    """A rule value as a judge reads it, in both languages: `0,5` / `0.5`, «да» / “yes”."""
    if isinstance(value, bool):
        word = "yes" if value else "no"
        return Text(*(vocab.display_value("yesno", word, lang) for lang in LANGS))
    if isinstance(value, Fraction):
        text = _number_text(value)
        return Text(text.replace(".", ","), text)
    if value is None:
        return Text("нет", "no")
    if key == "edition":
        return presets()[str(value)].edition.name
    if key in r.CHOICE_KEYS:
        return Text(*(vocab.display_value(key, str(value), lang) for lang in LANGS))
    if key == r.QUIET_KEY:
        return Text(str(value), str(value)) if value else shown_value("", False)
    if key == "tiebreak":
        return order_text(cast(tuple[str, ...], value))
    if isinstance(value, tuple):
        parts = [shown_value("", v) for v in value]
        return Text("; ".join(p.ru for p in parts) or "нет", "; ".join(p.en for p in parts) or "no")
    return Text(str(value), str(value))


def _number_text(value: Fraction) -> str:
    """Exact where the value is a finite decimal (−0.25), else as a fraction (2/3)."""
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    if Fraction(decimal) == value:
        text = format(decimal.normalize(), "f")
    else:
        text = f"{value.numerator}/{value.denominator}"
    return text.replace("-", "−")


def order_text(order: tuple[str, ...]) -> Text:
    """A tie-break order in words: `сумма баллов → доп. баллы → … → жребий`."""
    return Text(
        *(
            " → ".join(
                "+".join(vocab.display_value("criterion", part, lang) for part in r.order_parts(c))
                for c in order
            )
            for lang in LANGS
        )
    )


# ---- one value ---------------------------------------------------------------------------


def setting_value(key: str, raw: object) -> tuple[object, Text | str]:
    """A setting's value as the rule set takes it, or BAD with what was expected."""
    if key in vocab.TEXT_SETTINGS:
        return parse_text(raw), ""
    if key == "edition":
        return _edition_value(raw)
    if key in vocab.FLAG_SETTINGS:
        return parse_yes_no(raw), Text("да или нет", "yes or no")
    if key == vocab.QUIET_SETTING:
        return parse_quiet_window(raw), Text("5, 6 или нет", "5, 6 or no")
    if key in r.CHOICE_KEYS:
        return _choice(key, raw)
    if key == "tiebreak":
        return _order_value(raw)
    if key in r.NUMBERS_KEYS:
        return _numbers(raw), _NUMBERS
    if key in r.COUNT_KEYS:
        return _count(raw, optional=key == "extras_players")
    return _number_value(key, raw)


def _number_value(key: str, raw: object) -> tuple[object, Text | str]:
    number = parse_number(raw)
    if number is None:
        return None, ""
    expected = _expected_number(key)
    if number is BAD:
        return (NO_LIMIT, "") if key in r.LIMIT_KEYS and _is_no(raw) else (BAD, expected)
    value = Fraction(cast(Decimal, number))
    if key in r.PENALTY_KEYS and value > 0:
        return BAD, expected
    positive = key == "extras_step"
    not_negative = key in ("extras_least", "extras_sum", "ci_share", "ci_cap")
    if (positive and value <= 0) or (not_negative and value < 0):
        return BAD, expected
    return value, ""


def _expected_number(key: str) -> Text:
    if key in r.PENALTY_KEYS:
        return _PENALTY
    if key == "extras_step":
        return _STEP
    if key in ("extras_least", "extras_sum"):
        return _LIMIT
    if key in ("ci_share", "ci_cap"):
        return _NOT_NEGATIVE
    return _LIMIT if key in r.LIMIT_KEYS else _NUMBER


def _is_no(raw: object) -> bool:
    return isinstance(raw, str) and parse_yes_no(raw) is False


def _count(raw: object, optional: bool) -> tuple[object, Text]:
    expected = _COUNT if optional else _WHOLE
    number = parse_number(raw)
    if number is BAD and optional and _is_no(raw):
        return NO_LIMIT, expected
    if number is None or number is BAD:
        return number, expected
    assert isinstance(number, Decimal)
    if number != number.to_integral_value() or number < 1:
        return BAD, expected
    return int(number), expected


def _numbers(raw: object) -> object:
    """`−1,5; −2,1; −2,5` (or one number) → a tuple of exact numbers."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if _is_no(raw):
        return ()
    if not isinstance(raw, str):
        number = parse_number(raw)
        return BAD if number is BAD else (Fraction(cast(Decimal, number)),)
    out = []
    for part in raw.replace(";", " ").split():
        number = parse_number(part)
        if number is BAD or number is None:
            return BAD
        out.append(Fraction(cast(Decimal, number)))
    return tuple(out)


def _choice(key: str, raw: object) -> tuple[object, Text]:
    allowed = Text(
        *(", ".join(vocab.display_value(key, c, lang) for c in vocab.VALUES[key]) for lang in LANGS)
    )
    return vocabulary(key)(raw), allowed


def _edition_value(raw: object) -> tuple[object, Text]:
    allowed = Text(
        *(
            "; ".join(f"{rules.edition.name(lang)} ({code})" for code, rules in presets().items())
            for lang in LANGS
        )
    )
    text = parse_text(raw)
    if text is None:
        return None, allowed
    found = find_edition(text)
    return (BAD if found is None else found.edition.code), allowed


def _order_value(raw: object) -> tuple[object, Text]:
    names = Text(
        *(
            ", ".join(vocab.display_value("criterion", c, lang) for c in r.CRITERIA)
            for lang in LANGS
        )
    )
    allowed = _ORDER.format(names="{names}")
    allowed = Text(allowed.ru.format(names=names.ru), allowed.en.format(names=names.en))
    text = parse_text(raw)
    if text is None:
        return None, allowed
    try:
        return r.parse_order(str(text)), allowed
    except r.OrderError:
        return BAD, allowed


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
        return int(number) if number in (0, *QUIET_WINDOWS) else BAD
    return 0 if parse_yes_no(raw) is False else BAD
