"""The console over HTTP: login, CSRF, roles refused by URL, escaping, the result grid's
conflicts, corrections with notes, uploads with line/row errors, publishing, language."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.conftest import SEED_002, XSS, Site
from yisai.services.context import open_context
from yisai.services.identity import Actor
from yisai.services.publishing import audit_log
from yisai.store import audit_rows


def token_of(client: TestClient, url: str = "/console") -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', client.get(url).text)
    assert m
    return m.group(1)


def grid_post(client: TestClient, board: int, result: str, version: int, note: str = "",
              token: str | None = None) -> tuple[int, dict]:
    headers = {"X-CSRF-Token": token if token is not None else token_of(client)}
    r = client.post("/console/events/1/rounds/jia/1/result", headers=headers,
                    json={"board": board, "result": result, "version": version, "note": note, "group": ""})
    return r.status_code, r.json()


def test_login_sets_an_httponly_samesite_cookie_and_bad_logins_are_limited(site: Site) -> None:
    c = site.new_client()
    token = token_of(c, "/console/login")
    r = c.post("/console/login", data={"login": "director", "password": "director-pw", "csrf": token},
               follow_redirects=False)
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "测试director" in c.get("/console").text
    other = site.new_client()
    token = token_of(other, "/console/login")
    codes = [other.post("/console/login", data={"login": "referee", "password": "nope-nope", "csrf": token}).status_code
             for _ in range(6)]
    assert codes == [401] * 5 + [429]  # five failures allowed in five minutes, then refused
    r = other.post("/console/login", data={"login": "referee", "password": "referee-pw", "csrf": token})
    assert r.status_code == 429  # even the right password waits


def test_console_needs_login(site: Site) -> None:
    r = site.new_client().get("/console/events/1", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/console/login")


def test_post_without_csrf_token_is_refused(site: Site) -> None:
    c = site.new_client()
    assert c.post("/console/login", data={"login": "director", "password": "director-pw"}).status_code == 403
    director = site.login("director")
    r = director.post("/console/events/1/pair", data={"division": "jia", "round": "2"})
    assert r.status_code == 403 and "CSRF" in r.text
    r = director.post("/console/events/1/rounds/jia/1/result", json={"board": 1, "result": "黑胜", "version": 1})
    assert r.status_code == 403
    r = director.post("/console/events/1/rounds/jia/1/result", headers={"X-CSRF-Token": "forged"},
                      json={"board": 1, "result": "黑胜", "version": 1})
    assert r.status_code == 403
    assert site.client.get("/api/events/1/rounds/jia/1").json()["groups"][0]["boards"][0]["result"] == ""


def test_referee_cannot_do_a_chief_referees_action_by_url(site: Site) -> None:
    referee = site.login("referee")
    page = referee.get("/console/events/1/entries").text
    assert 'value="approve"' not in page  # the page hides approving …
    assert "/console/events/1/pair" not in referee.get("/console/events/1").text  # … and pairing
    token = token_of(referee)
    r = referee.post("/console/events/1/entries/1", data={"decision": "reject", "note": "x", "csrf": token})
    assert r.status_code == 403 and "裁判员无权审核报名" in r.text
    r = referee.post("/console/events/1/rounds/jia/1/publish", data={"csrf": token})
    assert r.status_code == 403
    r = referee.post("/console/events/1/pair", data={"division": "jia", "round": "1", "replace": "1", "csrf": token})
    assert r.status_code == 403
    leader = site.login("leader")
    code, body = grid_post(leader, 1, "黑胜", 1)
    assert code == 403 and body["code"] == "forbidden"


def test_names_are_escaped_everywhere(site: Site) -> None:
    for url in ("/events/1/entries", "/events/1/rounds/jia/1", "/events/1/standings/jia?ranking=mixed",
                "/events/1/standings/jia/fragment", "/events/1/rounds/jia/1/fragment"):
        text = site.client.get(url).text
        assert XSS not in text, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text, url
    director = site.login("director")
    for url in ("/console/events/1/entries", "/console/events/1/rounds/jia/1"):
        text = director.get(url).text
        assert XSS not in text and "&lt;script&gt;" in text, url


def test_two_referees_on_one_board_exactly_one_wins_and_both_are_audited(site: Site) -> None:
    _two_referees(site)


def test_two_referees_on_one_board_on_postgresql(pg_site: Site) -> None:
    _two_referees(pg_site)


def _two_referees(site: Site) -> None:
    a, b = site.login("referee"), site.login("director")
    tokens = {id(a): token_of(a), id(b): token_of(b)}
    barrier = threading.Barrier(2)
    answers: dict[str, tuple[int, dict]] = {}

    def enter(client: TestClient, word: str) -> None:
        barrier.wait()
        answers[word] = grid_post(client, 2, word, 1, token=tokens[id(client)])

    threads = [threading.Thread(target=enter, args=(a, "黑胜")), threading.Thread(target=enter, args=(b, "白胜"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(code for code, _ in answers.values())
    assert codes == [200, 409], answers
    winner = next(w for w, (code, _) in answers.items() if code == 200)
    loser = next(w for w, (code, _) in answers.items() if code == 409)
    assert answers[loser][1]["code"] == "result_conflict"
    assert answers[loser][1]["params"]["current"] == winner  # the loser sees the other's entry
    stored = site.client.get("/api/events/1/rounds/jia/1").json()["groups"][0]["boards"][1]
    assert stored["result"] == winner and stored["version"] == 2
    with open_context(site.db) as ctx, ctx.work(actor=Actor.system()) as work:
        lines = [x for x in audit_log(work, "1") if x.action in ("result", "result_refused")]
    assert [x.action for x in lines] == ["result", "result_refused"]
    assert lines[1].after is not None and lines[1].after["result"] == loser
    assert {lines[0].actor.split("#")[0], lines[1].actor.split("#")[0]} == {"测试referee", "测试director"}


def test_a_correction_needs_a_note_and_shows_before_and_after(site: Site) -> None:
    referee = site.login("referee")
    assert grid_post(referee, 3, "1", 1)[0] == 200  # "1" = 黑胜
    code, body = grid_post(referee, 3, "2", 2)
    assert code == 400 and body["code"] == "note_required"
    code, body = grid_post(referee, 3, "2", 2, note="记录员写错")
    assert code == 200 and body["result"] == "白胜" and body["version"] == 3
    director = site.login("director")
    audit = director.get("/console/events/1/audit").text
    assert "记录员写错" in audit and "测试referee" in audit
    assert re.search(r"B\+.*W\+|黑胜.*白胜|\"result\": \"B\".*\"result\": \"W\"", audit, re.S)


def test_grid_page_carries_versions_and_keyboard_script(site: Site) -> None:
    referee = site.login("referee")
    page = referee.get("/console/events/1/rounds/jia/1").text
    assert page.count('data-version="1"') == 4 and "/static/grid.js" in page
    assert "编排说明" in page and page.count("同分组配对") == 4  # every pair of round 1 explained
    assert referee.get("/static/grid.js").status_code == 200


def test_create_event_from_an_uploaded_regulation_with_line_numbered_errors(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    bad = b'id = "x"\nname = "\xe6\xb5\x8b\xe8\xaf\x95"\nyear = "two"\n'
    r = director.post("/console/events", data={"csrf": token}, files={"regulation": ("bad.toml", bad)})
    assert r.status_code == 400
    assert "bad.toml" in r.text and re.search(r"bad\.toml:\d+", r.text)
    assert len(site.client.get("/api/events").json()) == 1  # nothing created
    r = director.post("/console/events", data={"csrf": token, "name": "第二届"},
                      files={"regulation": ("seed.toml", SEED_002.read_bytes())}, follow_redirects=False)
    assert r.status_code == 303
    assert [e["name"] for e in site.client.get("/api/events").json()][-1] == "第二届"
    referee = site.login("referee")
    r = referee.post("/console/events", data={"csrf": token_of(referee)},
                     files={"regulation": ("seed.toml", SEED_002.read_bytes())})
    assert r.status_code == 403


def test_roster_upload_is_all_or_nothing_with_row_and_column(site: Site, tmp_path: Path) -> None:
    director = site.login("director")
    token = token_of(director)
    rows = ("姓名,性别,出生日期,段位,证书编号,地区,省份,组别\n"
            "新棋手甲,男,2013-05-05,2段,C-1,中国大陆,江苏,甲组\n"
            "新棋手乙,外星,2013-06-06,2段,C-2,中国大陆,江苏,甲组\n")
    r = director.post("/console/events/1/roster", data={"csrf": token},
                      files={"roster": ("roster.csv", rows.encode("utf-8"))})
    assert r.status_code == 400
    assert "第3行" in r.text or ":3:" in r.text
    assert "性别" in r.text
    names = [e["name"] for e in site.client.get("/api/events/1/entries").json()["entries"]]
    assert "新棋手甲" not in names  # nothing imported
    good = rows.replace("外星", "女")
    r = director.post("/console/events/1/roster", data={"csrf": token},
                      files={"roster": ("roster.csv", good.encode("utf-8"))}, follow_redirects=False)
    assert r.status_code == 303
    names = [e["name"] for e in site.client.get("/api/events/1/entries").json()["entries"]]
    assert {"新棋手甲", "新棋手乙"} <= set(names)


def test_director_rejects_and_force_approves_with_notes(site: Site) -> None:
    director = site.login("director")
    token = token_of(director)
    r = director.post("/console/events/1/entries/2", data={"decision": "reject", "note": "", "csrf": token})
    assert r.status_code == 400  # a rejection needs its reason
    r = director.post("/console/events/1/entries/2", data={"decision": "reject", "note": "未交证书", "csrf": token},
                      follow_redirects=False)
    assert r.status_code == 303
    page = director.get("/console/events/1/entries?status=rejected").text
    assert "棋手2" in page and "未交证书" in page


def test_publishing_makes_a_round_public(site: Site) -> None:
    referee = site.login("referee")
    for board in range(1, 5):
        assert grid_post(referee, board, "=", 1)[0] == 200
    director = site.login("director")
    token = token_of(director)
    r = director.post("/console/events/1/pair", data={"division": "jia", "round": "2", "csrf": token},
                      follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/console/events/1/rounds/jia/2")
    console = director.get(r.headers["location"]).text
    assert all(f"棋手{k}" in console for k in range(1, 8))  # the pairing exists: 棋手1…7 seated (8: the XSS name)
    before = site.client.get("/events/1/rounds/jia/2").text
    assert "尚未公布" in before and "棋手1" not in before
    r = director.post("/console/events/1/rounds/jia/2/publish", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 303
    after = site.client.get("/events/1/rounds/jia/2").text
    assert "尚未公布" not in after and all(f"棋手{k}" in after for k in range(1, 8))


def test_fragments_answer_304_until_something_changes(site: Site) -> None:
    url = "/events/1/rounds/jia/1/fragment"
    first = site.client.get(url)
    etag = first.headers["etag"]
    assert site.client.get(url, headers={"If-None-Match": etag}).status_code == 304
    referee = site.login("referee")
    assert grid_post(referee, 4, "黑胜", 1)[0] == 200
    again = site.client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200 and "黑胜" in again.text


def test_english_switch_is_remembered(site: Site) -> None:
    c = site.new_client()
    r = c.get("/events/1/standings/jia?lang=en")
    assert "Standings" in r.text and "yisai_lang=en" in r.headers["set-cookie"]
    assert "Entries" in c.get("/events/1/entries").text
    assert "报名名单" in site.new_client().get("/events/1/entries").text


def test_downloads(site: Site) -> None:
    director = site.login("director")
    for url in ("/console/events/1/rounds/jia/1/sheet.xlsx", "/console/events/1/standings/jia.xlsx"):
        r = director.get(url)
        assert r.status_code == 200 and r.content[:2] == b"PK", url
    assert site.new_client().get("/console/events/1/standings/jia.xlsx", follow_redirects=False).status_code == 303


def test_public_pages_show_no_personal_data(site: Site) -> None:
    from tests.web.test_api import assert_no_pii

    for url in ("/", "/events/1", "/events/1/entries", "/events/1/rounds/jia/1", "/events/1/standings/jia",
                "/events/1/awards", "/events/1/standings/jia?explain=1"):
        r = site.client.get(url)
        assert r.status_code == 200, url
        assert_no_pii(r.text)


def test_public_pages_set_no_session_cookie(site: Site) -> None:
    for url in ("/", "/events/1", "/events/1/standings/jia", "/events/1/rounds/jia/1/fragment"):
        r = site.new_client().get(url)
        assert r.status_code == 200 and "yisai_session" not in r.headers.get("set-cookie", ""), url


def test_print_downloads_are_the_print_service_pdfs(site: Site) -> None:
    """The console's 打印 links return the same PDFs as `yisai print` (issue 12)."""
    import subprocess
    import tempfile
    from pathlib import Path

    director = site.login("director")
    page = director.get("/console/events/1/rounds/jia/1").text
    assert "/print/pairings.pdf?division=jia&amp;round=1" in page
    r = director.get("/console/events/1/print/pairings.pdf?division=jia&round=1")
    assert r.status_code == 200 and r.content[:5] == b"%PDF-"
    assert "filename*=UTF-8''" in r.headers["content-disposition"]
    from urllib.parse import unquote  # the division by its name, not its id (issue 22)
    assert unquote(r.headers["content-disposition"]).endswith("对阵表_甲组_第1轮.pdf")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "p.pdf"
        pdf.write_bytes(r.content)
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
    assert "对阵表" in text and "台次" in text
    assert site.new_client().get("/console/events/1/print/pairings.pdf?division=jia&round=1",
                                 follow_redirects=False).status_code == 303  # login first
    bad = director.get("/console/events/1/print/nonsense.pdf")
    assert bad.status_code == 400


def test_director_withdraws_and_reinstates_mid_event_from_the_console(site: Site) -> None:
    """Round 1 is paired: withdrawing entry 3 needs the chief referee and a reason; the player
    keeps his round-1 game, shows as 退赛 on the public standings and comes back on 恢复参赛."""
    referee = site.login("referee")
    r = referee.post("/console/events/1/entries/3", data={"decision": "withdraw", "note": "伤病",
                                                          "csrf": token_of(referee)})
    assert r.status_code == 403  # a referee cannot decide a mid-event withdrawal
    director = site.login("director")
    token = token_of(director)
    r = director.post("/console/events/1/entries/3", data={"decision": "withdraw", "note": "", "csrf": token})
    assert r.status_code == 400 and "理由" in r.text
    r = director.post("/console/events/1/entries/3", data={"decision": "withdraw", "note": "伤病中途退赛",
                                                           "csrf": token}, follow_redirects=False)
    assert r.status_code == 303
    page = director.get("/console/events/1/entries?status=withdrawn").text
    assert "棋手3" in page and "伤病中途退赛" in page and 'value="reinstate"' in page
    assert "棋手3（退赛）" in site.client.get("/events/1/standings/jia").text
    r = director.post("/console/events/1/entries/3", data={"decision": "reinstate", "note": "伤愈归队",
                                                           "csrf": token}, follow_redirects=False)
    assert r.status_code == 303
    assert "棋手3（退赛）" not in site.client.get("/events/1/standings/jia").text
    with open_context(site.db) as c, c.work() as w:
        actions = [(a.action, a.note) for a in audit_rows.audit_log(w.session, 1, "entry", "3")]
    assert ("withdraw", "伤病中途退赛") in actions and ("reinstate", "伤愈归队") in actions
