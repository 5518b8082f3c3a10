"""The page's HTTP API: same answers as the library, clear one-line refusals, nothing kept."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest
import uvicorn
from live import first_line, live_server

from mafia_sheets.errors import MafiaSheetsError
from mafia_sheets.model import Source
from mafia_sheets.pipeline import evaluate
from mafia_sheets.report.json import outcome_json
from mafia_sheets.web import app as web
from mafia_sheets.web import upload as uploads
from mafia_sheets.web import workers

# Starlette 1.x nags about httpx in TestClient; the client itself works the same.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_RU = ROOT / "samples" / "tournament-ru.xlsx"
SAMPLE_EN = ROOT / "samples" / "tournament-en.xlsx"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def expected(sources: list[Source], lang: str = "ru") -> dict[str, Any]:
    """What `rate --json` prints for the same files."""
    return outcome_json(evaluate(sources), lang)


def faulty(data: bytes, header: str = "Роль", value: object = "Президент") -> tuple[bytes, str]:
    """A copy with one bad value in the first data row of `Протокол`; returns it and the cell."""
    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book["Протокол"]
    column = next(c.column_letter for c in sheet[1] if c.value == header)
    sheet[f"{column}2"] = value
    out = io.BytesIO()
    book.save(out)
    return out.getvalue(), f"{column}2"


def upload(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, data, XLSX)) for name, data in files]


def assert_one_line_error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False
    text = body["error"]
    assert text and "\n" not in text
    assert "Traceback" not in response.text and 'File "' not in response.text
    return text


@pytest.fixture(scope="module")
def sample() -> bytes:
    return SAMPLE_RU.read_bytes()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(web.create_app()) as test_client:
        yield test_client


# ---- the page ------------------------------------------------------------------------------


def test_page_and_its_assets_are_served_under_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="drop"' in page.text and 'type="file" multiple' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from a CDN
    for asset in ("/static/app.js", "/static/style.css"):
        response = client.get(asset)
        assert response.status_code == 200 and "http://" not in response.text
    assert "@media print" in client.get("/static/style.css").text


def test_limits_are_published_for_the_page() -> None:
    with TestClient(web.create_app(max_upload_bytes=1000)) as small:
        assert small.get("/api/limits").json() == {
            "max_file_bytes": 1000,
            "max_total_bytes": 4000,
            "max_files": uploads.MAX_FILES,
        }


def test_default_limit_is_the_page_limit(client: TestClient) -> None:
    from mafia_sheets.reading.safety import MAX_FILE_BYTES
    from mafia_sheets.web.app import WEB_FILE_LIMIT

    limits = client.get("/api/limits").json()
    assert limits["max_file_bytes"] == min(MAX_FILE_BYTES, WEB_FILE_LIMIT) == 50 * 1024 * 1024


# ---- rating --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_rate_answers_exactly_the_cli_json(client: TestClient, sample: bytes, lang: str) -> None:
    response = client.post(f"/api/rate?lang={lang}", files=upload(("Кубок.xlsx", sample)))
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["result"] == expected([Source("Кубок.xlsx", sample)], lang)
    assert body["result"]["standings"][0]["player"] == "Ласточка"
    assert body["token"] == web.fingerprint([Source("Кубок.xlsx", sample)])
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_page_is_told_the_edition_and_every_value_in_force(
    client: TestClient, lang: str
) -> None:
    from builders import Proto, names

    proto = Proto(settings=[("Правила", "ФИИМ рейтинга 7"), ("Штраф за 4 фола", "-0,25")])
    proto.add_game(1, names("A"), "Красные")
    body = client.post(f"/api/rate?lang={lang}", files=upload(("a.xlsx", proto.to_bytes()))).json()
    lines = {line["item"]: (line["value"], line["note"]) for line in body["rules"]}
    rules, foul = ("Правила", "Штраф за 4 фола") if lang == "ru" else ("Rules", "4th-foul penalty")
    assert lines[rules][0] == ("ФИИМ рейтинга 7" if lang == "ru" else "Rating FIIM 7")
    assert lines[rules][1].startswith("szotin/mafiaratings @0ab7207")
    assert lines[foul] == (-0.25, "задано турниром" if lang == "ru" else "set by the tournament")
    assert len(body["rules"]) >= 50  # every value of the edition


def test_two_files_are_rated_as_one_season(client: TestClient, sample: bytes) -> None:
    en = SAMPLE_EN.read_bytes()
    files = upload(("night-1.xlsx", sample), ("night-2.xlsx", en))
    response = client.post("/api/rate", files=files)
    result = response.json()["result"]
    assert result == expected([Source("night-1.xlsx", sample), Source("night-2.xlsx", en)])
    assert result["k"]["games"] == 40  # both files' games pooled


def test_faulty_workbook_answers_its_findings_with_the_cell(
    client: TestClient, sample: bytes
) -> None:
    data, cell = faulty(sample)
    body = client.post("/api/rate", files=upload(("bad.xlsx", data))).json()
    assert body["ok"] is True
    result = body["result"]
    assert result["standings"] is None and result["errors"] >= 1
    hit = [f for f in result["findings"] if f["sheet"] == "Протокол" and f["cell"] == cell]
    assert hit and hit[0]["severity"] == "error" and "Президент" in hit[0]["value"]
    assert result == expected([Source("bad.xlsx", data)])


def test_lot_seed_is_passed_to_the_library(client: TestClient, sample: bytes) -> None:
    body = client.post("/api/rate?lot_seed=7", files=upload(("a.xlsx", sample))).json()
    assert body["result"] == outcome_json(evaluate([Source("a.xlsx", sample)], lot_seed=7))
    assert body["result"]["lot_needed"] is False
    assert_one_line_error(
        client.post("/api/rate?lot_seed=x", files=upload(("a.xlsx", sample))), 400
    )


# ---- downloads -----------------------------------------------------------------------------


def test_results_workbook_is_a_named_download(client: TestClient, sample: bytes) -> None:
    token = web.fingerprint([Source("Кубок.xlsx", sample)])
    response = client.post(
        "/api/results.xlsx?lang=ru", files=upload(("Кубок.xlsx", sample)), data={"token": token}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == XLSX
    disposition = response.headers["content-disposition"]
    assert disposition.startswith("attachment;")
    assert "filename*=UTF-8''%D0%9A%D1%83%D0%B1%D0%BE%D0%BA-" in disposition  # Кубок-итоги
    assert 'filename="results.xlsx"' in disposition
    book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
    rows = [r for r in book["Итоги"].iter_rows(values_only=True) if any(v is not None for v in r)]
    header = next(i for i, r in enumerate(rows) if "Игрок" in r)
    player_col = rows[header].index("Игрок")
    players = [r[player_col] for r in rows[header + 1 :] if r[player_col]]
    standings = expected([Source("Кубок.xlsx", sample)])["standings"]
    assert players[: len(standings)] == [s["player"] for s in standings]


def test_results_workbook_in_english_for_a_season(client: TestClient, sample: bytes) -> None:
    response = client.post(
        "/api/results.xlsx?lang=en",
        files=upload(("a.xlsx", sample), ("b.xlsx", SAMPLE_EN.read_bytes())),
    )
    assert response.status_code == 200
    assert 'filename="season-results.xlsx"' in response.headers["content-disposition"]
    assert "Standings" in openpyxl.load_workbook(io.BytesIO(response.content)).sheetnames


def test_results_refused_while_the_protocol_has_errors(client: TestClient, sample: bytes) -> None:
    data, _ = faulty(sample)
    text = assert_one_line_error(
        client.post("/api/results.xlsx?lang=en", files=upload(("bad.xlsx", data))), 422
    )
    assert "errors" in text


def test_csv_and_world_tour_upload_are_downloads_beside_the_workbook(
    client: TestClient, sample: bytes
) -> None:
    from mafia_sheets.formats.csvtable import standings_csv
    from mafia_sheets.formats.mwt import upload_bytes

    rating = evaluate([Source("Кубок.xlsx", sample)], stats=False, seats=True).rating
    assert rating is not None
    response = client.post("/api/results.csv?lang=ru", files=upload(("Кубок.xlsx", sample)))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert 'filename="results.csv"' in response.headers["content-disposition"]
    assert "%D0%B8%D1%82%D0%BE%D0%B3%D0%B8.csv" in response.headers["content-disposition"]
    assert response.content == standings_csv(rating, "ru")
    english = client.post("/api/results.csv?lang=en", files=upload(("cup.xlsx", sample)))
    assert english.content == standings_csv(rating, "en")
    assert 'filename="cup-results.csv"' in english.headers["content-disposition"]
    mwt = client.post("/api/mwt.json?lang=ru", files=upload(("cup.xlsx", sample)))
    assert mwt.status_code == 200 and mwt.headers["content-type"] == "application/json"
    assert 'filename="cup-mwt.json"' in mwt.headers["content-disposition"]
    assert json.loads(mwt.content) == json.loads(upload_bytes(rating)[0])
    data, _ = faulty(sample)
    for path in ("/api/results.csv", "/api/mwt.json"):
        assert "errors" in assert_one_line_error(
            client.post(f"{path}?lang=en", files=upload(("bad.xlsx", data))), 422
        )


def test_download_of_other_files_than_were_checked_is_refused(
    client: TestClient, sample: bytes
) -> None:
    data, _ = faulty(sample)
    token = web.fingerprint([Source("a.xlsx", data)])
    assert_one_line_error(
        client.post("/api/results.xlsx", files=upload(("a.xlsx", sample)), data={"token": token}),
        409,
    )


def test_annotated_copy_is_offered_only_when_the_library_can_write_it(
    client: TestClient, sample: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, cell = faulty(sample)
    monkeypatch.setattr(web, "_can_annotate", lambda: False)
    body = client.post("/api/rate", files=upload(("bad.xlsx", data))).json()
    assert body["annotate"] is False
    assert_one_line_error(client.post("/api/annotated.xlsx", files=upload(("bad.xlsx", data))), 501)

    monkeypatch.setattr(web, "_can_annotate", lambda: True)
    assert client.post("/api/rate", files=upload(("bad.xlsx", data))).json()["annotate"] is True
    clean = client.post("/api/rate", files=upload(("ok.xlsx", sample))).json()
    assert clean["annotate"] is (len(clean["result"]["findings"]) > 0)
    response = client.post(
        "/api/annotated.xlsx?lang=en&file=1", files=upload(("ok.xlsx", sample), ("bad.xlsx", data))
    )
    assert response.status_code == 200
    assert 'filename="bad-annotated.xlsx"' in response.headers["content-disposition"]
    book = openpyxl.load_workbook(io.BytesIO(response.content))  # the second file's copy
    assert book["Протокол"][cell].comment is not None
    assert_one_line_error(
        client.post("/api/annotated.xlsx?file=5", files=upload(("bad.xlsx", data))), 400
    )


# ---- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["notes.txt", "protocol.xls", "games.csv"])
def test_files_not_named_xlsx_are_refused(client: TestClient, name: str) -> None:
    text = assert_one_line_error(client.post("/api/rate", files=upload((name, b"a;b\n1;2\n"))), 415)
    assert name in text and ".xlsx" in text and ".ods" in text


def test_an_ods_is_read_like_an_xlsx(client: TestClient) -> None:
    from mafia_sheets.testing.ods import protocol

    data = protocol(3)
    response = client.post("/api/rate?lang=en", files=upload(("night.ods", data)))
    assert response.status_code == 200, response.text
    result, wanted = response.json()["result"], expected([Source("night.ods", data)], "en")
    assert result["standings"] == wanted["standings"] and len(result["standings"]) == 30
    assert [(f["code"], f["cell"]) for f in result["findings"]] == [
        (f["code"], f["cell"]) for f in wanted["findings"]
    ]
    book = client.post("/api/results.xlsx?lang=en", files=upload(("night.ods", data)))
    assert 'filename="night-results.xlsx"' in book.headers["content-disposition"]
    typo = protocol(3, typo="Президент")
    marked = client.post("/api/annotated.xlsx?lang=en", files=upload(("night.ods", typo)))
    assert marked.status_code == 200
    assert 'filename="night-annotated.xlsx"' in marked.headers["content-disposition"]
    copy = openpyxl.load_workbook(io.BytesIO(marked.content))
    assert any(c.comment for row in copy["Протокол"].iter_rows() for c in row)


def test_renamed_text_file_gets_the_library_message(client: TestClient) -> None:
    data = "Игра;Место\n1;1\n".encode()
    with pytest.raises(MafiaSheetsError) as caught:
        evaluate([Source("fake.xlsx", data)])
    response = client.post("/api/rate?lang=en", files=upload(("fake.xlsx", data)))
    assert assert_one_line_error(response, 422) == caught.value.text("en")


def test_truncated_workbook_is_refused_in_one_line(client: TestClient, sample: bytes) -> None:
    assert_one_line_error(client.post("/api/rate", files=upload(("cut.xlsx", sample[:3000]))), 422)


def test_oversize_file_is_refused_with_413(sample: bytes) -> None:
    limit = len(sample) - 1
    with TestClient(web.create_app(max_upload_bytes=limit)) as small:
        text = assert_one_line_error(
            small.post("/api/rate?lang=en", files=upload(("big.xlsx", sample))), 413
        )
    assert "big.xlsx" in text and "too large" in text


def test_oversize_upload_is_refused_before_reading_it(sample: bytes) -> None:
    with TestClient(web.create_app(max_upload_bytes=len(sample))) as small:
        many = upload(*[(f"n{i}.xlsx", sample) for i in range(uploads.TOTAL_FACTOR + 3)])
        text = assert_one_line_error(small.post("/api/rate", files=many), 413)
    assert "МБ" in text


def test_endless_upload_is_cut_off_at_the_limit() -> None:
    """Drive the ASGI app directly with a body that never ends: it must stop reading."""
    limit, chunk = 50_000, b"x" * 8192
    pulled = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled == 0:
            pulled += 1
            head = b'--B\r\nContent-Disposition: form-data; name="files"; filename="a.xlsx"\r\n\r\n'
            return {"type": "http.request", "body": head, "more_body": True}
        pulled += 1
        if pulled > 10_000:  # ~80 MB: the app kept reading far past its limit
            raise AssertionError("the app buffered an endless upload")
        return {"type": "http.request", "body": chunk, "more_body": True}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/rate",
        "raw_path": b"/api/rate",
        "query_string": b"lang=en",
        "headers": [(b"content-type", b"multipart/form-data; boundary=B"), (b"host", b"127.0.0.1")],
        "http_version": "1.1",
        "scheme": "http",
        "root_path": "",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 5000),
    }
    asyncio.run(web.create_app(max_upload_bytes=limit)(scope, receive, send))
    assert sent[0]["status"] == 413
    cap = limit * uploads.TOTAL_FACTOR + uploads.MULTIPART_SLACK
    assert pulled * len(chunk) <= cap + 2 * len(chunk)
    assert json.loads(sent[1]["body"])["error"].startswith("The upload is too large")


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"content": b"plain body", "headers": {"content-type": "text/plain"}}, 400),
        ({"files": [("other", ("", b"", XLSX))]}, 400),
        ({"data": {"token": "x"}, "files": []}, 400),
    ],
)
def test_requests_without_workbooks_are_refused(
    client: TestClient, kwargs: dict[str, Any], status: int
) -> None:
    assert_one_line_error(client.post("/api/rate", **kwargs), status)


def test_unknown_language_is_refused(client: TestClient, sample: bytes) -> None:
    assert_one_line_error(client.post("/api/rate?lang=de", files=upload(("a.xlsx", sample))), 400)


def test_upload_posted_by_another_site_is_refused(client: TestClient, sample: bytes) -> None:
    response = client.post(
        "/api/rate", files=upload(("a.xlsx", sample)), headers={"origin": "http://evil.example"}
    )
    assert_one_line_error(response, 403)


def test_unexpected_failure_shows_one_line_without_details(
    client: TestClient, sample: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(workers.TEST_FAULTS, "bug.xlsx", "bug")  # a RuntimeError in the worker
    text = assert_one_line_error(client.post("/api/rate", files=upload(("bug.xlsx", sample))), 500)
    assert "secret" not in text and "mafia-sheets serve" in text


# ---- a live server: concurrency and no files left behind ------------------------------------


def test_twenty_concurrent_uploads_each_get_their_own_answer(
    sample: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where any temp file would land
    bad, _ = faulty(sample)
    kinds = {
        "single": [("cup.xlsx", sample)],
        "season": [("a.xlsx", sample), ("b.xlsx", SAMPLE_EN.read_bytes())],
        "faulty": [("bad.xlsx", bad)],
    }
    want = {kind: expected([Source(n, d) for n, d in files]) for kind, files in kinds.items()}
    plan = [list(kinds)[i % 3] for i in range(20)]
    before = set(os.listdir(scratch))

    async def run(base: str) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            posts = [http.post("/api/rate", files=upload(*kinds[kind])) for kind in plan]
            posts += [
                http.post("/api/results.xlsx", files=upload(*kinds["single"])) for _ in range(2)
            ]
            return list(await asyncio.gather(*posts))

    with live_server(web.create_app()) as base:
        replies = asyncio.run(run(base))
    for kind, reply in zip(plan, replies, strict=False):
        assert reply.status_code == 200
        assert reply.json()["result"] == want[kind], kind
    assert all(r.status_code == 200 and r.content[:2] == b"PK" for r in replies[20:])
    assert set(os.listdir(scratch)) == before  # nothing left on disk


def test_real_annotated_copy_marks_the_faulty_cell(client: TestClient, sample: bytes) -> None:
    data, cell = faulty(sample)
    response = client.post("/api/annotated.xlsx", files=upload(("bad.xlsx", data)))
    assert response.status_code == 200
    assert "filename*=UTF-8''bad-%D0%B7%D0%B0" in response.headers["content-disposition"]
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book["Протокол"][cell].comment is not None


# ---- running the server --------------------------------------------------------------------


def test_run_server_prints_its_address_and_serves_the_page() -> None:
    script = "from mafia_sheets.web.app import run_server; run_server('127.0.0.1', 0)"
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        line = first_line(process, 60)
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        assert httpx.get(url.group(0), timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(10)
    assert b"Warning" not in (process.stderr.read() if process.stderr else b"")


def test_run_server_warns_when_reachable_from_the_network(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bound: list[socket.socket] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: bound.extend(sockets))
    # Never actually open the test machine to the network: bind loopback behind its back.
    loopback_bind = web._bind
    monkeypatch.setattr(web, "_bind", lambda host, port: loopback_bind("127.0.0.1", port))
    web.run_server("0.0.0.0", 0)
    for sock in bound:
        sock.close()
    out, err = capsys.readouterr()
    assert "http://0.0.0.0:" in out
    assert "Warning: the server is reachable from other machines" in err
    assert "Внимание" in err
    assert web.is_loopback("127.0.0.1") and web.is_loopback("::1") and web.is_loopback("localhost")
    assert not web.is_loopback("0.0.0.0") and not web.is_loopback("192.168.1.5")


def test_run_server_on_a_busy_port_says_so_in_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(MafiaSheetsError) as caught:
            web.run_server("127.0.0.1", busy.getsockname()[1])
    assert "--port" in caught.value.text("en") and "--port" in caught.value.text("ru")


def test_the_page_takes_its_words_from_the_catalogue():
    from mafia_sheets.report.labels import DECIDED_BY, STANDINGS_COLUMNS
    from mafia_sheets.web.labels import GROUPS, STANDINGS_SHOWN

    with TestClient(web.create_app()) as client:
        labels = client.get("/api/labels").json()
    for lang in ("ru", "en"):
        assert labels[lang]["cols"] == [STANDINGS_COLUMNS[c](lang) for c in STANDINGS_SHOWN]
        decided = {**DECIDED_BY, **GROUPS}  # and the sums of criteria the editions compare
        assert labels[lang]["decided"] == {k: v(lang) for k, v in decided.items()}
        assert labels[lang]["limits"].count("{") == 2  # filled in by the page
    assert labels["ru"]["standings"] == "Итоги" and labels["en"]["standings"] == "Standings"
    script = (Path(web.__file__).parent / "static" / "app.js").read_text("utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("//"))
    assert not any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in code)  # no words of its own


def test_two_uploads_of_one_name_are_both_counted_and_a_copy_is_refused(
    client: TestClient, sample: bytes
) -> None:
    en = SAMPLE_EN.read_bytes()
    body = client.post("/api/rate", files=upload(("n.xlsx", sample), ("n.xlsx", en))).json()
    assert body["result"]["k"]["games"] == 40
    assert [read["file"] for read in body["result"]["read"]] == ["n.xlsx", "n (2).xlsx"]
    text = assert_one_line_error(
        client.post("/api/rate", files=upload(("a.xlsx", sample), ("b.xlsx", sample))), 422
    )
    assert "b.xlsx" in text and "a.xlsx" in text and "дважды" in text
