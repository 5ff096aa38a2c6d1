"""The fee ledger (issue 46) without a payment provider: what is due from the regulation, the
director's manual 已缴费 as a ledger payment, refunds refused with the regulation's sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import APPEAL, ENTRY, TEAM
from yisai.services import appeals, approvals, fees, withdrawal
from yisai.services.context import open_context
from yisai.services.errors import Refused
from yisai.services.identity import Action
from yisai.services.rounds import pair
from yisai.store import audit_rows, entry_rows


def test_the_ledger_shows_what_the_regulation_charges_and_the_manual_mark(tmp_path: Path) -> None:
    with open_context(str(tmp_path / "f.sqlite"), actor="裁判长", now=NOW) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            ledger = fees.fee_ledger(w, str(event.id))
            entries, teams = ledger.of(ENTRY), ledger.of(TEAM)
            assert [t.due for t in teams] == [60_000, 60_000]
            # 12 players × 260元 = 3120元 = 312000 分; 2 teams × 600元 = 1200元 = 120000 分
            assert len(entries) == 12 and {ln.due for ln in entries} == {26_000}
            assert ledger.totals_of(ENTRY).due == 312_000 and ledger.totals_of(TEAM).due == 120_000
            assert ledger.totals.paid == 0 and ledger.totals.balance == 432_000
            first = entries[0].id
            approvals.set_fee_paid(w, first, True, "现金")
        with ctx.work() as w:
            ledger = fees.fee_ledger(w, str(event.id))
            line = next(ln for ln in ledger.of(ENTRY) if ln.id == first)
            assert (line.paid, line.balance) == (26_000, 0)
            assert entry_rows.get_entry(w.session, first).fee_paid
            (payment,) = ledger.payments
            assert (payment.channel, payment.amount_fen, payment.recorded_by) == ("manual", 26_000, "裁判长")
            assert [a.action for a in audit_rows.audit_log(w.session, event.id, "fee")] == ["fee_paid"]
            approvals.set_fee_paid(w, first, True)  # ticked again: nothing more is owed, nothing added
            assert len(fees.fee_ledger(w, str(event.id)).payments) == 1
            approvals.set_fee_paid(w, first, False, "误登记")
        with ctx.work() as w:
            ledger = fees.fee_ledger(w, str(event.id))
            assert next(ln for ln in ledger.of(ENTRY) if ln.id == first).paid == 0
            assert not entry_rows.get_entry(w.session, first).fee_paid
            assert ledger.payments[0].cancelled_at is not None  # kept, marked: nothing is lost
            assert [a.action for a in audit_rows.audit_log(w.session, event.id, "fee")] == ["fee_paid", "fee_cancelled"]


def test_refunds_the_regulation_does_not_allow_are_refused_with_its_sentence(tmp_path: Path) -> None:
    with open_context(str(tmp_path / "f.sqlite"), actor="裁判长", now=NOW) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            entry = fees.fee_ledger(w, str(event.id)).of(ENTRY)[0].id
            approvals.set_fee_paid(w, entry, True)
            withdrawal.withdraw_entry(w, entry, "无故未到")  # a no-show
        with pytest.raises(Refused) as info, ctx.work() as w:
            fees.refund_fee(w, str(event.id), ENTRY, entry, None, "退赛退款")
        assert info.value.code == "refund_not_allowed"
        assert "报名后无故不参加比赛者，赛事服务费不予退还" in info.value.render("zh")
        with ctx.work() as w:
            pair(w, event.id, "jia", 1)
            filed = appeals.file_appeal(w, str(event.id), "jia", 1, appellant="辽宁队", subject="异议")
            assert fees.subject_line(w, event, APPEAL, filed.id).due == 100_000  # 申诉费1000元 = 100000 分
            appeals.decide_appeal(w, str(event.id), filed.id, upheld=False, decision="驳回")
        with pytest.raises(Refused) as info, ctx.work() as w:
            fees.refund_fee(w, str(event.id), APPEAL, filed.id, None, "退还申诉费", action=Action.APPEAL)
        assert "胜诉退还，败诉则不予退还" in info.value.render("zh")
