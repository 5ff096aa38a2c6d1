"""`yisai fees list|export|mark-paid|refund`: the fee ledger (docs/fees.md) at the command line,
with the console's role checks (the services make them: officials see the ledger, the chief
referee marks fees paid and refunds)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from yisai.cli.render import write_file
from yisai.cli.session import (
    DbOption,
    EventOption,
    command_context,
    command_work,
    console,
    fail,
    say,
)
from yisai.i18n import tr

fees_app = typer.Typer(help="费用台账: 列表、导出、登记已缴费、退款 (fee ledger)", no_args_is_help=True)


@fees_app.command("list")
def list_cmd(event: EventOption = None, db: DbOption = None) -> None:
    """每项费用的应缴、已缴、已退与未缴 (元), 以及合计."""
    from yisai.formats.fees_export import cells, headers, total_cells
    from yisai.services.fees import official_ledger

    with command_work(db) as work:
        ledger = official_ledger(work, event)
    table = Table(*headers(), title=tr(f"{ledger.event.name} — 费用", f"{ledger.event.name} — fees"))
    for line in ledger.lines:
        table.add_row(*cells(line))
    table.add_row(*total_cells(ledger.totals), style="bold")
    console.print(table)


@fees_app.command("export")
def export_cmd(
    out: Annotated[Path, typer.Argument(help="输出文件 (.xlsx 或 .csv)")],
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """把费用台账导出为 Excel (.xlsx) 或 CSV (UTF-8, Excel 可直接打开)."""
    from yisai.formats import fees_export
    from yisai.services.fees import official_ledger

    suffix = out.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        fail(tr(f"文件须以 .xlsx 或 .csv 结尾: {out}", f"the file must end in .xlsx or .csv: {out}"))
    with command_work(db) as work:
        ledger = official_ledger(work, event)
    data = (fees_export.to_csv(ledger.lines, ledger.totals).encode("utf-8-sig") if suffix == ".csv"
            else fees_export.to_xlsx(ledger.event.name, ledger.lines, ledger.totals))
    write_file(out, data)


@fees_app.command("mark-paid")
def mark_paid_cmd(
    entry_id: Annotated[str, typer.Argument(help="报名编号 (yisai entry list 所列的 #编号)")],
    unpaid: Annotated[bool, typer.Option("--unpaid", help="撤销线下登记的缴费 (标为未缴费)")] = False,
    note: Annotated[str, typer.Option("--note", help="说明 (如 现场缴纳现金, 记入审计)")] = "",
    db: DbOption = None,
) -> None:
    """线下收费: 把一条报名记为已缴费 (台账中一笔「线下登记」的付款), 或撤销."""
    from yisai.registry.ledger import ENTRY
    from yisai.services import approvals, fees
    from yisai.vocabulary.money import yuan_text

    with command_work(db) as work:
        entry = approvals.set_fee_paid(work, entry_id.lstrip("#"), not unpaid, note)
        event = fees.event_of_entry(work, entry.id)
        paid = fees.subject_line(work, event, ENTRY, int(entry.id)).paid
    say(tr(f"报名 #{entry.id}: {'已缴费' if entry.fee_paid else '未缴费'} (已缴 {yuan_text(paid)} 元)",
           f"entry #{entry.id}: {'paid' if entry.fee_paid else 'not paid'} ({yuan_text(paid)} yuan paid)"), "green")


@fees_app.command("refund")
def refund_cmd(
    kind: Annotated[str, typer.Argument(help="类别: entry (报名)、team (参赛队) 或 appeal (申诉)")],
    subject_id: Annotated[int, typer.Argument(help="编号 (yisai fees list 的「编号」列)")],
    reason: Annotated[str, typer.Option("--reason", help="退款理由 (必填, 记入审计)")],
    yuan: Annotated[str, typer.Option("--yuan", help="退款金额 (元, 最多两位小数); 不填则退还全部可退金额")] = "",
    absent: Annotated[bool, typer.Option("--absent", help="该棋手无故未参赛 (规程不予退还时将被拒绝)")] = False,
    event: EventOption = None,
    db: DbOption = None,
) -> None:
    """退款: 线上支付的原路退回 (须配置支付商户), 线下缴纳的记为已线下退还; 规程不允许时拒绝并引用规程原文."""
    from yisai.registry.ledger import KINDS
    from yisai.services import fees
    from yisai.services.payments import refunds

    if kind not in KINDS:
        fail(tr(f"类别应为 entry、team 或 appeal: {kind}", f"the kind is entry, team or appeal: {kind}"))
    with command_context(db, payments=True) as ctx:
        with ctx.work() as work:  # the decision, committed with its refunds "requested"
            work.require(fees.refund_action(kind))
            made = fees.refund_fee(work, event, kind, subject_id, fees.amount_fen(yuan), reason, absent=absent,
                                   action=fees.refund_action(kind))
            event_id = str(made[0].event_id) if made else event
        # then each provider is asked, with no transaction open
        now = {r.id: r for r in refunds.send_requested_refunds(ctx, None, event_id, [r.id for r in made])}
    made = [now.get(r.id, r) for r in made]
    failed = any(r.status == refunds.FAILED for r in made)
    say(refunds.summary(made).render() + tr(f" ({len(made)} 笔)", f" ({len(made)} refunds)"), "red" if failed else "green")
    if failed:  # recorded, but the provider refused: a script sees it
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(fees_app, name="fees")
