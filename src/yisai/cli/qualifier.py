"""`yisai qualifier …`: confirmation deadlines, closing a period, places and lapses, reminders,
the final's entry list, and a whole simulated period (docs/qualification.md)."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import typer
from rich.table import Table

from yisai.cli.hints import cli_message
from yisai.cli.session import console, fail, say
from yisai.i18n import tr

qualifier_app = typer.Typer(help="网络海选赛: 晋级确认期限 (online qualifier)", no_args_is_help=True)


@qualifier_app.command("deadlines")
def deadlines(
    regulation: Path = typer.Option(..., "--regulation", help="规程文件"),
    after: str = typer.Option(None, "--after", help="从哪天起算 (公布晋级名单之日, 默认最早可公布之日: 各期最后一天的次日)"),
    calendar: Path = typer.Option(None, "--calendar", envvar="YISAI_CALENDAR",
                                  help="补充节假日安排的 TOML 文件 (YISAI_CALENDAR)"),
) -> None:
    """各期晋级选手完善参赛信息的截止日 (按法定节假日与调休计算工作日)."""
    from yisai.services.errors import ServiceError
    from yisai.services.events import read_regulation_file
    from yisai.services.qualification import confirmation_deadlines

    try:
        start = date.fromisoformat(after) if after else None
    except ValueError:
        fail(tr(f"日期无效: {after} (应为 YYYY-MM-DD)", f"bad date: {after} (expected YYYY-MM-DD)"))
    try:
        _, reg = read_regulation_file(regulation)
        stages = confirmation_deadlines(reg, calendar_file=calendar, after=start)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), 2)
    for stage in stages:
        if stage.working_days is None:
            say(tr(f"{stage.stage}: 规程未规定确认期限", f"{stage.stage}: no confirmation rule"))
            continue
        n = stage.working_days
        t = Table(title=tr(f"{stage.stage}: 晋级选手须在{n}个工作日内完善参赛信息",
                           f"{stage.stage}: qualified players confirm within {n} working days"),
                  title_style="bold")
        for h in (tr("期", "period"), tr("比赛日期", "dates"), tr("起算日", "counted from"),
                  tr("截止日 (含)", "deadline (incl.)")):
            t.add_column(h)
        for p in stage.periods:
            t.add_row(tr(f"第{p.number}期", f"#{p.number}"), f"{p.start} 至 {p.end}",
                      str(p.counted_from), str(p.deadline))
        console.print(t)
        say(tr("逾期默认视为弃权", "late confirmation forfeits the place"))


DB = typer.Option(None, "--db", envvar="YISAI_DB", help="数据库文件或 URL")
EVENT = typer.Option(None, "--event", help="比赛编号或名称 (库中只有一个比赛时可省略)")


@qualifier_app.command("close")
def close(period: int = typer.Option(..., "--period", help="第几期"), event: str = EVENT, db: str = DB) -> None:
    """结束一期并公布晋级名单 (该期最后一天24:00后, 且该期对局全部结束)."""
    from yisai.cli.session import command_work
    from yisai.services.qualification import close_period

    with command_work(db) as work:
        lists = close_period(work, event, period)
    for pl in lists:
        _print_list(pl)


def _print_list(pl: object) -> None:
    from yisai.services.qualification import PublishedList

    assert isinstance(pl, PublishedList)
    t = Table(title=tr(f"第{pl.period}期 {pl.pool} 晋级名单 (录取{pl.quota}名, 第{pl.version}版)",
                       f"period {pl.period} {pl.pool}: qualifiers (top {pl.quota}, version {pl.version})")
              + (tr(" 已更正", " amended") if pl.amended else ""), title_style="bold")
    for h in (tr("名次", "place"), tr("姓名", "name"), tr("积分", "points"), tr("胜局数", "wins"),
              tr("对局", "games"), tr("说明", "note")):
        t.add_column(h)
    for r in pl.rows:
        if r.qualified or r.earlier is not None:
            t.add_row(str(r.place or "—"), r.name, str(r.points), str(r.wins), str(r.games), r.note())
    console.print(t)
    say(tr(f"晋级{sum(r.qualified for r in pl.rows)}人", f"{sum(r.qualified for r in pl.rows)} qualify"))


@qualifier_app.command("places")
def places(event: str = EVENT, db: str = DB, status: str = typer.Option(None, "--status",
           help="qualified / confirmed / lapsed / revoked")) -> None:
    """晋级名额及确认情况 (只读: 逾期未确认的显示为逾期弃权; 记为弃权并通知用 yisai qualifier lapse)."""
    from yisai.cli.session import command_work
    from yisai.services.qualification import all_places

    with command_work(db) as work:
        found = all_places(work, event, status)
    t = Table(title=tr("晋级名额", "qualified places"), title_style="bold")
    for h in (tr("期", "period"), tr("组", "pool"), tr("编号", "player"), tr("姓名", "name"),
              tr("截止日", "deadline"), tr("状态", "state")):
        t.add_column(h)
    for p in found:
        t.add_row(str(p.period), p.pool, p.player, p.name, str(p.deadline), p.status_label.render())
    console.print(t)


@qualifier_app.command("lapse")
def lapse(event: str = EVENT, db: str = DB) -> None:
    """把逾期未确认的晋级名额记为弃权 (通知棋手, 记入审计); 服务器运行时每10分钟自动执行."""
    from yisai.cli.session import command_work
    from yisai.services.qualification import lapse_overdue

    with command_work(db) as work:
        done = lapse_overdue(work, event)
    for p in done:
        say(tr(f"第{p.period}期 {p.name} ({p.player}): 截止 {p.deadline}, 记为逾期弃权",
               f"period {p.period} {p.name} ({p.player}): deadline {p.deadline}, lapsed"))
    say(tr(f"逾期弃权 {len(done)} 个名额", f"{len(done)} places lapsed"))


@qualifier_app.command("remind")
def remind(event: str = EVENT, db: str = DB) -> None:
    """发送截止前提醒 (站内通知; 有手机号的账号同时排队发送短信)."""
    from yisai.cli.session import command_work
    from yisai.services.qualification import send_reminders

    with command_work(db) as work:
        outgoing = send_reminders(work, event)
    say(tr(f"已提醒; 短信{len(outgoing)}条已排队 (由 yisai serve 或 yisai notices work 发送)",
           f"reminded; {len(outgoing)} text messages queued (sent by yisai serve or yisai notices work)"))


@qualifier_app.command("final")
def final(event: str = EVENT, db: str = DB,
          apply: bool = typer.Option(False, "--apply", help="按预览生成总决赛报名 (可重复运行)")) -> None:
    """总决赛报名名单: 各来源 (网络海选晋级、城市代表队、外卡、直接报名) 与冲突; --apply 生成."""
    from yisai.awards.final_entries import SOURCE_LABELS
    from yisai.cli.session import command_work
    from yisai.services.qualification import apply_final, final_preview

    with command_work(db) as work:
        plan = apply_final(work, event) if apply else final_preview(work, event)
    t = Table(title=tr("总决赛报名名单", "the final's entries") + (tr(" (已生成)", " (applied)") if apply
                                                                  else tr(" (预览)", " (preview)")))
    for h in (tr("来源", "source"), tr("姓名", "name"), tr("组别", "division"), tr("说明", "detail"),
              tr("处理", "action")):
        t.add_column(h)
    words = {"apply": tr("新增", "add"), "already": tr("已生成", "in"), "left_out": tr("不列入", "left out")}
    for c, state in plan.items:
        t.add_row(SOURCE_LABELS[c.source].render(), c.name, c.division, c.detail, words[state])
    console.print(t)
    for conflict in plan.conflicts:
        say("⚠ " + conflict.text.render(), "yellow")


@qualifier_app.command("review")
def review(event: str = EVENT, db: str = DB, limit: int = typer.Option(20, "--limit", min=1, max=1000)) -> None:
    """赛风赛纪待审对局, 按信号从高到低 (信号只用于排序)."""
    from yisai.cli.session import command_work
    from yisai.services.fairplay import review_queue

    with command_work(db) as work:
        queue = review_queue(work, event, limit)
    t = Table(title=tr("待审对局", "review queue"), title_style="bold")
    for h in (tr("对局", "game"), tr("期", "period"), tr("黑方", "black"), tr("白方", "white"),
              tr("结果", "result"), tr("处理", "decision"), tr("信号", "signal")):
        t.add_column(h)
    for g in queue:
        t.add_row(str(g.game_id), str(g.game.period), g.game.black_name, g.game.white_name, g.game.result,
                  g.decided_result or g.decided, f"{g.score:.2f}")
    console.print(t)


@qualifier_app.command("decide")
def decide(
    game: int = typer.Option(..., "--game", help="对局编号"),
    decision: str = typer.Option(..., "--decision", help="annul 取消 / B+R 黑胜 / W+R 白胜 / Void 无胜负 / restore 恢复"),
    reason: str = typer.Option(..., "--reason", help="理由 (必填, 记入操作记录)"),
    event: str = EVENT, db: str = DB,
) -> None:
    """裁判长处理一局: 取消、改判或恢复; 重新计算积分, 已公布的名单随之更正."""
    from yisai.cli.session import command_work
    from yisai.services import fairplay

    with command_work(db) as work:
        if decision == "annul":
            versions = fairplay.annul_game(work, event, game, reason)
        elif decision == "restore":
            versions = fairplay.restore_game(work, event, game, reason)
        else:
            versions = fairplay.change_result(work, event, game, decision, reason)
    say(tr(f"对局{game}已处理", f"game {game} decided")
        + (tr(f"; 晋级名单已更正 (第{'、'.join(map(str, versions))}版)",
              f"; list amended (version {', '.join(map(str, versions))})") if versions else ""))


@qualifier_app.command("suspend")
def suspend(
    player: str = typer.Option(..., "--player", help="棋手编号 (线上账号)"),
    periods: int = typer.Option(..., "--periods", min=1, help="禁赛期数"),
    reason: str = typer.Option(..., "--reason"),
    first: int = typer.Option(None, "--from", help="从第几期起 (默认当前或下一期)"),
    event: str = EVENT, db: str = DB,
) -> None:
    """禁赛: 在所列各期不得参加匹配 (匹配时拒绝并说明理由)."""
    from yisai.cli.session import command_work
    from yisai.services.fairplay import suspend_player

    with command_work(db) as work:
        s = suspend_player(work, event, player, periods=periods, reason=reason, first_period=first)
    say(tr(f"{player} 自第{s.first_period}期起禁赛{s.periods}期", f"{player} suspended for {s.periods} "
           f"period(s) from period {s.first_period}"))


@qualifier_app.command("simulate")
def simulate(
    players: int = typer.Option(20000, "--players", min=2, max=1_000_000),
    period: int = typer.Option(1, "--period"),
    db: str = typer.Option(..., "--db", help="数据库 (PostgreSQL URL 或 SQLite 文件)"),
    fresh_schema: bool = typer.Option(False, "--fresh-schema", help="在 PostgreSQL 上新建 schema 运行"),
    regulation: Path = typer.Option(Path("regulations/2025-shanhai-cup.toml"), "--regulation"),
    waves: int = typer.Option(40, "--waves", min=1, max=10_000, help="本期匹配轮数"),
    join_rate: float = typer.Option(0.6, "--join-rate", min=0.01, max=1.0, help="每轮参加匹配的棋手比例"),
    seed: int = typer.Option(1, "--seed"),
) -> None:
    """整期网络海选模拟: 经服务层匹配、开局、结束、计分, 期末公布晋级名单 (对局为短棋谱, 结果按隐藏棋力随机)."""
    import time as walltime

    from yisai.qualifier.periods import window
    from yisai.services.context import open_context
    from yisai.services.errors import ServiceError
    from yisai.services.events import create_event, list_events
    from yisai.services.identity import Actor
    from yisai.services.live import live_config
    from yisai.services.maintenance import scratch_database, upgrade
    from yisai.services.qualification import close_period
    from yisai.services.settings import Settings
    from yisai.services.simulation import SimClock, simulate_period

    clock = SimClock(datetime(2025, 1, 1))
    try:
        url = scratch_database(db, "yisai_sim") if fresh_schema else db
        if not fresh_schema:
            upgrade(Settings(database=url, clock=clock))
        with open_context(Settings(database=url, clock=clock), actor=Actor.system()) as ctx:
            with ctx.work() as work:
                events = list_events(work)
                event = events[0] if events else create_event(work, regulation)
            say(tr(f"模拟第{period}期: {players}名棋手, {waves}轮匹配", f"period {period}: {players} players, {waves} waves"))
            report = simulate_period(ctx, clock, event.id, period, players, seed=seed, waves=waves,
                                     join_rate=join_rate, progress=say)
            with ctx.work() as work:
                cfg = live_config(work, event.id)
            clock.now = window(next(p for p in cfg.stage.periods if p.number == period)).closes
            t0 = walltime.perf_counter()
            with ctx.work() as work:
                lists = close_period(work, event.id, period)
            close_seconds = walltime.perf_counter() - t0
    except ServiceError as exc:
        fail(str(exc))
    say(tr(f"对局 {report.games} 局 (逃跑 {report.escapes}), 匹配轮 {report.waves}, 用时 {report.wall_seconds:.1f} 秒 "
           f"(CPU {report.cpu_seconds:.1f} 秒), 每局 {1000 * report.wall_seconds / max(1, report.games):.2f} 毫秒; "
           f"公布名单 {close_seconds:.2f} 秒",
           f"{report.games} games ({report.escapes} escapes), {report.waves} waves, wall {report.wall_seconds:.1f} s "
           f"(CPU {report.cpu_seconds:.1f} s), {1000 * report.wall_seconds / max(1, report.games):.2f} ms per game; "
           f"list published in {close_seconds:.2f} s"))
    for pl in lists:
        _print_list(pl)


def register(app: typer.Typer) -> None:
    app.add_typer(qualifier_app, name="qualifier")
