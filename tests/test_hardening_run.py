"""The command line under attack, second round: a deadline on every evaluation, path
errors and season folders answered in one line each, a scratch base nobody else can
prepare, every user text escaped where it is written, invisible characters folded for the
look-alike check in every layout.

Commands run in a subprocess wherever the watching process or a kill must be real.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import openpyxl
import pytest
from builders import Proto, names
from click.testing import CliRunner
from layout_books import club_rows, russian_paper, ukrainian_club

from mafia_sheets import scratch
from mafia_sheets.cli import deadline
from mafia_sheets.cli.commands import main
from mafia_sheets.cli.deadline import DEFAULT_TIMEOUT_S
from mafia_sheets.cli.files import write_atomic
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "tournament-ru.xlsx"

CLI = [sys.executable, "-m", "mafia_sheets"]


def cli(*args: object, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120):
    return subprocess.run(
        [*CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A protocol that takes a few seconds to rate."""
    from mafia_sheets.testing.synth import generate

    path = tmp_path_factory.mktemp("big") / "big.xlsx"
    generate(1_500, seed=7).to_xlsx(str(path))
    return path


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file())


# ---- a deadline on every evaluation ----------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "rate"])
def test_the_deadline_stops_the_run_with_one_line(big: Path, tmp_path: Path, command: str) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    args = [command, big, "--timeout", "0.3", "--lang", "en"]
    args += ["-o", "out.xlsx"] if command == "rate" else ["--annotate", "copy.xlsx"]
    run = cli(*args, cwd=tmp_path, env={**os.environ, "TMPDIR": str(temp)})
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert lines[-1] == (
        "Error: The work took longer than 0.3 s (--timeout) and was stopped; nothing was "
        "written. If the protocol really is that large, give a larger --timeout (0: no limit)."
    )
    assert "Traceback" not in run.stderr
    assert _files(tmp_path) == []  # no output, nothing in the scratch folder


def test_a_run_leaves_not_even_an_empty_folder_in_the_temp_folder(tmp_path: Path) -> None:
    proto = Proto()
    proto.add_game(1, names("A"), "Ничья")
    (tmp_path / "p.xlsx").write_bytes(proto.to_bytes())
    temp = tmp_path / "tmp"
    temp.mkdir()
    run = cli(
        "rate", "p.xlsx", "-o", "out.xlsx", cwd=tmp_path, env={**os.environ, "TMPDIR": str(temp)}
    )
    assert run.returncode == 0, run.stderr
    assert list(temp.iterdir()) == []


class _FiresTheTimer:
    """Runs the deadline's handler in a finaliser, where Python prints its exception and
    goes on — as it does when the timer fires inside a garbage-collector callback."""

    def __del__(self) -> None:
        handler = signal.getsignal(signal.SIGALRM)
        assert callable(handler)
        handler(signal.SIGALRM, None)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_deadline_whose_raise_was_swallowed_still_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def evaluate_past_the_deadline(*args: object, **kwargs: object) -> object:
        outcome = evaluate(*args, **kwargs)  # type: ignore[arg-type]
        _FiresTheTimer()  # freed at once: its raise is swallowed
        return outcome

    monkeypatch.setattr("mafia_sheets.pipeline.evaluate", evaluate_past_the_deadline)
    out = tmp_path / "out.xlsx"
    result = CliRunner().invoke(main, ["rate", str(SAMPLE), "-o", str(out), "--timeout", "600"])
    assert result.exit_code == 2, result.output
    assert "(--timeout) и остановлена; ничего не записано" in result.output.strip().splitlines()[-1]
    assert not out.exists()


def test_past_the_deadline_no_output_is_renamed_into_place(tmp_path: Path) -> None:
    target = tmp_path / "out.xlsx"
    deadline._overrun[:] = [deadline.DeadlinePassed(deadline.overrun(1.0))]
    try:
        with pytest.raises(deadline.DeadlinePassed):
            write_atomic(target, b"results")
    finally:
        deadline._overrun.clear()
    assert list(tmp_path.iterdir()) == []  # neither the output nor its temporary file


def test_the_deadline_in_process_is_one_line_too(big: Path, tmp_path: Path) -> None:
    """Inside another program (a test runner) a timer stops the work at its next step."""
    result = CliRunner().invoke(
        main, ["rate", str(big), "-o", str(tmp_path / "out.xlsx"), "--timeout", "0.2"]
    )
    assert result.exit_code == 2
    assert (
        result.output.strip()
        .splitlines()[-1]
        .startswith(
            "Ошибка: Работа заняла больше 0,2 с (--timeout) и остановлена; ничего не записано."
        )
    )
    assert not (tmp_path / "out.xlsx").exists()


def test_no_deadline_with_zero_and_a_generous_default(tmp_path: Path) -> None:
    proto = Proto()
    proto.add_game(1, names("A"))
    path = tmp_path / "p.xlsx"
    path.write_bytes(proto.to_bytes())
    assert CliRunner().invoke(main, ["check", str(path), "--timeout", "0"]).exit_code == 0
    shown = CliRunner().invoke(main, ["rate", "--help"]).output
    assert "--timeout SECONDS" in shown and f"default: {DEFAULT_TIMEOUT_S}" in shown
    assert DEFAULT_TIMEOUT_S >= 300


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the worker")
def test_a_run_that_dies_of_a_signal_is_answered_in_one_line(big: Path, tmp_path: Path) -> None:
    """What a reader's abort does to the process doing the work: the command says so."""
    process = subprocess.Popen(
        [*CLI, "rate", str(big), "-o", "out.xlsx", "--lang", "en"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    child: list[int] = []
    while not child and time.monotonic() < deadline and process.poll() is None:
        child = _children(process.pid)
        time.sleep(0.05)
    assert child, "the command did not fork its work"
    time.sleep(0.3)
    os.kill(child[0], signal.SIGABRT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.strip().splitlines()[-1] == (
        f"Error: Reading {big.name} crashed the process (signal 6): the file is damaged or "
        "built to break readers; nothing was written. Open it in Excel or LibreOffice and "
        "save it again as .xlsx."
    )
    assert not (tmp_path / "out.xlsx").exists()


# ---- path errors and season folders ----------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "rate"])
def test_a_symlink_loop_is_a_one_line_refusal_naming_it(tmp_path: Path, command: str) -> None:
    (tmp_path / "a.xlsx").symlink_to("b.xlsx")
    (tmp_path / "b.xlsx").symlink_to("a.xlsx")
    run = cli(command, "a.xlsx", "--lang", "en", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "Error: a.xlsx cannot be read (Too many levels of symbolic links). Check the file "
        "and try again."
    ]


def test_a_season_folder_skips_what_is_no_workbook_and_rates_the_rest(tmp_path: Path) -> None:
    season = tmp_path / "season"
    season.mkdir()
    proto = Proto()
    proto.add_game(1, names("A"), "Ничья")
    (season / "night1.xlsx").write_bytes(proto.to_bytes())
    (season / "._night1.xlsx").write_bytes(b"\x00\x05\x16\x07 AppleDouble")
    (season / "folder.xlsx").mkdir()
    (season / "empty.xlsx").write_bytes(b"")
    os.mkfifo(season / "pipe.xlsx")
    (season / "broken.xlsx").symlink_to("nowhere.xlsx")
    run = cli("rate", season, "-o", "out.xlsx", "--lang", "en", cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"{season}/._night1.xlsx: skipped — a macOS metadata file (AppleDouble), not a protocol",
        f"{season}/broken.xlsx: skipped — cannot be read (No such file or directory)",
        f"{season}/empty.xlsx: skipped — an empty file (0 bytes)",
        f"{season}/folder.xlsx: skipped — a folder, not a file",
        f"{season}/pipe.xlsx: skipped — not a regular file (a pipe or a device)",
    ]
    assert (tmp_path / "out.xlsx").exists()
    assert "night1.xlsx: read: one row per seat, 1 game" in run.stdout


def test_a_fifo_named_directly_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.xlsx")
    run = cli("check", "pipe.xlsx", "--lang", "en", cwd=tmp_path, timeout=60)
    assert run.returncode == 2
    assert "pipe.xlsx is not a regular file" in run.stderr


# ---- the scratch base ------------------------------------------------------------------------


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setattr(scratch, "_base", None)
    monkeypatch.setattr(scratch, "_folder", None)
    return folder


def _shared(temp: Path) -> Path:
    return temp / f"mafia-sheets-{os.getuid()}"


def test_the_scratch_base_is_created_private(temp: Path) -> None:
    folder = Path(scratch.run_folder())
    assert folder.parent == _shared(temp)
    for path in (folder, folder.parent):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def test_a_premade_open_base_is_not_used(temp: Path) -> None:
    shared = _shared(temp)
    shared.mkdir()
    shared.chmod(0o777)
    folder = Path(scratch.run_folder())
    assert shared not in folder.parents and not any(shared.iterdir())
    assert stat.S_IMODE(folder.parent.stat().st_mode) & 0o077 == 0


def test_a_base_that_is_a_link_is_never_followed(temp: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    _shared(temp).symlink_to(elsewhere)
    folder = Path(scratch.run_folder())
    assert not any(elsewhere.iterdir())
    assert elsewhere not in folder.resolve().parents


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a folder to another user")
def test_a_base_owned_by_another_user_is_not_used(temp: Path) -> None:
    shared = _shared(temp)
    shared.mkdir(mode=0o700)
    os.chown(shared, 65534, 65534)
    assert shared not in Path(scratch.run_folder()).parents


def test_folders_of_dead_processes_are_removed_and_live_ones_kept(temp: Path) -> None:
    probe = [sys.executable, "-c", "import os; print(os.getpid())"]
    dead = subprocess.run(probe, capture_output=True, text=True).stdout.strip()
    base = scratch.base()
    stale = base / f"{dead}-0123abcd-worker"
    stale.mkdir()
    (stale / "rows.tmp").write_bytes(b"x")
    mine = Path(scratch.private_folder("worker"))
    scratch.remove_stale()
    assert not stale.exists() and mine.is_dir()


# ---- user text escaped where it is written ---------------------------------------------------


@pytest.mark.parametrize("layout", ["rows", "blank", "wide"])
def test_a_roster_with_control_characters_makes_a_template(tmp_path: Path, layout: str) -> None:
    roster = tmp_path / "players.csv"
    roster.write_bytes("Кот\x1b[31m\nЛис\x07\n<r>Ёж</r>\n".encode())
    out = tmp_path / "t.xlsx"
    result = CliRunner().invoke(
        main, ["template", str(out), "--players", str(roster), "--layout", layout]
    )
    assert result.exit_code == 0, result.output
    book = openpyxl.load_workbook(out)
    found = {
        cell.value
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
    }
    assert {"Кот\\x1b[31m", "Лис\\x07", "<r>Ёж</r>"} <= found


# ---- invisible characters fold for the look-alike check, in every layout ----------------------

LAYOUTS = {
    "rows": lambda proto, tables: proto.to_bytes(),
    "wide": club_rows,
    "blank": russian_paper,
    "ukrainian blank": ukrainian_club,
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("invisible", ["\u200b", "\u2063", "\u2800", "\U000e0041", "\U000e0100"])
def test_an_invisible_character_splits_no_player_in_silence(layout: str, invisible: str) -> None:
    proto = Proto()
    players = names("Игрок")
    proto.add_game(1, players, "Красные")
    proto.add_game(2, [players[0].replace("г", "г" + invisible, 1), *players[1:]])
    data = LAYOUTS[layout](proto, {1: 1, 2: 1})
    found = [f for f in evaluate([Source("x.xlsx", data)], rate=False).findings]
    split = [f for f in found if f.code == "name-split"]
    assert len(split) == 1, [(f.code, f.cell) for f in found]
    assert split[0].message("en").endswith(f"only by invisible characters: U+{ord(invisible):04X}")


def test_invisible_characters_fold_in_headers_too() -> None:
    from mafia_sheets.reading.matching import match_header

    assert match_header("seats", "Иг\u2063ро\U000e0041к") == match_header("seats", "Игрок")


def test_the_folder_of_a_process_that_ended_unwaited_is_removed(temp: Path) -> None:
    """A killed command's work ends as a zombie when its new parent does not reap it: it
    answers to its id but writes nothing, so its folder goes."""
    child = os.fork()
    if child == 0:
        os._exit(0)
    try:
        time.sleep(0.3)  # ended, not waited for yet
        stale = scratch.base() / f"{child}-0123abcd"
        stale.mkdir()
        scratch.remove_stale()
        assert not stale.exists()
    finally:
        os.waitpid(child, 0)
