"""报名名额 (text 17: "每参赛棋手收报名费120元,限报40名"; text 12: "限額100人,額滿提前截止"): the
kids' example with 段位组 limited to 2 entries and the whole event to 3.

Counted by hand: live entries (approved or pending) hold a place. 段位组: 王一, 李二 take its 2
places, so 赵三 is the 3rd and is refused quoting "限报2名"; the chief referee admits him over the
limit with a reason (the entry says 超额报名). The event: 3 live entries (王一, 李二, 赵三), so a
级位组 entry is the 4th against "限报3名" and refused; rejecting 李二 frees one place
(3 − 1 = 2 live), and the 级位组 entry is then taken.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from yisai.registry.person import Gender, Player
from yisai.services import approvals, capacity, entries, events
from yisai.services.context import Context, Refused, open_context
from yisai.store import EventRecord
from yisai.vocabulary.rank import Rank

NOW = datetime(2026, 3, 1, 9, 0)  # inside the window (2026-02-20 … 2026-03-20)
REASON = "市协会推荐的外地棋手, 经裁判长同意"


def _regulation(tmp_path: Path, close_when_full: bool = True) -> Path:
    text = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")
    text = text.replace('name = "段位组"\n', 'name = "段位组"\ncapacity = 2\n', 1)
    extra = "" if close_when_full else "close_when_full = false\n"
    text = text.replace("[registration]\n", f"[registration]\ncapacity = 3\n{extra}", 1)
    path = tmp_path / "kids.toml"
    path.write_text(text, "utf-8")
    return path


def _ctx(tmp_path: Path, close_when_full: bool = True) -> Iterator[Context]:
    with open_context(str(tmp_path / "c.sqlite"), actor="裁判长", now=NOW) as c:
        with c.work() as w:
            events.create_event(w, _regulation(tmp_path, close_when_full), seed=1)
        yield c


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Context]:
    yield from _ctx(tmp_path)


def _player(name: str, seq: int, rank: str = "2段") -> Player:
    born = date(2014, 3, seq)
    return Player(id="", name=name, gender=Gender.MALE, birth_date=born, rank=Rank.parse(rank),
                  id_number=make_id_number("330203", born, seq, Gender.MALE), certificate_no=f"C{seq}")


def _enter(ctx: Context, name: str, seq: int, division: str = "段位组", rank: str = "2段",
           **kw: object) -> entries.Registered:
    with ctx.work() as w:
        return entries.register_player(w, events.resolve_event(w, 1), _player(name, seq, rank),
                                       division=division, **kw)  # type: ignore[arg-type]


def _event(w) -> EventRecord:  # type: ignore[no-untyped-def]
    return events.resolve_event(w, 1)


def test_the_entry_past_the_division_limit_is_refused_quoting_it(ctx: Context) -> None:
    _enter(ctx, "王一", 1)
    _enter(ctx, "李二", 2)
    with pytest.raises(Refused) as info:
        _enter(ctx, "赵三", 3)
    assert "段位组名额已满: 规程限报2名, 已报2名" in info.value.render()
    assert info.value.code == "entries_full"
    with ctx.work() as w:  # nothing of 赵三 was kept
        assert [v.player.name for v in entries.list_entries(w, _event(w))] == ["王一", "李二"]


def test_the_chief_referee_admits_over_the_limit_with_a_reason(ctx: Context) -> None:
    _enter(ctx, "王一", 1)
    _enter(ctx, "李二", 2)
    saved = _enter(ctx, "赵三", 3, late=True, note=REASON)
    assert saved.entry is not None and saved.entry.note == f"超额报名 (裁判长批准: {REASON})"
    with ctx.work() as w:
        shown = [p.text.zh for p in capacity.event_places(w, 1, events.regulation_of(_event(w)))]
    # 段位组 3 live of 2; all divisions 3 live of 3
    assert shown == ["段位组名额: 已报 3 / 2", "全部组别名额: 已报 3 / 3"]


def test_the_event_limit_counts_every_division_and_a_rejection_frees_a_place(ctx: Context) -> None:
    _enter(ctx, "王一", 1)
    second = _enter(ctx, "李二", 2)
    _enter(ctx, "赵三", 3, late=True, note=REASON)
    with pytest.raises(Refused) as info:
        _enter(ctx, "钱四", 4, division="级位组", rank="3级")
    assert "全部组别名额已满: 规程限报3名, 已报3名" in info.value.render()
    with ctx.work() as w:
        assert second.entry is not None
        approvals.reject_entry(w, second.entry.id, "证书不符")
    saved = _enter(ctx, "钱四", 4, division="级位组", rank="3级")  # 3 − 1 rejected = 2 live < 3
    assert saved.entry is not None and saved.entry_created


def test_pending_entries_hold_their_place(ctx: Context) -> None:
    # 李二 has no certificate number: his entry waits (pending), and still holds a place.
    _enter(ctx, "王一", 1)
    with ctx.work() as w:
        p = _player("李二", 2).model_copy(update={"certificate_no": None})
        waiting = entries.register_player(w, _event(w), p, division="段位组")
    assert waiting.entry is not None and waiting.entry.status.value == "pending"
    with pytest.raises(Refused):
        _enter(ctx, "赵三", 3)


def test_without_closing_when_full_the_entry_waits_as_a_reserve(tmp_path: Path) -> None:
    for c in _ctx(tmp_path, close_when_full=False):
        _enter(c, "王一", 1)
        _enter(c, "李二", 2)
        third = _enter(c, "赵三", 3)
        assert third.entry is not None and third.entry.status.value == "pending"
        assert any("候补" in r.zh and "限报2名" in r.zh for r in third.entry.reasons)


def test_regulation_show_states_the_limits(tmp_path: Path) -> None:
    from yisai.formats.regulation_file import load
    from yisai.formats.regulation_summary import summarize

    text = "\n".join(summarize(load(_regulation(tmp_path))))
    assert "名额: 段位组限报2名、全部组别合计限报3名; 额满提前截止" in text



def test_a_roster_over_the_limit_imports_nothing(ctx: Context, tmp_path: Path) -> None:
    from tests.formats.roster_files import write_csv
    from yisai.services import roster_import

    _enter(ctx, "王一", 1)
    rows = []
    for k, name in enumerate(["李二", "赵三"], start=2):  # 1 + 2 = 3 段位组 entries against 限报2名
        born = date(2014, 3, k)
        rows.append([k, name, "男", born.isoformat(), make_id_number("330203", born, k, Gender.MALE), "2段",
                     f"C{k}", "浙江", "宁波", "", "", "段位组", "", "", ""])
    path = write_csv(tmp_path / "名单.csv", rows, "utf-8")
    with pytest.raises(Refused) as info, ctx.work() as w:
        roster_import.import_roster(w, _event(w), path.read_bytes(), path.name)
    assert "限报2名" in info.value.render()
    with ctx.work() as w:  # the first row (李二) was not kept either
        assert [v.player.name for v in entries.list_entries(w, _event(w))] == ["王一"]


def test_close_when_full_without_a_limit_is_refused_by_check(tmp_path: Path) -> None:
    from yisai.formats.regulation_file import load
    from yisai.regulation.loader import RegulationError

    text = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")
    path = tmp_path / "k.toml"
    path.write_text(text.replace("[registration]\n", "[registration]\nclose_when_full = true\n", 1), "utf-8")
    with pytest.raises(RegulationError) as info:
        load(path)
    assert "k.toml:227: registration.close_when_full: 没有限报人数 (capacity)" in str(info.value)


def test_a_division_limit_not_below_the_event_limit_is_refused_by_check(tmp_path: Path) -> None:
    """限报3名 in all with 段位组 限额3人 (or 5): the division can never fill before the event does."""
    from yisai.formats.regulation_file import load
    from yisai.regulation.loader import RegulationError

    for division_cap in (3, 5):
        path = _regulation(tmp_path)
        path.write_text(path.read_text("utf-8").replace("capacity = 2\n", f"capacity = {division_cap}\n", 1), "utf-8")
        with pytest.raises(RegulationError) as info:
            load(path)
        assert f"capacity: 段位组限报{division_cap}人, 不少于全部组别合计的限报3人" in str(info.value)
    load(_regulation(tmp_path))  # 2 of 3: a limit of its own


def test_the_cli_entry_list_shows_the_places_and_the_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.cli_runner import as_director, run_cli

    as_director(monkeypatch, tmp_path / "cli.sqlite", "2026-03-01T09:00")
    run_cli("event", "create", "--regulation", str(_regulation(tmp_path)), "--seed", "1")
    for k, name in enumerate(["王一", "李二", "赵三"], start=1):
        number = make_id_number("330203", date(2014, 3, k), k, Gender.MALE)
        args = ["player", "add", "--name", name, "--id-number", number, "--rank", "2段", "--cert", f"C{k}",
                "--division", "段位组"]
        if k == 3:  # the 3rd against 限报2名
            refused = run_cli(*args, code=1)
            assert "限报2名" in refused
            run_cli(*args, "--late", "--note", REASON)
        else:
            run_cli(*args)
    listed = run_cli("entry", "list")
    # 段位组: 王一, 李二 and 赵三 (admitted over the limit) = 3 of 2; all divisions 3 of 3
    assert "段位组名额: 已报 3 / 2" in listed and "全部组别名额: 已报 3 / 3" in listed
    assert "超额报名 (裁判长批准" in listed
