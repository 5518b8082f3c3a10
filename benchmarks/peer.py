"""The naive peer: what a pandas user would write first to rate a protocol workbook.

`python benchmarks/peer.py PROTOCOL.xlsx OUT.xlsx` reads every sheet with
`pd.read_excel(engine="openpyxl")`, sums 2 win points per winner per game (no K, no
checks, no additional points, no tie-breaks) and writes the standings and the per-seat
points with `to_excel` (openpyxl engine). It exists only to be timed by `run.py`.
"""

from __future__ import annotations

import sys

import pandas as pd

# The synthetic workbooks use the canonical RU or EN names; a peer would hard-code them.
NAMES = {
    "ru": {
        "games": "Игры",
        "seats": "Протокол",
        "game": "Игра",
        "result": "Результат",
        "player": "Игрок",
        "role": "Роль",
        "seat": "Место",
        "red": "Красные",
        "black": "Чёрные",
        "black_roles": ("Мафия", "Дон"),
    },
    "en": {
        "games": "Games",
        "seats": "Seats",
        "game": "Game",
        "result": "Result",
        "player": "Player",
        "role": "Role",
        "seat": "Seat",
        "red": "Red",
        "black": "Black",
        "black_roles": ("Mafia", "Don"),
    },
}


def rate(protocol: str, out: str) -> None:
    sheets = pd.read_excel(protocol, sheet_name=None, engine="openpyxl")
    n = NAMES["ru"] if NAMES["ru"]["games"] in sheets else NAMES["en"]
    games, seats = sheets[n["games"]], sheets[n["seats"]]
    seats = seats.merge(games[[n["game"], n["result"]]], on=n["game"], how="left")
    black = seats[n["role"]].isin(n["black_roles"])
    won = (black & (seats[n["result"]] == n["black"])) | (~black & (seats[n["result"]] == n["red"]))
    seats["points"] = won.astype(int) * 2
    standings = (
        seats.groupby(n["player"])["points"].sum().sort_values(ascending=False).reset_index()
    )
    standings.insert(0, "place", range(1, len(standings) + 1))
    with pd.ExcelWriter(out, engine="openpyxl") as writer:
        standings.to_excel(writer, sheet_name="standings", index=False)
        seats[[n["game"], n["seat"], n["player"], n["role"], "points"]].to_excel(
            writer, sheet_name="points", index=False
        )


if __name__ == "__main__":
    rate(sys.argv[1], sys.argv[2])
