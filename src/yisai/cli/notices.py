"""`yisai notices …`: the SMS queue from the command line — work it (a background worker for a
site without `yisai serve`, or a cron job), list what was sent or refused and why, send a failed
one again, switch kinds per event, set an event's daily budget, remind unpaid fees, and print the
templates to submit to the provider (docs/qualification.md, "开通短信与微信/QQ登录")."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from yisai.cli.hints import cli_message
from yisai.cli.session import console, fail, say
from yisai.i18n import tr

if TYPE_CHECKING:
    from yisai.reach.config import SmsConfig

notices_app = typer.Typer(help="短信通知: 发送队列、记录、开关与预算 (SMS notices)", no_args_is_help=True)
DB = typer.Option(None, "--db", envvar="YISAI_DB", help="数据库文件或 URL")
EVENT = typer.Option(None, "--event", help="比赛编号或名称 (库中只有一个比赛时可省略)")


def _sms() -> SmsConfig:
    """The SMS configuration of this run (YISAI_SMS_CONFIG and the key pair from the environment)."""
    from yisai.reach.config import load_sms_config
    from yisai.services.errors import ServiceError

    try:
        return load_sms_config(os.environ)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)


@notices_app.command("work")
def work(
    db: str = DB,
    once: bool = typer.Option(False, "--once", help="只处理一遍到期的通知后退出 (适合定时任务)"),
    every: float = typer.Option(5.0, "--every", min=0.5, max=3600, help="两遍之间的秒数"),
) -> None:
    """发送排队中的短信通知 (可与网站同时运行多个, 每条只发一次)."""
    from dataclasses import replace

    from yisai.cli.session import settings
    from yisai.reach.config import build_sender
    from yisai.services.context import ServiceError, open_context
    from yisai.services.notices import work_queue

    sms = _sms()
    sender = build_sender(sms)
    try:
        ctx = open_context(replace(settings(db), notice_limits=sms.limits))
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    say(tr(f"发送通道: {sender.name}", f"sending through: {sender.name}"))
    try:
        while True:
            done = work_queue(ctx, sender)
            if done.sent or done.retrying or done.failed:
                say(tr(f"已发送 {done.sent}, 待重试 {done.retrying}, 失败 {done.failed}",
                       f"sent {done.sent}, to retry {done.retrying}, failed {done.failed}"))
            if once:
                break
            time.sleep(every)
    except KeyboardInterrupt:
        pass
    finally:
        ctx.close()


@notices_app.command("list")
def list_notices(
    event: str = EVENT, db: str = DB,
    state: str = typer.Option(None, "--state", help="只列出该状态: queued / sent / failed / skipped"),
    limit: int = typer.Option(50, "--limit", min=1, max=5000, help="最多列出条数 (最新的在前)"),
) -> None:
    """短信通知记录: 状态与原因 (服务商的拒绝原因照录), 号码只显示首尾."""
    from yisai.cli.session import command_work
    from yisai.services.notices import notice_list, notice_summary

    with command_work(db) as w:
        rows = notice_list(w, event, state, limit)
        summary = notice_summary(w, event) if event is not None else None
    if summary is not None:
        budget = str(summary.budget) if summary.budget else tr("不限", "none")
        say(tr(f"今日已用 {summary.used_today} 条, 每日预算 {budget}", f"used today: {summary.used_today}; daily budget: {budget}"))
    t = Table(title=tr("短信通知", "text messages"), title_style="bold")
    for h in ("#", tr("类型", "kind"), tr("号码", "to"), tr("状态", "state"), tr("原因", "why"),
              tr("尝试", "tries"), tr("时间", "time")):
        t.add_column(h)
    for n in rows:
        t.add_row(str(n.id), n.kind_label.render(), n.to, n.state_label.render(), n.why().render(),
                  str(n.attempts), f"{n.sent_at or n.created_at:%Y-%m-%d %H:%M}")
    console.print(t)


@notices_app.command("retry")
def retry(notice: int = typer.Argument(..., help="通知编号 (见 yisai notices list)"), db: str = DB) -> None:
    """排除原因后重发一条发送失败的通知."""
    from yisai.cli.session import command_work
    from yisai.services.notices import requeue

    with command_work(db) as w:
        requeue(w, notice)
    say(tr(f"通知{notice}已重新排队", f"notice {notice} queued again"))


@notices_app.command("switch")
def switch(
    kind: str = typer.Argument(..., help="通知类型, 如 pairing_published (见 yisai notices templates)"),
    on: bool = typer.Option(..., "--on/--off", help="开启或关闭"),
    event: str = EVENT, db: str = DB,
) -> None:
    """为一个比赛开启或关闭一类通知 (登录验证码不能关闭)."""
    from yisai.cli.session import command_work
    from yisai.services.notices import switch_kind

    with command_work(db) as w:
        off = switch_kind(w, event, kind, on)
    say(tr(f"已关闭: {', '.join(sorted(off)) or '无'}", f"switched off: {', '.join(sorted(off)) or 'none'}"))


@notices_app.command("budget")
def budget(
    count: int = typer.Argument(None, help="每日短信条数 (0 = 不限; 不填 = 用全站默认)"),
    event: str = EVENT, db: str = DB,
) -> None:
    """设置一个比赛每天最多发送的短信条数 (用到80%时提醒运营)."""
    from yisai.cli.session import command_work
    from yisai.services.notices import set_budget

    with command_work(db) as w:
        set_budget(w, event, count)
    say(tr(f"每日预算: {count if count is not None else '全站默认'}",
           f"daily budget: {count if count is not None else 'the site default'}"))


@notices_app.command("fees")
def fees(event: str = EVENT, db: str = DB) -> None:
    """给报名费未缴的棋手发送缴费提醒 (每人每天至多一条)."""
    from yisai.cli.session import command_work
    from yisai.services.notices import remind_fees

    with command_work(db) as w:
        n = remind_fees(w, event)
    say(tr(f"缴费提醒 {n} 条已排队", f"{n} fee reminders queued"))


@notices_app.command("templates")
def templates() -> None:
    """列出须向服务商申请的短信模板 (腾讯云与阿里云两种写法)."""
    from yisai.qualifier.notices import KINDS

    for k in KINDS.values():
        say(f"{k.key}  {k.label.render()}", "bold")
        say(tr(f"  腾讯云: {k.tencent_template()}", f"  Tencent Cloud: {k.tencent_template()}"))
        say(tr(f"  阿里云: {k.aliyun_template()}", f"  Alibaba Cloud: {k.aliyun_template()}"))


def register(app: typer.Typer) -> None:
    app.add_typer(notices_app, name="notices")
