"""`yisai bench print`: the standings PDF (成绩表) of a large field, end to end after the games.

Budget (issue 12): a 2,000-player standings PDF in under 10 s. The field is the synthetic
Swiss-like event of ``yisai bench standings`` (fixed seed); the work measured is what
``yisai print standings`` does after reading the store: compute the standings, word the table
(``formats.printing.tables.standings_table``, the function the print service uses) and typeset
it with typst. Two criteria lists: the seed 000 regulation's (积分 对手分 累进分 胜对手分, with
直胜) and every Chinese criterion (16 columns, the widest table a regulation can ask for).
"""

from __future__ import annotations

import statistics
import time

import typer

from yisai.bench.standings import FULL_LIST, synthetic_event
from yisai.i18n import tr
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules
from yisai.standings import ALL_CRITERIA, compute_table, rank

SEED_000 = RankingRules(
    criteria=[
        CriterionSpec(criterion=Criterion.SCORE),
        CriterionSpec(criterion=Criterion.SOS),
        CriterionSpec(criterion=Criterion.CUMULATIVE),
        CriterionSpec(criterion=Criterion.SODOS),
        CriterionSpec(criterion=Criterion.DIRECT),
    ],
)


def run(players: int, rounds: int, seed: int, repeat: int) -> None:
    from yisai.formats.printing import Document, Section, render_pdf  # lazily: `yisai --help`
    from yisai.formats.printing.render import _fonts
    from yisai.formats.printing.tables import standings_table

    field, games = synthetic_event(players, rounds, seed)
    typer.echo(tr(f"选手 {players} 人, {rounds} 轮, 对局 {len(games)} 盘 (种子 {seed})",
                  f"{players} players, {rounds} rounds, {len(games)} games (seed {seed})"))
    for label, rules in ((tr("规程指标 (种子000)", "seed 000 criteria"), SEED_000),
                         (tr("全部16项指标", "all 16 criteria"), FULL_LIST)):
        specs = [c for c in ALL_CRITERIA if c.criterion in {s.criterion for s in rules.criteria}]
        times: dict[str, list[float]] = {"standings": [], "table": [], "typst": [], "total": [],
                                         "cpu": []}
        pages = size = 0
        _fonts.cache_clear()  # the first run indexes the fonts, as a fresh `yisai print` does
        for _ in range(repeat):
            c0, t0 = time.process_time(), time.perf_counter()
            st = rank(compute_table(field, games, rounds, rules=rules, specs=specs), rules)
            t1 = time.perf_counter()
            table = standings_table(f"第{rounds}轮后成绩", st)
            doc = Document(template="report", kind="成绩表", event="基准测试赛事", title="成绩表",
                           printed_at="2025-01-01 00:00", landscape=len(table.columns) > 9,
                           sections=(Section(tables=(table,)),), signatures=("裁判长", "日期"))
            t2 = time.perf_counter()
            pdf = render_pdf(doc)
            t3 = time.perf_counter()
            times["cpu"].append(time.process_time() - c0)
            for k, v in (("standings", t1 - t0), ("table", t2 - t1), ("typst", t3 - t2),
                         ("total", t3 - t0)):
                times[k].append(v)
            pages, size = pdf.count(b"/Type /Page\n") or pdf.count(b"/Type/Page"), len(pdf)
        first = {k: v[0] for k, v in times.items()}
        typer.echo(f"  {label}: {len(table.columns)} " + tr("列", "columns"))
        typer.echo(tr(
            f"    首次 (含字体索引): 成绩计算 {first['standings']:.2f} s, 制表 {first['table']:.2f} s, "
            f"排版 {first['typst']:.2f} s, 合计 {first['total']:.2f} s (目标 < 10 s), CPU {first['cpu']:.2f} s",
            f"    first run (fonts indexed): standings {first['standings']:.2f} s, table {first['table']:.2f} s, "
            f"typst {first['typst']:.2f} s, total {first['total']:.2f} s (target < 10 s), CPU {first['cpu']:.2f} s",
        ))
        if repeat > 1:
            warm = statistics.median(times["total"][1:])
            typer.echo(tr(f"    再次 (同一进程, typst 缓存): 合计中位数 {warm:.2f} s",
                          f"    again (same process, typst caches warm): total median {warm:.2f} s"))
        typer.echo(tr(f"    PDF {size // 1024} KB" + (f", {pages} 页" if pages else ""),
                      f"    PDF {size // 1024} KB" + (f", {pages} pages" if pages else "")))


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("print")
    def print_bench(
        players: int = typer.Option(2000, "--players", min=2, help="选手人数"),
        rounds: int = typer.Option(9, "--rounds", min=1, max=30, help="轮数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        repeat: int = typer.Option(3, "--repeat", min=1, help="重复次数 (取中位数)"),
    ) -> None:
        """打印基准: 2000人成绩表 PDF (成绩计算 + 制表 + typst 排版, 目标 < 10 秒)."""
        run(players, rounds, seed, repeat)
