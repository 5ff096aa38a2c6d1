"""The kind of each regulation field, read from the schema for the draft page's small forms, and
a director's typed answer turned into a value or refused with a message naming the field."""

from __future__ import annotations

from datetime import date

import pytest

from yisai.regulation.field_types import BadAnswer, FieldType, field_type, parse_answer

DOC = {"stages": [{"id": "main", "format": {"kind": "swiss", "rounds": 7}}],
       "divisions": [{"id": "open", "name": "公开组"}]}


def test_field_kinds_follow_the_schema() -> None:
    assert field_type(DOC, ("issued", "on")) == FieldType("date")
    year = field_type(DOC, ("year",))
    assert year is not None and (year.kind, year.minimum, year.maximum) == ("int", 1900, 2200)
    komi = field_type(DOC, ("rules", "komi"))
    assert komi is not None and komi.kind == "float"
    superko = field_type(DOC, ("rules", "superko"))
    assert superko is not None and superko.kind == "choice" and set(superko.choices) == {"positional", "simple_ko"}
    assert field_type(DOC, ("name",)) == FieldType("text")
    # through a list item and the format chosen by its kind (swiss: rounds is a whole number)
    rounds = field_type(DOC, ("stages", 0, "format", "rounds"))
    assert rounds is not None and rounds.kind == "int"
    assert field_type(DOC, ("divisions", 0, "name")) == FieldType("text")
    # a whole table, or a key the schema does not have: no small form
    assert field_type(DOC, ("prizes",)) is None
    assert field_type(DOC, ("stages", 0, "time_control")) is None
    assert field_type(DOC, ("no_such_field",)) is None


def test_answers_become_values() -> None:
    assert parse_answer(FieldType("date"), "2025-05-02", "发布日期") == date(2025, 5, 2)
    assert parse_answer(FieldType("date"), "2025年5月2日", "发布日期") == date(2025, 5, 2)
    assert parse_answer(FieldType("int", minimum=1900, maximum=2200), "2025", "年份") == 2025
    assert parse_answer(FieldType("float", minimum=-50, maximum=50), "6.5", "贴目") == 6.5
    assert parse_answer(FieldType("bool", ("true", "false")), "false", "税前") is False
    assert parse_answer(FieldType("list"), "甲、乙, 丙", "项目") == ["甲", "乙", "丙"]
    assert parse_answer(FieldType("text", optional=True), "  ", "网址") is None


@pytest.mark.parametrize(("ft", "raw", "message"), [
    (FieldType("date"), "2025-13-40", "发布日期: “2025-13-40”不是有效的日期, 请写成 年-月-日"),
    (FieldType("int", minimum=1), "-2", "发布日期: -2 太小, 不能小于 1"),
    (FieldType("int"), "七", "发布日期: “七”不是整数"),
    (FieldType("choice", ("void", "draw")), "平局", "发布日期: “平局”不是可选值, 可选: void、draw"),
    (FieldType("text"), "", "发布日期: 请填写一个值"),
])
def test_bad_answers_name_the_field_and_say_what_to_enter(ft: FieldType, raw: str, message: str) -> None:
    with pytest.raises(BadAnswer) as exc:
        parse_answer(ft, raw, "发布日期")
    assert exc.value.text.zh.startswith(message)
