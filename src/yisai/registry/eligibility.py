"""参赛资格: every reason a player may not enter a division, or a team may not be registered.

Functions return a list of sentences a referee can read out: the ``*_texts`` functions build each
once in both languages (``Text``, what services store), the others give them in the caller's
language — an empty list means eligible. Never a bare boolean: the director must see *why*, and may still decide otherwise
(with an audited note) because regulations leave room for the organiser's judgement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time

from yisai.i18n import Text
from yisai.registry.idcard import MAINLAND, PROVINCES, parse_id_number
from yisai.registry.members import MemberList
from yisai.registry.person import Gender, Player, ProStatus
from yisai.registry.team import Team
from yisai.regulation.divisions import Division, Eligibility
from yisai.regulation.schema import Regulation
from yisai.regulation.teams import TeamRules

# Names people use for a region, mapped to the regions they cover.
REGION_ALIASES: dict[str, frozenset[str]] = {
    "中国大陆": frozenset({MAINLAND}),
    "大陆": frozenset({MAINLAND}),
    "内地": frozenset({MAINLAND}),
    "港澳台": frozenset({"香港", "澳门", "台湾"}),
    "港澳": frozenset({"香港", "澳门"}),
    "香港": frozenset({"香港"}),
    "澳门": frozenset({"澳门"}),
    "台湾": frozenset({"台湾"}),
    "国外": frozenset({"国外"}),
    "海外": frozenset({"国外"}),
}
_MAINLAND_PROVINCES = {v for k, v in PROVINCES.items() if k not in ("71", "81", "82", "83")}
_SUFFIXES = ("维吾尔自治区", "壮族自治区", "回族自治区", "自治区", "特别行政区", "省", "市")


def place_name(text: str | None) -> str | None:
    """Compare places by their short name: 浙江省 = 浙江, 杭州市 = 杭州, 新疆维吾尔自治区 = 新疆."""
    if not text:
        return None
    t = text.strip()
    for s in _SUFFIXES:
        if t.endswith(s) and len(t) > len(s):
            return t[: -len(s)]
    return t


def region_of(player: Player) -> str | None:
    """The player's region: stated, else read from the ID number, else from the province."""
    if player.region:
        return canonical_region(player.region)
    if player.id_number:
        try:
            return parse_id_number(player.id_number).region
        except ValueError:
            pass
    province = place_name(player.province)
    if province in _MAINLAND_PROVINCES:
        return MAINLAND
    if province in ("香港", "澳门", "台湾"):
        return province
    return None


def canonical_region(text: str) -> str:
    covered = REGION_ALIASES.get(text.strip())
    if covered and len(covered) == 1:
        return next(iter(covered))
    return text.strip()


def _region_matches(region: str, name: str) -> bool:
    return region in REGION_ALIASES.get(name.strip(), frozenset({name.strip()}))


def window_text(born_from: date | None, born_to: date | None) -> str:
    return _window(born_from, born_to).render()


def _window(born_from: date | None, born_to: date | None) -> Text:
    if born_from and born_to:
        return Text(f"{born_from:%Y-%m-%d}至{born_to:%Y-%m-%d}", f"{born_from:%Y-%m-%d} to {born_to:%Y-%m-%d}")
    if born_from:
        return Text(f"{born_from:%Y-%m-%d}及以后", f"{born_from:%Y-%m-%d} or later")
    if born_to:
        return Text(f"{born_to:%Y-%m-%d}及以前", f"{born_to:%Y-%m-%d} or earlier")
    return Text("不限", "any")


def _gender(g: Gender) -> Text:
    return Text(g.label, "male" if g is Gender.MALE else "female")


def _pro(status: ProStatus) -> Text:
    en = {"amateur": "amateur", "new_pro": "newly qualified professional", "pro": "professional"}
    return Text(status.label, en[status.value])


def _rank(rank: object) -> Text:
    """5段 in Chinese, 5d in English."""
    return Text(str(rank), getattr(rank, "short", str(rank)))


def _join(items: Sequence[Text]) -> Text:
    return Text("、".join(t.zh for t in items), ", ".join(t.en for t in items))


def _plain(items: Sequence[str]) -> list[Text]:
    """Names the regulation writes (regions, places): the same in both languages."""
    return [Text(i, i) for i in items]


def in_window(born: date, rule: Eligibility) -> bool:
    return (rule.born_from is None or born >= rule.born_from) and (
        rule.born_to is None or born <= rule.born_to
    )


def check_player(
    player: Player, division: Division, regulation: Regulation | None = None,
    members: MemberList | None = None,
) -> list[str]:
    """``check_player_texts`` in the caller's language."""
    return [t.render() for t in check_player_texts(player, division, regulation, members)]


def check_player_texts(
    player: Player, division: Division, regulation: Regulation | None = None,
    members: MemberList | None = None,
) -> list[Text]:
    """Every reason ``player`` may not enter ``division``; ``regulation`` adds the right group
    hint, ``members`` is the imported register the division's ``members_of`` asks for."""
    rule = division.eligibility
    name = division.name
    reasons: list[Text] = []
    if rule.born_from or rule.born_to:
        reasons += _birth_reasons(player, division, regulation)
    if rule.genders and player.gender not in rule.genders:
        allowed = _join([_gender(g) for g in rule.genders])
        reasons.append(Text(
            f"性别{player.gender.label}不符合{name}要求(限{allowed.zh})",
            f"gender {_gender(player.gender).en} does not meet {name}'s requirement ({allowed.en} only)",
        ))
    if rule.min_rank is not None or rule.max_rank is not None:
        reasons += _rank_reasons(player, rule, name)
    if rule.certificate_required and not (player.certificate_no or "").strip():
        reasons.append(Text(
            "缺少中国围棋协会监制的业余段级位证书(请填写证书编号)",
            "no amateur grade certificate issued under the Chinese Weiqi Association "
            "(fill in the certificate number)",
        ))
    reasons += _pro_reasons(player, rule, name)
    reasons += _region_reasons(player, rule, name)
    if rule.members_of is not None:
        if members is None:
            reasons.append(Text(f"“{rule.members_of}”名单尚未导入, 无法核对会员资格",
                              f"the register “{rule.members_of}” has not been imported: membership cannot be checked"))
        elif not members.holds(player):
            reasons.append(Text(f"不在“{rule.members_of}”名单中 (规程: 须为{rule.members_of})",
                              f"not on the register “{rule.members_of}” ({name} requires membership)"))
    return reasons


def _birth_reasons(
    player: Player, division: Division, regulation: Regulation | None
) -> list[Text]:
    rule = division.eligibility
    window = _window(rule.born_from, rule.born_to)
    born = player.birth_date
    if born is None:
        return [Text(f"缺少出生日期, 无法核对{division.name}范围({window.zh})",
                     f"no birth date: cannot check {division.name}'s range ({window.en})")]
    if in_window(born, rule):
        return []
    reason = Text(f"出生日期{born:%Y-%m-%d}不在{division.name}范围({window.zh})",
                  f"birth date {born:%Y-%m-%d} is outside {division.name}'s range ({window.en})")
    if rule.exact_age_group and regulation is not None:
        own = [
            d.name
            for d in regulation.divisions
            if d.eligibility.exact_age_group
            and (d.eligibility.born_from or d.eligibility.born_to)
            and in_window(born, d.eligibility)
        ]
        if own:
            reason = Text(
                reason.zh + f", 应按出生日期参加{'或'.join(own)}(不得以大打小或以小打大)",
                reason.en + f"; by birth date the player belongs in {' or '.join(own)} "
                "(no playing in an older or younger group)",
            )
        else:
            reason = Text(reason.zh + ", 不属于任何组别的年龄范围",
                          reason.en + "; not in any division's age range")
    return [reason]


def _rank_reasons(player: Player, rule: Eligibility, name: str) -> list[Text]:
    if player.rank is None:
        return [Text(f"缺少段级位, 无法核对{name}的段级位要求",
                   f"no grade: cannot check {name}'s grade requirement")]
    out = []
    if rule.min_rank is not None and player.rank < rule.min_rank:
        out.append(Text(f"段级位{player.rank}低于{name}最低要求{rule.min_rank}",
                        f"grade {_rank(player.rank).en} is below {name}'s minimum {_rank(rule.min_rank).en}"))
    if rule.max_rank is not None and player.rank > rule.max_rank:
        out.append(Text(f"段级位{player.rank}高于{name}最高限制{rule.max_rank}",
                        f"grade {_rank(player.rank).en} is above {name}'s maximum {_rank(rule.max_rank).en}"))
    return out


def _pro_reasons(player: Player, rule: Eligibility, name: str) -> list[Text]:
    status = player.pro_status
    if status is ProStatus.AMATEUR or rule.professionals == "allowed":
        return []
    if rule.professionals == "new_pro_as_amateur":
        if status is ProStatus.PRO:
            return [Text(f"职业棋手不得参加{name}(仅当年新定段的职业棋手可按业余身份参赛)",
                       f"professionals may not enter {name} (only players who turned professional "
                       "this year may play as amateurs)")]
        return []
    return [Text(f"{status.label}棋手不得参加{name}(仅限业余棋手)",
                 f"{_pro(status).en} players may not enter {name} (amateurs only)")]


def _region_reasons(player: Player, rule: Eligibility, name: str) -> list[Text]:
    region = region_of(player)
    out = []
    for key, note in rule.region_notes.items():
        if region and _region_matches(region, key):
            rest = note.removeprefix(key + "地区棋手")
            # The note is the regulation's own sentence, quoted as written.
            out.append(Text(f"{key}地区棋手{rest}", f"players from {key}: {key}地区棋手{rest}"))
    if rule.regions:
        allowed = _join(_plain(rule.regions))
        if region is None:
            out.append(Text(f"地区未知, {name}仅限{allowed.zh}棋手参赛(请填写地区或身份证号)",
                            f"region unknown: {name} is for players from {allowed.en} only "
                          "(fill in the region or the ID number)"))
        elif not any(_region_matches(region, r) for r in rule.regions):
            out.append(Text(f"地区{region}不符合{name}要求(仅限{allowed.zh})",
                            f"region {region} does not meet {name}'s requirement ({allowed.en} only)"))
    return out


# ---------------------------------------------------------------- teams


def check_team(
    team: Team,
    players: Mapping[str, Player],
    rules: TeamRules,
    regulation: Regulation | None = None,
    *,
    other_teams: Sequence[Team] = (),
    at: datetime | None = None,
) -> list[str]:
    """``check_team_texts`` in the caller's language."""
    return [t.render() for t in check_team_texts(team, players, rules, regulation,
                                                 other_teams=other_teams, at=at)]


def check_team_texts(
    team: Team,
    players: Mapping[str, Player],
    rules: TeamRules,
    regulation: Regulation | None = None,
    *,
    other_teams: Sequence[Team] = (),
    at: datetime | None = None,
) -> list[Text]:
    """Every reason ``team`` breaks its composition rule.

    ``other_teams`` are the teams already registered (limits, one team per player);
    ``at`` is when the team registers (checked against the registration window when given).
    """
    reasons: list[Text] = []
    label = _label(rules)
    if at is not None:
        reasons += window_texts(at, rules)
    if rules.max_teams is not None and len(other_teams) >= rules.max_teams:
        reasons.append(Text(f"已报{len(other_teams)}支{label}, 达到限报{rules.max_teams}支",
                          f"{len(other_teams)} teams ({label}) already entered: the limit is "
                          f"{rules.max_teams}"))
    reasons += _place_reasons(team, rules, other_teams, players)
    reasons += _staff_reasons(team, rules)
    reasons += _member_reasons(team, players, rules, regulation, other_teams)
    return reasons


def composition_texts(team: Team, players: Mapping[str, Player], rules: TeamRules) -> list[Text]:
    """The team's make-up the regulation asks for (每队至少N名女棋手), said of a member's entry
    when it is approved: an entry of a team that breaks it is not approved unforced."""
    if rules.min_women is None:
        return []
    women = sum(1 for m in team.members if (p := players.get(m.player_id)) is not None
                and p.gender is Gender.FEMALE)
    if women >= rules.min_women:
        return []
    return [Text(f"所在的{team.name}女队员{women}人, 规程要求每队至少{rules.min_women}名女棋手",
               f"{team.name} has {women} women: the regulation asks for at least {rules.min_women} per team")]


def _label(rules: TeamRules) -> str:
    """The team kind's short name: 省队（各省、自治区…） reads as 省队 in a sentence."""
    return rules.name.split("（")[0].split("(")[0].strip() or "代表队"


def _fmt(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M}"


def closing_time(moment: datetime) -> datetime:
    """A closing time of exactly 00:00 means "until that day" (规程: 报名时间6月1日—10月8日)."""
    if moment.time() == time(0, 0):
        return datetime.combine(moment.date(), time(23, 59, 59))
    return moment


def window_texts(at: datetime, rules: TeamRules) -> list[Text]:
    """The registration-window finding alone (also part of ``check_team``), for callers that
    report it once for many teams."""
    opens, closes = rules.registration_from, rules.registration_to
    if opens is None and closes is None:
        return []
    end = closing_time(closes) if closes else None
    if (opens and at < opens) or (end and at > end):
        if opens and end:
            window = Text(f"{_fmt(opens)}至{_fmt(end)}", f"{_fmt(opens)} to {_fmt(end)}")
        elif end:
            window = Text(f"截至{_fmt(end)}", f"until {_fmt(end)}")
        else:
            assert opens is not None
            window = Text(f"{_fmt(opens)}起", f"from {_fmt(opens)}")
        return [Text(f"报名时间{_fmt(at)}不在{_label(rules)}报名时间({window.zh})内",
                     f"registration time {_fmt(at)} is outside the registration window for "
                     f"{_label(rules)} ({window.en})")]
    return []


def own_association(team: Team, rules: TeamRules) -> str | None:
    """The ``own_associations`` entry the team represents (大连, 新疆生产建设兵团 …), if any.

    Read from the team's city, then its province field, then its name (大连队, 兵团队 …).
    """
    own = {place_name(a) or a: a for a in rules.own_associations}
    for text in (team.city, team.province):
        key = place_name(text)
        if key in own:
            return own[key]
    named = [a for key, a in own.items() if key in team.name]
    return named[0] if len(named) == 1 else None


def association_of(team: Team, rules: TeamRules) -> str | None:
    """参赛单位: the unit that may field ``per_region`` teams.

    A province team is its province's association, except that a city or body listed in
    ``own_associations`` (计划单列市, 新疆生产建设兵团) is its own association (seed 002 六(一)).
    A city team is its city.
    """
    own = own_association(team, rules)
    if own is not None:
        return own
    if rules.kind == "province":
        return place_name(team.province)
    if rules.kind == "city":
        return place_name(team.city)
    return None


def club_of(team: Team, players: Mapping[str, Player]) -> str:
    """The club (school) a club or school team represents: the one all its members name
    (``club``), else the team's own name without 队 (a club team is named after its club)."""
    clubs = {c for m in team.members if m.player_id in players and (c := (players[m.player_id].club or "").strip())}
    return clubs.pop() if len(clubs) == 1 else team.name.strip().removesuffix("队")


def _team_place(team: Team, rules: TeamRules, players: Mapping[str, Player]) -> str | None:
    if rules.kind in ("club", "school"):
        return club_of(team, players)
    return association_of(team, rules)


def _place_reasons(team: Team, rules: TeamRules, other_teams: Sequence[Team],
                   players: Mapping[str, Player]) -> list[Text]:
    """No place, or the place's teams full. A club or school team's place is its club
    (``club_of``): ``per_region`` is then 每个俱乐部(学校)限报N队."""
    out = []
    place = _team_place(team, rules, players)
    need = {"province": Text("省份", "province"), "city": Text("城市", "city")}.get(rules.kind)
    if need and place is None:
        out.append(Text(f"{_label(rules)}\u201c{team.name}\u201d缺少{need.zh}",
                        f"{_label(rules)} \u201c{team.name}\u201d has no {need.en}"))
    if rules.per_region is not None and place is not None:
        same = [t for t in other_teams if _team_place(t, rules, players) == place]
        if len(same) >= rules.per_region:
            out.append(Text(f"{place}已报{len(same)}支{_label(rules)}, 每地限报{rules.per_region}支",
                          f"{place} has already entered {len(same)} team(s) ({_label(rules)}); "
                          f"the limit is {rules.per_region} per place"))
    return out


def _staff_reasons(team: Team, rules: TeamRules) -> list[Text]:
    out = []
    # A limit of 0 means the regulation says nothing about staff: no limit is checked.
    staff = (("领队", "leaders", team.leaders, rules.leaders),
             ("教练", "coaches", team.coaches, rules.coaches))
    for role, role_en, people, limit in staff:
        if limit and len(people) > limit:
            out.append(Text(f"{role}{len(people)}人({'、'.join(people)}), 超过限报{limit}人",
                          f"{len(people)} {role_en} ({', '.join(people)}): more than the limit of "
                          f"{limit}"))
    return out


def _member_reasons(
    team: Team,
    players: Mapping[str, Player],
    rules: TeamRules,
    regulation: Regulation | None,
    other_teams: Sequence[Team],
) -> list[Text]:
    out: list[Text] = []
    members = list(team.members)
    ids = [m.player_id for m in members]
    for pid, n in Counter(ids).items():
        if n > 1:
            out.append(Text(f"{_who(pid, players).zh}在队中重复出现{n}次",
                            f"{_who(pid, players).en} is listed {n} times in the team"))
    unknown = [pid for pid in dict.fromkeys(ids) if pid not in players]
    out += [Text(f"队员{pid}不存在", f"player {pid} does not exist") for pid in unknown]
    known = [m for m in members if m.player_id in players]
    taken = {m.player_id: t.name for t in other_teams for m in t.members}
    for m in known:
        if m.player_id in taken:
            out.append(Text(f"{_who(m.player_id, players).zh}已在{taken[m.player_id]}中",
                            f"{_who(m.player_id, players).en} is already in {taken[m.player_id]}"))
    count = len(dict.fromkeys(ids))
    if count > rules.max_players:
        out.append(Text(f"队员{count}人, 超过每队限报{rules.max_players}人",
                      f"{count} players: more than the limit of {rules.max_players} per team"))
    men = sum(1 for m in known if players[m.player_id].gender is Gender.MALE)
    women = sum(1 for m in known if players[m.player_id].gender is Gender.FEMALE)
    if rules.max_men is not None and men > rules.max_men:
        out.append(Text(f"男队员{men}人, 超过限报{rules.max_men}人",
                      f"{men} men: more than the limit of {rules.max_men}"))
    if rules.max_women is not None and women > rules.max_women:
        out.append(Text(f"女队员{women}人, 超过限报{rules.max_women}人",
                      f"{women} women: more than the limit of {rules.max_women}"))
    if rules.min_women is not None and women < rules.min_women:
        out.append(Text(f"女队员{women}人, 规程要求每队至少{rules.min_women}名女棋手",
                      f"{women} women: the regulation asks for at least {rules.min_women} per team"))
    if rules.slots:
        out += _slot_reasons(known, players, rules, regulation)
    out += _member_place_reasons(team, known, players, rules)
    return out


def _who(pid: str, players: Mapping[str, Player]) -> Text:
    p = players.get(pid)
    return Text(p.name, p.name) if p else Text(f"队员{pid}", f"player {pid}")


def _slot_reasons(
    members: list, players: Mapping[str, Player], rules: TeamRules, regulation: Regulation | None
) -> list[Text]:
    out = []
    slots = {s.label: s for s in rules.slots}
    seated: dict[str, list[str]] = {}
    for m in members:
        p = players[m.player_id]
        if m.slot is None:
            out.append(Text(f"{p.name}未指定席位(可选: {'、'.join(slots)})",
                          f"{p.name} has no slot (choose from: {', '.join(slots)})"))
            continue
        slot = slots.get(m.slot)
        if slot is None:
            out.append(Text(f"{p.name}的席位\u201c{m.slot}\u201d不存在(可选: {'、'.join(slots)})",
                          f"{p.name}'s slot \u201c{m.slot}\u201d does not exist "
                          f"(choose from: {', '.join(slots)})"))
            continue
        seated.setdefault(m.slot, []).append(p.name)
        if slot.gender is not None and p.gender is not slot.gender:
            out.append(Text(f"{slot.label}席位须为{slot.gender.label}棋手, {p.name}为{p.gender.label}",
                            f"slot {slot.label} is for a {_gender(slot.gender).en} player; {p.name} is "
                            f"{_gender(p.gender).en}"))
        if slot.division is not None and m.division is not None and m.division != slot.division:
            want = _division_name(slot.division, regulation)
            have = _division_name(m.division, regulation)
            out.append(Text(f"{slot.label}席位须由{want}棋手担任, {p.name}报名的是{have}",
                          f"slot {slot.label} is for a player of {want}; {p.name} entered {have}"))
    for label, names in seated.items():
        if len(names) > 1:
            out.append(Text(f"{label}席位只能有1人, 现有{len(names)}人({'、'.join(names)})",
                          f"slot {label} holds 1 player; it has {len(names)} "
                          f"({', '.join(names)})"))
    return out


def _division_name(division_id: str, regulation: Regulation | None) -> str:
    if regulation is None:
        return division_id
    try:
        return regulation.division(division_id).name
    except KeyError:
        return division_id


def _member_place_reasons(
    team: Team, members: list, players: Mapping[str, Player], rules: TeamRules
) -> list[Text]:
    out: list[Text] = []
    if rules.kind == "province":
        want, attr, what = place_name(team.province), "province", Text("省份", "province")
        own = own_association(team, rules)
        if own is not None and want == (place_name(own) or own):
            return out  # 兵团 written as the province: its players' provinces say 新疆
    elif rules.kind == "city":
        want, attr, what = place_name(team.city), "city", Text("城市", "city")
    else:
        return out
    if want is None:
        return out
    for m in members:
        p = players[m.player_id]
        have = place_name(getattr(p, attr))
        if have is not None and have != want:
            out.append(Text(f"{p.name}的{what.zh}{have}与{_label(rules)}\u201c{team.name}\u201d({want})不符",
                            f"{p.name}'s {what.en} {have} does not match {_label(rules)} "
                          f"\u201c{team.name}\u201d ({want})"))
    return out
