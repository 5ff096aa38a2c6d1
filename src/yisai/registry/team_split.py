"""不足或超过可以以个人名义参赛: which listed players form the team, which play as individuals.

Seed 000 十一(二)2: a city team enters at most 5 players (3 men + 2 women); "不足或超过可以以
个人名义参赛". When the regulation says so (``teams.extra_players_play_individually``), a roster
that lists more players than the team may hold is not refused whole: players are seated in the
order listed (players already in the team first), and each one who would break a limit (total,
men, women) is entered as an individual instead, with a note saying why. Players too few for a
team competition (2 men for a 3-man team) stay in the team; the team ranking then leaves that
competition unranked (``complete_only``), and ``shortfall_notes`` says so.

Pure: the caller (services) saves the kept members as the team and keeps the others' entries as
individual entries, recording each note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yisai.i18n import tr
from yisai.registry.person import Gender, Player
from yisai.registry.team import TeamMember
from yisai.regulation.teams import TeamRules


@dataclass(frozen=True, slots=True)
class Individual:
    """A listed player who plays as an individual, not for the team, and why."""

    member: TeamMember
    note: str


@dataclass(frozen=True, slots=True)
class TeamSplit:
    team: tuple[TeamMember, ...]  # seated in the team, in the order listed
    individuals: tuple[Individual, ...]  # entered as individuals

    @property
    def notes(self) -> list[str]:
        return [i.note for i in self.individuals]


def split_extra_players(
    members: Sequence[TeamMember],
    players: Mapping[str, Player],
    rules: TeamRules,
    *,
    team_name: str,
    already: Sequence[TeamMember] = (),
) -> TeamSplit:
    """Seat ``already`` then ``members`` in order; the overflow plays individually.

    Without ``extra_players_play_individually`` nothing is split: every listed player stays and
    ``check_team`` reports the limits broken. A player not in ``players`` stays too (check_team
    names him). ``already`` (members saved earlier) always stay and count against the limits.
    """
    if not rules.extra_players_play_individually:
        return TeamSplit(tuple(members), ())
    seated = [m.player_id for m in already]
    total = len(dict.fromkeys(seated))
    men = sum(1 for pid in dict.fromkeys(seated) if _gender(players, pid) is Gender.MALE)
    women = sum(1 for pid in dict.fromkeys(seated) if _gender(players, pid) is Gender.FEMALE)
    kept: list[TeamMember] = []
    out: list[Individual] = []
    for m in members:
        if m.player_id in seated or m.player_id not in players:
            kept.append(m)
            continue
        p = players[m.player_id]
        reason = _overflow(p, total, men, women, rules, team_name)
        if reason is not None:
            out.append(Individual(m, reason))
            continue
        kept.append(m)
        seated.append(m.player_id)
        total += 1
        men += p.gender is Gender.MALE
        women += p.gender is Gender.FEMALE
    return TeamSplit(tuple(kept), tuple(out))


def _gender(players: Mapping[str, Player], pid: str) -> Gender | None:
    p = players.get(pid)
    return p.gender if p is not None else None


def _overflow(
    p: Player, total: int, men: int, women: int, rules: TeamRules, team_name: str
) -> str | None:
    label = rules.name.split("（")[0].split("(")[0].strip() or "代表队"
    if total >= rules.max_players:
        return tr(
            f"{p.name}: {team_name}已满{rules.max_players}人（{label}每队最多{rules.max_players}人），"
            "以个人名义参赛",
            f"{p.name}: {team_name} already has {rules.max_players} players (the most a team may "
            "enter); plays as an individual",
        )
    if p.gender is Gender.MALE and rules.max_men is not None and men >= rules.max_men:
        return tr(
            f"{p.name}: {team_name}已有{rules.max_men}名男队员（{label}最多{rules.max_men}男），"
            "以个人名义参赛",
            f"{p.name}: {team_name} already has {rules.max_men} men (the most a team may enter); "
            "plays as an individual",
        )
    if p.gender is Gender.FEMALE and rules.max_women is not None and women >= rules.max_women:
        return tr(
            f"{p.name}: {team_name}已有{rules.max_women}名女队员（{label}最多{rules.max_women}女），"
            "以个人名义参赛",
            f"{p.name}: {team_name} already has {rules.max_women} women (the most a team may "
            "enter); plays as an individual",
        )
    return None


def shortfall_notes(
    members: Sequence[TeamMember], players: Mapping[str, Player], rules: TeamRules, *, team_name: str
) -> list[str]:
    """For each team competition the team cannot fill: its players play as individuals only."""
    out: list[str] = []
    for c in rules.competitions:
        if not c.complete_only:
            continue
        eligible = [
            m for m in members
            if m.player_id in players and (c.gender is None or players[m.player_id].gender is c.gender)
        ]  # fmt: skip
        if len(eligible) < c.size:
            out.append(tr(
                f"{team_name}: {c.name}须{c.size}人，现有{len(eligible)}人，不计{c.name}成绩"
                "（队员以个人名义参赛）",
                f"{team_name}: {c.name} needs {c.size} players, has {len(eligible)}; no team "
                "result (its players play as individuals)",
            ))
    return out
