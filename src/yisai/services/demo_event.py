"""`yisai demo`: a realistic event for any regulation, run from registration to awards.

For the two seed regulations the field is hand-shaped (below); for any other file it is
generated from the regulation itself (``generic_people``: each division's eligibility, teams as
``[teams]`` makes them up). Generated people (plausible Chinese names, birth dates inside and just outside the windows,
ranks, provinces and cities), teams, a few deliberately ineligible entries, then every round
paired by the engine with simulated results (the stronger player wins more often), standings,
team standings, prizes and rank awards. Seeded, so two runs print the same event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from yisai.i18n import Text, tr
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player, ProStatus
from yisai.registry.team import Team
from yisai.regulation import Regulation
from yisai.regulation.format_base import as_kind
from yisai.regulation.stages import Stage
from yisai.regulation.team_match import TeamMatchFormat
from yisai.regulation.teams import TeamRules
from yisai.services.approvals import approve_entry, reject_entry
from yisai.services.context import Context, Refused, Work
from yisai.services.entries import register_player
from yisai.services.errors import Hint
from yisai.services.event_data import approved_players, division_players
from yisai.services.events import (
    EventRecord,
    create_event,
    playing_stage,
    regulation_of,
    resolve_event,
)
from yisai.services.paired import PairedRound
from yisai.services.results import load_event_results
from yisai.services.round_results import record_result
from yisai.services.rounds import pair, round_view, set_round_count
from yisai.services.stage_play import play_of
from yisai.services.teams import add_team
from yisai.vocabulary.rank import Rank

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
MALE = "伟强磊军勇杰涛斌超明刚平辉鹏华飞鑫波宁浩宇轩博文俊晨昊然睿哲瀚泽子航思远嘉豪一鸣天佑"
FEMALE = "芳娜敏静丽艳娟霞秀玲桂英婷雪琳慧颖欣怡梓涵诗雨可馨佳琪思彤若曦语嫣紫萱"
PLACES = [
    ("浙江", "杭州"), ("浙江", "宁波"), ("浙江", "温州"), ("江苏", "南京"), ("江苏", "苏州"),
    ("上海", "上海"), ("北京", "北京"), ("广东", "广州"), ("广东", "深圳"), ("四川", "成都"),
    ("湖北", "武汉"), ("山东", "青岛"), ("福建", "厦门"), ("天津", "天津"), ("重庆", "重庆"),
    ("河南", "郑州"), ("湖南", "长沙"), ("安徽", "合肥"), ("陕西", "西安"), ("辽宁", "大连"),
]
PROVINCES = [
    "北京", "天津", "河北", "山西", "内蒙古", "辽宁", "吉林", "黑龙江", "上海", "江苏", "浙江",
    "安徽", "福建", "江西", "山东", "河南", "湖北", "湖南", "广东", "广西", "海南", "重庆", "四川",
    "贵州", "云南", "西藏", "陕西", "甘肃", "青海", "宁夏", "新疆", "新疆生产建设兵团", "大连",
    "青岛", "宁波", "厦门", "深圳", "香港",
]


@dataclass
class DemoPlayer:
    player: Player
    division: str
    team: str | None = None


class NameMaker:
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.used: set[str] = set()

    def __call__(self, gender: Gender) -> str:
        pool = MALE if gender is Gender.MALE else FEMALE
        while True:
            given = self.rnd.choice(pool) + (self.rnd.choice(pool) if self.rnd.random() < 0.6 else "")
            name = self.rnd.choice(SURNAMES) + given
            if name not in self.used:
                self.used.add(name)
                return name


def _birth(rnd: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rnd.randrange((end - start).days + 1))


def _rank(rnd: random.Random, low: int, high: int) -> Rank:
    """A rank between ``low`` and ``high`` (dan numbers; ≤0 means kyu), skewed to the low end."""
    n = low + int((high - low + 1) * rnd.random() ** 1.6)
    return Rank.dan(n) if n >= 1 else Rank.kyu(1 - n)


def _player(rnd: random.Random, names: NameMaker, gender: Gender, born: date, rank: Rank,
            province: str, city: str | None, **extra: object) -> Player:
    return Player(
        id="", name=names(gender), gender=gender, birth_date=born, rank=rank,
        certificate_no=f"CWA{rnd.randrange(10**7, 10**8)}", region="中国大陆",
        province=province, city=city, rating=1500 + rank.value * 100 + rnd.randrange(-60, 60),
        **extra,
    )


def _n(count: int, scale: float, least: int = 4) -> int:
    return max(least, round(count * scale))


def shanhai_people(seed: int, scale: float = 1.0) -> tuple[list[DemoPlayer], dict[str, tuple[str, str | None]]]:
    """Seed 000: city teams (3 men + 2 women) in the open final, youth, kids and seniors."""
    rnd, names = random.Random(seed), NameMaker(random.Random(seed + 1))
    people: list[DemoPlayer] = []
    teams: dict[str, tuple[str, str | None]] = {}
    for province, city in PLACES[: _n(12, scale, 2)]:
        team = f"{city}队"
        teams[team] = (province, city)
        for g in (Gender.MALE,) * 3 + (Gender.FEMALE,) * 2:
            p = _player(rnd, names, g, _birth(rnd, date(1985, 1, 1), date(2010, 1, 1)),
                        _rank(rnd, 5, 8) if g is Gender.MALE else _rank(rnd, 3, 7), province, city)
            people.append(DemoPlayer(p, "open", team))
    for i in range(_n(60, scale, 30)):
        g = Gender.FEMALE if i % 6 == 0 else Gender.MALE
        province, city = rnd.choice(PLACES)
        pro = ProStatus.NEW_PRO if i == 3 else ProStatus.AMATEUR
        p = _player(rnd, names, g, _birth(rnd, date(1975, 1, 1), date(2012, 1, 1)),
                    _rank(rnd, 4, 8), province, city, pro_status=pro)
        people.append(DemoPlayer(p, "open"))
    for i in range(_n(40, scale)):
        g = Gender.FEMALE if i % 4 == 0 else Gender.MALE
        province, city = rnd.choice(PLACES)
        people.append(DemoPlayer(_player(rnd, names, g, _birth(rnd, date(2011, 9, 1), date(2019, 8, 31)),
                                         _rank(rnd, 1, 6), province, city), "junior"))
    for i in range(_n(16, scale)):
        g = Gender.FEMALE if i % 3 == 0 else Gender.MALE
        province, city = rnd.choice(PLACES)
        people.append(DemoPlayer(_player(rnd, names, g, _birth(rnd, date(2019, 9, 1), date(2021, 6, 1)),
                                         _rank(rnd, -4, 2), province, city), "kids"))
    for i in range(_n(32, scale)):
        g = Gender.FEMALE if i % 5 == 0 else Gender.MALE
        province, city = rnd.choice(PLACES)
        born = _birth(rnd, date(1955, 1, 1), date(1980, 12, 31)) if i % 4 else _birth(
            rnd, date(1955, 1, 1), date(1965, 11, 1))
        people.append(DemoPlayer(_player(rnd, names, g, born, _rank(rnd, 3, 7), province, city), "senior"))
    # Deliberately ineligible: born a day too early for 少年组, too young for 中老年组, no certificate.
    bad = [
        DemoPlayer(_player(rnd, names, Gender.MALE, date(2011, 8, 31), Rank.dan(3), "浙江", "杭州"), "junior"),
        DemoPlayer(_player(rnd, names, Gender.FEMALE, date(1982, 3, 3), Rank.dan(4), "江苏", "南京"), "senior"),
        DemoPlayer(_player(rnd, names, Gender.MALE, date(1990, 5, 5), Rank.dan(5), "上海", "上海")
                   .model_copy(update={"certificate_no": None}), "open"),
    ]
    people.extend(bad)
    return people, teams


def xiaoqiwang_people(seed: int, scale: float = 1.0) -> tuple[list[DemoPlayer], dict[str, tuple[str, str | None]]]:
    """Seed 002: provincial teams of six (甲乙丙 × 男女)."""
    rnd, names = random.Random(seed), NameMaker(random.Random(seed + 1))
    windows = {"jia": (date(2013, 1, 1), date(2014, 12, 31), 3, 7),
               "yi": (date(2015, 1, 1), date(2017, 12, 31), 1, 5),
               "bing": (date(2018, 1, 1), date(2019, 12, 31), -5, 2)}
    people: list[DemoPlayer] = []
    teams: dict[str, tuple[str, str | None]] = {}
    chosen = PROVINCES[: _n(36, scale, 4)]
    for province in chosen:
        team = f"{province}队"
        teams[team] = (province, None)
        for division, (start, end, low, high) in windows.items():
            for g in (Gender.MALE, Gender.FEMALE):
                if province == chosen[-1] and division == "bing" and g is Gender.FEMALE:
                    continue  # one incomplete team: ranked individually, not as a team
                p = _player(rnd, names, g, _birth(rnd, start, end), _rank(rnd, low, high), province, None)
                people.append(DemoPlayer(p, division, team))
    bad = [
        DemoPlayer(_player(rnd, names, Gender.MALE, date(2012, 12, 31), Rank.dan(5), "浙江", None), "jia"),
        DemoPlayer(_player(rnd, names, Gender.FEMALE, date(2016, 2, 2), Rank.dan(2), "香港", None)
                   .model_copy(update={"region": "香港"}), "yi"),
        DemoPlayer(_player(rnd, names, Gender.MALE, date(2014, 6, 6), Rank.dan(6), "江苏", None,
                           pro_status=ProStatus.PRO), "jia"),
    ]
    people.extend(bad)
    return people, teams


def _division_people(rnd: random.Random, names: NameMaker, reg: Regulation, division: str, count: int,
                     gender: Gender | None = None, home: tuple[str, str | None] | None = None) -> list[Player]:
    """``count`` players who meet the division's eligibility as the regulation states it: birth
    window, genders, rank limits, certificate, region; unranked where the division's promotion
    rules are for unranked players only (定级组)."""
    e = reg.division(division).eligibility
    start = _first_day(reg)
    born_from = e.born_from or (e.born_to - timedelta(days=365 * 30) if e.born_to else date(start.year - 50, 1, 1))
    born_to = e.born_to or min(born_from + timedelta(days=365 * 8), start - timedelta(days=365 * 5))
    if born_to < born_from:
        born_to = born_from
    rules = [r for r in reg.promotions if r.division == division]
    unranked_only = bool(rules) and all(not r.ranked for r in rules) and e.min_rank is None and e.max_rank is None
    low = e.min_rank.value + 1 if e.min_rank else -9  # _rank() counts dan numbers: 1段 = 1, 1级 = 0
    high = e.max_rank.value + 1 if e.max_rank else 6
    out = []
    for _ in range(count):
        g = gender or (rnd.choice(e.genders) if e.genders else (Gender.FEMALE if rnd.random() < 0.3 else Gender.MALE))
        province, city = home or rnd.choice(PLACES)  # a team's players come from its place
        region = e.regions[0] if e.regions else "中国大陆"
        born = _birth(rnd, born_from, born_to)
        if unranked_only:
            out.append(Player(id="", name=names(g), gender=g, birth_date=born, rank=None,
                              certificate_no=None, region=region, province=province, city=city, rating=None))
            continue
        out.append(_player(rnd, names, g, born, _rank(rnd, low, high), province, city)
                   .model_copy(update={"region": region}))
    return out


def _first_day(reg: Regulation) -> date:
    days = [s.start for s in reg.stages if s.start is not None]
    return min(days) if days else date(reg.year, 6, 1)


def generic_people(reg: Regulation, seed: int, scale: float = 1.0
                   ) -> tuple[list[DemoPlayer], dict[str, tuple[str, str | None]]]:
    """A field for any regulation: teams as ``[teams]`` makes them up (one player per seat, or
    full teams of ``max_players`` for each team competition's division), and individual entries
    for every division that plays rounds. Seeded."""
    rnd, names = random.Random(seed), NameMaker(random.Random(seed + 1))
    people: list[DemoPlayer] = []
    teams: dict[str, tuple[str, str | None]] = {}
    team_divisions: set[str] = set()
    if reg.teams is not None:
        rules = reg.teams
        n_teams = min(max(4, _n(8, scale)), rules.max_teams or 10_000)
        # One team per province first (规程 often limit a region to one team), then cities again.
        by_province: dict[str, tuple[str, str | None]] = {p: (p, c) for p, c in reversed(PLACES)}
        homes = list(by_province.values())[::-1]
        homes += [(p, None) for p in PROVINCES if p not in {h[0] for h in homes}]
        for k in range(n_teams):
            province, city = homes[k % len(homes)]
            team = f"{city or province}{'' if k < len(homes) else k // len(homes) + 1}队"
            teams[team] = (province, city)
            if rules.slots:
                for slot in rules.slots:
                    did = slot.division or reg.divisions[0].id
                    team_divisions.add(did)
                    for p in _division_people(rnd, names, reg, did, 1, slot.gender, (province, city)):
                        people.append(DemoPlayer(_of_club(p, team, rules), did, team))
                continue
            comps = rules.competitions or []
            did = comps[0].division if comps else reg.divisions[0].id
            team_divisions.add(did)
            size = min(rules.max_players, max(c.size for c in comps) if comps else rules.max_players)
            least_women = min(rules.min_women or 0, size)  # 每队至少1名女棋手: her seat comes first
            men = min(rules.max_men if rules.max_men is not None else rules.max_players, size - least_women)
            women = rules.max_women if rules.max_women is not None else least_women
            genders = [Gender.MALE] * men + [Gender.FEMALE] * max(least_women, min(women, size - men))
            genders += [Gender.MALE] * (size - len(genders))
            young = _young_birth(reg, did)  # 每场至少1名18岁以下棋手出场: the first seats are young
            for k, g in enumerate(genders):
                for p in _division_people(rnd, names, reg, did, 1, g, (province, city)):
                    if young is not None and k < young[0]:
                        p = p.model_copy(update={"birth_date": young[1]})
                    people.append(DemoPlayer(_of_club(p, team, rules), did, team))
    seated = {d: sum(1 for dp in people if dp.division == d) for d in team_divisions}
    playable = [d for d in reg.divisions if _playable(reg, d.id) and d.id not in team_divisions]
    room = reg.registration.capacity  # 限报N名: the individual divisions share what the teams leave
    share = None if room is None or not playable else max(0, room - len(people)) // len(playable)
    for d in reg.divisions:
        if not _playable(reg, d.id):
            continue
        want = max(_n(24, scale, 6), least_field(reg, d.id))
        count = max(0, least_field(reg, d.id) - seated[d.id]) if d.id in team_divisions else want
        for limit in (d.capacity, share if d.id not in team_divisions else None):
            if limit is not None:  # the demo enters no more than the regulation allows
                count = min(count, max(0, limit - seated.get(d.id, 0)))
        for p in _division_people(rnd, names, reg, d.id, count):
            people.append(DemoPlayer(p, d.id))
    return people, teams


def _young_birth(reg: Regulation, division: str) -> tuple[int, date] | None:
    """(players, a birth date) for a team-match line-up's youth quota: born two years short of
    the age limit on the stage's first day, so the quota's players count."""
    for stage in pairable_stages(reg, division):
        team = as_kind(stage.format_for(division), TeamMatchFormat)
        if team is not None and team.youth_quota is not None and stage.start is not None:
            return team.youth_quota.players, date(stage.start.year - team.youth_quota.under_age + 2, 1, 1)
    return None


def _of_club(p: Player, team: str, rules: TeamRules) -> Player:
    """A club or school team's players name their club (the team without 队): 每个俱乐部限报1队
    counts teams by it."""
    return p.model_copy(update={"club": team.removesuffix("队")}) if rules.kind in ("club", "school") else p


def least_field(reg: Regulation, division: str) -> int:
    """Players a division needs so its rounds can be paired without a rematch: twice the rounds
    of a Swiss (with at most n/2 rounds a rematch-free pairing always exists), for two groups
    twice that again. A format that knows its own needs adds none."""
    need = 0
    for stage in pairable_stages(reg, division):
        fmt = stage.format_for(division)
        need = max(need, play_of(fmt).least_field(fmt))
    return need


def _playable(reg: Regulation, division: str) -> bool:
    return bool(pairable_stages(reg, division))


def pairable_stages(reg: Regulation, division: str) -> list[Stage]:
    """The division's stages played in rounds over the board, in the file's order."""
    return [s for s in reg.stages if division in s.divisions
            and s.format_for(division).plays_rounds]


@dataclass(frozen=True)
class Unsimulable:
    """Why a division cannot be simulated, and what to do instead as a ``Hint`` kind (an online
    ladder is simulated a period at a time), worded by each front end."""

    reason: Text
    hint: Hint | None = None


def cannot_simulate(reg: Regulation) -> list[Unsimulable]:
    """Why the regulation cannot be run through a simulated event (empty: it can)."""
    out = []
    for d in reg.divisions:
        if pairable_stages(reg, d.id):
            continue
        kinds = {s.format_for(d.id).kind for s in reg.stages if d.id in s.divisions}
        ladder = kinds == {"online_ladder"}
        why = Text("只有线上积分晋级赛 (线上对局)", "only an online ladder (online games)") if ladder else Text(
            "赛制另行通知或没有按轮次进行的比赛", "its format is announced later or it plays no rounds")
        out.append(Unsimulable(Text(f"{d.name}({d.id}): {why.zh}", f"{d.name} ({d.id}): {why.en}"),
                               Hint.SIMULATE_QUALIFIER if ladder else None))
    return out


def _window_moment(reg: Regulation, team_opens: datetime | None = None,
                   team_closes: datetime | None = None) -> datetime | None:
    """A moment inside every enforced registration window (and the team window given), if they
    have one in common."""
    opens: list[datetime] = [team_opens] if team_opens else []
    closes: list[datetime] = [team_closes] if team_closes else []
    for w in reg.registration.windows:
        if not w.enforce:
            continue
        if w.opens is not None:
            opens.append(w.opens if isinstance(w.opens, datetime) else datetime.combine(w.opens, time(9, 0)))
        if w.closes is not None:
            closes.append(w.closes if isinstance(w.closes, datetime) else datetime.combine(w.closes, time(9, 0)))
    if not opens and not closes:
        return None
    moment = min(closes) - timedelta(days=3) if closes else max(opens) + timedelta(days=1)
    if opens and moment < max(opens):
        moment = max(opens)
    return moment.replace(second=0)


def registration_moment(reg: Regulation) -> datetime:
    """A moment inside the team registration window and the regulation's enforced windows,
    so the demo registers on time."""
    teams = reg.teams
    enforced = _window_moment(reg)
    if enforced is not None and teams is not None and (teams.registration_from or teams.registration_to):
        return _window_moment(reg, teams.registration_from, teams.registration_to) or enforced
    fallback = enforced or datetime(reg.year, 1, 1, 9, 0)
    if teams is None or teams.registration_to is None:
        return teams.registration_from if teams and teams.registration_from else fallback
    moment = teams.registration_to - timedelta(days=7)
    if teams.registration_from and moment < teams.registration_from:
        moment = teams.registration_from
    return moment.replace(hour=9, minute=0, second=0)


@dataclass
class Registration:
    approved: int
    rejected: list[tuple[str, str, list[Text]]]  # name, division, reasons


def register_all(work: Work, event: EventRecord, reg: Regulation, people: list[DemoPlayer],
                 teams: dict[str, tuple[str, str | None]]) -> Registration:
    approved, rejected = 0, []
    seated: dict[str, list[str]] = {}
    event = _import_register(work, event, reg, people)
    for dp in people:
        r = register_player(work, event, dp.player, division=dp.division, fee_paid=True)
        entry = r.entry
        assert entry is not None
        if entry.reasons:
            reject_entry(work, entry.id, "；".join(r.render() for r in entry.reasons))
            rejected.append((dp.player.name, reg.division(dp.division).name, list(entry.reasons)))
            continue
        if entry.status is EntryStatus.PENDING:
            approve_entry(work, entry.id, note="demo: 主办方审核通过")
        approved += 1
        if dp.team:
            seated.setdefault(dp.team, []).append(r.player.id)
    for name, members in seated.items():
        add_team(work, event, Team(name=name, province=teams[name][0], city=teams[name][1], region="中国大陆"),
                 [(pid, None) for pid in members], note="demo")
    return Registration(approved, rejected)


def _import_register(work: Work, event: EventRecord, reg: Regulation, people: list[DemoPlayer]) -> EventRecord:
    """须为本协会注册会员: the director imports the register before entries open; it holds every
    generated player but one individual entrant of a division that asks for membership, who is
    then refused with the reason."""
    from yisai.services.members import import_members

    asking = {d.id for d in reg.divisions if d.eligibility.members_of}
    if not asking:
        return event
    counts: dict[str, int] = {}
    for dp in people:
        counts[dp.player.name] = counts.get(dp.player.name, 0) + 1
    outsider = next((dp.player.name for dp in people
                     if dp.division in asking and dp.team is None and counts[dp.player.name] == 1), None)
    names = sorted({dp.player.name for dp in people} - {outsider})
    import_members(work, str(event.id), "\n".join(names).encode(), "demo-members.csv", "demo")
    return resolve_event(work, str(event.id))  # the register is part of the event now


MAX_ROUNDS = 50  # a format that never says "no such round" stops here


def rounds_for(reg: Regulation, division: str, entrants: int, stage: Stage | None = None) -> int | None:
    """Rounds of a division's stage: the regulation's count; 'decided by entries' → enough to
    find a winner, plus two; None for a format that knows its own rounds (pair until the
    pairing service says there is no such round)."""
    fmt = (stage or playing_stage(reg, division)).format_for(division)
    return play_of(fmt).rounds_for(fmt, entrants)


def play_round(work: Work, event: EventRecord, division: str, n: int, seed: int,
               stage_ref: str | None = None, forfeit_rate: float = 0.0, absentee: str | None = None) -> PairedRound:
    """Pair round ``n`` and enter simulated results (the stronger player wins more often; a
    few games are lost on time, and with ``forfeit_rate`` some are forfeited). ``absentee``
    never comes: each of his games is his forfeit (entered as minutes late under a lateness
    rule), so the regulation's ``exclude_after_forfeits`` is seen to end his event."""
    rnd = random.Random(seed)
    strength = {p.id: p.rank.value if p.rank else -30 for p in division_players(work, event, division)}
    late = regulation_of(event).lateness
    paired = pair(work, str(event.id), division, n, stage_ref=stage_ref)
    for group, pairing in paired.parts:
        for b in pairing.boards:
            diff = strength.get(b.black, -30) - strength.get(b.white, -30)
            p_black = 1 / (1 + 10 ** (-diff / 3))
            text = "黑胜" if rnd.random() < p_black else "白胜"
            if absentee is not None and absentee in (b.black, b.white):
                text = "黑弃权" if absentee == b.black else "白弃权"  # never came: a forfeit
            elif rnd.random() < 0.01:
                text = "白超时负" if text == "黑胜" else "黑超时负"
            elif rnd.random() < forfeit_rate:
                loser = "白" if text == "黑胜" else "黑"
                # with a lateness rule the referee enters the minutes late and the rule decides
                text = f"{loser}迟到{late.minutes + rnd.randrange(1, 10)}分钟" if late else f"{loser}弃权"
            record_result(work, str(event.id), division, n, b.board, text, group=group, stage_ref=stage_ref)
    return paired



# ------------------------------------------------------------------ the whole demo, step by step

DEMO_SEEDS: dict[str, tuple[Callable[[int, float], tuple[list[DemoPlayer], dict[str, tuple[str, str | None]]]], int]] = {
    "2025-shanhai-cup": (shanhai_people, 20250430),
    "2025-xiaoqiwang": (xiaoqiwang_people, 20250318),
}


@dataclass(frozen=True)
class DemoStep:
    """One thing the demo did, for a front end to show: ``kind`` is ``event``, ``registered``,
    ``division`` (a division's stage starts: division, players, rounds or None when the format
    decides, stage), ``round`` (a RoundView), or
    ``results`` (the final EventResults)."""

    kind: str
    data: Any


def run_demo(ctx: Context, path: Path, scale: float, seed: int | None = None) -> Iterator[DemoStep]:
    """Create the event of regulation ``path``, register a synthetic field inside its window,
    play every division's stages round by round with simulated results, and yield each step
    as it is done. Everything goes through the services the commands use (register, approve,
    pair, record a result, results); a format is played by asking the pairing service for the
    next round until it says there is none."""
    known = DEMO_SEEDS.get(path.stem)
    with ctx.work() as work:
        event = create_event(work, path, seed=seed if seed is not None else (known[1] if known else 1))
    reg = regulation_of(event)
    if known is not None:
        people, teams = known[0](event.seed, scale)
        forfeits = 0.0
    else:
        people, teams = generic_people(reg, event.seed, scale)
        forfeits = 0.03
    yield DemoStep("event", (event, reg))
    with ctx.work() as work:
        registration = register_all(work, event, reg, people, teams)
    yield DemoStep("registered", (len(people), registration, len(teams)))
    for d in reg.divisions:
        with ctx.work() as work:
            approved = approved_players(work, event, d.id)
        n = len(approved)
        if n < 2:
            continue
        # 弃权满N轮取消资格: one player of a big enough division never comes, so the rule is seen
        absentee = approved[-1].id if reg.withdrawal.exclude_after_forfeits is not None and n >= 6 else None
        for stage in pairable_stages(reg, d.id):
            total = rounds_for(reg, d.id, n, stage)
            fmt = stage.format_for(d.id)
            if fmt.rounds_by_entries() and total is not None:
                with ctx.work() as work:  # 轮次视报名情况而定: the chief referee fixes the count
                    set_round_count(work, str(event.id), d.id, total, note="demo")
            yield DemoStep("division", (d, n, total, stage))
            for n_round in range(1, (total or MAX_ROUNDS) + 1):
                try:
                    with ctx.work() as work:
                        play_round(work, event, d.id, n_round, event.seed + n_round, stage.id, forfeits,
                                   absentee)
                except Refused as exc:
                    if total is None and exc.code == "no_such_round":
                        break  # the format's own end (knockout final played, all groups done …)
                    raise
                with ctx.work() as work:
                    yield DemoStep("round", round_view(work, str(event.id), d.id, n_round, stage.id))
    with ctx.work() as work:
        demo_prize_decisions(work, event, reg)
    with ctx.work() as work:
        yield DemoStep("results", load_event_results(work, str(event.id)))


def demo_prize_decisions(work: Work, event: EventRecord, reg: Regulation) -> None:
    """What the chief referee decides once the results are in, where the regulation asks him:
    the judged awards named (seeded), the first paid winner docked for missing the ceremony
    (half of what the rule allows when he decides the amount), and a pool overrun settled."""
    from yisai.awards.prizes import docking_cap
    from yisai.services.prize_decisions import decide_pool, dock_prize, name_judged_winner
    from yisai.services.reports import prizes
    from yisai.vocabulary.money import yuan_text

    rnd = random.Random(event.seed)
    for award in reg.prizes.judged:
        divisions = [award.division] if award.division else [d.id for d in reg.divisions]
        field = sorted(p.id for did in divisions for p in approved_players(work, event, did))
        for pid in rnd.sample(field, min(award.count, len(field))):
            name_judged_winner(work, str(event.id), award.id, pid, note=tr("演示: 裁判长评定", "demo: named"))
    rule = reg.prizes.ceremony_absence
    report = prizes(work, str(event.id), teams=False).report
    if rule is not None:
        paid = next(((pl, ln) for pl in report.lists if pl.kind in ("cash", "ecard") for ln in pl.lines
                     if ln.amount > 0), None)
        if paid is not None:
            pl, ln = paid
            fen = docking_cap(ln.amount, rule) // 2
            dock_prize(work, str(event.id), pl.id, ln.player_id or ln.name,
                       yuan=yuan_text(fen, cents=False) if rule.docking == "decided" else None,
                       note=tr("演示: 未参加颁奖仪式", "demo: missed the ceremony"))
    if report.overrun:
        decide_pool(work, str(event.id), tr("演示: 超出部分由承办单位补足", "demo: the host pays the difference"))
