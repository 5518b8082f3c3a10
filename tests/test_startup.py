"""Start-up: `--help`, `--version` and `check` load only what they need.

Interpreter start and `import pandas` cost most of a small run (≈0.7 s), openpyxl ≈0.4 s,
xlsxwriter ≈0.14 s: the help answers without any of them, and `check` reads and judges
without the writers. Measured by the modules a fresh interpreter has imported.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import pytest

from mafia_sheets.cli.commands import COMMANDS
from mafia_sheets.testing.synth import generate

HEAVY = {"pandas", "numpy", "openpyxl", "xlsxwriter", "python_calamine", "starlette", "uvicorn"}
WRITERS = {"openpyxl", "xlsxwriter", "starlette", "uvicorn"}
PROBE = """
import atexit, sys
def said():
    names = sorted(sys.modules)
    print("MODULES " + " ".join(names), file=sys.__stderr__)
atexit.register(said)
sys.argv = ["mafia-sheets", *sys.argv[1:]]
from mafia_sheets.cli.commands import entry
entry()
"""


def imported(probe: str, *args: str) -> set[str]:
    """Every module (dotted name) a fresh interpreter running `probe` has imported."""
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def loaded(*args: str) -> set[str]:
    """The top-level packages `mafia-sheets *args` imported."""
    return {name.split(".")[0] for name in imported(PROBE, *args)}


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


def test_a_command_loads_no_other_commands_module(tmp_path: Path):
    """`rate` forks its scanning child once its own module is imported: the other
    commands' modules are imported only by `--help`, which lists them all."""
    data = io.BytesIO()
    generate(3, players=10, seed=1).to_xlsx(data)
    protocol = tmp_path / "small.xlsx"
    protocol.write_bytes(data.getvalue())
    modules = {f"mafia_sheets.cli.{where.split(':')[0]}" for where in COMMANDS.values()}
    assert imported(PROBE, "rate", str(protocol), "--json") & modules == {"mafia_sheets.cli.rate"}
    assert imported(PROBE, "--help") & modules == modules


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


# ---- what is still imported inside a function, and why -----------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "mafia_sheets"
SERVER = """
import atexit, sys
atexit.register(lambda: print("MODULES " + " ".join(sorted(sys.modules)), file=sys.__stderr__))
import mafia_sheets.web.app
"""
# Why an import may stand inside a function rather than at its module's top.
REASONS = {
    "cli": "a command's library, imported when the command runs: `--help` imports every "
    "command's module (checked: `--help` does not load it)",
    "worker": "a library call of the page's jobs, run in a worker that has it warm already "
    "(web/jobs.py WARM_MODULES); the server imports the module for its records and loads "
    "none of it (checked: the server does not load it)",
    "heavy": "a library costly to load (pandas and the readers/writers), on one rare path of "
    "a module that a process without it imports (checked: it loads one)",
    "circle": "the top would close an import circle (say which, at the import)",
    "child": "needed only in a forked child, never by the process that starts",
    "beside": "needed by `rate` or `check` only once the files are read: imported while the "
    "child the command forks scans them, not before (checked: not loaded at that fork)",
}
# Every import inside a function: `path::function module` → its reason. An import moved to
# the top leaves this list; a new one inside a function needs one of the reasons above.
INSIDE = {
    "cli/check.py::_print_json report.json": "beside",
    "cli/check.py::_write_annotated report.annotate": "cli",
    "cli/check.py::_write_annotated report.odscopy": "cli",
    "cli/common.py::_ScansAhead.__init__ reading.sheets": "cli",
    "cli/common.py::_scanned_and_read reading.sheets": "child",
    "cli/common.py::evaluate pipeline": "cli",
    "cli/common.py::say_reading reading.layouts": "beside",
    "cli/common.py::say_reading reading.summary": "beside",
    "cli/imports.py::_edition_line formats": "cli",
    "cli/imports.py::import_command formats": "cli",
    "cli/imports.py::import_command formats.base": "cli",
    "cli/imports.py::import_command template.layouts": "cli",
    "cli/rate.py::_output cli.exports": "cli",
    "cli/rate.py::_print_json report.json": "beside",
    "cli/rate.py::_write_results report.xlsx": "cli",
    "cli/rate.py::rate cli.exports": "cli",
    "cli/rules.py::edition_lines reading.settings": "cli",
    "cli/seat.py::_ask seating.run": "cli",
    "cli/seat.py::_say seating.wording": "cli",
    "cli/seat.py::_seated cli.seat_text": "cli",
    "cli/seat.py::_seated seating.readers": "cli",
    "cli/seat.py::_seated seating.run": "cli",
    "cli/seat.py::_seated seating.shape": "cli",
    "cli/seat.py::_write_outputs report.plan": "cli",
    "cli/seat.py::_write_outputs seating.wording": "cli",
    "cli/seat.py::_write_outputs template.prefill": "cli",
    "cli/seat.py::roster_entrants seating.restrict": "cli",
    "cli/seat.py::roster_entrants template.roster": "cli",
    "cli/seat.py::seat seating.export": "cli",
    "cli/serve.py::serve web.app": "cli",
    "cli/template.py::template template.layouts": "cli",
    "cli/template.py::template template.roster": "cli",
    "cli/template.py::template template.workbook": "cli",
    "parallel.py::die_with ctypes": "child",
    "web/jobs.py::_annotator report.annotate": "worker",
    "web/jobs.py::_csv formats.csvtable": "worker",
    "web/jobs.py::_evaluate pipeline": "worker",
    "web/jobs.py::_mwt formats.mwt": "worker",
    "web/jobs.py::_rate report.json": "worker",
    "web/jobs.py::_results report.xlsx": "worker",
    "web/jobs.py::_rules report.sheets.summary": "worker",
    "web/jobs.py::_simulate numpy": "worker",
    "web/seating.py::_plan report.plan": "worker",
    "web/seating.py::_protocol template.prefill": "worker",
    "web/seating.py::_seated seating.restrict": "worker",
    "web/seating.py::_seated seating.run": "worker",
    "web/seating.py::_seated seating.shape": "worker",
    "web/seating.py::_seated template.roster": "worker",
    "web/seating.py::_view seating.export": "worker",
    "web/seating.py::_view seating.wording": "worker",
}


def package_modules() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def _targets(node: ast.Import | ast.ImportFrom, package: list[str], known: set[str]) -> set[str]:
    """The modules an import statement names: package modules without `mafia_sheets.`."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if not node.level:
        return {node.module or ""}
    base = package[: len(package) - node.level + 1]
    prefix = ".".join([*base, node.module] if node.module else base)
    subs = {f"{prefix}.{alias.name}".strip(".") for alias in node.names}
    return {name for name in subs if name in known} or {prefix}


def _imports_in_functions(node: ast.AST, where: str = "", within: bool = False):
    """(qualified function name, import statement) for every import inside a function."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inner = f"{where}.{child.name}".lstrip(".")
            yield from _imports_in_functions(
                child, inner, within or not isinstance(child, ast.ClassDef)
            )
        elif isinstance(child, ast.Import | ast.ImportFrom) and within:
            yield where, child
        else:
            yield from _imports_in_functions(child, where, within)


def inside_functions() -> dict[str, str]:
    """`path::function module` → the importing module, for every import inside a function."""
    known, found = package_modules(), {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        module = ".".join(["mafia_sheets", *(parts[:-1] if parts[-1] == "__init__" else parts)])
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for where, node in _imports_in_functions(tree):
            for target in _targets(node, parts[:-1], known):
                found[f"{path.relative_to(PACKAGE).as_posix()}::{where} {target}"] = module
    return found


def test_every_import_inside_a_function_is_listed_with_its_reason():
    found = inside_functions()
    new = sorted(set(found) - set(INSIDE))
    assert new == [], "import these at the module's top, or list them in INSIDE with a reason"
    assert sorted(set(INSIDE) - set(found)) == []  # moved to the top: off the list
    assert set(INSIDE.values()) <= set(REASONS)


def _full(target: str) -> str:
    return f"mafia_sheets.{target}" if target in package_modules() else target


def test_a_command_imports_at_its_top_what_help_loads_anyway():
    """A command module's import inside a function is one `--help` does not load: what it
    loads anyway is imported at the top."""
    at_help = imported(PROBE, "--help")
    cli = {key: key.split()[1] for key, why in INSIDE.items() if why == "cli"}
    assert all(key.startswith("cli/") for key in cli)
    assert sorted(key for key, target in cli.items() if _full(target) in at_help) == []


def test_the_page_server_loads_none_of_what_its_workers_do():
    """The server process reads no workbook (a crafted one can abort its reader): it loads no
    reader, writer or pandas, nor any module a job imports inside its function."""
    server = imported(SERVER)
    assert {name.split(".")[0] for name in server} & HEAVY == {"starlette", "uvicorn"}
    worker = {key: key.split()[1] for key, why in INSIDE.items() if why == "worker"}
    assert all(key.startswith("web/") for key in worker)
    assert sorted(key for key, target in worker.items() if _full(target) in server) == []


def test_a_heavy_import_loads_a_heavy_library():
    """Imported after the module it stands in, it brings a library the module lacks."""
    found = inside_functions()
    for key in (key for key, why in INSIDE.items() if why == "heavy"):
        probe = (
            f"import sys, {found[key]}\n"
            "before = set(sys.modules)\n"
            f"import {_full(key.split()[1])}\n"
            'print("MODULES", *(set(sys.modules) - before), file=sys.stderr)\n'
        )
        assert {name.split(".")[0] for name in imported(probe)} & HEAVY, key


# The modules a command has imported when it forks the child that scans its files: what the
# command needs only later is imported after, beside the scan, on the other core.
AT_THE_FORK = """
import sys
from mafia_sheets.cli import common
each = common.each
def recorded(*args):
    print("MODULES " + " ".join(sorted(sys.modules)), file=sys.__stderr__)
    return each(*args)
common.each = recorded
sys.argv = ["mafia-sheets", *sys.argv[1:]]
from mafia_sheets.cli.commands import entry
entry()
"""


@pytest.mark.parametrize("command", [["rate", "--json"], ["rate"], ["check"]])
def test_the_scan_is_forked_before_what_the_command_needs_later(tmp_path: Path, command: list[str]):
    data = io.BytesIO()
    generate(3, players=10, seed=1).to_xlsx(data)
    protocol = tmp_path / "small.xlsx"
    protocol.write_bytes(data.getvalue())
    at_fork = imported(AT_THE_FORK, command[0], str(protocol), *command[1:])
    assert "mafia_sheets.reading.safety" in at_fork  # it did fork the scan
    beside = {_full(key.split()[1]) for key, why in INSIDE.items() if why == "beside"}
    assert sorted(beside & at_fork) == []
    assert {name.split(".")[0] for name in at_fork} & HEAVY == set()
