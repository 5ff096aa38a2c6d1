"""Player profiles in the store (SQLite and PostgreSQL): saved, replaced, read back only by
their owner (or an official), the account's name following the profile; the division follows
the regulation's birth windows (seed 000 十一(二)3)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from tests.conftest import REGULATIONS
from tests.live.conftest import db_url
from yisai.services import live
from yisai.services.accounts import user_actor
from yisai.services.context import open_context
from yisai.services.errors import Forbidden
from yisai.services.events import create_event
from yisai.services.profiles import ProfileInvalid, division_for, get_profile, save_profile
from yisai.store import account_rows
from yisai.vocabulary.people import Gender

__all__ = ["db_url"]
NOW = datetime(2025, 5, 10, 12)


def test_a_profile_is_stored_replaced_and_private(db_url: str) -> None:
    ctx = open_context(db_url, actor="测试", now=lambda: NOW)
    with ctx.work() as w:
        create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    users = []
    for phone in ("13800000001", "13800000002"):
        with ctx.work() as w:
            users.append(account_rows.add_user(w.session, w.stamp, phone, phone, "player", None, phone=phone))
    me, other = users
    with ctx.work() as w:
        actor = user_actor(w, me.id)
    assert actor is not None
    with ctx.work(actor=actor) as w:
        save_profile(w, me.id, {"name": "赵一", "gender": "男", "birth": "2010-01-02", "region": "浙江",
                                "rank": "业余2段", "guardian_phone": "13900000009"})  # fmt: skip
    with ctx.work(actor=actor) as w:
        p = save_profile(w, me.id, {"name": "赵一一", "gender": "M", "birth": "2000-01-02", "region": "浙江",
                                    "rank": ""})  # an adult now: no guardian needed
        assert p.guardian_phone is None
    with ctx.work(actor=actor) as w:
        got = get_profile(w, me.id)
        assert got is not None and (got.name, got.gender, got.birth, got.rank) == ("赵一一", Gender.MALE,
                                                                                  date(2000, 1, 2), "")
        assert account_rows.get_user(w.session, me.id).display_name == "赵一一"
        with pytest.raises(Forbidden):
            get_profile(w, other.id)
        with pytest.raises(Forbidden):
            save_profile(w, other.id, {"name": "x"})
    with ctx.work(actor=actor) as w, pytest.raises(ProfileInvalid) as bad:
        save_profile(w, me.id, {"name": "赵一", "gender": "男", "birth": "2010-01-02", "region": "浙江"})
    assert list(bad.value.problems) == ["guardian_phone"]
    with ctx.work(actor=actor) as w:  # the refused save changed nothing
        got = get_profile(w, me.id)
        assert got is not None and got.birth == date(2000, 1, 2)
    ctx.close()


def test_the_division_follows_the_regulations_birth_windows(tmp_path: object) -> None:
    ctx = open_context(f"{tmp_path}/d.sqlite", actor="测试", now=lambda: NOW)
    with ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        cfg = live.live_config(w, event.id)
    cases = {date(2011, 8, 31): "open", date(2011, 9, 1): "junior", date(2019, 8, 31): "junior",
             date(2019, 9, 1): "kids", date(2022, 1, 1): "kids", date(1960, 1, 1): "open"}  # fmt: skip
    for born, division in cases.items():
        assert division_for(cfg.regulation, cfg.stage, born) == division, born
    ctx.close()
