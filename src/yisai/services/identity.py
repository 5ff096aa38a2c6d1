"""Who is acting: an authenticated user with a role, checked by every write service.

Roles follow the regulations' people: 裁判长 (chief referee) runs the event, 裁判员 (referee)
enters results, 领队 (team leader) registers their own team, 运营 (operator) runs the platform.
The CLI acts for the person at the keyboard: the OS user (or ``--actor``) with the role given
(chief referee by default: whoever holds the database file runs the event).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from yisai.i18n import Text
from yisai.services.errors import Forbidden


class Role(StrEnum):
    CHIEF_REFEREE = "chief_referee"
    REFEREE = "referee"
    TEAM_LEADER = "team_leader"
    OPERATOR = "operator"
    PLAYER = "player"

    @property
    def label(self) -> Text:
        return ROLE_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Role:
        t = text.strip()
        for role, label in ROLE_LABELS.items():
            if t in (role.value, label.zh, label.en):
                return role
        raise ValueError(text)


ROLE_LABELS: dict[Role, Text] = {
    Role.CHIEF_REFEREE: Text("裁判长", "chief referee"),
    Role.REFEREE: Text("裁判员", "referee"),
    Role.TEAM_LEADER: Text("领队", "team leader"),
    Role.OPERATOR: Text("运营", "operator"),
    Role.PLAYER: Text("棋手", "player"),
}


class Action(StrEnum):
    """Every write a service performs, with the roles allowed to do it (``ALLOWED``)."""

    CREATE_EVENT = "create_event"
    REGISTER = "register"  # add players, import rosters, add teams
    APPROVE = "approve"  # approve / reject / force entries, fee status
    PAIR = "pair"
    RECORD_RESULT = "record_result"
    CHANGE_RESULT = "change_result"
    PUBLISH = "publish"
    APPEAL = "appeal"
    MANAGE_USERS = "manage_users"
    MIGRATE = "migrate"
    REVIEW_GAMES = "review_games"  # 赛风赛纪: annul or correct online games, suspend players
    QUALIFIER_DUTIES = "qualifier_duties"  # reminders before the confirmation deadline, lapses after
    NOTICES = "notices"  # the SMS queue: see it, send a failed notice again, switches and budget
    DECIDE_PRIZES = "decide_prizes"  # docking, judged awards, a pool overrun (issue 41)
    SETTLE_PAYMENTS = "settle_payments"  # ask providers about open orders, close expired ones (issue 46)


ACTION_LABELS: dict[Action, Text] = {
    Action.CREATE_EVENT: Text("创建比赛", "create an event"),
    Action.REGISTER: Text("登记报名", "register entries"),
    Action.APPROVE: Text("审核报名", "approve entries"),
    Action.PAIR: Text("编排", "pair a round"),
    Action.RECORD_RESULT: Text("录入成绩", "enter results"),
    Action.CHANGE_RESULT: Text("更正成绩", "correct results"),
    Action.PUBLISH: Text("发布", "publish"),
    Action.APPEAL: Text("处理申诉", "decide appeals"),
    Action.MANAGE_USERS: Text("管理账号", "manage accounts"),
    Action.MIGRATE: Text("升级数据库", "upgrade the database"),
    Action.REVIEW_GAMES: Text("审查对局与处罚", "review games and sanction players"),
    Action.QUALIFIER_DUTIES: Text("发送晋级提醒、处理逾期名额", "send qualifier reminders and lapse overdue places"),
    Action.NOTICES: Text("管理短信通知", "manage SMS notices"),
    Action.DECIDE_PRIZES: Text("裁定奖项与奖金", "decide prizes"),
    Action.SETTLE_PAYMENTS: Text("核对在线支付订单", "settle online payment orders"),
}

_ALL_OFFICIALS = frozenset({Role.CHIEF_REFEREE, Role.OPERATOR})
ALLOWED: dict[Action, frozenset[Role]] = {
    Action.CREATE_EVENT: _ALL_OFFICIALS,
    Action.REGISTER: _ALL_OFFICIALS | {Role.REFEREE, Role.TEAM_LEADER},
    Action.APPROVE: frozenset({Role.CHIEF_REFEREE}),
    Action.PAIR: frozenset({Role.CHIEF_REFEREE}),
    Action.RECORD_RESULT: frozenset({Role.CHIEF_REFEREE, Role.REFEREE}),
    Action.CHANGE_RESULT: frozenset({Role.CHIEF_REFEREE, Role.REFEREE}),
    Action.PUBLISH: frozenset({Role.CHIEF_REFEREE}),
    Action.APPEAL: frozenset({Role.CHIEF_REFEREE}),
    Action.MANAGE_USERS: _ALL_OFFICIALS,
    Action.MIGRATE: _ALL_OFFICIALS,
    Action.REVIEW_GAMES: frozenset({Role.CHIEF_REFEREE}),
    Action.QUALIFIER_DUTIES: _ALL_OFFICIALS,
    Action.NOTICES: _ALL_OFFICIALS,
    Action.DECIDE_PRIZES: frozenset({Role.CHIEF_REFEREE}),
    Action.SETTLE_PAYMENTS: _ALL_OFFICIALS,
}


@dataclass(frozen=True)
class Actor:
    """``id`` is the user id (web) or ``cli:<name>``; ``name`` is what the audit shows.

    ``team`` limits a team leader to one team (its store id), ``teams`` holds every team the
    account registered where the operator allowed it more than one (``max_teams``); ``event``
    limits an account to one event (a referee or chief referee made with ``--event``, a team
    leader by its team), checked by every service through ``check_event``.
    """

    id: str
    name: str
    role: Role
    team: str | None = None
    event: int | None = None
    teams: frozenset[str] = frozenset()
    max_teams: int = 1

    @property
    def own_teams(self) -> frozenset[str]:
        """The teams this account leads (its bound team and any other it registered)."""
        return self.teams | ({str(self.team)} if self.team is not None else set())

    def leads(self, team_id: str | int) -> bool:
        """A team leader of this very team."""
        return self.role is Role.TEAM_LEADER and str(team_id) in self.own_teams

    def check_event(self, event_id: int | None) -> None:
        """Refuse (``Forbidden``) an account limited to one event touching another."""
        if self.event is not None and event_id is not None and event_id != self.event:
            raise Forbidden(
                Text(f"此账号只限第{self.event}号比赛, 不能操作第{event_id}号比赛",
                     f"this account is limited to event {self.event}; event {event_id} is out of its scope"),
                code="event_scope", params={"event": event_id, "scope": self.event},
            )

    @property
    def audit_name(self) -> str:
        """How the audit log names this actor: the CLI user as such, a web user with its id."""
        return self.name if self.id.startswith("cli:") or self.id == "system" else f"{self.name}#{self.id}"

    def may(self, action: Action) -> bool:
        return self.role in ALLOWED[action]

    def require(self, action: Action) -> None:
        """Refuse (``Forbidden``) unless this actor's role may do ``action``."""
        if not self.may(action):
            label, role = ACTION_LABELS[action], self.role.label
            raise Forbidden(
                Text(f"{role.zh}无权{label.zh}", f"a {role.en} may not {label.en}"),
                params={"action": action.value, "role": self.role.value},
            )

    @classmethod
    def cli(cls, name: str, role: Role = Role.CHIEF_REFEREE) -> Actor:
        return cls(id=f"cli:{name}", name=name, role=role)

    @classmethod
    def system(cls) -> Actor:
        """Local jobs with the whole event in hand (the demo loader, scripts, tests, the server's
        scheduled qualifier reminders): the authority of the chief referee, audited as ``system``."""
        return cls(id="system", name="system", role=Role.CHIEF_REFEREE)
