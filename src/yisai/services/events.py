"""Events: created from a regulation file whose text is kept verbatim, with the lot seed fixed once.

Keeping the TOML text (not just the parsed model) means the event can always be re-read with the
exact rules it was created under, even after the schema grows.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from yisai.i18n import Text
from yisai.registry.entry import EntryStatus
from yisai.regulation import Regulation, RegulationError, loads
from yisai.regulation.stages import Stage
from yisai.services.context import InputError, Work
from yisai.services.errors import Hint, NotFoundError
from yisai.services.identity import Action
from yisai.store import EventRecord, NotFound, entry_rows, event_rows, roster_rows, team_rows

MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class EventSummary:
    event: EventRecord
    regulation: Regulation
    players: int
    teams: int
    entries: dict[str, dict[EntryStatus, int]]  # division id → status → count


def new_seed() -> int:
    """A lot seed drawn once per event; 9 digits so a referee can write it down."""
    return secrets.randbelow(900_000_000) + 100_000_000


def read_regulation_file(path: str | Path) -> tuple[str, Regulation]:
    """The file's text and its model, or InputError listing every ``FILE:LINE:`` problem."""
    from yisai.formats.regulation_file import read_file  # here: a result entry never loads formats

    p = Path(path)
    try:
        raw = read_file(p)  # unreadable, or over the size limit: one issue saying which
    except RegulationError as exc:
        problem = exc.issues[0].problem
        raise InputError(Text(f"无法读取规程文件 {p}: {problem.zh}", f"cannot read the regulation file {p}: {problem.en}"),
                         code="regulation_unreadable", params={"file": str(p)}) from None
    try:
        regulation = loads(raw, str(p))
    except RegulationError as exc:
        raise InputError(
            Text(f"规程文件 {p} 有{len(exc.issues)}处错误",
                 f"the regulation file {p} has {len(exc.issues)} error(s)"),
            [i.text for i in exc.issues], code="bad_regulation", params={"file": str(p)},
        ) from None
    return raw.decode("utf-8-sig"), regulation


def create_event(
    work: Work, regulation_path: str | Path, *, name: str | None = None, seed: int | None = None
) -> EventRecord:
    text, regulation = read_regulation_file(regulation_path)
    return create_event_from_text(work, text, regulation, name=name, seed=seed)


def create_event_from_text(
    work: Work, text: str, regulation: Regulation, *, name: str | None = None, seed: int | None = None
) -> EventRecord:
    work.require(Action.CREATE_EVENT)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(Text(f"抽签种子须在0至{MAX_SEED}之间: {seed}",
                              f"the lot seed must be between 0 and {MAX_SEED}: {seed}"),
                         code="bad_seed", params={"seed": seed})
    title = (name or regulation.name).strip()
    if not title:
        raise InputError(Text("比赛名称不能为空", "the event name cannot be empty"), code="empty_event_name")
    event = event_rows.add_event(work.session, work.stamp,
        title, regulation.id, regulation.name, text, new_seed() if seed is None else seed
    )
    work.emit("event_created", event.id, name=event.name, regulation=regulation.id)
    return event


def list_events(work: Work) -> list[EventRecord]:
    return event_rows.list_events(work.session)


def resolve_event(work: Work, ref: str | int | None) -> EventRecord:
    """An event by number or exact name; with no reference, the only event in the store (or the
    one event an account is limited to). An account limited to one event is refused any other
    here, where every service finds its event (``Actor.check_event``)."""
    found = _find_event(work, ref)
    work.check_event(found.id)
    return found


def _find_event(work: Work, ref: str | int | None) -> EventRecord:
    if (ref is None or str(ref).strip() == "") and work.actor.event is not None:
        ref = work.actor.event
    if ref is None or str(ref).strip() == "":
        events = event_rows.list_events(work.session)
        if len(events) == 1:
            return events[0]
        if not events:
            raise InputError(
                Text("数据库中还没有比赛", "the database has no event yet"),
                code="no_event", hint=Hint.CREATE_EVENT,
            )
        names = "、".join(f"{e.id}({e.name})" for e in events)
        names_en = ", ".join(f"{e.id} ({e.name})" for e in events)
        raise InputError(
            Text(f"数据库中有{len(events)}个比赛: {names}",
                 f"the database has {len(events)} events: {names_en}"),
            code="event_ambiguous", hint=Hint.EVENT,
        )
    text = str(ref).strip()
    if text.isdigit():
        try:
            return event_rows.get_event(work.session, int(text))
        except NotFound as exc:
            raise NotFoundError(exc.text, code="event_not_found", params={"event": text}) from None
    named = event_rows.events_named(work.session, text)
    if len(named) == 1:
        return named[0]
    if not named:
        raise NotFoundError(Text(f"没有名为\u201c{text}\u201d的比赛", f"no event named \u201c{text}\u201d"),
                         code="event_not_found", params={"event": text}, hint=Hint.LIST_EVENTS)
    numbers = ", ".join(str(e.id) for e in named)
    raise InputError(Text(f"有{len(named)}个比赛名为\u201c{text}\u201d, 请改用编号: {numbers}",
                          f"{len(named)} events are named \u201c{text}\u201d: use a number: {numbers}"),
                     code="event_ambiguous", params={"event": text})


@lru_cache(maxsize=32)
def _parse(text: str, regulation_id: str) -> Regulation:
    return loads(text, f"<{regulation_id}>")


def regulation_of(event: EventRecord) -> Regulation:
    """The event's regulation, parsed from the stored text (cached)."""
    try:
        return _parse(event.regulation_toml, event.regulation_id)
    except RegulationError as exc:
        raise InputError(
            Text(f"比赛{event.id}保存的规程已不能被当前版本读取",
                 f"event {event.id}: its stored regulation cannot be read by this version"),
            [i.text for i in exc.issues], code="stored_regulation_unreadable", params={"event": event.id},
        ) from None


# ------------------------------------------------------------------ lookups in the event's regulation


def resolve_division(regulation: Regulation, ref: str) -> str:
    """A division id from its id or name (少年组 / 少年 / junior); InputError lists both."""
    found = regulation.find_division(ref)
    if found is None:
        choices = regulation.division_choices()
        raise InputError(
            Text(f"没有组别“{ref}”, 本规程的组别: {choices}",
                 f"no division {ref!r}; this regulation has: {choices}"),
            code="unknown_division", params={"division": ref},
        )
    return found.id


def resolve_stage(regulation: Regulation, ref: str | None) -> str:
    if not ref:
        return ""
    for s in regulation.stages:
        if ref.strip() in (s.id, s.name):
            return s.id
    choices = "、".join(f"{s.name}({s.id})" for s in regulation.stages)
    raise InputError(
        Text(f"没有阶段“{ref}”, 本规程的阶段: {choices}", f"no stage {ref!r}; this regulation has: {choices}"),
        code="unknown_stage", params={"stage": ref},
    )


def playing_stage(reg: Regulation, division: str, stage_ref: str | None = None) -> Stage:
    """The stage whose rounds are paired here: the named one, or the last over-the-board stage
    of the division with a Swiss format."""
    if stage_ref:
        try:
            stage = reg.stage(stage_ref)
        except KeyError:
            ids = ", ".join(s.id for s in reg.stages)
            raise InputError(Text(f"未知阶段: {stage_ref} (允许: {ids})",
                                  f"unknown stage: {stage_ref} (allowed: {ids})"),
                             code="unknown_stage", params={"stage": stage_ref}) from None
        if division not in stage.divisions:
            raise InputError(Text(f"{stage.name}不包含组别 {division}",
                                  f"{stage.name} does not include division {division}"),
                             code="division_not_in_stage", params={"stage": stage.id, "division": division})
        return stage
    candidates = [
        s
        for s in reg.stages
        if division in s.divisions
        and s.format_for(division).plays_rounds
    ]
    if not candidates:
        raise InputError(Text(f"组别 {division} 没有可编排的阶段 (积分编排制)",
                              f"division {division} has no stage that can be paired (Swiss system)"),
                         code="no_pairable_stage", params={"division": division})
    return candidates[-1]


def summarise_event(work: Work, event: EventRecord) -> EventSummary:
    counts: dict[str, dict[EntryStatus, int]] = {}
    for (division, status), n in entry_rows.count_entries(work.session, event.id).items():
        counts.setdefault(division, {})[EntryStatus(status)] = n
    return EventSummary(
        event=event,
        regulation=regulation_of(event),
        players=len(roster_rows.list_players(work.session, event.id)),
        teams=len(team_rows.list_teams(work.session, event.id)),
        entries=counts,
    )
