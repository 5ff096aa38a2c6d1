"""Polled tables under a server's ``--refresh`` (stale while revalidating): a poll after a
change gets the previous table at once and the new one is rendered in the background, never
while a poll waits; a refresh that fails leaves no table that cannot be made again."""

from __future__ import annotations

import shutil
import threading
import time
from dataclasses import replace
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.conftest import NOW, Clock
from tests.web.test_console import grid_post
from yisai.services.settings import Settings
from yisai.web.app import create_app
from yisai.web.core import PageCache
from yisai.web.refresh import Background

URL = "/events/1/rounds/jia/1/fragment"


def test_a_change_reaches_the_poll_through_a_background_rendering(template_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "site.sqlite"
    shutil.copy(template_db, db)
    app = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="s", refresh_seconds=0.2)
    rendered_in: list[str] = []
    with TestClient(app) as client:
        first = client.get(URL)
        etag = first.headers["etag"]
        assert first.status_code == 200 and "黑胜" not in first.text
        web = app.state.web
        renders = web.background

        class Watching(Background):  # which thread renders (the same pool, observed)
            def once(self, key, job):  # type: ignore[no-untyped-def]
                def observed() -> object:
                    rendered_in.append(threading.current_thread().name)
                    return job()
                return renders.once(key, observed)

        web.background = Watching()
        from tests.web.conftest import Site

        site = Site(str(db), Clock(NOW), client)
        assert grid_post(site.login("referee"), 4, "黑胜", 1)[0] == 200
        answers = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            r = client.get(URL, headers={"If-None-Match": etag})
            answers.append(r.status_code)
            if r.status_code == 200:
                assert "黑胜" in r.text and r.headers["etag"] != etag
                break
            assert r.status_code == 304  # the previous table, whole, with its own ETag
            time.sleep(0.05)
        assert answers[-1] == 200, answers
    assert any(name.startswith("yisai-refresh") for name in rendered_in), rendered_in


def test_background_runs_one_job_per_key_and_survives_a_failure() -> None:
    bg = Background(workers=2)
    gate = threading.Event()
    ran: list[str] = []

    def slow() -> None:
        gate.wait(5)
        ran.append("slow")

    assert bg.once("k", slow) is True
    assert bg.once("k", lambda: ran.append("second")) is False  # one at a time per key
    assert bg.once("other", lambda: 1 / 0) is True  # logged, not raised
    gate.set()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not bg.once("k", lambda: ran.append("after")):
        time.sleep(0.01)
    deadline = time.monotonic() + 5
    while "after" not in ran and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ran == ["slow", "after"]
    assert bg.once("other", lambda: ran.append("again")) in (True, False)
    bg.shutdown()


def test_page_cache_keeps_the_newest_rendering_and_forgets_on_request() -> None:
    cache = PageCache(min_age=60)
    key = ("standings", "jia", "zh")
    assert cache.previous(key) is None
    cache.put(key, 5, b"five")
    cache.put(key, 3, b"three")  # an older rendering finishing late never replaces a newer one
    assert cache.previous(key) == (b"five", 5)
    assert cache.ready(key, 9) == (b"five", 5)  # younger than min_age: served though stale
    cache.forget(key)
    assert cache.previous(key) is None and cache.ready(key, 5) is None


def test_two_events_never_share_a_rendered_table(template_db: Path, tmp_path: Path) -> None:
    """Renderings are kept per event: event 2's 甲组 is its own table (once event 1's was kept
    under the same division and ranking, any event number got it), and an event that does not
    exist answers so."""
    from dataclasses import replace as copy_with

    from tests.web.conftest import SEED_002, people
    from yisai.services.context import open_context
    from yisai.services.entries import register_player
    from yisai.services.events import create_event
    from yisai.services.identity import Actor, Role

    db = tmp_path / "site.sqlite"
    shutil.copy(template_db, db)
    with open_context(Settings(database=str(db), clock=lambda: NOW)) as ctx, \
            ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as work:
        second = create_event(work, SEED_002, seed=9)
        for k, p in enumerate(people()[:4]):
            register_player(work, second, p.model_copy(update={"name": f"乙赛事{k}", "id_number": None}),
                            division="jia", fee_paid=True)
    for refresh in (0, 2):
        app = create_app(copy_with(Settings(database=str(db)), clock=Clock(NOW)), secret="s", refresh_seconds=refresh)
        with TestClient(app) as client:
            first = client.get("/events/1/standings/jia/fragment")
            assert first.status_code == 200 and "棋手1" in first.text
            other = client.get(f"/events/{second.id}/standings/jia/fragment")
            assert other.status_code == 200 and "乙赛事0" in other.text and "棋手1" not in other.text
            missing = client.get(f"/events/{second.id + 5}/standings/jia/fragment")
            assert missing.status_code != 200 and "棋手1" not in missing.text


def test_a_worker_behind_another_never_sends_a_poll_back_in_time(template_db: Path, tmp_path: Path) -> None:
    """Two workers on one database: worker A has rendered the table after a result, worker B
    still serves its earlier rendering (within its --refresh). A client holding A's table and
    polling B gets 304 — not B's older table — once B has read the newer stamp; a forged stamp
    beyond what B has read gets the table as B has it."""
    db = tmp_path / "site.sqlite"
    shutil.copy(template_db, db)
    ahead = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="s", refresh_seconds=0.2)
    behind = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="s", refresh_seconds=600)
    behind.state.web.stamps.ttl = 0.05  # B reads stamps often but keeps its rendering 600 s
    from tests.web.conftest import Site

    with TestClient(ahead) as a, TestClient(behind) as b:
        first_a, first_b = a.get(URL), b.get(URL)
        assert first_a.status_code == first_b.status_code == 200
        old = first_a.headers["etag"]
        assert first_b.headers["etag"] == old  # the same table has the same ETag in every worker
        assert grid_post(Site(str(db), Clock(NOW), a).login("referee"), 4, "黑胜", 1)[0] == 200
        deadline = time.monotonic() + 10
        new = old
        while new == old and time.monotonic() < deadline:
            r = a.get(URL, headers={"If-None-Match": old})
            if r.status_code == 200:
                assert "黑胜" in r.text
                new = r.headers["etag"]
            time.sleep(0.05)
        assert new != old
        stamp = int(new.split("-")[1])
        web_b = behind.state.web
        while (web_b.stamps.last(1) or 0) < stamp and time.monotonic() < deadline:
            b.get(URL, headers={"If-None-Match": old})  # B's stamp is re-read in the background
            time.sleep(0.1)
        assert web_b.stamps.last(1) == stamp
        stale = b.get(URL)
        assert stale.status_code == 200 and "黑胜" not in stale.text and stale.headers["etag"] == old
        kept = b.get(URL, headers={"If-None-Match": new})
        assert kept.status_code == 304 and kept.headers["etag"] == new
        forged = new.replace(f"-{stamp}-", f"-{stamp + 1000}-")
        served = b.get(URL, headers={"If-None-Match": forged})
        assert served.status_code == 200 and served.headers["etag"] == old
