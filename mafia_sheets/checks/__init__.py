"""Checks of SPEC §5: each a small function registered under the codes it reports.

A check takes a typed :class:`Protocol` (one workbook) and returns findings; it never
raises for bad data. Cross-file checks (nickname look-alikes across a season) take every
file's protocol at once. `run_checks` runs them all and collects every finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..findings import Finding
from ..model import Protocol

Check = Callable[[Protocol], Iterable[Finding]]
CrossCheck = Callable[[Sequence[Protocol]], Iterable[Finding]]

CHECKS: list[Check] = []
CROSS_CHECKS: list[CrossCheck] = []


def check(function: Check) -> Check:
    """Register a per-workbook check."""
    CHECKS.append(function)
    return function


def cross_check(function: CrossCheck) -> CrossCheck:
    """Register a check over all the files of a season at once."""
    CROSS_CHECKS.append(function)
    return function


def run_checks(protocols: Sequence[Protocol]) -> list[Finding]:
    _load_all()
    found: list[Finding] = []
    for protocol in protocols:
        for function in CHECKS:
            found.extend(function(protocol))
    for cross in CROSS_CHECKS:
        found.extend(cross(protocols))
    return found


def _load_all() -> None:
    """Import every check module once so that each registers its checks."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
