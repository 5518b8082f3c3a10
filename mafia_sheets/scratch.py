"""One scratch folder per run for the temporary files libraries make (xlsxwriter's
constant-memory rows), so a killed run leaves no results data in the system temp folder:
the folder is removed when the run ends, and the next run removes the folders of runs
that no longer exist."""

from __future__ import annotations

import atexit
import os
import re
import secrets
import shutil
import tempfile
from contextlib import suppress
from pathlib import Path

_RUN = re.compile(r"(\d+)-[0-9a-f]{8}")
_folder: Path | None = None
_owner = 0


def run_folder() -> str:
    """This process's scratch folder, created on first use."""
    global _folder, _owner
    if _folder is not None and _owner == os.getpid() and _folder.is_dir():
        return os.fspath(_folder)
    base = Path(tempfile.gettempdir()) / f"mafia-sheets-{_user()}"
    base.mkdir(mode=0o700, exist_ok=True)
    _remove_stale(base)
    _folder = base / f"{os.getpid()}-{secrets.token_hex(4)}"
    _folder.mkdir(mode=0o700)
    _owner = os.getpid()
    atexit.register(shutil.rmtree, _folder, True)
    return os.fspath(_folder)


def _user() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid else (os.environ.get("USERNAME") or "user")


def _remove_stale(base: Path) -> None:
    with suppress(OSError):
        for entry in os.scandir(base):
            found = _RUN.fullmatch(entry.name)
            if found and not process_running(int(found.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)


def process_running(pid: int) -> bool:
    """Whether the writer with this process id may still be at work (then its files stay)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # not ours to judge: left alone
    return True
