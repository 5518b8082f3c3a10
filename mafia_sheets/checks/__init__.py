"""Checks of SPEC §5: each a small function registered with the finding codes it reports.

A check takes the :class:`~.gate.Context` of one workbook (its typed protocol and the
gate of §5.2/§5.3, built once per run) and yields findings; it never raises for bad
data. Cross-file checks (nickname look-alikes across a season) take every file's
protocol at once. `run_checks` runs them all and collects every finding. A few checks
need the standings themselves (a lot sheet that misses a tied player): they run on the
rating once nothing is an error, through `run_rating_checks`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..findings import Finding
from ..model import Protocol, Rating
from .gate import Context, context_of

Subject = TypeVar("Subject")


@dataclass(frozen=True)
class Registered(Generic[Subject]):
    """A check and the codes it may emit: a finding of any other code is our bug."""

    function: Callable[[Subject], Iterable[Finding]]
    codes: frozenset[str]

    def run(self, subject: Subject) -> Iterator[Finding]:
        for found in self.function(subject):
            if found.code not in self.codes:
                raise AssertionError(f"{self.function.__name__} emitted undeclared {found.code}")
            yield found


CHECKS: list[Registered[Context]] = []
CROSS_CHECKS: list[Registered[Sequence[Protocol]]] = []
RATING_CHECKS: list[Registered[tuple[Sequence[Protocol], Rating]]] = []

Check = Callable[[Context], Iterable[Finding]]
CrossCheck = Callable[[Sequence[Protocol]], Iterable[Finding]]
RatingCheck = Callable[[tuple[Sequence[Protocol], Rating]], Iterable[Finding]]


def check(*codes: str) -> Callable[[Check], Check]:
    """Register a per-workbook check that reports `codes`."""

    def register(function: Check) -> Check:
        CHECKS.append(Registered(function, frozenset(codes)))
        return function

    return register


def cross_check(*codes: str) -> Callable[[CrossCheck], CrossCheck]:
    """Register a check over all the files of a season at once, reporting `codes`."""

    def register(function: CrossCheck) -> CrossCheck:
        CROSS_CHECKS.append(Registered(function, frozenset(codes)))
        return function

    return register


def rating_check(*codes: str) -> Callable[[RatingCheck], RatingCheck]:
    """Register a check of the standings (the protocols and their rating), reporting `codes`."""

    def register(function: RatingCheck) -> RatingCheck:
        RATING_CHECKS.append(Registered(function, frozenset(codes)))
        return function

    return register


def run_checks(protocols: Sequence[Protocol]) -> list[Finding]:
    _load_all()
    found: list[Finding] = []
    for protocol in protocols:
        context = context_of(protocol)
        for registered in CHECKS:
            found.extend(registered.run(context))
    for cross in CROSS_CHECKS:
        found.extend(cross.run(protocols))
    return found


def run_rating_checks(protocols: Sequence[Protocol], rating: Rating) -> list[Finding]:
    _load_all()
    return [found for registered in RATING_CHECKS for found in registered.run((protocols, rating))]


def wants_rating_checks(protocols: Sequence[Protocol]) -> bool:
    """Whether `check` must rank the players too: a filled lot sheet is judged against the
    ties it is meant to break."""
    return any(lot_filled(protocol) for protocol in protocols)


def lot_filled(protocol: Protocol) -> bool:
    """A lot sheet with at least one player given an order."""
    table = protocol.tables.get("lot")
    return table is not None and bool(
        (table.frame["player"].notna() & table.frame["order"].notna()).any()
    )


def declared_codes() -> set[str]:
    """Every code some registered check may report."""
    _load_all()
    registries: list[Sequence[Registered[Any]]] = [CHECKS, CROSS_CHECKS, RATING_CHECKS]
    return {code for registry in registries for registered in registry for code in registered.codes}


def load_checks() -> None:
    """Import every check module once, so that each registers its checks and finding codes
    (a finding made in another process names a code only its module defines)."""
    _load_all()


@functools.cache
def _load_all() -> None:
    """Import every check module once so that each registers its checks (the package's
    folder is listed once too)."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
