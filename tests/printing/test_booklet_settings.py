"""The 秩序册 and certificates from the regulation's own settings (issue 22 item 7): the
timetable per round, the named officials, and the award day certificates carry.

Expected values are the lines written into the regulation text below, in time order."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of as _issues
from yisai.regulation import loads
from yisai.services import events
from yisai.services.context import Context, open_context
from yisai.services.printing import PrintOptions, build_document
from yisai.services.printing.results import _certificate_date

XIAO = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")
# Out of time order on purpose: the booklet sorts by time.
TIMETABLE = '''timetable = [
  { at = 2025-05-02T08:30:00, round = 1 },
  { at = 2025-05-01T14:00:00, what = "报到" },
  { at = 2025-05-02T14:00:00, round = 2, place = "慈溪市体育馆" },
  { at = 2025-05-04T11:00:00, what = "颁奖仪式" },
]
'''
PEOPLE = '''people = [
  { role = "裁判长", name = "王立诚", unit = "中国围棋协会" },
  { role = "副裁判长", name = "李明" },
]
'''


def _with_settings(text: str = XIAO) -> str:
    text = text.replace('venue = "慈溪市宗汉街道"\n', 'venue = "慈溪市宗汉街道"\n' + TIMETABLE, 1)
    text = text.replace('roles = ["裁判长", "副裁判长", "裁判员", "技术性仲裁"]\n',
                        'roles = ["裁判长", "副裁判长", "裁判员", "技术性仲裁"]\n' + PEOPLE, 1)
    return text.replace('value_note = "奖励相应价值电商卡（规程未注明税前或税后）"\n',
                        'value_note = "奖励相应价值电商卡（规程未注明税前或税后）"\naward_day = 2025-05-03\n', 1)


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Context]:
    with open_context(str(tmp_path / "t.sqlite"), actor="裁判长", now=datetime(2025, 4, 10, 9)) as c:
        yield c


def test_booklet_prints_the_timetable_and_the_officials(ctx: Context) -> None:
    text = _with_settings()
    with ctx.work() as w:
        event = events.create_event_from_text(w, text, loads(text, "x.toml"), seed=3)
    with ctx.work() as w:
        doc = build_document(w, event.id, "booklet", PrintOptions(printed_at=datetime(2026, 1, 2, 3, 4)))
    tables = {t.title: t for s in doc.sections for t in s.tables}
    assert tables["竞赛日程"].rows == (
        ("2025-05-01", "14:00", "报到", "", "慈溪市宗汉街道"),
        ("2025-05-02", "08:30", "第1轮", "甲组、乙组、丙组", "慈溪市宗汉街道"),
        ("2025-05-02", "14:00", "第2轮", "甲组、乙组、丙组", "慈溪市体育馆"),
        ("2025-05-04", "11:00", "颁奖仪式", "", "慈溪市宗汉街道"),
    )
    officials = next(s for s in doc.sections if s.heading == "技术官员")
    assert officials.tables[0].rows == (("裁判长", "王立诚", "中国围棋协会"), ("副裁判长", "李明", ""))
    words = "\n".join(p for s in doc.sections for p in (s.heading, *s.paragraphs))
    assert "甲组" in words and "(jia)" not in words and "分档 jia" not in words
    assert "颁奖日期 (证书落款): 2025-05-03" in words


def test_booklet_without_names_prints_how_officials_are_chosen(ctx: Context) -> None:
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
    with ctx.work() as w:
        doc = build_document(w, event.id, "booklet")
    officials = next(s for s in doc.sections if s.heading == "技术官员")
    assert officials.paragraphs[0] == "裁判长: 由中国围棋协会选派"  # 规程 十三(一)
    assert not any(t.title == "竞赛日程" for s in doc.sections for t in s.tables)


def test_certificate_date_is_the_award_day_else_the_last_day_of_play() -> None:
    # 规程 四: 2025年5月1日-4日 -> the last day of play; an award day given wins; no dates: blank.
    assert _certificate_date(loads(XIAO, "x.toml")) == "2025年5月4日"
    assert _certificate_date(loads(_with_settings(), "x.toml")) == "2025年5月3日"
    undated = XIAO.replace("start = 2025-05-01\nend = 2025-05-04\ncheck_in = 2025-05-01\n", "")
    assert _certificate_date(loads(undated, "x.toml")) == "　　年　　月　　日"



def test_timetable_lines_are_checked() -> None:
    outside = _with_settings().replace("2025-05-04T11:00:00", "2025-05-05T11:00:00")
    (issue,) = _issues(outside)
    assert "stages.0.timetable.3.at: 日程日期 2025-05-05 不在阶段「比赛」的日期内" in issue
    twice = _with_settings().replace("round = 2, place", "round = 1, place")
    (issue,) = _issues(twice)
    assert "stages.0.timetable.2.round: 第1轮在日程中出现两次" in issue
    empty = _with_settings().replace('what = "报到"', 'place = "大厅"')
    assert any("须写明轮次 (round) 或内容 (what)" in i for i in _issues(empty))
    early = _with_settings().replace("award_day = 2025-05-03", "award_day = 2025-04-30")
    (issue,) = _issues(early)
    assert "prizes.award_day: 颁奖日期 2025-04-30 早于比赛开始 2025-05-01" in issue
