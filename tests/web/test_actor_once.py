"""One request reads the signed-in account once (issue 42 item 9): a console page, its
navigation and the write it guards all ask who is acting; the store is asked once."""

from __future__ import annotations

import pytest

from tests.web.conftest import Site
from yisai.web import console


def test_a_console_page_reads_the_account_once(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    director = site.login("director")
    calls: list[int] = []
    real = console.user_actor

    def counted(work, uid, epoch):  # type: ignore[no-untyped-def]
        calls.append(uid)
        return real(work, uid, epoch)

    monkeypatch.setattr(console, "user_actor", counted)
    for path in ("/console/events/1/entries", "/console/events/1/rounds/jia/1", "/console/events/1/appeals"):
        calls.clear()
        r = director.get(path)
        assert r.status_code == 200, (path, r.status_code)
        assert len(calls) == 1, (path, calls)
