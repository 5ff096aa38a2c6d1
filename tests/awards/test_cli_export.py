"""`yisai prizes` / `yisai awards` with an injected loader, and the xlsx export read back."""

from __future__ import annotations

from datetime import date

import typer
from openpyxl import load_workbook
from typer.testing import CliRunner

from tests.awards.awardfields import player, results, shanhai, table, team
from yisai.cli import awards as awards_cli


def final_results():
    open_players = [player(f"p{i}", "F" if i == 5 else "M", rank="6段") for i in range(1, 41)]
    open_players[0] = player("p1", rank="8段")
    seniors = [player(f"s{i}", birth=date(1960, 1, 1)) for i in range(1, 11)]
    teams = [team("杭州", ["p1", "p2", "p3", "p5"])]
    return results(
        shanhai(), open_players + seniors,
        [table("open", "mixed", [p.id for p in open_players], [18 - i // 3 for i in range(40)]),
         table("senior", "mixed", [p.id for p in seniors])],
        teams=teams,
    )


def app_with(res):
    app = typer.Typer()
    awards_cli.register(app, loader=lambda event, db: res)
    return app


def test_prizes_command_prints_lists_and_total_and_writes_xlsx(tmp_path):
    out = tmp_path / "prizes.xlsx"
    r = CliRunner().invoke(app_with(final_results()), ["prizes"])
    assert r.exit_code == 0, r.output
    assert "公开组男子个人" in r.output and "奖励汇总" in r.output
    assert "60000" in r.output
    # --xlsx writes the file and says so; the report is not dumped as well.
    r = CliRunner().invoke(app_with(final_results()), ["prizes", "--xlsx", str(out)])
    assert r.exit_code == 0, r.output
    assert "已导出" in r.output and "公开组男子个人" not in r.output
    wb = load_workbook(out)
    assert "奖励汇总" in wb.sheetnames
    ws = wb[wb.sheetnames[[n.startswith("公开组男子个人") for n in wb.sheetnames].index(True)]]
    # the regulation's items (奖牌、荣誉证书、奖金): the money in its column, the honours in 奖励
    assert [c.value for c in ws[2]] == ["名次", "姓名", "单位", "奖金(元)", "奖励", "说明"]
    assert ws["D3"].value == 60000 and ws["B3"].value == "p1" and ws["E3"].value == "奖牌、荣誉证书"
    summary = wb["奖励汇总"]
    last = [c.value for c in summary[summary.max_row - 0]]
    totals = [row for row in summary.iter_rows(values_only=True) if row[0] == "合计"]
    # open 160000 + women's 1st 10000 + senior 5000+2000+1000+5*600+2*400 + 60+ gifts (no cash)
    # + men's team 1st 10000 (one complete team of 3 men)
    assert totals[0][3] == 160000 + 10000 + 11800 + 10000, last


def test_awards_command_shows_passed_down_8_dan_and_writes_xlsx(tmp_path):
    out = tmp_path / "awards.xlsx"
    r = CliRunner().invoke(app_with(final_results()), ["awards"])
    assert r.exit_code == 0, r.output
    assert "已持有业余8段" in r.output
    assert "由第1名顺延" in r.output
    r = CliRunner().invoke(app_with(final_results()), ["awards", "--xlsx", str(out)])
    assert r.exit_code == 0 and "已导出" in r.output, r.output
    wb = load_workbook(out)
    ws = wb["可申报段位名单"]
    rows = list(ws.iter_rows(min_row=3, values_only=True))
    assert rows[0][:3] == ("公开组", 1, "p1") and rows[0][5] == "职业初段"
    assert rows[1][2] == "p2" and rows[1][5] == "业余8段"


def test_bad_xlsx_name_is_an_error_not_a_crash(tmp_path):
    r = CliRunner().invoke(app_with(final_results()), ["awards", "--xlsx", str(tmp_path / "x.csv")])
    assert r.exit_code == 2
    assert "xlsx" in r.output


def test_award_tables_fit_a_100_column_terminal_without_cutting(monkeypatch) -> None:
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "100")
    r = CliRunner().invoke(app_with(final_results()), ["awards"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(cell_len(line) for line in lines) <= 100
    assert "…" not in r.output  # long cells wrap inside their column; nothing is cut
    # A grant's wording is shown once for its group of rows, not repeated on every row.
    assert sum("个人第1名可申报业余8段" in line for line in lines) == 1


def test_awards_command_says_there_is_nothing_to_award_without_rank_awards():
    res = final_results()
    bare = res.regulation.model_copy(update={"rank_awards": [], "promotions": []})
    r = CliRunner().invoke(app_with(results(bare, res.players.values(), res.rankings)), ["awards"])
    assert r.exit_code == 0, r.output
    assert "没有需要申报的段位" in r.output
