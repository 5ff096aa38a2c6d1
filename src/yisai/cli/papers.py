"""`yisai papers ...` and `yisai checkin ...`: registration papers and arrival from a terminal.

The same use cases as the web pages (``services.papers``, ``services.checkin``): the entry form
per team, uploads checked by content, the director's missing-papers list, accept/return,
downloads (audited), the purge after the event; check-in ticks with the insurance confirmation.
Files live in ``--files`` (or ``YISAI_FILES``), by default a folder next to the SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from yisai.cli.hints import cli_message
from yisai.cli.session import DbOption, EventOption, fail, say, settings
from yisai.i18n import language, tr

if TYPE_CHECKING:
    from yisai.services.context import Work

papers_app = typer.Typer(help="报名附件: 报名表、上传、审核、清除 (registration papers)",
                         no_args_is_help=True)
checkin_app = typer.Typer(help="报到: 逐人登记与保险确认 (check-in)", no_args_is_help=True)

FilesOption = Annotated[Path | None, typer.Option("--files", envvar="YISAI_FILES",
                                                  help="附件存放目录 (默认: 数据库文件旁的 *.files 目录)")]
TeamOption = Annotated[str | None, typer.Option("--team", "-t", help="队伍编号或队名")]
KIND = {"form": "entry_form", "报名表": "entry_form", "proof": "identity_proof",
        "身份证明": "identity_proof", "entry_form": "entry_form", "identity_proof": "identity_proof"}


@contextmanager
def _work(db: str | None, files: Path | None) -> Iterator[Work]:
    from yisai.services.context import unit_of_work
    from yisai.services.errors import ServiceError, StoreFailed

    chosen = settings(db)
    if files is not None:
        chosen = replace(chosen, files_dir=files)
    try:
        with unit_of_work(chosen) as work:
            yield work
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    except (StoreFailed, OSError) as exc:
        fail(tr(f"操作失败, 未保存: {exc}", f"failed, nothing saved: {exc}"), code=1)


@papers_app.command("form")
def form(
    team: TeamOption = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="保存到 (默认: 规程规定的文件名)")] = None,
    event: EventOption = None, db: DbOption = None, files: FilesOption = None,
) -> None:
    """生成某队的统一报名表 (xlsx, 含单位、领队、教练、联系电话和盖章栏)."""
    from yisai.services import papers
    from yisai.services.events import resolve_event

    with _work(db, files) as work:
        name, data = papers.entry_form(work, resolve_event(work, event), team)
    target = out or Path(name)
    target.write_bytes(data)
    say(tr(f"已生成报名表: {target}", f"entry form written: {target}"), "green")


@papers_app.command("upload")
def upload(
    file: Annotated[Path, typer.Argument(help="PDF、JPEG 或 PNG 文件")],
    kind: Annotated[str, typer.Option("--kind", "-k", help="form 盖章报名表 / proof 身份证明")] = "form",
    team: TeamOption = None,
    player: Annotated[str | None, typer.Option("--player", "-p", help="身份证明所属棋手 (编号或姓名)")] = None,
    force: Annotated[bool, typer.Option("--force", help="裁判长: 截止后补收 (须 --note)")] = False,
    note: Annotated[str, typer.Option("--note", help="说明 (记入审计日志)")] = "",
    event: EventOption = None, db: DbOption = None, files: FilesOption = None,
) -> None:
    """上传盖章报名表或一名棋手的身份证明 (类型按文件内容识别)."""
    from yisai.services import papers
    from yisai.services.events import resolve_event

    if kind not in KIND:
        fail(tr(f"--kind 须为 form 或 proof: {kind}", f"--kind is form or proof: {kind}"))
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(tr(f"无法读取 {file}: {exc.strerror}", f"cannot read {file}: {exc.strerror}"))
    with _work(db, files) as work:
        view = papers.upload(work, resolve_event(work, event), team, KIND[kind], data, file.name,
                             player_ref=player, force=force, note=note)
    say(tr(f"已上传 #{view.paper.id} {view.team} {view.kind_label.zh}: {view.paper.file_name}",
           f"uploaded #{view.paper.id} {view.team} {view.kind_label.en}: {view.paper.file_name}"),
        "green")


@papers_app.command("list")
def list_(
    team: TeamOption = None,
    missing_only: Annotated[bool, typer.Option("--missing", help="只列出缺少附件的队")] = False,
    event: EventOption = None, db: DbOption = None, files: FilesOption = None,
) -> None:
    """每队的附件与缺少的附件 (裁判长/裁判员看全部, 领队只看本队)."""
    from yisai.services import papers
    from yisai.services.events import resolve_event

    lang = language()
    with _work(db, files) as work:
        view = papers.list_papers(work, resolve_event(work, event), team)
    complete = sum(t.complete for t in view)
    say(tr(f"{len(view)}支队, 附件齐全{complete}支", f"{len(view)} teams, {complete} complete"))
    for t in view:
        if missing_only and t.complete:
            continue
        state = tr("齐全", "complete") if t.complete else tr(f"缺{len(t.missing)}项", f"{len(t.missing)} missing")
        say(f"{t.team_id} {t.team}: {state}", None if t.complete else "yellow")
        for p in t.papers:
            who = f" {p.player}" if p.player else ""
            reason = f" ({p.paper.reason})" if p.paper.reason else ""
            say(f"  #{p.paper.id} {p.kind_label.render(lang)}{who}: {p.paper.file_name} "
                f"[{p.status_label.render(lang)}{reason}]")
        for m in t.missing:
            say(f"  - {m.render(lang)}")


@papers_app.command("accept")
def accept(
    paper: Annotated[str, typer.Argument(help="附件编号")],
    db: DbOption = None, files: FilesOption = None,
) -> None:
    """裁判长: 附件审核通过."""
    from yisai.services import papers

    with _work(db, files) as work:
        view = papers.accept(work, paper)
    say(tr(f"#{view.paper.id} {view.team} 已通过", f"#{view.paper.id} {view.team} accepted"), "green")


@papers_app.command("return")
def return_(
    paper: Annotated[str, typer.Argument(help="附件编号")],
    reason: Annotated[str, typer.Option("--reason", help="退回理由 (领队可见)")],
    db: DbOption = None, files: FilesOption = None,
) -> None:
    """裁判长: 退回附件并写明理由."""
    from yisai.services import papers

    with _work(db, files) as work:
        view = papers.return_paper(work, paper, reason)
    say(tr(f"#{view.paper.id} {view.team} 已退回: {reason}", f"#{view.paper.id} {view.team} returned: {reason}"))


@papers_app.command("download")
def download(
    paper: Annotated[str, typer.Argument(help="附件编号")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="保存到 (默认: 附件名)")] = None,
    db: DbOption = None, files: FilesOption = None,
) -> None:
    """下载附件 (记入审计日志)."""
    from yisai.services import papers

    with _work(db, files) as work:
        got = papers.download(work, paper)
    target = out or Path(got.file_name)
    target.write_bytes(got.data)
    say(tr(f"已保存 {target}", f"saved {target}"), "green")


@papers_app.command("purge")
def purge(
    note: Annotated[str, typer.Option("--note", help="清除原因 (记入审计日志)")] = "",
    forms_too: Annotated[bool, typer.Option("--forms/--proofs-only",
                                            help="同时清除盖章报名表 (默认) / 只清除身份证明")] = True,
    event: EventOption = None, db: DbOption = None, files: FilesOption = None,
) -> None:
    """裁判长: 赛后清除附件文件 (身份证明等), 审计日志记录一行."""
    from yisai.services import papers
    from yisai.services.events import resolve_event

    kinds = (papers.IDENTITY_PROOF, papers.ENTRY_FORM) if forms_too else (papers.IDENTITY_PROOF,)
    with _work(db, files) as work:
        removed = papers.purge(work, resolve_event(work, event), note=note, kinds=kinds)
    say(tr(f"已清除{removed}个文件", f"{removed} files removed"), "green")


@checkin_app.command("tick")
def tick(
    players: Annotated[list[str], typer.Argument(help="棋手编号或姓名 (可多个)")],
    insured: Annotated[bool | None, typer.Option("--insured/--not-insured",
                                                 help="已确认人身意外保险")] = None,
    undo: Annotated[bool, typer.Option("--undo", help="撤销报到")] = False,
    note: Annotated[str, typer.Option("--note", help="说明")] = "",
    event: EventOption = None, db: DbOption = None,
) -> None:
    """裁判员: 登记棋手报到 (可同时确认保险)."""
    from yisai.services import checkin
    from yisai.services.events import resolve_event

    with _work(db, None) as work:
        ev = resolve_event(work, event)
        done = [checkin.tick(work, ev, p, arrived=not undo, insured=insured, note=note) for p in players]
    verb = tr("已撤销报到", "check-in undone") if undo else tr("已报到", "checked in")
    say(f"{verb}: {len(done)}", "green")
    uninsured = [p for p, c in zip(players, done, strict=True) if c.arrived and not c.insured]
    if uninsured:
        say(tr(f"未确认保险: {'、'.join(uninsured)}", f"insurance not confirmed: {', '.join(uninsured)}"),
            "yellow")


@checkin_app.command("list")
def list_arrivals(
    team: TeamOption = None, event: EventOption = None, db: DbOption = None,
) -> None:
    """报到情况: 每队每人是否报到、是否确认保险."""
    from yisai.services import checkin
    from yisai.services.events import resolve_event

    with _work(db, None) as work:
        view = checkin.list_arrivals(work, resolve_event(work, event), team)
    for t in view:
        say(tr(f"{t.team}: 已报到 {t.arrived}/{len(t.people)}", f"{t.team}: {t.arrived}/{len(t.people)} arrived"))
        for p in t.people:
            mark = "✓" if p.arrived else "·"
            ins = tr("保险已确认", "insured") if p.insured else tr("保险未确认", "insurance unconfirmed")
            say(f"  {mark} #{p.player_id} {p.name} {p.division} {p.at} {ins if p.arrived else ''}".rstrip())


def register(app: typer.Typer) -> None:
    """Attach `yisai papers ...` and `yisai checkin ...`."""
    app.add_typer(papers_app, name="papers")
    app.add_typer(checkin_app, name="checkin")
