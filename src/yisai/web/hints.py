"""The web's words for a service error's hint: which button or field to use, never a flag.

The command line words the same hints with its options (cli/hints.py); a test checks that both
word every ``Hint`` and that nothing here mentions a command-line option.
"""

from __future__ import annotations

from yisai.i18n import Text
from yisai.services.errors import Hint, ServiceError

HINTS: dict[Hint, Text] = {
    Hint.FORCE_APPROVE: Text("裁判长可在本行“备注/理由”栏写明理由, 选“强制批准”后保存",
                             "the chief referee may write the reason in this row's note field, "
                             "choose “force” and save"),
    Hint.NOTE: Text("请在“备注/理由”栏写明理由", "write the reason in the note field"),
    Hint.REASON: Text("请在“备注/理由”栏写明不予批准的理由", "write the reason for the rejection in the note field"),
    Hint.FORCE_IMPORT: Text("请按所列问题修改报名表后重新上传", "correct the listed problems and upload the roster again"),
    Hint.OVER_CAPACITY: Text("名额已满: 裁判长可勾选“逾期报名”并写明理由, 作为超额报名接收",
                             "no place left: the chief referee may tick “late entry” and write the reason to admit "
                             "it over the limit"),
    Hint.LATE_IMPORT: Text("报名已截止: 裁判长可勾选“逾期报名”并在“备注/理由”栏写明理由后重新上传",
                           "registration has closed: the chief referee may tick “late entry”, write the reason "
                           "in the note field and upload again"),
    Hint.REPLACE: Text("如需重新编排未赛的本轮, 请勾选“重新编排”", "to pair the round again, tick “Re-pair”"),
    Hint.GROUP: Text("请在成绩表的“分组”列填写分组", "fill in the 分组 (group) column of the sheet"),
    Hint.CHANGE: Text("如需更正, 请勾选“允许更正已有成绩”后重新上传 (将记录修改前后的成绩)",
                      "to correct them, tick “allow corrections” and upload again (the result before "
                      "and after is recorded)"),
    Hint.DIVISION: Text("请选择组别", "choose the division"),
    Hint.EVENT: Text("请选择比赛", "choose the event"),
    Hint.CREATE_EVENT: Text("请在工作台首页上传规程文件创建比赛",
                            "create one on the console's start page from a regulation file"),
    Hint.UPGRADE_DB: Text("请服务器管理员先升级数据库结构", "ask the server's administrator to upgrade the database"),
    Hint.PASSWORD: Text("请在“密码”栏填写", "fill in the password field"),
    Hint.SET_ROUNDS: Text("本组的轮数须由裁判长先在服务器命令行确定", "the chief referee sets the round count on the server's command line first"),
    Hint.LIST_PLAYERS: Text("请用“报名审核”页中的编号或身份证号", "use a number from the Entries page, or an ID number"),
    Hint.LIST_TEAMS: Text("队伍见“报名附件”页", "the teams are listed on the Papers page"),
    Hint.LIST_EVENTS: Text("比赛见工作台首页", "the events are listed on the console's start page"),
    Hint.SIMULATE_QUALIFIER: Text("线上积分晋级赛须由服务器管理员在命令行按期模拟",
                                  "an online ladder is simulated period by period on the server's command line"),
}


def web_message(exc: ServiceError, lang: str | None = None) -> str:
    """The error's message followed by what to do on the page (if the service gave a hint)."""
    text = exc.render(lang)
    if exc.hint is None:
        return text
    return f"{text} ({HINTS[exc.hint].render(lang)})"


def web_dict(exc: ServiceError, lang: str | None = None) -> dict[str, object]:
    """``as_dict`` for the console's own scripts: the message carries the web's hint words."""
    return {**exc.as_dict(lang), "message": web_message(exc, lang)}
