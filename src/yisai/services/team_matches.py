"""团体赛 through the generic round loop: line-ups, pairing a team round, the matches with their
局分 and 场分, and the team table every front end shows.

``services.rounds.pair`` calls ``pair_team_round`` when the division's stage is a team-match
stage, so `yisai pair`, the console and the demo pair team rounds the way they pair Swiss rounds.
Board results are ordinary games entered with ``round_results.record_result`` (board numbers
run across the round's matches: match 1 has boards 1–3, match 2 boards 4–6 …). The matches
themselves are stored with the round (``RoundRecord.info["team_matches"]``): which teams met,
who sat on each board, and which boards had nobody (forfeited by that team).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from yisai.i18n import Text, tr
from yisai.record import Game, Result
from yisai.registry.lineup import default_lineup, lineup_problems
from yisai.registry.person import Player
from yisai.registry.team import Team
from yisai.regulation import Regulation
from yisai.regulation.format_base import as_kind
from yisai.regulation.stages import Stage
from yisai.regulation.team_match import TeamMatchFormat
from yisai.services.context import InputError, Refused, Work
from yisai.services.errors import Forbidden, Hint
from yisai.services.event_data import approved_players
from yisai.services.events import regulation_of, resolve_division, resolve_event
from yisai.services.identity import Action, Role
from yisai.services.paired import PairedRound, scores_before
from yisai.standings.teams import BoardResult, TeamMatch
from yisai.store import Conflict as StoreConflict
from yisai.store import (
    EventRecord,
    RoundRecord,
    StaleVersion,
    lineup_rows,
    roster_rows,
    round_rows,
    team_rows,
)
from yisai.store.lineup_rows import LineupRecord

if TYPE_CHECKING:
    from yisai.pairing import RoundPairing


def team_match_stage(reg: Regulation, division: str | None = None,
                     stage_ref: str | None = None) -> tuple[Stage, str, TeamMatchFormat] | None:
    """(stage, division, format) of the team-match stage (the named one, or the only/last one)."""
    found = None
    for s in reg.stages:
        if stage_ref and stage_ref not in (s.id, s.name):
            continue
        for did in s.divisions:
            if division and did != division:
                continue
            fmt = as_kind(s.format_for(did), TeamMatchFormat)
            if fmt is not None:
                found = (s, did, fmt)
    return found


def team_round_parts(work: Work, event: EventRecord, division: str, stage: Stage,
                     number: int) -> list[RoundRecord]:
    """The stored parts of team round ``number`` (none before it is paired), so a page can tell
    whether the round is paired and published."""
    return round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=number)


def _need_stage(reg: Regulation, division: str | None = None,
                stage_ref: str | None = None) -> tuple[Stage, str, TeamMatchFormat]:
    found = team_match_stage(reg, division, stage_ref)
    if found is None:
        raise InputError(Text("本规程没有团体赛阶段 (format.kind = \"team_match\")",
                              "this regulation has no team-match stage (format.kind = \"team_match\")"),
                         code="no_team_match_stage")
    return found


def playing_teams(work: Work, event: EventRecord, division: str) -> list[Team]:
    """The teams of a team-match division: registered order, members limited to the players
    approved in the division (registered order = board order)."""
    approved = {p.id for p in approved_players(work, event, division)}
    out = []
    for t in team_rows.list_teams(work.session, event.id):
        members = tuple(m for m in t.members if m.player_id in approved)
        if members:
            out.append(t.model_copy(update={"members": members}))
    return out


def _team(work: Work, event: EventRecord, ref: str | int) -> Team:
    text = str(ref).strip()
    for t in team_rows.list_teams(work.session, event.id):
        if text in (t.id, t.name):
            return t
    names = "、".join(t.name for t in team_rows.list_teams(work.session, event.id)) or "(无)"
    raise InputError(Text(f"找不到队伍“{text}” (本赛队伍: {names})", f"no team {text!r} (teams: {names})"),
                     code="unknown_team", params={"team": text})


# ------------------------------------------------------------------ line-ups


@dataclass(frozen=True)
class Lineup:
    """A team's line-up for a round: submitted, or the stated default."""

    team: Team
    players: tuple[str, ...]
    submitted: LineupRecord | None

    @property
    def source(self) -> Text:
        if self.submitted is None:
            return Text("未提交, 按报名顺序", "not submitted: registered order")
        return Text(f"{self.submitted.submitted_by} 提交", f"submitted by {self.submitted.submitted_by}")


def _may_submit(work: Work, fmt: TeamMatchFormat, team: Team) -> None:
    actor = work.actor
    if actor.may(Action.PAIR):
        return
    if fmt.lineup_by == "leader_or_director" and actor.leads(team.id):
        return
    if actor.role is Role.TEAM_LEADER and fmt.lineup_by == "leader_or_director":
        raise Forbidden(Text(f"领队只能提交本队的出场名单 ({team.name}不是本账号的队伍)",
                             f"a team leader submits only his own team's line-up ({team.name} is not this "
                             "account's team)"), code="not_own_team")
    raise Forbidden(Text("出场名单由裁判长提交" if fmt.lineup_by == "director" else "无权提交出场名单",
                         "line-ups are submitted by the chief referee" if fmt.lineup_by == "director"
                         else "not allowed to submit a line-up"), code="lineup_forbidden")


def _player_ref(team: Team, players: Mapping[str, Player], ref: str) -> str:
    text = ref.strip()
    ids = [m.player_id for m in team.members]
    if text in ids:
        return text
    named = [pid for pid in ids if (p := players.get(pid)) is not None and p.name == text]
    if len(named) == 1:
        return named[0]
    roster = "、".join(players[pid].name for pid in ids if pid in players)
    raise InputError(Text(f"{team.name}没有队员“{text}” (报名队员: {roster})",
                          f"{team.name} has no player {text!r} (registered: {roster})"),
                     code="unknown_player", params={"player": text})


def submit_lineup(work: Work, event_ref: str | int | None, team_ref: str | int, round_no: int,
                  player_refs: Sequence[str], *, stage_ref: str | None = None, note: str = "") -> Lineup:
    """出场名单: a team's players for round ``round_no``, board 1 first (names or ids).

    The team's leader (his own team only) or the chief referee submits it, until the round is
    paired (the pairing lays it on the boards; a later line-up would change nothing and is
    refused). The line-up rules of the stage are checked and every broken one reported.
    """
    if not work.actor.may(Action.PAIR) and work.actor.role is not Role.TEAM_LEADER:
        raise Forbidden(Text("出场名单由领队或裁判长提交", "line-ups are submitted by a team leader or the chief referee"),
                        code="lineup_forbidden", params={"role": work.actor.role.value})
    event = resolve_event(work, event_ref)
    team = _team(work, event, team_ref)
    if not work.actor.may(Action.PAIR) and not work.actor.leads(team.id):
        raise Forbidden(Text(f"领队只能提交本队的出场名单 ({team.name}不是本账号的队伍)",
                             f"a team leader submits only his own team's line-up ({team.name} is not this "
                             "account's team)"), code="not_own_team", params={"team": team.id})
    reg = regulation_of(event)
    stage, division, fmt = _need_stage(reg, None, stage_ref)
    _may_submit(work, fmt, team)
    if round_no < 1:
        raise InputError(Text(f"轮次须从1开始: {round_no}", f"rounds are numbered from 1: {round_no}"),
                         code="bad_round", params={"round": round_no})
    if round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=round_no):
        raise Refused(Text(f"第{round_no}轮已编排, 出场名单已截止 (名单须在编排前提交)",
                           f"round {round_no} is paired: line-ups closed (they are due before the pairing)"),
                      code="lineup_closed", params={"round": round_no})
    _before_deadline(work, stage, fmt, round_no)
    players = roster_rows.players_by_id(work.session, event.id)
    eligible = next((t for t in playing_teams(work, event, division) if t.id == team.id), None)
    if eligible is None:
        raise Refused(Text(f"{team.name}没有已批准参赛的队员", f"{team.name} has no approved players"),
                      code="team_not_playing", params={"team": team.name})
    chosen = [_player_ref(eligible, players, r) for r in player_refs if r.strip()]
    problems = lineup_problems(eligible, chosen, players, fmt, age_on=stage.start)
    if problems:
        raise InputError(Text(f"{team.name}第{round_no}轮出场名单不符合规程, 未保存",
                              f"{team.name}'s line-up for round {round_no} breaks the regulation; not saved"),
                         problems, code="bad_lineup", params={"team": team.name, "round": round_no})
    record = lineup_rows.save_lineup(work.session, work.stamp, event.id, team.id, stage.id, round_no, chosen, note)
    work.emit("lineup_submitted", event.id, division=division, round=round_no, team=team.id)
    return Lineup(eligible, tuple(chosen), record)


def round_start(stage: Stage, round_no: int) -> datetime | None:
    """When round ``round_no`` starts by the stage's timetable (None: the timetable does not say)."""
    return min((e.at for e in stage.timetable if e.round == round_no), default=None)


def _before_deadline(work: Work, stage: Stage, fmt: TeamMatchFormat, round_no: int) -> None:
    """赛前N分钟提交: a line-up after the deadline is refused (the team plays its default line-up)."""
    minutes = fmt.lineup_deadline_minutes
    start = round_start(stage, round_no)
    if minutes is None or start is None:
        return
    deadline = start - timedelta(minutes=minutes)
    if work.now > deadline:
        raise Refused(Text(f"规程: 出场名单须在赛前{minutes}分钟提交; 第{round_no}轮{start.month}月{start.day}日{start:%H:%M}开始, "
                           f"已于{deadline:%H:%M}截止, 未提交的队按报名顺序出场",
                           f"the regulation: line-ups are due {minutes} minutes before the round; round "
                           f"{round_no} starts {start:%Y-%m-%d %H:%M}, so they closed at {deadline:%H:%M}; a team "
                           "that submitted none plays in registered order"),
                      code="lineup_deadline_passed",
                      params={"round": round_no, "minutes": minutes, "deadline": deadline.isoformat()})


def lineups(work: Work, event: EventRecord, division: str, stage: Stage, fmt: TeamMatchFormat,
            round_no: int) -> dict[str, Lineup]:
    """Every playing team's line-up for the round (submitted, else the stated default). The
    default leaves out players held back by check-in (报到), so an absent player's board goes
    to the next registered player rather than being forfeited."""
    from yisai.services.checkin import held_back

    players = roster_rows.players_by_id(work.session, event.id)
    stored = lineup_rows.lineups_for_round(work.session, event.id, stage.id, round_no)
    teams = playing_teams(work, event, division)
    absent = held_back(work, event, division, stage.id, round_no,
                       [m.player_id for t in teams for m in t.members])
    out = {}
    for t in teams:
        rec = stored.get(t.id)
        here = [m.player_id for m in t.members if m.player_id not in absent]
        chosen = tuple(rec.players) if rec else tuple(default_lineup(t, players, fmt, here, age_on=stage.start))
        out[t.id] = Lineup(t, chosen, rec)
    return out


# ------------------------------------------------------------------ the matches of a stage


def matches_of_round(info: Mapping[str, Any], games: Sequence[Game], round_no: int,
                     fmt: TeamMatchFormat) -> list[TeamMatch]:
    """The round's team matches with their 局分, from the stored layout and the board games."""
    by_table = {g.board: g for g in games}
    bp = fmt.board_points
    out = []
    for m in info.get("team_matches", []):
        a, b = m["a"], m.get("b")
        if b is None:  # bye: a won match, every board won
            out.append(TeamMatch(round_no, a, None, bp.win * fmt.boards, 0.0,
                                 tuple(BoardResult(j, None, None, bp.win, 0.0) for j in range(1, fmt.boards + 1))))
            continue
        boards = []
        for s in m["boards"]:
            pa, pb = s.get("a"), s.get("b")
            if pa is None or pb is None:  # nobody on one side (or both): that side loses the board
                boards.append(BoardResult(s["board"], pa, pb, bp.win if pa else bp.loss,
                                          bp.win if pb else bp.loss))
                continue
            g = by_table.get(s["table"])
            outcome = g.outcome_for(pa) if g is not None else "?"
            if outcome == "?":
                boards.append(BoardResult(s["board"], pa, pb, 0.0, 0.0, finished=False))
                continue
            other = g.outcome_for(pb) if g is not None else "?"
            boards.append(BoardResult(s["board"], pa, pb, fmt.board_points.of(outcome), fmt.board_points.of(other)))
        out.append(TeamMatch(round_no, a, b, sum(x.points_a for x in boards), sum(x.points_b for x in boards),
                             tuple(boards), finished=all(x.finished for x in boards)))
    return out


def stage_matches(work: Work, event: EventRecord, division: str, stage: Stage,
                  fmt: TeamMatchFormat, up_to: int | None = None) -> list[TeamMatch]:
    """Every team match of the stage so far (rounds ≤ ``up_to``), in round order."""
    out: list[TeamMatch] = []
    for r in sorted(round_rows.list_rounds(work.session, event.id, division, stage=stage.id), key=lambda r: r.number):
        if up_to is None or r.number <= up_to:
            out += matches_of_round(r.info, r.games, r.number, fmt)
    return out


def event_team_matches(work: Work, event: EventRecord) -> dict[str, list[TeamMatch]]:
    """competition id → its matches (what ``EventResults.team_matches`` wants)."""
    reg = regulation_of(event)
    out: dict[str, list[TeamMatch]] = {}
    for s in reg.stages:
        for did in s.divisions:
            fmt = as_kind(s.format_for(did), TeamMatchFormat)
            if fmt is not None:
                out.setdefault(fmt.competition, []).extend(stage_matches(work, event, did, s, fmt))
    return out


# ------------------------------------------------------------------ pairing a team round


def pair_team_round(work: Work, event: EventRecord, reg: Regulation, division: str, stage: Stage,
                    fmt: TeamMatchFormat, round_no: int, *, replace: bool = False) -> PairedRound:
    """Pair round ``round_no`` of a team-match stage: teams (Swiss by 场分 or Berger), then each
    team's line-up on the boards with the colour rule; stored like any round."""
    teams = playing_teams(work, event, division)
    if len(teams) < 2:
        raise Refused(Text("团体赛至少需要两支有已批准队员的队", "a team match needs at least two teams with approved players"),
                      code="too_few_teams", params={"teams": len(teams)})
    names = {t.id: t.name for t in teams}
    explain_zh: list[str] = []
    explain_en: list[str] = []
    if fmt.cycles:
        matches = _round_robin_matches(event, teams, fmt, round_no, explain_zh, explain_en)
    else:
        matches = _swiss_matches(work, event, reg, division, stage, fmt, teams, round_no, explain_zh, explain_en)
    ups = lineups(work, event, division, stage, fmt, round_no)
    games, stored = _lay_matches(matches, ups, names, fmt, round_no, explain_zh, explain_en)
    lineup_info = {tid: {"players": list(u.players), "submitted": u.submitted is not None}
                   for tid, u in ups.items()}
    info = {"team_matches": stored, "lineups": lineup_info, "seed": event.seed,
            "explain": {"zh": explain_zh, "en": explain_en}, "warnings": []}
    try:
        round_rows.save_round(work.session, work.stamp, event.id, division, round_no, games, stage=stage.id, info=info, replace=replace)
    except StaleVersion as exc:
        from yisai.services.errors import Conflict

        raise Conflict(exc.text, code="pairing_conflict", params={"round": round_no, "division": division}) from None
    except StoreConflict as exc:
        raise Refused(exc.text, code="round_exists", params={"round": round_no, "division": division},
                      hint=Hint.REPLACE) from None
    work.emit("round_paired", event.id, division=division, round=round_no, groups=[""], replaced=replace)
    player_names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
    boards = _as_pairing(work, event, division, stage, round_no, stored, games, names)
    return PairedRound(event, division, stage, round_no, (("", boards),), player_names, {},
                       matches=tuple(match_rows(matches_of_round(info, games, round_no, fmt), names, fmt, info)))


def _round_robin_matches(event: EventRecord, teams: list[Team], fmt: TeamMatchFormat, round_no: int,
                         explain_zh: list[str], explain_en: list[str]) -> list[Any]:
    """A round robin's matches (Berger tables, one or two cycles), the seating explained."""
    from yisai.pairing.berger import round_count
    from yisai.pairing.team_match import pair_teams_round_robin, round_robin_seats

    ids = [t.id for t in teams]
    names = {t.id: t.name for t in teams}
    cycle = round_count(len(ids))
    total = cycle * fmt.cycles
    kind_zh, kind_en = ("单循环", "round robin") if fmt.cycles == 1 else ("双循环", "double round robin")
    if fmt.rounds is not None and fmt.rounds != total:
        raise Refused(Text(f"规程写{fmt.rounds}轮, 但{len(ids)}支队{kind_zh}为{total}轮",
                           f"the regulation says {fmt.rounds} rounds, but a {kind_en} of {len(ids)} "
                           f"teams has {total}"), code="round_count_mismatch")
    if round_no > total:
        raise Refused(Text(f"{len(ids)}支队{kind_zh}共{total}轮, 没有第{round_no}轮",
                           f"a {kind_en} of {len(ids)} teams has {total} rounds: there is no round {round_no}"),
                      code="no_such_round", params={"round": round_no})
    seats = round_robin_seats(ids, fmt, event.seed)
    # The second cycle repeats the first's matches, team A the same: a cycle has an odd number
    # of rounds (n−1 for even n, n for odd n), so the alternating colour rule (a_is_black by
    # round and board) gives team A the other colour on every board (第二循环执黑执白互换).
    berger_round = (round_no - 1) % cycle + 1
    matches = pair_teams_round_robin(seats, berger_round, fmt)
    seat_text = "、".join(f"{k}号{names[t]}" for k, t in enumerate(seats, start=1))
    seat_en = ", ".join(f"{k}: {names[t]}" for k, t in enumerate(seats, start=1))
    second_zh = f" (第二循环, 对阵同第{berger_round}轮, 双方执黑执白互换)" if round_no > cycle else ""
    second_en = (f" (second cycle: round {berger_round}'s matches, colours swapped)"
                 if round_no > cycle else "")
    explain_zh.append(f"队号 ({'抽签' if fmt.seating == 'lot' else '报名顺序'}): {seat_text}; "
                      f"第{round_no}轮按贝格尔表{second_zh}")
    explain_en.append(f"team numbers ({'drawn' if fmt.seating == 'lot' else 'registered order'}): "
                      f"{seat_en}; round {round_no} from the Berger tables{second_en}")
    return list(matches)


def _swiss_matches(work: Work, event: EventRecord, reg: Regulation, division: str, stage: Stage,
                   fmt: TeamMatchFormat, teams: list[Team], round_no: int,
                   explain_zh: list[str], explain_en: list[str]) -> list[Any]:
    """A Swiss round of teams (by 场分, no rematch), on the matches played so far."""
    from yisai.pairing import PairingError
    from yisai.pairing.team_match import (
        MatchRecord,
        history_outcome,
        pair_teams_swiss,
        round_robin_seats,
    )

    ids = [t.id for t in teams]
    names = {t.id: t.name for t in teams}
    if fmt.rounds is not None and round_no > fmt.rounds:
        raise Refused(Text(f"{stage.name}共{fmt.rounds}轮, 没有第{round_no}轮",
                           f"{stage.name} has {fmt.rounds} rounds: there is no round {round_no}"),
                      code="no_such_round", params={"round": round_no, "stage": stage.id})
    history = stage_matches(work, event, division, stage, fmt, up_to=round_no - 1)
    records = [MatchRecord(m.round, m.team_a, m.team_b,
                           history_outcome(m.board_points_a, m.board_points_b) if m.team_b else "A")
               for m in history]
    order = (team_order(work, event, reg, fmt, teams, history) if history
             else round_robin_seats(ids, fmt, event.seed))
    try:
        matches, pairing = pair_teams_swiss(ids, records, round_no, fmt, seed=event.seed, order=order)
    except PairingError as exc:
        raise Refused(Text(f"第{round_no}轮无法编排: {exc.text.zh}", f"round {round_no} cannot be paired: {exc.text.en}"),
                      code="pairing_failed", params={"round": round_no}) from None
    lines = pairing.explain_texts(names=names)
    explain_zh += [t.zh for t in lines]
    explain_en += [t.en for t in lines]
    return list(matches)


def _lay_matches(matches: list[Any], ups: Mapping[str, Any], names: Mapping[str, str], fmt: TeamMatchFormat,
                 round_no: int, explain_zh: list[str], explain_en: list[str]
                 ) -> tuple[list[Game], list[dict[str, Any]]]:
    """Each match's line-ups on its boards with the colour rule: the games to store and the
    matches as the round's info keeps them (a bye is a won match; an empty seat loses its board)."""
    from yisai.pairing.team_match import a_is_black, board_games, lay_boards

    games: list[Game] = []
    stored: list[dict[str, Any]] = []
    for m in matches:
        if m.team_b is None:
            stored.append({"match": m.number, "a": m.team_a, "b": None})
            explain_zh.append(f"{names[m.team_a]} 轮空 (记胜一场)")
            explain_en.append(f"{names[m.team_a]} has the bye (a won match)")
            continue
        seats_ = lay_boards(m, ups[m.team_a].players, ups[m.team_b].players, round_no, fmt)
        games += board_games(seats_, round_no)
        stored.append({"match": m.number, "a": m.team_a, "b": m.team_b, "boards": [
            {"board": s.board, "table": s.table, "a": s.player_a, "b": s.player_b, "a_black": s.a_black}
            for s in seats_]})
        for s in seats_:
            if s.player_a is None or s.player_b is None:
                missing = names[m.team_a] if s.player_a is None else names[m.team_b]
                explain_zh.append(f"第{m.number}场第{s.board}台: {missing}无人出场, 该台判负")
                explain_en.append(f"match {m.number} board {s.board}: nobody from {missing}; the board is lost")
        side = "黑" if a_is_black(round_no, 1) else "白"
        explain_zh.append(f"第{m.number}场 {names[m.team_a]} — {names[m.team_b]}: 第{m.first_board}–"
                          f"{m.first_board + fmt.boards - 1}台, {names[m.team_a]}主将执{side}")
        explain_en.append(f"match {m.number} {names[m.team_a]} — {names[m.team_b]}: boards {m.first_board}–"
                          f"{m.first_board + fmt.boards - 1}, {names[m.team_a]} has "
                          f"{'Black' if side == '黑' else 'White'} on board 1")
    return games, stored


def _as_pairing(work: Work, event: EventRecord, division: str, stage: Stage, round_no: int,
                stored: list[dict[str, Any]], games: list[Game], names: Mapping[str, str]) -> RoundPairing:
    """The round's board games in the shape every caller of ``pair`` reads (``parts``), so a
    team round is listed, explained and played like any other: each board says its match."""
    from yisai.pairing import BoardPairing, RoundPairing

    reg = regulation_of(event)
    players = {pid for g in games for pid in (g.black, g.white) if pid}
    scores = scores_before(players, round_rows.games(work.session, event.id, division, stage=stage.id), round_no,
                           reg.scoring_for(division))
    where: dict[int, tuple[str, str]] = {}
    for m in stored:
        for s in m.get("boards", []):
            team_black = m["a"] if s["a_black"] else m["b"]
            a, b = names.get(m["a"], m["a"]), names.get(m["b"], m["b"])
            where[s["table"]] = (
                tr(f"第{m['match']}场 {a}—{b} 第{s['board']}台", f"match {m['match']} {a}—{b} board {s['board']}"),
                tr(f"{names.get(team_black, team_black)}按台次颜色规则执黑",
                   f"{names.get(team_black, team_black)} has Black by the board colour rule"))
    boards = tuple(BoardPairing(g.board, g.black, g.white or "", scores.get(g.black, 0),
                                scores.get(g.white or "", 0), (where[g.board][0],), where[g.board][1])
                   for g in games)
    return RoundPairing(round_no, boards)


def team_order(work: Work, event: EventRecord, reg: Regulation, fmt: TeamMatchFormat,
               teams: Sequence[Team], matches: Sequence[TeamMatch]) -> list[str]:
    """The current team standings order (场分, then the competition's tie-breaks)."""
    from yisai.standings.teams import draw_team_lot, team_standings

    comp = next(c for c in reg.teams.competitions if c.id == fmt.competition) if reg.teams else None
    if comp is None:
        return [t.id for t in teams]
    table = team_standings(comp, teams, {}, {}, matches, draw_team_lot([t.id for t in teams], event.seed),
                           points=fmt.match_points)
    return [r.team_id for r in table.rows]


# ------------------------------------------------------------------ showing matches


@dataclass(frozen=True)
class MatchRow:
    """One match as pages and sheets show it."""

    number: int
    team_a: str
    team_b: str | None
    name_a: str
    name_b: str
    points_a: float
    points_b: float
    match_a: int | None  # 场分 once finished
    match_b: int | None
    boards: tuple[BoardResult, ...]
    finished: bool
    tables: tuple[int, ...] = ()  # the round's board numbers of its boards (result entry)

    @property
    def table_span(self) -> str:
        """第4–6台: where the match sits in the round's table."""
        if not self.tables:
            return ""
        return f"{self.tables[0]}–{self.tables[-1]}" if len(self.tables) > 1 else str(self.tables[0])


def match_rows(matches: Sequence[TeamMatch], names: Mapping[str, str],
               fmt: TeamMatchFormat | None = None, info: Mapping[str, Any] | None = None) -> list[MatchRow]:
    from yisai.standings.teams import match_points

    mp = fmt.match_points if fmt is not None else None
    out = []
    for k, m in enumerate(matches, start=1):
        ma: int | None = None
        mb: int | None = None
        if m.finished:
            if m.team_b is None:
                ma, mb = (mp.win if mp else 2), None
            else:
                ma, mb = match_points(m.board_points_a, m.board_points_b,
                                      *((mp.win, mp.draw, mp.loss) if mp else (2, 1, 0)))
        stored = (info or {}).get("team_matches", [])
        tables = tuple(b["table"] for b in stored[k - 1].get("boards", [])) if k <= len(stored) else ()
        out.append(MatchRow(k, m.team_a, m.team_b, names.get(m.team_a, m.team_a),
                            names.get(m.team_b, m.team_b) if m.team_b else "", m.board_points_a,
                            m.board_points_b, ma, mb, m.boards, m.finished, tables))
    return out


@dataclass(frozen=True)
class TeamRoundView:
    """A paired team round: its matches board by board, with players' names and results."""

    event: EventRecord
    division: str
    stage: Stage
    fmt: TeamMatchFormat
    round: int
    matches: list[MatchRow]
    player_names: dict[str, str]
    tables: dict[tuple[int, int], int]  # (match, board) → table number for result entry
    games: dict[int, Game]  # table → game
    a_black: dict[tuple[int, int], bool]


def team_round_view(work: Work, event_ref: str | int | None, round_no: int, *,
                    division: str | None = None, stage_ref: str | None = None) -> TeamRoundView:
    event = resolve_event(work, event_ref)
    reg = regulation_of(event)
    did = resolve_division(reg, division) if division else None
    stage, did2, fmt = _need_stage(reg, did, stage_ref)
    rounds = round_rows.list_rounds(work.session, event.id, did2, stage=stage.id, number=round_no)
    if not rounds:
        raise InputError(Text(f"第{round_no}轮尚未编排", f"round {round_no} is not paired yet"),
                         code="round_not_paired", params={"round": round_no})
    r = rounds[0]
    names = {t.id: t.name for t in team_rows.list_teams(work.session, event.id)}
    matches = match_rows(matches_of_round(r.info, r.games, round_no, fmt), names, fmt, r.info)
    tables = {}
    colours = {}
    for m in r.info.get("team_matches", []):
        for s in m.get("boards", []):
            tables[(m["match"], s["board"])] = s["table"]
            colours[(m["match"], s["board"])] = s["a_black"]
    player_names = {p.id: p.name for p in roster_rows.list_players(work.session, event.id)}
    return TeamRoundView(event, did2, stage, fmt, round_no, matches, player_names, tables,
                         {g.board: g for g in r.games}, colours)


def team_stage_rounds(work: Work, event_ref: str | int | None, division: str | None = None) -> int | None:
    """How many rounds the team-match stage has: as stated (Swiss), or the Berger count of the
    teams playing (round robin); None when the regulation has no team-match stage. For callers
    that play a stage to its end (the demo) without knowing its format."""
    from yisai.pairing.berger import round_count

    event = resolve_event(work, event_ref)
    found = team_match_stage(regulation_of(event), division)
    if found is None:
        return None
    _stage, did, fmt = found
    if fmt.system == "swiss":
        return fmt.rounds
    return round_count(len(playing_teams(work, event, did))) * fmt.cycles


def team_rounds(work: Work, event: EventRecord, division: str | None = None) -> list[int]:
    reg = regulation_of(event)
    found = team_match_stage(reg, division)
    if found is None:
        return []
    stage, did, _fmt = found
    return sorted(round_rows.round_numbers(work.session, event.id, did, stage=stage.id))


def board_result_word(r: BoardResult, game: Game | None) -> str:
    """How a board's result reads on pages and sheets, from team A's side."""
    if r.player_a is None or r.player_b is None:
        score = f"{r.points_a:g}:{r.points_b:g} "
        return score + (tr("(缺人判负)", "(nobody: lost)") if (r.player_a is None) != (r.player_b is None)
                        else tr("(双方缺人)", "(nobody on either side)"))
    if game is None or game.result == Result.UNKNOWN:
        return ""
    return f"{r.points_a:g}:{r.points_b:g}" + ("" if game.played else tr(" (弃权)", " (forfeit)"))


__all__ = [
    "Lineup",
    "MatchRow",
    "TeamRoundView",
    "board_result_word",
    "event_team_matches",
    "lineups",
    "match_rows",
    "matches_of_round",
    "pair_team_round",
    "stage_matches",
    "submit_lineup",
    "team_match_stage",
    "team_order",
    "team_round_view",
    "team_rounds",
    "team_stage_rounds",
]
