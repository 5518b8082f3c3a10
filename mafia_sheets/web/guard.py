"""The page answers only itself (issue 9, item 3).

Threat model: the server is a local page, but the judge's browser also visits other sites,
and any of them may send requests to 127.0.0.1. Two checks shut them out:

* `Origin`: a browser names the page that sent a request. Only this page's own origin is
  accepted; `null` (sandboxed frames, `data:` pages) and any other site get 403. Requests
  without `Origin` (curl, the address bar) come from the judge's own programs.
* `Host`: a DNS-rebinding site makes its own name point at 127.0.0.1, so the browser treats
  the page as that site's and lets it read the answers; the request still says
  `Host: that-site:port`. Only the address the server is reached at (and, on loopback,
  `localhost`, `127.0.0.1`, `[::1]`) with the server's port is accepted; others get 421.
"""

from __future__ import annotations

import ipaddress
import json
from urllib.parse import parse_qs, urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

FOREIGN_ORIGIN = {
    "en": "Refused: this page answers only requests sent by itself, not by other sites or "
    "sandboxed pages.",
    "ru": "Отказано: страница отвечает только на свои собственные запросы, а не на запросы "
    "других сайтов или изолированных страниц.",
}
FOREIGN_HOST = {
    "en": "Refused: this server answers only at its own address (the one mafia-sheets serve "
    "printed), not under another host name.",
    "ru": "Отказано: сервер отвечает только по своему адресу (тому, что напечатал "
    "mafia-sheets serve), а не под другим именем.",
}


def _split_host(value: str) -> tuple[str, int | None] | None:
    """("name", port) of a Host header or an origin's netloc; None when malformed."""
    try:
        parts = urlsplit(f"//{value}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.password is not None:
        return None
    return parts.hostname.lower(), port


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


class OriginGuard:
    """Pure ASGI middleware: refuses a foreign `Host` (421) or `Origin` (403) before any
    route runs. `host` is the `--host` the server was started with, if any."""

    def __init__(self, app: ASGIApp, host: str | None = None) -> None:
        self.app = app
        self.host = host.strip("[]").lower() if host else None

    def names(self, server: tuple[str, int | None] | None) -> set[str]:
        """Host names this server answers to, for a connection reaching `server`."""
        names = {self.host} if self.host else set()
        if server:
            names.add(server[0].strip("[]").lower())
        if any(_is_loopback(name) for name in names):
            names.update(LOOPBACK_NAMES)
        return names

    def host_ok(self, value: str, scope: Scope) -> bool:
        server = scope.get("server")
        split = _split_host(value)
        if split is None:
            return False
        name, port = split
        default = 443 if scope.get("scheme") == "https" else 80
        wanted = server[1] if server and server[1] is not None else default
        return name in self.names(server) and (port or default) == wanted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        origin = headers.get("origin")
        if not self.host_ok(host, scope):
            await _refuse(421, FOREIGN_HOST, scope, send)
        elif origin is not None and not _same_origin(origin, host, scope.get("scheme", "http")):
            await _refuse(403, FOREIGN_ORIGIN, scope, send)
        else:
            await self.app(scope, receive, send)


def _same_origin(origin: str, host: str, scheme: str) -> bool:
    """Whether `origin` is this page's own: the same scheme, name and port it was reached at
    (the browser leaves the default port out of both)."""
    parts = urlsplit(origin)
    if parts.scheme.lower() != scheme or parts.path or parts.query or parts.fragment:
        return False
    default = 443 if scheme == "https" else 80
    theirs, ours = _split_host(parts.netloc), _split_host(host)
    if theirs is None or ours is None:
        return False
    return (theirs[0], theirs[1] or default) == (ours[0], ours[1] or default)


async def _refuse(status: int, text: dict[str, str], scope: Scope, send: Send) -> None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang = "en" if query.get("lang") == ["en"] else "ru"
    body = json.dumps({"ok": False, "error": text[lang]}, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
