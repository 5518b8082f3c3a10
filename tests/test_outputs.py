"""SPEC §6: results are written atomically, never over an input, with one clear line on failure."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mafia_sheets.cli import files as outputs
from mafia_sheets.cli.commands import main
from mafia_sheets.cli.files import guard_output, write_atomic
from mafia_sheets.errors import ExitStatus, OutputWriteError

LOCKED_EN = (
    "results.xlsx cannot be written: it is open in Excel or another program, or the "
    "folder is read-only. Close it and run again."
)
LOCKED_RU = (
    "results.xlsx не удаётся записать: файл открыт в Excel или другой программе, "
    "либо папка только для чтения. Закройте файл и запустите снова."
)


@pytest.fixture
def in_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in tmp_path, so the output is named `results.xlsx` as a judge would type it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _failure(path: os.PathLike[str] | str, data: bytes = b"new") -> OutputWriteError:
    with pytest.raises(OutputWriteError) as caught:
        write_atomic(path, data)
    error = caught.value
    assert isinstance(error, OSError)
    assert error.exit_status == ExitStatus.UNUSABLE
    assert "\n" not in error.en and "\n" not in error.ru
    return error


def test_writes_the_bytes_and_nothing_else(in_folder: Path) -> None:
    write_atomic("results.xlsx", b"first")
    write_atomic("results.xlsx", b"second")
    assert (in_folder / "results.xlsx").read_bytes() == b"second"
    assert [p.name for p in in_folder.iterdir()] == ["results.xlsx"]


def test_new_file_gets_the_usual_permissions(in_folder: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic("results.xlsx", b"x")
    finally:
        os.umask(old)
    assert (in_folder / "results.xlsx").stat().st_mode & 0o777 == 0o644


def test_file_open_in_excel(in_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses to replace a file Excel holds open; so does a read-only folder."""
    (in_folder / "results.xlsx").write_bytes(b"old results")

    def locked(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", locked)
    error = _failure("results.xlsx")
    assert (error.en, error.ru) == (LOCKED_EN, LOCKED_RU)
    assert error.text("ru") == LOCKED_RU
    assert (in_folder / "results.xlsx").read_bytes() == b"old results"
    assert [p.name for p in in_folder.iterdir()] == ["results.xlsx"]  # no temp file left


def test_sharing_violation_reads_as_open_in_excel(
    in_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def shared(src: object, dst: object) -> None:
        exc = OSError(errno.EIO, "The process cannot access the file")
        exc.winerror = 32  # type: ignore[attr-defined]  # how Windows reports it
        raise exc

    monkeypatch.setattr(os, "replace", shared)
    assert _failure("results.xlsx").en == LOCKED_EN


def test_read_only_folder(in_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Creating the temp file fails first; root ignores chmod, so the denial is simulated."""

    def denied(*args: object, **kwargs: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    assert _failure("results.xlsx").en == LOCKED_EN
    assert list(in_folder.iterdir()) == []


def test_disk_full_leaves_no_temp_file(in_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    error = _failure("results.xlsx")
    assert error.en == (
        "results.xlsx cannot be written: no space left on the disk. Free some "
        "space or write to another disk."
    )
    assert "на диске нет места" in error.ru
    assert list(in_folder.iterdir()) == []


def test_interrupted_write_leaves_no_temp_file(
    in_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic("results.xlsx", b"x")
    assert list(in_folder.iterdir()) == []


def test_missing_folder(in_folder: Path) -> None:
    error = _failure(Path("no_such_folder") / "results.xlsx")
    assert (
        "the folder no_such_folder does not exist. Create it or choose another folder." in error.en
    )
    assert "папки no_such_folder не существует" in error.ru
    assert list(in_folder.iterdir()) == []


def test_folder_as_target(in_folder: Path) -> None:
    (in_folder / "results.xlsx").mkdir()
    error = _failure("results.xlsx")
    assert error.en.startswith("results.xlsx is a folder. Give a file name for the results")
    assert error.ru.startswith("results.xlsx — это папка.")


def test_other_errors_keep_the_reason(in_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def odd(src: object, dst: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", odd)
    error = _failure("results.xlsx")
    assert error.en == (
        "results.xlsx cannot be written (Input/output error). Choose another folder or file name."
    )
    assert list(in_folder.iterdir()) == []


# ---- guard_output --------------------------------------------------------------------------


def _guard_refusal(path: Path | str, inputs: list[Path | str]) -> OutputWriteError:
    with pytest.raises(OutputWriteError) as caught:
        guard_output(path, inputs)
    return caught.value


def test_refuses_to_overwrite_an_input(in_folder: Path) -> None:
    (in_folder / "cup.xlsx").write_bytes(b"protocol")
    error = _guard_refusal("cup.xlsx", ["other.xlsx", in_folder / "cup.xlsx"])
    assert error.en == (
        "cup.xlsx is one of the input protocols: the results never overwrite a "
        "protocol. Choose another output name, e.g. results.xlsx."
    )
    assert "один из входных протоколов" in error.ru
    assert (in_folder / "cup.xlsx").read_bytes() == b"protocol"


def test_sees_through_other_spellings_and_links(in_folder: Path) -> None:
    (in_folder / "sub").mkdir()
    (in_folder / "cup.xlsx").write_bytes(b"protocol")
    (in_folder / "link.xlsx").symlink_to(in_folder / "cup.xlsx")
    os.link(in_folder / "cup.xlsx", in_folder / "hard.xlsx")
    for output in ("sub/../cup.xlsx", "./cup.xlsx", "link.xlsx", "hard.xlsx"):
        assert "one of the input protocols" in _guard_refusal(output, ["cup.xlsx"]).en


def test_refuses_names_that_are_not_xlsx(in_folder: Path) -> None:
    for output in ("results.xls", "results.csv", "results", "results.xlsx.bak"):
        error = _guard_refusal(output, [])
        assert "must be saved with the .xlsx extension" in error.en
        assert "с расширением .xlsx" in error.ru


def test_refuses_a_folder_and_a_missing_folder(in_folder: Path) -> None:
    (in_folder / "out.xlsx").mkdir()
    assert "is a folder" in _guard_refusal("out.xlsx", []).en
    assert "does not exist" in _guard_refusal("missing/results.xlsx", []).en


def test_accepts_a_new_output_beside_the_inputs(in_folder: Path) -> None:
    (in_folder / "cup.xlsx").write_bytes(b"protocol")
    guard_output("results.XLSX", ["cup.xlsx"])
    guard_output(in_folder / "cup-results.xlsx", [in_folder / "cup.xlsx", "missing.xlsx"])
    (in_folder / "results.xlsx").write_bytes(b"last week's results")
    guard_output("results.xlsx", ["cup.xlsx"])  # replacing old results is the normal case


def test_write_error_names_the_path_as_given(
    in_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_permitted(src: object, dst: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(outputs.os, "replace", not_permitted)
    (in_folder / "out").mkdir()
    error = _failure(Path("out") / "results.xlsx")
    assert error.en.startswith(
        f"{Path('out') / 'results.xlsx'} cannot be written: it is open in Excel"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["template", "{out}"],
        ["seat", "--players", "10", "--rounds", "1", "--protocol", "{out}"],
    ],
)
def test_a_new_protocol_never_replaces_an_existing_file_without_force(tmp_path, command):
    out = tmp_path / "cup.xlsx"
    out.write_bytes(b"the judge's filled protocol")
    args = [part.format(out=out) for part in command]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "--force" in refused.stderr
    assert out.read_bytes() == b"the judge's filled protocol"
    assert not list(tmp_path.glob("*.tmp*"))
    replaced = CliRunner().invoke(main, [*args, "--force"])
    assert replaced.exit_code == 0, replaced.output
    assert out.read_bytes().startswith(b"PK")
