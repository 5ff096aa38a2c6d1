"""Entry point: assembles the sub-commands, each defined in its own module."""

from __future__ import annotations

import typer

from yisai.cli import (
    awards,
    bench,
    demo,
    entries,
    events,
    pairing,
    qualifier,
    regulation,
    results,
    serve,
    sgf,
)
from yisai.i18n import set_language

app = typer.Typer(
    name="yisai",
    help="弈赛 — 按中国围棋协会竞赛规程组织围棋比赛 (run Go competitions by CWA regulations)",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root(
    lang: str = typer.Option("zh", "--lang", envvar="YISAI_LANG", help="zh (默认) 或 en"),
) -> None:
    set_language(lang)


for module in (regulation, events, entries, pairing, results, awards, qualifier, sgf, bench, demo, serve):
    module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
