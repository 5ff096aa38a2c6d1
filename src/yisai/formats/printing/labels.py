"""The fixed words on the paper (footer, card, slip and certificate wording), in the caller's
language; the templates read them from ``Document.labels`` and write no words of their own."""

from __future__ import annotations

from yisai.i18n import tr


def labels(template: str) -> dict[str, str]:
    out = {
        "printed": tr("打印时间", "Printed"),
        "page_before": tr("第 ", "Page "),
        "page_middle": tr(" 页 / 共 ", " of "),
        "page_after": tr(" 页", ""),
    }
    if template in ("cards", "slips"):
        out |= {
            "board_before": tr("第", "Board"),
            "board_after": tr("台", ""),
            "black": tr("黑方", "Black"),
            "white": tr("白方", "White"),
        }
    if template == "slips":
        out |= {
            "slip": tr("记分单", "Score slip"),
            "name": tr("姓名", "Name"),
            "unit": tr("单位", "Unit"),
            "result": tr("结果 (请在一格内打√): ", "Result (tick one box): "),
            "count": tr("终局数子: 黑方", "Area count: Black"),
            "stones": tr("子", "stones"),
            "resign": tr("中盘胜", "by resignation"),
            "note": tr("备注", "Note"),
            "sign_black": tr("黑方签字", "Black's signature"),
            "sign_white": tr("白方签字", "White's signature"),
            "sign_referee": tr("裁判签字", "Referee's signature"),
        }
    if template == "certificates":
        out |= {
            "heading": tr("获奖证书", "Certificate"),
            "colon": tr("：", ""),
            "in": tr("在", "At "),
            "won": tr("中荣获", ", was awarded"),
            "closing": tr("特发此证，以资鼓励。", "In recognition of this achievement."),
            "open_paren": tr("（", " ("),
            "close_paren": tr("）", ")"),
        }
    return out
