"""The README's "从空数据库开始 / From an empty database" walkthrough, run as written, on today's
date: every ```bash line of that section through bash (``set -e``), the commands as typed, with
the two team rosters the text imports. After seed 002's deadline (2025-04-18) the teams come in
only as the chief referee's late admission, and the entry list says so."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from tests.conftest import REGULATIONS, ROOT
from tests.formats.roster_files import write_xlsx, xqw_rows
from yisai.formats.regulation_file import load

README = ROOT / "README.md"


def _walkthrough() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## 从空数据库开始"):text.index("## 规程文件")]
    return "\n".join(re.findall(r"```bash\n(.*?)```", section, re.S))


def _jiangsu() -> list[list[object]]:
    rows = []
    for i, row in enumerate(xqw_rows(), start=1):
        born = datetime.strptime(str(row[3]), "%Y-%m-%d")
        rows.append([i, f"苏{row[1]}", row[2], row[3], _id("320102", born, i, str(row[2])), row[5],
                     f"JS{2024000 + i}", "江苏省", "南京", "南京市实验小学", f"1390000{i:04d}", row[11],
                     "江苏队", "钱领队", "孙教练"])
    return rows


def _id(prefix: str, born: datetime, seq: int, gender: str) -> str:
    body = f"{prefix}{born:%Y%m%d}{seq:02d}{1 if gender == '男' else 2}"
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11]


def test_the_walkthrough_runs_as_written_today(tmp_path: Path) -> None:
    script = _walkthrough()
    assert "yisai team import 浙江队.xlsx" in script and "yisai standings" in script
    write_xlsx(tmp_path / "浙江队.xlsx", xqw_rows())
    write_xlsx(tmp_path / "江苏队.xlsx", _jiangsu())
    (tmp_path / "regulations").symlink_to(REGULATIONS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("YISAI_")}
    env.update(PYTHONPATH=str(ROOT / "src"), YISAI_RESIDENT="0", COLUMNS="200")
    prelude = f'set -euo pipefail\nyisai() {{ "{sys.executable}" -m yisai.cli.app "$@"; }}\n'
    done = subprocess.run(["bash", "-c", prelude + script + "\nyisai entry list\n"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for pdf in ("对阵表.pdf", "成绩表.pdf", "获奖名单.pdf", "证书.pdf", "秩序册.pdf"):
        assert (tmp_path / pdf).read_bytes()[:5] == b"%PDF-"
    deadline = load(REGULATIONS / "2025-xiaoqiwang.toml").teams
    assert deadline is not None and deadline.registration_to is not None
    if datetime.now() > deadline.registration_to:  # today: the teams were admitted late, and it shows
        assert done.stdout.count("逾期报名 (裁判长批准: 截止后补报经裁判长同意)") >= 12
        assert "逾期报名 (裁判长批准: 张一诺因病退出递补)" in done.stdout  # the incoming player, late too
    # the substitution: 许诺 sits in 浙江队's 乙组女 seat and 张一诺's entry is withdrawn for it
    assert "递补: 由许诺接替 (张一诺因病退出)" in done.stdout


def test_the_walkthrough_says_first_where_its_regulation_file_lives() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## 从空数据库开始"):text.index("## 规程文件")]
    before_first_command = section[:section.index("```bash")]
    assert "regulations/2025-xiaoqiwang.toml" in before_first_command
    assert "仓库" in before_first_command and "完整路径" in before_first_command
