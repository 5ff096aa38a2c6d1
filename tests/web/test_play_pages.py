"""The players' pages of the online qualifier over HTTP: sign-in by code (CSRF, rate limits,
the outbox only in developer mode), the profile (field-named Chinese errors, guardian's phone
under 18, the division from the birth date), the ticket's division, and no personal data on
public pages."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from tests.web.conftest import Clock
from tests.web.proof import TEST_PROOF_BITS, proved
from yisai.live.server import TICKET_SECONDS, read_ticket
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.settings import Settings
from yisai.web.app import create_app

IN_PERIOD_1 = datetime(2025, 5, 10, 12)  # seed 000: period 1 is 2025-05-06 (from 10:00) – 05-25
PHONE = "13812345678"
GUARDIAN = "13987654321"
SECRET = "play-test-secret"


@pytest.fixture
def site(tmp_path: Path) -> tuple[TestClient, Clock, int]:
    db = str(tmp_path / "play.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    clock = Clock(IN_PERIOD_1)
    app = create_app(Settings(database=db, clock=clock), secret=SECRET, qualifier_event=str(event.id),
                     dev_outbox=True, proof_bits=TEST_PROOF_BITS)
    return TestClient(app), clock, event.id


def csrf(client: TestClient, path: str = "/play/signin") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def code_from_outbox(client: TestClient, phone: str) -> str:
    page = client.get("/play/dev/outbox").text
    row = next(r for r in page.split("<tr>") if f'class="phone">{phone}<' in r)
    found = re.search(r"验证码为 ?(\d{6})", row)
    assert found
    return found.group(1)


def sign_in(client: TestClient, phone: str = PHONE) -> None:
    token = csrf(client)
    sent = client.post("/play/code", data=proved(client, {"csrf": token, "phone": phone}))
    assert sent.status_code == 200 and "验证码已发送" in sent.text
    r = client.post("/play/signin", data={"csrf": token, "phone": phone, "code": code_from_outbox(client, phone)},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/play"


ADULT = {"name": "张三", "gender": "M", "birth": "1990-03-04", "region": "浙江杭州", "rank": "3段"}


def test_sign_up_by_code_then_profile_then_the_ticket_names_the_division(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    assert client.get("/play", follow_redirects=False).headers["location"] == "/play/profile"
    token = csrf(client, "/play/profile")
    r = client.post("/play/profile", data={"csrf": token, **ADULT}, follow_redirects=False)
    assert r.status_code == 303
    page = client.get("/play").text
    assert "公开组" in page and "第1期进行中" in page
    ticket = re.search(r'&#34;ticket&#34;: &#34;([^&]+)&#34;', page)
    assert ticket, "the play page carries the live ticket"
    who = read_ticket(SECRET, ticket.group(1))
    assert who is not None and (who.name, who.division) == ("张三", "open")
    assert who.player.isdigit() and PHONE not in who.player  # the account id, not the phone number
    assert time.time() + TICKET_SECONDS - 60 < who.expires <= time.time() + TICKET_SECONDS


def test_the_board_page_renews_its_ticket_only_for_a_signed_in_player(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    r = client.get("/play/ticket")
    assert r.status_code == 401 and r.json() == {"error": "signin"}  # a status for the page's fetch
    sign_in(client)
    assert client.get("/play/ticket").status_code == 409  # no profile yet: no pool, no ticket
    client.post("/play/profile", data={"csrf": csrf(client, "/play/profile"), **ADULT})
    r = client.get("/play/ticket")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    who = read_ticket(SECRET, r.json()["ticket"])
    assert who is not None and (who.name, who.division) == ("张三", "open") and who.expires > time.time() + 3600
    assert PHONE not in r.text


def test_a_child_needs_a_guardian_phone_and_plays_in_the_youth_pool(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    child = {"csrf": token, "name": "小明", "gender": "M", "birth": "2015-06-01", "region": "上海", "rank": ""}
    r = client.post("/play/profile", data=child)
    assert r.status_code == 400
    assert "未满18周岁须填写监护人手机号" in r.text and 'data-field="guardian_phone"' in r.text
    r = client.post("/play/profile", data={**child, "guardian_phone": PHONE})  # the child's own number
    assert r.status_code == 400 and "不能与本人账号相同" in r.text
    r = client.post("/play/profile", data={**child, "guardian_phone": GUARDIAN}, follow_redirects=False)
    assert r.status_code == 303
    page = client.get("/play").text
    # seed 000 十一(二)3: 少年组 born 2011-09-01 .. 2019-08-31; ranked with 幼儿组 as one pool
    assert "少年组" in page and "少年组、幼儿组" in page
    ticket = re.search(r'&#34;ticket&#34;: &#34;([^&]+)&#34;', page)
    assert ticket and getattr(read_ticket(SECRET, ticket.group(1)), "division", "") == "junior"


def test_born_on_the_kids_boundary_is_a_kid(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    client.post("/play/profile", data={"csrf": token, "name": "幼幼", "gender": "F", "birth": "2019-09-01",
                                       "region": "北京", "guardian_phone": GUARDIAN})  # fmt: skip
    ticket = re.search(r'&#34;ticket&#34;: &#34;([^&]+)&#34;', client.get("/play").text)
    assert ticket and getattr(read_ticket(SECRET, ticket.group(1)), "division", "") == "kids"


def test_profile_errors_name_every_field_in_chinese(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    r = client.post("/play/profile", data={"csrf": token, "name": "", "gender": "X", "birth": "2030-01-01",
                                           "region": "", "rank": "十段", "password": "short"})  # fmt: skip
    assert r.status_code == 400
    for field in ("name", "gender", "birth", "region", "rank"):
        assert f'data-field="{field}"' in r.text, field
    assert "姓名: 请填写姓名" in r.text and "出生日期: 出生日期不合理: 2030-01-01" in r.text
    assert "段级位: 无法识别的段级位: 十段" in r.text
    r = client.post("/play/profile", data={"csrf": token, **ADULT, "birth": "1990-13-01"})
    assert r.status_code == 400 and "日期格式应为 2012-05-01: 1990-13-01" in r.text
    r = client.post("/play/profile?lang=en", data={"csrf": token, **ADULT, "name": ""})
    assert "name: required" in r.text
    r = client.post("/play/profile?lang=zh", data={"csrf": token, **ADULT, "password": "short"})
    assert r.status_code == 400 and "密码至少8个字符" in r.text


def test_every_post_is_refused_without_the_csrf_token(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    for path, data in (("/play/code", {"phone": PHONE}), ("/play/signin", {"phone": PHONE, "code": "123456"}),
                       ("/play/password", {"phone": PHONE, "password": "x" * 8}), ("/play/profile", ADULT),
                       ("/play/signout", {})):  # fmt: skip
        r = client.post(path, data=data)
        assert r.status_code == 403 and "CSRF" in r.text, path
        r = client.post(path, data={**data, "csrf": "forged"})
        assert r.status_code == 403, path
    assert "验证码" not in client.get("/play/dev/outbox").text  # no code was sent


def test_codes_are_rate_limited_and_wrong_guesses_kill_the_code(site: tuple[TestClient, Clock, int]) -> None:
    client, clock, _ = site
    token = csrf(client)
    assert client.post("/play/code", data=proved(client, {"csrf": token, "phone": PHONE})).status_code == 200
    again = client.post("/play/code", data=proved(client, {"csrf": token, "phone": PHONE}))
    assert again.status_code == 409 and "验证码发送过于频繁" in again.text
    code = code_from_outbox(client, PHONE)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        r = client.post("/play/signin", data={"csrf": token, "phone": PHONE, "code": wrong})
        assert r.status_code == 409 and "验证码错误或已过期" in r.text
    r = client.post("/play/signin", data={"csrf": token, "phone": PHONE, "code": code}, follow_redirects=False)
    assert r.status_code == 409, "five wrong guesses kill the code, even for the right one after"
    assert client.post("/play/code", data=proved(client, {"csrf": token, "phone": "12345"})).status_code == 400
    for k in range(1, 10):  # ten codes per number per day (13 min apart: within 5 an hour per address)
        clock.moment = IN_PERIOD_1 + timedelta(minutes=13 * k)
        assert client.post("/play/code", data=proved(client, {"csrf": token, "phone": PHONE})).status_code == 200
    clock.moment = IN_PERIOD_1 + timedelta(minutes=13 * 10)
    r = client.post("/play/code", data=proved(client, {"csrf": token, "phone": PHONE}))
    assert r.status_code == 409 and "今天该号码的验证码已达上限" in r.text


def test_optional_password_sign_in(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    client.post("/play/profile", data={"csrf": token, **ADULT, "password": "long-enough-pw"})
    client.post("/play/signout", data={"csrf": token})
    assert client.get("/play", follow_redirects=False).headers["location"] == "/play/signin"
    token = csrf(client)
    bad = client.post("/play/password", data={"csrf": token, "phone": PHONE, "password": "wrong-password"})
    assert bad.status_code == 409 and "账号或密码错误" in bad.text
    ok = client.post("/play/password", data={"csrf": token, "phone": "+86 138-1234-5678", "password": "long-enough-pw"},
                     follow_redirects=False)
    assert ok.status_code == 303 and client.get("/play").status_code == 200


def test_the_outbox_exists_only_in_developer_mode(tmp_path: Path) -> None:
    db = str(tmp_path / "p.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    client = TestClient(create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), qualifier_event=str(event.id),
                                   proof_bits=TEST_PROOF_BITS))
    assert client.get("/play/dev/outbox").status_code == 404
    token = csrf(client)
    assert client.post("/play/code", data=proved(client, {"csrf": token, "phone": PHONE})).status_code == 200
    assert client.get("/play/dev/outbox").status_code == 404
    assert "开发者发件箱" not in client.get("/play/signin").text


def test_no_personal_data_on_public_pages(site: tuple[TestClient, Clock, int]) -> None:
    client, _, event_id = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    client.post("/play/profile", data={"csrf": token, "name": "李四", "gender": "F", "birth": "2012-02-29",
                                       "region": "江苏南京", "rank": "1段", "guardian_phone": GUARDIAN})  # fmt: skip
    own = client.get("/play/profile").text
    assert GUARDIAN in own and "2012-02-29" in own  # the player sees their own data
    public = TestClient(client.app)
    pages = [f"/events/{event_id}", f"/events/{event_id}/qualifier", "/play/watch", "/play/signin", "/",
             f"/api/events/{event_id}/entries"]
    for path in pages:
        text = public.get(path).text
        for secret in (PHONE, GUARDIAN, "2012-02-29", "138****5678"):
            assert secret not in text, (path, secret)
    assert client.get("/play/games").status_code == 200
    # another visitor cannot read the profile page (it redirects to sign-in)
    assert public.get("/play/profile", follow_redirects=False).headers["location"] == "/play/signin"


def test_the_play_page_says_when_the_next_period_opens(site: tuple[TestClient, Clock, int]) -> None:
    client, clock, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    client.post("/play/profile", data={"csrf": token, **ADULT})
    clock.moment = datetime(2025, 5, 6, 9, 59)  # seed 000: "每期的首日比赛从10点开始"
    assert "第1期于 2025-05-06 10:00 (北京时间) 开始" in client.get("/play").text
    clock.moment = datetime(2025, 5, 6, 10, 0)
    assert "第1期进行中" in client.get("/play").text


def test_my_games_and_records_are_the_players_own(site: tuple[TestClient, Clock, int]) -> None:
    from yisai.qualifier.session import Kind
    from yisai.services.live import finish_game, live_config, start_game

    client, _, event_id = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    client.post("/play/profile", data={"csrf": token, **ADULT})
    me = re.search(r'&#34;ticket&#34;: &#34;([^&]+)&#34;', client.get("/play").text)
    assert me
    who = read_ticket(SECRET, me.group(1))
    assert who
    ctx = client.app.state.web.ctx  # type: ignore[attr-defined]
    with ctx.work() as w:
        cfg = live_config(w, event_id)
        info, game = start_game(w, cfg, period=1, pool="open", black=(who.player, "张三"), white=("999", "对手"), start=0.0)
        action = game.act(1, Kind.RESIGN, game.version, 5.0).action  # Black (me) resigns
        finish_game(w, cfg, info.id, game, action)
    assert "本期: 第2名 · 积分-2 · 胜0局 · 共1局" in client.get("/play").text  # the opponent is first
    page = client.get("/play/games").text
    assert "W+R" in page and "中盘认输" in page and '<td class="mine">负</td>' in page
    sgf = client.get(f"/play/games/{info.id}.sgf")
    assert sgf.status_code == 200 and "RE[W+R]" in sgf.text and "PB[张三]" in sgf.text
    # having played, the player cannot change pools by changing the birth date
    r = client.post("/play/profile", data={"csrf": token, **ADULT, "birth": "2015-01-01", "guardian_phone": GUARDIAN})
    assert r.status_code == 400 and "出生日期 (决定组别) 不能再改" in r.text
    assert client.post("/play/profile", data={"csrf": token, **ADULT, "region": "浙江宁波"},
                       follow_redirects=False).status_code == 303  # other fields still change
    other = TestClient(client.app)
    sign_in(other, "13600000000")
    assert other.get(f"/play/games/{info.id}.sgf").status_code == 404  # not their game


def test_names_are_escaped_on_the_players_pages(site: tuple[TestClient, Clock, int]) -> None:
    client, _, _ = site
    sign_in(client)
    token = csrf(client, "/play/profile")
    xss = "<script>alert(1)</script>"
    client.post("/play/profile", data={"csrf": token, **ADULT, "name": xss})
    for path in ("/play", "/play/profile", "/play/games"):
        text = client.get(path).text
        assert xss not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text, path


def test_the_header_links_to_the_players_pages_only_with_a_qualifier(site: tuple[TestClient, Clock, int], tmp_path: Path) -> None:
    client, _, event_id = site
    assert 'href="/play"' in client.get(f"/events/{event_id}/qualifier").text
    plain = TestClient(create_app(Settings(database=str(tmp_path / "plain.sqlite"))))
    assert 'href="/play"' not in plain.get("/").text
    assert plain.get("/play", follow_redirects=False).status_code == 303  # to the sign-in page


def test_the_watch_pages_say_the_view_is_delayed(tmp_path: Path) -> None:
    """#31 item 8: a watcher is told that the board is behind the game (yisai serve
    --spectator-delay, 60 s by default) and that the players see it live."""
    db = str(tmp_path / "w.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    for delay, said in ((None, 60), (30.0, 30)):
        app = create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), secret=SECRET,
                         qualifier_event=str(event.id), spectator_delay=delay)
        page = TestClient(app).get("/play/watch").text
        assert f"观战画面比实际对局延迟{said}秒 (防止场外指导); 对局双方看到的是实时棋盘。" in page
    live = create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), secret=SECRET,
                      qualifier_event=str(event.id), spectator_delay=0.0)
    assert "延迟" not in TestClient(live).get("/play/watch").text  # 0 = live: nothing to say


def test_a_signed_in_player_is_not_offered_to_log_in_on_the_public_pages(site: tuple[TestClient, Clock, int]) -> None:
    """The public pages are cached for every visitor; a player who signed in with a code still
    must not read 登录 in their header (issue 43: the qualifier page said so), and the link
    they get leads to their own pages."""
    client, _, event_id = site
    anonymous = client.get(f"/events/{event_id}/qualifier").text  # cached first for a visitor
    assert 'href="/console/login"' in anonymous and 'href="/console/me"' not in anonymous
    sign_in(client)
    for path in (f"/events/{event_id}/qualifier", f"/events/{event_id}", "/"):
        text = client.get(path).text
        assert 'href="/console/login"' not in text and ">登录<" not in text, path
        assert 'href="/console/me"' in text, path
    assert client.get("/console/me", follow_redirects=False).headers["location"] == "/play"
    client.cookies.clear()
    assert '>登录<' in client.get(f"/events/{event_id}/qualifier").text
    assert client.get("/console/me", follow_redirects=False).headers["location"] == "/console/login"
