"""Time `mafia-sheets rate` against the floor of the same work and a naive pandas peer.

    python benchmarks/run.py [--sizes 30,1000,10000,100000] [--repeat 3]
                             [--out benchmarks/results.md] [--workdir DIR]

Every measured command runs in a fresh subprocess; wall time and peak RSS come from
`os.wait4`. Medians of `--repeat` runs are printed and written as a markdown table.
What the columns mean and why the floor is defined as it is: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import pickle
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
READERS = ("calamine", "fastexcel")
Cells = list[tuple[str, list[list[Any]]]]
# A worksheet split for the raw floor: the XML before its rows, each row (its attributes and
# its cells as reference, attributes, content — None for an empty `<c …/>`; cells None for
# an empty `<row …/>`), the XML after them.
RawSheet = tuple[str, list[tuple[str, list[tuple[str, str, str | None]] | None]], str]
RawParts = list[tuple[str, int, bytes | RawSheet]]  # part name, its CRC, its content
ROW = re.compile(r"<row ([^>]*?)(?:/>|>(.*?)</row>)", re.S)
CELL = re.compile(r'<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)', re.S)


# ---- the floor, run as a child process: `run.py _read …` and `run.py _floor …` -------------


def read_all(reader: str, path: str) -> int:
    """Read every sheet into memory with `reader`; returns the number of cells."""
    if reader == "fastexcel":
        import fastexcel

        book = fastexcel.read_excel(path)
        batches = [book.load_sheet_by_name(name).to_arrow() for name in book.sheet_names]
        return sum(batch.num_rows * batch.num_columns for batch in batches)
    from python_calamine import load_workbook

    book = load_workbook(path)
    sheets = [book.get_sheet_by_name(name).to_python() for name in book.sheet_names]
    return sum(len(row) for rows in sheets for row in rows)


def write_cells(cells: Cells, out: str) -> None:
    """The same cells as rate's results workbook: plain write_row, no formats, no charts."""
    import xlsxwriter

    with xlsxwriter.Workbook(out) as book:
        for name, rows in cells:
            sheet = book.add_worksheet(name)
            for number, row in enumerate(rows):
                sheet.write_row(number, 0, row)


def write_raw(parts: RawParts, out: str) -> None:
    """Rate's own parts, each worksheet's XML written again cell by cell — one string
    format a cell, joined row by row — and deflated at rate's level; checked byte for byte
    (by CRC) against rate's output."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as book:
        for name, crc, content in parts:
            if isinstance(content, bytes):
                book.writestr(name, content)
            else:
                with book.open(name, "w") as handle:
                    _write_raw_sheet(handle, content)
            if crc != book.getinfo(name).CRC:
                raise SystemExit(f"raw floor: {name} is not the XML rate wrote")


def _write_raw_sheet(handle: Any, sheet: RawSheet) -> None:
    head, rows, tail = sheet
    handle.write(head.encode())
    for start in range(0, len(rows), 5_000):
        chunk = [
            f"<row {attrs}/>"
            if cells is None
            else f"<row {attrs}>"
            + "".join(
                [
                    f'<c r="{ref}"{more}/>' if inner is None else f'<c r="{ref}"{more}>{inner}</c>'
                    for ref, more, inner in cells
                ]
            )
            + "</row>"
            for attrs, cells in rows[start : start + 5_000]
        ]
        handle.write("".join(chunk).encode())
    handle.write(tail.encode())


def child(argv: list[str]) -> None:
    """`_read READER PROTOCOL`, `_floor READER PROTOCOL CELLS|- OUT` or
    `_raw READER PROTOCOL PARTS OUT`: prints timings."""
    mode, reader, protocol, *rest = argv
    times: dict[str, float] = {}
    start = time.perf_counter()
    loaded: Any = None
    if mode in ("_floor", "_raw") and rest[0] != "-":
        with open(rest[0], "rb") as handle:
            loaded = pickle.load(handle)
        # Millions of ready-made objects a real writer would never hold: out of the
        # collector's sight, or every collection of the reader's lists walks them all.
        gc.freeze()
    times["unpickle"] = time.perf_counter() - start
    read_all(reader, protocol)
    times["read"] = time.perf_counter() - start - times["unpickle"]
    if loaded is not None:
        (write_raw if mode == "_raw" else write_cells)(loaded, rest[1])
    times["write"] = time.perf_counter() - start - times["unpickle"] - times["read"]
    print(json.dumps(times), flush=True)
    # Freeing the unpickled output at exit is no part of the floor either (it costs as
    # much as a third of it at 10,000 games): the process ends here, its output written.
    os._exit(0)


# ---- measuring -------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    wall: float
    peak_mb: float
    code: int
    stdout: str
    stderr: str

    def why(self) -> str:
        """The last line of stderr: what a failed command said."""
        lines = [line for line in self.stderr.splitlines() if line.strip()]
        return f"exit {self.code}: {lines[-1].strip() if lines else 'no message'}"


def measure(command: list[str], logs: Path) -> Run:
    """Run `command` to completion; wall time and the child's own peak RSS (wait4)."""
    out_path, err_path = logs.with_suffix(".out"), logs.with_suffix(".err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return Run(
        wall,
        usage.ru_maxrss / 1024,
        process.returncode,
        out_path.read_text("utf-8", "replace"),
        err_path.read_text("utf-8", "replace"),
    )


@dataclass
class SizeResult:
    games: int
    reader: str = ""
    reader_times: dict[str, float] = field(default_factory=dict)
    rate: list[Run] = field(default_factory=list)
    lean: list[Run] = field(default_factory=list)  # rate --no-stats
    floor: list[tuple[Run, dict[str, float]]] = field(default_factory=list)
    raw: list[tuple[Run, dict[str, float]]] = field(default_factory=list)  # the raw floor
    # each rate run over the raw floor run right after it: one ratio per pair
    paired: list[float] = field(default_factory=list)
    peer: list[Run] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    floor_read_only: bool = False


def note(result: SizeResult, text: str) -> None:
    """Say it now and keep it for the report."""
    print(f"  {text}", flush=True)
    result.notes.append(text)


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def compile_package() -> None:
    """The package's bytecode written before anything is timed, as pip writes it when it
    installs: an editable install run with PYTHONDONTWRITEBYTECODE set would otherwise
    compile every module from source in every measured run (a quarter of a second at
    2,000 games), a cost no installed copy pays."""
    import mafia_sheets

    compileall.compile_dir(Path(mafia_sheets.__file__).parent, quiet=1)


def rate_command() -> list[str] | None:
    """The installed `mafia-sheets` next to this interpreter (or on PATH)."""
    found = shutil.which("mafia-sheets", path=str(Path(sys.executable).parent))
    found = found or shutil.which("mafia-sheets")
    return [found] if found else None


def ensure_protocol(games: int, seed: int, work: Path) -> Path:
    """The seeded workbook of `games` games, generated once per work dir."""
    path = work / f"protocol-{games}-seed{seed}.xlsx"
    if not path.exists():
        from mafia_sheets.testing.synth import generate

        start = time.perf_counter()
        protocol = generate(games, seed=seed)
        made = time.perf_counter()
        protocol.to_xlsx(str(path))
        print(
            f"  generated {games:,} games in {made - start:.2f} s, "
            f"wrote the workbook in {time.perf_counter() - made:.1f} s",
            flush=True,
        )
    return path


def pick_reader(protocol: Path, work: Path, result: SizeResult) -> None:
    """Time each reader once on this workbook; the floor uses the faster one."""
    for reader in READERS:
        run = measure(
            [sys.executable, __file__, "_read", reader, str(protocol)],
            work / f"read-{reader}-{result.games}",
        )
        if run.code == 0:
            result.reader_times[reader] = run.wall
        else:
            note(result, f"reader {reader} failed ({run.why()})")
    result.reader = min(result.reader_times, key=result.reader_times.__getitem__)


def dump_cells(results: Path, target: Path) -> Path:
    """Rate's output cells (blank cells dropped), pickled for the floor to write back."""
    from python_calamine import load_workbook

    book = load_workbook(str(results))
    cells: Cells = []
    for name in book.sheet_names:
        rows = book.get_sheet_by_name(name).to_python()
        cleaned = [[None if value == "" else value for value in row] for row in rows]
        for row in cleaned:
            while row and row[-1] is None:
                row.pop()
        cells.append((name, cleaned))
    with open(target, "wb") as handle:
        pickle.dump(cells, handle, protocol=pickle.HIGHEST_PROTOCOL)
    return target


def split_apart(results: Path, target: Path) -> Path:
    """:func:`dump_raw` in a process of its own: the harness stays small, so the peak
    memory of the commands it starts is theirs alone."""
    done = subprocess.run([sys.executable, __file__, "_split", str(results), str(target)])
    if done.returncode != 0:
        raise SystemExit("could not split rate's output for the raw floor")
    return target


def dump_raw(results: Path, target: Path) -> Path:
    """Rate's output split for the raw floor (see RawSheet), pickled."""
    parts: RawParts = []
    with zipfile.ZipFile(results) as book:
        for info in book.infolist():
            data = book.read(info)
            if info.filename.startswith("xl/worksheets/sheet"):
                parts.append((info.filename, info.CRC, split_sheet(data.decode())))
            else:
                parts.append((info.filename, info.CRC, data))
    with open(target, "wb") as handle:
        pickle.dump(parts, handle, protocol=pickle.HIGHEST_PROTOCOL)
    return target


def split_sheet(xml: str) -> RawSheet:
    start = xml.index("<sheetData>") + len("<sheetData>") if "<sheetData>" in xml else 0
    end = xml.index("</sheetData>") if start else 0
    if not start:  # an empty sheet: `<sheetData/>`
        return xml, [], ""
    rows: list[tuple[str, list[tuple[str, str, str | None]] | None]] = []
    for row in ROW.finditer(xml, start, end):
        body = row.group(2)
        rows.append((row.group(1), None if body is None else CELL.findall(body) or []))
    rows = [(attrs, None if cells is None else [(r, m, i or None) for r, m, i in cells])
            for attrs, cells in rows]  # fmt: skip
    return xml[:start], rows, xml[end:]


def bench_raw(result: SizeResult, raw: Path, protocol: Path, work: Path, paired: Run) -> None:
    """One run of the raw floor: read the protocol, write rate's sheet XML, deflate it —
    made right after the rate run `paired`, whose ratio to it is kept."""
    games = result.games
    command = [sys.executable, __file__, "_raw", result.reader, str(protocol), str(raw)]
    run = measure([*command, str(work / f"raw-{games}.xlsx")], work / f"{games}-raw")
    if run.code != 0:
        note(result, f"raw floor failed ({run.why()})")
        return
    parts = json.loads(run.stdout.strip().splitlines()[-1])
    result.raw.append((run, parts))
    result.paired.append(paired.wall / (run.wall - parts["unpickle"]))
    print(f"  raw floor: {run.wall - parts['unpickle']:.2f} s", flush=True)


def bench_size(games: int, args: argparse.Namespace, work: Path) -> SizeResult:
    result = SizeResult(games)
    print(f"{games:,} games", flush=True)
    protocol = ensure_protocol(games, args.seed, work)
    pick_reader(protocol, work, result)
    tag = work / f"{games}"
    command = rate_command()
    cells: Path | None = None
    raw: Path | None = None
    for attempt in range(args.repeat):
        if command is None:
            note(result, "rate: not available (no mafia-sheets command installed)")
            break
        # with and without statistics in turn, so both see the same machine load
        lean_out = work / f"rate-lean-{games}.xlsx"
        lean = measure(
            [*command, "rate", str(protocol), "-o", str(lean_out), "--no-stats"],
            Path(f"{tag}-lean"),
        )
        if lean.code == 0:
            result.lean.append(lean)
        output = work / f"rate-{games}.xlsx"
        output.unlink(missing_ok=True)
        run = measure([*command, "rate", str(protocol), "-o", str(output)], Path(f"{tag}-rate"))
        if run.code != 0 or not output.exists():
            note(result, f"rate: not available ({run.why()})")
            break
        result.rate.append(run)
        print(
            f"  rate  {attempt + 1}/{args.repeat}: {run.wall:.2f} s (--no-stats {lean.wall:.2f} s)",
            flush=True,
        )
        cells = cells or dump_cells(output, work / f"cells-{games}.pkl")
        raw = raw or split_apart(output, work / f"raw-{games}.pkl")
        if raw is not None:  # right after this rate run: the pair sees the same load
            bench_raw(result, raw, protocol, work, paired=run)
    result.floor_read_only = cells is None
    for attempt in range(args.repeat):
        run = measure(
            [
                sys.executable,
                __file__,
                "_floor",
                result.reader,
                str(protocol),
                str(cells or "-"),
                str(work / f"floor-{games}.xlsx"),
            ],
            Path(f"{tag}-floor"),
        )
        if run.code != 0:
            note(result, f"floor failed ({run.why()})")
            break
        parts = json.loads(run.stdout.strip().splitlines()[-1])
        result.floor.append((run, parts))
        print(
            f"  floor {attempt + 1}/{args.repeat}: {run.wall - parts['unpickle']:.2f} s", flush=True
        )
    for attempt in range(args.repeat if games <= args.peer_max else 0):
        run = measure(
            [
                sys.executable,
                str(HERE / "peer.py"),
                str(protocol),
                str(work / f"peer-{games}.xlsx"),
            ],
            Path(f"{tag}-peer"),
        )
        if run.code != 0:
            note(result, f"peer failed ({run.why()})")
            break
        result.peer.append(run)
        print(f"  peer  {attempt + 1}/{args.repeat}: {run.wall:.2f} s", flush=True)
    return result


# ---- reporting -------------------------------------------------------------------------


def summary_row(r: SizeResult) -> dict[str, float | None]:
    floor_walls = [run.wall - parts["unpickle"] for run, parts in r.floor]
    raw_walls = [run.wall - parts["unpickle"] for run, parts in r.raw]
    return {
        "raw": median(raw_walls),
        "paired": median(r.paired),
        "raw_write": median([parts["write"] for _, parts in r.raw]),
        "rate": median([run.wall for run in r.rate]),
        "lean": median([run.wall for run in r.lean]),
        "lean_mb": median([run.peak_mb for run in r.lean]),
        "floor": median(floor_walls),
        "peer": median([run.wall for run in r.peer]),
        "rate_mb": median([run.peak_mb for run in r.rate]),
        "floor_mb": median([run.peak_mb for run, _ in r.floor]),
        "peer_mb": median([run.peak_mb for run in r.peer]),
        "read": median([parts["read"] for _, parts in r.floor]),
        "write": median([parts["write"] for _, parts in r.floor]),
        "unpickle": median([parts["unpickle"] for _, parts in r.floor]),
    }


def fmt(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def ratio(top: float | None, bottom: float | None) -> str:
    return "—" if top is None or bottom is None or bottom == 0 else f"{top / bottom:.2f}×"


def times(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}×"


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def versions() -> str:
    names = ("pandas", "openpyxl", "xlsxwriter", "python-calamine", "fastexcel", "numpy")
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(found)


def writer_path() -> str:
    """Which path the results writer takes with the installed xlsxwriter (said in the
    report, because the slow path would change every figure)."""
    from mafia_sheets.report import engine

    with engine.open_book(streamed=True) as book:
        fast = engine.internals_available(book.sheet("probe").ws)
    return "whole rows as XML (engine.Rows)" if fast else "cell by cell (the public API)"


def report(results: list[SizeResult], args: argparse.Namespace) -> str:
    lines = [
        "# Benchmark results",
        "",
        f"- date: {datetime.now():%Y-%m-%d %H:%M}",
        f"- machine: {machine()}",
        f"- libraries: {versions()}",
        f"- results writer: {writer_path()}",
        f"- each command run {args.repeat}× per size, each in a fresh process; medians; "
        f"generator seed {args.seed}",
        "- rate/raw floor: each rate run followed at once by a raw floor run, the median of "
        "the pairs' ratios",
        "- bytecode: the package's compiled before the runs, as an installed copy has it",
        "",
        "| games | seat rows | rate s | --no-stats s | stats cost | floor s | raw floor s "
        "| peer s | rate/floor | rate/raw floor | peer/rate | rate MB | --no-stats MB "
        "| floor MB | peer MB |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = {r.games: summary_row(r) for r in results}
    for r in results:
        s = rows[r.games]
        floor = fmt(s["floor"]) + (" (read only)" if r.floor_read_only else "")
        lines.append(
            f"| {r.games:,} | {r.games * 10:,} | {fmt(s['rate'])} | {fmt(s['lean'])} "
            f"| {ratio(s['rate'], s['lean'])} | {floor} | {fmt(s['raw'])} | {fmt(s['peer'])} "
            f"| {ratio(s['rate'], s['floor'])} | {times(s['paired'])} "
            f"| {ratio(s['peer'], s['rate'])} "
            f"| {fmt(s['rate_mb'], 0)} | {fmt(s['lean_mb'], 0)} | {fmt(s['floor_mb'], 0)} "
            f"| {fmt(s['peer_mb'], 0)} |"
        )
    lines += [
        "",
        "Floor parts (medians; unpickling rate's cells is excluded from the floor):",
        "",
        "| games | reader | read s | write s | raw write s | unpickle s | calamine s "
        "| fastexcel s |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        s = rows[r.games]
        lines.append(
            f"| {r.games:,} | {r.reader} | {fmt(s['read'])} | {fmt(s['write'])} "
            f"| {fmt(s['raw_write'])} | {fmt(s['unpickle'])} "
            f"| {fmt(r.reader_times.get('calamine'))} "
            f"| {fmt(r.reader_times.get('fastexcel'))} |"
        )
    notes = [f"- {r.games:,} games — {note}" for r in results for note in dict.fromkeys(r.notes)]
    if notes:
        lines += ["", "Notes:", "", *notes]
    return "\n".join(lines) + "\n"


# ---- layouts: the same games as rows, one sheet per game, one row per game ----------------

LAYOUT_TARGET = 2.0  # issue 12: the blank is read within twice the time of the rows


def bench_layouts(games: int, repeat: int) -> list[str]:
    """Median time of reading the same `games` in each layout, in this process.

    Each side is the same stage, bytes → typed protocol: `load_protocol` (the safety
    scan, the reader, parse, settings) on a workbook held in memory, nothing written.
    The layouts are read in turn in each round, so a noisy neighbour slows all of them
    alike; the blank and the wide are held to LAYOUT_TARGET × the row layout.
    """
    import io

    from python_calamine import CalamineWorkbook

    from mafia_sheets.model import Source
    from mafia_sheets.reading.protocol import load_protocol
    from mafia_sheets.template.layouts import games_of, write_games
    from mafia_sheets.testing.synth import generate

    buffer = io.BytesIO()
    generate(games, seed=0).to_xlsx(buffer)
    rows = Source("rows.xlsx", buffer.getvalue())
    protocol, _ = load_protocol(rows)
    sources = {"rows": rows}
    for layout in ("blank", "wide"):
        sources[layout] = Source(
            f"{layout}.xlsx", write_games(layout, games_of(protocol), "ru", protocol=protocol)
        )
    for source in sources.values():
        load_protocol(source)  # warm: imports and caches belong to no layout
    rounds = max(repeat, 3) * 3
    runs: dict[str, list[float]] = {layout: [] for layout in sources}
    for _ in range(rounds):
        for layout, source in sources.items():
            start = time.perf_counter()
            load_protocol(source)
            runs[layout].append(time.perf_counter() - start)
    times = {layout: statistics.median(values) for layout, values in runs.items()}
    lines = [
        "",
        f"Reading {games} games in each layout (load_protocol: bytes → typed protocol, "
        f"the safety scan included on every side; median of {rounds} rounds in one "
        f"process, the layouts in turn; the target is at most {LAYOUT_TARGET:g}× rows):",
        "",
        f"| layout | sheets | workbook KB | read s | × rows | within {LAYOUT_TARGET:g}× |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for layout, seconds in times.items():
        sheets = len(CalamineWorkbook.from_filelike(io.BytesIO(sources[layout].data)).sheet_names)
        ratio = seconds / times["rows"]
        verdict = "—" if layout == "rows" else "yes" if ratio <= LAYOUT_TARGET else "no"
        lines.append(
            f"| {layout} | {sheets} | {len(sources[layout].data) / 1024:,.0f} "
            f"| {seconds:.3f} | {ratio:.2f} | {verdict} |"
        )
    return lines


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="30,1000,10000,100000", help="games per workbook, comma-separated"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per command and size")
    parser.add_argument(
        "--out", type=Path, default=HERE / "results.md", help="markdown file for the results table"
    )
    parser.add_argument("--seed", type=int, default=0, help="generator seed")
    parser.add_argument(
        "--workdir", type=Path, help="keep workbooks here and reuse them (default: a temp dir)"
    )
    parser.add_argument(
        "--peer-max",
        type=int,
        default=10**9,
        help="skip the peer above this many games (it is slow)",
    )
    parser.add_argument(
        "--layout-games",
        type=int,
        default=200,
        help="games read in each layout (0: skip that table)",
    )
    args = parser.parse_args(argv)
    args.sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    return args


def main(argv: list[str]) -> int:
    if argv and argv[0] == "_split":
        dump_raw(Path(argv[1]), Path(argv[2]))
        return 0
    if argv and argv[0] in ("_read", "_floor", "_raw"):
        child(argv)
        return 0
    args = parse_args(argv)
    compile_package()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mafia-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        results = [bench_size(games, args, work) for games in args.sizes]
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    text = report(results, args)
    if args.layout_games:
        text += "\n".join(bench_layouts(args.layout_games, args.repeat)) + "\n"
    print()
    print(text)
    args.out.write_text(text, "utf-8")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
