"""A WeChat or QQ identity leads to the player's one phone-verified account (one person, one
ladder line, whichever way they sign in).

The first sign-in through a provider asks for the phone code once: the code proves the number,
the number names the account (created on its first sign-in, as with the code alone), and the
identity is linked to it. Later sign-ins through that provider go straight in. An account holds
at most one identity per provider and an identity belongs to one account: a second WeChat on
the same number is refused, so nobody holding the number's code can quietly swap the identity.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from yisai.i18n import Text
from yisai.services.accounts import actor_of
from yisai.services.context import Work
from yisai.services.errors import Refused
from yisai.services.identity import Actor, Role
from yisai.services.live import sign_in_with_code
from yisai.services.oauth_providers import PROVIDER_NAMES, Identity
from yisai.store import account_rows
from yisai.store import oauth_rows as rows


def linked_actor(work: Work, identity: Identity) -> Actor | None:
    """The account this identity is linked to (and the sign-in noted); None before the first
    link, or when the account was disabled."""
    link = rows.find_link(work.session, identity.provider, identity.openid)
    if link is None:
        return None
    user = account_rows.get_user(work.session, link.user_id)
    if not user.active:
        return None
    rows.touch_link(work.session, link.id, work.now, identity.unionid)
    return actor_of(work, user)


def link_with_code(work: Work, identity: Identity, phone: str, code: str) -> Actor | None:
    """Prove the number with its code, then link the identity to that number's account.

    None for a wrong, expired or used code (the caller commits, so the guess counts, then
    raises ``live.bad_code()``), exactly as the code sign-in does."""
    actor = sign_in_with_code(work, phone, code)
    if actor is None:
        return None
    name = PROVIDER_NAMES[identity.provider]
    if actor.role is not Role.PLAYER:
        raise Refused(Text(f"工作人员账号不能关联{name.zh}登录, 请用密码登录工作台",
                           f"staff accounts cannot sign in with {name.en}; use the console's password login"),
                      code="oauth_staff")  # fmt: skip
    user_id = int(actor.id)
    taken = rows.find_link(work.session, identity.provider, identity.openid)
    if taken is not None and taken.user_id != user_id:
        raise Refused(Text(f"此{name.zh}账号已关联另一个手机号", f"this {name.en} account is linked to another number"),
                      code="oauth_taken")  # fmt: skip
    if taken is None:
        other = rows.link_of_user(work.session, user_id, identity.provider)
        if other is not None:
            raise Refused(Text(f"此手机号已关联另一个{name.zh}账号; 请用原{name.zh}或验证码登录",
                               f"this number is already linked to another {name.en} account; "
                               f"sign in with that one or with a code"),
                          code="oauth_other_linked")  # fmt: skip
        rows.add_link(work.session, work.stamp, identity.provider, identity.openid, identity.unionid, user_id)
        work.emit("oauth_linked", None, user_id=user_id, provider=identity.provider)
    return actor


# ----- the ``state`` of a sign-in on its way to the provider and back -------------------------
STATE_SECONDS = 600  # from the click to the provider's callback (a QR scan takes a minute)
STATE_CAP = 10_000  # states waiting at once, site-wide: more is a flood, not people scanning


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_state(work: Work, provider: str) -> str:
    """A fresh random ``state`` for a redirect to ``provider``: only its digest is stored, for
    ``STATE_SECONDS``, and at most ``STATE_CAP`` wait at once (a flood of clicks is refused
    instead of filling the table)."""
    since = work.now - timedelta(seconds=STATE_SECONDS)
    if rows.live_states(work.session, since) >= STATE_CAP:
        raise Refused(Text("登录请求过多, 请稍后再试", "too many sign-ins under way; try again later"),
                      code="oauth_busy")  # fmt: skip
    token = secrets.token_urlsafe(24)
    rows.add_state(work.session, _digest(token), provider, work.now, older_than=since)
    return token


def take_state(work: Work, provider: str, token: str) -> bool:
    """Use up a state: True once, for a state this site issued for ``provider`` not longer than
    ``STATE_SECONDS`` ago; False for a forged, expired or already used one (a replayed callback,
    whatever cookie it carries)."""
    if not token:
        return False
    since = work.now - timedelta(seconds=STATE_SECONDS)
    return rows.take_state(work.session, _digest(token), provider, since)


__all__ = ["STATE_SECONDS", "issue_state", "link_with_code", "linked_actor", "take_state"]
