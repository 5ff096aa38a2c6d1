"""Hostile files uploaded to the real `yisai serve` (issue 30, items 1 and 8): each is refused
with a message naming the limit, and the server goes on serving every page.

On main, the probe's 1.6 KB workbook (one cell at XFD1048576) made calamine ask for 549 GB and
abort the server process; a regulation with a 5,000-digit integer was a 500.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.formats import hostile_workbooks as hw
from tests.web.conftest import PASSWORDS, SEED_002
from tests.web.server import Server


@pytest.fixture
def server(template_db: Path, tmp_path: Path) -> Iterator[Server]:
    db = tmp_path / "served.sqlite"
    shutil.copy(template_db, db)
    with Server(db, now="2025-04-10T09:30") as running:
        yield running


def _csrf(client: httpx.Client, url: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', client.get(url).text)
    assert m
    return m.group(1)


def _director(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=120)
    r = client.post("/console/login", data={"login": "director", "password": PASSWORDS["director"],
                                            "csrf": _csrf(client, "/console/login")})
    assert r.status_code in (200, 303), r.text
    return client


def _still_serving(server: Server) -> None:
    assert server.proc.poll() is None, "the server process died"
    with httpx.Client(base_url=server.url, timeout=30) as other:
        assert other.get("/api/events").status_code == 200
        assert other.get("/events/1").status_code == 200


def test_hostile_workbooks_are_refused_and_the_server_goes_on(server: Server, tmp_path: Path) -> None:
    director = _director(server)
    files = [
        hw.one_cell_at(tmp_path / "probe.xlsx", "XFD1048576"),
        hw.one_cell_at(tmp_path / "gr.xlsx", "GR1000000"),
        hw.xlsx(tmp_path / "dim.xlsx", dimension="A1:XFD1048576"),
        hw.zip_bomb(tmp_path / "bomb.xlsx", 201),
        hw.ods(tmp_path / "rep.ods", f'<table:table-row table:number-rows-repeated="1000000">{hw.ODS_CELL}'
               "</table:table-row>"),
        hw.xls_corner(tmp_path / "corner.xls"),
    ]
    words = ["XFD1048576, 超过上限", "GR1000000, 超过上限", "声明的范围到 XFD1048576", "超过每个部分 200 MB 的上限",
             "A1000000, 超过上限", "读取该文件需要超过 1024 MB 内存"]
    for path, word in zip(files, words, strict=True):
        for url, field in (("/console/events/1/roster", "roster"), ("/console/events/1/rounds/jia/1/sheet", "sheet")):
            r = director.post(url, data={"csrf": _csrf(director, "/console/events/1")},
                              files={field: (path.name, path.read_bytes())})
            assert r.status_code == 400, (path.name, url, r.status_code, r.text[:500])
            assert word in r.text, (path.name, url)
            _still_serving(server)
    # In English too, and nothing was imported.
    r = director.post("/console/events/1/roster?lang=en", data={"csrf": _csrf(director, "/console/events/1")},
                      files={"roster": ("probe.xlsx", files[0].read_bytes())})
    assert r.status_code == 400 and "has a filled cell at XFD1048576, past the limits" in r.text
    names = [e["name"] for e in httpx.get(server.url + "/api/events/1/entries").json()["entries"]]
    assert len(names) == 8


def test_a_regulation_with_a_5000_digit_integer_is_a_located_refusal(server: Server) -> None:
    director = _director(server)
    text = SEED_002.read_text(encoding="utf-8").replace("year = 2025", "year = " + "9" * 5000, 1)
    r = director.post("/console/events", data={"csrf": _csrf(director, "/console")},
                      files={"regulation": ("big.toml", text.encode("utf-8"))})
    assert r.status_code == 400, r.text[:500]
    line = text[: text.index("year = ")].count("\n") + 1
    assert f"big.toml:{line}: year: 数字过大 (超过24个字符或超出64位整数范围)" in r.text
    big = b"# " + b"x" * (1024 * 1024) + b"\n"
    r = director.post("/console/events", data={"csrf": _csrf(director, "/console")},
                      files={"regulation": ("huge.toml", big)})
    assert r.status_code == 400 and "超过规程文件的上限 1048576 字节 (1 MB)" in r.text
    _still_serving(server)


def test_pages_answer_while_a_big_workbook_is_read(server: Server, tmp_path: Path) -> None:
    # A real 10,000-row result sheet takes a second or two to check and read; the upload waits
    # for the reading process in a thread, so the one server process goes on answering (on main
    # calamine ran on the event loop and every page waited for it).
    import threading
    import time

    import xlsxwriter

    path = tmp_path / "big.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("成绩")
    sheet.write_row(0, 0, ["台次", "结果", "备注"])
    for r in range(1, 9_999):
        sheet.write_row(r, 0, [str(r), "黑胜", f"第{r}台的备注" * 3])
    book.close()
    director = _director(server)
    token = _csrf(director, "/console/events/1")
    done: dict[str, float] = {}

    def upload() -> None:
        director.post("/console/events/1/rounds/jia/1/sheet", data={"csrf": token},
                      files={"sheet": ("big.xlsx", path.read_bytes())})
        done["upload"] = time.monotonic()

    worker = threading.Thread(target=upload)
    worker.start()
    time.sleep(0.3)  # the upload has been sent and is being read
    with httpx.Client(base_url=server.url, timeout=30) as other:
        assert other.get("/api/events").status_code == 200
    answered = time.monotonic()
    worker.join(timeout=120)
    assert "upload" in done and answered < done["upload"], "the page waited for the workbook"
