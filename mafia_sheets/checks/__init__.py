"""Checks of SPEC §5: each a small function registered with the finding codes it reports.

A check takes the :class:`~.gate.Context` of one workbook (its typed protocol and the
gate of §5.2/§5.3, built once per run) and yields findings; it never raises for bad
data. Cross-file checks (nickname look-alikes across a season) take every file's
protocol at once. `run_checks` runs them all and collects every finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..findings import Finding
from ..model import Protocol
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

Check = Callable[[Context], Iterable[Finding]]
CrossCheck = Callable[[Sequence[Protocol]], Iterable[Finding]]


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


def declared_codes() -> set[str]:
    """Every code some registered check may report."""
    _load_all()
    return ({code for registered in CHECKS for code in registered.codes}
            | {code for registered in CROSS_CHECKS for code in registered.codes})


def _load_all() -> None:
    """Import every check module once so that each registers its checks."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
