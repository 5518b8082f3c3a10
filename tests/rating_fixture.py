"""A small hand-built Rating for report tests, and a frame builder for large ones.

The standings are written by hand (the report lays out finished data, it computes
nothing), and they include what a layout can get wrong: a shared place `5–6`, a value
that needs rounding (1/3), nicknames that look like formulas, a removed player.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pandas as pd

from mafia_sheets.findings import finding
from mafia_sheets.model import KSummary, LotStatus, Rating, Standing, Tournament
from mafia_sheets.rating.build import POINT_COLUMNS
from mafia_sheets.reading.settings import UNKNOWN_SETTING
from mafia_sheets.report.cells import shown_points
from mafia_sheets.rules import load_rules

PLAYERS = (
    "Кот",
    "=1+1",
    "@cmd",
    "Ёж",
    "-minus",
    "+plus",
    "Lynx",
    "Сова",
    "Wolf",
    "Бобр",
    "Лиса",
    "Fox",
)
ROLES = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")
TEAM = {"civilian": "red", "sheriff": "red", "mafia": "black", "don": "black"}
RESULTS = ("red", "black", "red", "draw")
K = F(7, 5)
SCALE = 20  # units per point: 2 × K = 14/5 and the 0.25 of a best move are whole units


def standing(
    place: int | None,
    place_range: str,
    player: str,
    total: F,
    *,
    decided_by: str = "total",
    removed: bool = False,
    **counts: int,
) -> Standing:
    """A standings row whose components add up: win points + additional = total."""
    additional = F(1, 2) if total >= 1 else F(0)
    return Standing(
        place=place,
        place_range=place_range,
        player=player,
        total=total,
        win_points=total - additional,
        additional=additional,
        best_move=F(0),
        awards=additional,
        penalties=F(0),
        games=counts.get("games", 10),
        wins=counts.get("wins", 4),
        wins_don_sheriff=counts.get("wins_don_sheriff", 1),
        killed_first_night=counts.get("killed_first_night", 2),
        decided_by=decided_by,
        removed=removed,
    )  # type: ignore[arg-type]


STANDINGS = (
    standing(1, "1", "Кот", F(83, 10)),
    standing(2, "2", "=1+1", F(7), decided_by="additional"),
    standing(3, "3", "@cmd", F(7), decided_by="wins"),
    standing(4, "4", "Ёж", F(13, 2), wins=5),
    standing(5, "5–6", "-minus", F(5), decided_by="tied"),
    standing(5, "5–6", "+plus", F(5)),
    standing(7, "7", "Lynx", F(1, 3), decided_by="total"),
)
REMOVED = (standing(None, "", "Удалённый", F(2), removed=True, games=3),)


def frames(
    games: int, sources: tuple[str, ...] = ("day1.xlsx",)
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, points) frames of `games` games, ten seats each, built without loops over rows.

    Game 4 (a draw) is annulled: its seat totals are NaN and must come out blank.
    """
    g = np.repeat(np.arange(games), 10)
    seat = np.tile(np.arange(1, 11), games)
    role = np.array(ROLES)[(seat - 1 + g) % 10]
    team = np.where(np.isin(role, ["civilian", "sheriff"]), "red", "black")
    result = np.array(RESULTS)[g % len(RESULTS)]
    win = team == result
    heavy = win & (result == "black")
    win_points = np.where(heavy, 2 * float(K), np.where(win, 2.0, 0.0))
    best_move = np.where((seat == 1) & (team == "red"), 0.25, 0.0)
    penalty = np.where((seat == 7) & (g % 5 == 0), -1.0, 0.0)
    awards = np.where(win & (seat == np.where(result == "red", 2, 8)), 1.0, 0.0)
    additional = best_move + penalty + awards
    points = pd.DataFrame(
        {
            "source": np.array(sources)[g * len(sources) // max(games, 1)],
            "game": g + 1,
            "round": g // 4 + 1,
            "table": g % 4 + 1,
            "seat": seat,
            "player": np.array(PLAYERS, dtype=object)[(g * 3 + seat) % len(PLAYERS)],
            "role": role,
            "team": team,
            "result": result,
            "win": win,
            "heavy": heavy,
            "win_points": win_points,
            "penalty": penalty,
            "best_move": best_move,
            "awards": awards,
            "additional": additional,
            "total": win_points + additional,
            "killed_first_night": seat == (g % 10) + 1,
        }
    )
    return _games(points, games), exact(points)


def _games(points: pd.DataFrame, games: int) -> pd.DataFrame:
    first = points[points["seat"] == 1].reset_index(drop=True)
    table = first[["source", "game", "round", "table", "result"]].copy()
    table["judge"] = [f"Судья {i % 3 + 1}" for i in range(games)]
    table["annulled"] = table["game"] == 4
    table["k_applied"] = table["result"] == "black"
    table["k"] = table["k_applied"].map({True: K, False: F(1)})
    totals = (points.pivot(index="game", columns="seat", values="total") * SCALE).round()
    names = points.pivot(index="game", columns="seat", values="player").to_numpy()
    for i in range(10):
        units = np.array(totals[i + 1].to_numpy(), dtype=np.float64)
        units[table["annulled"].to_numpy()] = np.nan
        table[f"seat_{i + 1}_u"] = pd.array(units, dtype="Int64")
        table[f"player_{i + 1}"] = names[:, i]
    return table


# The points components of «Баллы», each kept as exact units `<code>_u` by the rating.
SHOWN_CODES = (*POINT_COLUMNS, "running_total")


def exact(points: pd.DataFrame) -> pd.DataFrame:
    """A points frame of floats as the rating keeps it: exact units of 1/SCALE point."""
    frame = points.copy()
    for code in SHOWN_CODES:
        if code in frame:
            frame[f"{code}_u"] = (frame.pop(code) * SCALE).round().astype(np.int64)
    return frame


def shown(rating: Rating) -> pd.DataFrame:
    """The rating's points as the report shows them (floats), for comparing by value."""
    frame = rating.points.copy()
    for code in SHOWN_CODES:
        if f"{code}_u" in frame:
            frame[code] = shown_points(frame, code, rating.points_scale)
    return frame


def make_rating(
    *,
    provisional: bool = False,
    sources: tuple[str, ...] = ("day1.xlsx", "day2.xlsx"),
    games: int = 8,
    with_findings: bool = True,
) -> Rating:
    game_frame, point_frame = frames(games, sources)
    rules = load_rules().with_overrides({"bp": "1.5", "name": "Кубок"})
    found = (
        (
            finding(
                UNKNOWN_SETTING, "Турнир", "A5", "=Цвет скатерти", row=5, allowed="Название, Даты"
            ),
        )
        if with_findings
        else ()
    )
    return Rating(
        tournament=Tournament(
            name="Кубок A&B «Осень»",
            dates="12–13.10.2024",
            city="Москва",
            chief_judge="Иван Петров",
        ),
        rules=rules,
        k=KSummary(
            applied=True,
            value=K,
            heavy_side="black",
            games=10,
            heavy_games=3,
            red_wins=7,
            black_wins=3,
            draws=0,
            annulled=1,
        ),
        standings=STANDINGS,
        removed=REMOVED,
        lot=LotStatus(needed=True, method="open", groups=(("-minus", "+plus"),)),
        provisional=provisional,
        findings=found,
        games=game_frame,
        points=point_frame,
        points_scale=SCALE,
        sources=sources,
    )


def without_k(rating: Rating, reason: str = "equal_wins") -> Rating:
    """The same rating when K is not applied (equal wins, option off, no games)."""
    k = KSummary(
        applied=False,
        value=F(1),
        heavy_side=None,
        games=10,
        heavy_games=0,
        red_wins=5,
        black_wins=5,
        draws=0,
        annulled=0,
        reason=reason,
    )
    return replace(rating, k=k)
