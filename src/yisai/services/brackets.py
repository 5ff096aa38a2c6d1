"""Round robins (循环赛) and knockouts (淘汰赛) as the referee runs them: the same ``pair`` and
``record_result`` calls as a Swiss, with the Berger table and the bracket behind them.

Rounds are numbered through the stage: a round robin's groups play rounds 1..R together (a
smaller group finishes earlier), a following knockout takes rounds R+1, R+2 … (stored as group
``knockout``); a stand-alone knockout starts at round 1. What a later round needs is stored with
round 1 and each bracket round (``RoundRecord.info``): the groups' members and Berger seats, the
bracket's pairs in order, the seeds, the third-place pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yisai.i18n import Text, tr
from yisai.record.groups import KNOCKOUT_GROUP
from yisai.regulation.stages import (
    DoubleRoundRobinFormat,
    GroupKnockout,
    KnockoutFormat,
    KnockoutRules,
    RoundRobinFormat,
    Stage,
)
from yisai.services.context import Refused, Work
from yisai.services.event_data import current_order
from yisai.store import EventRecord, round_rows

if TYPE_CHECKING:
    from yisai.pairing import Controls, Entrant, RoundPairing
    from yisai.pairing.knockout import KnockoutRound, Slot
    from yisai.regulation import Regulation

Part = tuple[str, "RoundPairing"]


@dataclass
class Paired:
    """The parts of one round and what to store with each (group → extra info)."""

    parts: list[Part] = field(default_factory=list)
    info: dict[str, dict[str, Any]] = field(default_factory=dict)


def group_seats(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, list[str]]:
    """Each round-robin group's Berger seats (seat 1 first), as drawn in round 1."""
    return {r.group: list(r.info.get("seats", [])) for r in
            round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=1)
            if r.group and r.group != KNOCKOUT_GROUP and r.info.get("seats")}


def group_stage_rounds(seats: dict[str, list[str]]) -> int:
    """R: the rounds of the largest group (the groups play rounds 1..R together)."""
    from yisai.pairing.round_robin import group_rounds

    return max((group_rounds(len(s)) for s in seats.values()), default=0)


def knockout_rounds(work: Work, event: EventRecord, division: str, stage: Stage) -> list[KnockoutRound]:
    """The stored bracket rounds, first to last."""
    from yisai.pairing.knockout import KnockoutRound

    out = []
    for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP):
        pairs = tuple((a, b) for a, b in r.info.get("bracket", []))
        third = r.info.get("third")
        out.append(KnockoutRound(pairs, tuple(r.games), (third[0], third[1]) if third else None, r.number))
    return out


def knockout_seeds(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, int]:
    """player → seed number in the bracket (1 = top seed), as stored with its first round."""
    for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP):
        return {k: int(v) for k, v in r.info.get("seeds", {}).items()}
    return {}


def knockout_origins(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, str]:
    """player → where he entered the bracket from ("A1", "B2" …), for groups then knockout."""
    for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP):
        return dict(r.info.get("origins", {}))
    return {}


def _refuse_controls(stage: Stage, controls: Controls | None, absent: Sequence[str]) -> None:
    if absent or (controls is not None and (
            controls.fixed_pairs or controls.forbidden_pairs or controls.requested_byes or controls.sit_outs)):
        raise Refused(Text(f"{stage.name}按贝格尔表/对阵表编排, 不能指定配对、回避、轮空或缺席; "
                           "未到场的棋手请在录入成绩时判弃权",
                           f"{stage.name} is paired by its Berger table / bracket: pairs, avoidances, byes "
                           "and absences cannot be set; record a player who does not come as a forfeit"),
                      code="fixed_schedule", params={"stage": stage.id})


def _no_round(stage: Stage, last: int, round_no: int) -> Refused:
    return Refused(Text(f"{stage.name}共{last}轮, 没有第{round_no}轮",
                        f"{stage.name} has {last} rounds: there is no round {round_no}"),
                   code="no_such_round", params={"round": round_no, "stage": stage.id})


def pair_round_robin(work: Work, event: EventRecord, division: str, stage: Stage, fmt: RoundRobinFormat,
                     round_no: int, entrants: list[Entrant], reg: Regulation, controls: Controls | None,
                     absent: Sequence[str]) -> Paired:
    """Round ``round_no`` of a round-robin stage: every group still playing, or the bracket."""
    from yisai.pairing.round_robin import group_rounds, pair_group_round, snake_groups
    from yisai.pairing.round_robin import group_seats as draw_seats

    _refuse_controls(stage, controls, absent)
    rules = reg.pairing_for(division)
    out = Paired()
    if round_no == 1:
        drawn = snake_groups(entrants, len(fmt.groups), method=fmt.split, rules=rules, seed=event.seed)
        seats = {name: draw_seats(members, fmt.seats, event.seed, name)
                 for name, members in zip(fmt.groups, drawn, strict=True)}
        for name, s in seats.items():
            out.info[name] = {"seats": s, "members": sorted(s)}
    else:
        seats = group_seats(work, event, division, stage)
        if not seats:
            raise Refused(Text("找不到第1轮的分组", "the groups of round 1 are not found"),
                          code="groups_not_found", params={"stage": stage.id})
    last_group_round = group_stage_rounds(seats)
    bye = reg.scoring_for(division).bye
    if round_no <= last_group_round:
        for name, s in seats.items():
            if round_no <= group_rounds(len(s)):
                out.parts.append((name, pair_group_round(s, round_no, round_no, bye_points=bye, group=name)))
        return out
    if fmt.knockout is None:
        raise _no_round(stage, last_group_round, round_no)
    ko = fmt.knockout
    if round_no == last_group_round + 1:
        from yisai.pairing.knockout import cross_slots, group_seeds, seeded_slots

        playing = {e.id for e in entrants}  # who withdrew during the groups is not drawn into the bracket
        orders = [current_order(work, event, division, stage, [m for m in seats[g] if m in playing],
                                last_group_round) for g in seats]
        names = list(seats)
        if ko.bracket == "cross":
            slots: list[Slot] = list(cross_slots([o[:2] for o in orders]))
        else:
            slots = list(seeded_slots(group_seeds(orders, ko.qualifiers_per_group)))
        seeds = group_seeds(orders, ko.qualifiers_per_group)
        origins = {pid: f"{names[gi]}{place + 1}" for gi, o in enumerate(orders)
                   for place, pid in enumerate(o[:ko.qualifiers_per_group])}
        return _first_bracket_round(out, slots, seeds, origins, round_no, event.seed)
    return _later_bracket_round(work, event, division, stage, ko, out, round_no,
                                last_round=last_group_round + _bracket_rounds(work, event, division, stage))


def stored_cycle_seats(work: Work, event: EventRecord, division: str, stage: Stage) -> list[str]:
    """A double round robin's Berger seats (seat 1 first), as drawn in round 1."""
    return next((list(r.info["seats"]) for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=1)
                 if r.info.get("seats")), [])


def pair_double_round_robin(work: Work, event: EventRecord, division: str, stage: Stage,
                            fmt: DoubleRoundRobinFormat, round_no: int, entrants: list[Entrant], reg: Regulation,
                            controls: Controls | None, absent: Sequence[str]) -> Paired:
    """Round ``round_no`` of a double round robin: Berger round r in the first cycle (rounds
    1..n), the same pairs with colours swapped in the second (rounds n+1..2n)."""
    from yisai.pairing.round_robin import group_rounds, pair_group_round, snake_groups
    from yisai.pairing.round_robin import group_seats as draw_seats

    _refuse_controls(stage, controls, absent)
    out = Paired()
    if round_no == 1:
        (field,) = snake_groups(entrants, 1, rules=reg.pairing_for(division), seed=event.seed)
        seats = draw_seats(field, fmt.seats, event.seed, "")
        out.info[""] = {"seats": seats}
    else:
        seats = stored_cycle_seats(work, event, division, stage)
        if not seats:
            raise Refused(Text("找不到第1轮的贝格尔表序号", "the Berger seats of round 1 are not found"),
                          code="groups_not_found", params={"stage": stage.id})
    n = group_rounds(len(seats))
    if round_no > 2 * n:
        raise _no_round(stage, 2 * n, round_no)
    second = round_no > n
    out.parts.append(("", pair_group_round(seats, round_no - n if second else round_no, round_no,
                                           bye_points=reg.scoring_for(division).bye, second_cycle=second)))
    return out


def pair_knockout(work: Work, event: EventRecord, division: str, stage: Stage, fmt: KnockoutFormat,
                  round_no: int, entrants: list[Entrant], reg: Regulation, controls: Controls | None,
                  absent: Sequence[str]) -> Paired:
    """Round ``round_no`` of a stand-alone knockout seeded by rank (or lot)."""
    from yisai.lot import shuffled
    from yisai.pairing.knockout import seeded_slots
    from yisai.pairing.swiss import seeding_order

    _refuse_controls(stage, controls, absent)
    out = Paired()
    if round_no == 1:
        order = seeding_order(entrants, reg.pairing_for(division), event.seed)
        if fmt.seeding == "lot":
            order = shuffled(order, event.seed, "knockout-seeds")
        seeds = order[:fmt.players] if fmt.players else order
        if len(seeds) < 2:
            raise Refused(Text("淘汰赛至少需要2人", "a knockout needs at least 2 players"),
                          code="too_few_players", params={"stage": stage.id})
        return _first_bracket_round(out, seeded_slots(seeds), seeds, {}, round_no, event.seed)
    return _later_bracket_round(work, event, division, stage, fmt, out, round_no,
                                last_round=_bracket_rounds(work, event, division, stage))


def _bracket_rounds(work: Work, event: EventRecord, division: str, stage: Stage) -> int:
    """How many rounds the stored bracket takes (log2 of its size); 0 before it is drawn."""
    rounds = round_rows.list_rounds(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP)
    if not rounds:
        return 0
    size = 2 * len(rounds[0].info.get("bracket", []))
    return max(size.bit_length() - 1, 1)


def _first_bracket_round(out: Paired, slots: Sequence[Slot], seeds: Sequence[str], origins: dict[str, str],
                         round_no: int, seed: int) -> Paired:
    from yisai.pairing.knockout import pair_knockout_round, round_name

    seed_of = {pid: k for k, pid in enumerate(seeds, start=1)}
    pairing, pairs = pair_knockout_round(list(slots), round_no, seed=seed, seed_of=seed_of)
    out.parts.append((KNOCKOUT_GROUP, pairing))
    out.info[KNOCKOUT_GROUP] = {"bracket": [list(p) for p in pairs], "seeds": seed_of, "origins": origins,
                                "name": round_name(len(slots))[0]}
    return out


def _later_bracket_round(work: Work, event: EventRecord, division: str, stage: Stage, rules: KnockoutRules,
                         out: Paired, round_no: int, last_round: int) -> Paired:
    from yisai.pairing.knockout import (
        next_entries,
        pair_knockout_round,
        round_name,
        semi_final_losers,
    )

    done = [r for r in knockout_rounds(work, event, division, stage) if r.number < round_no]  # not the one replaced
    if not done or round_no > last_round:
        raise _no_round(stage, last_round, round_no)
    prev = done[-1]
    seed_of = knockout_seeds(work, event, division, stage)
    entries = next_entries(prev, rules, seed_of)
    third = semi_final_losers(prev, rules, seed_of) if rules.third_place else None
    pairing, pairs = pair_knockout_round(entries, round_no, seed=event.seed, third=third, seed_of=seed_of)
    out.parts.append((KNOCKOUT_GROUP, pairing))
    out.info[KNOCKOUT_GROUP] = {"bracket": [list(p) for p in pairs], "seeds": seed_of,
                                "origins": knockout_origins(work, event, division, stage),
                                "third": list(third) if third else None, "name": round_name(len(entries))[0]}
    return out


# ------------------------------------------------------------------ final places


def bracket_final_order(work: Work, event: EventRecord, division: str, stage: Stage, round_: int | None,
                        rules: KnockoutRules, groups: GroupKnockout | None) -> list[tuple[int, str, str]] | None:
    """(place, player, reason) once the bracket is decided: the bracket's places, then (after
    groups) the players who did not qualify by their place in the group, equal group places
    sharing a place. None before the final and third-place match have results. ``groups``: the
    knockout after round-robin groups (None: a knockout of the entrants or top seeds)."""
    from yisai.pairing import PairingError
    from yisai.pairing.knockout import knockout_places

    rounds = knockout_rounds(work, event, division, stage)
    numbers = round_rows.round_numbers(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP)
    if not rounds or (round_ is not None and round_ < max(numbers)):
        return None
    seed_of = knockout_seeds(work, event, division, stage)
    try:
        places = knockout_places(rounds, rules, seed_of)
    except PairingError:
        return None
    if 2 ** len(rounds) != 2 * len(rounds[0].pairs):
        return None  # the bracket has more rounds to play
    if groups is not None:  # the players the groups did not send on, by their place in the group
        q = groups.qualifiers_per_group
        seats = group_seats(work, event, division, stage)
        last = group_stage_rounds(seats)
        orders = [current_order(work, event, division, stage, s, last) for s in seats.values()]
        place = len(seed_of) + 1
        for k in range(q, max((len(o) for o in orders), default=0)):
            tier = [o[k] for o in orders if k < len(o)]
            places += [(place, pid, tr(f"小组第{k + 1}名 (并列第{place}名)",
                                       f"place {k + 1} in the group (place {place}=)")) for pid in tier]
            place += len(tier)
        if groups.places_below:
            from yisai.standings.placement import order_places_below

            values = _group_values(work, event, division, stage, orders, last, groups)
            places = order_places_below(places, groups.places_below, values)
    else:  # a knockout of the top seeds only: the others share the place after the bracket
        from yisai.services.event_data import approved_players

        rest = [p.id for p in approved_players(work, event, division) if p.id not in seed_of]
        after = len(seed_of) + 1
        places += [(after, pid, tr(f"未进入淘汰赛 (并列第{after}名)", f"not in the bracket (place {after}=)"))
                   for pid in rest]
    return places


def _group_values(work: Work, event: EventRecord, division: str, stage: Stage, orders: Sequence[Sequence[str]],
                  last: int, ko: GroupKnockout) -> dict[str, dict[str, float]]:
    """player → each criterion of ``places_below`` after the group stage (rounds 1..``last``):
    the place in his group, 积分, 对手分 … of the group games only."""
    from yisai.regulation.rules import Criterion, CriterionSpec
    from yisai.services.event_data import standings_input
    from yisai.standings.table import compute_table

    wanted: list[str] = sorted({str(c) for r in ko.places_below for c in r.criteria} - {"group_place"})
    inp = standings_input(work, event, division, stage.id)
    table = compute_table(inp.players, inp.games, min(last, inp.rounds), inp.scoring, inp.ranking,
                          [CriterionSpec(criterion=Criterion(c)) for c in wanted], lot_seed=event.seed)
    out: dict[str, dict[str, float]] = {}
    for order in orders:
        for k, pid in enumerate(order):
            row = {c: _number(table.value(pid, c)) for c in wanted}
            out[pid] = {"group_place": float(k + 1), **row}
    return out


def _number(v: object) -> float:
    """A criterion value as one number (those offered by places_below are single numbers)."""
    if isinstance(v, tuple):
        return float(v[0]) if v else 0.0
    return float(v)  # type: ignore[arg-type]
