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


def test_a_large_upload_decodes_the_session_once_and_builds_the_actor_once(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A body over the 1 MB form limit on an upload route is read only for a signed-in account:
    # the body-limit middleware decodes the session and reads the account before the first
    # byte; the route then asks again (session_of, current_actor) and must reuse that.
    from yisai.web import bodies

    director = site.login("director")
    signer = site.client.app.state.web.signer  # type: ignore[attr-defined]
    decoded: list[str] = []
    built: list[int] = []
    real_loads, real_actor = signer.loads, console.user_actor

    def loads(raw, *args, **kwargs):  # type: ignore[no-untyped-def]
        decoded.append(raw)
        return real_loads(raw, *args, **kwargs)

    def counted(work, uid, epoch):  # type: ignore[no-untyped-def]
        built.append(uid)
        return real_actor(work, uid, epoch)

    token = director.get("/console/events/1/entries").text.split('name="csrf" value="')[1].split('"')[0]
    monkeypatch.setattr(signer, "loads", loads)
    monkeypatch.setattr(console, "user_actor", counted)
    monkeypatch.setattr(bodies, "user_actor", counted)
    big = b"x" * (1024 * 1024 + 1)  # one byte over the form limit: the account is checked first
    r = director.post("/console/events/1/roster", data={"csrf": token},
                      files={"roster": ("roster.csv", big)}, follow_redirects=False)
    assert r.status_code != 401, r.text  # signed in: the body was read
    assert len(decoded) == 1, decoded
    assert len(built) == 1, built
