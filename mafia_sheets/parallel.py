"""Work beside the main line: a forked child computes one function's result on the
machine's other core while this process goes on with the next stage.

    with beside(run_checks, protocols) as checks:
        rating = build_rating(...)      # meanwhile the child checks
        findings = checks.result()

A child is forked only where that is safe and pays: the system can fork, this process runs
one thread (fork copies no other thread, so a lock another thread held would stay held in
the child), the machine has a second core, the memory still available could hold a whole
copy of this process (the child shares its pages until it touches them: a 100,000-game
season's checks copy about half), and `MAFIA_SHEETS_SERIAL` is not set. Otherwise
— and whenever the child does not deliver (it raised, was killed, ran out of memory, or its
result does not pickle) — the function runs here, in this process, when its result is
asked for. So a result never depends on the path taken, and an error is raised with its own
traceback, from this process.

The function must be pure: what the child changes in its own memory is lost with it.

`each(generator, *args)` is the same for a generator function whose items are wanted one
by one: the child sends each item as soon as it is made, and the caller takes the first
while the child makes the next. Where no child could be forked, or once the child stops
delivering, `next()` says so (None) and the caller does the rest its own way.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import IO, Generic, Self, TypeVar, cast

T = TypeVar("T")

SERIAL_ENV = "MAFIA_SHEETS_SERIAL"


def can_fork() -> bool:
    """Whether `beside` would fork here and now (see the module)."""
    return (
        hasattr(os, "fork")
        and not os.environ.get(SERIAL_ENV)
        and threading.active_count() == 1
        and (os.cpu_count() or 1) > 1
        and room_for_a_copy()
    )


def room_for_a_copy() -> bool:
    """Whether the memory available holds this process's resident size once more (Linux;
    where the system does not say, assume it does)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            available = next(
                int(line.split()[1]) * 1024 for line in meminfo if line.startswith("MemAvailable:")
            )
    except (OSError, ValueError, IndexError, StopIteration):
        return True
    return available >= resident


class _Child(ABC):
    """What `Beside` and `Each` share: the forked child (None: none was forked, or it is
    done), stopped by `cancel()` when a `with` block is left."""

    _child: int | None

    @property
    def forked(self) -> bool:
        return self._child is not None

    @abstractmethod
    def cancel(self) -> None:
        """Stop the child, if it still runs, and reap it."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.cancel()


class Beside(_Child, Generic[T]):
    """One call of `function(*args)`, computed by a forked child where it can be."""

    def __init__(self, function: Callable[..., T], *args: object) -> None:
        self._function = function
        self._args = args
        self._child: int | None = None
        self._pipe: int | None = None
        if can_fork():
            self._fork()

    def result(self) -> T:
        """The function's result: the child's, or computed here if it did not deliver."""
        delivered = self._collect()
        if delivered is None:
            return self._function(*self._args)
        return delivered[0]

    def delivered(self) -> tuple[T] | None:
        """The child's result (in a 1-tuple), or None when no child was forked or it did
        not deliver: for a caller that then does the work its own way."""
        return self._collect()

    def cancel(self) -> None:
        """Stop the child, if it still runs (its result is no longer wanted)."""
        if self._child is not None:
            _kill(self._child)
        self._collect()

    def _fork(self) -> None:
        self._child, self._pipe = _forked(_deliver, self._function, self._args)

    def _collect(self) -> tuple[T] | None:
        """The child's result (once), or None when there is no child or it gave nothing."""
        if self._child is None or self._pipe is None:
            return None
        child, pipe = self._child, self._pipe
        self._child = self._pipe = None
        try:
            with os.fdopen(pipe, "rb") as stream:
                payload = stream.read()
        except BaseException:  # interrupted while waiting (a deadline's signal): stop it
            _kill(child)
            os.waitpid(child, 0)
            raise
        _reap_later(child)
        if not payload:  # it raised, or was killed before it sent
            return None
        try:
            return (pickle.loads(payload),)
        except Exception:  # a result that does not come back whole: compute it here
            return None


# Children whose stream has ended, left to end on their own core: reaped at once, the wait
# would be for the kernel to tear down a copy of this process (10–15 ms at 10,000 games) on
# this process's way. The next fork reaps those that have ended; the others end with this
# process.
_ENDING: list[int] = []


def _reap_later(child: int) -> None:
    _ENDING.append(child)
    _reap_ended()


def _reap_ended() -> None:
    for child in list(_ENDING):
        try:
            ended, _ = os.waitpid(child, os.WNOHANG)
        except ChildProcessError:  # reaped already (by a wait for any child)
            ended = child
        if ended:
            _ENDING.remove(child)


def _forked(
    deliver: Callable[[int, int, Callable[..., object], tuple[object, ...]], None],
    function: Callable[..., object],
    args: tuple[object, ...],
) -> tuple[int, int]:
    """A child forked to `deliver(pipe, parent, function, args)`: its pid, and the end of
    the pipe its results come from."""
    _reap_ended()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which ends with os._exit
        os.close(readable)
        deliver(writable, parent, function, args)
    os.close(writable)
    return child, readable


class Each(_Child, Generic[T]):
    """The items of one call of a generator function, `function(*args)`, made by a forked
    child where it can be and sent one at a time, each as soon as it is made."""

    def __init__(self, function: Callable[..., Iterator[T]], *args: object) -> None:
        self._child: int | None = None
        self._stream: IO[bytes] | None = None
        if can_fork():
            self._child, pipe = _forked(_deliver_each, function, args)
            self._stream = os.fdopen(pipe, "rb")

    def next(self) -> tuple[T] | None:
        """The child's next item (in a 1-tuple); None when no child was forked, or once it
        has sent its last item or stopped delivering (it raised, was killed, or an item
        did not pickle): what it did not send, the caller makes its own way."""
        if self._stream is None:
            return None
        try:
            head = self._stream.read(_FRAME.size)
            payload = self._stream.read(_FRAME.unpack(head)[0]) if len(head) == _FRAME.size else b""
        except BaseException:  # interrupted while waiting (a deadline's signal): stop it
            self.cancel()
            raise
        if not payload:  # the end of its items, or a child gone mid-item
            self.cancel()
            return None
        try:
            return (pickle.loads(payload),)
        except Exception:  # an item that does not come back whole: the rest is made here
            self.cancel()
            return None

    def cancel(self) -> None:
        """Stop the child (if it still runs) and reap it: no more items are wanted. It is
        killed first: a thread of this process still waiting on its stream then sees the
        end of it, and lets the stream be closed."""
        child, stream = self._child, self._stream
        self._child = self._stream = None
        if child is not None:
            _kill(child)
        if stream is not None:
            stream.close()
        if child is not None:
            os.waitpid(child, 0)


def each(function: Callable[..., Iterator[T]], *args: object) -> Each[T]:
    """Start the generator `function(*args)` beside this process (see the module)."""
    return Each(function, *args)


# Each item the child sends: its pickle's length, then the pickle (a short frame: the child
# was stopped in the middle of sending it).
_FRAME = struct.Struct("<Q")


def _kill(child: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)


def beside(function: Callable[..., T], *args: object) -> Beside[T]:
    """Start `function(*args)` beside this process (see the module)."""
    return Beside(function, *args)


def _deliver(
    pipe: int, parent: int, function: Callable[..., object], args: tuple[object, ...]
) -> None:  # pragma: no cover - runs in the child
    """The child's whole life: compute, send the pickled result, exit without cleanup (the
    parent's buffers, exit handlers and temporary files are the parent's)."""
    code = 1
    try:
        die_with(parent, 1)
        gc.disable()  # short-lived: a collection would only copy the parent's pages
        payload = pickle.dumps(function(*args), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(pipe, "wb") as stream:
            stream.write(payload)
        code = 0
    except BaseException:  # the parent computes it again and sees the error itself
        pass
    finally:
        os._exit(code)


def _deliver_each(
    pipe: int, parent: int, function: Callable[..., object], args: tuple[object, ...]
) -> None:  # pragma: no cover - runs in the child
    """The life of a child of :class:`Each`: each item pickled as soon as it is made and
    sent by a thread of its own, so that making the next never waits for the parent to
    take the last (a pipe holds 64 KB); an error ends the items there (the parent makes
    the rest itself)."""
    code = 1
    frames: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send, args=(pipe, frames), daemon=True)
    try:
        die_with(parent, 1)
        gc.disable()  # as in `_deliver`
        sender.start()
        for item in cast(Iterator[object], function(*args)):
            payload = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
            frames.put(_FRAME.pack(len(payload)) + payload)
        code = 0
    except BaseException:  # what was made stands; the parent sees the error itself
        pass
    finally:
        frames.put(None)
        if sender.is_alive():
            sender.join()
        os._exit(code)


def _send(pipe: int, frames: queue.SimpleQueue[bytes | None]) -> None:  # pragma: no cover
    """The child's sending thread: the frames in order, until the last (None)."""
    with contextlib.suppress(OSError), os.fdopen(pipe, "wb") as stream:
        while (frame := frames.get()) is not None:
            stream.write(frame)
            stream.flush()


def die_with(parent: int, code: int) -> None:
    """This forked child stops when `parent` is killed (Linux: the kernel sends the signal;
    elsewhere a child whose parent is killed finishes its work and exits, as before).
    Exits with `code` at once when the parent is gone already."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # killed before the signal was asked for
        os._exit(code)
