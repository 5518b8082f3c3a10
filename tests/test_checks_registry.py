"""Every finding code has an owner that declares it, a test that names it, and a README row."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import mafia_sheets.reading as reading
from mafia_sheets.checks import CHECKS, CROSS_CHECKS, RATING_CHECKS, Registered, declared_codes
from mafia_sheets.findings import CATALOG, finding

ROOT = Path(__file__).resolve().parent.parent


def reading_codes() -> set[str]:
    """Codes the reading stage defines: a value, sheet, column or setting it cannot read."""
    codes = set()
    for module in pkgutil.iter_modules(reading.__path__):
        loaded = importlib.import_module(f"{reading.__name__}.{module.name}")
        codes |= {v for v in vars(loaded).values() if isinstance(v, str) and v in CATALOG}
    return codes


def test_every_code_is_declared_by_a_check_or_the_reader():
    owned = declared_codes() | reading_codes()
    assert sorted(set(CATALOG) - owned) == []


def test_no_code_is_declared_by_two_checks():
    seen: dict[str, str] = {}
    for registered in [*CHECKS, *CROSS_CHECKS, *RATING_CHECKS]:
        for code in registered.codes:
            assert code not in seen, (code, seen.get(code), registered.function.__name__)
            seen[code] = registered.function.__name__


def test_every_code_is_named_in_a_test_and_in_the_readme():
    reading_codes()
    declared_codes()
    tests = "".join(path.read_text("utf-8") for path in (ROOT / "tests").glob("test_*.py"))
    readme = (ROOT / "README.md").read_text("utf-8")
    assert sorted(c for c in CATALOG if f'"{c}"' not in tests) == []
    assert sorted(c for c in CATALOG if f"`{c}`" not in readme) == []


def test_a_check_that_emits_an_undeclared_code_is_our_bug():
    def sloppy(_subject: object):
        yield finding("missing-result", "Игры", "F2")

    with pytest.raises(AssertionError, match="undeclared missing-result"):
        list(Registered(sloppy, frozenset({"duplicate-game"})).run(None))
