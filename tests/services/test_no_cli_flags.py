"""No message a service (or the core, the store, the web) words may name a command-line option
or command:
what the user can do next is a ``Hint`` kind, and each front end words it its own way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from yisai.cli.hints import HINTS as CLI_HINTS
from yisai.cli.hints import cli_message
from yisai.services.errors import Hint, Refused
from yisai.web.hints import HINTS as WEB_HINTS
from yisai.web.hints import web_message

SRC = Path(__file__).resolve().parents[2] / "src" / "yisai"
# a long option, a short one standing alone (" -d "), or a command to type ("yisai team list")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*|(?:^|\s)-[a-zA-Z](?:\s|$)|\byisai [a-z]+ [a-z]+")
# the command line itself, benchmarks (their own command options and subprocess argv) and the
# front ends' hint words for the command line
NOT_SCANNED = ("cli/", "bench/", "live/bench.py")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _flagged_strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                and FLAG.search(node.value)):
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return found


def test_no_message_outside_the_cli_names_a_flag() -> None:
    files = [p for p in SRC.rglob("*.py") if not str(p.relative_to(SRC)).startswith(NOT_SCANNED)]
    assert len(files) > 100  # the scan really covers the services, core, store and web
    found = [hit for p in files for hit in _flagged_strings(p)]
    assert found == []


def test_the_scan_would_catch_a_flag(tmp_path: Path) -> None:
    bad = tmp_path / "probe.py"
    bad.write_text('"""Docstrings may say --note."""\nx = Text("须用 --note 写明理由", f"needs a --note {1}")\n'
                   'y = "可用 yisai team list 查看"\nz = f"yisai event rounds -d {1}"\nok = "E-mail 2-d array"\n',
                   encoding="utf-8")
    assert len(_flagged_strings(bad)) == 4


def test_every_hint_is_worded_by_both_front_ends_and_the_web_never_names_a_flag() -> None:
    assert set(CLI_HINTS) == {h.value for h in Hint}
    assert set(WEB_HINTS) == set(Hint)
    for text in WEB_HINTS.values():
        assert not FLAG.search(text.zh) and not FLAG.search(text.en)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_one_refusal_worded_by_each_front_end(lang: str) -> None:
    exc = Refused("报名1不符合参赛资格, 未批准", en="entry 1 is not eligible: not approved",
                  code="ineligible", hint=Hint.FORCE_APPROVE)
    assert "--force" in cli_message(exc, lang) and "--note" in cli_message(exc, lang)
    web = web_message(exc, lang)
    assert "--" not in web and ("强制批准" in web if lang == "zh" else "force" in web)
    assert exc.as_dict(lang)["hint"] == "force_approve" and "--" not in exc.as_dict(lang)["message"]
