"""The page under attack (issue 9): crashing workers, foreign origins and hosts, odd file
names, slow, idle and vanishing clients, the upload budget, the lot seed's range.

Every wait is bounded (socket timeouts, loops with a deadline); nothing asserts on timings.
"""

from __future__ import annotations

import asyncio
import email.message
import email.utils
import itertools
import json
import logging
import multiprocessing.forkserver
import os
import re
import resource
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import xlsxwriter
from click.testing import CliRunner
from live import first_line, live_server
from uvicorn.server import ServerState

from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.rating.lotseed import LOT_SEED_MAX
from mafia_sheets.report.json import outcome_json
from mafia_sheets.web import app as web
from mafia_sheets.web import upload as uploads
from mafia_sheets.web import workers
from mafia_sheets.web.bounds import GIB, Bounds
from mafia_sheets.web.guard import OriginGuard

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "tournament-ru.xlsx"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Small limits so that every bound is reached in a test: a 2-worker pool with 1 GiB each
# and a 5-second deadline (the sample takes a tenth of that).
TEST_BOUNDS = Bounds(workers=2, worker_memory=1 * GIB, work_deadline=5.0, worker_wait=60.0)
SOCKET_TIMEOUT_S = 20.0  # the longest any test waits on a socket


def upload(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, data, XLSX)) for name, data in files]


def one_line_error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and body["error"] and "\n" not in body["error"]
    assert "Traceback" not in response.text
    return str(body["error"])


@pytest.fixture(scope="module")
def sample() -> bytes:
    return SAMPLE.read_bytes()


@pytest.fixture(scope="module")
def want(sample: bytes) -> dict[str, Any]:
    return outcome_json(evaluate([Source("cup.xlsx", sample)]), "ru")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The temporary folder as the workers see it, to look for leftovers."""
    multiprocessing.forkserver.ensure_running()  # its own socket folder is not a request's
    folder = tmp_path_factory.mktemp("tmp")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(folder))
        yield folder


@pytest.fixture(scope="module")
def server(scratch: Path) -> Iterator[str]:
    with live_server(web.create_app(bounds=TEST_BOUNDS), TEST_BOUNDS) as base:
        yield base


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(web.create_app(bounds=TEST_BOUNDS)) as test_client:
        yield test_client


# ---- a worker that dies, overruns or hangs costs only its own request ----------------------


def worker_folders(scratch: Path) -> list[Path]:
    return sorted(scratch.glob("mafia-sheets-*/*-worker"))


@pytest.mark.parametrize(
    ("fault", "status", "words"),
    [
        ("abort", 422, "crashed"),  # what python-calamine does on a crafted workbook
        ("memory", 413, "memory"),  # an allocation past RLIMIT_AS
        ("hang", 504, "longer than the page allows"),  # past the wall-clock deadline
    ],
)
def test_a_failing_worker_answers_its_request_and_others_go_on(
    server: str,
    scratch: Path,
    sample: bytes,
    want: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
    status: int,
    words: str,
) -> None:
    monkeypatch.setitem(workers.TEST_FAULTS, "boom.xlsx", fault)

    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server, timeout=120) as http:
            doomed = asyncio.create_task(
                http.post("/api/rate?lang=en", files=upload(("boom.xlsx", sample)))
            )
            await asyncio.sleep(0.2)  # the doomed request has its worker; others use the other
            others = [
                await http.post("/api/rate", files=upload(("cup.xlsx", sample))) for _ in range(3)
            ]
            return [await doomed, *others]

    doomed, *others = asyncio.run(run())
    assert words in one_line_error(doomed, status)
    for reply in others:  # answered while (or after) the other worker failed
        assert reply.status_code == 200 and reply.json()["result"] == want
    after = httpx.post(f"{server}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
    assert after.json()["result"] == want
    folders = worker_folders(scratch)  # the failed worker's folder went with it
    assert len(folders) == TEST_BOUNDS.workers
    assert all(not any(folder.iterdir()) for folder in folders)


def test_a_crafted_workbook_that_aborts_the_reader_costs_one_request(
    server: str, sample: bytes, want: dict[str, Any], tmp_path: Path
) -> None:
    """A1 plus a cell at XFD1048576: python-calamine sized its grid from that and aborted
    the process (a check before parsing may now refuse it first: either is one line)."""
    path = tmp_path / "bomb.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Игры")
    sheet = book.add_worksheet("Протокол")
    sheet.write(0, 0, "Игра")
    sheet.write(1048575, 16383, "x")
    book.close()
    reply = httpx.post(
        f"{server}/api/rate", files=upload(("bomb.xlsx", path.read_bytes())), timeout=120
    )
    assert reply.status_code in (413, 422), reply.text
    one_line_error(reply, reply.status_code)
    after = httpx.post(f"{server}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
    assert after.json()["result"] == want


def test_a_bug_in_a_worker_is_an_internal_error_and_the_worker_goes_on(
    client: TestClient, sample: bytes, want: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(workers.TEST_FAULTS, "bug.xlsx", "bug")
    text = one_line_error(client.post("/api/rate", files=upload(("bug.xlsx", sample))), 500)
    assert "mafia-sheets serve" in text and "secret" not in text
    assert client.post("/api/rate", files=upload(("cup.xlsx", sample))).json()["result"] == want


def test_faults_cannot_be_asked_for_by_a_request(client: TestClient, sample: bytes) -> None:
    assert workers.TEST_FAULTS == {}
    for name in ("abort.xlsx", "boom.xlsx", "hang.xlsx"):
        assert client.post("/api/rate", files=upload((name, sample))).status_code == 200


# ---- only its own origin and host ----------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        "null",
        "http://evil.example",
        "http://testserver.evil",
        "https://testserver",
        "http://testserver:81",
    ],
)
def test_foreign_or_null_origin_is_refused(client: TestClient, sample: bytes, origin: str) -> None:
    reply = client.post(
        "/api/rate?lang=en", files=upload(("a.xlsx", sample)), headers={"origin": origin}
    )
    assert "only requests sent by itself" in one_line_error(reply, 403)


def test_same_origin_and_no_origin_are_served(client: TestClient, sample: bytes) -> None:
    for headers in ({"origin": "http://testserver"}, {}):
        reply = client.post("/api/rate", files=upload(("a.xlsx", sample)), headers=headers)
        assert reply.status_code == 200


@pytest.mark.parametrize("path", ["/", "/api/limits", "/static/app.js"])
def test_foreign_host_reads_nothing(client: TestClient, path: str) -> None:
    """A DNS-rebinding page reaches the server under its own name: refused everywhere."""
    reply = client.get(f"{path}?lang=en", headers={"host": "evil.example"})
    assert "only at its own address" in one_line_error(reply, 421)


def test_loopback_names_with_the_port_are_this_server(server: str) -> None:
    port = int(server.rsplit(":", 1)[1])
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        reply = httpx.get(f"{server}/api/limits", headers={"host": host}, timeout=30)
        assert reply.status_code == 200, host
    for host in (
        f"evil.example:{port}",
        f"127.0.0.1:{port + 1}",
        "127.0.0.1",
        "",
        f"user@127.0.0.1:{port}",
        f"127.0.0.2.nip.io:{port}",
    ):
        reply = httpx.get(f"{server}/api/limits", headers={"host": host}, timeout=30)
        assert reply.status_code == 421, host
    own = httpx.post(
        f"{server}/api/rate",
        files=upload(("a.xlsx", SAMPLE.read_bytes())),
        headers={"origin": f"http://localhost:{port}", "host": f"localhost:{port}"},
        timeout=60,
    )
    assert own.status_code == 200


def test_the_host_given_with_host_is_accepted_too() -> None:
    guard = OriginGuard(web.create_app(), host="mybox.local")
    lan = {"type": "http", "server": ("192.168.1.5", 8000), "scheme": "http"}
    assert guard.host_ok("mybox.local:8000", lan) and guard.host_ok("192.168.1.5:8000", lan)
    assert not guard.host_ok("localhost:8000", lan)  # not loopback: no loopback names
    assert not guard.host_ok("mybox.local:8001", lan) and not guard.host_ok("evil:8000", lan)


# ---- file names in Content-Disposition -----------------------------------------------------


ODD_NAMES = [
    'a"b.xlsx',
    "Кубок «Осень».xlsx",
    "line\nbreak.xlsx",
    "tab\tand\x01ctl.xlsx",
    "semi;colon,=eq.xlsx",
    "per%41cent 'q'.xlsx",
    "emoji 🎲.xlsx",
    '\r\n"; x=1',
]


def parsed_name(disposition: str) -> str | None:
    """The file name as a mail library (an independent RFC 2231/6266 parser) reads it."""
    message = email.message.Message()
    message["Content-Disposition"] = disposition
    params = message.get_params(header="content-disposition") or []
    extended = [v for k, v in params if k == "filename" and isinstance(v, tuple)]
    return email.utils.collapse_rfc2231_value(extended[0]) if extended else None


@pytest.mark.parametrize("name", ODD_NAMES)
def test_any_download_name_survives_content_disposition(name: str) -> None:
    header = web.disposition(name, "results.xlsx")
    assert header.isascii() and "\r" not in header and "\n" not in header
    assert header.startswith('attachment; filename="')
    assert parsed_name(header) == name
    plain = re.search(r'filename="([^"]*)"', header)
    assert plain and plain.group(1) in (name, "results.xlsx")


def test_plain_ascii_names_stay_as_they_are() -> None:
    assert web.disposition("cup-results.xlsx", "results.xlsx") == (
        "attachment; filename=\"cup-results.xlsx\"; filename*=UTF-8''cup-results.xlsx"
    )


def test_a_download_of_an_odd_upload_name_keeps_the_name(client: TestClient, sample: bytes) -> None:
    name = 'Кубок "Осень"\n.xlsx'
    reply = client.post("/api/results.xlsx", files=upload((name, sample)))
    assert reply.status_code == 200
    assert parsed_name(reply.headers["content-disposition"]) == 'Кубок "Осень"\n-итоги.xlsx'
    rated = client.post("/api/rate", files=upload((name, sample))).json()
    assert rated["files"] == [name]  # the name as the user's browser had it


# ---- the lot seed: one range, the same words in the CLI and on the page ---------------------


@pytest.mark.parametrize("seed", ["-1", str(LOT_SEED_MAX + 1), "1" * 60, "1.5", "x"])
def test_lot_seed_outside_the_range_is_refused_alike(
    client: TestClient, sample: bytes, seed: str
) -> None:
    page = one_line_error(
        client.post(f"/api/rate?lang=en&lot_seed={seed}", files=upload(("a.xlsx", sample))), 400
    )
    assert "0 to 4,294,967,295" in page
    result = CliRunner().invoke(
        main, ["rate", str(SAMPLE), "--json", "--lang", "en", f"--lot-seed={seed}"]
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(page), result.output


def test_lot_seed_at_the_ends_of_the_range_is_used(client: TestClient, sample: bytes) -> None:
    for seed in (0, LOT_SEED_MAX):
        reply = client.post(f"/api/rate?lot_seed={seed}", files=upload(("a.xlsx", sample)))
        assert reply.status_code == 200
        results = client.post(
            "/api/results.xlsx", files=upload(("a.xlsx", sample)), data={"lot_seed": str(seed)}
        )
        assert results.status_code == 200 and results.content[:2] == b"PK"
        cli = CliRunner().invoke(main, ["rate", str(SAMPLE), "--json", f"--lot-seed={seed}"])
        assert cli.exit_code == 0 and json.loads(cli.output)["standings"]


# ---- raw sockets: slow, idle and vanishing clients ------------------------------------------


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=SOCKET_TIMEOUT_S)
    return sock


def upload_head(base: str, length: int, name: str = "slow.xlsx") -> bytes:
    """A request head and the start of a multipart body that promises `length` bytes."""
    host = base.removeprefix("http://")
    part = (
        f'--B\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n\r\n'
    ).encode()
    return (
        f"POST /api/rate?lang=en HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: multipart/form-data; boundary=B\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode() + part


def read_until_closed(sock: socket.socket, limit: int = 1 << 20) -> bytes:
    """Everything the server sends until it closes the connection (bounded)."""
    data = b""
    while len(data) < limit:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
    return data


def test_a_client_that_stops_sending_gets_408_and_is_closed(sample: bytes) -> None:
    bounds = Bounds(workers=1, body_idle=0.5, body_deadline=5.0)
    with live_server(web.create_app(bounds=bounds), bounds) as base, connect(base) as sock:
        sock.sendall(upload_head(base, 1_000_000) + b"x" * 1000)  # then nothing more
        answer = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"stopped arriving" in answer


def test_a_connection_that_never_sends_its_request_is_closed() -> None:
    bounds = Bounds(workers=1, head_timeout=0.5)
    with live_server(web.create_app(bounds=bounds), bounds) as base:
        with connect(base) as silent:
            assert read_until_closed(silent) == b""
        with connect(base) as trickle:  # a request head a few bytes at a time
            head = upload_head(base, 100)
            closed = False
            for start in range(0, len(head), 4):  # bounded by the head's length
                try:
                    trickle.sendall(head[start : start + 4])
                except OSError:
                    closed = True
                    break
                ready, _, _ = select.select([trickle], [], [], 0.2)
                if ready and trickle.recv(1024) == b"":
                    closed = True
                    break
            assert closed or read_until_closed(trickle) == b""


def test_a_dropped_upload_is_logged_in_one_line(
    sample: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    bounds = Bounds(workers=1)
    caplog.set_level(logging.WARNING, logger="mafia_sheets.web")
    with live_server(web.create_app(bounds=bounds), bounds) as base:
        with connect(base) as sock:
            sock.sendall(upload_head(base, 1_000_000) + b"x" * 5000)
        deadline = time.monotonic() + SOCKET_TIMEOUT_S
        while time.monotonic() < deadline and not caplog.records:
            time.sleep(0.05)
        reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
        assert reply.status_code == 200
    records = [r for r in caplog.records if r.name == "mafia_sheets.web"]
    assert len(records) == 1, [r.getMessage() for r in records]
    record = records[0]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "dropped by the client" in record.getMessage() and "\n" not in record.getMessage()


def test_uploads_in_flight_share_one_memory_budget(sample: bytes) -> None:
    """One request holds the whole budget: the next waits, then gets 503; once the first
    is gone, uploads are served again."""
    bounds = Bounds(workers=1, in_flight_requests=1, upload_wait=0.5)
    app = web.create_app(max_upload_bytes=len(sample) * 2, bounds=bounds)
    with live_server(app, bounds) as base:
        whole = uploads.request_cap(uploads.Limits(len(sample) * 2, len(sample) * 2 * 4))
        with connect(base) as holder:
            holder.sendall(upload_head(base, whole) + b"x" * 1000)
            busy = httpx.post(
                f"{base}/api/rate?lang=en", files=upload(("cup.xlsx", sample)), timeout=60
            )
            assert "busy receiving other uploads" in one_line_error(busy, 503)
        deadline = time.monotonic() + SOCKET_TIMEOUT_S
        reply = None
        while time.monotonic() < deadline:  # until the server has noticed the holder left
            reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
            if reply.status_code != 503:
                break
        assert reply is not None and reply.status_code == 200


# ---- a real server process under a flood of idle connections --------------------------------


def _typical_fd_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))  # as on many desktops


def test_eleven_hundred_idle_connections_neither_exhaust_nor_flood_the_log(
    sample: bytes, want: dict[str, Any], tmp_path: Path
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:  # this test process holds the 1,100 client ends
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1300, hard), hard))
    script = (
        "from mafia_sheets.web.app import run_server; "
        "from mafia_sheets.web.bounds import Bounds; "
        "run_server('127.0.0.1', 0, Bounds(workers=1, head_timeout=2.0))"
    )
    log_file = (tmp_path / "stderr.txt").open("wb")  # a file: a full pipe would stall it
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=log_file,
        preexec_fn=_typical_fd_limit,
    )
    idle: list[socket.socket] = []
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+", first_line(process, 60))
        assert url, "the server printed no address"
        base = url.group(0)
        assert httpx.get(f"{base}/api/limits", timeout=30).status_code == 200  # it is up
        for _ in range(1100):
            try:
                idle.append(connect(base))
            except OSError:  # the backlog may refuse some: they cost the server nothing
                continue
        open_fds = len(os.listdir(f"/proc/{process.pid}/fd"))
        assert open_fds < 1024
        deadline, reply = time.monotonic() + 60, None
        while time.monotonic() < deadline:  # idle ones are closed after the head timeout
            try:
                reply = httpx.post(
                    f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=30
                )
                break
            except httpx.TransportError:  # closed at accept while the server is full
                time.sleep(0.5)
        assert reply is not None and reply.json()["result"] == want
    finally:
        for sock in idle:
            sock.close()
        process.terminate()
        process.communicate(timeout=30)
        log_file.close()
    text = (tmp_path / "stderr.txt").read_text(errors="replace")
    assert "Traceback" not in text and len(text.splitlines()) < 10, text[:2000]


def test_the_page_bounds_the_annotated_copy_like_the_cli(sample, monkeypatch):
    from mafia_sheets.reading import safety
    from mafia_sheets.web import jobs

    monkeypatch.setattr(safety, "MAX_ANNOTATE_CELLS", 50)
    reply = jobs.run(jobs.Job("annotated", (Source("cup.xlsx", sample),), "en"))
    assert reply[0] == "refused"
    assert "annotated copy is made for workbooks of up to 50 cells" in reply[2].en


# ---- second round: the page cannot be held ------------------------------------------------


def _trickle(base: str, stop: threading.Event, period: float = 1.0) -> threading.Thread:
    """An upload announcing 200 MB that sends a byte every `period` seconds until `stop`."""

    def run() -> None:
        try:
            with connect(base) as sock:
                sock.sendall(upload_head(base, 200 * 1024**2) + b"x" * 100)
                while not stop.wait(period):
                    sock.sendall(b"x")
        except OSError:
            pass  # closed by the server: that is its right

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_the_budget_is_taken_as_bytes_arrive_not_as_announced(sample: bytes) -> None:
    """Two clients announcing a whole request's worth and sending a byte now and then used
    to turn every upload away; they hold a step of the budget, not the budget."""
    bounds = Bounds(workers=1, in_flight_requests=1, upload_wait=0.5)
    app = web.create_app(max_upload_bytes=50 * 1024**2, bounds=bounds)
    stop = threading.Event()
    with live_server(app, bounds) as base:
        tricklers = [_trickle(base, stop) for _ in range(2)]
        time.sleep(0.5)
        try:
            reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
        finally:
            stop.set()
        assert reply.status_code == 200, reply.text
    for thread in tricklers:
        thread.join(SOCKET_TIMEOUT_S)


def test_a_stalled_upload_loses_its_share_to_one_that_needs_it(sample: bytes) -> None:
    """One upload has taken nearly all the budget, then stopped sending: the next one
    waits, and once the first has made no progress for `upload_stall` it gets the room
    (the stalled one is told its upload stopped arriving)."""
    bounds = Bounds(workers=1, in_flight_requests=1, upload_wait=10.0, upload_stall=1.0)
    app = web.create_app(max_upload_bytes=len(sample) * 2, bounds=bounds)
    with live_server(app, bounds) as base, connect(base) as holder:
        whole = uploads.request_cap(uploads.Limits(len(sample) * 2, len(sample) * 2 * 4))
        holder.sendall(upload_head(base, whole) + b"x" * (whole - 2 * len(sample)))
        time.sleep(0.3)
        reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
        assert reply.status_code == 200, reply.text
        answer = read_until_closed(holder)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


def test_a_connection_past_the_cap_takes_the_place_of_an_idle_one(
    sample: bytes, want: dict[str, Any]
) -> None:
    bounds = Bounds(workers=1, max_connections=5)
    with live_server(web.create_app(bounds=bounds), bounds) as base:
        idle = [connect(base) for _ in range(5)]
        time.sleep(0.3)
        try:
            reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
            assert reply.json()["result"] == want
            closed = 0
            for sock in idle:  # the oldest idle one made room
                sock.settimeout(0.5)
                try:
                    closed += sock.recv(1) == b""
                except (TimeoutError, ConnectionResetError):
                    closed += 0
            assert closed >= 1
        finally:
            for sock in idle:
                sock.close()


def test_one_client_has_at_most_so_many_uploads_in_flight(sample: bytes) -> None:
    """Counted by address for a remote client; a loopback client is counted by connection
    (every local program shares 127.0.0.1)."""
    bounds = Bounds(workers=1, work_deadline=3.0, uploads_per_client=2)

    async def three(host: str, ports: tuple[int, int, int]) -> list[int]:
        app = web.create_app(bounds=bounds)
        statuses = []
        async with asyncio.TaskGroup() as group:
            tasks = []
            for port, name in zip(ports, ("hang.xlsx", "cup.xlsx", "cup.xlsx"), strict=True):
                transport = httpx.ASGITransport(app=app, client=(host, port))
                http = httpx.AsyncClient(transport=transport, base_url="http://testserver")
                tasks.append(
                    group.create_task(http.post("/api/rate", files=upload((name, sample))))
                )
                await asyncio.sleep(0.05)
        statuses = [task.result().status_code for task in tasks]
        return statuses

    workers.TEST_FAULTS["hang.xlsx"] = "hang"
    try:
        remote = asyncio.run(three("192.0.2.7", (1000, 1001, 1002)))
        local = asyncio.run(three("127.0.0.1", (1000, 1001, 1002)))
    finally:
        workers.TEST_FAULTS.clear()
    assert remote[2] == 429 and remote[0] == 504, remote
    assert 429 not in local, local


class _Peer:
    """The transport of one accepted connection from `host`, as the protocol sees it."""

    ports = itertools.count(40000)

    def __init__(self, host: str) -> None:
        self.peer = (host, next(self.ports))
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": self.peer, "sockname": ("192.0.2.1", 8000)}.get(name, default)

    def abort(self) -> None:
        self.closed = True

    close = abort

    def is_closing(self) -> bool:
        return self.closed


def test_one_client_holds_at_most_so_many_connections() -> None:
    """Counted by address; loopback clients (every local program) each by connection. The
    server's own protocol is given connections from made-up addresses (no network)."""
    bounds = Bounds(workers=1, connections_per_client=3)
    config = web.server_config(web.create_app(bounds=bounds), bounds)
    config.load()
    loop, state = asyncio.new_event_loop(), ServerState()

    def accept(host: str) -> tuple[Any, _Peer]:
        protocol = config.http_protocol_class(
            config=config, server_state=state, app_state={}, _loop=loop
        )
        peer = _Peer(host)
        protocol.connection_made(peer)
        if peer.closed:  # asyncio tells a protocol whose transport was closed
            protocol.connection_lost(None)
        return protocol, peer

    try:
        remote = [accept("192.0.2.7") for _ in range(5)]
        assert [peer.closed for _, peer in remote] == [False, False, False, True, True]
        assert not accept("192.0.2.8")[1].closed  # another client is not held back
        assert not any(accept("127.0.0.1")[1].closed for _ in range(5))
        remote[0][0].connection_lost(None)  # one of the three goes: room for one more
        assert not accept("192.0.2.7")[1].closed
        assert accept("192.0.2.7")[1].closed
    finally:
        loop.close()


def test_a_killed_servers_worker_folders_are_removed_by_the_next_start(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    script = (
        "from mafia_sheets.web.app import run_server; "
        "from mafia_sheets.web.bounds import Bounds; "
        "run_server('127.0.0.1', 0, Bounds(workers=2))"
    )

    def start() -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert "http://127.0.0.1:" in first_line(process, 60)
        return process

    first = start()
    deadline = time.monotonic() + 30
    while len(worker_folders(tmp_path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    left = worker_folders(tmp_path)
    assert len(left) == 2
    first.kill()  # no chance to clean up
    first.wait(30)
    second = start()
    try:
        deadline = time.monotonic() + 30
        while any(folder.exists() for folder in left) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(folder.exists() for folder in left)
    finally:
        second.terminate()
        second.communicate(timeout=30)


def test_a_normal_upload_answers_while_idle_and_trickling_clients_hold_the_page(
    sample: bytes, want: dict[str, Any], tmp_path: Path
) -> None:
    """500 idle connections and two trickling uploads, held while a normal upload is sent:
    it is answered, in about the time it takes on a quiet page (figures on stdout)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:  # this test process holds the client ends
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1300, hard), hard))
    script = (
        "from mafia_sheets.web.app import run_server; "
        "from mafia_sheets.web.bounds import Bounds; "
        "run_server('127.0.0.1', 0, Bounds(workers=1))"
    )
    log_file = (tmp_path / "stderr.txt").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=log_file,
        preexec_fn=_typical_fd_limit,
    )
    stop, idle = threading.Event(), []
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+", first_line(process, 60))
        assert url, "the server printed no address"
        base = url.group(0)

        def timed_upload() -> tuple[float, httpx.Response]:
            started = time.monotonic()
            reply = httpx.post(f"{base}/api/rate", files=upload(("cup.xlsx", sample)), timeout=60)
            return time.monotonic() - started, reply

        timed_upload()  # the first one warms the worker up
        quiet, reply = timed_upload()
        assert reply.json()["result"] == want
        tricklers = [_trickle(base, stop) for _ in range(2)]
        for _ in range(500):
            idle.append(connect(base))
        time.sleep(0.5)
        held, reply = timed_upload()
        assert reply.status_code == 200 and reply.json()["result"] == want
        print(f"upload answered in {quiet:.2f} s on a quiet page, {held:.2f} s while held")
        assert all(thread.is_alive() for thread in tricklers)  # still held meanwhile
        assert held <= 10 * max(quiet, 0.2)  # a ratio in one run: about the quiet time
    finally:
        stop.set()
        for sock in idle:
            sock.close()
        process.terminate()
        process.communicate(timeout=30)
        log_file.close()
    text = (tmp_path / "stderr.txt").read_text(errors="replace")
    assert "Traceback" not in text, text[:2000]
