"""Registration papers: content-checked uploads, the size limit, the deadline in the regulation's
words, team leaders confined to their own team, the director's missing-papers view, downloads
and the purge in the audit (seed 002 十一(一)(二))."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tests.formats.roster_files import team_rows, write_csv
from tests.papers.helpers import (
    EXE,
    JPEG,
    PDF,
    PNG,
    UNITS,
    leader_of,
    make_event,
    papers_context,
    referee,
    team_id,
)
from yisai.services import papers, roster_import
from yisai.services.errors import Forbidden, NotFoundError, Refused
from yisai.services.identity import Actor, Role
from yisai.store import audit_rows

# 十一 重点提示: the attachment is named "XXX队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表".
FORM_NAME = "浙江队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表.pdf"
# 十一(一), quoted when uploads are refused after the deadline.
DEADLINE_WORDS = "各队负责人于4月18日17:00前填写比赛报名信息并上传报名附件"
TWO = [u for u in UNITS if u[0] in ("浙江队", "江苏队")]


def _stored_files(tmp_path: Path) -> list[Path]:
    root = tmp_path / "files"
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_a_renamed_exe_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with pytest.raises(Refused) as info, ctx.work() as w:
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, EXE, "浙江队报名表.pdf")
        assert info.value.code == "file_type"
        assert "Windows 可执行程序" in info.value.render("zh")
        assert "renaming does not help" in info.value.render("en")
        assert _stored_files(tmp_path) == []


@pytest.mark.parametrize(("data", "suffix"), [(PDF, ".pdf"), (JPEG, ".jpg"), (PNG, ".png")])
def test_pdf_jpeg_png_are_taken_by_content_and_named_as_the_regulation_says(
        tmp_path: Path, data: bytes, suffix: str) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with ctx.work() as w:  # the name the team gave the file does not decide its type
            view = papers.upload(w, event, "浙江队", papers.ENTRY_FORM, data, "scan.bin")
        assert view.paper.file_name == FORM_NAME.removesuffix(".pdf") + suffix
        [stored] = _stored_files(tmp_path)
        assert stored.read_bytes() == data and stored.name.endswith(view.paper.file_name)


def test_an_oversize_file_is_refused_with_the_limit(tmp_path: Path) -> None:
    limit = 10 * 1024 * 1024  # 10 MB per file (the regulation file's max_mb)
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with pytest.raises(Refused) as info, ctx.work() as w:
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF + bytes(limit), "big.pdf")
        assert info.value.code == "file_too_large"
        assert info.value.params["limit"] == limit
        assert "10 MB" in info.value.render("zh")
        with ctx.work() as w:  # exactly at the limit is allowed
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF + bytes(limit - len(PDF)), "ok.pdf")


def test_after_the_deadline_uploads_are_refused_in_the_regulations_words(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
    with papers_context(tmp_path, when=datetime(2025, 4, 18, 17, 1)) as ctx:
        with pytest.raises(Refused) as info, ctx.work() as w:
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "form.pdf")
        assert info.value.code == "papers_closed"
        assert DEADLINE_WORDS in info.value.render("zh")
        with ctx.work() as w:  # the chief referee may still take a late paper, with a note
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "form.pdf", force=True,
                          note="邮件已于截止前发送, 补传")
    with papers_context(tmp_path, when=datetime(2025, 4, 18, 16, 59)) as ctx, ctx.work() as w:
        papers.upload(w, event, "江苏队", papers.ENTRY_FORM, PDF, "form.pdf")


def test_a_team_leader_sees_only_their_own_team_guessed_ids_included(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with ctx.work() as w:
            zj, js = team_id(w, event, "浙江队"), team_id(w, event, "江苏队")
        zhejiang, jiangsu = leader_of("浙江队", zj, event), leader_of("江苏队", js, event)
        with ctx.work(actor=jiangsu) as w:
            theirs = papers.upload(w, event, None, papers.ENTRY_FORM, PDF, "js.pdf").paper.id
            proof = papers.upload(w, event, None, papers.IDENTITY_PROOF, JPEG, "id.jpg",
                                  player_ref="江苏1号").paper.id
        with ctx.work(actor=zhejiang) as w:
            mine = papers.upload(w, event, None, papers.ENTRY_FORM, PDF, "zj.pdf").paper.id
            assert [t.team for t in papers.list_papers(w, event)] == ["浙江队"]
            assert papers.download(w, mine).data == PDF
        for attempt in (
            lambda w: papers.upload(w, event, "江苏队", papers.ENTRY_FORM, PDF, "x.pdf"),
            lambda w: papers.list_papers(w, event, "江苏队"),
            lambda w: papers.list_papers(w, event, js),
            lambda w: papers.download(w, theirs),
            lambda w: papers.download(w, proof),
            lambda w: papers.download(w, 999),  # an id that does not exist answers the same
            lambda w: papers.entry_form(w, event, "江苏队"),
        ):
            with pytest.raises(Forbidden), ctx.work(actor=zhejiang) as w:
                attempt(w)
        nobody = Actor(id="p1", name="棋手", role=Role.PLAYER)
        with pytest.raises(Forbidden), ctx.work(actor=nobody) as w:
            papers.download(w, mine)
        with ctx.work(actor=referee()) as w:
            assert {t.team for t in papers.list_papers(w, event)} == {"浙江队", "江苏队"}
            assert papers.download(w, proof).data == JPEG
        with pytest.raises(NotFoundError), ctx.work(actor=referee()) as w:
            papers.download(w, 999)


def test_the_directors_missing_papers_view_for_38_teams(tmp_path: Path) -> None:
    """Seed 002 六(一)/七(二): up to 38 teams of 6; each owes 1 stamped form + 6 identity proofs."""
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, UNITS)  # the 37 associations of 六(一)
        host = [("慈溪队", "浙江省", "慈溪", "330282")]  # the host's extra team, forced in
        path = write_csv(tmp_path / "host.csv", team_rows(*host[0], seq=5), "utf-8")
        with ctx.work() as w:
            roster_import.import_roster(w, event, path.read_bytes(), path.name, require_team=True,
                                       force=True, note="东道主增补 (七(二) 递补)")
        with ctx.work() as w:
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "f.pdf")
            for i in range(1, 7):
                papers.upload(w, event, "浙江队", papers.IDENTITY_PROOF, JPEG, "id.jpg",
                              player_ref=f"浙江{i}号")
            papers.upload(w, event, "江苏队", papers.ENTRY_FORM, PDF, "f.pdf")
            returned = papers.upload(w, event, "上海队", papers.ENTRY_FORM, PNG, "f.png").paper.id
            papers.return_paper(w, returned, "未加盖公章")
        with ctx.work() as w:
            view = papers.list_papers(w, event)
        assert len(view) == 38
        by_team = {t.team: t for t in view}
        assert [t.team for t in view if t.complete] == ["浙江队"]
        assert [m.zh for m in by_team["江苏队"].missing] == [f"身份证明: 江苏{i}号" for i in range(1, 7)]
        assert by_team["上海队"].missing[0].zh == "盖章报名表 (已退回: 未加盖公章)"
        # 38 × 7 papers owed; 浙江 handed in 7 and 江苏 1 that count: 266 − 8 = 258 missing.
        assert sum(len(t.missing) for t in view) == 258


def test_downloads_are_audited_and_the_purge_removes_files_with_an_audit_line(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with ctx.work() as w:
            form = papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "f.pdf").paper.id
            papers.upload(w, event, "浙江队", papers.IDENTITY_PROOF, PNG, "a.png", player_ref="浙江1号")
            papers.upload(w, event, "江苏队", papers.IDENTITY_PROOF, JPEG, "b.jpg", player_ref="江苏2号")
        with pytest.raises(Refused), ctx.work() as w:  # stored, then the transaction fails
            papers.upload(w, event, "江苏队", papers.ENTRY_FORM, PDF + b"rolled back", "c.pdf")
            raise Refused("后续步骤失败")
        assert len(_stored_files(tmp_path)) == 4
        with ctx.work(actor=referee()) as w:
            papers.download(w, form)
        with ctx.work() as w:
            downloads = [a for a in audit_rows.audit_log(w.session, event.id, "paper", form) if a.action == "download"]
            assert [a.actor for a in downloads] == ["裁判员甲#u-ref"]
        with pytest.raises(Forbidden), ctx.work(actor=referee()) as w:
            papers.purge(w, event)  # only the chief referee purges
        with ctx.work() as w:
            assert papers.purge(w, event, note="赛后应浙江队请求清除") == 3
        assert _stored_files(tmp_path) == []
        with ctx.work() as w:
            [line] = audit_rows.audit_log(w.session, event.id, "papers")
            assert line.action == "purge" and line.note == "赛后应浙江队请求清除"
            assert line.after == {"files": 3, "kinds": [papers.IDENTITY_PROOF, papers.ENTRY_FORM],
                                  "unreferenced": 1}
            statuses = {p.paper.status for t in papers.list_papers(w, event) for p in t.papers}
            assert statuses == {"purged"}
        with pytest.raises(Refused) as info, ctx.work() as w:
            papers.download(w, form)
        assert info.value.code == "paper_gone"


def test_a_new_upload_replaces_the_earlier_file(tmp_path: Path) -> None:
    with papers_context(tmp_path) as ctx:
        event = make_event(ctx, tmp_path, TWO)
        with ctx.work() as w:
            first = papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PDF, "f.pdf").paper.id
            papers.return_paper(w, first, "模糊不清")
            papers.upload(w, event, "浙江队", papers.ENTRY_FORM, PNG, "f.png")
        [stored] = _stored_files(tmp_path)
        assert stored.read_bytes() == PNG
        with ctx.work() as w:
            [team] = papers.list_papers(w, event, "浙江队")
            assert [p.paper.file_type for p in team.papers] == ["png"]
            assert not any("报名表" in m.zh for m in team.missing)
