"""What the tests of the second core share: the mark for tests that need a real fork, and a
function that dies in the child `parallel.beside` forks but works in the process itself."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import pytest

needs_fork = pytest.mark.skipif(
    not hasattr(os, "fork") or (os.cpu_count() or 1) < 2, reason="forks only on a POSIX multi-core"
)


def dies_in_a_child(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, killed by SIGKILL when called in any process but this one."""
    parent = os.getpid()

    def dies(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return function(*args, **kwargs)

    return dies
