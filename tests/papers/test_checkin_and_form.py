"""Check-in (报到) feeding round 1 pairing, and the uniform entry form imported back."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from tests.formats.roster_files import team_rows
from tests.papers.helpers import UNITS, make_event, papers_context, referee
from yisai.services import checkin, papers, players, roster_import, round_results, rounds, teams
from yisai.services.context import Work
from yisai.services.errors import Forbidden
from yisai.services.identity import Actor, Role
from yisai.store import EventRecord, round_rows

THREE = [u for u in UNITS if u[0] in ("浙江队", "江苏队", "上海队")]


def _jia(work: Work, event: EventRecord) -> dict[str, str]:
    """甲组 players: name → id (each team's 1号 and 2号, born 2013/2014)."""
    return {p.player.name: p.player.id for p in players.list_players(work, event, division="甲组")}


def test_round_one_pairs_only_the_checked_in_and_late_arrivals_join_from_round_two(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, THREE)
        with ctx.work() as w:
            jia = _jia(w, event)
        assert sorted(jia) == ["上海1号", "上海2号", "江苏1号", "江苏2号", "浙江1号", "浙江2号"]
        with ctx.work(actor=referee()) as w:  # 5月1日 at the venue: four of the six arrive
            for name in ("浙江1号", "浙江2号", "江苏1号", "上海1号"):
                checkin.tick(w, event, name, insured=True)
        with ctx.work() as w:
            paired = rounds.pair(w, str(event.id), "甲组", 1)
            [(_, pairing)] = paired.parts
            on_boards = {g.black for g in pairing.games()} | {g.white for g in pairing.games()}
            assert on_boards == {jia["浙江1号"], jia["浙江2号"], jia["江苏1号"], jia["上海1号"]}
            assert set(paired.held_back) == {jia["江苏2号"], jia["上海2号"]}
            assert "未报到" in paired.held_back[jia["江苏2号"]].zh
            [stored] = round_rows.list_rounds(w.session, event.id, "jia")
            assert set(stored.info["not_checked_in"]) == {jia["江苏2号"], jia["上海2号"]}
            shown = rounds.explanation_with_names(stored.info["explain"], {v: k for k, v in jia.items()})
            assert any(line.startswith("江苏2号: 未报到") for line in shown)
            for g in pairing.games():
                round_results.record_result(w, str(event.id), "甲组", 1, g.board, "黑胜")
        with ctx.work(actor=referee()) as w:  # 江苏2号 arrives in the evening; 上海2号 never does
            checkin.tick(w, event, "江苏2号", insured=True)
        with ctx.work() as w:
            paired = rounds.pair(w, str(event.id), "甲组", 2)
            [(_, pairing)] = paired.parts
            seated = {g.black for g in pairing.games()} | {g.white for g in pairing.games() if g.white}
            assert jia["江苏2号"] in seated  # the late entrant joins from round 2 (0 points)
            assert set(paired.held_back) == {jia["上海2号"]}


def test_without_any_check_in_pairing_is_as_before(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, THREE)
        with ctx.work() as w:
            paired = rounds.pair(w, str(event.id), "甲组", 1)
        [(_, pairing)] = paired.parts
        assert len(pairing.boards) == 3 and paired.held_back == {}


def test_the_check_in_page_lists_teams_with_ticks_and_insurance(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, THREE)
        with ctx.work(actor=referee()) as w:
            checkin.tick(w, event, "浙江1号", insured=True)
            checkin.tick(w, event, "浙江2号")
            checkin.tick(w, event, "江苏1号", insured=True)
            checkin.tick(w, event, "江苏1号", arrived=False, note="误点")
            view = {t.team: t for t in checkin.list_arrivals(w, event)}
        assert [view[t].arrived for t in ("浙江队", "江苏队", "上海队")] == [2, 0, 0]
        zj = {p.name: p for p in view["浙江队"].people}
        assert (zj["浙江1号"].insured, zj["浙江2号"].insured) == (True, False)
        leader = Actor(id="u1", name="领队", role=Role.TEAM_LEADER, team=view["上海队"].team_id)
        with ctx.work(actor=leader) as w:
            assert [t.team for t in checkin.list_arrivals(w, event)] == ["上海队"]
        with ctx.work(actor=leader) as w:  # 各队负责人办理报到: the own team, not another's
            assert checkin.tick(w, event, "上海1号").arrived
        with pytest.raises(Forbidden), ctx.work(actor=leader) as w:
            checkin.tick(w, event, "浙江2号")
        with ctx.work(actor=referee()) as w:
            view = {t.team: t for t in checkin.list_arrivals(w, event)}
        assert [view[t].arrived for t in ("浙江队", "江苏队", "上海队")] == [2, 0, 1]


def _form_rows(data: bytes) -> tuple[list[list[object]], openpyxl.Workbook]:
    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book["报名表"]
    return [list(r) for r in sheet.iter_rows(values_only=True)], book


def test_the_entry_form_carries_the_team_header_and_imports_back(tmp_path: Path) -> None:
    zhejiang = [u for u in UNITS if u[0] == "浙江队"]
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, zhejiang, count=4)  # 甲乙 only: 丙组 still to come
        with ctx.work() as w:
            name, data = papers.entry_form(w, event, "浙江队")
        assert name == "浙江队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表.xlsx"
        rows, book = _form_rows(data)
        assert rows[1][:2] == ["参赛队", "浙江队"] and rows[2][:2] == ["领队", "浙江领队"]
        assert rows[2][3:5] == ["教练", "浙江教练"]
        assert any(c == "公章" for r in rows[:5] for c in r)
        header = rows[5]
        assert header[:5] == ["姓名", "性别", "出生日期", "身份证号", "段位"]
        assert [r[0] for r in rows[6:10]] == ["浙江1号", "浙江2号", "浙江3号", "浙江4号"]
        # The team fills in its two 丙组 players on the blank lines, then sends the form back.
        sheet = book["报名表"]
        for offset, row in enumerate(team_rows(*zhejiang[0])[4:]):
            by_header = dict(zip(
                ["序号", "姓名", "性别", "出生日期", "身份证号", "段位", "证书编号", "省份", "城市",
                 "单位", "手机", "组别", "队名", "领队", "教练"], row, strict=True))
            for col, title in enumerate(header, start=1):
                if title in by_header:
                    sheet.cell(row=11 + offset, column=col, value=str(by_header[title]))
        out = io.BytesIO()
        book.save(out)
        with ctx.work() as w:
            again = roster_import.import_roster(w, event, data, name)  # unchanged: nothing new
            assert (again.players_created, again.entries_created, again.members_added) == (0, 0, 0)
            report = roster_import.import_roster(w, event, out.getvalue(), name)
            assert (report.players_created, report.entries_created, report.members_added) == (2, 2, 2)
            [team] = teams.list_teams(w, event)
            assert sorted(p.name for p in team.players) == [f"浙江{i}号" for i in range(1, 7)]
