"""`yisai event export` / `yisai event import`: both seed events half-way, with a paper, carried
into a database that already holds another event: new ids, the same standings, prizes and
papers, every audit line plus the import's own; and the refusals."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from tests.papers.helpers import PDF
from yisai.cli.app import app
from yisai.formats.regulation_file import load as load_regulation
from yisai.services import papers
from yisai.services.context import open_context
from yisai.services.events import list_events, regulation_of, resolve_event
from yisai.services.identity import Actor
from yisai.services.reports import event_standings, prizes
from yisai.services.settings import Settings
from yisai.store import audit_rows, roster_rows, round_rows, team_rows
from yisai.web.demo_data import REGULATIONS, load_demo

runner = CliRunner()
SCALE = 0.1


def _snapshot(settings: Settings, event_id: int) -> dict[str, object]:
    """What must survive the trip, by names (ids change): standings per division, prize tables,
    the number of audit lines and the papers' bytes."""
    with open_context(settings) as ctx, ctx.work() as work:
        event = resolve_event(work, event_id)
        reg = regulation_of(event)
        tables = {}
        for d in reg.divisions:
            if not round_rows.round_numbers(work.session, event.id, d.id):
                continue
            s = event_standings(work, event.id, d.id).standings
            tables[d.id] = [(row.place, row.player.name, repr(sorted(row.values.items()))) for row in s.listed]
        prize = [repr(t) for t in prizes(work, event.id).prize_tables]
        audit = len(audit_rows.audit_log(work.session, event.id))
        files = sorted(papers.download(work, v.paper.id).data for team in papers.list_papers(work, event)
                       for v in team.papers)
    return {"standings": tables, "prizes": prize, "audit": audit, "files": files, "name": event.name}


def test_round_trip_into_a_database_with_another_event(tmp_path: Path) -> None:
    venue = Settings(database=str(tmp_path / "venue.sqlite"), files_dir=tmp_path / "venue.files",
                     actor=Actor.system())
    ids = load_demo(venue, scale=SCALE)
    with open_context(venue) as ctx, ctx.work() as work:
        event = resolve_event(work, ids[0])
        team = team_rows.list_teams(work.session, event.id)[0]
        papers.upload(work, event, team.id, papers.ENTRY_FORM, PDF, "报名表.pdf", force=True, note="补交")
    before = {i: _snapshot(venue, i) for i in ids}
    assert before[ids[0]]["files"] == [PDF] and before[ids[0]]["standings"]  # something to carry

    server = Settings(database=str(tmp_path / "server.sqlite"), files_dir=tmp_path / "server.files",
                      actor=Actor.system())
    load_demo(server, scale=SCALE, regulations=[REGULATIONS / "2025-shanhai-cup.toml"])  # already there
    exported = []
    for i in ids:
        out = tmp_path / f"event-{i}.yisai"
        r = runner.invoke(app, ["event", "export", str(i), "-o", str(out), "--db", venue.database],
                          env={"YISAI_FILES": str(venue.files_dir)})
        assert r.exit_code == 0, r.output
        exported.append(out)
    fresh = tmp_path / "new.sqlite"  # a file that does not exist yet is made at the program's schema
    r = runner.invoke(app, ["event", "import", str(exported[0]), "--db", str(fresh)], env={"YISAI_FILES": str(tmp_path / "n")})
    assert r.exit_code == 0, r.output
    assert _snapshot(replace(server, database=str(fresh), files_dir=tmp_path / "n"), 1)["standings"] == \
        before[ids[0]]["standings"]
    new_ids = []
    for out in exported:
        r = runner.invoke(app, ["event", "import", str(out), "--db", server.database],
                          env={"YISAI_FILES": str(server.files_dir)})
        assert r.exit_code == 0, r.output
        with open_context(server) as ctx, ctx.work() as work:
            new_ids.append(max(e.id for e in list_events(work)))
    assert new_ids == [2, 3]  # after the event the server held: ids remapped
    for old, new in zip(ids, new_ids, strict=True):
        after = _snapshot(server, new)
        want = before[old]
        assert after["name"] == want["name"]
        assert after["standings"] == want["standings"]
        assert after["prizes"] == want["prizes"]
        assert after["files"] == want["files"]
        # every line carried, one more for the import itself and one per paper downloaded here
        assert after["audit"] == int(want["audit"]) + 1 + len(want["files"])  # type: ignore[call-overload]
        with open_context(server) as ctx, ctx.work() as work:  # ids kept inside rounds point at this event's players
            own = {p.id for p in roster_rows.list_players(work.session, new)}
            members = [m for r in round_rows.list_rounds(work.session, new) for m in r.info.get("members", [])]
            games = [x for r in round_rows.list_rounds(work.session, new) for g in r.games for x in (g.black, g.white) if x]
        assert games and set(games) <= own and set(members) <= own
    with open_context(server) as ctx, ctx.work() as work:  # the event already there is untouched
        assert next(e.name for e in list_events(work)) == load_regulation(REGULATIONS / "2025-shanhai-cup.toml").name


def test_import_refuses_what_is_not_an_event_file(tmp_path: Path) -> None:
    bogus = tmp_path / "小棋王.yisai"
    bogus.write_text("not an archive", encoding="utf-8")
    r = runner.invoke(app, ["event", "import", str(bogus), "--db", str(tmp_path / "x.sqlite")])
    assert r.exit_code != 0 and "小棋王.yisai" in r.output and "不是可导入的 yisai 比赛文件" in r.output
    r = runner.invoke(app, ["event", "export", "7", "-o", str(tmp_path / "o.yisai"), "--db", str(tmp_path / "x.sqlite")])
    assert r.exit_code != 0


def test_the_same_file_imported_twice_makes_two_events(tmp_path: Path) -> None:
    """Same file, twice into one store: two independent events (nothing is merged by name)."""
    venue = Settings(database=str(tmp_path / "v.sqlite"), actor=Actor.system())
    [first, *_] = load_demo(replace(venue), scale=0.05, regulations=[REGULATIONS / "2025-xiaoqiwang.toml"])
    out = tmp_path / "e.yisai"
    assert runner.invoke(app, ["event", "export", str(first), "-o", str(out), "--db", venue.database]).exit_code == 0
    for _ in range(2):
        assert runner.invoke(app, ["event", "import", str(out), "--db", venue.database]).exit_code == 0
    snaps = [_snapshot(venue, i) for i in (1, 2, 3)]
    assert snaps[1]["standings"] == snaps[2]["standings"] == snaps[0]["standings"]


def test_from_the_venue_sqlite_to_a_postgresql_server(tmp_path: Path) -> None:
    """The trip the issue names: the laptop's SQLite file to the server's PostgreSQL."""
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.store.conftest import postgres_base_url
    from yisai.store import upgrade_database

    base = make_url(postgres_base_url())
    name = f"yisai_ev_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = base.set(database=name).render_as_string(hide_password=False)
    try:
        upgrade_database(url)
        venue = Settings(database=str(tmp_path / "v.sqlite"), actor=Actor.system())
        [first] = load_demo(venue, scale=0.05, regulations=[REGULATIONS / "2025-xiaoqiwang.toml"])
        out = tmp_path / "小棋王.yisai"
        assert runner.invoke(app, ["event", "export", str(first), "-o", str(out), "--db", venue.database]).exit_code == 0
        r = runner.invoke(app, ["event", "import", str(out), "--db", url], env={"YISAI_FILES": str(tmp_path / "f")})
        assert r.exit_code == 0, r.output
        server = Settings(database=url, actor=Actor.system())
        want, got = _snapshot(venue, first), _snapshot(server, 1)
        assert got["standings"] == want["standings"] and got["prizes"] == want["prizes"]
        assert got["audit"] == int(want["audit"]) + 1  # type: ignore[call-overload]
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
