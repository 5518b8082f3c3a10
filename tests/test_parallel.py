"""`parallel.beside`: a forked child computes a pure function's result, and every way the
child can fail ends with the same result computed in the process itself."""

from __future__ import annotations

import io
import os
import signal
import threading
import time
from fractions import Fraction

import pytest
from forking import dies_in_a_child, needs_fork

from mafia_sheets import parallel
from mafia_sheets.parallel import beside, can_fork


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
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # reaped: nothing is left running


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
