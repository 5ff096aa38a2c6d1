"""Seed 002 provincial teams for the papers and check-in tests (generated, not real people)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows, write_csv
from yisai.services import events, roster_import
from yisai.services.context import Context, Work, open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import EventRecord
from yisai.store import team_rows as store_teams

SEED_002 = REGULATIONS / "2025-xiaoqiwang.toml"
BEFORE_DEADLINE = datetime(2025, 4, 10, 9, 0)

# The 31 mainland provincial associations and the 6 units of 六(一) that field their own team
# (计划单列市 and 兵团): (team, province, city, 6-digit area code for made-up ID numbers).
UNITS: list[tuple[str, str, str, str]] = [
    ("北京队", "北京市", "北京", "110101"), ("天津队", "天津市", "天津", "120101"),
    ("河北队", "河北省", "石家庄", "130102"), ("山西队", "山西省", "太原", "140105"),
    ("内蒙古队", "内蒙古自治区", "呼和浩特", "150102"), ("辽宁队", "辽宁省", "沈阳", "210102"),
    ("吉林队", "吉林省", "长春", "220102"), ("黑龙江队", "黑龙江省", "哈尔滨", "230102"),
    ("上海队", "上海市", "上海", "310101"), ("江苏队", "江苏省", "南京", "320102"),
    ("浙江队", "浙江省", "杭州", "330102"), ("安徽队", "安徽省", "合肥", "340102"),
    ("福建队", "福建省", "福州", "350102"), ("江西队", "江西省", "南昌", "360102"),
    ("山东队", "山东省", "济南", "370102"), ("河南队", "河南省", "郑州", "410102"),
    ("湖北队", "湖北省", "武汉", "420102"), ("湖南队", "湖南省", "长沙", "430102"),
    ("广东队", "广东省", "广州", "440103"), ("广西队", "广西壮族自治区", "南宁", "450102"),
    ("海南队", "海南省", "海口", "460105"), ("重庆队", "重庆市", "重庆", "500101"),
    ("四川队", "四川省", "成都", "510104"), ("贵州队", "贵州省", "贵阳", "520102"),
    ("云南队", "云南省", "昆明", "530102"), ("西藏队", "西藏自治区", "拉萨", "540102"),
    ("陕西队", "陕西省", "西安", "610102"), ("甘肃队", "甘肃省", "兰州", "620102"),
    ("青海队", "青海省", "西宁", "630102"), ("宁夏队", "宁夏回族自治区", "银川", "640104"),
    ("新疆队", "新疆维吾尔自治区", "乌鲁木齐", "650102"),
    ("大连队", "辽宁省", "大连", "210202"), ("青岛队", "山东省", "青岛", "370202"),
    ("宁波队", "浙江省", "宁波", "330203"), ("厦门队", "福建省", "厦门", "350203"),
    ("深圳队", "广东省", "深圳", "440303"), ("兵团队", "新疆维吾尔自治区", "新疆生产建设兵团", "659001"),
]  # fmt: skip


@contextmanager
def papers_context(tmp_path: Path, when: datetime = BEFORE_DEADLINE) -> Iterator[Context]:
    settings = Settings(database=str(tmp_path / "p.sqlite"), files_dir=tmp_path / "files")
    with open_context(replace(settings, actor=Actor.system()), now=when) as ctx:
        yield ctx


def make_event(ctx: Context, tmp_path: Path, units: list[tuple[str, str, str, str]],
               count: int = 6) -> EventRecord:
    rows = [r for k, u in enumerate(units, start=1) for r in team_rows(*u, seq=k % 9, count=count)]
    path = write_csv(tmp_path / "teams.csv", rows, "utf-8")
    with ctx.work() as w:
        event = events.create_event(w, SEED_002, seed=7)
        roster_import.import_roster(w, event, path.read_bytes(), path.name, require_team=True)
    return event


def team_id(work: Work, event: EventRecord, name: str) -> str:
    found = store_teams.find_team(work.session, event.id, name)
    assert found is not None
    return found.id


def leader_of(team: str, tid: str, event: EventRecord) -> Actor:
    return Actor(id=f"u-{tid}", name=f"{team}领队", role=Role.TEAM_LEADER, team=tid, event=event.id)


def referee() -> Actor:
    return Actor(id="u-ref", name="裁判员甲", role=Role.REFEREE)


PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + bytes(64) + b"\xff\xd9"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)
EXE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" + bytes(64) + b"This program cannot be run in DOS mode."
