"""Parse a regulation TOML text into a ``Regulation``, or report every problem with its line.

The text comes from the caller: reading the file is an outer layer's job
(``yisai.formats.regulation_file``), since the core does no I/O.

Errors are formatted ``FILE:LINE: field.path: what is wrong (what is allowed)`` so a referee can
jump straight to the line; each issue keeps its words in Chinese and English and prints in the
reader's language (``yisai.i18n``). Nothing here raises anything but ``RegulationError``.
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from yisai.i18n import Text
from yisai.regulation.checks import check
from yisai.regulation.locate import key_lines, line_of
from yisai.regulation.messages import NONE, field_message
from yisai.regulation.rules import criterion_other_names
from yisai.regulation.schema import Regulation


@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    path: str
    problem: Text
    allowed: Text = NONE

    def render(self, lang: str | None = None) -> str:
        """``FILE:LINE: field.path: problem (allowed)`` in ``lang`` (default: the caller's)."""
        allowed = self.allowed.render(lang)
        tail = f" ({allowed})" if allowed else ""
        where = f"{self.path}: " if self.path else ""
        return f"{self.file}:{self.line}: {where}{self.problem.render(lang)}{tail}"

    def __str__(self) -> str:
        return self.render()

    @property
    def text(self) -> Text:
        """The whole line in both languages (for errors shown later, e.g. on the web)."""
        return Text(self.render("zh"), self.render("en"))


class RegulationError(Exception):
    """All problems found in one regulation file."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__("\n".join(i.render("zh") for i in issues))

    def __str__(self) -> str:
        return "\n".join(str(i) for i in self.issues)


def loads(data: bytes | str, filename: str = "<regulation>") -> Regulation:
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_REGULATION_BYTES:
        raise RegulationError([size_issue(filename, size)])
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            problem = Text(f"不是 UTF-8 编码 (第{exc.start}字节)", f"not UTF-8 encoded (byte {exc.start})")
            allowed = Text("请以 UTF-8 保存", "save the file as UTF-8")
            raise RegulationError([Issue(filename, line, "", problem, allowed)]) from None
    else:
        text = data
    too_deep = _too_deep_line(text)
    if too_deep is not None:
        raise RegulationError([_nesting_issue(filename, too_deep)])
    long_number = _long_number_line(text)
    if long_number is not None:
        raise RegulationError([_number_issue(filename, text, long_number)])
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegulationError([_syntax_issue(filename, exc)]) from None
    except RecursionError:  # the scan above should make this unreachable; never a traceback
        raise RegulationError([_nesting_issue(filename, 1)]) from None
    except ValueError:  # int() past Python's digit limit; the scan above should make it unreachable
        raise RegulationError([_number_issue(filename, text, 1)]) from None
    huge = _integers_out_of_range(doc)
    if huge:
        lines = key_lines(text)
        raise RegulationError([_number_issue(filename, text, line_of(lines, path), path) for path in huge])
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
MAX_REGULATION_BYTES = 1024 * 1024
"""A regulation file is a few dozen KB; a bigger one is refused before it is parsed."""
MAX_NUMBER_LENGTH = 24
"""Characters in one bare number or date; integers must also fit in 64 bits (as TOML says).
Python refuses to convert more than 4,300 digits (a ValueError), far slower long before."""


def _nesting_issue(filename: str, line: int) -> Issue:
    return Issue(
        filename, line, "",
        Text(f"数组或内联表嵌套过深 (超过{MAX_NESTING}层)",
             f"arrays or inline tables nested too deep (more than {MAX_NESTING} levels)"),
        Text(f"规程文件最多嵌套{MAX_NESTING}层 [ ] 或 {{ }}",
             f"a regulation file nests [ ] or {{ }} at most {MAX_NESTING} levels deep"),
    )


def _too_deep_line(text: str) -> int | None:
    """The line where ``[``/``{`` nesting outside strings and comments passes MAX_NESTING."""
    return _scan(text)[0]


def _long_number_line(text: str) -> int | None:
    """The line of the first number (outside strings and comments) longer than MAX_NUMBER_LENGTH."""
    return _scan(text)[1]


def _scan(text: str) -> tuple[int | None, int | None]:
    """One pass over the text outside strings and comments: the line where nesting passes
    MAX_NESTING, and the line of the first bare token that starts with a digit (a number, a
    date) and is longer than MAX_NUMBER_LENGTH; None for what is not there.

    A table header (``[a.b]``, ``[[a]]``) opens and closes on its own line, so counting every
    bracket is safe. Strings (basic, literal, multi-line) and comments are skipped.
    """
    depth = 0
    line = 1
    too_deep: int | None = None
    long_number: int | None = None
    token_start = -1  # where the current run of [0-9A-Za-z_] starts, if it starts with a digit
    i, n = 0, len(text)
    while i < n and (too_deep is None or long_number is None):
        ch = text[i]
        if ch.isascii() and (ch.isalnum() or ch == "_"):
            if token_start < 0 and ch.isdigit() and (i == 0 or not _word_char(text[i - 1])):
                token_start = i
            if token_start >= 0 and i - token_start >= MAX_NUMBER_LENGTH and long_number is None:
                long_number = line
            i += 1
            continue
        token_start = -1
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
            if depth > MAX_NESTING and too_deep is None:
                too_deep = line
        elif ch in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return too_deep, long_number


def _word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _integers_out_of_range(doc: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Paths of integers outside TOML's 64-bit range (tomllib reads any size)."""
    if isinstance(doc, bool):
        return []
    if isinstance(doc, int):
        return [path] if not -(2**63) <= doc < 2**63 else []
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _integers_out_of_range(v, (*path, k))]
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in _integers_out_of_range(v, (*path, i))]
    return []


def _number_issue(filename: str, text: str, line: int, path: tuple[str | int, ...] | None = None) -> Issue:
    """A number too long for a regulation: named by its line and, where known, its field."""
    if path is None:
        on_line = [p for p, at in key_lines(text).items() if at == line]
        path = max(on_line, key=len) if on_line else ()
    return Issue(
        filename, line, _dotted(path),
        Text(f"数字过大 (超过{MAX_NUMBER_LENGTH}个字符或超出64位整数范围), 未读取",
             f"number too large (longer than {MAX_NUMBER_LENGTH} characters or beyond a 64-bit"
             " integer); nothing was read"),
        Text(f"整数须在 -2^63 到 2^63-1 之间; 数字最多{MAX_NUMBER_LENGTH}个字符",
             f"integers lie between -2^63 and 2^63-1; a number has at most {MAX_NUMBER_LENGTH} characters"),
    )


def size_issue(filename: str, size: int) -> Issue:
    return Issue(
        filename, 0, "",
        Text(f"文件有 {size} 字节, 超过规程文件的上限 {MAX_REGULATION_BYTES} 字节 (1 MB), 未读取",
             f"the file has {size} bytes, over the limit of {MAX_REGULATION_BYTES} bytes (1 MB) for a"
             " regulation; nothing was read"),
        Text("规程文件通常只有几十 KB; 请检查是否选错了文件",
             "a regulation file is a few dozen KB; check that this is the right file"),
    )


_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


# tomllib's English reasons, in Chinese: the message a director reads names the mistake itself.
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Cannot declare \((.*)\) twice"), "表 [{0}] 写了两次; 同一个表只能声明一次, 请把两处的内容合并"),
    (re.compile(r"Cannot overwrite a value"), "这个键已经有值 (重复的键); 请删除其中一行"),
    (re.compile(r"Invalid value"), "值无效或缺少值; 文字须加引号, 如 \"甲组\""),
    (re.compile(r"Illegal character '\\n'"), "字符串在行尾没有结束; 请补上结尾的引号"),
    (re.compile(r"Unclosed array"), "方括号 [ 没有闭合; 请补上 ]"),
    (re.compile(r"Unclosed inline table"), "花括号 {{ 没有闭合; 请补上 }}"),
    (re.compile(r"Expected '=' after a key"), "键后面缺少等号 ="),
    (re.compile(r"Expected newline or end of document after a statement"), "一行只能写一项; 请换行"),
    (re.compile(r"Expected '\]' at the end of a table declaration"), "表名缺少结尾的 ]; 应写成 [registration] 这样"),
    (re.compile(r"Expected '\]\]' at the end of an array declaration"), "表数组名缺少结尾的 ]]; 应写成 [[divisions]] 这样"),
    (re.compile(r"""Expected ("'''"|'\"\"\"')"""), "多行字符串没有结束; 请补上结尾的三个引号"),
    (re.compile(r"Expected '(.*)'"), "此处缺少 {0}"),
    (re.compile(r"Unterminated string"), "字符串没有结束; 请补上结尾的引号"),
    (re.compile(r"Illegal character (.*)"), "字符串或注释中有不允许的控制字符 {0}; 请删除它"),
    (re.compile(r"Found invalid character (.*)"), "出现了无效的字符 {0}"),
    (re.compile(r"Invalid date or datetime"), "日期或时间无效; 请写成 2026-03-01 或 2026-03-01T09:00:00"),
    (re.compile(r"Invalid initial character for a key part"),
     "键名的开头无效; 键名只用英文字母、数字、_ 和 -, 其他文字须加引号"),
    (re.compile(r"Invalid statement"), "无法识别的语句; 每行应为 键 = 值, 或 [表名]"),
    (re.compile(r"Invalid hex value|Escaped character is not a Unicode scalar value"),
     "\\u 或 \\U 后的十六进制数不是有效的字符"),
    (re.compile(r"Unescaped '\\' in a string"), "字符串中的反斜杠须写成 \\\\, 或改用单引号字符串"),
    (re.compile(r"Duplicate inline table key (.*)"), "花括号 {{ }} 中的键 {0} 重复; 请删除其中一个"),
    (re.compile(r"Cannot mutate immutable namespace \((.*)\)"), "{0} 已在行内表 {{ }} 或数组中写定, 不能在别处再添加内容"),
    (re.compile(r"Cannot redefine namespace \((.*)\)"), "{0} 已经定义过, 不能再定义为别的类型"),
)


def _reason_zh(reason: str) -> str:
    for pattern, words in _REASONS:
        m = pattern.search(reason)
        if m:
            return words.format(*(g.replace("'", "").replace(", ", ".").rstrip(",") for g in m.groups()))
    return f"这一行不符合 TOML 语法 (解析器原文: {reason})"


def _syntax_issue(filename: str, exc: tomllib.TOMLDecodeError) -> Issue:
    msg = str(exc)
    m = _POS.search(msg)
    line = int(m.group(1)) if m else getattr(exc, "lineno", 1) or 1
    reason = _POS.sub("", msg).strip()
    return Issue(
        filename, line, "",
        Text(f"TOML 语法错误: {_reason_zh(reason)}", f"TOML syntax error: {reason}"),
        Text("请检查引号、括号与等号", "check quotes, brackets and equals signs"),
    )


def _dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path)


def _field_issue(filename: str, lines: dict[tuple[str | int, ...], int], err: ErrorDetails) -> Issue:
    loc = _clean_loc(err["loc"])
    problem, allowed = field_message(err, criterion_other_names)
    line = line_of(lines, loc[:-1]) if err["type"] == "missing" else line_of(lines, loc)
    return Issue(filename, line, _dotted(loc), problem, allowed)


def _clean_loc(loc: tuple) -> tuple[str | int, ...]:
    # Discriminated unions add the tag (e.g. 'swiss') as a path element; drop it.
    tags = {"online_ladder", "swiss", "two_group_swiss", "announced_later"}
    return tuple(p for p in loc if not (isinstance(p, str) and p in tags))


def _dedupe(issues: list[Issue]) -> list[Issue]:
    seen: set[Text] = set()
    out = []
    for i in issues:
        if i.text not in seen:
            seen.add(i.text)
            out.append(i)
    return out
