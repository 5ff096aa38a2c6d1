"""Player profiles: who a signed-in player is (name, gender, birth date, region, rank), reused by
the online qualifier and the final, and the division (hence the ladder pool) that follows from it.

The division is not chosen by the player: the birth date decides it from the regulation's own
eligibility windows (seed 000 十一: 少年组 2011-09-01..2019-08-31, 幼儿组 from 2019-09-01; the
stage's division without a birth window, 公开组, takes everyone else). Players under 18 give a
guardian's mobile number. Phone numbers and the birth date are personal data: services return
them only to the player and officials, never to public pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from yisai.i18n import Text
from yisai.qualifier import otp
from yisai.qualifier.periods import pool_of
from yisai.regulation.schema import Regulation
from yisai.regulation.stages import LadderFormat, Stage
from yisai.services.context import Work
from yisai.services.errors import Forbidden, InputError
from yisai.services.identity import Action
from yisai.store import profile_rows as rows
from yisai.vocabulary.people import Gender
from yisai.vocabulary.rank import Rank

ADULT_AGE = 18  # under this age a guardian's phone is required (the law, not the regulation)
NAME_MAX = 50
REGION_MAX = 50

FIELD_LABELS = {
    "name": Text("姓名", "name"),
    "gender": Text("性别", "gender"),
    "birth": Text("出生日期", "birth date"),
    "region": Text("地区", "region"),
    "rank": Text("段级位", "rank"),
    "guardian_phone": Text("监护人手机号", "guardian's phone"),
}


@dataclass(frozen=True)
class Profile:
    user_id: int
    name: str
    gender: Gender
    birth: date
    region: str
    rank: str  # "" when the player has no grade yet
    guardian_phone: str | None

    def age_on(self, day: date) -> int:
        return age_on(self.birth, day)


class ProfileInvalid(InputError):
    """Every problem of a profile form at once, by field (``problems``: field → text)."""

    default_code = "bad_profile"

    def __init__(self, problems: dict[str, Text]) -> None:
        self.problems = problems
        details = [Text(f"{FIELD_LABELS[f].zh}: {t.zh}", f"{FIELD_LABELS[f].en}: {t.en}")
                   for f, t in problems.items()]  # fmt: skip
        super().__init__(Text("资料有误, 请按提示修改", "the profile has problems; correct them"),
                         details, params={"fields": list(problems)})


def age_on(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _check_self(work: Work, user_id: int) -> None:
    if work.actor.id != str(user_id) and not work.actor.may(Action.MANAGE_USERS):
        raise Forbidden(Text("只能修改自己的资料", "you may change only your own profile"),
                        code="not_your_profile")


def get_profile(work: Work, user_id: int) -> Profile | None:
    """The player's own profile (or an official's view of it); None before it is filled in."""
    _check_self(work, user_id)
    r = rows.get_profile(work.session, user_id)
    if r is None:
        return None
    return Profile(r.user_id, r.name, Gender(r.gender), r.birth, r.region, r.rank, r.guardian_phone)


def save_profile(work: Work, user_id: int, form: dict[str, str], *, birth_locked: bool = False) -> Profile:
    """Check every field of the form (all problems at once, by field) and store the profile.

    ``birth_locked`` (the player has played): the birth date decides the pool, so a player may
    not move to another pool by changing it; officials correct it instead."""
    _check_self(work, user_id)
    before = rows.get_profile(work.session, user_id)
    problems: dict[str, Text] = {}
    name = (form.get("name") or "").strip()
    if not name:
        problems["name"] = Text("请填写姓名", "required")
    elif len(name) > NAME_MAX:
        problems["name"] = Text(f"最长{NAME_MAX}个字", f"at most {NAME_MAX} characters")
    gender: Gender | None = None
    try:
        gender = Gender.parse(form.get("gender") or "")
    except ValueError:
        problems["gender"] = Text("请选择 男 或 女", "choose male or female")
    birth: date | None = None
    raw_birth = (form.get("birth") or "").strip()
    try:
        birth = date.fromisoformat(raw_birth)
    except ValueError:
        problems["birth"] = Text(f"日期格式应为 2012-05-01: {raw_birth or '未填写'}",
                                 f"use the form 2012-05-01: {raw_birth or 'missing'}")
    today = work.now.date()
    if birth is not None and not (date(1900, 1, 1) <= birth <= today):
        problems["birth"] = Text(f"出生日期不合理: {birth}", f"not a plausible birth date: {birth}")
        birth = None
    if (birth_locked and before is not None and birth is not None and birth != before.birth
            and not work.actor.may(Action.MANAGE_USERS)):
        problems["birth"] = Text("已有对局, 出生日期 (决定组别) 不能再改; 如填错请联系裁判长",
                                 "you have played games: the birth date (which decides the division) "
                                 "can no longer change; ask the chief referee")
        birth = None
    region = (form.get("region") or "").strip()
    if not region:
        problems["region"] = Text("请填写所在地区 (如 浙江杭州)", "required (e.g. Hangzhou, Zhejiang)")
    elif len(region) > REGION_MAX:
        problems["region"] = Text(f"最长{REGION_MAX}个字", f"at most {REGION_MAX} characters")
    rank = (form.get("rank") or "").strip()
    if rank:
        try:
            rank = str(Rank.parse(rank))
        except ValueError:
            problems["rank"] = Text(f"无法识别的段级位: {rank} (如 5段、3级; 没有可不填)",
                                    f"unknown rank: {rank} (e.g. 5d, 3k; leave empty if none)")
    guardian: str | None = None
    raw_guardian = (form.get("guardian_phone") or "").strip()
    if birth is not None and age_on(birth, today) < ADULT_AGE:
        guardian = otp.normalise_phone(raw_guardian)
        own = rows.user_phone(work.session, user_id)
        if not raw_guardian:
            problems["guardian_phone"] = Text(f"未满{ADULT_AGE}周岁须填写监护人手机号",
                                              f"required for players under {ADULT_AGE}")
        elif guardian is None:
            problems["guardian_phone"] = Text(f"手机号码无效: {raw_guardian} (应为11位中国大陆手机号)",
                                              f"not a mobile number: {raw_guardian} (11 digits)")
        elif guardian == own:
            problems["guardian_phone"] = Text("监护人手机号不能与本人账号相同",
                                              "must differ from the player's own number")
    if problems:
        raise ProfileInvalid(problems)
    assert gender is not None and birth is not None
    rows.put_profile(work.session, rows.ProfileRecord(user_id, name, gender.value, birth, region, rank,
                                                      guardian, work.now))  # fmt: skip
    work.emit("profile_saved", None, user_id=user_id)
    return Profile(user_id, name, gender, birth, region, rank, guardian)


def division_for(regulation: Regulation, stage: Stage, birth: date) -> str:
    """The stage's division whose birth window holds ``birth``; else the one with no window."""
    fallback = None
    for div_id in stage.divisions:
        el = regulation.division(div_id).eligibility
        if el.born_from is None and el.born_to is None:
            fallback = fallback or div_id
            continue
        if (el.born_from is None or birth >= el.born_from) and (el.born_to is None or birth <= el.born_to):
            return div_id
    if fallback is None:
        raise InputError(Text(f"出生日期 {birth} 不符合本阶段任何组别", f"no division of this stage for birth date {birth}"),
                         code="no_division")
    return fallback


def pool_for(regulation: Regulation, stage: Stage, ladder: LadderFormat, birth: date) -> tuple[str, str]:
    """(division, pool) of a player born on ``birth`` (the ticket carries the division)."""
    division = division_for(regulation, stage, birth)
    return division, pool_of(ladder, division)


__all__ = ["ADULT_AGE", "FIELD_LABELS", "Profile", "ProfileInvalid", "age_on", "division_for",
           "get_profile", "pool_for", "save_profile"]  # fmt: skip
