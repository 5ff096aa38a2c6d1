"""`yisai standings`: formats, criteria names as typed, --explain, errors with exit code 2."""

from __future__ import annotations

import json

import openpyxl
import pytest
import typer
from typer.testing import CliRunner

from yisai.cli import standings as results

runner = CliRunner()


@pytest.fixture
def app() -> typer.Typer:
    a = typer.Typer()

    @a.callback()
    def _root() -> None:
        pass

    results.register(a)
    return a


@pytest.fixture
def simplemm(testdata):
    return str(testdata / "pairgoth" / "opengotha" / "pairings" / "simplemm.xml")


def test_table_in_chinese(app, simplemm):
    r = runner.invoke(app, ["standings", simplemm])
    assert r.exit_code == 0, r.output
    assert "名次" in r.output and "第5轮后成绩" in r.output and "Noguchi" in r.output


def test_csv_header_uses_names_as_given(app, simplemm):
    r = runner.invoke(
        app, ["standings", simplemm, "--criteria", "NBW,SOSW,SOSWM1", "--format", "csv"]
    )
    assert r.exit_code == 0, r.output
    header = r.output.splitlines()[0]
    assert header == "名次,姓名,单位,段位,NBW,SOSW,SOSWM1"


def test_our_names_and_chinese_labels(app, simplemm):
    r = runner.invoke(
        app, ["standings", simplemm, "--criteria", "积分,对手分,direct", "--format", "csv"]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "名次,姓名,单位,段位,积分,对手分"
    # Noguchi won all 5 games: 10 points
    assert lines[1].startswith("1,Noguchi Motoki,38Gr,7段,10,")


def test_json_and_round(app, simplemm):
    r = runner.invoke(app, ["standings", simplemm, "--round", "1", "--format", "json"])
    data = json.loads(r.output)
    assert data["round"] == 1 and data["mode"] == "opengotha"
    first = data["rows"][0]
    assert first["values"]["MMS"] == 34  # OpenGotha's allcrit: MMS_x2 = 68 after round 1


def test_xlsx_has_chinese_headers(app, simplemm, tmp_path):
    out = tmp_path / "s.xlsx"
    r = runner.invoke(app, ["standings", simplemm, "--format", "xlsx", "--output", str(out)])
    assert r.exit_code == 0, r.output
    ws = openpyxl.load_workbook(out).active
    assert [c.value for c in ws[2]][:4] == ["名次", "姓名", "单位", "段位"]


def test_h9_output(app, simplemm, tmp_path):
    out = tmp_path / "s.h9"
    r = runner.invoke(app, ["standings", simplemm, "--format", "h9", "--output", str(out)])
    assert r.exit_code == 0
    assert "   1 Noguchi Motoki                  7D FR 38Gr   38  174  877 0" in out.read_text(
        "iso-8859-15"
    )


def test_explain(app, simplemm):
    r = runner.invoke(app, ["standings", simplemm, "--explain", "Lemoine Theo"])
    assert r.exit_code == 0
    assert "第8名" in r.output and "低于 第7名" in r.output and "高于 第9名" in r.output


def test_division_filter_on_tags(app, simplemm):
    r = runner.invoke(
        app, ["standings", simplemm, "--filter", "registering=FIN", "--format", "csv"]
    )
    assert r.exit_code == 0
    assert len(r.output.splitlines()) == 17
    r = runner.invoke(app, ["standings", simplemm, "--division", "A"])
    assert r.exit_code == 2 and "没有选手符合" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--criteria", "bogus"], "未知的名次指标 'bogus'"),
        (["--round", "9"], "轮次 9 超出范围"),
        (["--explain", "Nobody"], "名单中没有选手"),
        (["--format", "pdf"], "未知格式"),
        (["--criteria", "score,DC"], "DC/SDC 只能与 OpenGotha 指标一起使用"),
    ],
)
def test_errors_exit_2_with_a_chinese_message(app, simplemm, args, message):
    r = runner.invoke(app, ["standings", simplemm, *args])
    assert r.exit_code == 2
    assert message in r.output


def test_missing_source(app, tmp_path):
    r = runner.invoke(app, ["standings", str(tmp_path / "none.xml")])
    assert r.exit_code == 2 and "找不到该文件或赛事" in r.output
