"""A live uvicorn server on 127.0.0.1 for the web tests (API concurrency and the browser),
with the same connection bounds as `mafia-sheets serve`."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from mafia_sheets.web.app import server_config
from mafia_sheets.web.bounds import Bounds


@contextmanager
def live_server(app: Any, bounds: Bounds | None = None) -> Iterator[str]:
    """uvicorn on 127.0.0.1 with a free port, in a background thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(app, bounds or Bounds()))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def first_line(process: subprocess.Popen[Any], timeout: float) -> str:
    """The first line a process prints, read without ever blocking past `timeout`."""
    assert process.stdout is not None
    fd, data, deadline = process.stdout.fileno(), b"", time.monotonic() + timeout
    while b"\n" not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    return data.decode(errors="replace").split("\n", 1)[0]
