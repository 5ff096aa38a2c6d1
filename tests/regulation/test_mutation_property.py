"""Random damage to valid files yields a model or a RegulationError — never a traceback."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REGULATIONS
from yisai.regulation import Regulation, RegulationError, loads

TEXTS = [p.read_text(encoding="utf-8") for p in sorted(REGULATIONS.glob("*.toml"))]
ISSUE = re.compile(r"^<m>:\d+: .+")

REPLACEMENTS = ["", "0", "-1", '"x"', "true", "[]", "{}", "2025-13-01", "1e400", '"', "[[", "99999999"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "value", "dup", "chars", "key"]))
        line = lines[i]
        if action == "delete":
            del lines[i]
        elif action == "dup":
            lines.insert(i, line)
        elif action == "value" and "=" in line:
            key = line.split("=", 1)[0]
            lines[i] = f"{key}= {draw(st.sampled_from(REPLACEMENTS))}"
        elif action == "key" and "=" in line:
            lines[i] = "zz_" + line.lstrip()
        else:
            pos = draw(st.integers(0, len(line)))
            junk = draw(st.text(alphabet="[]{}=,.\"'#0123456789-aé段 \t", max_size=4))
            lines[i] = line[:pos] + junk + line[pos:]
        if not lines:
            lines = [""]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_load_or_report(text: str) -> None:
    try:
        result = loads(text, "<m>")
    except RegulationError as exc:
        assert exc.issues
        for issue in exc.issues:
            assert ISSUE.match(str(issue)), str(issue)
            assert 1 <= issue.line <= max(1, text.count("\n") + 1)
    else:
        assert isinstance(result, Regulation)
