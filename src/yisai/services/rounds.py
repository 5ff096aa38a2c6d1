"""Pair a round, show it, enter results: the referee's loop, one transaction per command.

Swiss stages pair the whole division; a two-group stage (seed 000's final) splits the field into
groups A/B in round 1, pairs each group separately up to its last Swiss round, then pairs the
same-place final from the groups' standings. Every decision of the engine is stored with the
round so it can be printed again later.
"""

from __future__ import annotations

from dataclasses import dataclass

from yisai.pairing import Controls, PairingError, RoundPairing, pair_round
from yisai.pairing.groups import pair_placement_final, split_groups
from yisai.record import Game, Result
from yisai.record.parse import ResultSyntaxError, parse_result
from yisai.regulation import Regulation
from yisai.regulation.stages import Stage, SwissFormat, TwoGroupSwissFormat
from yisai.services.context import InputError, Refused, Work
from yisai.services.event_data import (
    division_players,
    entrants_of,
    playing_stage,
    standings_input,
    team_of,
)
from yisai.services.events import regulation_of, resolve_event
from yisai.standings import compute_standings
from yisai.store import Conflict, EventRecord, NotFound, RoundRecord

PLACEMENT_GROUP = "final"


@dataclass(frozen=True)
class PairedRound:
    event: EventRecord
    division: str
    stage: Stage
    round: int
    parts: tuple[tuple[str, RoundPairing], ...]  # (group, pairing); group "" for plain Swiss


def _groups_of(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, list[str]]:
    first = [
        r for r in work.repo.list_rounds(event.id, division, stage=stage.id) if r.number == 1
    ]
    groups: dict[str, list[str]] = {}
    for r in first:
        if r.group:
            groups[r.group] = list(r.info.get("members", []))
    return groups


def _check_previous_complete(work: Work, event: EventRecord, division: str, stage: Stage, n: int) -> None:
    if n == 1:
        return
    previous = [r for r in work.repo.list_rounds(event.id, division, stage=stage.id) if r.number == n - 1]
    if not previous:
        raise Refused(f"第{n - 1}轮尚未编排, 不能编排第{n}轮")
    missing = [
        f"{r.group + '组' if r.group and r.group != PLACEMENT_GROUP else ''}第{g.board}台"
        for r in previous
        for g in r.games
        if g.result == Result.UNKNOWN and not g.is_bye
    ]
    if missing:
        raise Refused(f"第{n - 1}轮还有{len(missing)}台没有成绩, 不能编排第{n}轮", missing[:20])


def _order(work: Work, event: EventRecord, division: str, stage: Stage, members: list[str],
           up_to: int | None = None) -> list[str]:
    """Current placement order of ``members`` (after round ``up_to``, default the latest)."""
    inp = standings_input(work, event, division, stage.id)
    if up_to is not None:
        up_to = min(up_to, inp.rounds)
    rows = compute_standings(inp, round_=up_to, subset=members, lot_seed=event.seed).rows
    return [r.player.id for r in rows]


def pair(
    work: Work,
    event_ref: str | None,
    division: str,
    round_no: int,
    *,
    stage_ref: str | None = None,
    controls: Controls | None = None,
    absent: tuple[str, ...] = (),
    replace: bool = False,
) -> PairedRound:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    if division not in {d.id for d in reg.divisions}:
        raise InputError(f"未知组别: {division} (允许: {', '.join(d.id for d in reg.divisions)})")
    stage = playing_stage(reg, division, stage_ref)
    fmt = stage.format_for(division)
    if round_no < 1:
        raise InputError(f"轮次须从1开始: {round_no}")
    _check_previous_complete(work, event, division, stage, round_no)
    players = division_players(work, event, division)
    entrants = entrants_of(players, team_of(work, event))
    rules = reg.pairing_for(division)
    scoring = reg.scoring_for(division)
    games = work.repo.games(event.id, division, stage=stage.id)
    controls = controls or Controls()
    parts: list[tuple[str, RoundPairing]] = []
    try:
        if isinstance(fmt, SwissFormat):
            if fmt.rounds is not None and round_no > fmt.rounds and not fmt.rounds_provisional:
                raise Refused(f"{stage.name}共{fmt.rounds}轮, 没有第{round_no}轮")
            order = _order(work, event, division, stage, [e.id for e in entrants])
            parts.append(("", pair_round(entrants, games, round_no, rules=rules, scoring=scoring,
                                         seed=event.seed, absent=absent, controls=controls, order=order)))
        elif isinstance(fmt, TwoGroupSwissFormat):
            parts = _pair_two_groups(work, event, division, stage, fmt, round_no, entrants, games,
                                     controls, absent, reg)
        else:
            raise Refused(f"{stage.name}的赛制不是积分编排制, 不能编排")
    except PairingError as exc:
        raise Refused(str(exc), list(exc.blocking)) from None
    for group, pairing in parts:
        info = {"explain": pairing.explain(), "warnings": list(pairing.warnings), "seed": event.seed}
        if round_no == 1 and group and group != PLACEMENT_GROUP:
            info["members"] = sorted({g.black for g in pairing.games()} | {
                g.white for g in pairing.games() if g.white} | set(pairing.sit_outs))
        try:
            work.repo.save_round(
                event.id, division, round_no, _with_bye_results(pairing.games()),
                stage=stage.id, group=group, info=info, replace=replace,
            )
        except Conflict as exc:
            raise Refused(f"{exc} (重新编排未赛的轮次请加 --replace)") from None
    return PairedRound(event, division, stage, round_no, tuple(parts))


def _with_bye_results(games: list[Game]) -> list[Game]:
    """A bye is settled at pairing time: its points are known (规程: 轮空得分)."""
    return [
        Game(g.round, g.black, None, Result.BLACK_WINS, False, g.board, reason="轮空")
        if g.is_bye else g
        for g in games
    ]


def _pair_two_groups(
    work: Work, event: EventRecord, division: str, stage: Stage, fmt: TwoGroupSwissFormat,
    round_no: int, entrants: list, games: list[Game], controls: Controls, absent: tuple[str, ...],
    reg: Regulation,
) -> list[tuple[str, RoundPairing]]:
    rules = reg.pairing_for(division)
    scoring = reg.scoring_for(division)
    final_round = fmt.placement_final.round
    if round_no > final_round:
        raise Refused(f"{stage.name}共{final_round}轮, 没有第{round_no}轮")
    if round_no == 1:
        a, b = split_groups(entrants, method=fmt.split, rules=rules, seed=event.seed)
        groups = {fmt.groups[0]: a, fmt.groups[1]: b}
    else:
        groups = _groups_of(work, event, division, stage)
        if not groups:
            raise Refused("找不到第1轮的分组")
    if round_no <= fmt.group_rounds:
        by_id = {e.id: e for e in entrants}
        parts = []
        for name, members in groups.items():
            ids = set(members)
            group_entrants = [by_id[m] for m in members if m in by_id]
            group_games = [g for g in games if g.black in ids]
            order = _order(work, event, division, stage, [e.id for e in group_entrants])
            parts.append((name, pair_round(
                group_entrants, group_games, round_no, rules=rules, scoring=scoring, seed=event.seed,
                absent=tuple(p for p in absent if p in ids),
                controls=_controls_within(controls, ids), order=order,
            )))
        return parts
    if round_no != final_round:
        raise Refused(f"分组赛共{fmt.group_rounds}轮, 第{final_round}轮为同名次决赛; 没有第{round_no}轮")
    names = list(groups)
    ranking_a = _order(work, event, division, stage, groups[names[0]])
    ranking_b = _order(work, event, division, stage, groups[names[1]])
    return [(PLACEMENT_GROUP, pair_placement_final(
        ranking_a, ranking_b, games, round_no, limit=fmt.placement_final.top, rules=rules,
        scoring=scoring, seed=event.seed))]


def _controls_within(controls: Controls, ids: set[str]) -> Controls:
    return Controls(
        fixed_pairs=tuple(p for p in controls.fixed_pairs if p[0] in ids),
        forbidden_pairs=tuple(p for p in controls.forbidden_pairs if p[0] in ids),
        requested_byes=tuple(p for p in controls.requested_byes if p in ids),
        sit_outs=tuple(p for p in controls.sit_outs if p in ids),
    )


def rounds_of(work: Work, event_ref: str | None, division: str, round_no: int,
              stage_ref: str | None = None) -> tuple[EventRecord, Regulation, list[RoundRecord]]:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    stage = playing_stage(reg, division, stage_ref)
    found = [r for r in work.repo.list_rounds(event.id, division, stage=stage.id) if r.number == round_no]
    if not found:
        raise InputError(f"{division}第{round_no}轮尚未编排")
    return event, reg, found


def record_result(
    work: Work,
    event_ref: str | None,
    division: str,
    round_no: int,
    board: int,
    text: str,
    *,
    group: str | None = None,
    stage_ref: str | None = None,
    change: bool = False,
    note: str = "",
) -> Game:
    """Enter one board's result. A board that already has a result is changed only with
    ``change`` (audited with the earlier value), so nothing is entered twice by accident."""
    try:
        parsed = parse_result(text)
    except ResultSyntaxError as exc:
        raise InputError(str(exc)) from None
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    if group is not None:
        rounds = [r for r in rounds if r.group == group]
    matches = [(r, g) for r in rounds for g in r.games if g.board == board]
    if not matches:
        raise InputError(f"第{round_no}轮没有第{board}台" + (f" ({group}组)" if group else ""))
    if len(matches) > 1:
        groups = "、".join(r.group for r, _ in matches)
        raise InputError(f"第{round_no}轮有多个第{board}台 (分组: {groups}), 请用 --group 指定")
    rnd, game = matches[0]
    if game.is_bye != parsed.bye:
        raise InputError("轮空只能用于轮空的台次" if parsed.bye else f"第{board}台是轮空, 不需要录入成绩")
    if game.result != Result.UNKNOWN and not change:
        raise Refused(
            f"第{round_no}轮第{board}台已有成绩 {game.result.value}{(' ' + game.reason) if game.reason else ''};"
            " 如需更改请加 --change (将记录修改前后的成绩)"
        )
    try:
        return work.repo.record_result(rnd.id, board, parsed.result, played=parsed.played,
                                       reason=parsed.reason, note=note)
    except NotFound as exc:
        raise InputError(str(exc)) from None
