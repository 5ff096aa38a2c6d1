"""What the web console adds around the round loop: publishing a round, refused result entries
kept in the audit, and the audit view (a result itself is entered by
``round_results.record_result``, with the version the referee saw).

Every write checks the actor's role here (``work.require``) even where the underlying service
also does, so a URL called directly by the wrong role is refused whatever page sent it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from yisai.i18n import Text
from yisai.qualifier.notices import PAIRING_PUBLISHED
from yisai.record import Result
from yisai.regulation import Regulation
from yisai.services import notices
from yisai.services.context import Refused, Work
from yisai.services.events import resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.round_results import rounds_of
from yisai.store import AuditRecord, RoundRecord, audit_rows, roster_rows, round_rows

PUBLISHED = "published"


def publish_round(work: Work, event_ref: str | None, division: str, round_no: int, note: str = "") -> int:
    """Make a paired round's pairings public (every group of it); returns the number of groups."""
    work.require(Action.PUBLISH)
    event, _reg, rounds = rounds_of(work, event_ref, division, round_no)
    for r in rounds:
        if r.status != PUBLISHED:
            round_rows.set_round_status(work.session, work.stamp, r.id, PUBLISHED, note)
    players = roster_rows.players_by_id(work.session, event.id)
    for r in rounds:
        start = round_start(_reg, r.stage, round_no)
        for g in r.games:
            if g.is_bye or g.white is None:
                continue
            for me, other, colour in ((g.black, g.white, "黑"), (g.white, g.black, "白")):
                person, opponent = players.get(me), players.get(other)
                notices.enqueue(work, PAIRING_PUBLISHED, person.phone if person else None, {
                    "event": notices.message_name(event), "round": round_no, "table": g.board, "colour": colour,
                    "opponent": opponent.name if opponent else other, "time": start,
                }, key=f"pairing:{event.id}:{r.division}:{r.group}:{round_no}:{me}:{other}:{g.board}",
                    event_id=event.id)  # fmt: skip
    work.emit("round_published", event.id, division=division, round=round_no)
    return len(rounds)


def round_start(reg: Regulation, stage: str, round_no: int) -> str:
    """When a round starts, from the stage's timetable (竞赛日程), as the pairing SMS says it."""
    for s in reg.stages:
        if s.id == stage or not stage:
            for line in s.timetable:
                if line.round == round_no:
                    return f"{line.at.month}月{line.at.day}日{line.at:%H:%M}"
    return "按竞赛日程"


PAIRED = "paired"


def results_entered(rounds: Iterable[RoundRecord]) -> int:
    """Games of these rounds with a result: a round with any may no longer be unpublished (the
    console offers 撤回公布 only where this is 0)."""
    return sum(1 for r in rounds for g in r.games if not g.is_bye and g.result != Result.UNKNOWN)


def unpublish_round(work: Work, event_ref: str | None, division: str, round_no: int, note: str = "") -> int:
    """Take a published round's pairings off the public pages again (a mistake seen before play:
    re-pair, then publish again). Refused once a game of it has a result: what was played stays
    public. Returns the number of groups."""
    work.require(Action.PUBLISH)
    event, reg, rounds = rounds_of(work, event_ref, division, round_no)
    played = results_entered(rounds)
    if played:
        name = reg.division(resolve_division(reg, division)).name
        raise Refused(Text(f"{name}第{round_no}轮已录入{played}台成绩, 不能撤回公布",
                           f"round {round_no} of {name} has {played} result(s) entered; it cannot be unpublished"),
                      code="round_has_results", params={"round": round_no, "division": division, "results": played})
    for r in rounds:
        if r.status == PUBLISHED:
            round_rows.set_round_status(work.session, work.stamp, r.id, PAIRED, note)
    work.emit("round_unpublished", event.id, division=division, round=round_no)
    return len(rounds)


def is_published(status: str) -> bool:
    return status == PUBLISHED


def record_refused_attempt(
    work: Work, event_ref: str | None, division: str, round_no: int, board: int, text: str,
    reason: dict[str, Any],
) -> None:
    """Keep a refused result entry in the audit (its own transaction: the refused one rolled back)."""
    event = resolve_event(work, event_ref)
    audit_rows.audit(work.session, work.stamp, event.id, "result_refused", "game", f"{division}/{round_no}/{board}", None,
                     {"division": division, "round": round_no, "board": board, "result": text, **reason},
                     reason.get("code", ""))


def audit_log(work: Work, event_ref: str | None) -> list[AuditRecord]:
    """Who changed what in an event, oldest first (referees and operators)."""
    if not work.actor.may(Action.MANAGE_USERS):
        work.require(Action.RECORD_RESULT)
    event = resolve_event(work, event_ref)
    return audit_rows.audit_log(work.session, event.id)


def event_stamp(work: Work, event_id: int) -> int:
    """Changes whenever anything of the event changes (for caches and polling)."""
    from yisai.store.web_rows import event_stamp as stamp

    return stamp(work.session, event_id)


@dataclass(frozen=True)
class RoundInfo:
    division: str
    number: int
    published: bool
    games: int
    entered: int


def rounds_index(work: Work, event_id: int) -> list[RoundInfo]:
    """Every paired round of an event: division, number, published, boards and results entered."""
    from yisai.store.web_rows import round_counts

    out: dict[tuple[str, int], RoundInfo] = {}
    for division, number, _group, status, games, entered in round_counts(work.session, event_id):
        key = (division, number)
        prev = out.get(key)
        if prev is not None:
            out[key] = RoundInfo(division, number, prev.published and is_published(status),
                                 prev.games + games, prev.entered + entered)
        else:
            out[key] = RoundInfo(division, number, is_published(status), games, entered)
    return sorted(out.values(), key=lambda i: (i.division, i.number))
