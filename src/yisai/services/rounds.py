"""Pair a round and show it (with the lines of its result sheet): one transaction per command.

How each stage format pairs (Swiss, two groups with a same-place final, round robin, knockout,
team match) is its play (``services/stage_play.py``); this module does what every format shares
(the previous round complete, check-in, storing the round). Every decision of the engine is stored with the
round (player ids marked, so names are put in when it is printed again later).

Results come in one board at a time (``services.round_results.record_result``) or as a whole
result sheet (``services.result_sheets.import_results``, all or nothing).
"""

from __future__ import annotations

# The pairing engine and the standings engine load when a round is paired or ranked, not for a
# single result entry (a referee pays start-up time per result).
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yisai.formats.result_sheet import (
    SheetLine,
)
from yisai.i18n import Text, language, tr
from yisai.record import Game, Result
from yisai.record.groups import KNOCKOUT_GROUP, group_title, group_title_en
from yisai.record.parse import (
    result_word,
)
from yisai.regulation.stages import Stage
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Conflict, Hint
from yisai.services.event_data import (
    PLACEMENT_GROUP,
    division_games,
    division_players,
    entrants_of,
    team_of,
)
from yisai.services.events import playing_stage, regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action
from yisai.services.metrics import timed_pairing
from yisai.services.paired import PairedRound, scores_before
from yisai.services.round_results import (
    rounds_of,
)
from yisai.services.stage_play import PairCall, play_of
from yisai.store import Conflict as StoreConflict
from yisai.store import EventRecord, RoundRecord, StaleVersion, event_rows, roster_rows, round_rows

if TYPE_CHECKING:
    from yisai.pairing import Controls, Entrant, RoundPairing


def _check_previous_complete(work: Work, event: EventRecord, division: str, stage: Stage, n: int) -> None:
    if n == 1:
        return
    previous = round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=n - 1)
    if not previous:
        raise Refused(Text(f"第{n - 1}轮尚未编排, 不能编排第{n}轮",
                           f"round {n - 1} is not paired yet: round {n} cannot be paired"),
                      code="previous_round_not_paired", params={"round": n})
    open_games = [(r, g) for r in previous for g in r.games if g.result == Result.UNKNOWN and not g.is_bye]
    if open_games:
        names = roster_rows.players_by_id(work.session, event.id)

        def who(pid: str | None) -> str:
            found = names.get(pid or "")
            return found.name if found else str(pid)

        missing = [  # board and players, as the referee finds them on the grid
            Text(f"{group_title(r.group) if r.group != PLACEMENT_GROUP else ''}第{g.board}台 "
                 f"{who(g.black)} — {who(g.white)}",
                 f"{group_title_en(r.group) if r.group != PLACEMENT_GROUP else ''}board {g.board} "
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


@timed_pairing
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
    from yisai.pairing import Controls, PairingError

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
    play = play_of(fmt)
    whole = play.pair_whole_round(work, event, reg, division, stage, fmt, round_no, replace=replace)
    if whole is not None:  # 团体赛: teams meet teams, line-ups on the boards
        return whole
    players = division_players(work, event, division)
    entrants = entrants_of(players, team_of(work, event))
    games = division_games(work, event, division, stage)
    explicit_controls = controls is not None and controls != Controls()
    controls, excluded = _with_check_in(work, event, division, stage, round_no, entrants,
                                        controls or Controls())
    call = PairCall(work, event, reg, division, stage, fmt, round_no, entrants, games, controls,
                    explicit_controls, absent)
    try:
        parts, extra = play.pair(call)
    except PairingError as exc:
        # The pairing core words its failure in both languages as it fails (``exc.text``).
        names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
        blocking = [Text(f"{names.get(pid, pid)} (编号{pid})", f"{names.get(pid, pid)} (#{pid})")
                    for pid in exc.blocking]  # people are named, not numbered
        raise Refused(exc.text, blocking,
                      code="pairing_failed", params={"round": round_no, "division": division}) from None
    for group, pairing in parts:
        info = _round_info(pairing, excluded, extra.get(group, {}), event.seed, round_no, group)
        _save_part(work, event, division, stage, round_no, group, pairing, info, replace)
    work.emit("round_paired", event.id, division=division, round=round_no,
              groups=[g for g, _ in parts], replaced=replace)
    names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
    return PairedRound(event, division, stage, round_no, tuple(parts), names, excluded)


def _with_check_in(work: Work, event: EventRecord, division: str, stage: Stage, round_no: int,
                   entrants: list[Entrant], controls: Controls) -> tuple[Controls, dict[str, Text]]:
    """Check-in (报到, issue 15): players not checked in sit out (round 1's are kept as late
    entrants who join from the regulation's round); the reasons go into the stored round."""
    from yisai.pairing import Controls
    from yisai.services.checkin import held_back

    excluded = held_back(work, event, division, stage.id, round_no, [e.id for e in entrants])
    if excluded:
        controls = Controls(controls.fixed_pairs, controls.forbidden_pairs, controls.requested_byes,
                            tuple(dict.fromkeys([*controls.sit_outs, *excluded])))
    return controls, excluded


def _round_info(pairing: RoundPairing, excluded: Mapping[str, Text], extra: dict[str, Any], seed: int,
                round_no: int, group: str) -> dict[str, Any]:
    """What is stored with one group's round: the explanation in both languages (with who sat
    out for check-in and who is eliminated), the warnings, the seed and the format's own data."""
    ids = {g.black for g in pairing.games()} | {g.white for g in pairing.games() if g.white}
    marks = {p: _mark(p) for p in ids | set(pairing.sit_outs)}
    lines = pairing.explain_texts(names=marks)
    zh, en = [t.zh for t in lines], [t.en for t in lines]
    info: dict[str, Any] = {"explain": {"zh": zh, "en": en}, "warnings": list(pairing.warnings), "seed": seed}
    held = {p: {"zh": t.zh, "en": t.en} for p, t in excluded.items() if p in marks}
    if held:  # issue 15: who sat out for check-in, and why (round 1: the late entrants)
        info["not_checked_in"] = held
        zh = [*zh, *(f"{_mark(p)}: {t['zh']}" for p, t in held.items())]
        en = [*en, *(f"{_mark(p)}: {t['en']}" for p, t in held.items())]
        info["explain"] = {"zh": zh, "en": en}
    info.update(extra)
    out: dict[str, dict[str, str]] = extra.get("eliminated", {})
    if out:  # 积分编排淘汰制: who is not paired any more, and why
        info["explain"] = {"zh": [*zh, *(f"{_mark(p)}: {t['zh']}" for p, t in out.items())],
                           "en": [*en, *(f"{_mark(p)}: {t['en']}" for p, t in out.items())]}
    if round_no == 1 and group and group not in (PLACEMENT_GROUP, KNOCKOUT_GROUP) and "members" not in info:
        info["members"] = sorted(ids | set(pairing.sit_outs))
    return info


def _save_part(work: Work, event: EventRecord, division: str, stage: Stage, round_no: int, group: str,
               pairing: RoundPairing, info: dict[str, Any], replace: bool) -> None:
    """Store one group's pairing; a racing writer or an existing round is refused as the front
    ends expect (``pairing_conflict``, ``round_exists``)."""
    try:
        round_rows.save_round(work.session, work.stamp,
            event.id, division, round_no, _with_bye_results(pairing.games()),
            stage=stage.id, group=group, info=info, replace=replace,
        )
    except StaleVersion as exc:
        raise Conflict(exc.text, code="pairing_conflict",
                       params={"round": round_no, "division": division}) from None
    except StoreConflict as exc:
        raise Refused(exc.text, code="round_exists", params={"round": round_no, "division": division},
                      hint=Hint.REPLACE) from None


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


def set_round_count(work: Work, event_ref: str | int | None, division: str, rounds: int,
                    note: str = "") -> EventRecord:
    """轮次视报名情况而定: the chief referee fixes a division's round count (audited)."""
    work.require(Action.PAIR)
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    did = resolve_division(reg, division)
    played = max(round_rows.round_numbers(work.session, event.id, did), default=0)
    if rounds < max(1, played):
        raise InputError(
            Text(f"轮数须至少为{max(1, played)} (已编排到第{played}轮): {rounds}",
                 f"the round count must be at least {max(1, played)} ({played} paired): {rounds}"),
            code="bad_round_count", params={"rounds": rounds})
    settings = dict(event.settings.get("rounds", {}))
    settings[did] = rounds
    saved = event_rows.set_event_setting(work.session, work.stamp, event.id, "rounds", settings, note)
    work.emit("round_count_set", event.id, division=did, rounds=rounds)
    return saved


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
    left: dict[str, str] = field(default_factory=dict)
    """积分编排淘汰制: player → why they are paired no more (淘汰 and the round the rule fired, or
    the promotion mark reached), in the reader's language, as stored when the round was paired."""

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
    names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
    players = {pid for r in rounds for g in r.games for pid in (g.black, g.white) if pid}
    from yisai.services.event_data import stage_games_keyed

    games, keys = stage_games_keyed(work, event, division, stage)  # a bracket's games score nothing
    scores = scores_before(players, games, round_no, reg.scoring_for(division), keys)
    info = {r.group: explanation_with_names(r.info.get("explain", []), names) for r in rounds}
    fmt = stage.format_for(division)
    seats = play_of(fmt).final_seats(work, event, division, stage, fmt) if any(
        r.group == PLACEMENT_GROUP for r in rounds) else {}
    seeds = {pid: f"{g}{k}" for pid, (g, k) in seats.items()}
    if any(r.group == KNOCKOUT_GROUP for r in rounds):
        from yisai.services.brackets import knockout_origins, knockout_seeds

        seeds = {p: tr(f"{n}号种子", f"seed {n}") for p, n in knockout_seeds(work, event, division, stage).items()}
        seeds.update(knockout_origins(work, event, division, stage))
    left = {pid: Text(str(t.get("zh", "")), str(t.get("en", ""))).render()
            for r in rounds for pid, t in r.info.get("eliminated", {}).items() if isinstance(t, dict)}
    return RoundView(event, division, stage, round_no, rounds, names, scores, info, seeds, seats, left)


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
