"""Attachment names live in one field, ``registration.attachments.name_pattern`` (the upload
checks it); the old printed-only field is refused with the one to use, at its line."""

from __future__ import annotations

from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of, line_of
from yisai.formats.regulation_file import load
from yisai.formats.regulation_summary import summarize

SEED = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")


def test_the_old_field_is_refused_and_names_the_one_to_use() -> None:
    text = SEED.replace("[registration.attachments]",
                        'attachment_name_pattern = "XXX队_报名表"\n[registration.attachments]', 1)
    found = issues_of(text)
    section = line_of(text, "[registration]")
    assert found == [f"f.toml:{section}: registration: attachment_name_pattern 已不再使用: 附件命名写在 "
                     "[registration.attachments] 的 name_pattern (上传时按它检查), 请把该行移到那里"]


def test_the_summary_prints_the_enforced_pattern() -> None:
    reg = load(REGULATIONS / "2025-xiaoqiwang.toml")
    assert reg.registration.attachments is not None
    printed = "\n".join(summarize(reg))
    assert f"附件命名: {reg.registration.attachments.name_pattern}" in printed
    assert reg.registration.attachments.name_pattern == "XXX队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表"
