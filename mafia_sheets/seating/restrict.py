"""The restrictions of a seating, from the roster and the command line.

- one `Клуб` / `Club` or one `Команда` / `Team` in the roster: those players sit apart;
- `--apart A,B`: A and B sit apart; `--together A,B`: A and B share a table every round
  both play (an explicit `--together` outranks a shared club or team);
- `Судит в турах` / `Judges in rounds` in the roster, or `--judge NAME:ROUNDS`: a judge
  who is also a player does not play the rounds they judge.

Names are matched as the roster spells them, case, «ё» and spacing folded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..text import Text
from ..vocab import fold
from .model import PLAYER_NAME, SEATS, Entrant, Pair, Restrictions, Shape
from .shape import SeatingError

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
MAX_ROUND = 1_000


def parse_rounds(text: str) -> frozenset[int] | None:
    """`'1, 3-5'` → {1, 3, 4, 5}; blank → ∅; None when it is not a list of round numbers.

    >>> sorted(parse_rounds("1, 3–5; 8"))
    [1, 3, 4, 5, 8]
    >>> parse_rounds("first") is None
    True
    """
    rounds: set[int] = set()
    for part in re.split(r"[,;\s]+", re.sub(r"\s*[-–—]\s*", "-", text.strip())):
        if not part:
            continue
        match = _RANGE.match(part)
        if match is None:
            return None
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if not 1 <= first <= last <= MAX_ROUND:
            return None
        rounds.update(range(first, last + 1))
    return frozenset(rounds)


def split_aliases(text: str) -> tuple[str, ...]:
    """`'Котик; Кот Учёный'` → ('Котик', 'Кот Учёный'): other spellings, comma or
    semicolon separated."""
    return tuple(" ".join(a.split()) for a in re.split(r"[;,\n]", text) if a.strip())


def entrant_of(
    name: str, club: str = "", team: str = "", city: str = "", judges: str = "", aliases: str = ""
) -> Entrant:
    """A roster line as seating reads it; a «Судит в турах» that is not round numbers is
    refused naming the player."""
    rounds = parse_rounds(judges)
    if rounds is None:
        raise SeatingError(
            Text(
                f"«{name}»: «Судит в турах» = «{judges}» — нужны номера туров, например «1, 3–4».",
                f"“{name}”: «Judges in rounds» = «{judges}» — round numbers are needed, "
                "e.g. «1, 3-4».",
            )
        )
    return Entrant(name, club, team, city, rounds, split_aliases(aliases))


def numbered(count: int, lang: str) -> list[Entrant]:
    """`count` players known by number: «Игрок 1» … / «Player 1» …."""
    return [Entrant(PLAYER_NAME.format(n=n)(lang)) for n in range(1, count + 1)]


def names_index(entrants: Sequence[Entrant]) -> dict[str, int]:
    return {fold(e.name): i for i, e in enumerate(entrants)}


def find(entrants: Sequence[Entrant], name: str, option: str) -> int:
    """The roster number of `name`, or a one-line refusal naming the option."""
    index = names_index(entrants).get(fold(name))
    if index is None:
        raise SeatingError(
            Text(
                f"{option}: «{name}» нет в списке игроков.",
                f"{option}: “{name}” is not in the roster.",
            )
        )
    return index


def restrictions_for(
    entrants: Sequence[Entrant],
    shape: Shape,
    apart: Iterable[tuple[str, str]] = (),
    together: Iterable[tuple[str, str]] = (),
) -> Restrictions:
    """Every restriction of the roster and the options, checked against the shape."""
    kept_together = _pairs(entrants, together, "--together", Text("--together", "--together"))
    asked_apart = _pairs(entrants, apart, "--apart", Text("--apart", "--apart"))
    clash = {(p.a, p.b) for p in kept_together} & {(p.a, p.b) for p in asked_apart}
    if clash:
        a, b = min(clash)
        raise SeatingError(
            Text(
                f"«{entrants[a].name}» и «{entrants[b].name}» — и в --apart, и в --together.",
                f"“{entrants[a].name}” and “{entrants[b].name}” are in both --apart and "
                "--together.",
            )
        )
    apart_pairs = {(p.a, p.b): p for p in _shared(entrants)}
    apart_pairs.update({(p.a, p.b): p for p in asked_apart})
    for pair in kept_together:
        apart_pairs.pop((pair.a, pair.b), None)
    away = _away(entrants, shape)
    return Restrictions(
        tuple(apart_pairs[key] for key in sorted(apart_pairs)), tuple(kept_together), away
    )


def _pairs(
    entrants: Sequence[Entrant], names: Iterable[tuple[str, str]], option: str, reason: Text
) -> list[Pair]:
    pairs: dict[tuple[int, int], Pair] = {}
    for first, second in names:
        a, b = find(entrants, first, option), find(entrants, second, option)
        if a == b:
            raise SeatingError(
                Text(
                    f"{option}: «{first}» и «{second}» — один игрок.",
                    f"{option}: “{first}” and “{second}” are one player.",
                )
            )
        a, b = min(a, b), max(a, b)
        pairs[(a, b)] = Pair(a, b, reason)
    return [pairs[key] for key in sorted(pairs)]


def _shared(entrants: Sequence[Entrant]) -> list[Pair]:
    """Pairs of one club or one team."""
    pairs: list[Pair] = []
    for field, word in (("club", Text("клуб", "club")), ("team", Text("команда", "team"))):
        members: dict[str, list[int]] = {}
        for i, entrant in enumerate(entrants):
            value = getattr(entrant, field)
            if fold(value):
                members.setdefault(fold(value), []).append(i)
        for indices in members.values():
            name = getattr(entrants[indices[0]], field)
            reason = Text(f"{word.ru} «{name}»", f"{word.en} “{name}”")
            pairs += [Pair(a, b, reason) for n, a in enumerate(indices) for b in indices[n + 1 :]]
    return pairs


def _away(entrants: Sequence[Entrant], shape: Shape) -> frozenset[tuple[int, int]]:
    """(player, round from 0) of every round a judge-player judges; each round must keep
    enough players free to fill its tables."""
    away: set[tuple[int, int]] = set()
    for p, entrant in enumerate(entrants):
        late = sorted(r for r in entrant.judges if r > shape.rounds)
        if late:
            raise SeatingError(
                Text(
                    f"«{entrant.name}» судит в туре {late[0]}, а туров {shape.rounds}.",
                    f"“{entrant.name}” judges round {late[0]}, but there are {shape.rounds} "
                    "rounds.",
                )
            )
        away.update((p, r - 1) for r in entrant.judges)
    for r, tables in enumerate(shape.tables):
        free = shape.players - sum(1 for _, rr in away if rr == r)
        if free < SEATS * tables:
            raise SeatingError(
                Text(
                    f"В туре {r + 1} свободны {free} игроков из-за судейства, а для "
                    f"{tables} столов нужно {SEATS * tables}.",
                    f"Round {r + 1} has {free} players free of judging; {tables} tables "
                    f"need {SEATS * tables}.",
                )
            )
    return frozenset(away)
