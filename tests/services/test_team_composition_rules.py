"""Team composition stated by the 规程 is a registration rule: "每队4人(其中至少1名女棋手)"
refuses a team of four men when it registers, with the reason; and `regulation show` says it,
with the per-region limit (每个参赛单位限报N队) that used to be printed only beside max_teams."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS

LEAGUE = (REGULATIONS / "examples" / "team-league.toml").read_text("utf-8")


def _variant(tmp: Path) -> str:
    text = LEAGUE.replace("max_teams = 8\nmax_players = 4\n", "max_players = 4\nmin_women = 1\nper_region = 2\n", 1)
    assert "min_women = 1\nper_region = 2" in text
    path = tmp / "league-women.toml"
    path.write_text(text, "utf-8")
    return str(path)


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    as_director(monkeypatch, tmp_path / "league.sqlite", "2026-03-20T09:00")
    return run_cli


def test_a_team_without_a_woman_is_refused_at_registration(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    reg = _variant(tmp_path)
    run("event", "create", "--regulation", reg, "--seed", "1")
    for k, (name, gender) in enumerate((("甲一", "男"), ("甲二", "男"), ("甲三", "男"), ("甲四", "男"),
                                        ("乙女", "女")), start=1):
        run("player", "add", "--name", name, "--gender", gender, "--birth", f"199{k}-01-15", "--division", "团体组")
    out = run("team", "add", "--name", "甲队", "-m", "1", "-m", "2", "-m", "3", "-m", "4", code=1)
    assert "不符合组队规定" in out and "女队员0人" in out and "至少1名女棋手" in out
    # three men and the woman: registered
    out = run("team", "add", "--name", "甲队", "-m", "1", "-m", "2", "-m", "3", "-m", "5")
    assert "女队员" not in out


def test_regulation_show_states_the_composition_and_the_region_limit(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = run("regulation", "show", _variant(tmp_path))
    assert "每队最多4人(其中至少1名女棋手, 报名时检查)" in out
    assert "每个参赛单位(地区)限报2支队" in out


def test_more_women_than_a_team_can_hold_is_refused() -> None:
    from yisai.regulation.loader import RegulationError, loads

    with pytest.raises(RegulationError) as err:
        loads(LEAGUE.replace("max_players = 4\n", "max_players = 4\nmin_women = 5\n", 1), "league.toml")
    assert "min_women" in str(err.value) and "最多只能报4名" in str(err.value)


def test_entries_of_a_team_without_a_woman_are_not_approved_unforced(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = Path(_variant(tmp_path))
    path.write_text(path.read_text("utf-8") + "\n[registration]\napproval_required = true\n", "utf-8")
    run("event", "create", "--regulation", str(path), "--seed", "1")
    for k, name in enumerate(("甲一", "甲二", "甲三", "甲四"), start=1):
        run("player", "add", "--name", name, "--gender", "男", "--birth", f"199{k}-01-15", "--division", "团体组")
    run("team", "add", "--name", "甲队", "-m", "1", "-m", "2", "-m", "3", "-m", "4",
        "--force", "--note", "女棋手赛前补报")
    out = run("entry", "approve", "1", code=1)
    assert "未批准" in out and "所在的甲队女队员0人, 规程要求每队至少1名女棋手" in out
    run("entry", "approve", "--all")  # the batch leaves them pending
    assert not any(name in run("entry", "list", "--status", "approved") for name in ("甲一", "甲二"))
    listed = run("entry", "list", "--status", "pending")
    assert all(name in listed for name in ("甲一", "甲二", "甲三", "甲四"))
    run("entry", "approve", "1", "--force", "--note", "女棋手赛前补报")
    assert "甲一" in run("entry", "list", "--status", "approved")


def test_one_team_per_club_is_enforced(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 41: "每个俱乐部限报1队" (``kind = "club"``, ``per_region = 1``) was accepted by check
    and enforced nothing. A club team stands for the club its members name (else its own name):
    a second team of 弈林俱乐部 players is refused, a team of another club is not."""
    text = LEAGUE.replace("max_teams = 8\nmax_players = 4\n", "max_players = 4\nper_region = 1\n", 1)
    path = tmp_path / "league-club.toml"
    path.write_text(text, "utf-8")
    run("event", "create", "--regulation", str(path), "--seed", "1")
    clubs = ["弈林俱乐部"] * 6 + ["天元棋院"] * 3
    for k, club in enumerate(clubs, start=1):
        run("player", "add", "--name", f"棋手{k}", "--gender", "男", "--birth", f"199{k % 10}-01-15",
            "--division", "团体组", "--club", club)
    run("team", "add", "--name", "弈林一队", "-m", "1", "-m", "2", "-m", "3")
    out = run("team", "add", "--name", "弈林二队", "-m", "4", "-m", "5", "-m", "6", code=1)
    assert "弈林俱乐部已报1支" in out and "限报1支" in out
    run("team", "add", "--name", "天元队", "-m", "7", "-m", "8", "-m", "9")
