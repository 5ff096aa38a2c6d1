"""What every store-backed command shares: ``--db``/``--event`` options, one transaction, errors.

A command body runs inside ``command_work``; any ``ServiceError`` rolls the transaction back,
prints the Chinese message and every detail line, and exits with the error's code (2 bad input,
1 refused by the regulation), so nothing is ever half-saved.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import click
import typer

from yisai.cli.hints import cli_message
from yisai.i18n import language, tr

if TYPE_CHECKING:  # the store is imported only when a command runs, never for --help
    from rich.console import Console

    from yisai.services.context import Context, Work
    from yisai.services.settings import Settings

class _LazyConsole:
    """rich's Console, made on first use: a plain line (a result entered) is printed without
    loading rich, which costs a referee start-up time on every result."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._real: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._real is None:
            from rich.console import Console

            self._real = Console(stderr=self._stderr, highlight=False)
        return getattr(self._real, name)

    def reset(self) -> None:
        """Forget the console, so the next use reads the terminal (COLUMNS) anew: each command
        normally runs in a process of its own, a test process runs many."""
        self._real = None


console = _LazyConsole()
err_console = _LazyConsole(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="YISAI_DB",
        help="数据库文件路径或地址 (默认 ./yisai.sqlite; 也可用 postgresql+psycopg://... )",
    ),
]
EventOption = Annotated[
    str | None,
    typer.Option("--event", "-e", envvar="YISAI_EVENT", help="比赛编号或名称 (库中只有一个比赛时可省略)"),
]


def say(text: str, style: str | None = None) -> None:
    if style is None:
        click.echo(text)  # plain text needs no rich
    else:
        console.print(text, style=style, markup=False, soft_wrap=True)


def fail(message: str, details: list[str] | None = None, code: int = 2) -> NoReturn:
    err_console.print(message, style="bold red", markup=False, soft_wrap=True)
    for line in details or []:
        err_console.print(f"  {line}", markup=False, soft_wrap=True)  # one problem per line: FILE:ROW:COLUMN stays greppable
    raise typer.Exit(code)


_overrides: dict[str, str | None] = {}


def set_identity(actor: str | None, role: str | None, db: str | None = None) -> None:
    """The root options ``--actor``/``--role`` (who the audit names for this run) and ``--db``
    (``yisai --db X entry list``: the root's ``--db`` wins over the environment)."""
    _overrides.update(actor=actor, role=role, db=db)


def settings(db: str | None = None, *, may_create: bool = True) -> Settings:
    """This run's settings: options first, then the environment (read here, at the entry point).
    ``may_create=False``: a SQLite file that is not there is an error, not a new empty store."""
    from dataclasses import replace

    from yisai.services.errors import ServiceError
    from yisai.services.settings import settings_from_environment

    try:
        chosen = settings_from_environment(
            os.environ, database=_overrides.get("db") or db, language=language(),
            actor=_overrides.get("actor"), role=_overrides.get("role"),
        )
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    return chosen if may_create else replace(chosen, must_exist=True)


@contextmanager
def command_context(db: str | None, *, may_create: bool = False, payments: bool = False) -> Iterator[Context]:
    """The store opened for a command, errors become a message and an exit code. A command that
    writes in more than one transaction uses it directly (a refund: decided and committed, then
    sent to the provider with no transaction open); ``command_work`` is the one-transaction case.
    ``may_create``: a command that starts a database (event create/list, account add/list) creates
    a missing SQLite file. ``payments``: the payment merchants configured in the environment are
    offered (a refund goes back through the provider it was paid with)."""
    from dataclasses import replace

    from yisai.services.context import open_context
    from yisai.services.errors import ServiceError, StoreFailed

    try:
        chosen = settings(db, may_create=may_create)
        if payments:
            from yisai.services.payments.registry import providers_from_environment

            chosen = replace(chosen, payments=providers_from_environment(os.environ))
        with open_context(chosen) as ctx:
            yield ctx
    except ServiceError as exc:
        fail(cli_message(exc), exc.render_details(), exc.exit_code)
    except StoreFailed as exc:
        fail(tr(f"数据库错误, 本次操作未保存: {exc.kind}: {exc.detail}",
                f"database error, nothing saved: {exc.full}"), code=exc.exit_code)  # fmt: skip


@contextmanager
def command_work(db: str | None, *, may_create: bool = False, payments: bool = False) -> Iterator[Work]:
    """One command = one transaction (``command_context``, its errors and options)."""
    with command_context(db, may_create=may_create, payments=payments) as ctx, ctx.work() as work:
        if work.actor.role.value == "team_leader":  # imported only then: argon2 is slow to load
            from yisai.services.accounts import bind_cli_leader

            bind_cli_leader(work)  # --role team_leader --actor LOGIN: that account's own team
        yield work
