"""The synthetic tournament generator: every game it makes is valid by the regulation.

The rules are re-derived here from the seat rows alone (who left, how, in which phase),
independently of how the generator simulates them.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from python_calamine import load_workbook

from mafia_sheets import vocab
from mafia_sheets.reading import columns as schema
from mafia_sheets.testing import synth
from mafia_sheets.testing.synth import BONUSES, LEFT, RESULTS, ROLES, generate

BLACK_ROLES = {"mafia", "don"}
WINDOW = 5  # special situation 9, as the game's software reads it (SPEC §5.3)


def team_black(proto: synth.SynthProtocol) -> np.ndarray:
    roles = np.array(ROLES)[proto.by_game("role")]
    return np.isin(roles, list(BLACK_ROLES))


def replay(black: np.ndarray, when: np.ndarray) -> tuple[str, int | None]:
    """Apply departures phase by phase; the first phase after which one side has won."""
    alive = np.ones(10, dtype=bool)
    for phase in sorted(set(when[when > 0].tolist())):
        alive[when == phase] = False  # departures within one phase are simultaneous
        blacks, reds = int((alive & black).sum()), int((alive & ~black).sum())
        if blacks == 0:
            return "red", phase
        if blacks >= reds:
            return "black", phase
    return "draw", None


def test_same_seed_same_tournament() -> None:
    first, second = generate(300, seed=7), generate(300, seed=7)
    assert first.players == second.players
    for sheet in ("games", "seats"):
        for column, values in getattr(first, sheet).items():
            assert np.array_equal(values, getattr(second, sheet)[column]), column
    assert not np.array_equal(first.seats["role"], generate(300, seed=8).seats["role"])


def test_every_game_has_ten_seats_and_the_role_deck() -> None:
    proto = generate(500, seed=1)
    assert proto.n_games == 500 and len(proto.seats["game"]) == 5000
    assert (proto.by_game("seat") == np.arange(1, 11)).all()
    assert (proto.by_game("game") == proto.games["game"][:, None]).all()
    for roles in np.array(ROLES)[proto.by_game("role")]:
        assert Counter(roles.tolist()) == {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}
    for seated in proto.by_game("player"):
        assert len(set(seated.tolist())) == 10


def test_rounds_seat_each_player_at_most_once() -> None:
    proto = generate(400, players=60, seed=2)
    assert len(proto.players) == 60 and len(set(proto.players)) == 60
    rounds = proto.games["round"]
    for number in np.unique(rounds):
        seated = proto.by_game("player")[rounds == number].ravel()
        assert len(seated) == len(set(seated.tolist()))
        tables = proto.games["table"][rounds == number]
        assert len(tables) == len(set(tables.tolist()))
    assert (np.diff(rounds) >= 0).all()


def test_end_times_increase() -> None:
    ended = generate(1000, seed=3).games["ended"]
    assert (np.diff(ended.astype("int64")) > 0).all()


def test_default_players_and_nicknames_do_not_fold_together() -> None:
    proto = generate(1000)
    assert len(proto.players) == 200
    assert len({vocab.fold(name).replace(" ", "") for name in proto.players}) == 200


def assert_phase_rules(proto: synth.SynthProtocol) -> None:
    left = np.array(LEFT, dtype=object)[proto.by_game("left")]
    when, fouls = proto.by_game("when"), proto.by_game("fouls")
    assert ((when > 0) == (left != "")).all()
    night, day = (when > 0) & (when % 2 == 0), when % 2 == 1
    assert not (left == "killed")[day].any(), "a kill in a day phase"
    assert not (left == "voted")[night].any(), "a vote-out in a night phase"
    assert ((fouls == 4) == (left == "fouled")).all()
    assert ((fouls >= 0) & (fouls <= 4)).all()
    for g in range(proto.n_games):
        kills = Counter(when[g][left[g] == "killed"].tolist())
        assert max(kills.values(), default=0) <= 1, "two kills in one night"
        votes = set(when[g][left[g] == "voted"].tolist())
        fouled_day = {int(p) for p in when[g][np.isin(left[g], ["fouled", "disqualified"])]}
        for phase in fouled_day:
            next_day = phase + 1 if phase % 2 == 0 else phase
            assert next_day not in votes, f"game {g + 1}: special situation 1–2"


def assert_results(proto: synth.SynthProtocol) -> None:
    black, when = team_black(proto), proto.by_game("when")
    for g in range(proto.n_games):
        result = RESULTS[proto.games["result"][g]]
        replayed, decided_at = replay(black[g], when[g])
        assert replayed == result, f"game {g + 1}"
        last = int(when[g].max())
        if decided_at is not None:
            assert last == decided_at == proto.games["end_phase"][g], "left after the end"
        else:  # a draw: the window opens at the first night after the last departure
            first_night = last + 1 + (last + 1) % 2
            assert proto.games["end_phase"][g] == first_night + WINDOW - 1, (
                f"game {g + 1}: a draw without {WINDOW} quiet phases"
            )
        # special situation 9: five empty phases from a night end the game as a draw
        busy = set(when[g][when[g] > 0].tolist())
        for night in range(2, last, 2):
            assert busy & set(range(night, night + WINDOW)), f"game {g + 1}: should be a draw"


def quiet_runs(proto: synth.SynthProtocol) -> Counter[int]:
    """Longest run of empty phases from a night before a departure, counted over games."""
    runs: Counter[int] = Counter()
    for when in proto.by_game("when"):
        phases = sorted(set(when[when > 0].tolist()))
        longest = 0
        for prev, phase in zip([0, *phases], phases, strict=False):
            first_night = prev + 1 + (prev + 1) % 2
            longest = max(longest, phase - first_night)
        runs[longest] += 1
    return runs


def assert_best_moves_and_awards(proto: synth.SynthProtocol) -> None:
    black, left = team_black(proto), np.array(LEFT)[proto.by_game("left")]
    when, best = proto.by_game("when"), proto.by_game("best_move")
    bonus = np.array(BONUSES)[proto.by_game("bonus")]
    for g in range(proto.n_games):
        movers = np.flatnonzero(best[g, :, 0])
        assert len(movers) <= 1
        for seat in movers:
            named = best[g, seat].tolist()
            assert left[g, seat] == "killed" and when[g, seat] == 2 and not black[g, seat]
            assert len(set(named)) == 3 and seat + 1 not in named
            assert all(1 <= s <= 10 for s in named)
        counts = Counter(bonus[g].tolist())
        result = RESULTS[proto.games["result"][g]]
        if result == "draw":
            assert set(counts) == {""}
            continue
        assert all(counts[award] <= 1 for award in ("bp", "bp2", "bpl"))
        winners = black[g] if result == "black" else ~black[g]
        assert winners[np.isin(bonus[g], ["bp", "bp2"])].all()
        assert not winners[bonus[g] == "bpl"].any()


def test_games_follow_the_regulation() -> None:
    proto = generate(2000, seed=11)
    assert_phase_rules(proto)
    assert_results(proto)
    assert_best_moves_and_awards(proto)
    shares = Counter(RESULTS[r] for r in proto.games["result"].tolist())
    assert shares["red"] > shares["black"] > shares["draw"] > 0
    assert (proto.by_game("left") == LEFT.index("fouled")).any()
    assert (proto.by_game("left") == LEFT.index("disqualified")).any()
    assert proto.seats["best_move"].any()
    bonus = np.array(BONUSES)[proto.by_game("bonus")]
    assert any({"bp", "bp2", "bpl"} <= set(awards.tolist()) for awards in bonus)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    games=st.integers(1, 120),
    draws=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
)
def test_any_seed_gives_valid_games(seed: int, games: int, draws: float) -> None:
    proto = generate(games, seed=seed, draws=draws)
    assert_phase_rules(proto)
    assert_results(proto)
    assert_best_moves_and_awards(proto)


def test_slow_games_go_on_up_to_four_quiet_phases() -> None:
    # a missed night and a day without a vote-out are ordinary: runs of 3 and 4 quiet
    # phases from a night appear before play goes on, never a whole window of 5
    runs = quiet_runs(generate(2000, seed=12, draws=0.0))
    assert runs[3] > 0 and runs[4] > 0 and max(runs) == WINDOW - 1


def test_the_settings_name_the_five_phase_reading() -> None:
    settings_ = dict(generate(10).settings)
    assert settings_["draw_quiet_phases"] == "5" and settings_["win_when_disqualified"] == "yes"


def test_draw_share_follows_the_setting() -> None:
    assert not (generate(1000, draws=0.0).games["result"] == RESULTS.index("draw")).any()
    share = (generate(2000, draws=0.3).games["result"] == RESULTS.index("draw")).mean()
    assert 0.2 < share <= 0.32


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "at least 1"),
        ({"games": 10, "players": 9}, "needs 10 players"),
        ({"games": 10, "players": 20, "tables": 3}, "need 30 players"),
        ({"games": 10, "draws": 1.5}, "share"),
    ],
)
def test_bad_arguments(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(**kwargs)  # type: ignore[arg-type]


def read_back(data: bytes | str) -> dict[str, list[dict[str, object]]]:
    """Every sheet the reader knows, as rows of {column code: value} (calamine)."""
    book = load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    sheets: dict[str, list[dict[str, object]]] = {}
    for name in book.sheet_names:
        code = vocab.sheet_lookup().get(vocab.fold(name))
        if code is None:
            continue
        header, *rows = book.get_sheet_by_name(name).to_python()
        columns = schema.column_lookup(code)
        codes = [columns.get(vocab.fold(h)) for h in header]
        sheets[code] = [{c: v for c, v in zip(codes, row, strict=True) if c} for row in rows]
    return sheets


def word(vocabulary: str, value: object) -> str:
    return vocab.value_lookup(vocabulary)[vocab.fold(value)] if value != "" else ""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_workbook_reads_back_in_both_languages(lang: str) -> None:
    proto = generate(40, seed=4)
    buffer = io.BytesIO()
    proto.to_xlsx(buffer, lang=lang, shuffle_columns=True, seed=9, extras=True)
    sheets = read_back(buffer.getvalue())
    assert set(sheets) == {"tournament", "players", "games", "seats"}
    assert load_workbook(io.BytesIO(buffer.getvalue())).sheet_names == [
        *(vocab.SHEETS[code](lang) for code in ("tournament", "players", "games", "seats")),
        "Заметки" if lang == "ru" else "Notes",
    ]

    assert [row["player"] for row in sheets["players"]] == list(proto.players)
    settings_ = {row["setting"]: row["value"] for row in sheets["tournament"]}
    assert settings_[vocab.SETTINGS["apply_k"](lang)] == vocab.display_value("yesno", "yes", lang)
    games = sheets["games"]
    assert [int(row["game"]) for row in games] == proto.games["game"].tolist()
    assert [word("result", row["result"]) for row in games] == [
        RESULTS[r] for r in proto.games["result"]
    ]
    expected_end = proto.games["ended"].astype("datetime64[s]").tolist()
    for row, end in zip(games, expected_end, strict=True):
        assert isinstance(row["ended"], dt.datetime)
        assert abs((row["ended"] - end).total_seconds()) < 1

    seats = sheets["seats"]
    assert len(seats) == 400
    assert [row["player"] for row in seats] == [proto.players[p] for p in proto.seats["player"]]
    assert [word("role", r["role"]) for r in seats] == [ROLES[c] for c in proto.seats["role"]]
    assert [word("left", r["left"]) for r in seats] == [LEFT[c] for c in proto.seats["left"]]
    assert [word("bonus", r["bonus"]) for r in seats] == [BONUSES[c] for c in proto.seats["bonus"]]
    assert [vocab.parse_phase(r["when"]) or 0 for r in seats] == proto.seats["when"].tolist()
    assert [int(r["fouls"]) for r in seats] == proto.seats["fouls"].tolist()
    for row, best in zip(seats, proto.seats["best_move"].tolist(), strict=True):
        named = [int(s) for s in re.split(r"[ ,;]", str(row["best_move"])) if s]
        assert named == ([] if best == [0, 0, 0] else best)


def test_workbook_written_to_a_path_in_template_order(tmp_path: object) -> None:
    path = f"{tmp_path}/protocol.xlsx"
    generate(5, seed=1).to_xlsx(path)
    book = load_workbook(path)
    assert book.sheet_names == ["Турнир", "Игроки", "Игры", "Протокол"]
    header = book.get_sheet_by_name("Протокол").to_python()[0]
    # every column the generator fills, in template order (it numbers games once: no table)
    assert header == [name.ru for code, name in schema.COLUMNS["seats"].items() if code != "table"]
