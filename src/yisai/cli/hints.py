"""The command line's words for a service error's hint: what to type next, with its options.

Services say *what* the user may do (``Hint``); only here is it worded as flags, so the web
(web/hints.py) can word the same hint with its buttons and fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yisai.i18n import Text

if TYPE_CHECKING:
    from yisai.services.errors import Hint, ServiceError

# keyed by ``Hint`` value (a str), so that this module loads without the services
HINTS: dict[str, Text] = {
    "force_approve": Text("裁判长可用 --force --note 说明理由后强制批准",
                          "the chief referee may approve it with --force and a --note giving the reason"),
    "note": Text("请用 --note 写明理由", "give the reason with --note"),
    "reason": Text("请用 --reason 写明理由", "give the reason with --reason"),
    "force_import": Text("裁判长可用 --force --note 强制导入",
                         "the chief referee may import them with --force and a --note"),
    "late_import": Text("报名已截止: 裁判长可用 --late --note 理由 逾期导入 (只免除报名时间)",
                        "registration has closed: the chief referee may admit them with --late and a --note "
                        "giving the reason (only the deadline is waived)"),
    "over_capacity": Text("名额已满: 裁判长可用 --late --note 理由 超额报名 (只免除名额和报名时间)",
                          "no place left: the chief referee may admit it over the limit with --late and a --note "
                          "giving the reason (only the limit and the deadline are waived)"),
    "replace": Text("重新编排未赛的轮次请加 --replace", "to pair a round without results again, add --replace"),
    "group": Text("请用 --group 指定分组", "name the group with --group"),
    "change": Text("如需更改请加 --change (将记录修改前后的成绩)",
                   "to change it add --change (the result before and after is recorded)"),
    "division": Text("请用 --division 指定组别", "choose one with --division"),
    "event": Text("请用 --event 指定其一", "name one with --event"),
    "create_event": Text("请先运行 yisai event create --regulation 规程文件",
                         "first run yisai event create --regulation FILE"),
    "upgrade_db": Text("请先运行: yisai db upgrade --db {database}",
                       "run first: yisai db upgrade --db {database}"),
    "password": Text("请用 --password-stdin 从标准输入给出密码 (如 echo 密码 | yisai account …)",
                     "give the password on standard input with --password-stdin"),
    "set_rounds": Text("yisai event rounds -d {division} {round}", "yisai event rounds -d {division} {round}"),
    "list_players": Text("请用 yisai player list 中的编号或身份证号", "use a number shown by yisai player list, or an ID number"),
    "list_teams": Text("可用 yisai team list 查看", "see yisai team list"),
    "list_events": Text("可用 yisai event list 查看", "see yisai event list"),
    "simulate_qualifier": Text("用 yisai qualifier simulate 模拟一期", "simulate a period with yisai qualifier simulate"),
}


def cli_hint(hint: Hint, lang: str | None = None) -> str:
    """A hint's words on their own (a list of reasons, each with what to do instead)."""
    return HINTS[hint.value].render(lang)


def cli_message(exc: ServiceError, lang: str | None = None) -> str:
    """The error's message followed by what to type next (if the service gave a hint)."""
    text = exc.render(lang)
    if exc.hint is None:
        return text
    words = cli_hint(exc.hint, lang)
    for key, value in exc.params.items():  # {division}, {round}: the refusal's own parameters
        if key != "database":
            words = words.replace("{" + key + "}", str(value))
    if "{database}" in words:
        from yisai.services.maintenance import shown_database

        raw = str(exc.params.get("database") or "<同一数据库>")
        shown = shown_database(raw) if "://" in raw else raw
        words = words.replace("{database}", shown)
    return f"{text} ({words})"
