"""Accounts: people who sign in to the console, with a role (and for 领队 their team).

Passwords are hashed with argon2 (never stored or logged in clear). ``authenticate`` returns the
``Actor`` every service then checks; a wrong login or password gets one message for both, so
the answer does not tell which logins exist.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from yisai.i18n import Text
from yisai.services.context import Work
from yisai.services.errors import InputError, Refused
from yisai.services.identity import Action, Actor, Role
from yisai.store import Conflict, NotFound, UserRecord

_hasher = PasswordHasher()
MIN_PASSWORD = 8


def actor_of(user: UserRecord) -> Actor:
    return Actor(
        id=str(user.id), name=user.display_name, role=Role(user.role),
        team=str(user.team_id) if user.team_id is not None else None, event=user.event_id,
    )  # fmt: skip


def create_user(
    work: Work,
    login: str,
    display_name: str,
    role: Role | str,
    password: str | None,
    *,
    event_id: int | None = None,
    team_id: int | None = None,
    phone: str | None = None,
) -> UserRecord:
    """Make an account (operators and chief referees only); the password is hashed here."""
    work.require(Action.MANAGE_USERS)
    login = login.strip()
    if not login or len(login) > 100:
        raise InputError(Text("账号名不能为空, 最长100个字符", "login must be 1–100 characters"),
                         code="bad_login")
    try:
        chosen = role if isinstance(role, Role) else Role.parse(role)
    except ValueError:
        raise InputError(Text(f"未知角色: {role}", f"unknown role: {role}"), code="bad_role") from None
    if password is not None and len(password) < MIN_PASSWORD:
        raise InputError(
            Text(f"密码至少{MIN_PASSWORD}个字符", f"password must have at least {MIN_PASSWORD} characters"),
            code="weak_password",
        )
    hashed = _hasher.hash(password) if password is not None else None
    try:
        user = work.repo.add_user(login, display_name.strip() or login, chosen.value, hashed,
                                  event_id=event_id, team_id=team_id, phone=phone)
    except Conflict:
        raise Refused(Text(f"账号 {login} 已存在", f"login {login} already exists"),
                      code="login_taken") from None
    work.emit("user_created", event_id, user_id=user.id, role=chosen.value)
    return user


def authenticate(work: Work, login: str, password: str) -> Actor:
    """The actor for a correct login and password; one refusal text for every failure."""
    refusal = Refused(Text("账号或密码错误", "wrong login or password"), code="bad_credentials")
    found = work.repo.find_user(login.strip())
    if found is None:
        _hasher.hash(password)  # same work either way: no timing hint that the login is unknown
        raise refusal
    user, hashed = found
    if not user.active or not hashed:
        raise refusal
    try:
        _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        raise refusal from None
    if _hasher.check_needs_rehash(hashed):
        work.repo.set_password_hash(user.id, _hasher.hash(password))
    return actor_of(user)


def user_actor(work: Work, user_id: int) -> Actor | None:
    """The actor behind a session cookie's user id; None if the account is gone or disabled."""
    try:
        user = work.repo.get_user(user_id)
    except NotFound:
        return None
    return actor_of(user) if user.active else None


def list_users(work: Work, event_id: int | None = None) -> list[UserRecord]:
    work.require(Action.MANAGE_USERS)
    return work.repo.list_users(event_id)


def set_own_password(work: Work, password: str) -> None:
    """A signed-in user's optional password (players sign in by code; a password is a shortcut)."""
    if len(password) < MIN_PASSWORD:
        raise InputError(
            Text(f"密码至少{MIN_PASSWORD}个字符", f"password must have at least {MIN_PASSWORD} characters"),
            code="weak_password",
        )
    if not work.actor.id.isdigit():
        raise Refused(Text("只有网站账号可以设置密码", "only site accounts have passwords"), code="no_account")
    work.repo.set_password_hash(int(work.actor.id), _hasher.hash(password))
