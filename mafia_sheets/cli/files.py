"""Writing results safely (SPEC §6): never over an input, never half a file.

The most common failure of all is "results.xlsx is open in Excel"; it and its kin (a
read-only folder, a missing folder, a full disk) become one OutputWriteError line in RU
and EN. A write goes to a temporary file beside the target and is renamed over it only
when complete, so an interrupted run leaves the previous results intact.

A killed run leaves nothing behind: where the system allows (Linux), the temporary file
has no name until it is complete (O_TMPFILE), so a kill leaves no `*.tmp` beside the
target; elsewhere its name carries the writer's process id and the next write to that
folder removes the temporary files of writers no longer running.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from ..errors import OutputWriteError
from ..scratch import process_running
from ..text import Text
from .deadline import checkpoint

StrPath = str | os.PathLike[str]

# Windows reports a file open in Excel as access denied (5), a sharing (32) or lock (33)
# violation; POSIX as EACCES/EPERM, a read-only file system as EROFS.
_LOCKED_WINERRORS = {5, 32, 33}
_LOCKED_ERRNOS = {
    getattr(errno, name, None) for name in ("EACCES", "EPERM", "EROFS", "EBUSY", "ETXTBSY")
} - {None}
_FULL_ERRNOS = {getattr(errno, name, None) for name in ("ENOSPC", "EDQUOT", "EFBIG")} - {None}


# What each kind of output is, for the refusal of a wrong extension.
_KINDS = {
    ".xlsx": Text("книга Excel", "an Excel workbook"),
    ".json": Text("файл JSON", "a JSON file"),
    ".csv": Text("таблица CSV", "a CSV table"),
}


def guard_output(path: StrPath, inputs: Sequence[StrPath], suffix: str = ".xlsx") -> None:
    """Refuse an output that would overwrite an input, lacks its `suffix` (.xlsx unless
    said), or cannot be a file.

    Called before any work, so a long rating is not computed only to be thrown away.
    """
    target, shown = Path(path), os.fspath(path)
    if target.is_dir():
        _check_target(target, shown)
    if target.suffix.lower() != suffix:
        kind = _KINDS[suffix]
        raise OutputWriteError(
            Text(
                f"{shown}: результаты — {kind.ru}, их нужно сохранять с расширением {suffix}. "
                f"Выберите имя вроде results{suffix}.",
                f"{shown}: the results are {kind.en} and must be saved with the {suffix} "
                f"extension. Choose a name like results{suffix}.",
            )
        )
    _check_target(target, shown)
    for source in inputs:
        if _same_file(target, Path(source)):
            raise OutputWriteError(
                Text(
                    f"{shown} — один из входных протоколов: результаты никогда не записываются "
                    "поверх протокола. Выберите другое имя, например results.xlsx.",
                    f"{shown} is one of the input protocols: the results never overwrite a "
                    "protocol. Choose another output name, e.g. results.xlsx.",
                )
            )


def guard_new_protocol(path: StrPath, force: bool) -> None:
    """A new protocol (a template, a seating's, an import) never replaces an existing file
    unless `--force` says so: the file there may be a protocol with its games typed in."""
    target, shown = Path(path), os.fspath(path)
    if force or not target.exists():
        return
    raise OutputWriteError(
        Text(
            f"{shown} уже есть: новый протокол не записывается поверх файла — в нём могут "
            "быть результаты игр. Дайте другое имя или добавьте --force, чтобы заменить его.",
            f"{shown} already exists: a new protocol is not written over a file — it may "
            "hold the games' results. Choose another name, or add --force to replace it.",
        )
    )


def write_atomic(path: StrPath, data: bytes) -> None:
    """Write `data` to `path` completely or not at all (temp file, fsync, rename)."""
    target, shown = Path(path), os.fspath(path)
    _check_target(target, shown)
    remove_stale_temps(target.parent)
    temp: Path | None = None
    try:
        anonymous = _open_anonymous(target.parent)
        if anonymous is None:
            temp, handle = _open_temp(target)
        else:
            handle = anonymous
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            if anonymous is not None:  # named only now that it is complete
                temp = _name_anonymous(stream.fileno(), target)
        if temp is None:  # the system refused to name it: an ordinary temporary file
            temp, handle = _open_temp(target)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
        checkpoint()  # past the deadline nothing is renamed into place
        os.replace(temp, target)
        temp = None
        _sync_folder(target.parent)
    except OSError as exc:
        raise _write_error(exc, target, shown) from exc
    finally:
        if temp is not None:
            with suppress(OSError):
                temp.unlink()


def _check_target(target: Path, shown: str) -> None:
    if target.is_dir():
        raise OutputWriteError(
            Text(
                f"{shown} — это папка. Укажите имя файла для результатов, например "
                f"{target / 'results.xlsx'}.",
                f"{shown} is a folder. Give a file name for the results, e.g. "
                f"{target / 'results.xlsx'}.",
            )
        )
    if not target.parent.is_dir():
        raise _missing_folder(target, shown)


def _missing_folder(target: Path, shown: str) -> OutputWriteError:
    folder = os.fspath(target.parent)
    return OutputWriteError(
        Text(
            f"{shown} не удаётся записать: папки {folder} не существует. Создайте её или "
            "выберите другую папку.",
            f"{shown} cannot be written: the folder {folder} does not exist. Create it or "
            "choose "
            "another folder.",
        )
    )


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def _open_temp(target: Path) -> tuple[Path, int]:
    """A new file beside the target; created with mode 0o666 so the umask applies as usual."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = _temp_name(target)
        try:
            return temp, os.open(temp, flags, 0o666)
        except FileExistsError:
            continue


def _open_anonymous(folder: Path) -> int | None:
    """An unnamed file in `folder` (Linux O_TMPFILE), or None where that is not offered."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not Path("/proc/self/fd").is_dir():
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY, 0o666)
    except OSError:  # a file system without O_TMPFILE support
        return None


def _name_anonymous(handle: int, target: Path) -> Path | None:
    """Give the complete unnamed file a temporary name beside the target.

    A dir fd makes os.link call linkat(…, AT_SYMLINK_FOLLOW): plain link() would try to
    link /proc's symlink itself."""
    try:
        fds = os.open("/proc/self/fd", os.O_RDONLY)
    except OSError:
        return None
    try:
        while True:
            temp = _temp_name(target)
            try:
                os.link(str(handle), temp, src_dir_fd=fds, follow_symlinks=True)
                return temp
            except FileExistsError:
                continue
            except OSError:
                return None
    finally:
        os.close(fds)


_STALE = re.compile(r"\..+\.(\d+)-[0-9a-f]{8}\.tmp")


def remove_stale_temps(folder: Path) -> None:
    """Remove the temporary files that killed writers left in `folder`."""
    with suppress(OSError):
        for entry in os.scandir(folder):
            found = _STALE.fullmatch(entry.name)
            if found and not process_running(int(found.group(1))):
                with suppress(OSError):
                    os.unlink(entry.path)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (not on Windows)."""
    with suppress(OSError, AttributeError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def _write_error(exc: OSError, target: Path, shown: str) -> OutputWriteError:
    code = exc.errno
    if (
        isinstance(exc, PermissionError)
        or code in _LOCKED_ERRNOS
        or getattr(exc, "winerror", None) in _LOCKED_WINERRORS
    ):
        return OutputWriteError(
            Text(
                f"{shown} не удаётся записать: файл открыт в Excel или другой программе, либо "
                "папка только для чтения. Закройте файл и запустите снова.",
                f"{shown} cannot be written: it is open in Excel or another program, or the "
                "folder "
                "is read-only. Close it and run again.",
            )
        )
    if code in _FULL_ERRNOS:
        return OutputWriteError(
            Text(
                f"{shown} не удаётся записать: на диске нет места. Освободите место или "
                "сохраните на другой диск.",
                f"{shown} cannot be written: no space left on the disk. Free some space or write "
                "to another disk.",
            )
        )
    if isinstance(exc, IsADirectoryError):
        return OutputWriteError(
            Text(
                f"{shown} — это папка. Укажите имя файла для результатов, например results.xlsx.",
                f"{shown} is a folder. Give a file name for the results, e.g. results.xlsx.",
            )
        )
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return _missing_folder(target, shown)
    reason = exc.strerror or str(exc)
    return OutputWriteError(
        Text(
            f"{shown} не удаётся записать ({reason}). Выберите другую папку или имя файла.",
            f"{shown} cannot be written ({reason}). Choose another folder or file name.",
        )
    )


def _same_file(target: Path, source: Path) -> bool:
    """True when writing `target` would replace `source` (also via links or another case)."""
    try:
        return os.path.samefile(target, source)
    except OSError:  # one of them does not exist (yet): compare where the paths lead
        pass
    try:
        return os.path.normcase(target.resolve()) == os.path.normcase(source.resolve())
    except (OSError, RuntimeError):  # a link loop leads nowhere: reading it will say so
        return False
