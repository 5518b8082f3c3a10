"""The one path from workbook bytes to findings and a rating: read → check → score → rank.

The CLI and the web page both call :func:`evaluate`; neither touches the stages directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .checks import run_checks
from .findings import Finding, sort_findings
from .model import Outcome, Protocol, Source
from .rating.build import build_rating
from .rating.season import pool
from .reading.protocol import load_protocol

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    return None


def evaluate(sources: Sequence[Source], *, lot_seed: int | None = None, rate: bool = True,
             progress: Progress = _quiet, stats: bool = True) -> Outcome:
    """Read and check every source; when nothing is an error (and `rate`), rate them as one.

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
    progress("check")
    findings.extend(run_checks(protocols))
    order = _sheet_order(protocols)
    findings = sort_findings(findings, order)
    reading = tuple(r for protocol in protocols for r in protocol.reading)
    headers = tuple(read for protocol in protocols for read in protocol.headers)
    if not rate or any(f.severity == "error" for f in findings):
        return Outcome(tuple(findings), None, order, reading=reading, headers=headers)
    season = pool(protocols)
    progress("score")
    rating = dataclasses.replace(build_rating(season, findings, lot_seed, stats),
                                 reading=reading, headers=headers)
    return Outcome(tuple(findings), rating, order, reading=reading, headers=headers)


def _sheet_order(protocols: Sequence[Protocol]) -> dict[str, int]:
    order: dict[str, int] = {}
    for protocol in protocols:
        for name, index in protocol.sheet_order.items():
            order.setdefault(name, index)
    return order
