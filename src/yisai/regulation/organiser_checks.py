"""协办单位: a co-organiser is neither a host nor the organiser; the same name in two roles is a
slip of the file, refused naming ``organisers.co_organisers``."""

from __future__ import annotations

from yisai.i18n import Text
from yisai.regulation.findings import Finding
from yisai.regulation.schema import Regulation


def check_organisers(reg: Regulation) -> list[Finding]:
    o = reg.organisers
    roles = {**{n: "主办单位" for n in o.hosts}, **{n: "承办单位" for n in o.organisers}}
    out = []
    for k, name in enumerate(o.co_organisers):
        if name in roles:
            out.append(Finding(("organisers", "co_organisers", k),
                               Text(f"协办单位“{name}”同时列为{roles[name]}", f"co-organiser {name!r} is also "
                                    f"listed as {'a host' if roles[name] == '主办单位' else 'the organiser'}"),
                               Text("每个单位只写在一个角色下", "list each body under one role")))
    return out
