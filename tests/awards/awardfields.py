"""Hand-made fields for the awards tests: players, rankings and results in a few lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

from yisai.awards.inputs import EventResults
from yisai.formats.regulation_file import load
from yisai.registry.person import Gender, Player, ProStatus
from yisai.registry.team import Team, TeamMember
from yisai.regulation import Regulation
from yisai.standings.teams import RankedPlayer, RankingTable
from yisai.vocabulary.rank import Rank

REGULATIONS = Path(__file__).resolve().parents[2] / "regulations"


def shanhai() -> Regulation:
    return load(REGULATIONS / "2025-shanhai-cup.toml")


def xiaoqiwang() -> Regulation:
    return load(REGULATIONS / "2025-xiaoqiwang.toml")


def player(
    pid: str,
    gender: str = "M",
    rank: str | None = "5段",
    birth: date = date(1990, 1, 1),
    pro: ProStatus = ProStatus.AMATEUR,
) -> Player:
    return Player(
        id=pid,
        name=pid,
        gender=Gender.parse(gender),
        birth_date=birth,
        rank=Rank.parse(rank) if rank else None,
        pro_status=pro,
    )


def table(
    division: str,
    ranking: str,
    pids: Sequence[str],
    scores: Sequence[float] | None = None,
    sos: Sequence[float] | None = None,
    places: Sequence[int] | None = None,
) -> RankingTable:
    rows = []
    for i, pid in enumerate(pids):
        values = {"sos": sos[i]} if sos is not None else {}
        rows.append(
            RankedPlayer(
                pid,
                places[i] if places is not None else i + 1,
                scores[i] if scores is not None else 0,
                values,
            )
        )
    return RankingTable(division, ranking, tuple(rows))


def results(
    reg: Regulation,
    players: Iterable[Player],
    tables: Iterable[RankingTable],
    teams: Sequence[Team] = (),
    **kw: object,
) -> EventResults:
    return EventResults(
        regulation=reg,
        players={p.id: p for p in players},
        rankings=tuple(tables),
        teams=teams,
        **kw,  # type: ignore[arg-type]
    )


def team(tid: str, members: Sequence[str], division: str | None = None) -> Team:
    return Team(
        id=tid,
        name=tid,
        members=tuple(TeamMember(player_id=m, division=division) for m in members),
    )
