"""`yisai db upgrade`: bring a database's schema to this version of the program.

Opening a store never migrates it (several server workers would race); this command does, once,
before the server starts or after the program is updated.
"""

from __future__ import annotations

import typer

from yisai.cli.hints import cli_message
from yisai.cli.session import DbOption, fail, say, settings
from yisai.i18n import tr
from yisai.services.errors import ServiceError

db_app = typer.Typer(help="数据库 (database)", no_args_is_help=True)


@db_app.command("upgrade")
def upgrade_cmd(db: DbOption = None) -> None:
    """把数据库结构升级到本程序的版本 (新数据库则建表)."""
    from yisai.services.maintenance import upgrade

    try:
        before, after = upgrade(settings(db))
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    if before == after:
        say(tr(f"数据库结构已是最新 ({after})", f"schema already up to date ({after})"), "green")
    else:
        say(tr(f"数据库结构已升级: {before or '空'} → {after}", f"schema upgraded: {before or 'empty'} → {after}"), "green")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
