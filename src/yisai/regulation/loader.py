"""Read a regulation TOML file into a ``Regulation``, or report every problem with its line.

Errors are formatted ``FILE:LINE: field.path: what is wrong (what is allowed)`` so a referee can
jump straight to the line. Nothing here raises anything but ``RegulationError``.
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from yisai.regulation.checks import check
from yisai.regulation.locate import key_lines, line_of
from yisai.regulation.schema import Regulation


@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    path: str
    problem: str
    allowed: str = ""

    def __str__(self) -> str:
        tail = f" ({self.allowed})" if self.allowed else ""
        where = f"{self.path}: " if self.path else ""
        return f"{self.file}:{self.line}: {where}{self.problem}{tail}"


class RegulationError(Exception):
    """All problems found in one regulation file."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("\n".join(str(i) for i in issues))


def load(path: str | Path) -> Regulation:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RegulationError([Issue(str(p), 0, "", f"无法读取文件: {exc.strerror or exc}")]) from None
    return loads(raw, str(p))


def loads(data: bytes | str, filename: str = "<regulation>") -> Regulation:
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise RegulationError(
                [Issue(filename, line, "", f"不是 UTF-8 编码 (第{exc.start}字节)", "请以 UTF-8 保存")]
            ) from None
    else:
        text = data
    too_deep = _too_deep_line(text)
    if too_deep is not None:
        raise RegulationError([_nesting_issue(filename, too_deep)])
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegulationError([_syntax_issue(filename, exc)]) from None
    except RecursionError:  # the scan above should make this unreachable; never a traceback
        raise RegulationError([_nesting_issue(filename, 1)]) from None
    try:
        reg = Regulation.model_validate(doc)
    except ValidationError as exc:
        lines = key_lines(text)
        issues = [_field_issue(filename, lines, err) for err in exc.errors()]
        # Cross-checks still run on what is valid, so one pass reports everything we can see.
        partial = _without_bad_values(doc, exc)
        if partial is not None:
            issues += _check_issues(filename, text, partial, lines)
        raise RegulationError(sorted(_dedupe(issues), key=lambda i: i.line)) from None
    issues = _check_issues(filename, text, reg)
    if issues:
        raise RegulationError(issues)
    return reg


def _check_issues(filename: str, text: str, reg: Regulation, lines: dict | None = None) -> list[Issue]:
    found = check(reg)
    if not found:
        return []  # lines are located only for a file with problems (every stored event is read)
    lines = key_lines(text) if lines is None else lines
    return [Issue(filename, line_of(lines, f.path), _dotted(f.path), f.problem, f.allowed) for f in found]


def _without_bad_values(doc: dict, exc: ValidationError) -> Regulation | None:
    """Drop optional values that failed validation; None if the rest still does not validate."""
    data = copy.deepcopy(doc)
    for _ in range(3):
        for err in sorted(exc.errors(), key=lambda e: [str(p) for p in e["loc"]], reverse=True):
            if err["type"] == "missing":
                return None
            if not _delete(data, _clean_loc(err["loc"]), err["type"]):
                return None
        try:
            return Regulation.model_validate(data)
        except ValidationError as again:
            exc = again
    return None


def _delete(data: object, loc: tuple[str | int, ...], err_type: str) -> bool:
    """Remove the bad value; a bad scalar list item goes whole; a bad id gets a placeholder.

    Returns False when removal would hide a table others may refer to (cross-checks then
    would report phantom errors), so the caller gives up on cross-checking.
    """
    parents: list[tuple[object, str | int]] = []
    node = data
    for part in loc:
        if (isinstance(node, dict) and part in node) or (isinstance(node, list) and isinstance(
            part, int
        ) and part < len(node)):
            parents.append((node, part))
            node = node[part]  # type: ignore[index]
        else:
            break
    if not parents:
        return True
    container, key = parents[-1]
    if err_type == "string_pattern_mismatch" and isinstance(container, dict):
        container[key] = "invalid"
    elif isinstance(container, list):
        if isinstance(container[key], dict):  # type: ignore[index]
            return False
        container.pop(key)  # type: ignore[arg-type]
    elif isinstance(container, dict):
        del container[key]
    return True


MAX_NESTING = 16
"""Deepest nesting of arrays and inline tables accepted; our files need 3, tomllib recurses."""


def _nesting_issue(filename: str, line: int) -> Issue:
    return Issue(
        filename, line, "", f"数组或内联表嵌套过深 (超过{MAX_NESTING}层)",
        f"规程文件最多嵌套{MAX_NESTING}层 [ ] 或 {{ }}",
    )


def _too_deep_line(text: str) -> int | None:
    """The line where ``[``/``{`` nesting outside strings and comments passes MAX_NESTING.

    A table header (``[a.b]``, ``[[a]]``) opens and closes on its own line, so counting every
    bracket is safe. Strings (basic, literal, multi-line) and comments are skipped.
    """
    depth = 0
    line = 1
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif ch in "\"'":
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                if text[i] == "\\" and quote[0] == '"':
                    i += 1
                    if text[i : i + 1] == "\n":  # a line-ending backslash
                        line += 1
                elif text[i] == "\n":
                    if len(quote) == 1:  # an unterminated one-line string: tomllib reports it
                        break
                    line += 1
                i += 1
            else:
                i += len(quote)
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return None


_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def _syntax_issue(filename: str, exc: tomllib.TOMLDecodeError) -> Issue:
    msg = str(exc)
    m = _POS.search(msg)
    line = int(m.group(1)) if m else getattr(exc, "lineno", 1) or 1
    reason = _POS.sub("", msg).strip()
    return Issue(filename, line, "", f"TOML 语法错误: {reason}", "请检查引号、括号与等号")


def _dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path)


_MESSAGES: dict[str, tuple[str, str]] = {
    "missing": ("缺少必填项", ""),
    "extra_forbidden": ("未知字段(请检查拼写)", ""),
    "int_type": ("应为整数", "如 38"),
    "int_parsing": ("应为整数", "如 38"),
    "int_from_float": ("应为整数, 不能有小数", "如 38"),
    "float_type": ("应为数字", "如 7.5"),
    "float_parsing": ("应为数字", "如 7.5"),
    "finite_number": ("应为有限数字, 不能是 nan 或 inf", "如 7.5"),
    "bool_type": ("应为 true 或 false", ""),
    "bool_parsing": ("应为 true 或 false", ""),
    "string_type": ("应为文字(加引号)", ""),
    "list_type": ("应为列表 [...]", ""),
    "dict_type": ("应为表 {...}", ""),
    "model_type": ("应为表 {...}", ""),
    "date_type": ("应为日期", "YYYY-MM-DD"),
    "date_parsing": ("日期无效", "YYYY-MM-DD"),
    "date_from_datetime_parsing": ("日期无效", "YYYY-MM-DD"),
    "date_from_datetime_inexact": ("应为日期, 不含时间", "YYYY-MM-DD"),
    "datetime_type": ("应为日期时间", "YYYY-MM-DDTHH:MM"),
    "datetime_parsing": ("日期时间无效", "YYYY-MM-DDTHH:MM"),
    "datetime_from_date_parsing": ("日期时间无效", "YYYY-MM-DDTHH:MM"),
    "time_type": ("应为时间", "HH:MM"),
    "time_parsing": ("时间无效", "HH:MM"),
    "string_pattern_mismatch": ("格式不符", "小写字母、数字、-、_"),
    "string_too_short": ("不能为空", ""),
    "too_short": ("项数太少", ""),
    "too_long": ("项数太多", ""),
    "union_tag_invalid": ("未知类型", ""),
    "union_tag_not_found": ("缺少 kind 字段", ""),
}


def _field_issue(filename: str, lines: dict[tuple[str | int, ...], int], err: ErrorDetails) -> Issue:
    loc = _clean_loc(err["loc"])
    kind = err["type"]
    ctx = err.get("ctx") or {}
    problem, allowed = _MESSAGES.get(kind, ("", ""))
    if kind in ("literal_error", "enum"):
        problem, allowed = f"取值无效: {err.get('input')!r}", f"允许: {ctx.get('expected', '')}"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(ctx.values()), "")
        sign = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
        problem, allowed = f"数值超出范围: {err.get('input')!r}", f"应 {sign} {bound}"
    elif kind == "value_error":
        problem = str(ctx.get("error", err["msg"]))
    elif kind == "union_tag_invalid":
        allowed = f"允许: {ctx.get('expected_tags', '')}"
        problem = f"未知类型: {ctx.get('tag', '')!r}"
    elif kind == "too_short":
        allowed = f"至少 {ctx.get('min_length', '')} 项"
    if kind in ("date_parsing", "date_from_datetime_parsing", "datetime_parsing") and isinstance(
        err.get("input"), str
    ):
        problem = f"日期无效: {err['input']!r}"
    if not problem:
        problem = err["msg"]
    line = line_of(lines, loc[:-1]) if kind == "missing" else line_of(lines, loc)
    return Issue(filename, line, _dotted(loc), problem, allowed)


def _clean_loc(loc: tuple) -> tuple[str | int, ...]:
    # Discriminated unions add the tag (e.g. 'swiss') as a path element; drop it.
    tags = {"online_ladder", "swiss", "two_group_swiss", "announced_later"}
    return tuple(p for p in loc if not (isinstance(p, str) and p in tags))


def _dedupe(issues: list[Issue]) -> list[Issue]:
    seen: set[str] = set()
    out = []
    for i in issues:
        if str(i) not in seen:
            seen.add(str(i))
            out.append(i)
    return out
