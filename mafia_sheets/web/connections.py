"""Connections the server holds: bounded in number and in idle time (issue 9, item 2).

uvicorn closes a kept-alive connection that stays idle, but not a new one that never sends
its request, nor one that sends its head a byte at a time; and it accepts connections until
the process runs out of file descriptors, then logs a traceback for every failed accept.
This protocol adds the two missing bounds: connections over the cap are closed as soon as
they are accepted, and one that has not sent a whole request head in time is closed.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .bounds import BACKLOG, FD_RESERVE, Bounds


class BoundedH11Protocol(H11Protocol):
    head_timeout: float = 10.0  # set per server by `protocol_for`
    max_connections: int = 500

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        if len(self.connections) > self.max_connections:
            transport.abort()  # no request read yet: closing is the only answer
            return
        self._arm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()  # the next request on this connection has the same limit

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        """Close the connection unless a request is being served on it."""
        self._head_timer = None
        serving = self.cycle is not None and not self.cycle.response_complete
        if not serving and not self.transport.is_closing():
            self.transport.close()


def protocol_for(bounds: Bounds, max_connections: int) -> type[Any]:
    """The protocol class for one server's bounds (uvicorn takes a class as `http`)."""
    return type(
        "BoundedH11Protocol",
        (BoundedH11Protocol,),
        {"head_timeout": bounds.head_timeout, "max_connections": max_connections},
    )


def connection_cap(wanted: int) -> int:
    """Raise this process's file-descriptor limit to fit `wanted` connections if the system
    allows it; the number of connections that fit (with two accept bursts and the reserve)."""
    spare = FD_RESERVE + 2 * BACKLOG
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + spare
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - spare))
