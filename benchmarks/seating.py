"""How good and how fast `mafia-sheets seat` is on typical tournament shapes.

`python benchmarks/seating.py [--seeds 1,2,3] [--out benchmarks/seating.md]` runs the CLI
(`seat --json`) on each shape and seed, and tabulates every figure beside its lower bound
with the wall and CPU time of the whole command (interpreter start included).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

CLI = Path(sys.executable).with_name("mafia-sheets")
SHAPES = (
    ("20 players, 2 tables, 10 rounds", ["--players", "20", "--tables", "2", "--rounds", "10"]),
    ("27 players, 2 tables, 10 rounds", ["--players", "27", "--tables", "2", "--rounds", "10"]),
    (
        "27 players, 2 tables, 10 games each",
        ["--players", "27", "--tables", "2", "--games-per-player", "10"],
    ),
    ("100 players, 10 tables, 12 rounds", ["--players", "100", "--tables", "10", "--rounds", "12"]),
)
TITLE = "# Seating: figures and time"
NOTE = (
    "Pairs are judged by their spread first, then by the pairs far from the average: "
    "with the spread held, the fewest pairs that never meet. The never-met bound counts "
    "the seats beside each player (a player with g games sits beside at most 9g others); "
    "every bound is a proof that no schedule does better, not a figure known to be reached."
)
HEAD = (
    "| shape | seed | games | pairs (bound) | never met (bound) | most on one seat (bound) "
    "| seat groups spread (bound) | wall s | CPU s |\n|---|---|---|---|---|---|---|---|---|"
)


def run(args: list[str], seed: int) -> tuple[dict, float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(
        [str(CLI), "seat", *args, "--seed", str(seed), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(done.stdout)["figures"], wall, cpu


def row(name: str, seed: int, figures: dict, wall: float, cpu: float) -> str:
    games, pairs, seats = figures["games"], figures["pairs"], figures["seats"]
    groups = figures["seat_groups"].values()
    spreads = " / ".join(str(g["spread"]) for g in groups)
    bounds = " / ".join(str(g["bound"]) for g in groups)
    return (
        f"| {name} | {seed} | {games['min']}–{games['max']} "
        f"| {pairs['min']}–{pairs['max']}: {pairs['spread']} ({pairs['bound']}) "
        f"| {pairs['never_met']} ({pairs['never_met_bound']}) "
        f"| {seats['max_on_one_seat']} ({seats['bound']}) "
        f"| {spreads} ({bounds}) | {wall:.2f} | {cpu:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("seating.md"))
    options = parser.parse_args()
    lines = [HEAD]
    for name, args in SHAPES:
        for seed in (int(s) for s in options.seeds.split(",")):
            lines.append(row(name, seed, *run(args, seed)))
            print(lines[-1], flush=True)
    options.out.write_text(f"{TITLE}\n\n{NOTE}\n\n" + "\n".join(lines) + "\n", "utf-8")


if __name__ == "__main__":
    main()
