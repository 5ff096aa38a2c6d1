"""The accounts services: who may make whom, players' phone accounts left out, the first-start
check, and a disabled account's session ending (``user_actor`` is what every request asks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from yisai.services.accounts import (
    add_account,
    create_user,
    list_accounts,
    needs_first_account,
    set_account_active,
    user_actor,
)
from yisai.services.context import open_context
from yisai.services.errors import Forbidden, InputError
from yisai.services.identity import Actor, Role


def test_who_may_make_whom_and_what_is_listed(tmp_path: Path) -> None:
    with open_context(str(tmp_path / "a.sqlite")) as ctx:
        with ctx.work(actor=Actor.system()) as work:
            assert needs_first_account(work)
            create_user(work, "13900001111", "棋手", Role.PLAYER, None, phone="13900001111")
            assert needs_first_account(work)  # a player's phone account opens no console
            boss = add_account(work, "boss", "chief_referee", "Boss-pw-123")
            assert not needs_first_account(work)
            with pytest.raises(InputError, match="棋手用手机验证码登录"):
                add_account(work, "p2", "player", "Player-pw-1")
            assert [v.user.login for v in list_accounts(work)] == ["boss"]  # no phone numbers listed
        chief_on_the_web = Actor(id=str(boss.id), name="boss", role=Role.CHIEF_REFEREE)
        with pytest.raises(Forbidden, match="只有运营账号可以新建或更改运营账号"), ctx.work(actor=chief_on_the_web) as w:
            add_account(w, "op", "operator", "Operator-pw1")
        with ctx.work(actor=chief_on_the_web) as work:
            add_account(work, "ref", "referee", "Referee-pw1")  # below themselves: allowed
        with ctx.work(actor=Actor.cli("holder")) as work:  # whoever holds the database may
            op = add_account(work, "op", "operator", "Operator-pw1")
        with pytest.raises(Forbidden), ctx.work(actor=chief_on_the_web) as w:
            set_account_active(w, "op", False)
        with pytest.raises(Forbidden, match="裁判员无权管理账号"), ctx.work(actor=Actor.cli("x", Role.REFEREE)) as w:
            list_accounts(w)
        with ctx.work(actor=Actor.system()) as work:
            assert user_actor(work, op.id) is not None
            set_account_active(work, "op", False)
            assert user_actor(work, op.id) is None  # the session cookie's user no longer acts
