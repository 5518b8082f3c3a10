"""The worker processes that do the page's work, so that no file can stop the page.

python-calamine aborts the whole process when a crafted workbook makes it over-allocate;
no Python handler can catch that. So the server never reads a workbook itself: each request
is handed, with its bytes, to one of a few pre-started workers (`jobs.py`), each with its own
pipe, memory limit and temporary folder. A worker that dies, overruns its memory or its
deadline costs exactly the request it was serving — that request gets a clear answer, the
worker is replaced, and requests on the other workers never notice.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import shutil
import threading
import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from ..scratch import private_folder, remove_stale, tidy
from ..text import Text
from .bounds import GIB, Bounds
from .jobs import WARM_MODULES, Job, Reply, serve_jobs
from .upload import UploadError

# uvicorn runs threads, and fork() after threads may hand a child a lock held forever; the
# fork server is a clean single-threaded process with the libraries already imported.
START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

# A worker that was told to stop gets this long to exit before it is killed.
STOP_GRACE_S = 5.0

# Tests only: file name → how the worker serving it should fail ("abort", "memory", "hang",
# "bug"; see jobs._simulate). Empty in use; nothing a request sends can add to it.
TEST_FAULTS: dict[str, str] = {}

log = logging.getLogger("mafia_sheets.web")


class InternalFailure(Exception):
    """A bug in our code, already logged with its traceback by the worker."""


def _died() -> UploadError:
    return UploadError(
        422,
        Text(
            "Чтение этой книги обрушило процесс, который её читал (файл повреждён или "
            "собран так, "
            "чтобы ломать программы); больше ничего не затронуто. Откройте её в Excel, "
            "сохраните заново и загрузите.",
            "Reading this workbook crashed the process that was reading it (the file is "
            "damaged or built to break readers); nothing else was affected. Open it in Excel, "
            "save it again and upload it.",
        ),
    )


def _out_of_memory(limit: int) -> UploadError:
    gb = f"{limit / GIB:.3g}"
    return UploadError(
        413,
        Text(
            f"Этой книге нужно больше {gb.replace('.', ',')} ГБ памяти — столько страница "
            "даёт "
            "одному запросу: внутри она намного больше протокола. Проверьте её командой "
            "«mafia-sheets check».",
            f"This workbook needs more than the {gb} GB of memory the page allows one "
            "request: inside it is far larger than a protocol. Check it with "
            "“mafia-sheets check”.",
        ),
    )


def _too_slow(deadline: float) -> UploadError:
    return UploadError(
        504,
        Text(
            f"Обработка этой загрузки заняла больше, чем разрешено странице ({deadline:g} "
            "с), и "
            "была остановлена. Для такого большого протокола используйте командную строку "
            "(mafia-sheets rate / check --annotate).",
            f"The work on this upload took longer than the page allows ({deadline:g} s) and "
            "was stopped. For a protocol this large use the command line "
            "(mafia-sheets rate / check --annotate).",
        ),
    )


def busy() -> UploadError:
    return UploadError(
        503,
        Text(
            "Страница занята другими загрузками: попробуйте через минуту.",
            "The page is busy with other uploads: try again in a minute.",
        ),
    )


class _Worker:
    """One worker process, its pipe and its temporary folder."""

    def __init__(self, context: Any, memory: int) -> None:
        self.scratch = private_folder("worker")  # a killed server's: the next start's
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=serve_jobs,
            args=(child, memory, self.scratch),
            name="mafia-sheets-worker",
            daemon=True,
        )
        try:
            self.process.start()
        except BaseException:
            self.conn.close()
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise
        finally:
            child.close()
        self.alive = True

    def exchange(self, job: Job, deadline: float) -> Reply:
        """Send `job`, wait for its reply; ("died",) or ("timeout",) when there is none."""
        started = time.monotonic()
        try:
            self.conn.send(job)
            if not self.conn.poll(max(0.0, deadline - (time.monotonic() - started))):
                self.stop(kill=True)
                return ("timeout",)
            reply: Reply = self.conn.recv()
        except (EOFError, OSError):
            self.stop(kill=True)
            log.warning(
                "mafia-sheets: a worker process ended (exit code %s) during a %s "
                "request; it was replaced",
                self.process.exitcode,
                job.kind,
            )
            return ("died",)
        if reply[0] == "memory":  # the worker exits after such a reply
            self.stop(kill=False)
        return reply

    def stop(self, kill: bool) -> None:
        """End the process (at once, or after it read the closed pipe) and remove its folder."""
        self.alive = False
        if kill:
            self.process.kill()
        self.conn.close()
        self.process.join(STOP_GRACE_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(STOP_GRACE_S)
        shutil.rmtree(self.scratch, ignore_errors=True)


class WorkerPool:
    """`bounds.workers` pre-started workers; a request waits up to `bounds.worker_wait` for
    a free one. Started by the app's lifespan (or by the first request), closed with it."""

    def __init__(self, bounds: Bounds) -> None:
        self.bounds = bounds
        self._context = multiprocessing.get_context(START_METHOD)
        self._idle: asyncio.Queue[_Worker] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: set[_Worker] = set()
        self._missing = 0  # workers that could not be replaced yet
        self._lock = threading.Lock()
        self._closed = False

    async def start(self) -> None:
        if self._idle is not None:
            return
        self._idle, self._loop = asyncio.Queue(), asyncio.get_running_loop()
        self._missing = self.bounds.workers
        await run_in_threadpool(remove_stale)  # the folders of a server that was killed
        await run_in_threadpool(self._refill)

    def close(self) -> None:
        """Stop every worker (busy ones are killed) and remove their folders."""
        self._closed = True
        with self._lock:
            workers, self._workers = list(self._workers), set()
        for worker in workers:
            worker.stop(kill=True)
        self._idle = None
        tidy()  # the base of the workers' folders, now empty

    async def run(self, job: Job) -> Any:
        """The payload of `job`'s reply; a refusal or a failure as `UploadError`."""
        await self.start()
        if self._missing:
            await run_in_threadpool(self._refill)
        assert self._idle is not None
        asked = time.monotonic()
        try:
            async with asyncio.timeout(self.bounds.worker_wait):
                worker = await self._idle.get()
        except TimeoutError:
            raise busy() from None
        # the wait and the work share one deadline: every answer comes within it
        left = self.bounds.answer_deadline - (time.monotonic() - asked)
        deadline = max(1.0, min(self.bounds.work_deadline, left))
        return self._answer(
            await run_in_threadpool(self._exchange, worker, job, deadline), deadline
        )

    # ---- in a thread -------------------------------------------------------------------

    def _exchange(self, worker: _Worker, job: Job, deadline: float) -> Reply:
        """Run `job` on `worker`, then hand the worker (or its replacement) back to the queue,
        from this thread, so that not even a cancelled request can lose a worker."""
        try:
            return worker.exchange(job, deadline)
        finally:
            if worker.alive:
                self._give_back(worker)
            else:
                with self._lock:
                    self._workers.discard(worker)
                    self._missing += 1
                self._refill()

    def _refill(self) -> None:
        while not self._closed:
            with self._lock:
                if self._missing <= 0:
                    return
                self._missing -= 1
            try:
                worker = _Worker(self._context, self.bounds.worker_memory)
            except OSError as exc:
                with self._lock:
                    self._missing += 1
                log.warning("mafia-sheets: cannot start a worker process (%s); will retry", exc)
                return
            with self._lock:
                self._workers.add(worker)
            self._give_back(worker)

    def _give_back(self, worker: _Worker) -> None:
        idle, loop = self._idle, self._loop
        if self._closed or idle is None or loop is None:
            worker.stop(kill=True)
            return
        loop.call_soon_threadsafe(idle.put_nowait, worker)

    def _answer(self, reply: Reply, deadline: float) -> Any:
        kind = reply[0]
        if kind == "ok":
            return reply[1]
        if kind == "refused":
            raise UploadError(reply[1], reply[2])
        if kind == "memory":
            raise _out_of_memory(self.bounds.worker_memory)
        if kind == "timeout":
            raise _too_slow(deadline)
        if kind == "died":
            raise _died()
        raise InternalFailure(kind)


def preload() -> None:
    """Have the fork server import the libraries before it forks the first worker."""
    if START_METHOD == "forkserver":
        multiprocessing.get_context(START_METHOD).set_forkserver_preload(list(WARM_MODULES))


preload()
