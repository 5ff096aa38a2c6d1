"""`yisai db upgrade`: bring a database's schema to this version of the program;
`yisai db backup` / `yisai db restore`: the whole store and its uploaded files, as one archive.

Opening a store never migrates it (several server workers would race); this command does, once,
before the server starts or after the program is updated.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

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


FilesOption = Annotated[Path | None, typer.Option("--files", envvar="YISAI_FILES",
                                                  help="附件存放目录 (默认: 数据库文件旁的 *.files 目录)")]


@db_app.command("backup")
def backup_cmd(
    folder: Path = typer.Option(..., "--to", "-o", help="备份存放目录 (每次一个 yisai-backup-时间.tar.gz)"),
    keep: int = typer.Option(14, "--keep", min=1, max=10000, help="目录中保留最新的N份, 更早的删除"),
    db: DbOption = None,
    files: FilesOption = None,
) -> None:
    """备份数据库与报名附件 (服务器运行中也可以备份; SQLite 用在线备份, PostgreSQL 用 pg_dump)."""
    from yisai.services.maintenance import backup

    chosen = settings(db)
    if files is not None:
        chosen = replace(chosen, files_dir=files)
    try:
        archive, manifest, removed = backup(chosen, folder, keep)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    counts = ", ".join(f"{k} {v}" for k, v in manifest.counts.items())
    say(tr(f"已备份: {archive} (结构版本 {manifest.schema}; {counts}; 附件 {manifest.files} 个)",
           f"backed up: {archive} (schema {manifest.schema}; {counts}; {manifest.files} files)"), "green")
    for old in removed:
        say(tr(f"已删除较早的备份: {old.name}", f"removed an older backup: {old.name}"))


@db_app.command("restore")
def restore_cmd(
    archive: Path = typer.Argument(..., help="yisai db backup 写出的 .tar.gz 文件"),
    db: DbOption = None,
    files: FilesOption = None,
) -> None:
    """把备份恢复到一个空数据库 (并升级到本程序的结构版本)."""
    from yisai.services.maintenance import restore

    chosen = replace(settings(db), auto_upgrade=False)
    if files is not None:
        chosen = replace(chosen, files_dir=files)
    try:
        manifest = restore(chosen, archive)
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    say(tr(f"已恢复 {archive.name} (备份时间 {manifest.created}, 结构版本 {manifest.schema})",
           f"restored {archive.name} (taken {manifest.created}, schema {manifest.schema})"), "green")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
