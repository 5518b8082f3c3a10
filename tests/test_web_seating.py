"""The page's seating: a roster or a count in, the schedule, figures and downloads out."""

from __future__ import annotations

import io
import json
import warnings
from collections.abc import Iterator

import openpyxl
import pytest
from click.testing import CliRunner

from mafia_sheets.cli.commands import main
from mafia_sheets.model import Source
from mafia_sheets.reading.protocol import load_protocol
from mafia_sheets.web import app as web

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROSTER = "Игрок;Клуб\nКот;Маски\nПёс;Маски\n" + "".join(f"N{i};\n" for i in range(25))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(web.create_app()) as test_client:
        yield test_client


def form(**fields: str) -> dict[str, str]:
    return {"tables": "2", "rounds": "3", "effort": "0.05", **fields}


def roster() -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", ("players.csv", ROSTER.encode("utf-8"), "text/csv"))]


def multipart(**fields: str) -> list[tuple[str, tuple[None, str]]]:
    """Form fields sent as multipart, as the page's FormData sends them with no file."""
    return [(key, (None, value)) for key, value in form(**fields).items()]


def test_the_page_has_the_seating_form(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="seat-form"' in page and "/static/seating.js" in page
    assert client.get("/static/seating.js").status_code == 200
    labels = client.get("/api/labels").json()
    assert labels["en"]["seatGo"] == "Seat them" and labels["ru"]["seatTitle"] == "Рассадка"


def test_a_dropped_roster_is_seated_as_the_cli_seats_it(client: TestClient, tmp_path) -> None:
    reply = client.post("/api/seat?lang=en", data=form(seed="11"), files=roster())
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["ok"] is True and body["figures"]["seed"] == 11
    assert body["figures"]["restrictions"]["apart_pairs"] == 1
    assert any(line.startswith("Pair meetings") for line in body["text"])
    path = tmp_path / "players.csv"
    path.write_text(ROSTER, encoding="utf-8")
    cli = CliRunner().invoke(
        main,
        ["seat", "--players", str(path), "--tables", "2", "--rounds", "3", "--seed", "11",
         "--effort", "0.05", "--json", "--lang", "en"],
    )  # fmt: skip
    assert json.loads(cli.output)["rounds"] == body["rounds"]


def test_a_count_of_players_will_do(client: TestClient) -> None:
    reply = client.post("/api/seat", files=multipart(players="20", seed="1"))
    assert reply.status_code == 200, reply.text
    first = reply.json()["rounds"][0]["tables"][0]["players"]
    assert len(first) == 10 and all(p.startswith("Игрок ") for p in first)


def test_the_downloads_are_the_schedule_on_the_screen(client: TestClient) -> None:
    shown = client.post("/api/seat", data=form(seed="5"), files=roster()).json()
    plan = client.post("/api/seat/plan.xlsx", data=form(seed="5"), files=roster())
    assert plan.status_code == 200
    assert "attachment" in plan.headers["content-disposition"]
    book = openpyxl.load_workbook(io.BytesIO(plan.content))
    wall = [list(r) for r in book["Рассадка"].iter_rows(values_only=True)]
    assert [row[1] for row in wall[2:12]] == shown["rounds"][0]["tables"][0]["players"]
    for layout in ("rows", "blank", "wide"):
        answer = client.post(
            "/api/seat/protocol.xlsx", data=form(seed="5", layout=layout), files=roster()
        )
        assert answer.status_code == 200
        protocol, _ = load_protocol(Source("protocol.xlsx", answer.content))
        assert protocol.table("players") is not None


@pytest.mark.parametrize(
    ("fields", "files", "status", "words"),
    [
        ({}, "none", 422, "Drop a roster or give the number of players."),
        ({"tables": "x"}, "roster", 400, "“tables”: a whole number from 1 to 200"),
        ({"layout": "grid"}, "roster", 400, "layout must be rows, blank or wide."),
        ({"seed": "-1"}, "roster", 400, "seed must be a whole number"),
        ({"tables": "5"}, "roster", 422, "cannot fill 5 tables"),
        ({}, [("files", ("players.pdf", b"%PDF", "application/pdf"))], 415, "files accepted"),
    ],
)
def test_refusals_are_one_line(client: TestClient, fields, files, status, words) -> None:
    if files == "none":
        reply = client.post("/api/seat?lang=en", files=multipart(**fields))
    else:
        sent = roster() if files == "roster" else files
        reply = client.post("/api/seat?lang=en", data=form(**fields), files=sent)
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["ok"] is False and words in body["error"] and "\n" not in body["error"]
