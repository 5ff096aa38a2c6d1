"""`yisai bench board`: seeded random legal games on 19x19, legal-checked moves per second.

Target (DESIGN.md): at least 100,000 legality-checked moves per second in CPython on this
2-core machine. Each game plays uniformly random points that are not the mover's own
single-point eyes; every candidate goes through the full legality check (occupied, suicide,
ko, positional superko) and only legal ones are played; a side with no candidate passes and
two passes end the game (or 3 x 361 moves). Several runs; the median is the figure to record.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

import typer

from yisai.game.board import BLACK, Board
from yisai.i18n import tr


@dataclass(frozen=True, slots=True)
class RunResult:
    games: int
    moves: int  # legal moves played (passes excluded)
    checks: int  # legality checks made (legal or not)
    seconds: float

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def checks_per_second(self) -> float:
        return self.checks / self.seconds if self.seconds else 0.0


def random_game(
    rng: random.Random, size: int = 19, *, superko: bool = True
) -> tuple[Board, int, int]:
    """Play one seeded random game; return the board, moves played and checks made."""
    board = Board(size, superko=superko)
    color, nbrs = board.color, board.nbrs
    c = BLACK
    passes = moves = checks = 0
    limit = 3 * size * size
    while passes < 2 and board.moves < limit:
        empties = board.empties
        n = len(empties)
        start = rng.randrange(n) if n else 0
        played = False
        for i in range(n):
            p = empties[(start + i) % n]
            for q in nbrs[p]:
                if color[q] != c:
                    break
            else:
                continue  # own single-point eye: a random player never fills it
            checks += 1
            if board.try_play(c, p) == 0:
                played = True
                break
        if played:
            moves += 1
            passes = 0
        else:
            board.pass_move(c)
            passes += 1
        c = 3 - c
    return board, moves, checks


def run(games: int, seed: int, size: int = 19) -> RunResult:
    rng = random.Random(seed)
    moves = checks = 0
    start = time.perf_counter()
    for _ in range(games):
        _, m, k = random_game(rng, size)
        moves += m
        checks += k
    return RunResult(games, moves, checks, time.perf_counter() - start)


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("board")
    def board_bench(
        games: int = typer.Option(200, "--games", min=1, help="每次运行的对局数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        runs: int = typer.Option(5, "--runs", min=1, help="运行次数 (取中位数)"),
        size: int = typer.Option(19, "--size", min=2, max=25, help="棋盘路数"),
    ) -> None:
        """棋盘基准: 随机合法对局, 打印每秒合法性检查着数 (中位数)."""
        typer.echo(
            tr(
                f"棋盘基准: {size}路, 每次 {games} 局, 种子 {seed}, {runs} 次",
                f"board benchmark: {size}x{size}, {games} games per run, seed {seed}, {runs} runs",
            )
        )
        results = []
        for r in range(runs):
            res = run(games, seed, size)  # same seed every run: identical work, timing varies
            results.append(res)
            typer.echo(
                tr(
                    f"第{r + 1}次: {res.moves} 着 / {res.checks} 次检查, {res.seconds:.2f} 秒, "
                    f"{res.moves_per_second:,.0f} 着/秒, {res.checks_per_second:,.0f} 检查/秒",
                    f"run {r + 1}: {res.moves} moves / {res.checks} checks, {res.seconds:.2f} s, "
                    f"{res.moves_per_second:,.0f} moves/s, {res.checks_per_second:,.0f} checks/s",
                )
            )
        mps = statistics.median(r.moves_per_second for r in results)
        cps = statistics.median(r.checks_per_second for r in results)
        verdict = tr("达标", "target met") if mps >= 100_000 else tr("未达标", "BELOW target")
        typer.echo(
            tr(
                f"中位数: {mps:,.0f} 合法着/秒 ({cps:,.0f} 次检查/秒); 目标 100,000: {verdict}",
                f"median: {mps:,.0f} legal-checked moves/s ({cps:,.0f} checks/s); "
                f"target 100,000: {verdict}",
            )
        )
