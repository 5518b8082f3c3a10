"""The local drag-and-drop page (SPEC §9): a Starlette app around the same library calls as the CLI.

Stateless by design: every request carries the workbooks it needs (the page re-uploads them
for each download), they are read into memory under a size limit while the body streams in,
passed as bytes to the library and dropped with the response. Nothing is written to disk and
nothing is shared between requests, so two browsers never see each other's files.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import MafiaSheetsError
from ..model import Source
from .upload import TOTAL_FACTOR, Limits, UploadError, fingerprint, read_sources

STATIC = Path(__file__).parent / "static"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
WORK_SLOTS = threading.BoundedSemaphore(4)  # bound the memory of parallel evaluations

log = logging.getLogger("mafia_sheets.web")
INTERNAL_ERROR = {"en": "Internal error: see the terminal where mafia-sheets serve runs.",
                  "ru": "Внутренняя ошибка: подробности — в окне, где запущен mafia-sheets serve."}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")


# ---- the library calls (blocking: run in a worker thread) -------------------------------


def _annotator() -> Callable[..., bytes] | None:
    """The annotated-copy writer, when this installation has it."""
    try:
        from ..annotate import annotate_workbook
    except ImportError:
        return None
    return annotate_workbook


def _evaluate(sources: Sequence[Source], lang: str, lot_seed: int | None) -> Any:
    from ..pipeline import evaluate

    with WORK_SLOTS:
        return evaluate(sources, lang=lang, lot_seed=lot_seed)


def _rate(sources: Sequence[Source], lang: str, lot_seed: int | None) -> dict[str, Any]:
    from ..report.json import cards_json, outcome_json

    outcome = _evaluate(sources, lang, lot_seed)
    body = {"ok": True, "result": outcome_json(outcome, lang), "token": fingerprint(sources),
            "annotate": bool(outcome.findings) and _annotator() is not None}
    if outcome.rating is not None and outcome.rating.stats is not None:
        body["cards"] = cards_json(outcome.rating)  # each player's games, for the card
    return body


def _results(sources: Sequence[Source], lang: str, lot_seed: int | None) -> bytes:
    from ..report.xlsx import results_workbook

    outcome = _evaluate(sources, lang, lot_seed)
    if outcome.rating is None:
        raise UploadError(422, "The protocol has errors, so there are no standings yet: "
                          "fix them and upload again.",
                          "В протоколе есть ошибки, поэтому итогов пока нет: "
                          "исправьте их и загрузите снова.")
    with WORK_SLOTS:
        return results_workbook(outcome.rating, lang)


def _annotated(sources: Sequence[Source], lang: str, index: int) -> bytes:
    annotate = _annotator()
    if annotate is None:
        raise UploadError(501, "This installation cannot write annotated protocols.",
                          "Эта установка не умеет размечать протоколы.")
    outcome = _evaluate(sources, lang, None)
    with WORK_SLOTS:
        return annotate(sources[index], outcome.findings, lang)


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
        raise UploadError(400, f"“{name}” must be a whole number, got “{raw[:40]}”.",
                          f"«{name}» должен быть целым числом, а не «{raw[:40]}».") from None


def _check_params(request: Request) -> None:
    lang = request.query_params.get("lang")
    if lang is not None and lang not in ("ru", "en"):
        raise UploadError(400, "lang must be “ru” or “en”.", "lang должен быть «ru» или «en».")


def _check_origin(request: Request) -> None:
    """Refuse uploads posted by another site's page to this local server."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
        raise UploadError(403, "Uploads are accepted only from this page.",
                          "Загрузка принимается только с этой страницы.")


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": text}, status_code=status,
                        headers={"Cache-Control": "no-store"})


def _download(data: bytes, filename: str, fallback: str) -> Response:
    """An attachment whose name survives Cyrillic (RFC 6266 `filename*`); `fallback` is the
    plain ASCII name for clients that ignore `filename*`."""
    if filename.isascii() and '"' not in filename:
        fallback = filename
    disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename)}"
    return Response(data, media_type=XLSX_TYPE,
                    headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})


def _stem(sources: Sequence[Source], lang: str) -> str:
    if len(sources) > 1:
        return "сезон" if lang == "ru" else "season"
    name = sources[0].name
    return name[:-5] if name.lower().endswith(".xlsx") else name


class Api:
    """The page's endpoints; `limits` is the only state, fixed when the app is built."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits

    async def _guarded(self, request: Request, work: Callable[..., Any]) -> Response:
        """Shared frame: validate, read the upload, run `work` in a thread, map every failure
        to a one-line JSON error (never a traceback)."""
        lang = _lang(request)
        try:
            _check_params(request)
            _check_origin(request)
            sources, fields = await read_sources(request, self.limits)
            token = fields.get("token")
            if token and token != fingerprint(sources):
                raise UploadError(409, "The files changed since they were checked: drop them "
                                  "again.", "Файлы изменились после проверки: перетащите их снова.")
            return await run_in_threadpool(work, sources, lang, fields)
        except UploadError as err:
            return _error(err.status, err.text(lang))
        except MafiaSheetsError as err:  # the library's verdict on an unusable file (§5.5)
            return _error(422, err.text(lang))
        except Exception:
            log.exception("unexpected failure in %s", request.url.path)
            return _error(500, INTERNAL_ERROR[lang])

    async def rate(self, request: Request) -> Response:
        def work(sources: list[Source], lang: str, fields: dict[str, str]) -> Response:
            body = _rate(sources, lang, _int_param(request, "lot_seed", fields))
            return JSONResponse(body, headers={"Cache-Control": "no-store"})

        return await self._guarded(request, work)

    async def results(self, request: Request) -> Response:
        def work(sources: list[Source], lang: str, fields: dict[str, str]) -> Response:
            data = _results(sources, lang, _int_param(request, "lot_seed", fields))
            suffix = "итоги" if lang == "ru" else "results"
            return _download(data, f"{_stem(sources, lang)}-{suffix}.xlsx", "results.xlsx")

        return await self._guarded(request, work)

    async def annotated(self, request: Request) -> Response:
        def work(sources: list[Source], lang: str, fields: dict[str, str]) -> Response:
            index = _int_param(request, "file", fields) or 0
            if not 0 <= index < len(sources):
                raise UploadError(400, f"No file number {index}.", f"Нет файла номер {index}.")
            data = _annotated(sources, lang, index)
            suffix = "замечания" if lang == "ru" else "annotated"
            return _download(data, f"{_stem([sources[index]], lang)}-{suffix}.xlsx",
                             "annotated.xlsx")

        return await self._guarded(request, work)

    async def limits_info(self, request: Request) -> Response:
        return JSONResponse(self.limits.json())


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


WEB_FILE_LIMIT = 50 * 1024 * 1024  # a 100,000-game protocol is ~40 MB; four files ≤ 200 MB


def _default_file_limit() -> int:
    """The page holds uploads in memory, so it allows less than the CLI's MAX_FILE_BYTES."""
    from ..safety import MAX_FILE_BYTES

    return min(int(MAX_FILE_BYTES), WEB_FILE_LIMIT)


def create_app(max_upload_bytes: int | None = None) -> Starlette:
    """The page and its API. `max_upload_bytes` is the per-file limit (default: the library's
    `MAX_FILE_BYTES`); one request may carry four times that in all."""
    per_file = max_upload_bytes if max_upload_bytes is not None else _default_file_limit()
    api = Api(Limits(per_file=per_file, total=per_file * TOTAL_FACTOR))
    return Starlette(routes=[
        Route("/", index, methods=["GET"]),
        Route("/api/limits", api.limits_info, methods=["GET"]),
        Route("/api/rate", api.rate, methods=["POST"]),
        Route("/api/results.xlsx", api.results, methods=["POST"]),
        Route("/api/annotated.xlsx", api.annotated, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], middleware=[Middleware(SecurityHeaders)])


class SecurityHeaders:
    """The page runs only its own script and loads nothing from elsewhere (pure ASGI)."""

    HEADERS = ((b"content-security-policy", CSP.encode()),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))

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
            host.strip("[]"), port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)  # a browser opened on the printed address queues until uvicorn runs
    except OSError as exc:
        if sock is not None:
            sock.close()
        raise MafiaSheetsError(
            f"Cannot listen on {host}:{port} ({exc.strerror or exc}): is the port in use? "
            "Try another one with --port.",
            f"Не удаётся открыть {host}:{port} ({exc.strerror or exc}): порт занят? "
            "Укажите другой через --port.") from exc
    return sock


def run_server(host: str, port: int) -> None:
    """Serve the page until Ctrl+C; prints the address, warns when it is reachable from
    other machines."""
    import uvicorn

    sock = _bind(host, port)
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    if not is_loopback(host):
        print(f"Внимание: сервер доступен не только с этого компьютера ({host}); "
              "файлы протоколов может загрузить любой в сети.\n"
              f"Warning: the server is reachable from other machines ({host}); "
              "anyone on the network can upload protocols.", file=sys.stderr, flush=True)
    print(f"mafia-sheets: {url}  (Ctrl+C — остановить / to stop)", flush=True)
    config = uvicorn.Config(create_app(), log_level="warning", server_header=False)
    uvicorn.Server(config).run(sockets=[sock])
