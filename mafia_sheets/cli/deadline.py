"""A deadline on every evaluation of the command line (`--timeout`), as the page has one.

Past it the run stops with one line and exit 2, and nothing is written (outputs are only
ever renamed into place whole). Where the system can fork, the command's work goes on in
a child process that the command itself only watches: the child is killed at the
deadline whatever it is doing — inside a reader's native code too — and a child that
dies of a signal (a reader's abort on a crafted file) is answered with one line as well.
Where it cannot fork, or when the command runs inside another program (tests), a timer
raises inside the work, which stops it at its next Python step.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import click

from ..errors import Stopped
from ..parallel import die_with
from ..scratch import remove_stale
from ..text import Text, terminal
from . import text as msg

# Generous: a 100,000-game season rates in about a minute and a half on a busy machine.
DEFAULT_TIMEOUT_S = 600.0

TIMEOUT = click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_TIMEOUT_S,
    show_default=True,
    metavar="SECONDS",
    help="Предел времени работы, 0 — без предела / stop after this many seconds (0: never).",
)

# Set by the console script (`commands.entry`): the command owns its process and may fork.
SUPERVISE = False

_POLL_S = 0.05  # how often the watching process looks at the child without a pidfd


class DeadlinePassed(Stopped):
    """The work took longer than `--timeout` allows."""


def overrun(seconds: float) -> Text:
    shown = f"{seconds:g}"
    return Text(
        f"Работа заняла больше {shown.replace('.', ',')} с (--timeout) и остановлена; "
        "ничего не записано. Если протокол действительно так велик, задайте --timeout "
        "больше (0 — без предела).",
        f"The work took longer than {shown} s (--timeout) and was stopped; nothing was "
        "written. If the protocol really is that large, give a larger --timeout (0: no "
        "limit).",
    )


def crashed(names: Sequence[str], code: int) -> Text:
    files = ", ".join(names[:3]) + (" …" if len(names) > 3 else "")
    return Text(
        f"Чтение {files} обрушило процесс (сигнал {code}): файл повреждён или собран так, "
        "чтобы ломать программы; ничего не записано. Откройте его в Excel или LibreOffice "
        "и сохраните заново как .xlsx.",
        f"Reading {files} crashed the process (signal {code}): the file is damaged or built "
        "to break readers; nothing was written. Open it in Excel or LibreOffice and save it "
        "again as .xlsx.",
    )


def start(seconds: float, lang: str, names: Sequence[str]) -> None:
    """From here on the command has `seconds` (0: no limit). Returns in the process that
    does the work; the watching process, if there is one, never returns."""
    if seconds <= 0:
        return
    if SUPERVISE and hasattr(os, "fork"):
        _supervise(seconds, lang, names)
    elif threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGALRM"):
        _alarm(seconds)
    else:
        _watchdog(seconds, lang)


# ---- a child does the work, the parent watches --------------------------------------------


def _supervise(seconds: float, lang: str, names: Sequence[str]) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    # Python finds its temp folder by writing a probe file there once: done here, at the
    # start, a kill of the work can never leave that probe behind
    tempfile.gettempdir()
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        die_with(parent, 2)
        return  # the work goes on here
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the child, which stops
    signal.signal(signal.SIGTERM, lambda *_: _stop(child, exit_code=128 + signal.SIGTERM))
    status = _wait(child, time.monotonic() + seconds)
    if status is None:
        _stop(child)
        _remove_scratch()
        _say(overrun(seconds), lang)
        os._exit(2)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) not in (signal.SIGINT, signal.SIGTERM):
        _remove_scratch()
        _say(crashed(names, os.WTERMSIG(status)), lang)
        os._exit(2)
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _wait(child: int, deadline: float) -> int | None:
    """The child's wait status, or None once `deadline` has passed."""
    handle = _pidfd(child)
    try:
        while True:
            done, status = os.waitpid(child, os.WNOHANG)
            if done:
                return status
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            _sleep(handle, min(left, 1.0 if handle is not None else _POLL_S))
    finally:
        if handle is not None:
            os.close(handle)


def _pidfd(child: int) -> int | None:
    try:
        return os.pidfd_open(child)  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError):
        return None


def _sleep(handle: int | None, seconds: float) -> None:
    if handle is None:
        time.sleep(seconds)
        return
    select.select([handle], [], [], seconds)


def _stop(child: int, exit_code: int | None = None) -> None:
    """Kill the child (and, with `exit_code`, end this process too)."""
    try:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    if exit_code is not None:
        os._exit(exit_code)


def _remove_scratch() -> None:
    """The killed child's scratch folder: its process is gone, so it is stale now."""
    remove_stale()


def _say(text: Text, lang: str) -> None:
    line = terminal(msg.line("error_prefix", lang) + text(lang))
    clear = "\r\x1b[2K" if sys.stderr.isatty() else ""  # over a progress bar, if any
    sys.stderr.write(f"{clear}{line}\n")
    sys.stderr.flush()


# ---- without a child: a timer inside the work -----------------------------------------------


# The timer's exception when it has fired. A handler's exception raised while Python runs a
# garbage-collector callback or a finaliser is only printed, never propagated: the work
# would go on past the deadline. So outputs and the evaluation's end look here as well.
_overrun: list[DeadlinePassed] = []


def _alarm(seconds: float) -> None:
    def passed(*_: Any) -> None:
        _overrun[:] = [DeadlinePassed(overrun(seconds))]
        raise _overrun[0]

    def undo() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _overrun.clear()

    _overrun.clear()
    previous = signal.signal(signal.SIGALRM, passed)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _on_close(undo)


def checkpoint() -> None:
    """Raise the deadline's error if the timer has fired, even where its first raise was
    swallowed; called before anything is written and when the evaluation ends."""
    if _overrun:
        raise _overrun[0]


def _watchdog(seconds: float, lang: str) -> None:
    def passed() -> None:
        _say(overrun(seconds), lang)
        os._exit(2)

    timer = threading.Timer(seconds, passed)
    timer.daemon = True
    timer.start()
    _on_close(timer.cancel)


def _on_close(callback: Callable[[], object]) -> None:
    """Undo the timer when the command ends, however it ends (click closes its context)."""
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(callback)
