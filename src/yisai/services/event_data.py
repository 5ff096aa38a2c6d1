"""An event's people and games as the pure core wants them (entrants, standings input).

Shared by pairing, result entry, standings, prizes and the demo so each reads the store the
same way.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, cast

from yisai.i18n import Text
from yisai.record import Game
from yisai.record.games import forfeited_by
from yisai.record.groups import KNOCKOUT_GROUP, PLACEMENT_GROUP
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Player
from yisai.regulation.stages import Stage
from yisai.services.context import InputError, Work
from yisai.services.events import playing_stage, regulation_of
from yisai.standings import StandingsInput, StandingsPlayer
from yisai.store import EventRecord, player_rows, roster_rows, round_rows, team_rows
from yisai.vocabulary.rank import MIN_KYU, Rank

if TYPE_CHECKING:
    from yisai.pairing import Entrant


UNRANKED = Rank.kyu(MIN_KYU)  # a player without a recorded rank is seeded last


def players_by_id(work: Work, event: EventRecord) -> dict[str, Player]:
    """Every player of the event by id, for a page that names the players it lists."""
    return roster_rows.players_by_id(work.session, event.id)


def player_names(work: Work, player_ids: Sequence[str]) -> dict[str, str]:
    """player id → name, for a message that names players known only by id (a saved line-up)."""
    return {pid: player_rows.get_player(work.session, pid).name for pid in player_ids}


def team_of(work: Work, event: EventRecord) -> dict[str, str]:
    """player id → team name."""
    return {m.player_id: t.name for t in team_rows.list_teams(work.session, event.id) for m in t.members}


def approved_players(work: Work, event: EventRecord, division: str, stage: str = "") -> list[Player]:
    """The players who may be paired in a division (and stage): approved entries only."""
    players = roster_rows.players_by_id(work.session, event.id)
    return [
        players[e.player_id]
        for e in roster_rows.list_entries(work.session,
            event.id, division=division, stage=stage, status=EntryStatus.APPROVED
        )
    ]


def entrants_of(players: list[Player], teams: dict[str, str]) -> list[Entrant]:
    from yisai.pairing import Entrant

    return [
        Entrant(
            id=p.id,
            rank=p.rank if p.rank is not None else UNRANKED,
            rating=p.rating or 0,
            team=teams.get(p.id),
            province=p.province,
            city=p.city,
            club=p.club,
        )
        for p in players
    ]




def group_members(work: Work, event: EventRecord, division: str, stage: Stage) -> dict[str, list[str]]:
    """Groups of a two-group stage or a round robin, as drawn in round 1 (empty for a plain
    Swiss or a knockout)."""
    groups: dict[str, list[str]] = {}
    for r in round_rows.list_rounds(work.session, event.id, division, stage=stage.id, number=1):
        if r.group and r.group not in (PLACEMENT_GROUP, KNOCKOUT_GROUP):
            groups[r.group] = list(r.info.get("members", []))
    return groups


RoundKeys = dict[int, Hashable]  # round number → a key that changes whenever its games do


def division_games(work: Work, event: EventRecord, division: str, stage: Stage) -> list[Game]:
    """The stage's games as they count for pairing and standings: as recorded, except that a
    disqualified player's games are his losses where the regulation says so
    (``withdrawal.disqualified_games = "forfeit"``)."""
    return division_games_keyed(work, event, division, stage)[0]


def division_games_keyed(work: Work, event: EventRecord, division: str, stage: Stage) -> tuple[list[Game], RoundKeys]:
    """``division_games`` and, read with them, each round's key (the store's round revisions,
    and who is disqualified when that changes the games): what the standings keep each
    round's ledger column under."""
    read = round_rows.games_read(work.session, event.id, division, stage=stage.id)
    games, marker = read.games, cast("tuple[str, ...]", ())
    if regulation_of(event).withdrawal.disqualified_games == "forfeit":
        gone = [e.player_id for e in roster_rows.list_entries(work.session, event.id, division=division,
                                                             status=EntryStatus.DISQUALIFIED)]
        if gone:
            games, marker = forfeited_by(games, gone), ("forfeit", *sorted(gone))
    return games, {n: (read.round_key(n), marker) for _rid, n, _rev in read.rounds}


def left_players(work: Work, event: EventRecord, division: str) -> dict[str, tuple[Player, EntryStatus]]:
    """Players whose entry in the division was withdrawn or disqualified (退赛/取消资格), with
    the status: they are paired no more, but the games they played still stand."""
    left = roster_rows.list_entries(work.session, event.id, division=division, stage="",
                                    status=(EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED))
    if not left:  # the usual case: no second read of the event's players on the standings path
        return {}
    players = roster_rows.players_by_id(work.session, event.id)
    return {e.player_id: (players[e.player_id], e.status) for e in left}


def stage_games(work: Work, event: EventRecord, division: str, stage: Stage) -> list[Game]:
    """The games that count in the stage's standings: all but a knockout bracket's (those
    decide places by the bracket, never by points)."""
    return stage_games_keyed(work, event, division, stage)[0]


def stage_games_keyed(work: Work, event: EventRecord, division: str, stage: Stage) -> tuple[list[Game], RoundKeys]:
    """``stage_games`` with each counted round's key (``division_games_keyed``)."""
    games, keys = division_games_keyed(work, event, division, stage)
    if not _has_knockout(stage, division):
        return games, keys
    bracket = set(round_rows.round_numbers(work.session, event.id, division, stage=stage.id, group=KNOCKOUT_GROUP))
    return [g for g in games if g.round not in bracket], {n: k for n, k in keys.items() if n not in bracket}


def _has_knockout(stage: Stage, division: str) -> bool:
    return stage.format_for(division).bracket_rules() is not None


def division_players(work: Work, event: EventRecord, division: str) -> list[Player]:
    players = approved_players(work, event, division)
    if not players:
        raise InputError(Text(f"组别 {division} 没有已批准的报名",
                              f"division {division} has no approved entries"),
                         code="no_approved_entries", params={"division": division})
    return players


def standings_input(
    work: Work, event: EventRecord, division: str | None = None, stage: str | None = None
) -> StandingsInput:
    """Players (tagged with division, gender, team, age) and games of one or all divisions."""
    reg = regulation_of(event)
    divisions = [division] if division else [d.id for d in reg.divisions]
    teams = team_of(work, event)
    players: list[StandingsPlayer] = []
    games: list[Game] = []
    keys: dict[int, list[Hashable]] = {}
    rounds = 0
    for did in divisions:
        dplayers = approved_players(work, event, did)
        if not dplayers:
            continue
        st = playing_stage(reg, did, stage)
        dgames, dkeys = stage_games_keyed(work, event, did, st)
        for n, key in dkeys.items():
            keys.setdefault(n, []).append((did, key))
        group_of = {pid: g for g, members in group_members(work, event, did, st).items() for pid in members}
        games += dgames
        rounds = max(rounds, max((g.round for g in dgames), default=0))
        # who left keeps the games played: listed (退赛/取消资格) when he has any in this stage
        in_games = {g.black for g in dgames} | {g.white for g in dgames if g.white}
        left = {pid: ps for pid, ps in left_players(work, event, did).items() if pid in in_games}
        status = {pid: s.value for pid, (_p, s) in left.items()}
        dplayers += [p for p, _s in left.values()]
        players += [
            StandingsPlayer(
                id=p.id,
                name=p.name,
                club=teams.get(p.id) or p.club or p.city or p.province or "",
                rank=p.rank,
                rating=p.rating,
                tags={
                    "division": did,
                    "gender": p.gender.value,
                    **({"team": teams[p.id]} if p.id in teams else {}),
                    **({"group": group_of[p.id]} if p.id in group_of else {}),
                },
                status=status.get(p.id, ""),
                ranked=reg.withdrawal.keeps_place(status.get(p.id, "")),
            )
            for p in dplayers
        ]
    rules_division = division or (divisions[0] if divisions else None)
    return StandingsInput(
        players=tuple(players),
        games=tuple(games),
        rounds=rounds,
        scoring=reg.scoring_for(rules_division) if rules_division else reg.scoring,
        ranking=reg.ranking_for(rules_division) if rules_division else reg.ranking,
        title=event.name,
        source=f"event:{event.id}",
        meta={"event": event.name, "seed": str(event.seed)},
        round_keys={n: tuple(parts) for n, parts in keys.items()},
    )


def current_order(work: Work, event: EventRecord, division: str, stage: Stage, members: list[str],
                  up_to: int | None = None) -> list[str]:
    """Current placement order of ``members`` (after round ``up_to``, default the latest): what
    pairing seeds by, a group stage hands on to its final or bracket, and a final places by."""
    from yisai.standings import compute_standings

    inp = standings_input(work, event, division, stage.id)
    if up_to is not None:
        up_to = min(up_to, inp.rounds)
    rows = compute_standings(inp, round_=up_to, subset=members, lot_seed=event.seed).rows
    return [r.player.id for r in rows]
