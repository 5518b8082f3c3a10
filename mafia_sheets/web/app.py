"""The local drag-and-drop page (SPEC §9): a Starlette app around the same library calls as the CLI.

Stateless by design: every request carries the workbooks it needs (the page re-uploads them
for each download), they are read into memory under a size limit while the body streams in,
handed as bytes to a worker process (`workers.py`) and dropped with the response. Nothing is
written to disk and nothing is shared between requests, so two browsers never see each
other's files, and a file that crashes its reader costs only its own request. The page
answers only itself (`guard.py`); every cost is bounded (`bounds.py`).
"""

from __future__ import annotations

import importlib.util
import ipaddress
import logging
import socket
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import MafiaSheetsError
from ..model import Source
from ..reading.safety import MAX_FILE_BYTES
from ..report.labels import ANNOTATED_SUFFIX, RESULTS_SUFFIX, SEASON_STEM
from ..text import Text
from . import workers
from .bounds import BACKLOG, Bounds
from .connections import connection_cap, protocol_for
from .guard import OriginGuard
from .jobs import Job
from .labels import all_labels
from .seating import ROSTER_SUFFIXES, seat_job
from .upload import (
    TOTAL_FACTOR,
    BodyTimes,
    Limits,
    UploadBudget,
    UploadDropped,
    UploadError,
    fingerprint,
    read_sources,
    request_cap,
)

STATIC = Path(__file__).parent / "static"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORTS = {"csv": (".csv", "text/csv; charset=utf-8"), "mwt": (".json", "application/json")}

PLAN_STEM = Text("рассадка", "seating-plan")
PROTOCOL_STEM = Text("протокол", "protocol")
log = logging.getLogger("mafia_sheets.web")
INTERNAL_ERROR = {
    "en": "Internal error: see the terminal where mafia-sheets serve runs.",
    "ru": "Внутренняя ошибка: подробности — в окне, где запущен mafia-sheets serve.",
}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


def _can_annotate() -> bool:
    """Whether this installation can write annotated copies (openpyxl is there)."""
    return importlib.util.find_spec("openpyxl") is not None


# ---- endpoints ---------------------------------------------------------------------------


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "ru")
    return lang if lang in ("ru", "en") else "ru"


def _int_param(request: Request, name: str, fields: dict[str, str]) -> int | None:
    raw = request.query_params.get(name, fields.get(name, "")).strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise UploadError(
            400,
            Text(
                f"«{name}» должен быть целым числом, а не «{raw[:40]}».",
                f"“{name}” must be a whole number, got “{raw[:40]}”.",
            ),
        ) from None


def _check_params(request: Request) -> None:
    lang = request.query_params.get("lang")
    if lang is not None and lang not in ("ru", "en"):
        raise UploadError(
            400, Text("lang должен быть «ru» или «en».", "lang must be “ru” or “en”.")
        )


def _lot_seed(request: Request, fields: dict[str, str]) -> int | None:
    """The seed asked for, refused outside the range the CLI accepts, in the same words."""
    from ..rating.rank import parse_lot_seed  # the rating loads pandas: only when a seed is given

    raw = request.query_params.get("lot_seed", fields.get("lot_seed", ""))
    if not raw.strip():
        return None
    try:
        return parse_lot_seed(raw)
    except MafiaSheetsError as err:
        raise UploadError(400, err.message) from None


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse(
        {"ok": False, "error": text}, status_code=status, headers={"Cache-Control": "no-store"}
    )


# RFC 5987 attr-char beyond what `quote` always keeps (letters, digits, "_.-~").
ATTR_CHARS = "!#$&+^`|"


def _plain(name: str) -> bool:
    """Whether `name` can stand as it is in a quoted `filename="…"` for any client."""
    return all(32 <= ord(char) < 127 for char in name) and not set(name) & set('"\\%')


def disposition(filename: str, fallback: str) -> str:
    """`attachment` with the exact name in `filename*` (RFC 6266 / 5987: UTF-8, every other
    byte percent-encoded, so quotes, Cyrillic, newlines and control characters all survive)
    and a plain ASCII `filename` — `fallback` unless the name itself is plain."""
    plain = filename if _plain(filename) else fallback
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe=ATTR_CHARS)}"


def _download(data: bytes, filename: str, fallback: str, media: str = XLSX_TYPE) -> Response:
    return Response(
        data,
        media_type=media,
        headers={
            "Content-Disposition": disposition(filename, fallback),
            "Cache-Control": "no-store",
        },
    )


_INTERRUPTED = Text("Загрузка прервалась.", "The upload was interrupted.")


def _stem(sources: Sequence[Source], lang: str) -> str:
    if len(sources) > 1:
        return SEASON_STEM(lang)
    name = sources[0].name
    for suffix in (".xlsx", ".ods"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _fault(sources: Sequence[Source]) -> str | None:
    return next(
        (workers.TEST_FAULTS[s.name] for s in sources if s.name in workers.TEST_FAULTS), None
    )


Answer = Callable[[Any, list[Source], str, dict[str, str]], Response]

_TOO_MANY = Text(
    "С этого компьютера уже идут {most} загрузки: дождитесь их ответа.",
    "This computer already has {most} uploads in progress: wait for their answers.",
)


def _client_key(request: Request) -> object:
    """Who an upload counts against: its address, or its connection when that address is
    loopback (all local clients, and any page their browser visits, share it)."""
    client = request.client
    if client is None:
        return None
    return (client.host, client.port) if is_loopback(client.host) else client.host


class Api:
    """The page's endpoints; the limits, the upload budget and the workers are its state,
    fixed when the app is built."""

    def __init__(self, limits: Limits, bounds: Bounds) -> None:
        self.limits, self.bounds = limits, bounds
        self.budget = UploadBudget(
            request_cap(limits) * bounds.in_flight_requests, bounds.upload_wait, bounds.upload_stall
        )
        self.uploads: Counter[object] = Counter()  # uploads in flight, by client
        self.times = BodyTimes(bounds.body_idle, bounds.body_deadline)
        self.pool = workers.WorkerPool(bounds)

    async def _guarded(self, request: Request, kind: str, answer: Answer) -> Response:
        """`_served`, for at most `uploads_per_client` uploads of one client at once (a
        loopback client is counted by connection: every local program shares its address)."""
        client, most = _client_key(request), self.bounds.uploads_per_client
        if self.uploads[client] >= most:
            return _error(429, _TOO_MANY.format(most=most)(_lang(request)))
        self.uploads[client] += 1
        try:
            return await self._served(request, kind, answer)
        finally:
            self.uploads[client] -= 1
            if self.uploads[client] <= 0:
                del self.uploads[client]

    async def _served(self, request: Request, kind: str, answer: Answer) -> Response:
        """Shared frame: validate, read the upload, run the `kind` job in a worker, `answer`
        with its payload; every failure is a one-line JSON error (never a traceback)."""
        lang = _lang(request)
        hold = self.budget.hold()
        try:
            _check_params(request)
            seat = kind.startswith("seat")
            suffixes = ROSTER_SUFFIXES if seat else None
            sources, fields = await read_sources(request, self.limits, hold, self.times, suffixes)
            token = fields.get("token")
            if token and token != fingerprint(sources):
                raise UploadError(
                    409,
                    Text(
                        "Файлы изменились после проверки: перетащите их снова.",
                        "The files changed since they were checked: drop them again.",
                    ),
                )
            job = Job(
                kind,
                tuple(sources),
                lang,
                lot_seed=_lot_seed(request, fields),
                index=(
                    self._file_index(request, fields, len(sources)) if kind == "annotated" else 0
                ),
                can_annotate=_can_annotate(),
                fault=_fault(sources),
                seating=seat_job(fields) if seat else None,
            )
            return answer(await self.pool.run(job), sources, lang, fields)
        except UploadDropped as dropped:
            log.warning(
                "mafia-sheets: an upload to %s was dropped by the client (%s)",
                request.url.path,
                dropped,
            )
            return _error(400, _INTERRUPTED(lang))
        except UploadError as err:
            return _error(err.status, err.text(lang))
        except MafiaSheetsError as err:  # the library's verdict on an unusable file (§5.5)
            return _error(422, err.text(lang))
        except workers.InternalFailure:  # the worker logged the traceback
            return _error(500, INTERNAL_ERROR[lang])
        except Exception:
            log.exception("unexpected failure in %s", request.url.path)
            return _error(500, INTERNAL_ERROR[lang])
        finally:
            hold.release()

    @staticmethod
    def _file_index(request: Request, fields: dict[str, str], count: int) -> int:
        index = _int_param(request, "file", fields) or 0
        if not 0 <= index < count:
            raise UploadError(400, Text(f"Нет файла номер {index}.", f"No file number {index}."))
        return index

    async def rate(self, request: Request) -> Response:
        def answer(
            payload: dict[str, Any], sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            body = {
                "ok": True,
                **payload,
                "token": fingerprint(sources),
                "files": [source.name for source in sources],
            }
            return JSONResponse(body, headers={"Cache-Control": "no-store"})

        return await self._guarded(request, "rate", answer)

    async def results(self, request: Request) -> Response:
        def answer(
            data: bytes, sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            suffix = RESULTS_SUFFIX(lang)
            return _download(data, f"{_stem(sources, lang)}-{suffix}.xlsx", "results.xlsx")

        return await self._guarded(request, "results", answer)

    async def export(self, request: Request) -> Response:
        """The world tour upload or the CSV of the standings, named like the results."""
        kind = "csv" if request.url.path.endswith(".csv") else "mwt"
        suffix, media = EXPORTS[kind]

        def answer(
            data: bytes, sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            stem = f"{_stem(sources, lang)}-{RESULTS_SUFFIX(lang) if kind == 'csv' else 'mwt'}"
            return _download(data, f"{stem}{suffix}", f"results{suffix}", media)

        return await self._guarded(request, kind, answer)

    async def annotated(self, request: Request) -> Response:
        def answer(
            data: bytes, sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            source = sources[self._file_index(request, fields, len(sources))]
            suffix = ANNOTATED_SUFFIX(lang)
            return _download(data, f"{_stem([source], lang)}-{suffix}.xlsx", "annotated.xlsx")

        return await self._guarded(request, "annotated", answer)

    async def seat(self, request: Request) -> Response:
        def answer(
            payload: dict[str, Any], sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            return JSONResponse({"ok": True, **payload}, headers={"Cache-Control": "no-store"})

        return await self._guarded(request, "seat", answer)

    async def seat_plan(self, request: Request) -> Response:
        def answer(
            data: bytes, sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            return _download(data, f"{PLAN_STEM(lang)}.xlsx", "seating-plan.xlsx")

        return await self._guarded(request, "seat_plan", answer)

    async def seat_protocol(self, request: Request) -> Response:
        def answer(
            data: bytes, sources: list[Source], lang: str, fields: dict[str, str]
        ) -> Response:
            return _download(data, f"{PROTOCOL_STEM(lang)}.xlsx", "protocol.xlsx")

        return await self._guarded(request, "seat_protocol", answer)

    async def labels_info(self, request: Request) -> Response:
        return JSONResponse(all_labels())

    async def limits_info(self, request: Request) -> Response:
        return JSONResponse(self.limits.json())


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


WEB_FILE_LIMIT = 50 * 1024 * 1024  # a 100,000-game protocol is ~40 MB; four files ≤ 200 MB


def _default_file_limit() -> int:
    """The page holds uploads in memory, so it allows less than the CLI's MAX_FILE_BYTES."""
    return min(int(MAX_FILE_BYTES), WEB_FILE_LIMIT)


def create_app(
    max_upload_bytes: int | None = None, *, host: str | None = None, bounds: Bounds | None = None
) -> Starlette:
    """The page and its API. `max_upload_bytes` is the per-file limit (default: the library's
    `MAX_FILE_BYTES`); one request may carry four times that in all. `host` is the `--host`
    the server answers to besides the address it is reached at; `bounds` its limits."""
    per_file = max_upload_bytes if max_upload_bytes is not None else _default_file_limit()
    api = Api(Limits(per_file=per_file, total=per_file * TOTAL_FACTOR), bounds or Bounds())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await api.pool.start()  # warm workers before the first request
        try:
            yield
        finally:
            api.pool.close()

    return Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            Route("/api/limits", api.limits_info, methods=["GET"]),
            Route("/api/labels", api.labels_info, methods=["GET"]),
            Route("/api/rate", api.rate, methods=["POST"]),
            Route("/api/results.xlsx", api.results, methods=["POST"]),
            Route("/api/annotated.xlsx", api.annotated, methods=["POST"]),
            Route("/api/results.csv", api.export, methods=["POST"]),
            Route("/api/mwt.json", api.export, methods=["POST"]),
            Route("/api/seat", api.seat, methods=["POST"]),
            Route("/api/seat/plan.xlsx", api.seat_plan, methods=["POST"]),
            Route("/api/seat/protocol.xlsx", api.seat_protocol, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(SecurityHeaders), Middleware(OriginGuard, host=host)],
        lifespan=lifespan,
    )


class SecurityHeaders:
    """The page runs only its own script and loads nothing from elsewhere (pure ASGI)."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---- running it --------------------------------------------------------------------------


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """Bind before announcing the address, so a busy port is one clear line, not a log dump."""
    sock: socket.socket | None = None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)  # a browser opened on the printed address queues until uvicorn runs
    except OSError as exc:
        if sock is not None:
            sock.close()
        raise MafiaSheetsError(
            Text(
                f"Не удаётся открыть {host}:{port} ({exc.strerror or exc}): порт занят? "
                "Укажите другой через --port.",
                f"Cannot listen on {host}:{port} ({exc.strerror or exc}): is the port in use? "
                "Try another one with --port.",
            )
        ) from exc
    return sock


def server_config(app: ASGIApp, bounds: Bounds) -> Any:
    """uvicorn's settings for the page: bounded connections (`connections.py`) and a short
    keep-alive. uvicorn's own `limit_concurrency` answers 503 only once a request has
    arrived, so idle connections would pass it; the protocol's cap covers those too."""
    protocol = protocol_for(bounds, connection_cap(bounds.max_connections))
    return uvicorn.Config(
        app,
        log_level="warning",
        server_header=False,
        http=protocol,
        timeout_keep_alive=bounds.keep_alive,
        backlog=BACKLOG,
    )


def run_server(host: str, port: int, bounds: Bounds | None = None) -> None:
    """Serve the page until Ctrl+C; prints the address, warns when it is reachable from
    other machines."""
    bounds = bounds or Bounds()
    sock = _bind(host, port)
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    if not is_loopback(host):
        print(
            f"Внимание: сервер доступен не только с этого компьютера ({host}); "
            "файлы протоколов может загрузить любой в сети.\n"
            f"Warning: the server is reachable from other machines ({host}); "
            "anyone on the network can upload protocols.",
            file=sys.stderr,
            flush=True,
        )
    print(f"mafia-sheets: {url}  (Ctrl+C — остановить / to stop)", flush=True)
    config = server_config(create_app(host=host, bounds=bounds), bounds)
    uvicorn.Server(config).run(sockets=[sock])
