"""What a request brings, read in one place: ids and numbers bounded to what the store can hold,
form and JSON bodies, and every problem with them as a 400/404 naming the field in both languages.

Why here and not per route: an id past PostgreSQL's INTEGER (or SQLite's 64 bits) reached the
store and came back as a 500; a form sent to a JSON endpoint, or JSON that is a list, did too.
Every path id is the ``Id`` type (a test walks the route table and checks), every JSON body of a
console script is read by ``core.read_json`` with a model, every form by ``read_form``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

from fastapi import Path, Query, Request
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException

from yisai.i18n import Text
from yisai.services.errors import InputError, NotFoundError

MAX_ID = 2**31 - 1  # PostgreSQL's INTEGER: the narrowest id or number column of the store

# Every id and number in a path: outside 1..MAX_ID (or not a number) the page does not exist (404).
Id = Annotated[int, Path(ge=1, le=MAX_ID)]
# A number in the query string (e.g. ?round=): outside the range it is a bad request (400).
QueryNumber = Annotated[int | None, Query(ge=1, le=MAX_ID)]

JSON_TYPES = ("application/json",)
T = TypeVar("T")


class Body(BaseModel):
    """A JSON body a client sends: a field it does not know is refused, not dropped, so a
    misspelt ``notes`` never loses the note it carried."""

    model_config = ConfigDict(extra="forbid")


class BadBody(InputError):
    """The request's body (or query) cannot be used: 400 with each problem named."""

    default_code = "bad_body"

    def __init__(self, problems: Sequence[Text], code: str | None = None) -> None:
        zh = "; ".join(p.zh for p in problems)
        en = "; ".join(p.en for p in problems)
        super().__init__(Text(f"请求有误: {zh}", f"bad request: {en}"), list(problems), code=code)


NOT_FOUND = Text("没有这个页面或对象 (编号超出范围或格式不对)",
                 "no such page or object (the number is out of range or malformed)")


def not_found() -> NotFoundError:
    """An id or number in the path that cannot name anything in the store."""
    return NotFoundError(NOT_FOUND, code="not_found")


# ------------------------------------------------------------------ problems in both languages


def _where(loc: Sequence[Any]) -> str:
    """``("body", "board")`` → ``board``; the first element says where (body, query, path)."""
    return ".".join(str(x) for x in loc[1:])


def _what(err: Mapping[str, Any]) -> Text:
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    if kind in ("missing", "missing_argument"):
        return Text("缺少此项", "is missing")
    if kind in ("int_parsing", "int_type", "int_from_float", "int_parsing_size"):
        return Text("应为整数", "must be a whole number")
    if kind in ("float_parsing", "float_type", "finite_number"):
        return Text("应为数字", "must be a number")
    if kind == "string_type":
        return Text("应为文字", "must be text")
    if kind in ("bool_parsing", "bool_type"):
        return Text("应为 true 或 false", "must be true or false")
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(ctx.values()), "")
        words = {"greater_than_equal": ("应不小于", "must be at least"), "greater_than": ("应大于", "must be above"),
                 "less_than_equal": ("应不大于", "must be at most"), "less_than": ("应小于", "must be below")}[kind]
        return Text(f"{words[0]}{bound}", f"{words[1]} {bound}")
    if kind == "string_too_short":
        n = ctx.get("min_length", 1)
        return Text("不能为空", "must not be empty") if n == 1 else Text(f"至少{n}个字符", f"at least {n} characters")
    if kind == "string_too_long":
        n = ctx.get("max_length", "")
        return Text(f"最多{n}个字符", f"at most {n} characters")
    if kind in ("too_long", "too_short"):
        return Text("项数不对", "has the wrong number of items")
    if kind in ("dict_type", "model_type", "model_attributes_type", "mapping_type"):
        return Text("应为JSON对象 {…}", "must be a JSON object {…}")
    if kind == "extra_forbidden":
        return Text("不是已知的字段, 请检查拼写或删除", "is not a known field; check the spelling or remove it")
    if kind in ("list_type", "tuple_type"):
        return Text("应为JSON数组 […]", "must be a JSON array […]")
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected", "")
        return Text(f"应为 {expected}", f"must be {expected}")
    message = str(err.get("msg", kind))
    return Text(f"有误 ({message})", message)


def problem(err: Mapping[str, Any]) -> Text:
    """One pydantic / FastAPI validation error as words: the field, then what is wrong."""
    loc = list(err.get("loc") or ())
    kind = str(err.get("type", ""))
    if kind == "json_invalid":
        return Text("请求体不是有效的JSON", "the body is not valid JSON")
    where = _where(loc)
    if not where or (loc and loc[0] == "body" and len(loc) == 1):
        if loc and loc[0] == "body" and isinstance(err.get("input"), bytes | str):
            return Text("请求体应为JSON (Content-Type: application/json)",
                        "the body must be JSON (Content-Type: application/json)")
        what = _what(err)
        return Text(f"请求体{what.zh}", f"the body {what.en}")
    what = _what(err)
    return Text(f"{where}: {what.zh}", f"{where}: {what.en}")


def problems(errors: Iterable[Mapping[str, Any]]) -> list[Text]:
    out: list[Text] = []
    for err in errors:
        text = problem(err)
        if text not in out:
            out.append(text)
    return out


def bad_request(errors: Iterable[Mapping[str, Any]]) -> InputError:
    """A request whose path, query or body did not validate: 404 for a path, else 400."""
    errors = list(errors)
    if any((e.get("loc") or ("",))[0] == "path" for e in errors):
        return not_found()
    in_body = any((e.get("loc") or ("",))[0] == "body" for e in errors)
    return BadBody(problems(errors), code="bad_body" if in_body else "bad_input")


# ------------------------------------------------------------------ bodies


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_form(request: Request) -> FormData:
    """The form (urlencoded or multipart); an unreadable one is a 400, any other body an empty form."""
    try:
        return await request.form()
    except (MultiPartException, HTTPException) as exc:
        detail = getattr(exc, "message", None) or getattr(exc, "detail", "") or ""
        raise BadBody([Text(f"表单无法读取 ({detail})", f"the form cannot be read ({detail})")]) from None


async def parse_json(request: Request, shape: type[T]) -> T:
    """The JSON body validated as ``shape`` (a pydantic model or a typed dict/list)."""
    media = _media_type(request)
    if media not in JSON_TYPES and not media.endswith("+json"):
        raise BadBody([Text("请求体应为JSON (Content-Type: application/json)",
                            "the body must be JSON (Content-Type: application/json)")])
    raw = await request.body()
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadBody([Text("请求体不是UTF-8编码的文字", "the body is not UTF-8 text")]) from None
    except json.JSONDecodeError as exc:
        raise BadBody([Text(f"请求体不是有效的JSON (第{exc.lineno}行第{exc.colno}列)",
                            f"the body is not valid JSON (line {exc.lineno}, column {exc.colno})")]) from None
    except RecursionError:
        raise BadBody([Text("请求体嵌套过深", "the body is nested too deeply")]) from None
    if not isinstance(data, dict):
        raise BadBody([Text("请求体应为JSON对象 {…}", "the body must be a JSON object {…}")])
    try:
        return TypeAdapter(shape).validate_python(data)
    except ValidationError as exc:
        raise BadBody(problems({**e, "loc": ("body", *e["loc"])} for e in exc.errors())) from None


def form_number(value: str, what: Text) -> int | None:
    """A number typed in a form (round, board, periods): empty → None; else 1..MAX_ID or a 400."""
    text = value.strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ID:
        raise InputError(Text(f"{what.zh}须为1至{MAX_ID}之间的整数: {text[:40]}",
                              f"{what.en} must be a whole number from 1 to {MAX_ID}: {text[:40]}"),
                         code="bad_number", params={"field": what.en})
    return int(text)
