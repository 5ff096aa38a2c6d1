"""How each stage format is played: pairing a round, the final order, when its places are
final, the rounds a demo plays. One play per format ``kind`` (``play_of``), beside the format's
description and traits in ``regulation/format_base.py`` (the stage-format seam): callers ask the
play, never the format's class.

Swiss stages pair the whole division; a two-group stage splits the field into groups A/B in
round 1, pairs each group separately up to its last Swiss round, then pairs the same-place final
from the groups' standings; round robins and knockouts are paired from their Berger tables and
brackets (``services/brackets.py``); a team match pairs teams and their line-ups
(``services/team_matches.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yisai.i18n import Text
from yisai.record import Game
from yisai.regulation import Regulation
from yisai.regulation.format_base import StageFormat, expect_kind
from yisai.regulation.stages import (
    DoubleRoundRobinFormat,
    KnockoutFormat,
    RoundRobinFormat,
    Stage,
    SwissFormat,
    TwoGroupSwissFormat,
)
from yisai.regulation.team_match import TeamMatchFormat
from yisai.services.context import Refused, Work
from yisai.services.errors import Hint
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    approved_players,
    current_order,
    division_games,
    group_members,
    standings_input,
)
from yisai.services.events import regulation_of
from yisai.services.paired import PairedRound
from yisai.store import EventRecord, round_rows

if TYPE_CHECKING:
    from yisai.pairing import Controls, RoundPairing

Parts = list[tuple[str, "RoundPairing"]]
"""A paired round: (group, pairing) for each group ("" for a whole division)."""
FinalOrder = list[tuple[int, str, str]]
"""(place, player, reason) once a stage's places are decided by its own games."""


@dataclass(frozen=True)
class PairCall:
    """What pairing one round of a division's stage is given (``services.rounds.pair``)."""

    work: Work
    event: EventRecord
    reg: Regulation
    division: str
    stage: Stage
    fmt: StageFormat
    round_no: int
    entrants: list
    games: list[Game]
    controls: Controls
    explicit_controls: bool  # the director's own controls (check-in's sit-outs are not)
    absent: tuple[str, ...]


class StagePlay:
    """A format that is not paired in rounds (online ladder, format announced later)."""

    def pair_whole_round(self, work: Work, event: EventRecord, reg: Regulation, division: str, stage: Stage,
                         fmt: StageFormat, round_no: int, *, replace: bool) -> PairedRound | None:
        """A round paired and stored by the format itself (teams); None: pair the players."""
        return None

    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        """The round's parts and what each group stores with the round (seats, bracket)."""
        raise Refused(Text(f"{call.stage.name}的赛制不是积分编排制, 不能编排",
                           f"{call.stage.name} is not played in the Swiss system: it cannot be paired"),
                      code="not_swiss", params={"stage": call.stage.id})

    def final_order(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                    round_: int | None) -> FinalOrder | None:
        """The places the stage's own games decide (a same-place final, a bracket); None if none."""
        return None

    def planned_rounds(self, fmt: StageFormat) -> int | None:
        """The rounds the regulation plans, provisional or not (None: not stated)."""
        return None

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        """Whether the division's places are final with every round up to ``after`` complete."""
        planned = event.decided_rounds(division) or self.planned_rounds(fmt)
        return planned is not None and after >= planned

    def final_seats(self, work: Work, event: EventRecord, division: str, stage: Stage,
                    fmt: StageFormat) -> dict[str, tuple[str, int]]:
        """Who comes from where in a same-place final: group and place after the group rounds."""
        return {}

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        """Rounds a demo plays with ``entrants``; None: pair until there is no such round."""
        return None

    def least_field(self, fmt: StageFormat) -> int:
        """Players a demo needs so every round pairs without a rematch (0: the format knows)."""
        return 0


def no_such_round(stage: Stage, rounds: int, round_no: int) -> Refused:
    return Refused(Text(f"{stage.name}共{rounds}轮, 没有第{round_no}轮",
                        f"{stage.name} has {rounds} rounds: there is no round {round_no}"),
                   code="no_such_round", params={"round": round_no, "stage": stage.id})


class SwissPlay(StagePlay):
    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        from yisai.pairing import pair_round

        fmt = expect_kind(call.fmt, SwissFormat)
        event, stage, round_no, division = call.event, call.stage, call.round_no, call.division
        decided = event.decided_rounds(division)
        if decided is not None and round_no > decided:
            raise no_such_round(stage, decided, round_no)
        if fmt.rounds is not None and round_no > fmt.rounds and decided is None:
            if not fmt.rounds_provisional:
                raise no_such_round(stage, fmt.rounds, round_no)
            name = call.reg.division(division).name
            raise Refused(
                Text(f"规程暂定{fmt.rounds}轮 (视报名情况而定); 要编排第{round_no}轮, 请裁判长先确定"
                     f"{name}的轮数",
                     f"the regulation provisionally sets {fmt.rounds} rounds; to pair round "
                     f"{round_no}, the chief referee first sets {name}'s round count"),
                code="round_count_not_set", params={"rounds": fmt.rounds, "round": round_no, "division": name},
                hint=Hint.SET_ROUNDS)
        entrants, absent, controls = call.entrants, call.absent, call.controls
        info: dict[str, dict] = {}
        if fmt.elimination is not None:  # 积分编排淘汰制: who left after the rounds played is not paired
            from yisai.standings.elimination import leavings

            left = leavings(fmt.elimination, call.games, call.reg.scoring_for(division),
                            [e.id for e in entrants], round_no - 1)
            if left:
                entrants = [e for e in entrants if e.id not in left]
                staying = {e.id for e in entrants}
                absent = tuple(p for p in absent if p in staying)
                controls = _controls_within(controls, staying)
                info = {"": {"eliminated": {p: x.text().as_dict() for p, x in left.items()}}}
            if len(entrants) < 2:
                raise Refused(Text(f"按规程的淘汰办法, 第{round_no - 1}轮后只剩{len(entrants)}人, 第{round_no}轮无法编排; "
                                   "名次已由已赛各轮决定",
                                   f"by the regulation's elimination rule {len(entrants)} player(s) remain after "
                                   f"round {round_no - 1}: round {round_no} cannot be paired; the places "
                                   "follow from the rounds played"),
                              code="field_eliminated", params={"round": round_no, "remaining": len(entrants)})
        order = current_order(call.work, event, division, stage, [e.id for e in entrants])
        return [("", pair_round(entrants, call.games, round_no, rules=call.reg.pairing_for(division),
                                scoring=call.reg.scoring_for(division), seed=event.seed, absent=absent,
                                controls=controls, order=order))], info

    def final_order(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                    round_: int | None) -> FinalOrder | None:
        """With an elimination rule, once someone is out: the survivors first, then the
        eliminated by the round they went out (``standings.elimination``)."""
        rule = expect_kind(fmt, SwissFormat).elimination
        if rule is None:
            return None
        from yisai.standings import compute_standings
        from yisai.standings.elimination import elimination_order, leavings

        inp = standings_input(work, event, division, stage.id)
        up_to = None if round_ is None else min(round_, inp.rounds)
        rows = compute_standings(inp, round_=up_to, lot_seed=event.seed).rows
        ids = [r.player.id for r in rows]
        left = leavings(rule, division_games(work, event, division, stage),
                        regulation_of(event).scoring_for(division), ids, up_to)
        if not any(x.eliminated for x in left.values()):
            return None
        return elimination_order([(r.place, r.player.id) for r in rows], left)

    def planned_rounds(self, fmt: StageFormat) -> int | None:
        return expect_kind(fmt, SwissFormat).rounds

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        """Also final once an elimination rule leaves fewer than two players to pair."""
        if super().is_final(work, event, division, stage, fmt, after, numbers):
            return True
        rule = expect_kind(fmt, SwissFormat).elimination
        if rule is None or not numbers:
            return False
        from yisai.standings.elimination import leavings

        ids = [p.id for p in approved_players(work, event, division)]
        left = leavings(rule, division_games(work, event, division, stage), regulation_of(event).scoring_for(division),
                        ids, after)
        return len(ids) - len(left) < 2

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        rounds = expect_kind(fmt, SwissFormat).rounds
        if rounds is not None:
            return rounds
        # With at most n/2 rounds a rematch-free pairing always exists (Dirac: the graph of
        # possible opponents keeps minimum degree ≥ n/2, so it has a perfect matching).
        return max(1, min(entrants // 2, 9, (entrants - 1).bit_length() + 2))

    def least_field(self, fmt: StageFormat) -> int:
        swiss = expect_kind(fmt, SwissFormat)
        if swiss.rounds is None:
            return 0
        # players leave an elimination Swiss: twice the field keeps the survivors pairable
        return (4 if swiss.elimination is not None else 2) * swiss.rounds


class TwoGroupPlay(StagePlay):
    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        from yisai.pairing import pair_round
        from yisai.pairing.groups import pair_placement_final, split_groups

        fmt = expect_kind(call.fmt, TwoGroupSwissFormat)
        work, event, division, stage, round_no = call.work, call.event, call.division, call.stage, call.round_no
        entrants, games, absent = call.entrants, call.games, call.absent
        rules = call.reg.pairing_for(division)
        scoring = call.reg.scoring_for(division)
        final_round = fmt.placement_final.round
        if round_no > final_round:
            raise no_such_round(stage, final_round, round_no)
        if round_no == 1:
            a, b = split_groups(entrants, method=fmt.split, rules=rules, seed=event.seed)
            groups = {fmt.groups[0]: a, fmt.groups[1]: b}
        else:
            groups = group_members(work, event, division, stage)
            if not groups:
                raise Refused(Text("找不到第1轮的分组", "the groups of round 1 are not found"),
                              code="groups_not_found", params={"stage": stage.id})
        if round_no <= fmt.group_rounds:
            by_id = {e.id: e for e in entrants}
            parts = []
            for name, members in groups.items():
                ids = set(members)
                group_entrants = [by_id[m] for m in members if m in by_id]
                group_games = [g for g in games if g.black in ids]
                order = current_order(work, event, division, stage, [e.id for e in group_entrants])
                parts.append((name, pair_round(
                    group_entrants, group_games, round_no, rules=rules, scoring=scoring, seed=event.seed,
                    absent=tuple(p for p in absent if p in ids),
                    controls=_controls_within(call.controls, ids), order=order,
                )))
            return parts, {}
        if round_no != final_round:
            raise Refused(Text(f"分组赛共{fmt.group_rounds}轮, 第{final_round}轮为同名次决赛; 没有第{round_no}轮",
                               f"the group stage has {fmt.group_rounds} rounds and round {final_round} is "
                               f"the placement final: there is no round {round_no}"),
                          code="no_such_round", params={"round": round_no, "stage": stage.id})
        names = list(groups)
        playing = {e.id for e in entrants}  # who withdrew after the group stage meets nobody in the final
        ranking_a = current_order(work, event, division, stage, [m for m in groups[names[0]] if m in playing])
        ranking_b = current_order(work, event, division, stage, [m for m in groups[names[1]] if m in playing])
        return [(PLACEMENT_GROUP, pair_placement_final(
            ranking_a, ranking_b, games, round_no, limit=fmt.placement_final.top, rules=rules,
            scoring=scoring, seed=event.seed))], {}

    def final_order(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                    round_: int | None) -> FinalOrder | None:
        two = expect_kind(fmt, TwoGroupSwissFormat)
        if round_ is not None and round_ < two.placement_final.round:
            return None
        finals = [r for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id)
                  if r.group == PLACEMENT_GROUP]
        if not finals or any(g.result.value == "?" for g in finals[0].games):
            return None
        # the pairing engine (numpy, scipy, rustworkx) loads only for a placement final
        from yisai.pairing.groups import final_places

        groups = group_members(work, event, division, stage)
        names = list(groups)
        a = current_order(work, event, division, stage, groups[names[0]], two.group_rounds)
        b = current_order(work, event, division, stage, groups[names[1]], two.group_rounds)
        return [(p.place, p.player, p.reason)
                for p in final_places(a, b, finals[0].games, limit=two.placement_final.top,
                                      groups=(names[0], names[1]))]

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        return self.final_order(work, event, division, stage, fmt, None) is not None

    def final_seats(self, work: Work, event: EventRecord, division: str, stage: Stage,
                    fmt: StageFormat) -> dict[str, tuple[str, int]]:
        two = expect_kind(fmt, TwoGroupSwissFormat)
        out: dict[str, tuple[str, int]] = {}
        for name, members in group_members(work, event, division, stage).items():
            order = current_order(work, event, division, stage, members, two.group_rounds)
            out.update({pid: (name, k) for k, pid in enumerate(order, start=1)})
        return out

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        return expect_kind(fmt, TwoGroupSwissFormat).placement_final.round

    def least_field(self, fmt: StageFormat) -> int:
        return 4 * expect_kind(fmt, TwoGroupSwissFormat).group_rounds


class RoundRobinPlay(StagePlay):
    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        from yisai.services.brackets import pair_round_robin

        given = call.controls if call.explicit_controls else None
        paired = pair_round_robin(call.work, call.event, call.division, call.stage,
                                  expect_kind(call.fmt, RoundRobinFormat), call.round_no, call.entrants,
                                  call.reg, given, call.absent)
        return paired.parts, dict(paired.info)

    def final_order(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                    round_: int | None) -> FinalOrder | None:
        from yisai.services.brackets import bracket_final_order

        groups = expect_kind(fmt, RoundRobinFormat).knockout
        if groups is None:
            return None  # a single round robin: its crosstable places it
        return bracket_final_order(work, event, division, stage, round_, groups, groups)

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        if fmt.bracket_rules() is not None:
            return self.final_order(work, event, division, stage, fmt, None) is not None
        from yisai.pairing.round_robin import planned_rounds

        entrants = len(approved_players(work, event, division))
        groups = len(expect_kind(fmt, RoundRobinFormat).groups)
        return bool(numbers) and after >= planned_rounds(groups, entrants)

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        from yisai.pairing.round_robin import planned_rounds

        rr = expect_kind(fmt, RoundRobinFormat)
        ko = rr.knockout
        return planned_rounds(len(rr.groups), entrants, len(rr.groups) * ko.qualifiers_per_group if ko else None)


class DoubleRoundRobinPlay(StagePlay):
    """双循环: one Berger table twice, colours swapped in the second cycle; the standings of all
    the stage's games rank it, final once both cycles are complete."""

    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        from yisai.services.brackets import pair_double_round_robin

        given = call.controls if call.explicit_controls else None
        paired = pair_double_round_robin(call.work, call.event, call.division, call.stage,
                                         expect_kind(call.fmt, DoubleRoundRobinFormat), call.round_no,
                                         call.entrants, call.reg, given, call.absent)
        return paired.parts, dict(paired.info)

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        from yisai.pairing.round_robin import group_rounds
        from yisai.services.brackets import stored_cycle_seats

        seats = stored_cycle_seats(work, event, division, stage)
        return bool(seats) and after >= 2 * group_rounds(len(seats))

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        from yisai.pairing.round_robin import planned_rounds

        return 2 * planned_rounds(1, entrants)


class KnockoutPlay(StagePlay):
    def pair(self, call: PairCall) -> tuple[Parts, dict[str, dict]]:
        from yisai.services.brackets import pair_knockout

        given = call.controls if call.explicit_controls else None
        paired = pair_knockout(call.work, call.event, call.division, call.stage,
                               expect_kind(call.fmt, KnockoutFormat), call.round_no, call.entrants,
                               call.reg, given, call.absent)
        return paired.parts, dict(paired.info)

    def final_order(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                    round_: int | None) -> FinalOrder | None:
        from yisai.services.brackets import bracket_final_order

        return bracket_final_order(work, event, division, stage, round_, expect_kind(fmt, KnockoutFormat), None)

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        return self.final_order(work, event, division, stage, fmt, None) is not None

    def rounds_for(self, fmt: StageFormat, entrants: int) -> int | None:
        from yisai.pairing.knockout import bracket_size

        players = expect_kind(fmt, KnockoutFormat).players
        return bracket_size(min(entrants, players or entrants)).bit_length() - 1


class TeamMatchPlay(StagePlay):
    def pair_whole_round(self, work: Work, event: EventRecord, reg: Regulation, division: str, stage: Stage,
                         fmt: StageFormat, round_no: int, *, replace: bool) -> PairedRound | None:
        from yisai.services.team_matches import pair_team_round

        return pair_team_round(work, event, reg, division, stage, expect_kind(fmt, TeamMatchFormat), round_no,
                               replace=replace)

    def planned_rounds(self, fmt: StageFormat) -> int | None:
        return expect_kind(fmt, TeamMatchFormat).rounds

    def is_final(self, work: Work, event: EventRecord, division: str, stage: Stage, fmt: StageFormat,
                 after: int, numbers: Sequence[int]) -> bool:
        team = expect_kind(fmt, TeamMatchFormat)
        if event.decided_rounds(division) or team.rounds or not team.cycles:
            return super().is_final(work, event, division, stage, fmt, after, numbers)
        from yisai.pairing.berger import round_count
        from yisai.services.team_matches import playing_teams

        # a round robin's rounds follow the teams: every cycle of the Berger table played
        return bool(numbers) and after >= round_count(len(playing_teams(work, event, division))) * team.cycles


PLAYS: dict[str, StagePlay] = {
    "online_ladder": StagePlay(),
    "announced_later": StagePlay(),
    "swiss": SwissPlay(),
    "two_group_swiss": TwoGroupPlay(),
    "round_robin": RoundRobinPlay(),
    "double_round_robin": DoubleRoundRobinPlay(),
    "knockout": KnockoutPlay(),
    "team_match": TeamMatchPlay(),
}


def play_of(fmt: StageFormat) -> StagePlay:
    """The play registered for the format's kind."""
    return PLAYS[fmt.kind]


def _controls_within(controls: Controls, ids: set[str]) -> Controls:
    from yisai.pairing import Controls

    return Controls(
        fixed_pairs=tuple(p for p in controls.fixed_pairs if p[0] in ids),
        forbidden_pairs=tuple(p for p in controls.forbidden_pairs if p[0] in ids),
        requested_byes=tuple(p for p in controls.requested_byes if p in ids),
        sit_outs=tuple(p for p in controls.sit_outs if p in ids),
    )


__all__ = ["PLAYS", "FinalOrder", "PairCall", "Parts", "StagePlay", "no_such_round", "play_of"]
