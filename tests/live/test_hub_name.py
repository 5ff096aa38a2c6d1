"""A live process's name in the cluster: its label plus a token drawn at every start, within
the store's 64-character owner column however long the host name."""

from __future__ import annotations

import re
from pathlib import Path

from yisai.live.server import LiveHub, LiveOptions
from yisai.services.context import open_context


def test_each_start_is_a_new_name_and_a_long_host_name_still_fits(tmp_path: Path) -> None:
    ctx = open_context(f"sqlite:///{tmp_path / 'n.sqlite'}", actor="测试")
    try:
        pod = "yisai-live-7d9f8c6b5d-" + "x" * 41  # 63 characters, as a Kubernetes pod may be
        first, again = (LiveHub(ctx, LiveOptions(secret="s", owner=pod)) for _ in range(2))
        assert first.me != again.me  # a restart under the same label is another process
        for hub in (first, again):
            assert len(hub.me) <= 64 and re.fullmatch(re.escape(pod[:48]) + r"/[0-9a-f]{8}", hub.me)
        assert re.fullmatch(r"A/[0-9a-f]{8}", LiveHub(ctx, LiveOptions(secret="s", owner="A")).me)
    finally:
        ctx.close()
