"""Private scratch folders for the temporary files libraries make (xlsxwriter's constant-
memory rows, the page's workers), so that a killed run leaves no results data in the
system temp folder: each folder is removed when its run ends, and the next run (or the
next start of the page) removes the folders of runs that no longer exist.

They live in one base folder per user under the temp folder, `mafia-sheets-<uid>`,
created closed to everyone else. A base found there already is used only when it is a
real folder — never followed through a symbolic link — owned by this user and closed to
everyone else: another user can make that name first (as a folder open to all, or a link
to somewhere else), so a base that fails the check is left alone and this run makes a
fresh private one of its own instead.
"""

from __future__ import annotations

import atexit
import os
import re
import secrets
import shutil
import stat
import tempfile
from contextlib import suppress
from pathlib import Path

_RUN = re.compile(r"(\d+)-[0-9a-f]{8}(?:-[a-z]+)?")  # <pid>-<random>[-<kind>]
_base: Path | None = None
_folder: Path | None = None
_owner = 0  # the process the two above belong to (a forked child makes its own)


def base() -> Path:
    """This user's private base folder, checked once per process (see the module)."""
    global _base, _folder, _owner
    temp = Path(tempfile.gettempdir())
    if _base is not None and _owner == os.getpid() and _base.parent == temp and _is_private(_base):
        return _base
    shared = temp / f"mafia-sheets-{_user()}"
    with suppress(FileExistsError, OSError):
        os.mkdir(shared, 0o700)
    if _is_private(shared):
        _base = shared
    else:  # someone else's, open to others, or a link: not ours to trust
        _base = Path(tempfile.mkdtemp(prefix=f"mafia-sheets-{_user()}-{os.getpid()}-"))
        atexit.register(shutil.rmtree, _base, True)
    _folder, _owner = None, os.getpid()
    return _base


def run_folder() -> str:
    """This process's scratch folder, created on first use (the stale ones removed)."""
    global _folder
    if _folder is not None and _owner == os.getpid() and _folder.is_dir():
        return os.fspath(_folder)
    remove_stale()
    _folder = Path(_new_folder(f"{os.getpid()}-{secrets.token_hex(4)}"))
    atexit.register(tidy)  # runs after the folder's removal (last in, first out)
    atexit.register(shutil.rmtree, _folder, True)
    return os.fspath(_folder)


def private_folder(kind: str) -> str:
    """A new private folder named for this process (`kind`: what it is for), which the
    caller removes; if this process is killed, the next run removes it."""
    return _new_folder(f"{os.getpid()}-{secrets.token_hex(4)}-{kind}")


def _new_folder(name: str) -> str:
    """`name` made in the base (made again if another run has just removed it, empty)."""
    try:
        return _make(name)
    except FileNotFoundError:
        return _make(name)


def _make(name: str) -> str:
    folder = base() / name
    folder.mkdir(mode=0o700)
    return os.fspath(folder)


def tidy() -> None:
    """Remove the base when nothing is left in it: no run leaves even an empty folder."""
    if _base is not None and _owner == os.getpid():
        with suppress(OSError):
            os.rmdir(_base)


def remove_stale() -> None:
    """Remove the scratch folders of processes that no longer run, and the private bases
    that runs which could not trust the shared one made and did not live to remove."""
    home = base()
    with suppress(OSError):
        for entry in os.scandir(home):
            found = _RUN.fullmatch(entry.name)
            if found and not process_running(int(found.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)
    own = re.compile(rf"mafia-sheets-{re.escape(_user())}-(\d+)-\w+")
    with suppress(OSError):
        for entry in os.scandir(home.parent):
            found = own.fullmatch(entry.name)
            if found and not process_running(int(found.group(1))) and _is_private(Path(entry)):
                shutil.rmtree(entry.path, ignore_errors=True)


def _is_private(folder: Path) -> bool:
    """A real folder (not a link), this user's, closed to the group and to others."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the folder's rights are its ACL, made by mkdtemp
        return True
    return bool(info.st_uid == getuid() and not info.st_mode & 0o077)


def _user() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid else (os.environ.get("USERNAME") or "user")


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
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A process that has ended but was never waited for (a killed command's work, whose
    new parent does not reap it) still answers to its id: it writes nothing any more."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[-1].split()
    except OSError:
        return False  # no /proc: judged as running
    return fields[:1] == [b"Z"]
