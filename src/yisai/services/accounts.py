"""Accounts: people who sign in to the console, with a role (and for 领队 their team).

Passwords are hashed with argon2 (never stored or logged in clear). ``authenticate`` returns the
``Actor`` every service then checks; a wrong login or password gets one message for both, so
the answer does not tell which logins exist.

Managing accounts (``yisai account …``, the operator's accounts page) is for operators and chief
referees; only an operator, or whoever holds the database on the command line, may make or change
an operator account, so a chief referee cannot raise anyone above themselves. A disabled account
cannot sign in, and the sessions it already has stop working at their next request.
"""

from __future__ import annotations

from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from yisai.i18n import Text
from yisai.services.context import Work
from yisai.services.errors import Forbidden, Hint, InputError, NotFoundError, Refused
from yisai.services.events import resolve_event
from yisai.services.identity import Action, Actor, Role
from yisai.store import (
    Conflict,
    NotFound,
    UserRecord,
    account_rows,
    audit_rows,
    event_rows,
    team_rows,
)

_hasher = PasswordHasher()
MIN_PASSWORD = 8


def actor_of(work: Work, user: UserRecord) -> Actor:
    """The actor an account acts as: its role, its event (if limited to one), its teams."""
    teams = frozenset(str(t) for t in account_rows.teams_of_account(work.session, user.id))
    return Actor(
        id=str(user.id), name=user.display_name, role=Role(user.role),
        team=str(user.team_id) if user.team_id is not None else None, event=user.event_id,
        teams=teams, max_teams=user.max_teams,
    )  # fmt: skip


def bind_cli_leader(work: Work) -> None:
    """``yisai --role team_leader --actor LOGIN …``: a leader on the command line acts as the
    team-leader account of that login (its team, its event), as on the web, so the own team's
    line-up and papers are his; a name with no such account stays a leader of no team."""
    actor = work.actor
    if actor.role is not Role.TEAM_LEADER or not actor.id.startswith("cli:"):
        return
    found = account_rows.find_user(work.session, actor.name)
    if found is None:
        return
    user, _hash = found
    if user.active and user.role == Role.TEAM_LEADER.value:
        work.actor = actor_of(work, user)


SCOPED_ROLES = (Role.CHIEF_REFEREE, Role.REFEREE, Role.TEAM_LEADER)


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
        raise InputError(Text(f"未知角色: {role} (可用: {ROLE_CHOICES})", f"unknown role: {role} (use: {ROLE_CHOICES})"),
                         code="bad_role", params={"role": role}) from None
    _check_may_manage(work, chosen)
    if team_id is not None and chosen is not Role.TEAM_LEADER:
        raise InputError(Text("只有领队账号可以绑定队伍", "only a team leader's account is bound to a team"),
                         code="team_for_non_leader", params={"role": chosen.value})
    if event_id is not None and chosen not in (*SCOPED_ROLES, Role.PLAYER):
        raise InputError(Text(f"{chosen.label.zh}账号不限于一个比赛, 不能指定比赛",
                              f"a {chosen.label.en}'s account is not limited to one event: give no event"),
                         code="event_for_unscoped_role", params={"role": chosen.value})
    if work.actor.event is not None and chosen is not Role.PLAYER:
        # an account limited to one event makes accounts of that event only
        event_id = work.actor.event if event_id is None else event_id
        work.check_event(event_id)
    if password is not None:
        _check_password(password)
    hashed = _hasher.hash(password) if password is not None else None
    try:
        user = account_rows.add_user(work.session, work.stamp, login, display_name.strip() or login, chosen.value, hashed,
                                     event_id=event_id, team_id=team_id, phone=phone)
    except Conflict:
        raise Refused(Text(f"账号 {login} 已存在", f"login {login} already exists"),
                      code="login_taken") from None
    work.emit("user_created", event_id, user_id=user.id, role=chosen.value)
    return user


ROLE_CHOICES = "chief_referee 裁判长 / referee 裁判员 / team_leader 领队 / operator 运营"


def _check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise InputError(
            Text(f"密码至少{MIN_PASSWORD}个字符", f"password must have at least {MIN_PASSWORD} characters"),
            code="weak_password", params={"min": MIN_PASSWORD},
        )


def _local(actor: Actor) -> bool:
    """Whoever holds the database itself (the command line, local jobs), not a web session."""
    return actor.id.startswith("cli:") or actor.id == "system"


def _check_may_manage(work: Work, role: Role) -> None:
    """Operator accounts are made and changed only by an operator or on the command line."""
    work.require(Action.MANAGE_USERS)
    if role is Role.OPERATOR and work.actor.role is not Role.OPERATOR and not _local(work.actor):
        raise Forbidden(Text("只有运营账号可以新建或更改运营账号", "only an operator may make or change an operator account"),
                        code="operator_only", params={"role": role.value})


@dataclass(frozen=True)
class AccountView:
    """One account as the lists show it: the team and event by name, never the password."""

    user: UserRecord
    event_name: str | None
    team_name: str | None

    @property
    def role(self) -> Role:
        return Role(self.user.role)


def find_account(work: Work, login: str) -> UserRecord:
    """An account by its login (for managing it)."""
    work.require(Action.MANAGE_USERS)
    found = account_rows.find_user(work.session, login.strip())
    if found is None or found[0].role == Role.PLAYER.value:  # players sign in by phone code
        raise NotFoundError(Text(f"没有账号 {login}", f"no account {login}"), code="no_account",
                            params={"login": login})
    return found[0]


def _team_of(work: Work, event_ref: str | None, team_ref: str) -> tuple[int, int, str]:
    """(team id, event id, team name) for a team given by its number or name in the event."""
    event = resolve_event(work, event_ref)
    text = team_ref.strip()
    for t in team_rows.list_teams(work.session, event.id):
        if text in (str(t.id), t.name):
            return int(t.id), event.id, t.name
    raise NotFoundError(Text(f"{event.name}没有队伍“{text}” (队伍编号或队名)",
                             f"{event.name} has no team “{text}” (a team number or name)"),
                        code="unknown_team", params={"team": text, "event": event.id})


def add_account(
    work: Work, login: str, role: Role | str, password: str, *, display_name: str = "",
    team: str | None = None, event_ref: str | None = None,
) -> UserRecord:
    """``yisai account add`` and the accounts page: a new account, a 领队 bound to their team
    (registered in the console, from the CLI or from a roster file) when ``team`` is given."""
    work.require(Action.MANAGE_USERS)
    if str(role).strip() in (Role.PLAYER.value, Role.PLAYER.label.zh):  # players sign in by phone code
        raise InputError(Text(f"棋手用手机验证码登录, 不在此建账号 (可用: {ROLE_CHOICES})",
                              f"players sign in with a phone code (use: {ROLE_CHOICES})"),
                         code="bad_role", params={"role": str(role)})
    if not password:
        raise InputError(Text("没有给出密码", "no password given"), code="password_required", hint=Hint.PASSWORD)
    team_id = event_id = None
    if team is not None and team.strip():
        team_id, event_id, _name = _team_of(work, event_ref, team)
    elif event_ref is not None and str(event_ref).strip():
        event_id = resolve_event(work, event_ref).id  # a referee or chief referee of this event only
    return create_user(work, login, display_name or login, role, password, event_id=event_id, team_id=team_id)


def list_accounts(work: Work) -> list[AccountView]:
    """Every account but the players' (they sign in by phone code), with its event and team
    named (``yisai account list``, the accounts page)."""
    work.require(Action.MANAGE_USERS)
    events = {e.id: e for e in event_rows.list_events(work.session)}
    teams: dict[int, str] = {}
    for event_id in events:
        teams.update({int(t.id): t.name for t in team_rows.list_teams(work.session, event_id)})
    return [AccountView(u, events[u.event_id].name if u.event_id in events else None,
                        teams.get(u.team_id) if u.team_id is not None else None)
            for u in account_rows.list_users(work.session, without_role=Role.PLAYER.value)]


def reset_password(work: Work, login: str, password: str) -> UserRecord:
    """A new password for an account (``yisai account passwd``); its old one stops working."""
    user = find_account(work, login)
    _check_may_manage(work, Role(user.role))
    if not password:
        raise InputError(Text("没有给出密码", "no password given"), code="password_required", hint=Hint.PASSWORD)
    _check_password(password)
    account_rows.set_password_hash(work.session, work.stamp, user.id, _hasher.hash(password))
    work.emit("user_changed", user.event_id, user_id=user.id, change="password")
    return user


def set_account_active(work: Work, login: str, active: bool) -> UserRecord:
    """Disable an account (it cannot sign in; its open sessions end) or enable it again."""
    user = find_account(work, login)
    _check_may_manage(work, Role(user.role))
    if not active and work.actor.id == str(user.id):
        raise Refused(Text("不能停用自己正在使用的账号", "you cannot disable the account you are signed in with"),
                      code="disable_self", params={"login": user.login})
    if user.active != active:
        account_rows.set_user_active(work.session, work.stamp, user.id, active)
        work.emit("user_changed", user.event_id, user_id=user.id, change="enabled" if active else "disabled")
    return account_rows.get_user(work.session, user.id)


def bind_team(work: Work, login: str, team: str, event_ref: str | None = None) -> AccountView:
    """Bind a 领队 account to a team registered from the CLI or a roster file: the leader then
    sees and does for that team what the leader of a team registered in the console does."""
    user = find_account(work, login)
    _check_may_manage(work, Role(user.role))
    if user.role != Role.TEAM_LEADER.value:
        raise InputError(Text(f"账号 {user.login} 是{Role(user.role).label.zh}, 只有领队账号可以绑定队伍",
                              f"{user.login} is a {Role(user.role).label.en}: only a team leader's account is bound to a team"),
                         code="team_for_non_leader", params={"login": user.login, "role": user.role})
    team_id, event_id, name = _team_of(work, event_ref, team)
    account_rows.set_user_team(work.session, work.stamp, user.id, team_id, event_id)
    work.emit("user_changed", event_id, user_id=user.id, change="team", team=team_id)
    event = event_rows.get_event(work.session, event_id)
    return AccountView(account_rows.get_user(work.session, user.id), event.name, name)


def set_account_event(work: Work, login: str, event_ref: str | None) -> AccountView:
    """Limit a referee's or chief referee's account to one event (``event_ref``), or lift the
    limit (None): every service then refuses it any other event. A 领队's event is its team's."""
    user = find_account(work, login)
    _check_may_manage(work, Role(user.role))
    role = Role(user.role)
    if role not in (Role.CHIEF_REFEREE, Role.REFEREE):
        raise InputError(Text(f"账号 {user.login} 是{role.label.zh}: 只有裁判长和裁判员账号可以限定比赛"
                              + ("(领队的比赛即其队伍所在的比赛)" if role is Role.TEAM_LEADER else ""),
                              f"{user.login} is a {role.label.en}: only referees' and chief referees' accounts "
                              "are limited to one event"),
                         code="event_for_unscoped_role", params={"login": user.login, "role": user.role})
    event_id = resolve_event(work, event_ref).id if event_ref is not None and str(event_ref).strip() else None
    work.check_event(user.event_id)  # a manager limited to one event cannot free or move another's account
    if event_id is None and work.actor.event is not None:
        raise Forbidden(Text("此账号只限一个比赛, 不能解除其他账号的比赛限定",
                             "an account limited to one event cannot lift another account's limit"),
                        code="event_scope", params={"login": user.login})
    if event_id != user.event_id:
        account_rows.set_user_event(work.session, work.stamp, user.id, event_id)
        work.emit("user_changed", event_id if event_id is not None else user.event_id, user_id=user.id,
                  change="event", event=event_id)
    return _view_of(work, account_rows.get_user(work.session, user.id))


MAX_TEAMS = 50


def set_max_teams(work: Work, login: str, count: int) -> AccountView:
    """How many teams a 领队 account may register (one unless the operator allows more)."""
    user = find_account(work, login)
    if work.actor.role is not Role.OPERATOR and not _local(work.actor):
        raise Forbidden(Text("只有运营账号可以允许一个领队账号登记多支队伍",
                             "only an operator may let a team leader's account register more than one team"),
                        code="operator_only")
    if user.role != Role.TEAM_LEADER.value:
        raise InputError(Text(f"账号 {user.login} 不是领队账号", f"{user.login} is not a team leader's account"),
                         code="team_for_non_leader", params={"login": user.login, "role": user.role})
    if not 1 <= count <= MAX_TEAMS:
        raise InputError(Text(f"队伍数须在1到{MAX_TEAMS}之间: {count}", f"the number of teams is 1 to {MAX_TEAMS}: {count}"),
                         code="bad_max_teams", params={"count": count})
    if count != user.max_teams:
        account_rows.set_user_max_teams(work.session, work.stamp, user.id, count)
        work.emit("user_changed", user.event_id, user_id=user.id, change="max_teams", max_teams=count)
    return _view_of(work, account_rows.get_user(work.session, user.id))


def _view_of(work: Work, user: UserRecord) -> AccountView:
    event = event_rows.get_event(work.session, user.event_id).name if user.event_id is not None else None
    team = team_rows.get_team(work.session, user.team_id).name if user.team_id is not None else None
    return AccountView(user, event, team)


def needs_first_account(work: Work) -> bool:
    """True while no account can sign in (a fresh database): ``yisai serve`` then says how to
    make the first one. Reading a count needs no role."""
    return account_rows.count_users(work.session, active_only=True, without_role=Role.PLAYER.value) == 0


def authenticate(work: Work, login: str, password: str) -> Actor:
    """The actor for a correct login and password; one refusal text for every failure."""
    refusal = Refused(Text("账号或密码错误", "wrong login or password"), code="bad_credentials")
    found = account_rows.find_user(work.session, login.strip())
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
        account_rows.set_password_hash(work.session, work.stamp, user.id, _hasher.hash(password), end_sessions=False)
    return actor_of(work, user)


def user_actor(work: Work, user_id: int, epoch: int = 0) -> Actor | None:
    """The actor behind a session cookie's (or API token's) user id and session generation; None
    if the account is gone or disabled, or its sessions were ended since (logout, a new password,
    disabling). It reads the store on every request, so this, and a new role or binding, holds in
    every worker at once."""
    try:
        user = account_rows.get_user(work.session, user_id)
    except NotFound:
        return None
    return actor_of(work, user) if user.active and user.session_epoch == epoch else None


def session_epoch(work: Work, user_id: int) -> int:
    """The generation a new session of the account is issued at (reading it needs no role)."""
    return account_rows.get_user(work.session, user_id).session_epoch


def end_own_sessions(work: Work) -> None:
    """Logout: every session and token of the signed-in account ends, here and in every worker."""
    if work.actor.id.isdigit():
        account_rows.end_sessions(work.session, work.stamp, int(work.actor.id))
        work.emit("user_changed", None, user_id=int(work.actor.id), change="logout")


def list_users(work: Work, event_id: int | None = None) -> list[UserRecord]:
    work.require(Action.MANAGE_USERS)
    return account_rows.list_users(work.session, event_id)


def set_own_password(work: Work, password: str) -> None:
    """A signed-in user's optional password (players sign in by code; a password is a shortcut)."""
    _check_password(password)
    if not work.actor.id.isdigit():
        raise Refused(Text("只有网站账号可以设置密码", "only site accounts have passwords"), code="no_account")
    account_rows.set_password_hash(work.session, work.stamp, int(work.actor.id), _hasher.hash(password))


def unlock_account(work: Work, login: str) -> UserRecord:
    """The operator's unlock of an account's sign-in throttling (the web server forgets the
    failures it counted); recorded in the audit. Role-checked like every account change."""
    user = find_account(work, login)
    _check_may_manage(work, Role(user.role))
    audit_rows.audit(work.session, work.stamp, user.event_id, "unlock", "user", user.id, None, {"login_failures": "cleared"})
    return user
