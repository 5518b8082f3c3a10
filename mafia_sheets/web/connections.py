"""Connections the server holds: bounded in number, per client and in idle time.

uvicorn closes a kept-alive connection that stays idle, but not a new one that never sends
its request, nor one that sends its head a byte at a time; and it accepts connections until
the process runs out of file descriptors, then logs a traceback for every failed accept.
This protocol adds the missing bounds:

* a connection that has not sent a whole request head in time is closed;
* past the cap, a new connection takes the place of the one idle longest (connected or
  between requests, sending no request): a few hundred idle or trickling clients cannot
  fill the cap and lock everyone else out; only when every connection is in the middle
  of a request is the new one closed;
* one client (an address other than loopback) holds at most so many connections; loopback
  clients all share 127.0.0.1, so there each connection counts as its own client.
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

from .bounds import BACKLOG, FD_RESERVE, Bounds


class BoundedH11Protocol(H11Protocol):
    # set per server by `protocol_for`: each server has its own class, so its own books
    head_timeout: float = 10.0
    max_connections: int = 500
    per_client: int = 32
    order: ClassVar[dict[BoundedH11Protocol, None]] = {}  # oldest-idle first
    clients: ClassVar[Counter[str]] = Counter()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._client = _counted_client(transport)
        self.order[self] = None
        if self._client:
            self.clients[self._client] += 1
        if self._client and self.clients[self._client] > self.per_client:
            transport.abort()  # one client may not take every connection
            return
        if len(self.connections) > self.max_connections and not self._make_room():
            transport.abort()  # every other connection is mid-request: no request read yet
            return
        self._arm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.order.pop(self, None)
            self.order[self] = None  # idle from now: the newest idle connection
            self._arm_head_timer()  # the next request on this connection has the same limit

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        if self.order.pop(self, False) is None and self._client:
            self.clients[self._client] -= 1
            if self.clients[self._client] <= 0:
                del self.clients[self._client]
        super().connection_lost(exc)

    @property
    def serving(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _make_room(self) -> bool:
        """Close the connection idle longest to make room for this one; False if none is."""
        for other in list(self.order):
            if other is not self and not other.serving and not other.transport.is_closing():
                other.transport.abort()
                return True
        return False

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
        if not self.serving and not self.transport.is_closing():
            self.transport.close()


def _counted_client(transport: asyncio.Transport) -> str:
    """The address a client is counted by; "" for loopback (counted by connection)."""
    peer = transport.get_extra_info("peername")
    host = peer[0] if isinstance(peer, tuple) and peer else ""
    try:
        address = ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        return ""  # a Unix socket or an odd peer: not a remote client
    mapped = getattr(address, "ipv4_mapped", None)
    return "" if address.is_loopback or (mapped and mapped.is_loopback) else str(host)


def protocol_for(bounds: Bounds, max_connections: int) -> type[Any]:
    """The protocol class for one server's bounds (uvicorn takes a class as `http`)."""
    return type(
        "BoundedH11Protocol",
        (BoundedH11Protocol,),
        {
            "head_timeout": bounds.head_timeout,
            "max_connections": max_connections,
            "per_client": bounds.connections_per_client,
            "order": {},
            "clients": Counter(),
        },
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
