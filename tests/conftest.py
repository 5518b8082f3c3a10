"""Test set-up: the builders module sits beside the tests; CI runs hypothesis on a known seed."""

import os
import secrets
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# CI: no deadline on a shared machine, failing examples printed as a reproducible blob, and
# one seed for the whole run, chosen here and printed in the header so a failure can be
# replayed with `python -m pytest --hypothesis-seed=N`.
settings.register_profile("ci", deadline=None, print_blob=True)
ON_CI = bool(os.environ.get("CI"))
if ON_CI:
    settings.load_profile("ci")


def pytest_configure(config):
    if ON_CI and config.getoption("hypothesis_seed", None) is None:
        from hypothesis import core

        seed = int(os.environ.get("HYPOTHESIS_SEED") or secrets.randbelow(2**32))
        core.global_force_seed = seed
        config.hypothesis_ci_seed = seed


def pytest_report_header(config):
    seed = getattr(config, "hypothesis_ci_seed", None)
    if seed is not None:
        return f"hypothesis profile 'ci', seed {seed} (replay: --hypothesis-seed={seed})"
    return None


# ---- programs some tests drive -------------------------------------------------------------
# Without them a test skips, with one line for all of them naming the Debian package to
# install; on CI (CI=true, where .ci/run installs them) the same absence fails instead.


MISSING = " is not installed: apt-get install "


def _program(name: str, found: str | None, package: str) -> str:
    if found:
        return found
    message = f"{name}{MISSING}{package}"
    if ON_CI:
        pytest.fail(f"{message} (CI=true: the tests that need it run, never skip)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium, or another build named by MAFIA_SHEETS_CHROMIUM."""
    path = os.environ.get("MAFIA_SHEETS_CHROMIUM", "/usr/bin/chromium")
    found = path if os.path.isfile(path) and os.access(path, os.X_OK) else shutil.which(path)
    return _program("Chromium", found, "chromium (or set MAFIA_SHEETS_CHROMIUM)")


@pytest.fixture(scope="session")
def soffice() -> str:
    """LibreOffice, to print a workbook to PDF, and poppler to read the PDF back."""
    found = shutil.which("soffice")
    poppler = all(shutil.which(tool) for tool in ("pdftotext", "pdftoppm"))
    return _program("LibreOffice", found if poppler else None, "libreoffice-calc poppler-utils")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Every test skipped for one missing program is told in one line, at `_program`."""
    outcome = yield
    report = outcome.get_result()
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and MISSING in str(longrepr[2]):
        report.longrepr = (__file__, _program.__code__.co_firstlineno - 1, longrepr[2])
