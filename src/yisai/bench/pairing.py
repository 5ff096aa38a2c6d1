"""`yisai bench pairing`: a whole seeded Swiss, timing each round's pairing and its quality.

Targets (DESIGN.md, this 2-core machine): under 2 s per round at 2,000 players and under 15 s
at 10,000, with zero rematches. docs/BENCHMARKS.md records the figures.
"""

from __future__ import annotations

import statistics
import time

import typer

from yisai.i18n import tr
from yisai.pairing import pair_round, play_round, round_quality, synthetic_field
from yisai.record import Game


def run(players: int, rounds: int, seed: int, echo=typer.echo) -> list[float]:
    """Pair and simulate ``rounds`` rounds of ``players``; print one line per round."""
    field = synthetic_field(players, seed)
    by_id = {p.id: p for p in field}
    games: list[Game] = []
    times: list[float] = []
    echo(tr(f"积分编排基准: {players} 人, {rounds} 轮, 种子 {seed}",
            f"pairing benchmark: {players} players, {rounds} rounds, seed {seed}"))
    echo(tr("轮次  编排秒数  重复对局  |黑-白|>1  连续三同色  浮动对数  最长浮动(分)",
            "round  seconds  rematches  |B-W|>1  three-in-row  floaters  longest float"))
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = pair_round(field, games, r, seed=seed)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        q = round_quality(pairing, games)
        echo(f"{r:>4}  {elapsed:>8.2f}  {q.rematches:>8}  {q.colour_imbalanced:>9}  "
             f"{q.three_in_a_row:>10}  {q.floaters:>8}  {q.longest_float:>12}")
        games += play_round(pairing, by_id, seed)
    echo(tr(f"中位数 {statistics.median(times):.2f} 秒/轮, 最长 {max(times):.2f} 秒",
            f"median {statistics.median(times):.2f} s/round, max {max(times):.2f} s"))
    return times


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("pairing")
    def pairing_bench(
        players: int = typer.Option(2000, "--players", min=2, help="参赛人数"),
        rounds: int = typer.Option(9, "--rounds", min=1, help="轮数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
    ) -> None:
        """积分编排基准: 模拟整个积分编排赛, 逐轮打印编排用时与质量指标."""
        if rounds >= players:
            typer.echo(tr(f"轮数({rounds})必须小于人数({players})",
                          f"rounds ({rounds}) must be fewer than players ({players})"), err=True)
            raise typer.Exit(2)
        run(players, rounds, seed)
