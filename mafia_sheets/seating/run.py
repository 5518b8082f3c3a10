"""One seating asked for, from the roster to the figures: what the CLI and the page call.

`make` builds a schedule for a roster; `judge` takes one made elsewhere. Both return the
schedule with the roster, the restrictions and the figures it is measured by.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..text import Text
from .figures import Figures, measure
from .model import Entrant, Restrictions, Schedule
from .optimise import Progress, seat_players
from .restrict import entrant_of, find, parse_rounds, restrictions_for
from .shape import SeatingError, shape_for

MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class Ask:
    """What the judge asks for: the shape, the seed, the pairs and the judges' rounds."""

    tables: int | None = None
    rounds: int | None = None
    games_per_player: int | None = None
    seed: int | None = None  # None: drawn, and printed so the run can be repeated
    apart: tuple[tuple[str, str], ...] = ()
    together: tuple[tuple[str, str], ...] = ()
    judges: tuple[str, ...] = ()  # `NAME:ROUNDS`
    effort: float = 1.0


@dataclass(frozen=True)
class Seated:
    schedule: Schedule
    entrants: tuple[Entrant, ...]
    restrictions: Restrictions
    figures: Figures
    seed: int | None  # None for a schedule read from a file


def make(entrants: Sequence[Entrant], ask: Ask, progress: Progress | None = None) -> Seated:
    """A schedule for `entrants` as asked."""
    roster = with_judges(list(entrants), ask.judges)
    shape = shape_for(len(roster), ask.tables, ask.rounds, ask.games_per_player)
    restrictions = restrictions_for(roster, shape, ask.apart, ask.together)
    seed = secrets.randbelow(MAX_SEED + 1) if ask.seed is None else ask.seed
    names = [e.name for e in roster]
    schedule = seat_players(names, shape, restrictions, seed, progress, ask.effort)
    return Seated(schedule, tuple(roster), restrictions, measure(schedule, restrictions), seed)


def judge(schedule: Schedule, entrants: Sequence[Entrant] | None, ask: Ask) -> Seated:
    """The figures of a schedule made elsewhere, restricted by the roster when given."""
    known = {e.name: e for e in entrants or ()}
    roster = with_judges([known.get(n) or entrant_of(n) for n in schedule.names], ask.judges)
    restrictions = restrictions_for(roster, schedule.shape, ask.apart, ask.together)
    return Seated(schedule, tuple(roster), restrictions, measure(schedule, restrictions), None)


def with_judges(entrants: list[Entrant], judges: Sequence[str]) -> list[Entrant]:
    """`NAME:ROUNDS` entries: the player does not play the rounds they judge."""
    for value in judges:
        name, _, rounds_text = value.rpartition(":")
        rounds = parse_rounds(rounds_text) if name.strip() else None
        if not rounds:
            raise SeatingError(
                Text(
                    f"--judge «{value}»: нужно НИК:ТУРЫ, например --judge Кот:1,3-4.",
                    f"--judge “{value}”: NAME:ROUNDS is needed, e.g. --judge Cat:1,3-4.",
                )
            )
        index = find(entrants, name.strip(), "--judge")
        entrants[index] = replace(entrants[index], judges=entrants[index].judges | rounds)
    return entrants


def name_pairs(values: Sequence[str], option: str) -> tuple[tuple[str, str], ...]:
    """`A,B` (or `A,B,C`: every pair of the group) → name pairs."""
    pairs: list[tuple[str, str]] = []
    for value in values:
        names = [" ".join(n.split()) for n in value.split(",")]
        if len(names) < 2 or not all(names):
            raise SeatingError(
                Text(
                    f"{option} «{value}»: нужны ники через запятую, например {option} Кот,Пёс.",
                    f"{option} “{value}”: nicknames separated by commas are needed, e.g. "
                    f"{option} Cat,Dog.",
                )
            )
        pairs += [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return tuple(pairs)
