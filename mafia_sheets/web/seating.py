"""The page's seating: drop a roster (or give a count), choose tables and rounds, see the
schedule and its figures, download the plan and the pre-filled protocol.

Every request carries the roster and the choices again (the server keeps nothing), and
the seed the first answer drew, so that the downloads are the schedule on the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..text import Text
from .upload import UploadError

ROSTER_SUFFIXES = (".csv", ".txt", ".tsv", ".xlsx", ".xlsm", ".ods", ".json")
LAYOUTS = ("rows", "blank", "wide")
MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class SeatJob:
    """The choices of the seating form."""

    players: int | None = None  # a count, when no roster is dropped
    tables: int | None = None
    rounds: int | None = None
    games_per_player: int | None = None
    seed: int | None = None
    layout: str = "rows"
    effort: float = 1.0


def _number(fields: dict[str, str], name: str, top: int) -> int | None:
    raw = fields.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= top:
        raise UploadError(
            400,
            Text(
                f"«{name}»: нужно целое число от 1 до {top}, а не «{raw[:40]}».",
                f"“{name}”: a whole number from 1 to {top} is needed, not “{raw[:40]}”.",
            ),
        )
    return int(raw)


def seat_job(fields: dict[str, str]) -> SeatJob:
    """The form's fields, each checked: a bad one is a 400 naming it."""
    layout = fields.get("layout", "rows") or "rows"
    if layout not in LAYOUTS:
        raise UploadError(
            400, Text("layout: rows, blank или wide.", "layout must be rows, blank or wide.")
        )
    seed = fields.get("seed", "").strip()
    if seed and (not seed.isdigit() or int(seed) > MAX_SEED):
        raise UploadError(
            400,
            Text(
                f"seed: целое от 0 до {MAX_SEED}.", f"seed must be a whole number 0 to {MAX_SEED}."
            ),
        )
    return SeatJob(
        _number(fields, "players", 2_000),
        _number(fields, "tables", 200),
        _number(fields, "rounds", 200),
        _number(fields, "games_per_player", 200),
        int(seed) if seed else None,
        layout,
        _effort(fields.get("effort", "")),
    )


def _effort(raw: str) -> float:
    """The search length, as `seat --effort` (scripts may ask for a quick one)."""
    try:
        effort = float(raw) if raw.strip() else 1.0
    except ValueError:
        effort = -1.0
    if not 0.01 <= effort <= 20:
        raise UploadError(
            400, Text("effort: число от 0,01 до 20.", "effort must be a number 0.01 to 20.")
        )
    return effort


# The jobs below run in a worker and import their libraries there, as web/jobs.py's do: the
# server imports this module for the form's fields only.


def _seated(job: Any) -> Any:
    """The schedule of a seating job: the dropped roster, or a count of players."""
    from ..seating.restrict import numbered
    from ..seating.run import Ask, make
    from ..seating.shape import SeatingError
    from ..template.roster import entrants

    ask_for: SeatJob = job.seating
    if job.sources:
        roster = entrants(job.sources[0].name, job.sources[0].data)
    elif ask_for.players:
        roster = numbered(ask_for.players, job.lang)
    else:
        raise SeatingError(
            Text(
                "Перетащите список игроков или укажите их число.",
                "Drop a roster or give the number of players.",
            )
        )
    ask = Ask(
        ask_for.tables,
        ask_for.rounds,
        ask_for.games_per_player,
        ask_for.seed,
        effort=ask_for.effort,
    )
    return make(roster, ask)


def _view(job: Any) -> dict[str, Any]:
    from ..seating.export import schedule_json
    from ..seating.wording import figures_text

    seated = _seated(job)
    body = schedule_json(seated.schedule, seated.figures, job.lang, seated.seed)
    body["text"] = figures_text(seated.schedule, seated.figures, job.lang).split("\n")
    return body


def _plan(job: Any) -> bytes:
    from ..report.plan import plan_workbook

    seated = _seated(job)
    return plan_workbook(seated.schedule, seated.figures, job.lang)


def _protocol(job: Any) -> bytes:
    from ..template.prefill import prefilled_protocol

    seated = _seated(job)
    return prefilled_protocol(seated.schedule, seated.entrants, job.seating.layout, job.lang)


def seat_kinds() -> dict[str, Callable[[Any], Any]]:
    return {"seat": _view, "seat_plan": _plan, "seat_protocol": _protocol}


PAGE_LABELS: dict[str, Text] = {
    "seatTitle": Text("Рассадка", "Seating"),
    "seatIntro": Text(
        "Перетащите список игроков (csv, xlsx или ods, с колонками «Клуб», «Команда», «Судит "
        "в турах») или укажите их число, выберите столы и туры.",
        "Drop a roster (csv, xlsx or ods, with «Club», «Team», «Judges in rounds» columns) "
        "or give the number of players, then choose tables and rounds.",
    ),
    "seatDrop": Text("Список игроков (.csv, .xlsx, .ods)", "Roster (.csv, .xlsx, .ods)"),
    "seatPlayers": Text("Игроков (без списка)", "Players (no roster)"),
    "seatTables": Text("Столов", "Tables"),
    "seatRounds": Text("Туров", "Rounds"),
    "seatSeed": Text("Затравка (необязательно)", "Seed (optional)"),
    "seatGo": Text("Рассадить", "Seat them"),
    "seatPlan": Text("Скачать план рассадки", "Download the seating plan"),
    "seatProtocol": Text("Скачать протокол с рассадкой", "Download the pre-filled protocol"),
    "seatLayout": Text("Вид протокола", "Protocol layout"),
    "layoutRows": Text("строка на место", "a row per seat"),
    "layoutBlank": Text("бланк на игру", "a sheet per game"),
    "layoutWide": Text("строка на игру", "a row per game"),
    "seatRound": Text("Тур {n}", "Round {n}"),
    "seatTable": Text("Стол {n}", "Table {n}"),
    "seatOut": Text("Не играют: {names}", "Sitting out: {names}"),
    "seatRoster": Text("Список: {name}", "Roster: {name}"),
    "seatSeedLine": Text("Затравка {seed}", "Seed {seed}"),
}
