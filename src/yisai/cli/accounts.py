"""`yisai account add|list|passwd|disable|enable|bind`: console accounts without the demo loader.

A password is never an argument (it would sit in the shell history and the process list):
``--password-stdin`` reads one line from standard input, e.g.
``echo 'S3cret-pw' | yisai account add wang --role chief_referee --password-stdin``.
"""

from __future__ import annotations

import sys

import typer

from yisai.cli.session import DbOption, EventOption, command_work, console, fail, say
from yisai.i18n import tr

account_app = typer.Typer(help="账号: 新建、列表、改密码、停用/启用、绑定队伍 (accounts)", no_args_is_help=True)

PasswordStdin = typer.Option(False, "--password-stdin", help="从标准输入读取一行作为密码 (不要把密码写在命令行上)")


def _read_password(from_stdin: bool) -> str:
    """One line from standard input, without its line end; refused unless --password-stdin."""
    if not from_stdin:
        fail(tr("请用 --password-stdin 从标准输入给出密码, 例如: echo '密码' | yisai account add …",
                "give the password on standard input with --password-stdin, e.g. echo 'pw' | yisai account add …"))
    line = sys.stdin.readline()
    password = line.rstrip("\r\n")
    if not password:
        fail(tr("标准输入中没有密码 (应为一行文字)", "no password on standard input (expected one line)"))
    return password


def _role_word(role: str) -> str:
    from yisai.services.identity import Role

    try:
        return Role(role).label.render()
    except ValueError:
        return role


@account_app.command("add")
def add(
    login: str = typer.Argument(..., help="登录账号名"),
    role: str = typer.Option(..., "--role", help="角色: chief_referee 裁判长 / referee 裁判员 / "
                                                 "team_leader 领队 / operator 运营"),
    name: str = typer.Option("", "--name", help="显示的姓名 (默认同账号名)"),
    team: str = typer.Option(None, "--team", help="领队所属队伍: 队伍编号或队名 (yisai team list 可查)"),
    event: str = typer.Option(None, "--event", "-e",
                              help="限定比赛: 裁判长/裁判员账号只能操作这个比赛 (比赛编号或名称); "
                                   "与 --team 同用时指队伍所在的比赛"),
    password_stdin: bool = PasswordStdin,
    db: DbOption = None,
) -> None:
    """新建账号. 密码从标准输入读取: echo '密码' | yisai account add 账号 --role 角色 --password-stdin

    --event 把裁判长或裁判员限定在一个比赛: 其他比赛的任何写操作都被拒绝."""
    from yisai.services.accounts import add_account

    password = _read_password(password_stdin)
    with command_work(db, may_create=True) as work:
        user = add_account(work, login, role, password, display_name=name, team=team, event_ref=event)
    bound = tr(f", 队伍 #{user.team_id}", f", team #{user.team_id}") if user.team_id is not None else ""
    if user.event_id is not None and user.team_id is None:  # a leader's event is its team's
        bound += tr(f", 限第{user.event_id}号比赛", f", limited to event {user.event_id}")
    say(tr(f"已建立账号 {user.login} ({_role_word(user.role)}{bound})",
           f"account {user.login} created ({_role_word(user.role)}{bound})"))


@account_app.command("list")
def list_cmd(db: DbOption = None) -> None:
    """列出账号: 账号 姓名 角色 比赛 队伍 状态 (棋手的手机登录账号不列出)."""
    from rich.table import Table

    from yisai.services.accounts import list_accounts

    with command_work(db, may_create=True) as work:
        rows = list_accounts(work)
    if not rows:
        say(tr("还没有账号 (用 yisai account add 新建)", "no accounts yet (create one with yisai account add)"))
        return
    t = Table(title=tr(f"账号 ({len(rows)})", f"accounts ({len(rows)})"), title_style="bold")
    for h in (tr("账号", "login"), tr("姓名", "name"), tr("角色", "role"), tr("限定比赛", "event scope"),
              tr("队伍", "team"), tr("状态", "status")):
        t.add_column(h)
    for v in rows:
        u = v.user
        team = f"{v.team_name} (#{u.team_id})" if u.team_id is not None else ""
        if u.max_teams > 1:
            team += tr(f" (可登记{u.max_teams}支队)", f" (may register {u.max_teams} teams)")
        scope = f"#{u.event_id} {v.event_name}" if u.event_id is not None else tr("全部比赛", "all events")
        t.add_row(u.login, u.display_name, _role_word(u.role), scope, team,
                  tr("可用", "active") if u.active else tr("已停用", "disabled"))
    console.print(t)


@account_app.command("passwd")
def passwd(
    login: str = typer.Argument(..., help="账号名"),
    password_stdin: bool = PasswordStdin,
    db: DbOption = None,
) -> None:
    """重设密码 (从标准输入读取新密码). 旧密码随即失效."""
    from yisai.services.accounts import reset_password

    password = _read_password(password_stdin)
    with command_work(db) as work:
        user = reset_password(work, login, password)
    say(tr(f"已重设账号 {user.login} 的密码", f"password of {user.login} reset"))


@account_app.command("disable")
def disable(login: str = typer.Argument(..., help="账号名"), db: DbOption = None) -> None:
    """停用账号: 不能再登录, 已登录的会话立即失效 (可用 yisai account enable 恢复)."""
    from yisai.services.accounts import set_account_active

    with command_work(db) as work:
        user = set_account_active(work, login, False)
    say(tr(f"已停用账号 {user.login}", f"account {user.login} disabled"))


@account_app.command("enable")
def enable(login: str = typer.Argument(..., help="账号名"), db: DbOption = None) -> None:
    """恢复已停用的账号."""
    from yisai.services.accounts import set_account_active

    with command_work(db) as work:
        user = set_account_active(work, login, True)
    say(tr(f"已恢复账号 {user.login}", f"account {user.login} enabled"))


@account_app.command("bind")
def bind(
    login: str = typer.Argument(..., help="领队账号名"),
    team: str = typer.Option(..., "--team", help="队伍编号或队名"),
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """把领队账号绑定到一支队伍 (命令行或报名表登记的队伍): 领队即可查看和上传本队附件、办理报到."""
    from yisai.services.accounts import bind_team

    with command_work(db) as work:
        view = bind_team(work, login, team, event)
    say(tr(f"领队账号 {view.user.login} 已绑定 {view.event_name} 的队伍“{view.team_name}”",
           f"team leader {view.user.login} bound to team {view.team_name} of {view.event_name}"))


@account_app.command("scope")
def scope(
    login: str = typer.Argument(..., help="裁判长或裁判员的账号名"),
    event: str = typer.Option(None, "--event", "-e", help="限定到这个比赛 (比赛编号或名称)"),
    clear: bool = typer.Option(False, "--clear", help="解除限定: 可以操作所有比赛"),
    db: DbOption = None,
) -> None:
    """限定 (或解除限定) 裁判长/裁判员账号可操作的比赛."""
    from yisai.services.accounts import set_account_event

    if clear == (event is not None):
        fail(tr("请给出 --event 比赛 或 --clear (二者之一)", "give either --event EVENT or --clear"))
    with command_work(db) as work:
        view = set_account_event(work, login, None if clear else event)
    if view.user.event_id is None:
        say(tr(f"账号 {view.user.login} 不再限定比赛", f"account {view.user.login} is no longer limited to one event"))
    else:
        say(tr(f"账号 {view.user.login} 只能操作 {view.event_name} (#{view.user.event_id})",
               f"account {view.user.login} is limited to {view.event_name} (#{view.user.event_id})"))


@account_app.command("teams")
def teams(
    login: str = typer.Argument(..., help="领队账号名"),
    count: int = typer.Argument(..., help="这个账号最多可登记几支队伍 (默认1)"),
    db: DbOption = None,
) -> None:
    """允许一个领队账号登记多支队伍 (运营决定; 默认每个领队账号一支队)."""
    from yisai.services.accounts import set_max_teams

    with command_work(db) as work:
        view = set_max_teams(work, login, count)
    say(tr(f"领队账号 {view.user.login} 最多可登记{view.user.max_teams}支队伍",
           f"team leader {view.user.login} may register up to {view.user.max_teams} teams"))


def register(app: typer.Typer) -> None:
    app.add_typer(account_app, name="account")
