"""Pair a round, show it, enter results: the referee's loop, one transaction per command.

Swiss stages pair the whole division; a two-group stage (seed 000's final) splits the field into
groups A/B in round 1, pairs each group separately up to its last Swiss round, then pairs the
same-place final from the groups' standings. Every decision of the engine is stored with the
round (player ids marked, so names are put in when it is printed again later).

Results come in one board at a time (``services.round_results.record_result``) or as a whole
result sheet (``import_results`` here, all or nothing); both save through
``round_results.write_result``, so every result has its history and audit entry and none is
entered twice without ``change``.
"""

from __future__ import annotations

# The pairing engine and the standings engine load when a round is paired or ranked, not for a
# single result entry (a referee pays start-up time per result).
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from yisai.formats.result_sheet import (
    ResultSheet,
    SheetIssue,
    SheetLine,
    SheetRow,
    same_name,
)
from yisai.i18n import Text, both, failure_text, language, tr
from yisai.record import Game, Result
from yisai.record.groups import KNOCKOUT_GROUP, group_id, group_label, group_title
from yisai.record.parse import (
    ACCEPTED,
    BOTH_WIN_WORD,
    ParsedResult,
    result_word,
)
from yisai.regulation import Regulation
from yisai.regulation.stages import (
    KnockoutFormat,
    RoundRobinFormat,
    Stage,
    SwissFormat,
    TwoGroupSwissFormat,
)
from yisai.regulation.team_match import TeamMatchFormat
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Conflict, Hint
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    current_order,
    division_players,
    entrants_of,
    group_members,
    team_of,
)
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.paired import PairedRound, scores_before
from yisai.services.round_results import (
    already_entered,
    entry_problem,
    rounds_of,
    same_result,
    write_result,
)
from yisai.store import Conflict as StoreConflict
from yisai.store import EventRecord, RoundRecord, StaleVersion

if TYPE_CHECKING:
    from yisai.pairing import Controls, RoundPairing


def _check_previous_complete(work: Work, event: EventRecord, division: str, stage: Stage, n: int) -> None:
    if n == 1:
        return
    previous = work.repo.list_rounds(event.id, division, stage=stage.id, number=n - 1)
    if not previous:
        raise Refused(Text(f"第{n - 1}轮尚未编排, 不能编排第{n}轮",
                           f"round {n - 1} is not paired yet: round {n} cannot be paired"),
                      code="previous_round_not_paired", params={"round": n})
    open_games = [(r, g) for r in previous for g in r.games if g.result == Result.UNKNOWN and not g.is_bye]
    if open_games:
        names = work.repo.players_by_id(event.id)

        def who(pid: str | None) -> str:
            found = names.get(pid or "")
            return found.name if found else str(pid)

        missing = [  # board and players, as the referee finds them on the grid
            Text(f"{group_title(r.group) if r.group != PLACEMENT_GROUP else ''}第{g.board}台 "
                 f"{who(g.black)} — {who(g.white)}",
                 f"{_group_en(r.group) if r.group != PLACEMENT_GROUP else ''}board {g.board} "
                 f"{who(g.black)} — {who(g.white)}")
            for r, g in open_games
        ]
        shown = missing[:20] + ([Text(f"… 另有{len(missing) - 20}台", f"… and {len(missing) - 20} more")]
                                if len(missing) > 20 else [])
        raise Refused(Text(f"第{n - 1}轮还有{len(missing)}台没有成绩, 不能编排第{n}轮",
                           f"round {n - 1} still has {len(missing)} board(s) without a result: "
                           f"round {n} cannot be paired"),
                      shown, code="previous_round_incomplete",
                      params={"round": n, "previous": n - 1, "division": division,
                              "boards": [g.board for _, g in open_games]})


def pair(
    work: Work,
    event_ref: str | int | None,
    division: str,
    round_no: int,
    *,
    stage_ref: str | None = None,
    controls: Controls | None = None,
    absent: tuple[str, ...] = (),
    replace: bool = False,
) -> PairedRound:
    from yisai.pairing import Controls, PairingError, pair_round

    work.require(Action.PAIR)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    division = resolve_division(reg, division)
    stage = playing_stage(reg, division, stage_ref)
    fmt = stage.format_for(division)
    if round_no < 1:
        raise InputError(Text(f"轮次须从1开始: {round_no}", f"rounds are numbered from 1: {round_no}"),
                         code="bad_round", params={"round": round_no})
    _check_previous_complete(work, event, division, stage, round_no)
    if isinstance(fmt, TeamMatchFormat):  # 团体赛: teams meet teams, line-ups on the boards
        from yisai.services.team_matches import pair_team_round

        return pair_team_round(work, event, reg, division, stage, fmt, round_no, replace=replace)
    players = division_players(work, event, division)
    entrants = entrants_of(players, team_of(work, event))
    rules = reg.pairing_for(division)
    scoring = reg.scoring_for(division)
    games = work.repo.games(event.id, division, stage=stage.id)
    explicit_controls = controls is not None and controls != Controls()
    controls = controls or Controls()
    # Check-in (报到, issue 15): players not checked in sit out (round 1's are kept as late
    # entrants who join from the regulation's round); the reasons go into the stored round.
    from yisai.services.checkin import held_back

    excluded = held_back(work, event, division, stage.id, round_no, [e.id for e in entrants])
    if excluded:
        controls = Controls(controls.fixed_pairs, controls.forbidden_pairs, controls.requested_byes,
                            tuple(dict.fromkeys([*controls.sit_outs, *excluded])))

    extra: dict[str, dict] = {}  # group → what the format stores with the round (seats, bracket)

    def pair_parts() -> list[tuple[str, RoundPairing]]:
        if isinstance(fmt, RoundRobinFormat | KnockoutFormat):
            from yisai.services.brackets import pair_knockout, pair_round_robin

            given = controls if explicit_controls else None  # check-in's sit-outs are not the director's
            if isinstance(fmt, RoundRobinFormat):
                paired = pair_round_robin(work, event, division, stage, fmt, round_no, entrants, reg, given, absent)
            else:
                paired = pair_knockout(work, event, division, stage, fmt, round_no, entrants, reg, given, absent)
            extra.clear()
            extra.update(paired.info)
            return paired.parts
        if isinstance(fmt, SwissFormat):
            decided = event.decided_rounds(division)
            if decided is not None and round_no > decided:
                raise _no_such_round(stage, decided, round_no)
            if fmt.rounds is not None and round_no > fmt.rounds and decided is None:
                if not fmt.rounds_provisional:
                    raise _no_such_round(stage, fmt.rounds, round_no)
                name = reg.division(division).name
                raise Refused(
                    Text(f"规程暂定{fmt.rounds}轮 (视报名情况而定); 要编排第{round_no}轮, 请裁判长先确定"
                         f"{name}的轮数",
                         f"the regulation provisionally sets {fmt.rounds} rounds; to pair round "
                         f"{round_no}, the chief referee first sets {name}'s round count"),
                    code="round_count_not_set", params={"rounds": fmt.rounds, "round": round_no, "division": name},
                    hint=Hint.SET_ROUNDS)
            order = current_order(work, event, division, stage, [e.id for e in entrants])
            return [("", pair_round(entrants, games, round_no, rules=rules, scoring=scoring,
                                    seed=event.seed, absent=absent, controls=controls, order=order))]
        if isinstance(fmt, TwoGroupSwissFormat):
            return _pair_two_groups(work, event, division, stage, fmt, round_no, entrants, games,
                                    controls, absent, reg)
        raise Refused(Text(f"{stage.name}的赛制不是积分编排制, 不能编排",
                           f"{stage.name} is not played in the Swiss system: it cannot be paired"),
                      code="not_swiss", params={"stage": stage.id})

    try:
        parts = pair_parts()
    except PairingError as exc:
        # The pairing core words its message with tr(): worded again in the other language by
        # pairing once more (only when pairing fails; nothing is written before this point).
        names = {p.id: p.name for p in work.repo.list_players(event.id)}
        blocking = [Text(f"{names.get(pid, pid)} (编号{pid})", f"{names.get(pid, pid)} (#{pid})")
                    for pid in exc.blocking]  # people are named, not numbered
        raise Refused(failure_text(pair_parts, PairingError, exc), blocking,
                      code="pairing_failed", params={"round": round_no, "division": division}) from None
    for group, pairing in parts:
        ids = {g.black for g in pairing.games()} | {g.white for g in pairing.games() if g.white}
        marks = {p: _mark(p) for p in ids | set(pairing.sit_outs)}
        zh, en = both(partial(pairing.explain, names=marks))
        info = {"explain": {"zh": zh, "en": en},
                "warnings": list(pairing.warnings), "seed": event.seed}
        held = {p: {"zh": t.zh, "en": t.en} for p, t in excluded.items() if p in marks}
        if held:  # issue 15: who sat out for check-in, and why (round 1: the late entrants)
            info["not_checked_in"] = held
            zh = [*zh, *(f"{_mark(p)}: {t['zh']}" for p, t in held.items())]
            en = [*en, *(f"{_mark(p)}: {t['en']}" for p, t in held.items())]
            info["explain"] = {"zh": zh, "en": en}
        info.update(extra.get(group, {}))
        if round_no == 1 and group and group not in (PLACEMENT_GROUP, KNOCKOUT_GROUP) and "members" not in info:
            info["members"] = sorted({g.black for g in pairing.games()} | {
                g.white for g in pairing.games() if g.white} | set(pairing.sit_outs))
        try:
            work.repo.save_round(
                event.id, division, round_no, _with_bye_results(pairing.games()),
                stage=stage.id, group=group, info=info, replace=replace,
            )
        except StaleVersion as exc:
            raise Conflict(exc.text, code="pairing_conflict",
                           params={"round": round_no, "division": division}) from None
        except StoreConflict as exc:
            raise Refused(exc.text, code="round_exists", params={"round": round_no, "division": division},
                          hint=Hint.REPLACE) from None
    work.emit("round_paired", event.id, division=division, round=round_no,
              groups=[g for g, _ in parts], replaced=replace)
    names = {p.id: p.name for p in work.repo.list_players(event.id)}
    return PairedRound(event, division, stage, round_no, tuple(parts), names, excluded)


def _no_such_round(stage: Stage, rounds: int, round_no: int) -> Refused:
    return Refused(Text(f"{stage.name}共{rounds}轮, 没有第{round_no}轮",
                        f"{stage.name} has {rounds} rounds: there is no round {round_no}"),
                   code="no_such_round", params={"round": round_no, "stage": stage.id})


def _with_bye_results(games: list[Game]) -> list[Game]:
    """A bye is settled at pairing time: its points are known (规程: 轮空得分). Byes take the
    numbers after the last board, so two byes (one requested, one for the odd player) can be
    stored side by side; they are printed without a board number."""
    last = max((g.board for g in games if not g.is_bye), default=0)
    out, extra = [], 0
    for g in games:
        if g.is_bye:
            extra += 1
            g = Game(g.round, g.black, None, Result.BLACK_WINS, False, last + extra, reason="轮空")
        out.append(g)
    return out


_MARK = re.compile(r"⟦([^⟦⟧]*)⟧")


def _mark(player_id: str) -> str:
    """How a player id is stored inside explanation text, so names can be put in when shown."""
    return f"⟦{player_id}⟧"


def explanation_with_names(stored: object, names: Mapping[str, str]) -> list[str]:
    """Stored explanation (``RoundRecord.info["explain"]``) in the reader's language, with names.

    Stored as ``{"zh": [...], "en": [...]}``; rounds paired earlier stored one Chinese list.
    Rounds paired before ids were marked keep their text as it was stored.
    """
    if isinstance(stored, dict):
        lines = list(stored.get(language()) or stored.get("zh") or [])
    else:
        lines = list(stored or [])  # type: ignore[call-overload]
    return [_MARK.sub(lambda m: names.get(m.group(1), m.group(1)), str(line)) for line in lines]


def _pair_two_groups(
    work: Work, event: EventRecord, division: str, stage: Stage, fmt: TwoGroupSwissFormat,
    round_no: int, entrants: list, games: list[Game], controls: Controls, absent: tuple[str, ...],
    reg: Regulation,
) -> list[tuple[str, RoundPairing]]:
    from yisai.pairing import pair_round
    from yisai.pairing.groups import pair_placement_final, split_groups

    rules = reg.pairing_for(division)
    scoring = reg.scoring_for(division)
    final_round = fmt.placement_final.round
    if round_no > final_round:
        raise _no_such_round(stage, final_round, round_no)
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
                controls=_controls_within(controls, ids), order=order,
            )))
        return parts
    if round_no != final_round:
        raise Refused(Text(f"分组赛共{fmt.group_rounds}轮, 第{final_round}轮为同名次决赛; 没有第{round_no}轮",
                           f"the group stage has {fmt.group_rounds} rounds and round {final_round} is "
                           f"the placement final: there is no round {round_no}"),
                      code="no_such_round", params={"round": round_no, "stage": stage.id})
    names = list(groups)
    ranking_a = current_order(work, event, division, stage, groups[names[0]])
    ranking_b = current_order(work, event, division, stage, groups[names[1]])
    return [(PLACEMENT_GROUP, pair_placement_final(
        ranking_a, ranking_b, games, round_no, limit=fmt.placement_final.top, rules=rules,
        scoring=scoring, seed=event.seed))]


def set_round_count(work: Work, event_ref: str | int | None, division: str, rounds: int,
                    note: str = "") -> EventRecord:
    """轮次视报名情况而定: the chief referee fixes a division's round count (audited)."""
    work.require(Action.PAIR)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    did = resolve_division(reg, division)
    played = max(work.repo.round_numbers(event.id, did), default=0)
    if rounds < max(1, played):
        raise InputError(
            Text(f"轮数须至少为{max(1, played)} (已编排到第{played}轮): {rounds}",
                 f"the round count must be at least {max(1, played)} ({played} paired): {rounds}"),
            code="bad_round_count", params={"rounds": rounds})
    settings = dict(event.settings.get("rounds", {}))
    settings[did] = rounds
    saved = work.repo.set_event_setting(event.id, "rounds", settings, note)
    work.emit("round_count_set", event.id, division=did, rounds=rounds)
    return saved


def _controls_within(controls: Controls, ids: set[str]) -> Controls:
    from yisai.pairing import Controls

    return Controls(
        fixed_pairs=tuple(p for p in controls.fixed_pairs if p[0] in ids),
        forbidden_pairs=tuple(p for p in controls.forbidden_pairs if p[0] in ids),
        requested_byes=tuple(p for p in controls.requested_byes if p in ids),
        sit_outs=tuple(p for p in controls.sit_outs if p in ids),
    )


# ------------------------------------------------------------------ showing a round


@dataclass(frozen=True)
class RoundView:
    """A stored round ready to print: every group's games, names, and scores before it."""

    event: EventRecord
    division: str
    stage: Stage
    round: int
    rounds: list[RoundRecord]  # one per group ("" for a plain Swiss)
    names: dict[str, str]
    scores: dict[str, int]  # player id → score before this round (the regulation's Scoring)
    info: dict[str, list[str]] = field(default_factory=dict)  # group → explanation with names
    seeds: dict[str, str] = field(default_factory=dict)  # same-place final: player → "A1", "B1" …
    seats: dict[str, tuple[str, int]] = field(default_factory=dict)  # player → ("A", 1) in the final

    def matchup(self, black: str, white: str | None) -> str:
        """A same-place final's board as people say it: "A组第1名 — B组第1名 (争第1–2名)",
        the first group first whatever the colours; "" for any other board."""
        if not white or black not in self.seats or white not in self.seats:
            return ""
        (g1, k1), (g2, k2) = sorted((self.seats[black], self.seats[white]))
        if k1 != k2:  # a board changed by hand: no places at stake to state
            return tr(f"{g1}组第{k1}名 — {g2}组第{k2}名", f"{g1}#{k1} — {g2}#{k2}")
        return tr(f"{g1}组第{k1}名 — {g2}组第{k2}名 (争第{2 * k1 - 1}–{2 * k1}名)",
                  f"{g1}#{k1} — {g2}#{k2} (for places {2 * k1 - 1}–{2 * k1})")


def round_view(work: Work, event_ref: str | int | None, division: str, round_no: int,
               stage_ref: str | None = None) -> RoundView:
    event, reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    division = rounds[0].division
    stage = playing_stage(reg, division, stage_ref)
    names = {p.id: p.name for p in work.repo.list_players(event.id)}
    players = {pid for r in rounds for g in r.games for pid in (g.black, g.white) if pid}
    from yisai.services.event_data import stage_games

    games = stage_games(work, event, division, stage)  # a bracket's games score nothing
    scores = scores_before(players, games, round_no, reg.scoring_for(division))
    info = {r.group: explanation_with_names(r.info.get("explain", []), names) for r in rounds}
    seats = _final_seats(work, event, division, stage) if any(
        r.group == PLACEMENT_GROUP for r in rounds) else {}
    seeds = {pid: f"{g}{k}" for pid, (g, k) in seats.items()}
    if any(r.group == KNOCKOUT_GROUP for r in rounds):
        from yisai.services.brackets import knockout_origins, knockout_seeds

        seeds = {p: tr(f"{n}号种子", f"seed {n}") for p, n in knockout_seeds(work, event, division, stage).items()}
        seeds.update(knockout_origins(work, event, division, stage))
    return RoundView(event, division, stage, round_no, rounds, names, scores, info, seeds, seats)


def _final_seats(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, tuple[str, int]]:
    """Who comes from where in the same-place final: group and place after the group rounds."""
    fmt = stage.format_for(division)
    if not isinstance(fmt, TwoGroupSwissFormat):
        return {}
    out: dict[str, tuple[str, int]] = {}
    for name, members in group_members(work, event, division, stage).items():
        order = current_order(work, event, division, stage, members, fmt.group_rounds)
        out.update({pid: (name, k) for k, pid in enumerate(order, start=1)})
    return out


def sheet_lines(view: RoundView) -> list[SheetLine]:
    """The round as the lines of its result sheet: boards in order, byes last, each group."""
    lines = []
    for r in view.rounds:
        for g in sorted(r.games, key=lambda g: (g.is_bye, g.board)):
            lines.append(SheetLine(
                None if g.is_bye else g.board, r.group, view.names.get(g.black, g.black),
                view.names.get(g.white, g.white) if g.white else "",
                result_word(g.result, g.played, g.reason, g.is_bye),
            ))
    return lines


def sheet_title(view: RoundView) -> str:
    name = regulation_of(view.event).division(view.division).name
    return f"{view.event.name} {view.stage.name} {name} 第{view.round}轮 成绩登记表"


# ------------------------------------------------------------------ importing a result sheet


@dataclass(frozen=True)
class ImportReport:
    saved: list[Game]
    unchanged: int  # rows giving the result already stored (a pre-filled sheet printed back)
    blank: int  # rows without a result yet
    byes: int  # bye rows, checked and left as they are
    warnings: tuple[Text, ...] = ()  # e.g. later rounds were paired on the old results


def import_results(
    work: Work,
    event_ref: str | int | None,
    division: str,
    round_no: int,
    sheet: ResultSheet,
    *,
    group: str | None = None,
    stage_ref: str | None = None,
    change: bool = False,
    note: str = "",
) -> ImportReport:
    """Enter a whole result sheet, all or nothing.

    Every row is checked against the stored pairing first (board exists, names match, no board
    twice, no result entered twice without ``change``); any problem means nothing is saved and
    every problem is listed with its file, sheet, row and column. Then each result goes through
    the same path as ``record_result`` (history and audit).
    """
    _event, _reg, rounds = rounds_of(work, event_ref, division, round_no, stage_ref)
    groups = [r.group for r in rounds]
    if group is not None:
        group = group_id(group) if group else ""
        if group not in groups:
            raise InputError(
                Text(f"第{round_no}轮没有分组 {group} (本轮分组: {_choices(groups)})",
                     f"round {round_no} has no group {group} (this round's groups: "
                     f"{_choices(groups, en=True)})"),
                code="unknown_group", params={"round": round_no, "group": group},
            )
        rounds = [r for r in rounds if r.group == group]
    names = {p.id: p.name for p in work.repo.list_players(_event.id)}
    by_board = {(r.group, g.board): (r, g) for r in rounds for g in r.games}
    # Each problem: where it is (for ordering) and its text in both languages.
    issues: list[_Problem] = [(i, Text(str(i), str(i))) for i in sheet.issues]  # worded by the reader
    refusals: list[_Problem] = []
    seen: dict[tuple[str, int], SheetRow] = {}
    todo: list[tuple[RoundRecord, Game, ParsedResult]] = []
    unchanged = blank = bye_rows = 0
    grouped = False  # a row whose group is missing or wrong: the hint says how to name it
    for row in sheet.rows:
        where = _row_group(row, group, [r.group for r in rounds], issues)
        if where is None:
            grouped = True
            continue
        if row.is_bye:
            bye_rows += 1
            _check_bye(row, [g for (gr, _b), (_r, g) in by_board.items() if gr == where and g.is_bye],
                       names, issues)
            continue
        if row.board is None:
            if not row.board_text:  # an unreadable number is already reported by the reader
                issues.append(_problem(
                    row, "board",
                    f"台次不能为空 (允许: {_board_range(by_board, where)}; 轮空行的结果填“轮空”)",
                    f"the board cannot be blank (allowed: {_board_range(by_board, where, en=True)}; "
                    "a bye line has 轮空 as its result)"))
            continue
        found = by_board.get((where, row.board))
        if found is None:
            issues.append(_problem(
                row, "board",
                f"{group_title(where)}第{round_no}轮没有第{row.board}台 "
                f"(允许: {_board_range(by_board, where)})",
                f"{_group_en(where)}round {round_no} has no board {row.board} "
                f"(allowed: {_board_range(by_board, where, en=True)})"))
            continue
        first = seen.get((where, row.board))
        if first is not None:
            place = f"第{first.row}行" if first.sheet == row.sheet else f"{first.sheet}第{first.row}行"
            place_en = f"row {first.row}" if first.sheet == row.sheet else f"{first.sheet} row {first.row}"
            issues.append(_problem(row, "board", f"第{row.board}台重复, 已在{place}出现 (每台只能填一行)",
                                   f"board {row.board} is written twice, first in {place_en} "
                                   "(one line per board)"))
            continue
        seen[(where, row.board)] = row
        rnd, game = found
        if game.is_bye and (row.result is None or row.result.bye):
            bye_rows += 1
            _check_bye(row, [game], names, issues)
            continue
        _check_names(row, game, names, issues)
        if row.result is None:  # blank: not played yet; unreadable: already reported
            blank += row.result_text == ""
            if row.result_text == BOTH_WIN_WORD:
                if game.result != Result.BOTH_WIN:
                    issues.append(_problem(
                        row, "result", f"{BOTH_WIN_WORD}只能保留导入的成绩, 不能录入 (允许: {ACCEPTED})",
                        f"{BOTH_WIN_WORD} can only keep an imported result, it cannot be entered "
                        f"(allowed: {ACCEPTED})"))
                else:
                    unchanged += 1  # the imported 双方胜 printed back: no change
            continue
        problem = entry_problem(game, row.result)
        if problem:
            issues.append(_problem(row, "result", problem.zh, problem.en))
            continue
        if game.result != Result.UNKNOWN:
            if _same_result(row, game):
                unchanged += 1  # a pre-filled sheet printed back: identical rows are no change
                continue
            if not change:
                entered = already_entered(game)
                refusals.append(_problem(row, "result", entered.zh, entered.en))
                continue
        elif row.result.result == Result.UNKNOWN:
            blank += 1  # "?" on a board without a result: nothing to clear
            continue
        todo.append((rnd, game, row.result))
    sheets = list(dict.fromkeys(r.sheet for r in sheet.rows))
    problems = sorted(issues + refusals, key=lambda p: (
        p[0].row > 0, sheets.index(p[0].sheet) if p[0].sheet in sheets else -1, p[0].row))
    if problems:
        message = Text(f"{sheet.file}: 共{len(problems)}处问题, 未保存任何成绩 (改正后重新导入)",
                       f"{sheet.file}: {len(problems)} problem(s); no result saved (correct them "
                       "and import again)")
        details = [text for _, text in problems]
        params = {"file": sheet.file, "round": round_no, "problems": len(problems)}
        if issues:
            raise InputError(message, details, code="bad_result_sheet", params=params,
                             hint=Hint.GROUP if grouped else None)
        raise Refused(message, details, code="results_already_entered", params=params, hint=Hint.CHANGE)
    entries = [write_result(work, rnd, game, parsed, change=change, note=note) for rnd, game, parsed in todo]
    warnings = tuple(dict.fromkeys(w for e in entries for w in e.warnings))
    return ImportReport([e.game for e in entries], unchanged, blank, bye_rows, warnings)


_Problem = tuple[SheetIssue, Text]


def _problem(row: SheetRow, key: str, zh: str, en: str) -> _Problem:
    """A problem in ``row``'s ``key`` column, worded in both languages (the place is the same)."""
    issue = row.issue(key, zh)
    return issue, Text(str(issue), str(row.issue(key, en)))


def _group_en(group: str) -> str:
    """The English of ``group_title``, followed by a space: "group A ", "the placement final "."""
    if not group:
        return ""
    if group == KNOCKOUT_GROUP:
        return "the knockout "
    return "the placement final " if group == PLACEMENT_GROUP else f"group {group} "


def _choices(groups: list[str], *, en: bool = False) -> str:
    if en:
        return ", ".join(group_label(g) or "(no groups)" for g in groups)
    return "、".join(group_label(g) or "(不分组)" for g in groups)


def _row_group(row: SheetRow, chosen: str | None, groups: list[str], issues: list[_Problem]) -> str | None:
    """The group a row belongs to: its 分组 cell, else ``--group``, else the round's only group."""
    if row.group:
        g = group_id(row.group)
        if g not in groups:
            issues.append(_problem(
                row, "group", f"本轮没有分组\u201c{row.group}\u201d (允许: {_choices(groups)})",
                f"this round has no group \u201c{row.group}\u201d (allowed: {_choices(groups, en=True)})"))
            return None
        if chosen is not None and g != chosen:
            issues.append(_problem(row, "group", f"分组{row.group}与所选分组{group_label(chosen)}不一致",
                                   f"group {row.group} differs from the chosen group {group_label(chosen)}"))
            return None
        return g
    if chosen is not None:
        return chosen
    if len(groups) == 1:
        return groups[0]
    issues.append(_problem(
        row, "group", f"本轮有多个分组, 请填写分组 (允许: {_choices(groups)})",
        f"this round has several groups: fill in the group (allowed: {_choices(groups, en=True)})"))
    return None


def _board_range(by_board: dict[tuple[str, int], tuple[RoundRecord, Game]], group: str, *,
                 en: bool = False) -> str:
    boards = sorted(b for (g, b), (_r, game) in by_board.items() if g == group and not game.is_bye)
    if not boards:
        return "no games this round" if en else "本轮没有对局"
    if boards == list(range(boards[0], boards[-1] + 1)):
        return f"boards {boards[0]}–{boards[-1]}" if en else f"第{boards[0]}–{boards[-1]}台"
    return (", " if en else "、").join(map(str, boards))


def _same_result(row: SheetRow, game: Game) -> bool:
    assert row.result is not None
    if same_result(game, row.result):
        return True
    return row.result_text == result_word(game.result, game.played, game.reason)


def _check_bye(row: SheetRow, byes: list[Game], names: Mapping[str, str], issues: list[_Problem]) -> None:
    """A bye line is only checked: its points were settled when the round was paired."""
    who = [names.get(g.black, g.black) for g in byes]
    if row.black and not any(same_name(row.black, n) for n in who):
        issues.append(_problem(row, "black", f"{row.black}本轮没有轮空 (本轮轮空: {'、'.join(who) or '无'})",
                               f"{row.black} has no bye this round (byes this round: "
                               f"{', '.join(who) or 'none'})"))


def _check_names(row: SheetRow, game: Game, names: Mapping[str, str], issues: list[_Problem]) -> None:
    black = names.get(game.black, game.black)
    white = names.get(game.white or "", game.white or "")
    pairing = f"第{game.board}台为 黑方 {black} — 白方 {white}"
    pairing_en = f"board {game.board} is Black {black} — White {white}"
    swapped = bool(row.black and row.white) and same_name(row.black, white) and same_name(row.white, black)
    for key, written, stored in (("black", row.black, black), ("white", row.white, white)):
        if written and not same_name(written, stored):
            side = "黑方" if key == "black" else "白方"
            hint = "; 黑白方写反了" if swapped else ""
            hint_en = "; Black and White are swapped" if swapped else ""
            issues.append(_problem(
                row, key, f"{side}\u201c{written}\u201d与编排不符 ({pairing}{hint})",
                f"{key.capitalize()} \u201c{written}\u201d does not match the pairing ({pairing_en}{hint_en})"))
