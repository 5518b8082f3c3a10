"""What runs inside a worker process: the page's library calls, under hard limits.

A worker is forked from multiprocessing's fork server, which has already imported the
libraries (`WARM_MODULES`), so a new worker is ready in milliseconds. It limits its own
address space, points the temporary folder at a private one, then answers jobs from its
pipe one at a time until the pipe closes. Whatever a file does to the process — a Rust
abort in the reader, a segfault, exhausted memory — ends this worker only: the server
answers that one request and starts another worker (`workers.py`).

Replies are plain tuples (exceptions with custom constructors do not always survive
pickling): ("ok", payload) · ("refused", status, Text) · ("memory",) · ("internal",).
"""

from __future__ import annotations

import importlib
import logging
import os
import resource
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..errors import MafiaSheetsError
from ..model import Source
from ..parallel import SERIAL_ENV
from ..reading.safety import forget_scans, inspect_workbook
from ..text import Text
from .seating import seat_kinds
from .upload import UploadError

# Imported once in the fork server, so that no request waits for pandas (≈0.7 s).
WARM_MODULES = (
    "pandas",
    "python_calamine",
    "openpyxl",
    "xlsxwriter",
    "mafia_sheets.pipeline",
    "mafia_sheets.report.json",
    "mafia_sheets.report.xlsx",
    "mafia_sheets.report.annotate",
    "mafia_sheets.seating.optimise",
    "mafia_sheets.report.plan",
    "mafia_sheets.formats.mwt",
    "mafia_sheets.formats.csvtable",
    __name__,
)

log = logging.getLogger("mafia_sheets.web")

Reply = tuple[Any, ...]


@dataclass(frozen=True)
class Job:
    kind: str  # "rate" | "results" | "annotated" | "csv" | "mwt"
    sources: tuple[Source, ...]
    lang: str
    lot_seed: int | None = None
    index: int = 0  # the file to annotate
    can_annotate: bool = True
    fault: str | None = None  # tests only (workers.TEST_FAULTS): how this worker should fail
    seating: Any = None  # a seating request (web.seating.SeatJob) for the seat kinds


# ---- the library calls -------------------------------------------------------------------
# Each imports its library when called: the server imports this module for `Job` and
# `serve_jobs` and loads none of them (a crafted workbook can abort a reader); the workers
# have them warm already (`WARM_MODULES`).


def _annotator() -> Callable[..., bytes] | None:
    """The annotated-copy writer, when this installation has it."""
    try:
        from ..report.annotate import annotate_workbook
    except ImportError:
        return None
    return annotate_workbook


def _evaluate(job: Job, lot_seed: int | None, **options: Any) -> Any:
    from ..pipeline import evaluate

    return evaluate(job.sources, lot_seed=lot_seed, **options)


def _rate(job: Job) -> dict[str, Any]:
    from ..report.json import cards_json, outcome_json

    outcome = _evaluate(job, job.lot_seed)
    annotate = bool(outcome.findings) and job.can_annotate and _annotator() is not None
    body = {"result": outcome_json(outcome, job.lang), "annotate": annotate}
    if outcome.rating is not None:  # the edition and every value in force, as «Сводка» says
        body["rules"] = _rules(outcome.rating, job.lang)
    if outcome.rating is not None and outcome.rating.stats is not None:
        body["cards"] = cards_json(outcome.rating)  # each player's games, for the card
    return body


def _rules(rating: Any, lang: str) -> list[dict[str, Any]]:
    from ..report.sheets.summary import rule_lines

    lines = rule_lines(rating, lang)[1:]  # the section's own title is the page's
    return [{"item": item, "value": value, "note": note} for item, value, note in lines]


def _rating(job: Job, **options: Any) -> Any:
    """The rating of the job's files; a protocol with errors has none (422)."""
    outcome = _evaluate(job, job.lot_seed, **options)
    if outcome.rating is None:
        raise UploadError(
            422,
            Text(
                "В протоколе есть ошибки, поэтому итогов пока нет: исправьте их и загрузите снова.",
                "The protocol has errors, so there are no standings yet: "
                "fix them and upload again.",
            ),
        )
    return outcome.rating


def _results(job: Job) -> bytes:
    from ..report.xlsx import results_workbook

    return results_workbook(_rating(job), job.lang)


def _csv(job: Job) -> bytes:
    from ..formats.csvtable import standings_csv

    return standings_csv(_rating(job, stats=False), job.lang)


def _mwt(job: Job) -> bytes:
    from ..formats.mwt import upload_bytes

    return upload_bytes(_rating(job, stats=False, seats=True))[0]


def _annotated(job: Job) -> bytes:
    annotate = _annotator() if job.can_annotate else None
    if annotate is None:
        raise UploadError(
            501,
            Text(
                "Эта установка не умеет размечать протоколы.",
                "This installation cannot write annotated protocols.",
            ),
        )
    source = job.sources[job.index]
    scan = inspect_workbook(source.data, source.name, annotate=True)  # openpyxl's cost too
    outcome = _evaluate(job, None)
    return annotate(Source(source.name, scan.copy_archive()), outcome.findings, job.lang)


KINDS: dict[str, Callable[[Job], Any]] = {
    "rate": _rate,
    "results": _results,
    "annotated": _annotated,
    "csv": _csv,
    "mwt": _mwt,
}
KINDS.update(seat_kinds())


def run(job: Job, memory: int = 0) -> Reply:
    """One job's reply; never raises (a crash of the process itself is the server's to see)."""
    try:
        _simulate(job.fault, memory)
        return ("ok", KINDS[job.kind](job))
    except MemoryError:
        return ("memory",)
    except MafiaSheetsError as err:  # the library's verdict on an unusable file (§5.5)
        return ("refused", getattr(err, "status", 422), Text(err.ru, err.en))  # every line
    except Exception:
        log.exception("unexpected failure in a %s request", job.kind)
        return ("internal",)
    finally:
        forget_scans()  # nothing of a request is kept for the next one


def _simulate(fault: str | None, memory: int) -> None:
    """Tests only: fail the way a hostile file makes a worker fail. `fault` comes from the
    server's `workers.TEST_FAULTS`, which is empty outside tests and no request can fill."""
    if fault == "abort":  # what python-calamine does when a file makes it over-allocate
        os.abort()
    if fault == "memory":  # one allocation as large as the whole limit: past RLIMIT_AS
        import numpy

        numpy.empty(max(memory, 1), dtype=numpy.uint8)
    if fault == "hang":
        time.sleep(3600)
    if fault == "bug":
        raise RuntimeError("secret internals at /home/someone")


# ---- the worker process ------------------------------------------------------------------


def serve_jobs(conn: Connection, memory: int, scratch: str) -> None:
    """The worker's main loop: `memory` is its RLIMIT_AS, `scratch` its temporary folder
    (the server removes it with the worker, so even a killed worker leaves nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    for name in WARM_MODULES:  # already there under the fork server; "spawn" imports them now
        importlib.import_module(name)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    os.environ["TMPDIR"] = scratch
    os.environ["RUST_BACKTRACE"] = "0"  # a reader's abort: its one line, then the server's
    # the workers are the page's parallelism and RLIMIT_AS bounds each one: no child of its own
    os.environ[SERIAL_ENV] = "1"
    tempfile.tempdir = scratch
    while True:
        try:
            job = conn.recv()
        except MemoryError:  # the upload itself does not fit in this worker's limit
            conn.send(("memory",))
            return
        except (EOFError, OSError):  # the server closed the pipe: stop
            return
        reply = run(job, memory)
        del job
        _empty(scratch)
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory",))
            return
        if reply[0] == "memory":  # the heap may be left in pieces: let a fresh worker go on
            return


def _empty(folder: str) -> None:
    """Whatever a library left in the temporary folder goes with the request."""
    for entry in Path(folder).iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
