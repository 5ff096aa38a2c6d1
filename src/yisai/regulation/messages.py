"""Field errors of a regulation file in words a referee reads, in Chinese and English.

pydantic reports each bad value by an error type (``int_type``, ``less_than_equal`` …);
``field_message`` turns one into (what is wrong, what is allowed), both as ``Text``, so the
loader can print them in the reader's language. Validators that need their own words raise
``BadValue`` with both languages.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic_core import ErrorDetails

from yisai.i18n import Text

NONE = Text("", "")
"""No text in either language (an issue without an 'allowed' part)."""


class BadValue(ValueError):
    """A validator's refusal, worded in both languages (``str()`` is the Chinese)."""

    def __init__(self, zh: str, en: str) -> None:
        self.text = Text(zh, en)
        super().__init__(zh)


_INT = Text("如 38", "e.g. 38")
_NUMBER = Text("如 7.5", "e.g. 7.5")
_DATE = Text("YYYY-MM-DD", "YYYY-MM-DD")
_DATETIME = Text("YYYY-MM-DDTHH:MM", "YYYY-MM-DDTHH:MM")
_TIME = Text("HH:MM", "HH:MM")

_MESSAGES: dict[str, tuple[Text, Text]] = {
    "missing": (Text("缺少必填项", "required field is missing"), NONE),
    "extra_forbidden": (Text("未知字段(请检查拼写)", "unknown field (check the spelling)"), NONE),
    "int_type": (Text("应为整数", "should be a whole number"), _INT),
    "int_parsing": (Text("应为整数", "should be a whole number"), _INT),
    "int_from_float": (Text("应为整数, 不能有小数", "should be a whole number, without decimals"), _INT),
    "float_type": (Text("应为数字", "should be a number"), _NUMBER),
    "float_parsing": (Text("应为数字", "should be a number"), _NUMBER),
    "finite_number": (Text("应为有限数字, 不能是 nan 或 inf", "should be a finite number, not nan or inf"), _NUMBER),
    "bool_type": (Text("应为 true 或 false", "should be true or false"), NONE),
    "bool_parsing": (Text("应为 true 或 false", "should be true or false"), NONE),
    "string_type": (Text("应为文字(加引号)", "should be text (in quotes)"), NONE),
    "list_type": (Text("应为列表 [...]", "should be a list [...]"), NONE),
    "dict_type": (Text("应为表 {...}", "should be a table {...}"), NONE),
    "model_type": (Text("应为表 {...}", "should be a table {...}"), NONE),
    "date_type": (Text("应为日期", "should be a date"), _DATE),
    "date_parsing": (Text("日期无效", "invalid date"), _DATE),
    "date_from_datetime_parsing": (Text("日期无效", "invalid date"), _DATE),
    "date_from_datetime_inexact": (Text("应为日期, 不含时间", "should be a date, without a time"), _DATE),
    "datetime_type": (Text("应为日期时间", "should be a date and time"), _DATETIME),
    "datetime_parsing": (Text("日期时间无效", "invalid date and time"), _DATETIME),
    "datetime_from_date_parsing": (Text("日期时间无效", "invalid date and time"), _DATETIME),
    "time_type": (Text("应为时间", "should be a time"), _TIME),
    "time_parsing": (Text("时间无效", "invalid time"), _TIME),
    "string_pattern_mismatch": (
        Text("格式不符", "wrong format"),
        Text("小写字母、数字、-、_", "lower-case letters, digits, - and _"),
    ),
    "string_too_short": (Text("不能为空", "must not be empty"), NONE),
    "too_short": (Text("项数太少", "too few items"), NONE),
    "too_long": (Text("项数太多", "too many items"), NONE),
    "union_tag_invalid": (Text("未知类型", "unknown kind"), NONE),
    "union_tag_not_found": (Text("缺少 kind 字段", "the kind field is missing"), NONE),
}

_SIGNS = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}


def _no_other_names(expected: str) -> str | None:
    return None


def field_message(err: ErrorDetails, other_names: Callable[[str], str | None] = _no_other_names) -> tuple[Text, Text]:
    """(what is wrong, what is allowed) for one pydantic error, in both languages.

    ``other_names`` gives, for a refused choice's list of allowed code names, the other names
    that choice also accepts (the criteria's Chinese names: ``rules.criterion_other_names``), or
    None; passed in so these generic words need not know the rules' vocabulary."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    given = err.get("input")
    problem, allowed = _MESSAGES.get(kind, (NONE, NONE))
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected", "")
        problem = Text(f"取值无效: {given!r}", f"invalid value: {given!r}")
        allowed = Text(f"允许: {expected}", f"allowed: {expected}")
        if names := other_names(expected):
            allowed = Text(f"{allowed.zh}; 或中文名: {names}", f"{allowed.en}; or the Chinese names: {names}")
    elif kind in _SIGNS:
        bound = next(iter(ctx.values()), "")
        problem = Text(f"数值超出范围: {given!r}", f"out of range: {given!r}")
        allowed = Text(f"应 {_SIGNS[kind]} {bound}", f"must be {_SIGNS[kind]} {bound}")
    elif kind == "value_error":
        error = ctx.get("error", err["msg"])
        problem = error.text if isinstance(error, BadValue) else Text(str(error), str(error))
    elif kind == "union_tag_invalid":
        tag, tags = ctx.get("tag", ""), ctx.get("expected_tags", "")
        problem = Text(f"未知类型: {tag!r}", f"unknown kind: {tag!r}")
        allowed = Text(f"允许: {tags}", f"allowed: {tags}")
    elif kind == "too_short":
        n = ctx.get("min_length", "")
        allowed = Text(f"至少 {n} 项", f"at least {n} item(s)")
    if kind in ("date_parsing", "date_from_datetime_parsing", "datetime_parsing") and isinstance(given, str):
        problem = Text(f"日期无效: {given!r}", f"invalid date: {given!r}")
    if not problem.zh:
        problem = Text(err["msg"], err["msg"])
    return problem, allowed
