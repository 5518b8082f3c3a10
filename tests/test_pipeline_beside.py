"""The checks on the second core while the rating is built here: the outcome is the serial
one — the findings, their order, the rating — clean or not, and whatever the scoring raised
on data the checks refuse never escapes."""

from __future__ import annotations

import copy
import io
import pickle
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from builders import Proto, names
from forking import dies_in_a_child, needs_fork

from mafia_sheets import parallel, pipeline
from mafia_sheets.cli.deadline import DeadlinePassed
from mafia_sheets.model import Outcome, Source
from mafia_sheets.report.json import outcome_json
from mafia_sheets.testing.synth import generate
from mafia_sheets.text import Text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def clean() -> list[Source]:
    return [Source("tournament-ru.xlsx", (SAMPLES / "tournament-ru.xlsx").read_bytes())]


def season() -> list[Source]:
    """Two files of one season, each with a warning (a sheet the reading ignores)."""
    parts = []
    for index, (games, seed) in enumerate([(40, 3), (30, 4)]):
        data = io.BytesIO()
        generate(games, players=24, seed=seed).to_xlsx(data, extras=True)
        parts.append(Source(f"s{index}.xlsx", data.getvalue()))
    return parts


def broken() -> list[Source]:
    """Errors only the checks find, of several kinds (parameters in both languages,
    phases), at known cells."""
    proto = Proto()
    for game in range(1, 6):
        proto.add_game(game, names("Игрок"), "Красные")
    proto.seat(2, 1)["role"] = "Шериф"
    proto.seat(4, 2)["best_move"] = "123"
    proto.games[4]["result"] = "Чёрные"
    return [proto.source()]


class Forks:
    """Records whether each `beside` of the pipeline really forked."""

    def __init__(self) -> None:
        self.forked: list[bool] = []

    def __call__(self, *args: Any) -> parallel.Beside[Any]:
        work = parallel.beside(*args)
        self.forked.append(work.forked)
        return work


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> Forks:
    """The pipeline forks for the checks whatever the protocol's size."""
    recorder = Forks()
    monkeypatch.setattr(pipeline, "BESIDE_MIN_SEATS", 0)
    monkeypatch.setattr(pipeline, "beside", recorder)
    return recorder


def serial(sources: list[Source], monkeypatch: pytest.MonkeyPatch, **options: Any) -> Outcome:
    with monkeypatch.context() as serial_env:
        serial_env.setenv(parallel.SERIAL_ENV, "1")
        return pipeline.evaluate(sources, **options)


def same(one: Outcome, other: Outcome) -> None:
    assert one.findings == other.findings  # the same findings, in the same order
    assert one.errors == other.errors and one.sheet_order == other.sheet_order
    for lang in ("ru", "en"):
        assert outcome_json(one, lang) == outcome_json(other, lang)
    if one.rating is None or other.rating is None:
        assert one.rating is other.rating is None
        return
    assert one.rating.findings == one.findings == other.rating.findings
    assert one.rating.standings == other.rating.standings
    pd.testing.assert_frame_equal(one.rating.games, other.rating.games)


@needs_fork
@pytest.mark.parametrize(
    ("sources", "options"),
    [
        (clean, {}),
        (season, {}),
        (season, {"lot_seed": 7, "stats": False}),
        (season, {"seats": True}),
        (season, {"rate": False}),
    ],
)
def test_checks_beside_the_scoring_give_the_serial_outcome(
    sources: Any, options: dict[str, Any], forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = sources()
    beside = pipeline.evaluate(read, **options)
    expected = serial(read, monkeypatch, **options)
    assert forks.forked == ([True] if options.get("rate", True) else [])
    same(beside, expected)
    if options.get("rate", True):
        assert beside.rating is not None


@needs_fork
@pytest.mark.parametrize("rate", [True, False])
def test_errors_found_beside_block_the_rating_as_in_series(
    rate: bool, forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = broken()
    found = pipeline.evaluate(read, rate=rate)
    same(found, serial(read, monkeypatch, rate=rate))
    assert found.rating is None
    assert [(f.code, f.cell) for f in found.findings] == [
        ("black-win-reds-outnumber", "E6"),
        ("role-count", "D12"),
        ("best-move-not-first-victim", "H33"),
        ("best-move-self", "H33"),
    ]
    assert forks.forked == ([True] if rate else [])


def _scoring_fails(*_: object) -> None:
    raise ZeroDivisionError("scored unchecked data")


@needs_fork
def test_what_the_scoring_raised_on_refused_data_never_escapes(
    forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = broken()
    monkeypatch.setattr(pipeline, "build_rating", _scoring_fails)
    found = pipeline.evaluate(read)
    assert forks.forked == [True]
    assert found.rating is None and found.errors == 4


@needs_fork
def test_a_scoring_error_on_checked_data_is_raised(
    forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "build_rating", _scoring_fails)
    with pytest.raises(ZeroDivisionError, match="unchecked") as raised:
        pipeline.evaluate(clean())
    assert forks.forked == [True]
    assert raised.traceback[-1].name == "_scoring_fails"  # its own traceback


def _deadline(*_: object) -> None:
    raise DeadlinePassed(Text("стоп", "stop"))


@needs_fork
def test_the_deadline_passing_while_scoring_ahead_stops_the_run(
    forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even when the checks would refuse the data: a stop is never a fact of the data."""
    monkeypatch.setattr(pipeline, "build_rating", _deadline)
    with pytest.raises(DeadlinePassed):
        pipeline.evaluate(broken())
    assert forks.forked == [True]


@needs_fork
def test_a_checks_child_that_dies_costs_only_time(
    forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "run_checks", dies_in_a_child(pipeline.run_checks))
    for sources in (broken, season):
        read = sources()
        same(pipeline.evaluate(read), serial(read, monkeypatch))


def test_scoring_leaves_the_protocols_as_the_checks_see_them() -> None:
    """The rating is built before the checks when they run beside it, and the checks run
    here when the child does not deliver: scoring must change nothing they read."""
    protocols, _ = pipeline._read(season(), lambda _: None)
    before = copy.deepcopy(protocols)
    pipeline.build_rating(pipeline.pool(protocols), (), None, True, True)
    for now, then in zip(protocols, before, strict=True):
        assert now.tables.keys() == then.tables.keys()
        for code, table in now.tables.items():
            pd.testing.assert_frame_equal(table.frame, then.tables[code].frame)


def test_findings_come_back_whole_from_a_child() -> None:
    found = pipeline.evaluate(broken()).findings
    assert found and pickle.loads(pickle.dumps(found, pickle.HIGHEST_PROTOCOL)) == found


def test_small_protocols_and_a_serial_run_check_here(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Forks()
    monkeypatch.setattr(pipeline, "beside", recorder)
    pipeline.evaluate(clean())  # a few games: a fork would cost more than it saves
    monkeypatch.setattr(pipeline, "BESIDE_MIN_SEATS", 0)
    serial(clean(), monkeypatch)
    assert recorder.forked == []


def test_errors_of_reading_alone_block_before_any_fork(
    forks: Forks, monkeypatch: pytest.MonkeyPatch
) -> None:
    proto = Proto()
    for game in range(1, 4):
        proto.add_game(game, names("Игрок"), "Красные")
    proto.seat(2, 1)["role"] = "Шериф"  # the checks' error …
    proto.seat(3, 4)["fouls"] = 5  # … after the reading's
    read = [proto.source()]
    found = pipeline.evaluate(read)
    assert forks.forked == []  # nothing to speculate on: the checks run here
    same(found, serial(read, monkeypatch))
    assert [f.code for f in found.findings] == ["role-count", "bad-number"]
