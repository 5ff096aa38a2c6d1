"""Chinese for the command-line framework's own words (usage, missing option, invalid value …).

click looks its messages up through ``gettext``; ``install`` points those look-ups at this
catalogue, which answers in the caller's language (``yisai.i18n``), so a Chinese user never
meets an English "Missing option" and ``--lang en`` keeps click's own English.
"""

from __future__ import annotations

import importlib

from yisai.i18n import language

ZH: dict[str, str] = {
    "Usage:": "用法:",
    "Options": "选项",
    "Commands": "命令",
    "Arguments": "参数",
    "Positional arguments": "位置参数",
    "Show this message and exit.": "显示本帮助并退出.",
    "Show the version and exit.": "显示版本并退出.",
    "Error: {message}": "错误: {message}",
    "Try '{command} {option}' for help.": "请运行 '{command} {option}' 查看帮助.",
    "Missing argument": "缺少参数",
    "Missing option": "缺少选项",
    "Missing parameter": "缺少参数",
    "Missing parameter: {param_name}": "缺少参数: {param_name}",
    "Missing {param_type}": "缺少{param_type}",
    "Missing command.": "缺少命令.",
    "No such command {name!r}.": "没有命令 {name!r}.",
    "No such option {name!r}.": "没有选项 {name!r}.",
    "No such option: {name}": "没有选项: {name}",
    "Option {name!r} does not take a value.": "选项 {name!r} 不带值.",
    "Option {name!r} requires an argument.": "选项 {name!r} 需要一个值.",
    "Option {name!r} requires {nargs} arguments.": "选项 {name!r} 需要 {nargs} 个值.",
    "Invalid value for {param_hint}: {message}": "{param_hint} 的值无效: {message}",
    "Invalid value: {message}": "值无效: {message}",
    "Got unexpected extra argument ({args})": "多余的参数 ({args})",
    "Got unexpected extra arguments ({args})": "多余的参数 ({args})",
    "Did you mean {possibility}?": "是否想用 {possibility}?",
    "(Did you mean one of: {possibilities}?)": "(是否想用其中之一: {possibilities}?)",
    "{value!r} is not a valid {number_type}.": "{value!r} 不是有效的数值.",
    "{value} is not in the range {range}.": "{value} 不在范围 {range} 内.",
    "{value!r} is not {choice}.": "{value!r} 不是 {choice}.",
    "{value!r} is not one of {choices}.": "{value!r} 不是 {choices} 之一.",
    "{value!r} does not match the format {format}.": "{value!r} 不符合格式 {format}.",
    "{value!r} does not match the formats {formats}.": "{value!r} 不符合格式 {formats}.",
    "{value!r} is not a valid boolean.": "{value!r} 不是有效的是/否值.",
    "{name} {filename!r} does not exist.": "{name} {filename!r} 不存在.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} 是一个目录.",
    "{name} {filename!r} is a file.": "{name} {filename!r} 是一个文件.",
    "{name} {filename!r} is not readable.": "{name} {filename!r} 不可读.",
    "{name} {filename!r} is not writable.": "{name} {filename!r} 不可写.",
    "File": "文件",
    "Directory": "目录",
    "Path": "路径",
    "file": "文件",
    "directory": "目录",
    "path": "路径",
    "default: {default}": "默认: {default}",
    "env var: {var}": "环境变量: {var}",
    "required": "必填",
    "Aborted!": "已中止!",
    "Could not open file {filename!r}: {message}": "无法打开文件 {filename!r}: {message}",
    "Takes {nargs} values but 1 was given.": "需要 {nargs} 个值, 只给了 1 个.",
    "Takes {nargs} values but {len} were given.": "需要 {nargs} 个值, 给了 {len} 个.",
}


def gettext(message: str) -> str:
    if language() == "zh":
        return ZH.get(message, message)
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return gettext(singular if n == 1 else plural)


_MODULES = ("click.core", "click.exceptions", "click.parser", "click.types", "click.decorators",
            "click.formatting", "click.termui", "typer.core", "typer.main")


def install() -> None:
    """Route click's (and typer's) message look-ups through ``gettext`` above."""
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
