"""Build the shipped sample tournament and its hand-checked expected standings.

The tournament below is plain data: one ``Game`` per game, one tuple per seat.
Running this script writes, next to itself:

* ``tournament-ru.xlsx`` -- the protocol workbook with Russian sheets, headers and values;
* ``tournament-en.xlsx`` -- the same tournament in English, columns in another order;
* ``tournament.expected.toml`` -- the standings computed here, independently of the
  ``mafia_sheets`` package, with the K arithmetic and every tie explained in comments.

It also checks every game against the regulation before writing anything, and reads
both workbooks back (python-calamine) to confirm that they hold the same tournament.

    python samples/build_samples.py
"""

from __future__ import annotations

import sys
import textwrap
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import openpyxl
from independent import (
    CRITERIA,
    Line,
    Standings,
    compute,
    criteria_values,
    regulation_errors,
)
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from sample_data import (
    BLACK,
    CITIES,
    DRAW,
    GAMES,
    PLAYERS,
    PROTESTS,
    RED,
    TOURNAMENT,
    clock,
)

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------
# Workbook vocabulary, per language
# ---------------------------------------------------------------------------

SHEETS = {
    "ru": {
        "tournament": "Турнир",
        "players": "Игроки",
        "games": "Игры",
        "seats": "Протокол",
        "protests": "Протесты",
        "lot": "Жребий",
    },
    "en": {
        "tournament": "Tournament",
        "players": "Players",
        "games": "Games",
        "seats": "Seats",
        "protests": "Protests",
        "lot": "Lot",
    },
}

# Column keys in the order each language's workbook lays them out.
COLUMNS = {
    "ru": {
        "tournament": ["key", "value"],
        "players": ["player", "club", "city", "removed"],
        "games": ["game", "round", "table", "judge", "result", "ended", "annulled"],
        "seats": ["game", "seat", "player", "role", "fouls", "left", "when", "best_move", "bonus"],
        "protests": ["game", "seat", "filed", "text", "decision", "decided_by"],
        "lot": ["player", "order"],
    },
    "en": {
        "tournament": ["key", "value"],
        "players": ["player", "removed", "city", "club"],
        "games": ["game", "result", "ended", "round", "table", "judge", "annulled"],
        "seats": ["player", "game", "seat", "role", "left", "when", "fouls", "bonus", "best_move"],
        "protests": ["game", "seat", "filed", "decision", "decided_by", "text"],
        "lot": ["player", "order"],
    },
}

HEADERS = {
    "ru": {
        "tournament": {"key": "Параметр", "value": "Значение"},
        "players": {
            "player": "Игрок",
            "club": "Клуб",
            "city": "Город",
            "removed": "Удалён с турнира",
        },
        "games": {
            "game": "Игра",
            "round": "Тур",
            "table": "Стол",
            "judge": "Судья",
            "result": "Результат",
            "ended": "Окончание",
            "annulled": "Отменена",
        },
        "seats": {
            "game": "Игра",
            "seat": "Место",
            "player": "Игрок",
            "role": "Роль",
            "fouls": "Фолы",
            "left": "Выбыл",
            "when": "Когда",
            "best_move": "Лучший ход",
            "bonus": "Доп",
        },
        "protests": {
            "game": "Игра",
            "seat": "Место",
            "filed": "Подан",
            "text": "Суть",
            "decision": "Решение",
            "decided_by": "Кто решил",
        },
        "lot": {"player": "Игрок", "order": "Порядок"},
    },
    "en": {
        "tournament": {"key": "Setting", "value": "Value"},
        "players": {
            "player": "Player",
            "club": "Club",
            "city": "City",
            "removed": "Removed from tournament",
        },
        "games": {
            "game": "Game",
            "round": "Round",
            "table": "Table",
            "judge": "Judge",
            "result": "Result",
            "ended": "Ended",
            "annulled": "Annulled",
        },
        "seats": {
            "game": "Game",
            "seat": "Seat",
            "player": "Player",
            "role": "Role",
            "fouls": "Fouls",
            "left": "Left",
            "when": "When",
            "best_move": "Best move",
            "bonus": "Bonus",
        },
        "protests": {
            "game": "Game",
            "seat": "Seat",
            "filed": "Filed",
            "text": "Text",
            "decision": "Decision",
            "decided_by": "Decided by",
        },
        "lot": {"player": "Player", "order": "Order"},
    },
}

WORDS = {
    "ru": {
        "setting": {
            "name": "Название",
            "dates": "Даты",
            "city": "Город",
            "chief_judge": "Главный судья",
            "k": "Коэффициент K",
            "draws_in_n": "Ничьи в N",
            "quiet": "Ничья после фаз без выбываний",
            "win_disq": "Победа при дисквалификации",
        },
        "yes": "да",
        "no": "нет",
        "role": {"C": "Мирный", "S": "Шериф", "M": "Мафия", "D": "Дон", "": ""},
        "result": {RED: "Красные", BLACK: "Чёрные", DRAW: "Ничья"},
        "left": {
            "killed": "убит",
            "voted": "заголосован",
            "fouls": "4 фола",
            "disq": "дисквалифицирован",
            "": "",
        },
        "phase": {"D": "Д", "N": "Н"},
        "bonus": {"BP": "ЛИ", "BP2": "ЛИ2", "BPL": "ЛИП", "": ""},
        "decision": {"rejected": "отклонён"},
        "decided_by": {"chief_judge": "главный судья"},
    },
    "en": {
        "setting": {
            "name": "Name",
            "dates": "Dates",
            "city": "City",
            "chief_judge": "Chief judge",
            "k": "Coefficient K",
            "draws_in_n": "Draws in N",
            "quiet": "Draw after quiet phases",
            "win_disq": "Win points when disqualified",
        },
        "yes": "yes",
        "no": "no",
        "role": {"C": "Civilian", "S": "Sheriff", "M": "Mafia", "D": "Don", "": ""},
        "result": {RED: "Red", BLACK: "Black", DRAW: "Draw"},
        "left": {
            "killed": "killed",
            "voted": "voted out",
            "fouls": "fouled out",
            "disq": "disqualified",
            "": "",
        },
        "phase": {"D": "D", "N": "N"},
        "bonus": {"BP": "BP", "BP2": "BP2", "BPL": "BPL", "": ""},
        "decision": {"rejected": "rejected"},
        "decided_by": {"chief_judge": "chief judge"},
    },
}


# ---------------------------------------------------------------------------
# Workbooks
# ---------------------------------------------------------------------------


def sheet_rows(lang: str) -> dict[str, list[dict]]:
    """Every sheet's rows as {column key: cell value} in the given language."""
    w = WORDS[lang]
    yes_no = {True: w["yes"], False: w["no"]}

    def phase(when: str) -> str:
        return w["phase"][when[0]] + when[1:] if when else ""

    settings = [
        ("name", TOURNAMENT["name"]),
        ("dates", TOURNAMENT["dates"][lang]),
        ("city", CITIES[TOURNAMENT["city"]][lang]),
        ("chief_judge", TOURNAMENT["chief_judge"]),
        ("k", w["yes"]),
        ("draws_in_n", w["yes"]),
        ("quiet", 5),  # special situation 9: five quiet phases from a night
        ("win_disq", w["yes"]),
    ]
    return {
        "tournament": [{"key": w["setting"][key], "value": value} for key, value in settings],
        "players": [
            {"player": nick, "club": club, "city": CITIES[city][lang], "removed": yes_no[gone]}
            for nick, club, city, gone in PLAYERS
        ],
        "games": [
            {
                "game": g.id,
                "round": g.round,
                "table": g.table,
                "judge": g.judge,
                "result": w["result"][g.result],
                "ended": g.ended_time,
                "annulled": w["no"],
            }
            for g in GAMES
        ],
        "seats": [
            {
                "game": g.id,
                "seat": s.seat,
                "player": s.player,
                "role": w["role"][s.role],
                "fouls": s.fouls or None,
                "left": w["left"][s.left],
                "when": phase(s.when),
                "best_move": s.best_move,
                "bonus": w["bonus"][s.bonus],
            }
            for g in GAMES
            for s in g.seats
        ],
        "protests": [
            {
                "game": p["game"],
                "seat": p["seat"],
                "filed": clock(p["filed"]),
                "text": p["text"][lang],
                "decision": w["decision"][p["decision"]],
                "decided_by": w["decided_by"][p["decided_by"]],
            }
            for p in PROTESTS
        ],
        "lot": [],
    }


WIDTHS = {
    "text": 40,
    "player": 14,
    "club": 20,
    "city": 18,
    "judge": 18,
    "key": 18,
    "value": 30,
    "removed": 16,
    "result": 10,
    "left": 18,
    "best_move": 12,
}
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDDDDD")


def write_workbook(lang: str, path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    data = sheet_rows(lang)
    for sheet_key, rows in data.items():
        ws = wb.create_sheet(SHEETS[lang][sheet_key])
        columns = COLUMNS[lang][sheet_key]
        ws.append([HEADERS[lang][sheet_key][c] for c in columns])
        for row in rows:
            ws.append([row[c] if row[c] != "" else None for c in columns])
        for number, column in enumerate(columns, start=1):
            letter = get_column_letter(number)
            ws.column_dimensions[letter].width = WIDTHS.get(column, 11)
            header = ws.cell(row=1, column=number)
            header.font, header.fill = HEADER_FONT, HEADER_FILL
            header.alignment = Alignment(horizontal="center", wrap_text=True)
            if column in ("ended", "filed"):
                for (time_cell,) in ws.iter_rows(min_row=2, min_col=number, max_col=number):
                    time_cell.number_format = "hh:mm"
        ws.freeze_panes = "A2"
    wb.properties.title = TOURNAMENT["name"]
    wb.properties.creator = TOURNAMENT["chief_judge"]
    wb.save(path)


def read_workbook(path: Path, lang: str) -> dict[str, list[dict]]:
    """Read a workbook back by header names, as sheet_rows() shaped it."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    if book.sheet_names != [SHEETS[lang][key] for key in COLUMNS[lang]]:
        raise AssertionError(f"{path.name}: sheets {book.sheet_names}")
    data = {}
    for sheet_key in COLUMNS[lang]:
        table = book.get_sheet_by_name(SHEETS[lang][sheet_key]).to_python()
        by_header = {v: k for k, v in HEADERS[lang][sheet_key].items()}
        keys = [by_header[h] for h in table[0]]
        data[sheet_key] = [
            {k: (v if v != "" else None) for k, v in zip(keys, row, strict=True)}
            for row in table[1:]
        ]
    return data


def to_canonical(lang: str, data: dict[str, list[dict]]) -> dict[str, list[tuple]]:
    """Translate one language's cell values into language-free tuples."""
    w = WORDS[lang]
    back = {
        name: {v: k for k, v in w[name].items() if v}
        for name in ("role", "result", "left", "bonus", "decision", "decided_by", "setting")
    }
    cities = {CITIES[key][lang]: key for key in CITIES if key}
    texts = {p["text"][lang]: i for i, p in enumerate(PROTESTS)}
    dates = {TOURNAMENT["dates"][lang]: "dates"}

    def number(value):
        return int(value) if isinstance(value, float) and value.is_integer() else value

    def phase(value):
        if not value:
            return None
        letter = {v: k for k, v in w["phase"].items()}[value[0]]
        return letter + value[1:]

    def plain(value, table):
        return table.get(value, value) if value else None

    data = {
        sheet: [{k: (None if v == "" else v) for k, v in row.items()} for row in rows]
        for sheet, rows in data.items()
    }
    yes_no = {w["yes"]: True, w["no"]: False}
    settings = []
    for row in data["tournament"]:
        key = back["setting"][row["key"]]
        value = row["value"]
        value = cities.get(value, dates.get(value, yes_no.get(value, value)))
        settings.append((key, value))
    return {
        "tournament": settings,
        "players": [
            (r["player"], r["club"], plain(r["city"], cities), yes_no[r["removed"]])
            for r in data["players"]
        ],
        "games": sorted(
            (
                number(r["game"]),
                number(r["round"]),
                number(r["table"]),
                r["judge"],
                back["result"][r["result"]],
                r["ended"],
                yes_no[r["annulled"]],
            )
            for r in data["games"]
        ),
        "seats": sorted(
            (
                number(r["game"]),
                number(r["seat"]),
                r["player"],
                plain(r["role"], back["role"]),
                number(r["fouls"]),
                plain(r["left"], back["left"]),
                phase(r["when"]),
                r["best_move"],
                plain(r["bonus"], back["bonus"]),
            )
            for r in data["seats"]
        ),
        "protests": [
            (
                number(r["game"]),
                number(r["seat"]),
                r["filed"],
                texts[r["text"]],
                back["decision"][r["decision"]],
                back["decided_by"][r["decided_by"]],
            )
            for r in data["protests"]
        ],
        "lot": [tuple(r.values()) for r in data["lot"]],
    }


# ---------------------------------------------------------------------------
# Expected standings
# ---------------------------------------------------------------------------


def fraction_text(value: Fraction) -> str:
    return f'"{value}"'


def decimal_text(value: Fraction) -> str:
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def tie_comments(st: Standings) -> list[str]:
    """One paragraph per pair of neighbours not separated by total."""
    out = []
    rows = st.rows
    for (place, place_range, upper, decided_by), below in pairwise(rows):
        if decided_by == "total":
            continue
        lower = below[2]
        ours, theirs = criteria_values(upper), criteria_values(lower)
        same = []
        for name, a, b in zip(CRITERIA, ours, theirs, strict=True):
            if a != b:
                break
            same.append(f"{name} {shown(a)}")
        if decided_by == "tied":
            out += [
                f"# Places {place_range}: {upper.player} and {lower.player} -- a lot is needed",
                f"#   equal on every criterion of 8.6.1-8.6.4: {', '.join(same)}.",
                "#   Only a lot can separate them (8.6.5); the Lot sheet is empty, so they share",
                f'#   the place range {place_range} (decided_by = "tied"; the order of the two',
                "#   rows within the range is not significant).",
            ]
        else:
            at = CRITERIA.index(decided_by)
            out += [
                f"# Places {place} and {below[0]}: {upper.player} above {lower.player}"
                f" -- decided by {decided_by}",
                f"#   equal on: {', '.join(same)}.",
                f"#   {decided_by}: {upper.player} {shown(ours[at])}"
                f" > {lower.player} {shown(theirs[at])}, so {upper.player} is placed higher.",
            ]
            rest = zip(CRITERIA[at + 1 :], ours[at + 1 :], theirs[at + 1 :], strict=True)
            later = [(name, a, b) for name, a, b in rest if b > a]
            if later:
                name, a, b = later[0]
                out.append(
                    f"#   Later criteria are not consulted, though {lower.player} leads"
                    f" on {name} ({shown(b)} against {shown(a)})."
                )
        for member in (upper, lower):
            out += breakdown(member)
        out.append("#")
    return out


def shown(value) -> str:
    return decimal_text(value) if isinstance(value, Fraction) else str(value)


def breakdown(line: Line) -> list[str]:
    """A player's every point, game by game, for checking by hand."""
    out = textwrap.wrap(
        "; ".join(line.notes),
        width=96,
        initial_indent=f"#   {line.player}: ",
        subsequent_indent="#       ",
        break_on_hyphens=False,
    )
    out.append(
        f"#     win points {line.win_points} + additional {line.additional}"
        f" (best move {line.best_move}, awards {line.awards},"
        f" penalties {line.penalties}) = total {line.total}"
        f" = {decimal_text(line.total)}"
    )
    return out


def expected_toml(st: Standings) -> str:
    half = Fraction(st.games, 2)
    lot_needed = any(d == "tied" for *_, d in st.rows)
    out = [
        "# Expected standings of the sample tournament (tournament-ru.xlsx and",
        "# tournament-en.xlsx hold the same tournament). Computed independently of the",
        "# mafia_sheets package by samples/build_samples.py, then checked by hand for the",
        "# tied players. Every point value is an exact fraction written as a string.",
        "#",
        "# Coefficient K (regulation 8.5):",
        f"#   N = {st.games} games counted (no game annulled; draws count in N)",
        f"#   red won {st.red_wins}, black won {st.black_wins}, draws {st.draws}",
        f"#   heavy side = {st.heavy_side} (strictly fewer wins), n = {st.heavy_games}",
        f"#   K = 1 + (N/2 - n)/(N/2) = 1 + ({half} - {st.heavy_games})/{half}"
        f" = {st.k} = {decimal_text(st.k)}",
        f"#   a red win is worth 2; a black win 2 x {st.k} = {2 * st.k}"
        f" = {decimal_text(2 * st.k)}; additional points are never multiplied.",
        "#",
        "# Ties (regulation 8.6):",
        *tie_comments(st),
        f"# Removed from the tournament (special situation 4): {', '.join(st.removed)};"
        " his games count (also in N), he gets no place.",
        "",
        "[tournament]",
        f'name = "{TOURNAMENT["name"]}"',
        "",
        "[k]",
        f"applied = {'true' if st.heavy_side else 'false'}",
        f"value = {fraction_text(st.k)}",
        f'heavy_side = "{st.heavy_side}"',
        f"games = {st.games}",
        f"heavy_games = {st.heavy_games}",
        "",
        "[lot]",
        f"needed = {'true' if lot_needed else 'false'}",
    ]
    for place, place_range, line, decided_by in st.rows:
        out += [
            "",
            "[[standings]]",
            f"place = {place}",
            f'place_range = "{place_range}"',
            f'player = "{line.player}"',
            f"total = {fraction_text(line.total)}",
            f"win_points = {fraction_text(line.win_points)}",
            f"additional = {fraction_text(line.additional)}",
            f"best_move = {fraction_text(line.best_move)}",
            f"awards = {fraction_text(line.awards)}",
            f"penalties = {fraction_text(line.penalties)}",
            f"games = {line.games}",
            f"wins = {line.wins}",
            f"wins_don_sheriff = {line.wins_don_sheriff}",
            f"killed_first_night = {line.killed_first_night}",
            f'decided_by = "{decided_by}"',
        ]
    for player in st.removed:
        out += ["", "[[removed]]", f'player = "{player}"']
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------


def main() -> int:
    errors = regulation_errors(GAMES)
    if errors:
        print("The sample breaks the regulation:", *errors, sep="\n  ")
        return 1
    standings = compute(GAMES)
    paths = {lang: HERE / f"tournament-{lang}.xlsx" for lang in ("ru", "en")}
    for lang, path in paths.items():
        write_workbook(lang, path)
    (HERE / "tournament.expected.toml").write_text(expected_toml(standings), encoding="utf-8")

    written = to_canonical("ru", sheet_rows("ru"))
    for lang, path in paths.items():
        read_back = to_canonical(lang, read_workbook(path, lang))
        if read_back != written:
            diff = [key for key in written if written[key] != read_back[key]]
            print(f"{path.name} does not read back as written: sheets {diff}")
            return 1
    for _place, place_range, line, decided_by in standings.rows:
        print(
            f"{place_range:>6} {line.player:<10} {decimal_text(line.total):>6}"
            f" {decimal_text(line.additional):>5} {line.wins:>2} {line.wins_don_sheriff}"
            f" {line.killed_first_night} {decided_by}"
        )
    print(
        f"K = {standings.k}; wrote {', '.join(p.name for p in paths.values())},"
        " tournament.expected.toml"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
