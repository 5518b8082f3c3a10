"""Every cost the page may incur, bounded in one place (issue 9: isolation and limits).

The page is a local server that any website the judge visits may try to reach, and a
workbook may be built to make a reader crash or run forever. So evaluation happens in
worker processes with their own memory and time limits, uploads in flight share one memory
budget, and slow or idle connections are closed. The values below are the defaults of
`serve`; tests build a `Bounds` with small ones.
"""

from __future__ import annotations

from dataclasses import dataclass

GIB = 1024**3

# Evaluations run in this many pre-started worker processes. Three on a 2-core machine:
# one large protocol (about a minute at 100,000 games) leaves two workers for other users.
WORKERS = 3

# Address space of one worker (RLIMIT_AS). The largest protocol the page accepts (100,000
# games, ~40 MB) rates in 1.5 GB (benchmarks/results.md); twice that is headroom, and the
# judged bound for any hostile file is 3 GB. Past it an allocation fails in that worker only.
WORKER_MEMORY_BYTES = 3 * GIB

# Wall clock for one request's work in a worker. A tournament's protocol rates in well
# under a second; a worker still busy after 50 s is stuck on a hostile file (or the
# protocol is one for the command line, whose deadline is its own) and is killed.
WORK_DEADLINE_S = 50.0

# How long a request waits for a free worker before it is told the page is busy (503).
WORKER_WAIT_S = 45.0

# The wait for a worker and the work share this deadline: every answer comes within it
# after its upload has arrived (a burst of uploads is served in turn, none waits forever).
ANSWER_DEADLINE_S = 55.0

# All uploads being received or evaluated at once share this many request-sized budgets
# (two full 200 MB requests at the default limits): eight at-limit uploads used to take 3.6 GB.
IN_FLIGHT_REQUESTS = 2

# A request whose upload does not fit in the budget waits this long for room, then gets 503.
# The budget is taken as the bytes arrive, never as a request announces them.
UPLOAD_WAIT_S = 15.0

# An upload that has sent nothing for this long loses its share of the budget to an upload
# that needs the room (and is answered 408): a few stalled clients cannot hold the page.
UPLOAD_STALL_S = 5.0

# One client (an address other than loopback) may hold this many connections and this many
# uploads at once. Loopback clients (every local browser, and any page they visit, share
# 127.0.0.1) are counted by connection, which holds at most one request at a time.
CONNECTIONS_PER_CLIENT = 32
UPLOADS_PER_CLIENT = 2

# A client that stops sending its body for this long gets 408 and the connection is closed.
BODY_IDLE_S = 30.0

# The whole body must arrive within this time (200 MB over a slow Wi-Fi fits easily).
BODY_DEADLINE_S = 300.0

# A new connection (or a kept-alive one after an answer) must send its request head within
# this time: connections opened and left idle hold a file descriptor each.
HEAD_TIMEOUT_S = 10.0

# uvicorn's idle time between requests on a kept-alive connection.
KEEP_ALIVE_S = 5

# Connections held at once, so that a flood never exhausts the process's file descriptors
# (1,024 on many systems). A connection past the cap takes the place of the longest-idle one
# (connected, or between requests, but sending no request): idle and slow clients are
# closed before they can fill the cap; only when every one is mid-request is it refused.
MAX_CONNECTIONS = 500

# Connections accepted in one go before the server looks at them (the listen backlog, which
# asyncio also uses as its accept burst): up to two bursts may be open beside the cap.
BACKLOG = 100

# File descriptors kept free beside the connections and bursts: worker pipes, logging.
FD_RESERVE = 64


@dataclass(frozen=True)
class Bounds:
    workers: int = WORKERS
    worker_memory: int = WORKER_MEMORY_BYTES
    work_deadline: float = WORK_DEADLINE_S
    worker_wait: float = WORKER_WAIT_S
    answer_deadline: float = ANSWER_DEADLINE_S
    in_flight_requests: int = IN_FLIGHT_REQUESTS
    upload_wait: float = UPLOAD_WAIT_S
    upload_stall: float = UPLOAD_STALL_S
    body_idle: float = BODY_IDLE_S
    body_deadline: float = BODY_DEADLINE_S
    head_timeout: float = HEAD_TIMEOUT_S
    keep_alive: int = KEEP_ALIVE_S
    max_connections: int = MAX_CONNECTIONS
    connections_per_client: int = CONNECTIONS_PER_CLIENT
    uploads_per_client: int = UPLOADS_PER_CLIENT
