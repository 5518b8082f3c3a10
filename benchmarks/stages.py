"""Where `mafia-sheets rate` spends its time, stage by stage, in one process.

    python benchmarks/stages.py PROTOCOL.xlsx [--games N] [--no-stats] [--cpu]

Runs `rate PROTOCOL -o <temp>.xlsx` as the console script does (without the watching
parent process) with each stage's function wrapped in a wall-clock timer — no profiler, so
the figures add up to the run's own time. With `--games N` (and no protocol) a seeded
protocol of N games is generated first. A stage whose function no longer exists is said
and skipped. For a call tree, run the same under a sampling profiler:
`py-spy record -o rate.svg -- mafia-sheets rate PROTOCOL -o out.xlsx`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# wall time; `--cpu`: the main thread's CPU time, steadier on a shared machine
clock = time.perf_counter

# (module, attribute, what the stage is); report sheets are added from the writers' list
STAGES = (
    ("mafia_sheets.reading.safety", "inspect_workbook", "safety scan"),
    ("mafia_sheets.reading.protocol", "read_workbook", "reading: cells → raw columns"),
    ("mafia_sheets.reading.protocol", "parse_sheet", "parsing: raw columns → typed frames"),
    ("mafia_sheets.pipeline", "run_checks", "checks"),
    ("mafia_sheets.pipeline", "build_rating", "scoring, ranking, statistics"),
    ("mafia_sheets.rating.build", "compute_stats", "  of which the statistics"),
    ("mafia_sheets.pipeline", "run_rating_checks", "checks of the rating"),
)
times: dict[str, float] = {}


def timed(function: Callable[..., Any], label: str) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = clock()
        try:
            return function(*args, **kwargs)
        finally:
            times[label] = times.get(label, 0.0) + clock() - began

    return wrapper


def wrap(module_name: str, attribute: str, label: str) -> None:
    module = importlib.import_module(module_name)
    function = getattr(module, attribute, None)
    if function is None:
        print(f"  (no {module_name}.{attribute}: stage '{label}' not timed)", file=sys.stderr)
        return
    setattr(module, attribute, timed(function, label))


def wrap_sheets() -> None:
    """The sheets of the results workbook, each writer that runs in this process (those a
    forked child writes beside it are timed in the child, and not shown), and the store
    (what is left to zip)."""
    from mafia_sheets.report import engine, xlsx

    for group in ("SHEET_WRITERS", "STATS_WRITERS"):
        writers = getattr(xlsx, group, ())
        setattr(
            xlsx,
            group,
            tuple((timed(w, f"  sheet: {w.__name__}"), size) for w, size in writers),
        )
    if hasattr(xlsx, "write_sheets"):
        label = "sheets, on both cores (below: those written here)"
        xlsx.write_sheets = timed(xlsx.write_sheets, label)
    engine.Book.close = timed(engine.Book.close, "zip: the parts stored, what is left deflated")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("protocol", nargs="?", type=Path)
    parser.add_argument("--games", type=int, help="generate a seeded protocol of N games")
    parser.add_argument("--no-stats", action="store_true")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="the main thread's CPU time instead of wall time (rows deflated on the "
        "second thread are then left out)",
    )
    args = parser.parse_args(argv)
    if args.cpu:
        global clock
        clock = time.thread_time
    work = Path(tempfile.mkdtemp(prefix="mafia-stages-"))
    protocol = args.protocol
    if protocol is None:
        from mafia_sheets.testing.synth import generate

        protocol = work / f"protocol-{args.games or 10_000}.xlsx"
        generate(args.games or 10_000, seed=0).to_xlsx(str(protocol))
    began = clock()
    from mafia_sheets.cli.commands import main as command

    times["imports: the command line"] = clock() - began
    began = clock()
    for module in ("mafia_sheets.pipeline", "mafia_sheets.report.xlsx", "mafia_sheets.rating.rank"):
        importlib.import_module(module)
    times["imports: pandas, the pipeline, xlsxwriter"] = clock() - began
    for stage in STAGES:
        wrap(*stage)
    wrap_sheets()
    out = work / "results.xlsx"
    rate = ["rate", str(protocol), "-o", str(out), "--timeout", "0"]
    began = clock()
    with contextlib.suppress(SystemExit):
        command([*rate, *(["--no-stats"] if args.no_stats else [])], standalone_mode=False)
    run = clock() - began
    shutil.rmtree(work, ignore_errors=True)
    report(run)
    return 0


def report(run: float) -> None:
    imports = sum(v for k, v in times.items() if k.startswith("imports"))
    staged = sum(v for k, v in times.items() if not k.startswith(("imports", "  ")))
    width = max(map(len, times)) + 2
    # a stage inside another finishes first: print in the stages' own order, not the clock's
    order = [label for label in times if label.startswith("imports")]
    order += [label for _, _, label in STAGES if label in times]
    order += [label for label in times if label not in order]
    for label in order:
        print(f"{label:<{width}}{times[label]:7.2f} s")
    print(f"{'the rest (options, files, messages)':<{width}}{run - staged:7.2f} s")
    print(f"{'total (interpreter start excluded)':<{width}}{run + imports:7.2f} s")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
