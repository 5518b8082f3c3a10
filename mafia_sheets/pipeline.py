"""The one path from workbook bytes to findings and a rating: read → check → score → rank.

The CLI and the web page both call :func:`evaluate`; neither touches the stages directly.

The checks and the scoring are independent given the protocols: where a child can be
forked (:mod:`.parallel`), the checks run on the other core while this process builds the
rating speculatively. The checks decide as they do in series: when they find an error the
rating is thrown away — and with it whatever the scoring raised on data the checks would
have refused — and when they are clean the rating stands, or the scoring's error is raised
as the bug it then is. The outcome is the serial one, finding for finding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .checks import load_checks, run_checks, run_rating_checks, wants_rating_checks
from .errors import ProtocolReadError, Stopped
from .findings import Finding, sort_findings
from .model import Outcome, Protocol, Rating, Source
from .parallel import beside, can_fork
from .rating.build import build_rating
from .rating.season import pool
from .reading.aliases import merge_aliases
from .reading.files import each_once
from .reading.protocol import load_protocol

Progress = Callable[[str], None]

# Every check module with the pipeline, not on the way to the first evaluation (the command
# line imports the pipeline while its files are scanned, the page's workers when they
# start), and before any child is forked: its findings name codes those modules define.
load_checks()

# Below this many seat rows the checks take a few milliseconds: a fork costs more.
BESIDE_MIN_SEATS = 2_000


def _quiet(_: str) -> None:
    return None


@dataclasses.dataclass(frozen=True)
class _Asked:
    """What the rating is built with, besides the protocols."""

    lot_seed: int | None
    stats: bool
    seats: bool


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
    protocols, findings = _read(sources, progress)
    progress("check")
    order = _sheet_order(protocols)
    reading = tuple(r for protocol in protocols for r in protocol.reading)
    headers = tuple(read for protocol in protocols for read in protocol.headers)
    wanted = rate or wants_rating_checks(protocols)
    asked = _Asked(lot_seed, stats and rate, seats)
    findings, rating = _checked_and_rated(protocols, findings, order, wanted, asked, progress)
    if rating is None:
        return Outcome(tuple(findings), None, order, reading=reading, headers=headers)
    findings = sort_findings([*findings, *run_rating_checks(protocols, rating)], order)
    rating = dataclasses.replace(rating, findings=tuple(findings), reading=reading, headers=headers)
    return Outcome(
        tuple(findings), rating if rate else None, order, reading=reading, headers=headers
    )


def _read(sources: Sequence[Source], progress: Progress) -> tuple[list[Protocol], list[Finding]]:
    """Every source read, one nickname per player across them, and what reading found;
    the files that cannot be read are refused together, each on its line."""
    protocols: list[Protocol] = []
    findings: list[Finding] = []
    unreadable: list[ProtocolReadError] = []
    for source in each_once(sources):
        progress(f"read:{source.name}")
        try:
            protocol, found = load_protocol(source)
        except ProtocolReadError as error:  # the others are read on, to be named too
            unreadable.append(error)
            continue
        protocols.append(protocol)
        findings.extend(found)
    if unreadable:
        raise ProtocolReadError.of_each(unreadable)
    protocols, found = merge_aliases(protocols)
    findings.extend(found)
    return protocols, findings


def _checked_and_rated(
    protocols: list[Protocol],
    findings: list[Finding],
    order: dict[str, int],
    wanted: bool,
    asked: _Asked,
    progress: Progress,
) -> tuple[list[Finding], Rating | None]:
    """The sorted findings of reading and checks, and the rating when it is `wanted` and
    nothing is an error (its findings those same sorted findings)."""
    if not (wanted and can_fork() and _worth_a_child(protocols)) or _blocked(findings):
        findings = sort_findings([*findings, *run_checks(protocols)], order)
        if not wanted or _blocked(findings):
            return findings, None
        progress("score")
        return findings, build_rating(pool(protocols), findings, *_options(asked))
    with beside(run_checks, protocols) as checking:
        built = _speculate(protocols, asked)
        findings = sort_findings([*findings, *checking.result()], order)
    if _blocked(findings):
        return findings, None  # what the scoring made or raised on refused data is moot
    progress("score")
    if isinstance(built, BaseException):
        raise built  # the checks passed the data: the scoring's error is a bug to see
    return findings, dataclasses.replace(built, findings=tuple(findings))


def _speculate(protocols: list[Protocol], asked: _Asked) -> Rating | Exception:
    """The rating built before the checks have judged the data, or what building it raised
    (a stop from outside — the deadline — is never held back)."""
    try:
        return build_rating(pool(protocols), (), *_options(asked))
    except Stopped:
        raise
    except Exception as error:  # judged once the checks have spoken
        return error


def _options(asked: _Asked) -> tuple[int | None, bool, bool]:
    return asked.lot_seed, asked.stats, asked.seats


def _blocked(findings: Sequence[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def _worth_a_child(protocols: Sequence[Protocol]) -> bool:
    """Whether the checks are long enough to pay for a forked child."""
    seats = sum(len(p.tables["seats"].frame) for p in protocols if "seats" in p.tables)
    return seats >= BESIDE_MIN_SEATS


def _sheet_order(protocols: Sequence[Protocol]) -> dict[str, int]:
    order: dict[str, int] = {}
    for protocol in protocols:
        for name, index in protocol.sheet_order.items():
            order.setdefault(name, index)
    return order
