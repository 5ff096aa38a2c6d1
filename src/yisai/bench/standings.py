"""`yisai bench standings`: every Chinese criterion and the full ranking for a large field.

Budget (DESIGN.md): 10,000 players × 9 rounds in under 1 s. The field is synthetic but
realistic: Swiss-like pairings by score, 2 % forfeits, a bye per round when the field is odd,
a few draws; fixed seed so runs are comparable.
"""

from __future__ import annotations

import random
import statistics
import time

import typer

from yisai.record import Game, Result
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules
from yisai.standings import ALL_CRITERIA, StandingsPlayer, compute_table, rank
from yisai.standings.opengotha import OGParameters, compute_og_scores, og_order
from yisai.vocabulary.rank import Rank


def synthetic_event(
    players: int, rounds: int, seed: int
) -> tuple[list[StandingsPlayer], list[Game]]:
    rng = random.Random(seed)
    field = [
        StandingsPlayer(
            id=f"P{i:05d}",
            name=f"选手{i:05d}",
            club=f"队{i % 300:03d}",
            rank=Rank(rng.randint(-15, 7)),
            rating=rng.randint(1200, 2700),
        )
        for i in range(players)
    ]
    strength = {p.id: (p.rating or 0) + rng.gauss(0, 150) for p in field}
    score = dict.fromkeys(strength, 0)
    games: list[Game] = []
    for r in range(1, rounds + 1):
        order = sorted(strength, key=lambda pid: (-score[pid], rng.random()))
        if len(order) % 2:
            bye = order.pop()
            games.append(Game(r, bye, None, Result.BLACK_WINS, played=False))
            score[bye] += 2
        for k in range(0, len(order), 2):
            a, b = order[k], order[k + 1]
            black, white = (a, b) if rng.random() < 0.5 else (b, a)
            played = rng.random() > 0.02
            if rng.random() < 0.01:
                result = Result.DRAW
            else:
                edge = strength[black] - strength[white] + rng.gauss(0, 200)
                result = Result.BLACK_WINS if edge > 0 else Result.WHITE_WINS
            games.append(Game(r, black, white, result, played=played, board=k // 2 + 1))
            if result == Result.DRAW:
                score[black] += 1
                score[white] += 1
            else:
                score[black if result == Result.BLACK_WINS else white] += 2
    return field, games


FULL_LIST = RankingRules(
    criteria=[
        CriterionSpec(criterion=Criterion.SCORE),
        CriterionSpec(criterion=Criterion.TOTAL_SCORE),
        CriterionSpec(criterion=Criterion.DIRECT),
        CriterionSpec(criterion=Criterion.SOS),
        CriterionSpec(criterion=Criterion.SOS_CUT),
        CriterionSpec(criterion=Criterion.CUMULATIVE),
        CriterionSpec(criterion=Criterion.SODOS),
        CriterionSpec(criterion=Criterion.OPP_CUMULATIVE),
        CriterionSpec(criterion=Criterion.SOSOS),
        CriterionSpec(criterion=Criterion.SOS_MINUS1),
        CriterionSpec(criterion=Criterion.SOS_MINUS2),
        CriterionSpec(criterion=Criterion.WINS),
        CriterionSpec(criterion=Criterion.WHITE_WINS),
        CriterionSpec(criterion=Criterion.RANK),
        CriterionSpec(criterion=Criterion.RATING),
    ],
    undefeated_champion=True,
)


def run(players: int, rounds: int, seed: int, repeat: int, opengotha: bool) -> None:
    field, games = synthetic_event(players, rounds, seed)
    typer.echo(
        tr_line(
            f"选手 {players} 人, {rounds} 轮, 对局 {len(games)} 盘 (种子 {seed})",
            f"{players} players, {rounds} rounds, {len(games)} games (seed {seed})",
        )
    )
    specs = list(ALL_CRITERIA)
    table_t, rank_t, total_t, cpu_t = [], [], [], []
    st = None
    for _ in range(repeat):
        c0 = time.process_time()
        t0 = time.perf_counter()
        table = compute_table(field, games, rounds, rules=FULL_LIST, specs=specs)
        t1 = time.perf_counter()
        st = rank(table, FULL_LIST)
        t2 = time.perf_counter()
        cpu_t.append(time.process_time() - c0)
        table_t.append(t1 - t0)
        rank_t.append(t2 - t1)
        total_t.append(t2 - t0)
    assert st is not None
    shared = sum(1 for row in st.rows if row.shared)
    typer.echo(
        tr_line(
            f"  全部{len(specs)}项指标: 中位数 {statistics.median(table_t):.3f} s",
            f"  all {len(specs)} criteria: median {statistics.median(table_t):.3f} s",
        )
    )
    typer.echo(
        tr_line(
            f"  完整排名 (含直胜、全胜者冠军): 中位数 {statistics.median(rank_t):.3f} s",
            f"  full ranking (direct, undefeated champion): median {statistics.median(rank_t):.3f} s",
        )
    )
    typer.echo(
        tr_line(
            f"  合计: 中位数 {statistics.median(total_t):.3f} s, 最好 {min(total_t):.3f} s (目标 < 1 s)",
            f"  total: median {statistics.median(total_t):.3f} s, best {min(total_t):.3f} s (target < 1 s)",
        )
    )
    typer.echo(
        tr_line(
            f"  CPU 时间: 中位数 {statistics.median(cpu_t):.3f} s (机器繁忙时墙钟时间会更长)",
            f"  CPU time: median {statistics.median(cpu_t):.3f} s (wall time grows when the machine is busy)",
        )
    )
    typer.echo(
        tr_line(
            f"  第1名 {st.rows[0].player.name}; 并列名次的选手 {shared} 人",
            f"  first {st.rows[0].player.name}; {shared} players share a place",
        )
    )
    if opengotha:
        t0 = time.perf_counter()
        scores = compute_og_scores(field, games, OGParameters(number_of_rounds=rounds, nbw2_bye=2))
        t1 = time.perf_counter()
        og_order(scores, rounds, ("NBW", "SOSW", "SOSOSW"))
        t2 = time.perf_counter()
        typer.echo(
            tr_line(
                f"  OpenGotha 兼容模式 (每轮全部指标): {t1 - t0:.3f} s, 排名 {t2 - t1:.3f} s",
                f"  OpenGotha mode (all criteria, every round): {t1 - t0:.3f} s, order {t2 - t1:.3f} s",
            )
        )


def tr_line(zh: str, en: str) -> str:
    from yisai.i18n import tr

    return tr(zh, en)


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("standings")
    def standings_bench(
        players: int = typer.Option(10000, "--players", min=2, help="选手人数"),
        rounds: int = typer.Option(9, "--rounds", min=1, max=30, help="轮数"),
        seed: int = typer.Option(1, "--seed", help="随机种子"),
        repeat: int = typer.Option(5, "--repeat", min=1, help="重复次数 (取中位数)"),
        opengotha: bool = typer.Option(False, "--opengotha", help="另测 OpenGotha 兼容模式"),
    ) -> None:
        """成绩计算基准: 全部名次指标 + 完整排名 (目标 1万人×9轮 < 1 秒)."""
        run(players, rounds, seed, repeat, opengotha)
