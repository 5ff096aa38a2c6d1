"""升段/定级: who is promoted (or graded) by the wins of this event, and why others are not.

Reading of the regulation's data (``yisai.regulation.promotions``):

* A rule covers the entrants of its division whose rank at entry lies in ``min_rank``..``max_rank``
  (``ranked``) or who have none (``unranked``).
* Wins are the games won over the board; a win because the opponent forfeited counts only with
  ``forfeit_wins_count``, a bye only with ``byes_count``. A loss on time is a played game.
* ``must_play_all_rounds``: a player absent from a round — no game in it, or his own forfeit
  (弃权, 双方弃权) — is not promoted, whatever his wins. The rounds are those every player of
  the division is meant to play (a same-place final played by some only is not required).
* ``withdrawn_excluded`` (default): a player who withdrew (退赛) or was disqualified is not
  granted, however many games he won — apart from ``must_play_all_rounds``, so a regulation can
  refuse 中途退赛 yet accept a single forfeited round.
* The step with the most wins reached is the grant: ``promote`` ranks up from the rank at entry
  (1级 → 1段 is one step), never above ``highest``; ``rank`` grades to that rank. A grant that
  is not above the rank held is no promotion and is listed with the reason.
* ``rounds``: the rule is for an event of that many games ("7局胜5局"); if the division played
  another number of rounds the rule does not apply, and says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from yisai.awards.inputs import EventResults
from yisai.i18n import tr
from yisai.record import Game, Result
from yisai.registry.person import Player
from yisai.regulation.promotions import PromotionRule, PromotionStep
from yisai.regulation.wording import promotion_step_text, promotion_text
from yisai.vocabulary.rank import MAX_DAN, Rank


@dataclass(frozen=True, slots=True)
class WinCount:
    """What one player's games of the division amount to for promotion."""

    wins: int  # wins that count under the rule
    played_wins: int  # wins over the board
    forfeit_wins: int  # wins because the opponent forfeited
    bye_wins: int  # byes
    absent_rounds: tuple[int, ...]  # rounds without a game of his, or his own forfeit
    missing_results: tuple[int, ...]  # rounds whose result is not entered yet


@dataclass(frozen=True, slots=True)
class Promotion:
    player_id: str
    name: str
    before: str  # rank at entry, "" if none
    after: str  # rank granted
    wins: int
    step: str  # the sentence that applied (7局胜5局升一段)
    note: str = ""


@dataclass(frozen=True, slots=True)
class NotPromoted:
    player_id: str
    name: str
    before: str
    wins: int
    reason: str


@dataclass(frozen=True, slots=True)
class PromotionOutcome:
    rule: PromotionRule
    label: str
    division: str
    division_name: str
    rounds: int
    applies: bool
    reason: str = ""
    promoted: tuple[Promotion, ...] = ()
    not_promoted: tuple[NotPromoted, ...] = ()


@dataclass(frozen=True, slots=True)
class PromotionReport:
    rules: tuple[PromotionOutcome, ...]

    def promoted(self) -> list[tuple[PromotionOutcome, Promotion]]:
        return [(o, p) for o in self.rules for p in o.promoted]


def count_wins(player_id: str, games: Sequence[Game], rounds: int, rule: PromotionRule) -> WinCount:
    """The player's wins as the rule counts them, his absences and unentered results."""
    played = forfeit = bye = 0
    absent: list[int] = []
    missing: list[int] = []
    by_round: dict[int, list[Game]] = defaultdict(list)
    for g in games:
        if g.black == player_id or g.white == player_id:
            by_round[g.round].append(g)
    for r in range(1, rounds + 1):
        if not by_round.get(r):
            absent.append(r)
    for r, own in sorted(by_round.items()):
        for g in own:
            outcome = g.outcome_for(player_id)
            if g.is_bye:
                if g.result == Result.BOTH_LOSE:
                    absent.append(r)
                elif outcome == "W":
                    bye += 1
                continue
            if outcome == "?":
                missing.append(r)
            elif not g.played:
                if outcome == "W" and g.result != Result.BOTH_LOSE:
                    forfeit += 1
                elif outcome == "L":
                    absent.append(r)  # his own forfeit (or both forfeited)
            elif outcome == "W":
                played += 1
    wins = played + (forfeit if rule.forfeit_wins_count else 0) + (bye if rule.byes_count else 0)
    return WinCount(wins, played, forfeit, bye, tuple(sorted(set(absent))), tuple(missing))


def _covers(rule: PromotionRule, p: Player) -> bool:
    if p.rank is None:
        return rule.unranked
    if not rule.ranked:
        return False
    if rule.min_rank is not None and p.rank < rule.min_rank:
        return False
    return rule.max_rank is None or p.rank <= rule.max_rank


def _granted(rule: PromotionRule, step: PromotionStep, before: Rank | None) -> Rank | None:
    if step.rank is not None:
        return step.rank
    if before is None or step.promote is None:
        return None
    top = Rank.dan(MAX_DAN).value
    if rule.highest is not None:
        top = min(top, rule.highest.value)
    return Rank(min(before.value + step.promote, top))


def compute_promotions(results: EventResults) -> PromotionReport:
    reg = results.regulation
    outcomes = []
    for rule in reg.promotions:
        division = reg.division(rule.division)
        label = promotion_text(rule)
        rounds = results.rounds.get(rule.division, 0)
        games = results.games.get(rule.division, ())
        if rounds == 0 or not games:
            outcomes.append(PromotionOutcome(rule, label, rule.division, division.name, rounds, False,
                                             tr("无成绩", "no results")))
            continue
        if rule.rounds is not None and rounds != rule.rounds:
            outcomes.append(PromotionOutcome(
                rule, label, rule.division, division.name, rounds, False,
                tr(f"规程写{rule.rounds}局, 本组别实际进行{rounds}轮, 本条不适用",
                   f"the rule is for {rule.rounds} games; the division played {rounds} rounds")))
            continue
        promoted: list[Promotion] = []
        refused: list[NotPromoted] = []
        steps = sorted(rule.steps, key=lambda s: -s.wins)
        left = results.left.get(rule.division, {})
        for pid in [*results.division_entrants(rule.division), *left]:
            p = results.players.get(pid)
            if p is None or not _covers(rule, p):
                continue
            before = str(p.rank) if p.rank is not None else ""
            wc = count_wins(pid, games, rounds, rule)
            if pid in left and rule.withdrawn_excluded:
                what = (tr("中途退赛", "withdrew during the event") if left[pid] == "withdrawn"
                        else tr("被取消资格", "disqualified"))
                refused.append(NotPromoted(pid, p.name, before, wc.wins, what + tr(", 不予授予", ": not granted")))
                continue
            if wc.missing_results:
                refused.append(NotPromoted(pid, p.name, before, wc.wins, tr(
                    f"第{'、'.join(map(str, wc.missing_results))}轮成绩未录入",
                    f"result of round(s) {', '.join(map(str, wc.missing_results))} not entered")))
                continue
            if rule.must_play_all_rounds and wc.absent_rounds:
                refused.append(NotPromoted(pid, p.name, before, wc.wins, tr(
                    f"未参加全部轮次 (第{'、'.join(map(str, wc.absent_rounds))}轮缺席或弃权)",
                    f"did not play every round (absent or forfeited in round(s) "
                    f"{', '.join(map(str, wc.absent_rounds))})")))
                continue
            step = next((s for s in steps if wc.wins >= s.wins), None)
            if step is None:
                refused.append(NotPromoted(pid, p.name, before, wc.wins, tr(
                    f"胜{wc.wins}局, 不足{steps[-1].wins}局", f"{wc.wins} wins, fewer than {steps[-1].wins}")
                    + _not_counted(rule, wc)))
                continue
            after = _granted(rule, step, p.rank)
            if after is None or (p.rank is not None and after <= p.rank):
                held = str(p.rank) if p.rank is not None else ""
                refused.append(NotPromoted(pid, p.name, before, wc.wins, tr(
                    f"已持有{held}, 不低于可授予的{after}", f"already holds {held}, not below {after}")
                    if after is not None else tr("无段级位可升", "no rank to step up from")))
                continue
            notes = []
            if rule.highest is not None and step.promote is not None and p.rank is not None \
                    and p.rank.value + step.promote > rule.highest.value:
                notes.append(tr(f"最高升至{rule.highest}", f"capped at {rule.highest.short}"))
            if wc.forfeit_wins and rule.forfeit_wins_count:
                notes.append(tr(f"含对方弃权胜{wc.forfeit_wins}局", f"incl. {wc.forfeit_wins} forfeit win(s)"))
            if wc.bye_wins and rule.byes_count:
                notes.append(tr(f"含轮空{wc.bye_wins}次", f"incl. {wc.bye_wins} bye(s)"))
            promoted.append(Promotion(pid, p.name, before, str(after), wc.wins,
                                      promotion_step_text(rule, step), "；".join(notes)))
        outcomes.append(PromotionOutcome(rule, label, rule.division, division.name, rounds, True, "",
                                         tuple(promoted), tuple(refused)))
    return PromotionReport(tuple(outcomes))


def _not_counted(rule: PromotionRule, wc: WinCount) -> str:
    parts = []
    if wc.forfeit_wins and not rule.forfeit_wins_count:
        parts.append(tr(f"对方弃权胜{wc.forfeit_wins}局不计入", f"{wc.forfeit_wins} forfeit win(s) not counted"))
    if wc.bye_wins and not rule.byes_count:
        parts.append(tr(f"轮空{wc.bye_wins}次不计入", f"{wc.bye_wins} bye(s) not counted"))
    return (tr("（", " (") + tr("，", ", ").join(parts) + tr("）", ")")) if parts else ""

