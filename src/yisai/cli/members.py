"""`yisai member import|show`: the member register "须为本协会注册会员" checks entries against."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from yisai.cli.session import DbOption, EventOption, command_work, fail, say
from yisai.i18n import Text, tr

member_app = typer.Typer(help="会员名单: 导入与查看 (member register for 须为注册会员)", no_args_is_help=True)


@member_app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="名单文件 (.csv/.txt, 每行 姓名 或 姓名,身份证号)")],
    note: Annotated[str, typer.Option("--note", help="说明 (记入审计)")] = "",
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """导入会员名单 (替换此前导入的), 并重新核对待审报名."""
    from yisai.services.members import import_members

    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(Text(f"无法读取名单文件 {file}: {exc.strerror}", f"cannot read {file}: {exc.strerror}").render(), code=2)
    with command_work(db) as work:
        done = import_members(work, event, data, file.name, note)
    say(tr(f"已导入“{done.register}”名单 {done.members} 人; {done.rechecked} 条待审报名的资格原因已更新",
           f"imported the register “{done.register}”: {done.members} members; {done.rechecked} pending entries "
           "rechecked"))


@member_app.command("show")
def show_cmd(event: EventOption = None, db: DbOption = None) -> None:
    """已导入的会员名单人数."""
    from yisai.services.members import member_count

    with command_work(db) as work:
        n = member_count(work, event)
    say(tr("尚未导入会员名单", "no register imported") if n is None else tr(f"会员名单 {n} 人", f"{n} members"))


def register(app: typer.Typer) -> None:
    app.add_typer(member_app, name="member")
