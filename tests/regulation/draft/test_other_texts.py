"""Three 规程 written for these tests in the style of real ones (texts/): a team league, a round
robin with a knockout, a 段位赛 with promotion. Each drafts to a file `regulation check` accepts;
the expected values below were written by hand from reading each text, and the fields each text
leaves open are listed by hand too."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.regulation.draft.flat import shown
from yisai.cli.app import app

TEXTS = Path(__file__).parent / "texts"

TEAM_LEAGUE = {
    "name": "2026年江城市围棋团体联赛",
    "year": 2026,
    "issued.by": "江城市围棋协会",
    "issued.on": "2026-03-01",
    "organisers.hosts": ["江城市体育总会"],
    "organisers.organisers": ["江城市围棋协会"],
    "interpretation": "本规程解释权属江城市围棋协会",
    "rules.komi": 7.5,  # 黑贴3又3/4子
    "stages[main].start": "2026-04-11",
    "stages[main].end": "2026-04-12",
    "stages[main].check_in": "2026-04-11",  # 4月11日8:30报到
    "stages[main].venue": "江城市体育中心棋类馆",
    "stages[main].format.kind": "team_match",
    "stages[main].format.system": "round_robin",  # 单循环赛制
    "stages[main].format.boards": 3,  # 每场3台
    "stages[main].format.match_points.win": 2,
    "stages[main].format.match_points.draw": 1,
    "stages[main].format.match_points.loss": 0,
    "stages[main].format.board_points.win": 1.0,
    "stages[main].format.board_points.draw": 0.5,
    "stages[main].format.board_points.loss": 0.0,
    "stages[main].time_control.main_minutes": 45,  # full-width ４５ in the text
    "stages[main].time_control.byoyomi_periods": 3,
    "stages[main].time_control.byoyomi_seconds": 30,
    "stages[main].time_control.loss_on_time": True,
    "teams.kind": "club",
    "teams.per_region": 1,  # 各俱乐部限报1支队伍
    "teams.max_players": 4,
    "teams.min_women": 1,
    "teams.leaders": 1,
    "teams.competitions[team].method": "match_points",
    "teams.competitions[team].size": 3,
    "teams.competitions[team].tie_breaks": ["board_points", "direct", "board1_points"],
    "prizes.lists[team].places": 3,  # 前三名
    "prizes.lists[team].items": ["奖杯", "奖金"],
    "prizes.lists[team].rows[0].amount": 3000,
    "prizes.lists[team].rows[1].amount": 2000,
    "prizes.lists[team].rows[2].amount": 1000,
    "prizes.lists[team].rows[2].from": 3,
    "fees.items[报名费].amount": 400,
    "fees.items[报名费].per": "team",
    "fees.items[报名费].refundable_if_absent": False,
    "appeals.window_minutes": 15,
    "appeals.fee": 500,
    "appeals.written": True,
    "appeals.refunded_if_upheld": True,
    "divisions[main].eligibility.certificate_required": True,
}
TEAM_LEAGUE_OPEN = ["id", "divisions.main.name", "ranking.criteria", "prizes.pre_tax", "rules.superko",
                    "scoring.forfeit_counts_in_sos"]

ROUND_ROBIN = {
    "name": "2026年“钱塘杯”杭州市围棋个人锦标赛",
    "issued.by": "杭州市棋类协会",
    "issued.on": "2026-03-01",
    "organisers.hosts": ["杭州市体育局"],
    "organisers.organisers": ["杭州市棋类协会"],
    "stages[main].start": "2026-05-16",  # 5月16日—5月17日 (an em dash)
    "stages[main].end": "2026-05-17",
    "stages[main].venue": "杭州棋院",
    "stages[main].format.kind": "round_robin",
    "stages[main].format.groups": ["A", "B", "C", "D"],
    "stages[main].format.split": "snake",  # 按段位蛇形
    "stages[main].format.knockout.qualifiers_per_group": 2,  # 各小组前两名出线
    "stages[main].format.knockout.third_place": True,  # 三、四名决赛
    "stages[main].time_control.main_minutes": 60,
    "stages[main].time_control.byoyomi_periods": 3,
    "stages[main].time_control.byoyomi_seconds": 30,
    "ranking.criteria[0].criterion": "score",
    "ranking.criteria[1].criterion": "direct",
    "ranking.criteria[2].criterion": "sos",
    "prizes.pre_tax": True,
    "prizes.lists[main-mixed].places": 8,
    "prizes.lists[main-mixed].rows[0].amount": 5000,
    "prizes.lists[main-mixed].rows[3].from": 4,
    "prizes.lists[main-mixed].rows[3].amount": 1000,
    "prizes.lists[main-mixed].rows[4].from": 5,
    "prizes.lists[main-mixed].rows[4].to": 8,
    "prizes.lists[main-mixed].rows[4].amount": 500,
    "fees.items[报名费].amount": 100,
    "rules.komi": 7.5,
}
ROUND_ROBIN_OPEN = ["id", "divisions.main.name", "rules.superko", "scoring.forfeit_counts_in_sos"]

DAN_PROMOTION = {
    "name": "2026年宁波市少儿围棋段级位赛",
    "issued.on": "2026-02-20",
    "divisions[dan].name": "段位组",
    "divisions[dan].eligibility.min_rank": "1段",
    "divisions[dan].eligibility.max_rank": "4段",
    "divisions[kyu].name": "级位组",
    "divisions[kyu].eligibility.min_rank": "5级",  # 业余5级至1级
    "divisions[kyu].eligibility.max_rank": "1级",
    "divisions[dan].eligibility.born_from": "2010-01-01",
    "divisions[kyu].eligibility.born_from": "2010-01-01",
    "divisions[kyu].eligibility.professionals": "forbidden",  # 业余棋手
    "stages[main].start": "2026-03-21",  # 3月21日至22日
    "stages[main].end": "2026-03-22",
    "stages[main].check_in": "2026-03-21",  # 21日上午报到
    "stages[main].format.kind": "swiss",
    "stages[main].format.rounds": 7,  # 共赛七轮
    "stages[main].time_control.main_minutes": 30,
    "stages[main].time_control.byoyomi_periods": 0,  # 不读秒
    "ranking.criteria[0].criterion": "score",
    "ranking.criteria[1].criterion": "sos",
    "ranking.criteria[2].criterion": "cumulative",
    "promotions[dan].rounds": 7,
    "promotions[dan].steps[0].wins": 6,  # 7局胜6局及以上者升一段
    "promotions[dan].steps[0].promote": 1,
    "promotions[dan].highest": "5段",
    "promotions[kyu].rounds": 7,
    "promotions[kyu].steps[0].wins": 7,  # 7局全胜者升两级
    "promotions[kyu].steps[0].promote": 2,
    "promotions[kyu].steps[1].wins": 5,  # 7局胜5局及以上者升一级
    "promotions[kyu].steps[1].promote": 1,
    "prizes.lists[dan-mixed].places": 6,
    "prizes.lists[dan-mixed].kind": "honour",
    "prizes.lists[kyu-mixed].places": 6,
    "prizes.lists[kyu-mixed].items": ["奖牌", "证书"],
    "fees.items[报名费].amount": 150,
}
DAN_PROMOTION_OPEN = ["id", "promotions", "rules.superko", "scoring.forfeit_counts_in_sos"]


@pytest.mark.parametrize(("name", "expected", "open_fields"), [
    ("team-league", TEAM_LEAGUE, TEAM_LEAGUE_OPEN),
    ("round-robin-knockout", ROUND_ROBIN, ROUND_ROBIN_OPEN),
    ("dan-promotion", DAN_PROMOTION, DAN_PROMOTION_OPEN),
])
def test_text_drafts_to_its_hand_written_values(tmp_path: Path, name: str, expected: dict[str, object],
                                                  open_fields: list[str]) -> None:
    out = tmp_path / f"{name}.toml"
    result = CliRunner().invoke(app, ["regulation", "draft", str(TEXTS / f"{name}.txt"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(app, ["regulation", "check", str(out)]).exit_code == 0
    got = shown(str(out))
    wrong = {p: (got.get(p, "<absent>"), v) for p, v in expected.items() if got.get(p, "<absent>") != v}
    assert wrong == {}
    fields = {v for k, v in got.items() if k.startswith("open_points") and k.endswith(".field")}
    assert set(open_fields) <= fields, sorted(fields)


@pytest.mark.parametrize("name", ["team-league", "round-robin-knockout", "dan-promotion"])
def test_every_drafted_value_cites_a_sentence_or_is_an_open_point(name: str) -> None:
    """Issue #32 item 2: no value is written without its clause, unless it is a marked default."""
    from yisai.formats.regulation_draft import field_name
    from yisai.regulation.draft import draft

    d = draft((TEXTS / f"{name}.txt").read_text(encoding="utf-8"))
    defaults = {q.path for q in d.open}
    bare = [field_name(d.doc, p) for p in _leaves(d.doc, ())
            if p != ("schema_version",)
            and not any(p[:k] in d.sources or p[:k] in defaults for k in range(1, len(p) + 1))]
    assert bare == []


def _leaves(node: object, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]
