"""Entry point: a root command that imports a sub-command's module only when it runs.

``yisai --help`` and a single ``yisai result …`` must start fast (a referee enters results one
by one), so the root lists commands from the table below without importing them; the module
registering a command is imported when that command is called (or asked for its own help).
"""

from __future__ import annotations

import gc
import importlib

import click
import typer
from typer.core import TyperGroup

from yisai.cli.messages import install as install_messages
from yisai.i18n import set_language, tr

# command → (module under yisai.cli, short help zh, short help en)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "regulation": ("regulation", "规程文件: 检查与摘要", "regulation files: check and summary"),
    "event": ("events", "比赛: 创建、列表、概况", "events: create, list, show"),
    "player": ("registration", "棋手: 登记、导入、列表", "players: add, import, list"),
    "team": ("registration", "代表队: 登记、导入、列表、递补", "teams: add, import, list, replace"),
    "entry": ("registration", "报名: 审核、撤回、缴费、列表", "entries: approve, withdraw, fees"),
    "fees": ("fees", "费用台账: 列表、导出、登记已缴费、退款", "fee ledger: list, export, mark paid, refund"),
    "member": ("members", "会员名单: 导入与查看 (须为注册会员)", "member register: import, show"),
    "change": ("registration", "待审更改: 裁判长批准或驳回已登记棋手的资料更改", "pending player changes: approve, reject"),
    "template": ("registration", "报名表模板", "roster templates"),
    "papers": ("papers", "报名附件: 报名表、上传、审核、清除", "registration papers: form, upload, review, purge"),
    "checkin": ("papers", "报到: 逐人登记与保险确认", "check-in with insurance confirmation"),
    "pair": ("rounds", "编排一轮 (积分编排制)", "pair a round (Swiss)"),
    "opengotha": ("opengotha", "OpenGotha 文件: 按 OpenGotha 规则编排一轮", "OpenGotha files: pair a round by OpenGotha's rules"),
    "match": ("team_matches", "团体赛: 出场名单、各场对阵、团体名次", "team matches: line-ups, matches, team standings"),
    "round": ("rounds", "轮次: 对阵、公布与成绩登记表", "rounds: pairings, publishing, result sheets"),
    "result": ("rounds", "录入或导入成绩", "enter or import results"),
    "standings": ("standings", "成绩表与名次", "standings"),
    "prizes": ("awards", "录取名次与奖金", "prize lists"),
    "prize": ("prize_decisions", "奖金裁定: 扣除奖金、评定奖项、奖金总额超出", "prize decisions: docking, judged awards, pool"),
    "awards": ("awards", "段位申报名单", "rank (段位) awards"),
    "qualifier": ("qualifier", "线上海选: 确认期限", "online qualifier: confirmation deadlines"),
    "notices": ("notices", "短信通知: 发送队列、记录、开关与预算", "SMS notices: send, list, switches, budget"),
    "sgf": ("sgf", "棋谱: 规则检查与数子", "SGF: rules check and area count"),
    "db": ("database", "数据库: 结构升级", "database: schema upgrade"),
    "demo": ("demo", "演示: 按两个规程模拟全程", "demo: simulate both seed events"),
    "account": ("accounts", "账号: 新建、列表、改密码、停用/启用、绑定队伍、限定比赛", "accounts: add, list, passwd, disable, bind, scope"),
    "serve": ("serve", "启动网站: 公开成绩、工作台与API", "web server: public site, console and API"),
    "bench": ("bench", "性能测试", "benchmarks"),
    "resident": ("resident", "常驻进程: 状态与停止 (命令秒开)", "resident process: status, stop"),
    "print": ("printing", "打印: 对阵表、台签、记分单、成绩表、证书等 PDF", "print sheets as PDF"),
}


def _load(name: str) -> click.Command | None:
    entry = COMMANDS.get(name)
    if entry is None:
        return None
    module = importlib.import_module(f"yisai.cli.{entry[0]}")
    holder = typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False)
    module.register(holder)
    built = typer.main.get_command(holder)
    if isinstance(built, click.Group):
        return built.get_command(click.Context(built), name)
    return built  # a module registering one command gets it back as that command


class LazyRoot(TyperGroup):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _load(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, tr(zh, en)) for name, (_m, zh, en) in COMMANDS.items()]
        with formatter.section(tr("命令", "Commands")):
            formatter.write_dl(rows)


def _language(value: str) -> str:
    set_language(value)  # eager, so that --help is already in the chosen language
    return value


install_messages()
app = typer.Typer(
    cls=LazyRoot,
    name="yisai",
    help="弈赛 — 按中国围棋协会竞赛规程组织围棋比赛 (run Go competitions by CWA regulations)",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _root(
    lang: str = typer.Option("zh", "--lang", envvar="YISAI_LANG", is_eager=True, callback=_language,
                             help="zh (默认) 或 en"),
    actor: str | None = typer.Option(None, "--actor", envvar="YISAI_ACTOR",
                                     help="审计记录中的操作人 (默认: 系统用户名)"),
    role: str | None = typer.Option(None, "--role", envvar="YISAI_ROLE",
                                    help="角色: chief_referee 裁判长 (默认) / referee 裁判员 / "
                                         "team_leader 领队 / operator 运营"),
    db: str | None = typer.Option(None, "--db", help="数据库文件路径或地址 (可写在任何位置; 优先于 YISAI_DB)"),
) -> None:
    from yisai.cli.session import set_identity

    set_identity(actor, role, db)


ROOT_OPTIONS = ("--lang", "--actor", "--role")


# Commands with an option of a root option's name: after the command it is theirs
# (``yisai account add wang --role referee`` gives the new account its role).
OWN_OPTIONS: dict[str, tuple[str, ...]] = {"account": ("--role",)}


def hoist_root_options(args: list[str]) -> list[str]:
    """Move ``--lang``/``--actor``/``--role`` (the root's options) to the front, so that they work
    wherever a referee types them (``yisai result 黑胜 -b 3 --lang en``); ``--`` ends the scan."""
    front: list[str] = []
    rest: list[str] = []
    command: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        name = arg.split("=", 1)[0]
        if name in ROOT_OPTIONS and name not in OWN_OPTIONS.get(command or "", ()):
            take = 1 if "=" in arg or i + 1 == len(args) else 2
            front.extend(args[i:i + take])
            i += take
            continue
        if command is None and not arg.startswith("-"):
            command = arg
        rest.append(arg)
        i += 1
    return front + rest


def main(prog_name: str | None = None) -> None:
    # A command allocates hundreds of thousands of objects while it imports its modules and
    # almost none of them are garbage; the default collector threshold (700) walks them again
    # and again. A later first collection costs nothing in correctness and ~10 % of start-up.
    gc.set_threshold(50_000, 20, 100)
    import sys

    from yisai.services.collector import pause_collector_during_standings

    pause_collector_during_standings()  # the process is the command's: standings bursts pause the collector

    app(args=hoist_root_options(sys.argv[1:]), prog_name=prog_name)


if __name__ == "__main__":
    main()
