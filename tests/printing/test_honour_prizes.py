"""Honours without money (奖杯、证书) in `yisai prizes` and the 获奖名单 PDF, and "税前" only
where some prize is money.

The 段位赛 规程 (regulations/examples/2026-kids-dan-grading.toml) says 各组录取前8名，颁发奖杯和
证书 (不足16人只录取前6名) and 段位组前三名另奖励图书卡. Two variants of its prize section:
* honours only (the cards dropped, ``pre_tax = true`` kept from the default): every awarded
  line shows 奖杯、证书, no money column, and nothing says 税前;
* 段位组 "前8名颁发奖杯证书, 前3名奖金500、300、200元" as one cash list: places 1–3 show their
  money and the honours, places 4–8 (a row without an amount) the honours with an empty amount
  (not 0 元), and the amounts are called pre-tax.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.awards.awardfields import player, results, table
from tests.conftest import REGULATIONS
from tests.printing.conftest import page_images, pdftotext
from yisai.awards.prizes import compute_prizes
from yisai.cli.app import app
from yisai.formats.awards_report import prize_summary, prize_table
from yisai.regulation.loader import loads

DAN = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")
CARDS = DAN[DAN.index("[[prizes.lists]]\nid = \"dan-cards\""):DAN.index("[[prizes.lists]]\nid = \"dan\"\n")]
HEAD = 'pre_tax = false\nvalue_note = "图书卡（规程未注明税前或税后）"\ntied_places = "share"\n'


def honours_only() -> str:
    text = DAN.replace(CARDS, "").replace(HEAD, "").replace('cumulative_with = ["dan-cards"]\n', "")
    assert "dan-cards" not in text
    return text


def money_and_honours() -> str:
    text = honours_only().replace('''kind = "honour"
items = ["奖杯", "证书"]
by_entrants = [{ below = 16, places = 6 }]
''', '''kind = "cash"
items = ["奖杯", "证书"]
rows = [{ from = 1, to = 1, amount = 500 }, { from = 2, to = 2, amount = 300 }, { from = 3, to = 3, amount = 200 },
        { from = 4, to = 8 }]
''', 1)
    assert 'amount = 500' in text
    return text


def _report(text: str):  # type: ignore[no-untyped-def]
    reg = loads(text, "dan.toml")
    ids = [f"d{i}" for i in range(1, 21)]  # 20 entrants: not fewer than 16, all 8 places awarded
    players = [player(p) for p in ids]
    return compute_prizes(results(reg, players, [table("dan", "all", ids)])), {p.id: p for p in players}


def test_honours_only_show_the_honours_and_no_tax_note() -> None:
    report, players = _report(honours_only())
    t = prize_table(report.list("dan"), players)
    assert t.headers == ("名次", "姓名", "单位", "奖励", "说明")
    assert [r[0] for r in t.rows] == list(range(1, 9)) and {r[3] for r in t.rows} == {"奖杯、证书"}
    summary = prize_summary(report)
    assert not any("税前" in n or "金额" in n for n in summary.notes)
    assert summary.rows[0][1] == "奖杯、证书" and summary.rows[0][3] is None
    assert summary.rows[-1][3] is None  # no money: no 0 元 total either


def test_money_for_the_top_three_and_honours_for_all_eight() -> None:
    report, players = _report(money_and_honours())
    t = prize_table(report.list("dan"), players)
    assert t.headers == ("名次", "姓名", "单位", "奖金(元)", "奖励", "说明")
    assert [(r[0], r[3], r[4]) for r in t.rows] == [
        (1, 500, "奖杯、证书"), (2, 300, "奖杯、证书"), (3, 200, "奖杯、证书"),
        *[(k, None, "奖杯、证书") for k in range(4, 9)]]
    assert report.total == 1000
    assert "以上金额均为税前（元）" in prize_summary(report).notes


def _pdf(tmp: Path, text: str, name: str) -> str:
    reg = tmp / f"{name}.toml"
    reg.write_text(text, "utf-8")
    db = tmp / f"{name}.sqlite"
    runner = CliRunner()
    r = runner.invoke(app, ["demo", "--scale", "0.3", "--boards", "1", "--db", str(db), "--regulation", str(reg)])
    assert r.exit_code == 0, r.output
    pdf = tmp / f"{name}.pdf"
    r = runner.invoke(app, ["print", "prizes", "--db", str(db), "-o", str(pdf)])
    assert r.exit_code == 0, r.output
    data = pdf.read_bytes()
    page_images(data, f"honour-{name}", pages=1)
    return pdftotext(data)


def test_the_prize_pdf_prints_honours_and_says_pre_tax_only_with_money(tmp_path: Path) -> None:
    txt = _pdf(tmp_path, honours_only(), "honours")
    assert "奖杯、证书" in txt and "以下均为荣誉奖励" in txt and "税前" not in txt
    txt = _pdf(tmp_path, money_and_honours(), "money")
    assert "奖杯、证书" in txt and "以下金额均为税前" in txt and "500" in txt
