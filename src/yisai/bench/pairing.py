"""`yisai bench pairing`: a whole seeded Swiss, timing each round's pairing and its quality.

Targets (DESIGN.md, this 2-core machine): under 2 s per round at 2,000 players and under 15 s
at 10,000, with zero rematches. ``--check`` also solves every round as one maximum-weight
matching over all allowed pairs (the complete graph, rustworkx, exact integer weights) and
compares the two pairings' cost totals level by level. docs/BENCHMARKS.md records the figures.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import typer

from yisai.bench.simulate import play_round, synthetic_field
from yisai.i18n import tr
from yisai.pairing import RoundPairing, pair_round, round_quality
from yisai.pairing.graph import BYE, complete_matching, solve
from yisai.pairing.swiss import Problem, prepare_round
from yisai.pairing.weights import LEVELS, lexicographic_totals
from yisai.record import Game

CHECK_LIMIT = 2500  # the complete graph of larger fields does not fit in memory here


@dataclass(slots=True)
class CheckTally:
    """Per level: rounds where the engine's total equals / is below / is above the reference's
    (below = better: costs are minimised), and the first differing level of each round."""

    equal: list[int] = field(default_factory=lambda: [0] * len(LEVELS))
    better: list[int] = field(default_factory=lambda: [0] * len(LEVELS))
    worse: list[int] = field(default_factory=lambda: [0] * len(LEVELS))
    identical: int = 0  # rounds equal on every level
    same_boards: int = 0  # rounds with the very same pairs (the tie rule decided the rest)
    lex_worse: int = 0  # rounds where the reference is lexicographically better
    rounds: int = 0

    def add(self, engine: tuple[int, ...], reference: tuple[int, ...]) -> None:
        self.rounds += 1
        for i, (a, b) in enumerate(zip(engine, reference, strict=True)):
            if a == b:
                self.equal[i] += 1
            elif a < b:
                self.better[i] += 1
            else:
                self.worse[i] += 1
        self.identical += engine == reference
        self.lex_worse += engine > reference


def engine_totals(pairing: RoundPairing, prob: Problem) -> tuple[int, ...]:
    """Cost totals of a finished pairing, recomputed from its boards and byes."""
    idx = {n.pid: n.idx for n in prob.layout.nodes}
    pairs = [(idx[b.black], idx[b.white]) for b in pairing.boards
             if b.black in idx and b.white in idx]
    if BYE in idx:
        pairs += [(idx[y.player], idx[BYE]) for y in pairing.byes if y.player in idx]
    if not pairs:
        return tuple([0] * len(LEVELS))
    a = np.array(pairs, dtype=np.int64)
    vectors = prob.table.vectors(a.min(axis=1), a.max(axis=1))
    return lexicographic_totals(vectors.tolist())


def engine_pairs(pairing: RoundPairing) -> set[frozenset[str]]:
    """The round's pairs (the bye as a pair with BYE), colours aside."""
    out = {frozenset((b.black, b.white)) for b in pairing.boards}
    return out | {frozenset((y.player, BYE)) for y in pairing.byes}


def run(players: int, rounds: int, seed: int, echo: Callable[[str], object] = typer.echo,
        check: bool = False, unsegmented: bool = False) -> list[float]:
    """Pair and simulate ``rounds`` rounds of ``players``; print one line per round."""
    entrants = synthetic_field(players, seed)
    by_id = {p.id: p for p in entrants}
    games: list[Game] = []
    times: list[float] = []
    tally = CheckTally()
    if check and players > CHECK_LIMIT:
        echo(tr(f"人数超过{CHECK_LIMIT}, 全图对照内存不足, 不做对照",
                f"more than {CHECK_LIMIT} players: the complete graph does not fit, no check"))
        check = False
    echo(tr(f"积分编排基准: {players} 人, {rounds} 轮, 种子 {seed}",
            f"pairing benchmark: {players} players, {rounds} rounds, seed {seed}"))
    head = tr("轮次  编排秒数  重复对局  |黑-白|>1  连续三同色  浮动对数  最长浮动(分)  已证级数",
              "round  seconds  rematches  |B-W|>1  three-in-row  floaters  longest float  proven")
    if check:
        head += tr("  全图秒数  与全图对照", "  complete s  v complete graph")
    if unsegmented:
        head += tr("  不分段秒数  不分段已证  与不分段对照", "  unsegmented s  proven  v unsegmented")
    echo(head)
    for r in range(1, rounds + 1):
        start = time.process_time()
        pairing = pair_round(entrants, games, r, seed=seed)
        elapsed = time.process_time() - start
        times.append(elapsed)
        q = round_quality(pairing, games)
        line = (f"{r:>4}  {elapsed:>8.2f}  {q.rematches:>8}  {q.colour_imbalanced:>9}  "
                f"{q.three_in_a_row:>10}  {q.floaters:>8}  {q.longest_float:>12}  "
                f"{pairing.stats.get('levels', 0):>6}/{len(LEVELS)}")
        if check and r > 1:
            prob = prepare_round(entrants, games, r, seed=seed)
            t0 = time.process_time()
            done: list[float] = []
            ref, ref_levels = complete_matching(prob.layout, prob.table, settle=True,
                                                matched=partial(_clock, done))
            ref_time = done[0] - t0  # the matching alone: the tie rule's settling is not timed
            mine = engine_totals(pairing, prob)
            theirs = lexicographic_totals(ref.vectors)
            same = engine_pairs(pairing) >= {frozenset((u.pid, v.pid)) for u, v in ref.pairs}
            if ref_levels == len(LEVELS):
                tally.add(mine, theirs)
                tally.same_boards += same
            verdict = _verdict(mine, theirs, ref_levels)
            if mine == theirs:
                verdict += tr(", 对局全同" if same else ", 对局不同", ", same pairs" if same
                              else ", other pairs")
            line += f"  {ref_time:>8.2f}  {verdict}"
        if unsegmented and r > 1:
            prob = prepare_round(entrants, games, r, seed=seed)
            t0 = time.process_time()
            whole = solve(prob.layout, prob.table, segmented=False)
            whole_time = time.process_time() - t0
            mine = engine_totals(pairing, prob)
            line += (f"  {whole_time:>8.2f}  {whole.levels:>6}/{len(LEVELS)}  "
                     f"{_verdict(mine, lexicographic_totals(whole.vectors), len(LEVELS))}")
        echo(line)
        games += play_round(pairing, by_id, seed)
    echo(tr(f"中位数 {statistics.median(times):.2f} 秒/轮(CPU), 最长 {max(times):.2f} 秒",
            f"median {statistics.median(times):.2f} s/round (CPU), max {max(times):.2f} s"))
    if check and tally.rounds:
        echo(tr(f"与全图最优对照({tally.rounds}轮): 各级全同 {tally.identical} 轮, "
                f"全图字典序更优 {tally.lex_worse} 轮, 对局全同 {tally.same_boards} 轮",
                f"against the complete-graph optimum ({tally.rounds} rounds): identical on every "
                f"level {tally.identical}, reference lexicographically better {tally.lex_worse}, "
                f"the same pairs {tally.same_boards}"))
        echo(tr("级别        相同  更优  更差", "level      equal better worse"))
        for i, name in enumerate(LEVELS):
            echo(f"{name:<10} {tally.equal[i]:>5} {tally.better[i]:>5} {tally.worse[i]:>5}")
    return times


def _clock(into: list[float]) -> None:
    into.append(time.process_time())


def _verdict(mine: tuple[int, ...], theirs: tuple[int, ...], ref_levels: int) -> str:
    if ref_levels < len(LEVELS):
        return tr(f"全图权重只容纳{ref_levels}级, 不作比较",
                  f"reference weights hold only {ref_levels} levels: not compared")
    if mine == theirs:
        return tr("各级相同", "equal on every level")
    first = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b)
    word = tr("更优", "better") if mine[first] < theirs[first] else tr("更差", "worse")
    return f"{LEVELS[first]}: {mine[first]} v {theirs[first]} ({word})"


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("pairing")
    def pairing_bench(
        players: int = typer.Option(2000, "--players", min=2, help="参赛人数"),
        rounds: int = typer.Option(9, "--rounds", min=1, help="轮数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        check: bool = typer.Option(False, "--check",
                                   help="逐轮与全图最大权匹配对照(各优先级: 相同/更优/更差)"),
        unsegmented: bool = typer.Option(False, "--unsegmented",
                                         help="逐轮与不分段(整块一次匹配)的结果对照"),
    ) -> None:
        """积分编排基准: 模拟整个积分编排赛, 逐轮打印编排用时与质量指标."""
        if rounds >= players:
            typer.echo(tr(f"轮数({rounds})必须小于人数({players})",
                          f"rounds ({rounds}) must be fewer than players ({players})"), err=True)
            raise typer.Exit(2)
        run(players, rounds, seed, check=check, unsegmented=unsegmented)
