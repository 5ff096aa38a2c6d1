"""升段/定级 (promotion by wins) on the example 段位赛 (regulations/examples/2026-kids-dan-grading.toml).

Each expected grant is read off the 规程 sentence quoted in the file, by hand:
段位组 "7局胜5局（含）以上者升一段，7局全胜者升二段，最高升至业余5段"; 级位组 "胜4局升一级，胜5局
升二级，胜6局（含）以上升三级，最高升至1级; 1级棋手7局胜5局（含）以上者升为业余1段"; 定级组 "5局胜5局
定8级，胜4局定10级，胜3局定12级，其余定15级"; "弃权所得的胜局不计入；缺赛任何一轮者不予升段升级".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.awards.awardfields import player, results
from yisai.awards.promotions import PromotionReport, compute_promotions, count_wins
from yisai.formats.awards_report import promotion_tables, to_lines
from yisai.formats.regulation_file import load
from yisai.record import Game, Result
from yisai.regulation import Regulation

EXAMPLE = Path(__file__).resolve().parents[2] / "regulations" / "examples" / "2026-kids-dan-grading.toml"


@pytest.fixture(scope="module")
def reg() -> Regulation:
    return load(EXAMPLE)


def games(pid: str, rounds: str) -> list[Game]:
    """One letter per round: W win over the board, L loss, F win because the opponent forfeited,
    f his own forfeit, B bye, T win on time (a played game), - no game that round."""
    out = []
    for r, c in enumerate(rounds, start=1):
        opp = f"{pid}-opp{r}"
        if c == "W":
            out.append(Game(r, pid, opp, Result.BLACK_WINS))
        elif c == "T":
            out.append(Game(r, opp, pid, Result.WHITE_WINS, reason="黑超时负"))
        elif c == "L":
            out.append(Game(r, pid, opp, Result.WHITE_WINS))
        elif c == "F":
            out.append(Game(r, opp, pid, Result.WHITE_WINS, played=False))
        elif c == "f":
            out.append(Game(r, pid, opp, Result.WHITE_WINS, played=False))
        elif c == "B":
            out.append(Game(r, pid, None, Result.BLACK_WINS, played=False))
    return out


def run(reg: Regulation, field: dict[str, list[tuple[str, str | None, str]]],
        rounds: dict[str, int] | None = None) -> PromotionReport:
    """``field``: division → [(player id, rank at entry, results by round)]."""
    players = [player(pid, rank=rank) for rows in field.values() for pid, rank, _ in rows]
    all_games = {d: [g for pid, _, res in rows for g in games(pid, res)] for d, rows in field.items()}
    return compute_promotions(results(
        reg, players, [], entrants={d: [pid for pid, _, _ in rows] for d, rows in field.items()},
        games=all_games, rounds=rounds or {d: len(rows[0][2]) for d, rows in field.items()}))


def granted(rep: PromotionReport) -> dict[str, str]:
    return {p.player_id: p.after for _, p in rep.promoted()}


def refused(rep: PromotionReport) -> dict[str, str]:
    return {n.player_id: n.reason for o in rep.rules for n in o.not_promoted}


def test_dan_division_one_step_for_five_wins_two_for_seven_capped_at_5_dan(reg: Regulation) -> None:
    rep = run(reg, {"dan": [
        ("a", "3段", "WWWWWLL"),  # 5 wins → up one: 4段
        ("b", "2段", "WWWWWWW"),  # 7 wins → up two: 4段
        ("c", "4段", "WWWWWWW"),  # 7 wins → up two, but at most 5段
        ("d", "1段", "WWWWLLL"),  # 4 wins: nothing
        ("e", "3段", "WWWWTLL"),  # a win on time is a played win: 5 → 4段
    ]})
    assert granted(rep) == {"a": "4段", "b": "4段", "c": "5段", "e": "4段"}
    assert refused(rep) == {"d": "胜4局, 不足5局"}
    capped = next(p for _, p in rep.promoted() if p.player_id == "c")
    assert capped.note == "最高升至5段" and capped.step == "7局胜7局升二段"


def test_forfeit_wins_byes_and_absences_as_the_regulation_says(reg: Regulation) -> None:
    rep = run(reg, {"dan": [
        ("fw", "2段", "WWWWFLL"),  # 4 wins over the board + 1 forfeit win: forfeit not counted
        ("by", "2段", "WWWWBLL"),  # 4 wins + a bye: the bye is no win, but no absence either
        ("ab", "1段", "WWW-WWW"),  # 6 wins but no game in round 4: 缺赛
        ("of", "1段", "WfWWWWW"),  # 6 wins but forfeited round 2 himself
    ]})
    assert granted(rep) == {}
    reasons = refused(rep)
    assert reasons["fw"] == "胜4局, 不足5局（对方弃权胜1局不计入）"
    assert reasons["by"] == "胜4局, 不足5局（轮空1次不计入）"
    assert reasons["ab"] == "未参加全部轮次 (第4轮缺席或弃权)"
    assert reasons["of"] == "未参加全部轮次 (第2轮缺席或弃权)"


def test_settings_change_the_count(reg: Regulation) -> None:
    rule = reg.promotions[0]
    lenient = rule.model_copy(update={"forfeit_wins_count": True, "byes_count": True,
                                      "must_play_all_rounds": False})
    reg2 = reg.model_copy(update={"promotions": [lenient]})
    rep = run(reg2, {"dan": [
        ("fw", "2段", "WWWWFLL"),  # 4 + forfeit win = 5 → 3段
        ("by", "2段", "WWWWBLL"),  # 4 + bye = 5 → 3段
        ("ab", "1段", "WWW-WWL"),  # 5 wins, absence allowed → 2段
    ]})
    assert granted(rep) == {"fw": "3段", "by": "3段", "ab": "2段"}
    notes = {p.player_id: p.note for _, p in rep.promoted()}
    assert notes["fw"] == "含对方弃权胜1局" and notes["by"] == "含轮空1次"


def test_kyu_division_steps_cap_and_the_1_kyu_rule(reg: Regulation) -> None:
    rep = run(reg, {"kyu": [
        ("k7", "7级", "WWWWLLL"),  # 4 wins → up one: 6级
        ("k8", "8级", "WWWWWLL"),  # 5 wins → up two: 6级
        ("k5", "5级", "WWWWWWL"),  # 6 wins → up three: 2级
        ("k3", "3级", "WWWWWWL"),  # 6 wins → up three = 1段, but at most 1级
        ("k1", "1级", "WWWWWLL"),  # the 1级 rule: 5 wins → 1段
        ("k1b", "1级", "WWWWLLL"),  # 4 wins: the 1级 rule needs 5
    ]})
    assert granted(rep) == {"k7": "6级", "k8": "6级", "k5": "2级", "k3": "1级", "k1": "1段"}
    assert refused(rep) == {"k1b": "胜4局, 不足5局"}


def test_grading_unranked_players_only(reg: Regulation) -> None:
    rep = run(reg, {"grading": [
        ("g5", None, "WWWWW"),  # 5 of 5 → 8级
        ("g4", None, "WWWWL"),  # 4 → 10级
        ("g3", None, "WLWLW"),  # 3 → 12级
        ("g0", None, "LLLLL"),  # 其余 → 15级
        ("gr", "5级", "WWWWW"),  # already ranked: the grading rule is for unranked players only
    ]})
    assert granted(rep) == {"g5": "8级", "g4": "10级", "g3": "12级", "g0": "15级"}
    assert "gr" not in refused(rep)


def test_a_rule_for_7_games_does_not_apply_to_6_rounds(reg: Regulation) -> None:
    rep = run(reg, {"dan": [("a", "3段", "WWWWWW")]}, rounds={"dan": 6})
    dan = next(o for o in rep.rules if o.division == "dan")
    assert not dan.applies and dan.reason == "规程写7局, 本组别实际进行6轮, 本条不适用"
    assert granted(rep) == {}


def test_count_wins_and_unentered_results(reg: Regulation) -> None:
    rule = reg.promotions[0]
    wc = count_wins("p", games("p", "WFBLf-W"), 7, rule)
    assert (wc.wins, wc.played_wins, wc.forfeit_wins, wc.bye_wins) == (2, 2, 1, 1)
    assert wc.absent_rounds == (5, 6)
    pending = [*games("q", "WWWWWW"), Game(7, "q", "x", Result.UNKNOWN)]
    rep = compute_promotions(results(reg, [player("q", rank="2段")], [], entrants={"dan": ["q"]},
                                     games={"dan": pending}, rounds={"dan": 7}))
    assert refused(rep) == {"q": "第7轮成绩未录入"}


def test_report_tables_list_grants_and_reasons(reg: Regulation) -> None:
    rep = run(reg, {"dan": [("a", "3段", "WWWWWLL"), ("d", "1段", "WWWWLLL")]})
    lines = to_lines(promotion_tables(rep, {"a": player("a", rank="3段"), "d": player("d", rank="1段")}))
    text = "\n".join(lines)
    assert "【升段/定级名单】" in text and "段位组  a    3段  5  4段  7局胜5局升一段" in text
    assert "d  1段  4  未授予  胜4局, 不足5局" in text
