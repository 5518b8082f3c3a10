"""`parallel.beside`: a forked child computes a pure function's result, and every way the
child can fail ends with the same result computed in the process itself."""

from __future__ import annotations

import io
import os
import signal
import threading
import time
from collections.abc import Iterator
from fractions import Fraction

import pytest
from forking import dies_in_a_child, needs_fork

from mafia_sheets import parallel
from mafia_sheets.parallel import beside, can_fork, each


def _pid_and_total(values: list[Fraction]) -> tuple[int, Fraction]:
    return os.getpid(), sum(values, Fraction(0))


def _fails(message: str) -> None:
    raise ValueError(message)


def _unpicklable() -> object:
    return lambda: None


def _seven() -> int:
    return 7


def _sleep_long() -> int:
    time.sleep(60)
    return 1


VALUES = [Fraction(1, n) for n in range(1, 50)]


@needs_fork
def test_the_child_computes_the_result_on_its_own_process() -> None:
    with beside(_pid_and_total, VALUES) as work:
        assert work.forked
        pid, total = work.result()
    assert pid != os.getpid()
    assert total == sum(VALUES, Fraction(0))


@needs_fork
def test_a_result_is_delivered_once_then_computed_here() -> None:
    work = beside(_pid_and_total, VALUES)
    first, _ = work.result()
    again, total = work.result()
    assert first != os.getpid() and again == os.getpid()
    assert total == sum(VALUES, Fraction(0))


def test_serial_env_computes_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.SERIAL_ENV, "1")
    assert not can_fork()
    with beside(_pid_and_total, VALUES) as work:
        assert not work.forked
        assert work.result() == (os.getpid(), sum(VALUES, Fraction(0)))


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
        with beside(_pid_and_total, VALUES) as work:
            assert not work.forked
            assert work.result()[0] == os.getpid()
    finally:
        stop.set()
        other.join()


def test_no_fork_without_room_for_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parallel.room_for_a_copy()  # this test process is small beside any machine's memory
    monkeypatch.setattr(parallel, "room_for_a_copy", lambda: False)
    assert not can_fork()
    with beside(_pid_and_total, VALUES) as work:
        assert not work.forked
        assert work.result() == (os.getpid(), sum(VALUES, Fraction(0)))


def test_room_for_a_copy_reads_the_systems_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"/proc/self/statm": "900 500 100 1 0 300 0\n"}
    page = os.sysconf("SC_PAGE_SIZE")

    def fake_open(path: str, *args: object, **kwargs: object) -> io.StringIO:
        if path not in files:
            raise FileNotFoundError(path)
        return io.StringIO(files[path])

    monkeypatch.setattr("builtins.open", fake_open)
    assert parallel.room_for_a_copy()  # no /proc/meminfo: the system does not say
    files["/proc/meminfo"] = f"MemTotal: 1 kB\nMemAvailable: {500 * page // 1024 - 1} kB\n"
    assert not parallel.room_for_a_copy()
    files["/proc/meminfo"] = f"MemAvailable: {500 * page // 1024} kB\n"
    assert parallel.room_for_a_copy()


@needs_fork
def test_an_error_is_raised_here_with_its_own_traceback() -> None:
    with beside(_fails, "bad cell") as work:
        assert work.forked
        with pytest.raises(ValueError, match="bad cell") as raised:
            work.result()
    assert raised.traceback[-1].name == "_fails"


@needs_fork
def test_a_result_that_does_not_pickle_is_computed_here() -> None:
    with beside(_unpicklable) as work:
        assert work.forked
        assert callable(work.result())


@needs_fork
def test_a_child_killed_mid_work_costs_only_time() -> None:
    with beside(dies_in_a_child(_seven)) as work:
        assert work.forked
        assert work.result() == 7


@needs_fork
def test_leaving_the_block_stops_the_child() -> None:
    with beside(_sleep_long) as work:
        child = work._child
        assert child is not None
    # killed on leaving: reaped then, or (a busy machine tears it down later) by the next
    # fork — either way it ended by SIGKILL, not by sleeping its minute out
    try:
        _, status = os.waitpid(child, 0)
    except ChildProcessError:  # reaped already
        return
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    parallel._reap_ended()  # the stale entry is let go
    assert child not in parallel._ENDING


@needs_fork
def test_a_child_that_delivered_is_reaped_by_the_next_fork() -> None:
    """Its result is taken without waiting for it to end; the next fork reaps it."""
    with beside(_pid_and_total, VALUES) as work:
        first = work._child
        pid, _ = work.result()
    assert first is not None and pid == first
    deadline = time.monotonic() + 10
    while first in parallel._ENDING and time.monotonic() < deadline:
        with beside(_pid_and_total, VALUES) as again:
            again.result()
        time.sleep(0.01)
    assert first not in parallel._ENDING
    with pytest.raises(ChildProcessError):
        os.waitpid(first, os.WNOHANG)  # no zombie left behind


@needs_fork
def test_the_child_leaves_the_parents_output_alone(capfd: pytest.CaptureFixture[str]) -> None:
    print("before", end="")  # buffered in this process, flushed before the fork
    with beside(_pid_and_total, VALUES) as work:
        work.result()
    assert capfd.readouterr().out == "before"


@needs_fork
def test_a_wait_interrupted_by_a_signal_stops_the_child() -> None:
    """A deadline's timer raises in this process while it waits: the child goes too."""

    def passed(*_: object) -> None:
        raise TimeoutError("deadline")

    previous = signal.signal(signal.SIGALRM, passed)
    try:
        with beside(_sleep_long) as work:
            child = work._child
            assert child is not None
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            with pytest.raises(TimeoutError):
                work.result()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # killed and reaped, not left to sleep


def test_delivered_is_the_childs_result_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    if can_fork():
        with beside(_pid_and_total, VALUES) as work:
            delivered = work.delivered()
        assert delivered is not None and delivered[0][0] != os.getpid()
    monkeypatch.setenv(parallel.SERIAL_ENV, "1")
    with beside(_pid_and_total, VALUES) as work:
        assert work.delivered() is None  # nothing computed: the caller does it its own way


# ---- `each`: a generator's items, sent one by one ------------------------------------------


def _pids_then(values: list[Fraction]) -> Iterator[tuple[int, Fraction]]:
    for value in values:
        yield os.getpid(), value


def _one_then_fails() -> Iterator[int]:
    yield 1
    raise ValueError("the second item")


def _one_then_unpicklable() -> Iterator[object]:
    yield 1
    yield lambda: None
    yield 3


def _big_then_waits(size: int) -> Iterator[bytes | float]:
    """An item larger than a pipe holds, then one made while the first is not taken yet."""
    yield b"x" * size
    yield time.monotonic()


def _sleeps_long() -> Iterator[int]:
    time.sleep(60)
    yield 1


@needs_fork
def test_each_item_comes_from_the_child_in_order() -> None:
    with each(_pids_then, VALUES[:5]) as items:
        assert items.forked
        got = [items.next() for _ in range(6)]
    assert [item[0][1] for item in got[:5] if item is not None] == VALUES[:5]
    assert {item[0][0] for item in got[:5] if item is not None} != {os.getpid()}
    assert got[5] is None  # the last is sent: nothing more


@needs_fork
def test_the_child_goes_on_while_an_item_waits_to_be_taken() -> None:
    """An item waits in the child's sender: making the next does not wait for this process
    to take the first, however large (a pipe holds 64 KB)."""
    with each(_big_then_waits, 4 * 1024**2) as items:
        time.sleep(0.5)
        taken = time.monotonic()
        first, second = items.next(), items.next()
    assert first is not None and len(first[0]) == 4 * 1024**2  # type: ignore[arg-type]
    assert second is not None and second[0] < taken  # type: ignore[operator]


@needs_fork
def test_what_was_sent_before_an_error_stands() -> None:
    with each(_one_then_fails) as items:
        assert items.next() == (1,)
        assert items.next() is None  # the caller makes the rest its own way
        assert items.next() is None


@needs_fork
def test_an_item_that_does_not_pickle_ends_the_items() -> None:
    with each(_one_then_unpicklable) as items:
        assert items.next() == (1,)
        assert items.next() is None


@needs_fork
def test_a_child_killed_mid_items_gives_none() -> None:
    with each(dies_in_a_child(_pids_then), VALUES) as items:
        assert items.forked
        assert items.next() is None


def test_each_without_a_child_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.SERIAL_ENV, "1")
    with each(_pids_then, VALUES) as items:
        assert not items.forked
        assert items.next() is None  # nothing made here: the caller does it its own way


@needs_fork
def test_cancel_stops_the_child_and_reaps_it() -> None:
    items = each(_sleeps_long)
    child = items._child
    assert child is not None
    items.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)
    assert items.next() is None


@needs_fork
def test_a_wait_for_an_item_interrupted_by_a_signal_stops_the_child() -> None:
    def passed(*_: object) -> None:
        raise TimeoutError("deadline")

    previous = signal.signal(signal.SIGALRM, passed)
    try:
        with each(_sleeps_long) as items:
            child = items._child
            assert child is not None
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            with pytest.raises(TimeoutError):
                items.next()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)


@needs_fork
def test_cancel_frees_a_thread_waiting_for_an_item() -> None:
    """The child is killed before its stream is closed: a thread of this process blocked
    on the stream sees its end (and lets it close) instead of holding the close up until
    the child would have sent."""
    items = each(_sleeps_long)
    waited: list[object] = []
    waiting = threading.Thread(target=lambda: waited.append(items.next()), daemon=True)
    waiting.start()
    time.sleep(0.2)  # the thread is in its read by now
    began = time.monotonic()
    items.cancel()
    waiting.join(timeout=30)
    assert not waiting.is_alive() and waited == [None]
    assert time.monotonic() - began < 30  # not the child's 60 s
