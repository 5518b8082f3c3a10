"""Run the attacker's corpus through the real command line, timed and measured.

    python benchmarks/hostile.py [--shapes a,b,…] [--commands check,annotate,rate]
                                 [--out benchmarks/hostile.md]

Every shape of `mafia_sheets.testing.hostile` is written to a temporary folder and given
to `check`, `check --annotate` and `rate`, each in a fresh process with its own `TMPDIR`;
wall time and peak memory come from `os.wait4`. A run passes when it exits 0, 1 or 2 (never
an abort: 134 is python-calamine's), says no traceback, answers within 60 s and 3 GB,
leaves the input as it was and leaves nothing in its `TMPDIR` (not even an empty folder);
a refusal is one line. The table is written to `benchmarks/hostile.md`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mafia_sheets.testing.hostile import SHAPES  # noqa: E402

COMMANDS = {
    "check": lambda path, out: ["check", path, "--lang", "en"],
    "annotate": lambda path, out: ["check", path, "--annotate", out, "--lang", "en"],
    "rate": lambda path, out: ["rate", path, "-o", out, "--lang", "en"],
}
LIMIT_S, LIMIT_MB = 60.0, 3 * 1024


TIME = Path("/usr/bin/time")  # GNU time: measures the command alone, not this process


def run(args: list[str], cwd: Path, scratch: Path) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak MB, stderr) of one command in a fresh interpreter.

    Measured by /usr/bin/time when there is one: a child forked from this process (which
    holds the corpus in memory) would count this process's pages as its own."""
    env = {**os.environ, "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "mafia_sheets", *args]
    with tempfile.NamedTemporaryFile("r") as measured, tempfile.TemporaryFile() as err:
        if TIME.exists():
            command = [str(TIME), "-q", "-f", "%e %M", "-o", measured.name, *command]
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds, kb = time.monotonic() - started, float(usage.ru_maxrss)
        if TIME.exists():
            fields = measured.read().split()
            seconds, kb = (
                (float(fields[-2]), float(fields[-1])) if len(fields) >= 2 else (seconds, kb)
            )
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return os.waitstatus_to_exitcode(status), seconds, kb / 1024, stderr


def judge(code: int, seconds: float, mb: float, stderr: str, intact: bool, clean: bool) -> str:
    problems = []
    if code not in (0, 1, 2):
        problems.append(f"exit {code}")
    if "Traceback" in stderr or "panicked" in stderr:
        problems.append("traceback")
    if code == 2 and len(stderr.strip().splitlines()) != 1:
        problems.append("not one line")
    if seconds > LIMIT_S:
        problems.append("slow")
    if mb > LIMIT_MB:
        problems.append("memory")
    if not intact:
        problems.append("input changed")
    if not clean:
        problems.append("left files behind")
    return ", ".join(problems) or "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--out", type=Path, default=HERE / "hostile.md")
    options = parser.parse_args()
    rows = [
        "| shape | family | command | exit | s | peak MB | verdict | answer |",
        "|---|---|---|---:|---:|---:|---|---|",
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name in options.shapes.split(","):
            shape = SHAPES[name]
            path = work / f"{name}{shape.suffix}"
            path.write_bytes(shape.build(1))
            before = path.read_bytes()
            for command in options.commands.split(","):
                scratch = work / f"tmp-{name}-{command}"
                scratch.mkdir()
                out = work / f"{name}-{command}-out.xlsx"
                code, seconds, mb, stderr = run(
                    COMMANDS[command](path.name, out.name), work, scratch
                )
                clean = not any(scratch.iterdir())  # not even an empty folder
                verdict = judge(code, seconds, mb, stderr, path.read_bytes() == before, clean)
                failed += verdict != "ok"
                answer = (stderr.strip().splitlines() or [""])[-1][:90].replace("|", "\\|")
                cells = [name, shape.family, command, code, f"{seconds:.2f}", f"{mb:.0f}"]
                rows.append("| " + " | ".join(map(str, [*cells, verdict, answer])) + " |")
                print(rows[-1], flush=True)
                shutil.rmtree(scratch, ignore_errors=True)
                out.unlink(missing_ok=True)
            path.unlink()
    options.out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{failed} failed", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
