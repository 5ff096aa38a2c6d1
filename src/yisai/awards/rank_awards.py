"""段位申报/授予: who may apply for which rank, and why others above the limit were passed over.

Reading of the regulation's data (``yisai.regulation.rank_awards``):

* Preconditions count the division's entrants holding at least ``min_rank`` (or all entrants);
  every condition of a grant must hold.
* ``tier_group``: the grants of a group are tiers (分档); the first grant whose conditions hold
  picks the tier, and every grant of the group with exactly those conditions applies with it.
  Grants without a group apply whenever their conditions hold.
* 顺延: a grant for places a–b gives b−a+1 awards, walking the ranking from place a; a player who
  is not eligible is skipped and the award passes to the next one, never below ``extend_to``
  (without ``extend_to`` never below b). Not eligible: a professional (``amateurs_only``), a
  newly professional player (``exclude_new_pros``), someone already holding that rank or higher
  (``skip_if_already_holding``), or someone who already received an equal or higher rank in
  this event (he applies for the higher one; the lower one passes on).
* ``places_among_amateurs``: places are counted among the eligible-status players only, so a
  new professional in 2nd place makes the 3rd player the amateurs' 2nd (seed 000 十三(二)3).
* A professional grant (职业初段, ``alternative_to`` 8段) goes to the actual place-holder: the
  amateurs-only renumbering concerns amateur ranks only; a professional already is one.

Grants are processed in the file's order, so write higher ranks first (as both seeds do).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yisai.awards.inputs import EventResults
from yisai.i18n import tr
from yisai.registry.person import Player, ProStatus
from yisai.regulation.rank_awards import CountCondition, Grant, RankAwardRule
from yisai.regulation.wording import grant_text
from yisai.standings.teams import RankedPlayer
from yisai.vocabulary.rank import Rank


@dataclass(frozen=True, slots=True)
class ConditionCheck:
    text: str
    count: int
    satisfied: bool


@dataclass(frozen=True, slots=True)
class Recipient:
    player_id: str
    name: str
    place: int  # place in the ranking list
    counted_place: int  # place as the grant counts it (among amateurs when the rule says so)
    slot_place: int  # the place this award was written for
    rank: str  # 业余7段 / 职业初段
    professional: bool = False
    alternative_to: str | None = None
    note: str = ""

    @property
    def passed_down(self) -> bool:
        return self.counted_place != self.slot_place


@dataclass(frozen=True, slots=True)
class Skip:
    player_id: str
    name: str
    place: int
    counted_place: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class GrantOutcome:
    grant: Grant
    label: str
    conditions: tuple[ConditionCheck, ...]
    applies: bool
    reason: str = ""  # why it does not apply
    recipients: tuple[Recipient, ...] = ()
    skipped: tuple[Skip, ...] = ()
    vacant: int = 0


@dataclass(frozen=True, slots=True)
class RuleOutcome:
    division: str
    division_name: str
    ranking: str
    entrants: int
    grants: tuple[GrantOutcome, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Applicant:
    """One player and what he may apply for (alternatives joined by 或)."""

    player_id: str
    name: str
    division: str
    division_name: str
    place: int
    options: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def text(self) -> str:
        return tr("或", " or ").join(self.options)


@dataclass(frozen=True, slots=True)
class RankAwardReport:
    rules: tuple[RuleOutcome, ...]

    def applicants(self) -> list[Applicant]:
        by_player: dict[tuple[str, str], list[Recipient]] = defaultdict(list)
        names = {rule.division: rule.division_name for rule in self.rules}
        order = {rule.division: k for k, rule in enumerate(self.rules)}  # the regulation's order
        for rule in self.rules:
            for g in rule.grants:
                for r in g.recipients:
                    by_player[(rule.division, r.player_id)].append(r)
        out = []
        for (division, pid), recs in by_player.items():
            recs = sorted(recs, key=lambda r: r.professional)
            out.append(
                Applicant(
                    player_id=pid,
                    name=recs[0].name,
                    division=division,
                    division_name=names[division],
                    place=recs[0].place,
                    options=tuple(r.rank for r in recs),
                    notes=tuple(r.note for r in recs if r.note),
                )
            )
        return sorted(out, key=lambda a: (order[a.division], a.place))


# ---------------------------------------------------------------------------------------------


def rank_label(grant: Grant) -> str:
    if grant.professional:
        return grant.rank
    return tr(f"业余{_amateur_rank(grant)}", f"amateur {_amateur_rank(grant).short}")


def _amateur_rank(grant: Grant) -> Rank:
    try:
        return Rank.parse(grant.rank)
    except ValueError as exc:
        raise ValueError(tr(
            f"段位授予 {grant.rank!r}: 业余段位应写作如 7段; 职业段位须设 professional = true",
            f"rank grant {grant.rank!r}: write an amateur rank like 7段; a professional rank needs "
            "professional = true")) from exc


def grant_label(grant: Grant) -> str:
    return grant_text(grant)


def condition_check(cond: CountCondition, entrants: Sequence[Player]) -> ConditionCheck:
    if cond.min_rank is None:
        count = len(entrants)
        subject = "参赛棋手"
    else:
        count = sum(1 for p in entrants if p.rank is not None and p.rank >= cond.min_rank)
        subject = f"参赛{cond.min_rank}（含）以上棋手"
    ok = (cond.at_least is None or count >= cond.at_least) and (
        cond.below is None or count < cond.below
    )
    bounds = []
    if cond.at_least is not None:
        bounds.append(f"达到{cond.at_least}人")
    if cond.below is not None:
        bounds.append(f"不足{cond.below}人")
    text = f"{subject}{count}人（须{'且'.join(bounds)}）"
    return ConditionCheck(text=text, count=count, satisfied=ok)


def compute_rank_awards(results: EventResults) -> RankAwardReport:
    reg = results.regulation
    tables = results.ranking_tables()
    granted: dict[str, Rank] = {}
    outcomes = []
    for rule in reg.rank_awards:
        division = reg.division(rule.division)
        entrant_ids = results.division_entrants(rule.division)
        entrants = [results.players[pid] for pid in entrant_ids if pid in results.players]
        table = tables.get((rule.division, rule.ranking))
        if table is None:  # the division did not take place (or has no results yet)
            outcomes.append(
                RuleOutcome(rule.division, division.name, rule.ranking, len(entrants), (),
                            tr("无成绩", "no results"))
            )
            continue
        outcomes.append(
            RuleOutcome(
                division=rule.division,
                division_name=division.name,
                ranking=rule.ranking,
                entrants=len(entrants),
                grants=tuple(_apply_rule(rule, entrants, table.rows, results.players, granted)),
            )
        )
    return RankAwardReport(rules=tuple(outcomes))


def _apply_rule(
    rule: RankAwardRule,
    entrants: Sequence[Player],
    rows: Sequence[RankedPlayer],
    players: Mapping[str, Player],
    granted: dict[str, Rank],
) -> list[GrantOutcome]:
    checks = [tuple(condition_check(c, entrants) for c in g.when) for g in rule.grants]
    satisfied = [all(c.satisfied for c in cs) for cs in checks]
    chosen: dict[str, int] = {}  # tier_group -> index of the grant whose conditions picked it
    for i, g in enumerate(rule.grants):
        if g.tier_group is not None and satisfied[i] and g.tier_group not in chosen:
            chosen[g.tier_group] = i
    out = []
    for i, g in enumerate(rule.grants):
        label = grant_label(g)
        if not satisfied[i]:
            out.append(
                GrantOutcome(g, label, checks[i], False, tr("条件未满足", "conditions not met"))
            )
            continue
        if g.tier_group is not None:
            pick = rule.grants[chosen[g.tier_group]]
            if pick.when != g.when:
                out.append(
                    GrantOutcome(
                        g, label, checks[i], False,
                        tr(f"同档次已适用更高一档：{grant_label(pick)}", "a higher tier applies"),
                    )
                )
                continue
        recipients, skipped, vacant = _walk(rule, g, rows, players, granted)
        out.append(GrantOutcome(g, label, checks[i], True, "", recipients, skipped, vacant))
    return out


def _status_reason(p: Player, rule: RankAwardRule, grant: Grant) -> str | None:
    """Why a player's status keeps him out of this grant's ranking, or None."""
    if grant.professional:
        if p.pro_status is not ProStatus.AMATEUR:
            return tr(f"已是职业棋手（{p.pro_status.label}）", "already professional")
        return None
    if p.pro_status is ProStatus.PRO and rule.amateurs_only:
        return tr("职业棋手，业余段位的名次和顺延仅限业余棋手", "professional: amateur ranks only")
    if p.pro_status is ProStatus.NEW_PRO and rule.exclude_new_pros:
        return tr(
            "当年新定段的职业棋手，不计入业余段位的名次和顺延",
            "newly professional this year: excluded from amateur rank awards",
        )
    return None


def _walk(
    rule: RankAwardRule,
    grant: Grant,
    rows: Sequence[RankedPlayer],
    players: Mapping[str, Player],
    granted: dict[str, Rank],
) -> tuple[tuple[Recipient, ...], tuple[Skip, ...], int]:
    slots = grant.place_to - grant.place_from + 1
    limit = grant.extend_to if grant.extend_to is not None else grant.place_to
    among_amateurs = rule.places_among_amateurs and not grant.professional
    target = None if grant.professional else _amateur_rank(grant)
    label = rank_label(grant)

    # Places as the grant counts them: overall, or renumbered among eligible-status players.
    statuses = [
        _status_reason(players[r.player_id], rule, grant) if r.player_id in players else "未登记"
        for r in rows
    ]
    counted: list[int | None] = []
    n_in, prev_place, cur = 0, None, 0
    for r, excl in zip(rows, statuses, strict=True):
        if among_amateurs and excl is not None:
            counted.append(None)
            continue
        n_in += 1
        if r.place != prev_place:
            cur, prev_place = (n_in if among_amateurs else r.place), r.place
        counted.append(cur)

    recipients: list[Recipient] = []
    skipped: list[Skip] = []
    seen_in = 0  # eligible-status players passed so far (for the window of excluded ones)
    for r, excl, cp in zip(rows, statuses, counted, strict=True):
        if len(recipients) == slots:
            break
        p = players.get(r.player_id)
        name = p.name if p is not None else r.player_id
        if cp is None:  # left out of the amateurs' count: report it when inside the window
            if seen_in >= grant.place_from - 1:
                skipped.append(Skip(r.player_id, name, r.place, None, excl or ""))
            continue
        seen_in += 1
        if cp < grant.place_from:
            continue
        if cp > limit:
            break
        reason = excl
        if reason is None and p is not None and target is not None:
            if rule.skip_if_already_holding and p.rank is not None and p.rank >= target:
                reason = tr(f"已持有业余{p.rank}（不低于{target}）", f"already holds {p.rank.short}")
            elif r.player_id in granted and granted[r.player_id] >= target:
                reason = tr(
                    f"已获本次业余{granted[r.player_id]}申报资格",
                    f"already granted {granted[r.player_id].short} here",
                )
        if reason is not None:
            skipped.append(Skip(r.player_id, name, r.place, cp, reason))
            continue
        slot = grant.place_from + len(recipients)
        notes = []
        if cp != slot:
            notes.append(tr(f"由第{slot}名顺延", f"passed down from place {slot}"))
        if among_amateurs and cp != r.place:
            notes.append(tr(f"业余棋手中第{cp}名", f"{cp} among amateurs"))
        if grant.alternative_to:
            notes.append(tr(f"与业余{grant.alternative_to}二选一", f"or amateur {grant.alternative_to}"))
        if grant.note:
            notes.append(grant.note)
        recipients.append(
            Recipient(
                player_id=r.player_id,
                name=name,
                place=r.place,
                counted_place=cp,
                slot_place=slot,
                rank=label,
                professional=grant.professional,
                alternative_to=grant.alternative_to,
                note="；".join(notes),
            )
        )
        if target is not None and (r.player_id not in granted or granted[r.player_id] < target):
            granted[r.player_id] = target
    return tuple(recipients), tuple(skipped), slots - len(recipients)
