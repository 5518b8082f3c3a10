"""The one path from workbook bytes to findings and a rating: read → check → score → rank.

The CLI and the web page both call :func:`evaluate`; neither touches the stages directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .checks import run_checks, run_rating_checks, wants_rating_checks
from .findings import Finding, sort_findings
from .model import Outcome, Protocol, Source
from .rating.build import build_rating
from .rating.season import pool
from .reading.aliases import merge_aliases
from .reading.protocol import load_protocol

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    return None


def evaluate(
    sources: Sequence[Source],
    *,
    lot_seed: int | None = None,
    rate: bool = True,
    progress: Progress = _quiet,
    stats: bool = True,
    seats: bool = False,
) -> Outcome:
    """Read and check every source; when nothing is an error (and `rate`), rate them as one;
    `seats` keeps the scored seat rows on the rating (for an export of the games).

    Raises MafiaSheetsError (exit 2) for a file that cannot be read at all, and
    SeasonConflictError when the files of a season disagree on a rule setting. Findings
    are rendered later, in the language of the output.
    """
    protocols: list[Protocol] = []
    findings: list[Finding] = []
    for source in sources:
        progress(f"read:{source.name}")
        protocol, found = load_protocol(source)
        protocols.append(protocol)
        findings.extend(found)
    protocols, found = merge_aliases(protocols)
    findings.extend(found)
    progress("check")
    findings.extend(run_checks(protocols))
    order = _sheet_order(protocols)
    findings = sort_findings(findings, order)
    reading = tuple(r for protocol in protocols for r in protocol.reading)
    headers = tuple(read for protocol in protocols for read in protocol.headers)
    blocked = any(f.severity == "error" for f in findings)
    if blocked or not (rate or wants_rating_checks(protocols)):
        return Outcome(tuple(findings), None, order, reading=reading, headers=headers)
    # `check` ranks the players too when a lot sheet is filled: it is judged by the ties
    season = pool(protocols)
    progress("score")
    rating = build_rating(season, findings, lot_seed, stats and rate, seats)
    findings = sort_findings([*findings, *run_rating_checks(protocols, rating)], order)
    rating = dataclasses.replace(rating, findings=tuple(findings), reading=reading, headers=headers)
    return Outcome(
        tuple(findings), rating if rate else None, order, reading=reading, headers=headers
    )


def _sheet_order(protocols: Sequence[Protocol]) -> dict[str, int]:
    order: dict[str, int] = {}
    for protocol in protocols:
        for name, index in protocol.sheet_order.items():
            order.setdefault(name, index)
    return order
