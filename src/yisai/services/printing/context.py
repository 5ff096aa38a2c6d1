"""What every printed sheet reads: the document kinds and options, the event and its regulation,
and the other services' views, each fetched once per document."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from yisai.formats.awards_report import unit_of
from yisai.formats.printing import Document
from yisai.formats.printing.labels import labels
from yisai.i18n import Text, tr
from yisai.record.groups import KNOCKOUT_GROUP
from yisai.registry.person import Player
from yisai.regulation import Regulation
from yisai.services.context import InputError, Work
from yisai.services.event_data import PLACEMENT_GROUP
from yisai.services.events import resolve_division
from yisai.services.reports import AwardView, PrizeView, awards, prizes
from yisai.store import EventRecord, roster_rows, team_rows

KINDS: dict[str, str] = {
    "pairings": "对阵表",
    "cards": "台签",
    "slips": "记分单",
    "standings": "成绩表",
    "teams": "团体成绩",
    "matches": "团体对阵单",
    "prizes": "获奖名单",
    "rank-awards": "段位申报名单",
    "certificates": "获奖证书",
    "entries": "参赛名单",
    "booklet": "秩序册",
    "brackets": "循环赛交叉表与淘汰赛对阵",
}
KINDS_EN: dict[str, str] = {
    "pairings": "Pairings", "cards": "Table cards", "slips": "Score slips", "standings": "Standings",
    "teams": "Team standings", "matches": "Team match sheets", "prizes": "Prize list", "rank-awards": "Rank (dan) award list",
    "certificates": "Certificates", "entries": "Entry list", "booklet": "Event booklet",
    "brackets": "Round-robin crosstables and knockout bracket",
}
ALIASES = {zh: key for key, zh in KINDS.items()} | {
    "团体成绩表": "teams", "奖金名单": "prizes", "段位": "rank-awards", "证书": "certificates",
    "报名名单": "entries", "对阵": "pairings", "成绩": "standings",
    "交叉表": "brackets", "循环赛": "brackets", "淘汰赛": "brackets", "对阵图": "brackets",
    "对阵单": "matches", "团体对阵": "matches",
}


@dataclass(frozen=True)
class PrintOptions:
    """What to print: one division (None: all), the round (None: the latest paired), the stage
    (None: the division's playing stage), a certificate background image, and the time printed
    in the footer (None: the unit of work's clock)."""

    division: str | None = None
    round: int | None = None
    stage: str | None = None
    background: Path | None = None
    printed_at: datetime | None = None


def kind_of(name: str) -> str:
    """The document kind for an English key or its Chinese name; InputError lists the choices."""
    key = name.strip()
    if key in KINDS:
        return key
    if key in ALIASES:
        return ALIASES[key]
    choices = ", ".join(f"{k} ({v})" for k, v in KINDS.items())
    raise InputError(Text(f"未知的打印种类: {name} (允许: {choices})",
                          f"unknown document kind: {name} (allowed: {choices})"),
                     code="unknown_print_kind", params={"kind": name})


# ------------------------------------------------------------------ shared context


@dataclass
class PrintContext:
    work: Work
    event: EventRecord
    reg: Regulation
    opts: PrintOptions
    _prizes: PrizeView | None = None
    _players: dict[str, Player] | None = None
    _teams: dict[str, str] | None = None

    @property
    def printed_at(self) -> str:
        return (self.opts.printed_at or self.work.now).strftime("%Y-%m-%d %H:%M")

    def document(self, template: str, kind: str, **parts: object) -> Document:
        name = tr(KINDS[kind], KINDS_EN[kind])
        title = str(parts.pop("title", name))
        return Document(template=template, kind=name, event=self.event.name,  # type: ignore[arg-type]
                        title=title, printed_at=self.printed_at, labels=labels(template),
                        **parts)  # type: ignore[arg-type]

    def divisions(self) -> list[str]:
        """The chosen division (by id or name: 少年组 / 少年 / junior), else all of them."""
        if self.opts.division is None:
            return [d.id for d in self.reg.divisions]
        return [resolve_division(self.reg, self.opts.division)]

    def division_name(self, division: str) -> str:
        return self.reg.division(division).name if division else ""

    def players(self) -> dict[str, Player]:
        if self._players is None:
            self._players = roster_rows.players_by_id(self.work.session, self.event.id)
        return self._players

    def team_of(self) -> dict[str, str]:
        """player id → team name."""
        if self._teams is None:
            self._teams = {m.player_id: t.name for t in team_rows.list_teams(self.work.session, self.event.id)
                           for m in t.members}
        return self._teams

    def unit(self, pid: str | None) -> str:
        """代表队 if the player is in a team, else club/city/province (as the standings show)."""
        if not pid:
            return ""
        return self.team_of().get(pid) or unit_of(self.players().get(pid))

    def prizes(self) -> PrizeView:
        """Team standings, prize lists and the payout summary, as `yisai prizes` shows them."""
        if self._prizes is None:
            self._prizes = prizes(self.work, self.event.id)
        return self._prizes

    def awards(self) -> AwardView:
        return awards(self.work, self.event.id)


def after_round(n: int) -> str:
    return tr(f"第{n}轮后成绩", f"after round {n}")


def signatures() -> tuple[str, ...]:
    return (tr("裁判长", "Chief referee"), tr("日期", "Date"))


def group_text(group: str) -> str:
    return {"": "", PLACEMENT_GROUP: tr(" 同名次决赛", " same-place final"),
            KNOCKOUT_GROUP: tr(" 淘汰赛", " knockout")}.get(group, tr(f" {group}组", f" group {group}"))
