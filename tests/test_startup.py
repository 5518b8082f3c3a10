"""Start-up: `--help`, `--version` and `check` load only what they need.

Interpreter start and `import pandas` cost most of a small run (≈0.7 s), openpyxl ≈0.4 s,
xlsxwriter ≈0.14 s: the help answers without any of them, and `check` reads and judges
without the writers. Measured by the modules a fresh interpreter has imported.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from mafia_sheets.testing.synth import generate

HEAVY = {"pandas", "numpy", "openpyxl", "xlsxwriter", "python_calamine", "starlette", "uvicorn"}
WRITERS = {"openpyxl", "xlsxwriter", "starlette", "uvicorn"}
PROBE = """
import atexit, sys
def said():
    names = sorted({name.split(".")[0] for name in sys.modules})
    print("MODULES " + " ".join(names), file=sys.__stderr__)
atexit.register(said)
sys.argv = ["mafia-sheets", *sys.argv[1:]]
from mafia_sheets.cli.commands import entry
entry()
"""


def loaded(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["rate", "--help"], []])
def test_help_and_version_load_no_heavy_library(args):
    assert loaded(*args) & HEAVY == set()


def test_check_loads_no_writer(tmp_path: Path):
    data = io.BytesIO()
    generate(3, players=10, seed=1).to_xlsx(data)
    protocol = tmp_path / "small.xlsx"
    protocol.write_bytes(data.getvalue())
    modules = loaded("check", str(protocol))
    assert "pandas" in modules  # it did read the protocol
    assert modules & WRITERS == set()


@pytest.mark.parametrize("layout", ["rows", "blank", "wide"])
def test_template_loads_only_the_writer(tmp_path: Path, layout: str):
    modules = loaded("template", str(tmp_path / "t.xlsx"), "--layout", layout)
    assert "xlsxwriter" in modules
    assert modules & {"pandas", "numpy", "openpyxl", "starlette", "uvicorn"} == set()


LEAVE = """
import atexit, sys
from mafia_sheets.cli.commands import leave
atexit.register(print, "exit handler ran")
print("written", end="")  # unflushed: leave flushes it
leave(eval(sys.argv[1]))
"""


@pytest.mark.parametrize(
    ("code", "status", "said"),
    [("None", 0, ""), ("0", 0, ""), ("2", 2, ""), ("'stopped'", 1, "stopped")],
)
def test_the_command_ends_as_sys_exit_would(code: str, status: int, said: str):
    """The console script ends without the interpreter's teardown, but with sys.exit's
    exit status and message, its exit handlers run and its output flushed."""
    done = subprocess.run(
        [sys.executable, "-c", LEAVE, code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == status
    assert done.stdout == "writtenexit handler ran\n"
    assert done.stderr.strip() == said
