"""`rate` and `check` scan the files on the second core while they import the pipeline: the
scan is then this process's own (nothing is scanned twice), and a file the scan refuses is
refused exactly as in series — one line, exit 2 — even when the scanning child dies."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import badfiles
import pytest
from click.testing import CliRunner, Result
from forking import dies_in_a_child, needs_fork

from mafia_sheets import parallel
from mafia_sheets.cli import common
from mafia_sheets.cli.commands import main
from mafia_sheets.reading import safety

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "tournament-ru.xlsx"


@pytest.fixture
def scanned_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files this process scanned itself (a child's scans are not seen here)."""
    names: list[str] = []
    scan = safety._scan

    def recorded(data: bytes, name: str) -> Any:
        names.append(name)
        return scan(data, name)

    monkeypatch.setattr(safety, "_scan", recorded)
    safety.forget_scans()
    return names


def invoke(*args: object, serial: bool = False) -> Result:
    env = {parallel.SERIAL_ENV: "1"} if serial else {parallel.SERIAL_ENV: ""}
    safety.forget_scans()
    return CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)


def said(result: Result) -> tuple[int, str, str]:
    return result.exit_code, result.stdout, result.stderr


@needs_fork
@pytest.mark.parametrize("command", ["rate", "check"])
def test_the_scan_made_beside_is_not_made_again(
    command: str, tmp_path: Path, scanned_here: list[str]
) -> None:
    options = ["-o", tmp_path / "out.xlsx"] if command == "rate" else []
    beside = invoke(command, SAMPLE, *options)
    assert scanned_here == []  # scanned by the child only
    serial = invoke(command, SAMPLE, *options, serial=True)
    assert scanned_here == [SAMPLE.name]
    assert said(beside) == said(serial) and beside.exit_code == 0


@needs_fork
def test_check_annotate_judges_the_copy_from_the_scan_made_beside(
    tmp_path: Path, scanned_here: list[str]
) -> None:
    out = tmp_path / "annotated.xlsx"
    result = invoke("check", SAMPLE, "--annotate", out)
    assert result.exit_code == 0 and out.is_file()
    assert scanned_here == []


REFUSED: list[Callable[[Path], Path]] = [
    badfiles.password_protected,  # refused by the scan
    badfiles.truncated,
    badfiles.formulas_without_values,  # refused when the scan is judged
    badfiles.legacy_xls,
]


@needs_fork
@pytest.mark.parametrize("build", REFUSED, ids=lambda build: build.__name__)
@pytest.mark.parametrize("command", ["rate", "check"])
def test_a_refusal_comes_out_as_in_series(
    build: Callable[[Path], Path], command: str, tmp_path: Path, scanned_here: list[str]
) -> None:
    bad = build(tmp_path)
    beside, serial = invoke(command, bad), invoke(command, bad, serial=True)
    assert said(beside) == said(serial)
    assert beside.exit_code == 2 and len(beside.stderr.splitlines()) == 1
    assert bad.name in beside.stderr


@needs_fork
def test_in_a_season_the_files_are_refused_in_their_order(tmp_path: Path) -> None:
    """Each file is refused in its turn, after the files before it are read, as in series."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = badfiles.truncated(tmp_path / "a")
    second = badfiles.password_protected(tmp_path / "b")
    for files in ([first, second], [second, first], [SAMPLE, second]):
        beside, serial = invoke("check", *files), invoke("check", *files, serial=True)
        assert said(beside) == said(serial) and beside.exit_code == 2
        assert files[0 if files[0] != SAMPLE else 1].name in beside.stderr


def _dies_in_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "_scans", dies_in_a_child(common._scans))


@needs_fork
@pytest.mark.parametrize("build", [badfiles.password_protected, lambda _: SAMPLE])
def test_a_scanning_child_that_dies_loses_nothing(
    build: Callable[[Path], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = build(tmp_path)
    serial = invoke("check", path, serial=True)
    _dies_in_the_child(monkeypatch)
    assert said(invoke("check", path)) == said(serial)


def test_the_last_outcome_alone_is_held_until_the_process_ends(tmp_path: Path) -> None:
    """The command's process drops its outcome at exit instead of freeing it on the way out;
    a process that runs many commands (these tests, a script) holds one at most."""
    first = invoke("rate", SAMPLE, "-o", tmp_path / "one.xlsx")
    held = list(common._HELD)
    second = invoke("rate", SAMPLE, "--json")
    assert first.exit_code == second.exit_code == 0
    assert len(held) == 1 and held[0].rating is not None
    assert len(common._HELD) == 1 and common._HELD[0] is not held[0]
