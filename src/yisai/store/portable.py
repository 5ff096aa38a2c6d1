"""One event, portable: every row of an event written to a file and read into another store with
new ids (``yisai event export`` / ``yisai event import``), the venue laptop to the server and back.

The file (``.yisai``, a tar.gz) holds ``event.json`` (format, schema, the rows of each table as
column → value) and the uploaded papers under ``files/``. Rows are found by ``event_id`` or
through their parent's id (games through rounds, team members through teams, result history
through games). On import every integer id is new: foreign keys are mapped, and so are the ids
kept as text inside rows: the audit's ``entity_id``, line-ups' players, the final entries, and a
round's stored pairing details (seats, members, bracket, seeds, team matches and line-ups).

The fee ledger travels too: provider orders, payments, refunds and the provider notifications
already applied (found through their orders' ``out_trade_no``). A payment or refund names its
subject by kind and id, and an order lists its items as ``[kind, id, 分]``: those ids are mapped
like foreign keys. An order number (``out_trade_no``) or refund number the target store already
holds (the same file imported twice) gets a new number in the copy, since the provider knows
only the original's; a notification already held there is not repeated (it is applied once).

Not carried: accounts (they belong to a site, not an event: a team's leader account is left
empty) and the online qualifier's rows and SMS notices (they name accounts); the export counts
what it left out so the CLI can say so.
"""

from __future__ import annotations

import io
import json
import secrets
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import Column, Connection, Date, DateTime, Select, Table, insert, select

from yisai.i18n import Text
from yisai.record.text import shown
from yisai.store import fee_models, live_models, notice_models, qualification_models, side_models  # noqa: F401 (tables)
from yisai.store.database import StoreError, head_revision, open_database
from yisai.store.files import FileStore
from yisai.store.models import Base

FORMAT = "yisai-event"
MEMBER = "event.json"
# Tables carried, parents first; each is selected by event_id or by its parent (column, table).
CARRIED = ("events", "players", "teams", "team_members", "entries", "rounds", "games", "result_changes",
           "papers", "check_ins", "player_changes", "appeals", "team_lineups", "notice_settings", "final_entries",
           "payment_orders", "fee_payments", "fee_refunds", "payment_notifications", "audit")
THROUGH = {"team_members": ("team_id", "teams"), "games": ("round_id", "rounds"),
           "result_changes": ("game_id", "games")}
BY_TRADE_NO = {"payment_notifications"}  # found through the event's orders' out_trade_no
SUBJECT_TABLE = {"entry": "entries", "team": "teams", "appeal": "appeals"}  # a fee's subject_kind
LEFT_OUT = ("notices", "live_games", "live_ladder", "live_waves", "live_sanctions", "live_decisions",
            "fairplay_signals", "qual_lists", "qual_places", "qual_notices")
ENTITY_TABLE = {"event": "events", "player": "players", "entry": "entries", "team": "teams", "round": "rounds",
                "game": "games", "paper": "papers", "appeal": "appeals", "check_in": "check_ins",
                "player_change": "player_changes", "lineup": "team_lineups", "order": "payment_orders"}
BULK = {"audit", "result_changes", "final_entries", "notice_settings", "payment_notifications"}  # new ids never needed
PLAYER_LISTS = {"members", "not_checked_in", "third", "players"}
PLAYER_KEYED = {"seats", "seeds", "origins"}


@dataclass(frozen=True)
class Exported:
    rows: dict[str, int]  # rows written per table
    files: int
    left_out: dict[str, int]  # rows of the event not carried (qualifier, notices)


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _read(column: Column[Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(column.type, Date):
        return date.fromisoformat(value)
    return value


def _rows(conn: Connection, event_id: int) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for name in CARRIED:
        t = _table(name)
        q: Select[Any] | None
        if name == "events":
            q = select(t).where(t.c.id == event_id)
        elif name in THROUGH:
            column, parent = THROUGH[name]
            ids = [r["id"] for r in found[parent]]
            q = select(t).where(t.c[column].in_(ids)) if ids else None
        elif name in BY_TRADE_NO:
            numbers = [r["out_trade_no"] for r in found["payment_orders"]]
            q = select(t).where(t.c.out_trade_no.in_(numbers)) if numbers else None
        else:
            q = select(t).where(t.c.event_id == event_id)
        rows = [dict(r._mapping) for r in conn.execute(q.order_by(*t.primary_key.columns))] if q is not None else []
        found[name] = rows
    return found


def export_event(db: str, event_id: int, files_root: Path, target: Path) -> Exported:
    """Write event ``event_id`` of store ``db`` (papers from ``files_root``) to ``target``."""
    if not target.parent.is_dir():
        raise StoreError(Text(f"输出目录不存在: {shown(str(target.parent), None)}",
                            f"the output folder does not exist: {shown(str(target.parent), None)}"))
    engine = open_database(db).engine  # a new SQLite file is made at head, an old schema refused
    try:
        with engine.connect() as conn, conn.begin():
            rows = _rows(conn, event_id)
            if not rows["events"]:
                raise StoreError(Text(f"没有编号为 {event_id} 的比赛", f"no event {event_id}"))
            left_out = {}
            for name in LEFT_OUT:
                t = _table(name)
                n = len(conn.execute(select(t.c.event_id).where(t.c.event_id == event_id)).all())
                if n:
                    left_out[name] = n
    finally:
        engine.dispose()
    store = FileStore(files_root)
    keys = [p["storage_key"] for p in rows["papers"] if p["storage_key"] and store.exists(p["storage_key"])]
    body = json.dumps({"format": FORMAT, "schema": head_revision(),
                       "tables": {name: [{k: _plain(v) for k, v in r.items()} for r in rs] for name, rs in rows.items()}},
                      ensure_ascii=False).encode()
    partial = target.with_name(target.name + ".part")
    with tarfile.open(partial, "w:gz") as tar:
        info = tarfile.TarInfo(MEMBER)
        info.size = len(body)
        tar.addfile(info, io.BytesIO(body))
        for key in keys:
            data = store.get(key)
            member = tarfile.TarInfo(str(PurePosixPath("files", key)))
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    partial.replace(target)
    return Exported({n: len(rs) for n, rs in rows.items()}, len(keys), left_out)


def _refuse(path: Path, zh: str, en: str) -> StoreError:
    where = shown(str(path), None)
    return StoreError(Text(f"{where} 不是可导入的 yisai 比赛文件: {zh}", f"{where} cannot be imported as an event exported by yisai: {en}"))


def _load(path: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    if not path.is_file():
        raise _refuse(path, "文件不存在", "no such file")
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(path, "r:*") as tar:
            first = tar.next()
            if first is None or first.name != MEMBER or not first.isfile():
                raise _refuse(path, "缺少 event.json", "it has no event.json")
            fh = tar.extractfile(first)
            assert fh is not None
            doc = json.loads(fh.read().decode("utf-8"))
            for member in tar:
                parts = PurePosixPath(member.name).parts
                if member.isfile() and len(parts) > 1 and parts[0] == "files" and ".." not in parts:
                    data = tar.extractfile(member)
                    assert data is not None
                    files["/".join(parts[1:])] = data.read()
    except (tarfile.TarError, OSError, EOFError):
        raise _refuse(path, "不是 yisai 比赛文件 (tar.gz)", "it is not an event archive written by yisai (tar.gz)") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _refuse(path, "event.json 无法读取", "event.json cannot be read") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("tables"), dict):
        raise _refuse(path, "内容不是 yisai 比赛的格式", "its content is not a yisai event")
    schema = str(doc.get("schema", ""))
    if not schema.isdigit() or int(schema) > int(head_revision()):
        raise _refuse(path, f"文件的数据库结构版本 {schema} 比本程序 ({head_revision()}) 新, 请先升级 yisai",
                      f"its schema {schema} is newer than this program's ({head_revision()}); update yisai first")
    return doc, files


def _ids(value: Any, mapping: dict[int, int]) -> Any:
    """An id kept as text or a number, mapped; anything else as it was."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return mapping.get(value, value)
    if isinstance(value, str) and value.isdigit():
        return str(mapping.get(int(value), int(value)))
    return value


def _round_info(info: Any, players: dict[int, int], teams: dict[int, int]) -> Any:
    """A round's stored details with player and team ids mapped (the shapes services write)."""
    if isinstance(info, list):
        return [_round_info(x, players, teams) for x in info]
    if not isinstance(info, dict):
        return info
    out: dict[str, Any] = {}
    for key, value in info.items():
        if key in PLAYER_LISTS and isinstance(value, list):
            out[key] = [_ids(v, players) for v in value]
        elif key in PLAYER_KEYED and isinstance(value, dict):
            out[key] = {_ids(k, players): v for k, v in value.items()}
        elif key == "bracket" and isinstance(value, list):
            out[key] = [[_ids(v, players) for v in pair] if isinstance(pair, list) else pair for pair in value]
        elif key == "team_matches" and isinstance(value, list):
            out[key] = [{**m, "a": _ids(m.get("a"), teams), "b": _ids(m.get("b"), teams),
                         "boards": [{**b, "a": _ids(b.get("a"), players), "b": _ids(b.get("b"), players)}
                                    for b in m.get("boards", [])]} if isinstance(m, dict) else m for m in value]
        elif key == "lineups" and isinstance(value, dict):
            out[key] = {_ids(k, teams): _round_info(v, players, teams) for k, v in value.items()}
        else:
            out[key] = _round_info(value, players, teams)
    return out


def import_event(db: str, path: Path, files_root: Path) -> tuple[int, dict[str, int]]:
    """Read the event file at ``path`` into store ``db`` (papers into ``files_root``) with new
    ids; returns the new event's id and the rows read per table. One transaction: all or nothing."""
    doc, files = _load(path)
    tables: dict[str, list[dict[str, Any]]] = doc["tables"]
    maps: dict[str, dict[int, int]] = {name: {} for name in CARRIED}
    engine = open_database(db).engine  # a new SQLite file is made at head, an old schema refused
    written: list[tuple[str, bytes]] = []
    renamed: dict[str, str] = {}  # an order number the target already holds → the copy's
    try:
        with engine.begin() as conn:
            for name in CARRIED:
                t = _table(name)
                bulk: list[dict[str, Any]] = []
                for raw in tables.get(name, []):
                    row = {c.name: _read(c, raw.get(c.name)) for c in t.columns if c.name in raw}
                    old_id = row.pop("id", None) if "id" in t.c and t.c.id.primary_key else None
                    for column in t.columns:
                        for fk in column.foreign_keys:
                            parent = fk.column.table.name
                            if row.get(column.name) is None:
                                continue
                            if parent in maps:
                                row[column.name] = maps[parent][row[column.name]]
                            else:
                                row[column.name] = None  # an account: belongs to the site left behind
                    _inner_ids(name, row, maps)
                    if not _fee_numbers(conn, name, row, renamed):
                        continue
                    if name == "papers" and row.get("storage_key"):
                        data = files.get(row["storage_key"])
                        key = f"event-{row['event_id']}/imported-{old_id}/{PurePosixPath(row['storage_key']).name}"
                        row["storage_key"] = key if data is not None else None
                        if data is not None:
                            written.append((key, data))
                    if name in BULK:  # no later row points at these: one executemany per table
                        bulk.append(row)
                        continue
                    result = conn.execute(insert(t).values(**row))
                    if old_id is not None:
                        new_key = result.inserted_primary_key
                        assert new_key is not None
                        maps[name][int(old_id)] = int(new_key[0])
                if bulk:  # every row has every column of its table (the export wrote whole rows)
                    conn.execute(insert(t), bulk)
            store = FileStore(files_root)
            for key, data in written:
                store.put(key, data)
    except StoreError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise _refuse(path, f"数据不完整 ({exc})", f"its data is incomplete ({exc})") from None
    except Exception as exc:
        raise StoreError(Text(f"导入失败, 数据库未改动: {exc}", f"import failed, the database is unchanged: {exc}")) from exc
    finally:
        engine.dispose()
    new_event = next(iter(maps["events"].values()), None)
    if new_event is None:
        raise _refuse(path, "文件中没有比赛", "it holds no event")
    return new_event, {n: len(tables.get(n, [])) for n in CARRIED}


def _inner_ids(name: str, row: dict[str, Any], maps: dict[str, dict[int, int]]) -> None:
    """Ids kept inside a row (text or JSON), mapped like the foreign keys."""
    players, teams = maps["players"], maps["teams"]
    mapped: dict[str, Callable[[Any], Any]] = {}
    if name == "rounds":
        mapped["info"] = lambda v: _round_info(v, players, teams)
    elif name == "team_lineups":
        mapped["players"] = lambda v: [_ids(p, players) for p in v] if isinstance(v, list) else v
    elif name == "final_entries":
        mapped["entry_id"] = lambda v: _ids(v, maps["entries"])
        mapped["player_id"] = lambda v: _ids(v, players)
    elif name in ("fee_payments", "fee_refunds"):
        row["subject_id"] = _subject_id(str(row["subject_kind"]), int(row["subject_id"]), maps)
    elif name == "payment_orders":
        mapped["team_id"] = lambda v: _ids(v, teams)
        mapped["items"] = lambda v: [[k, _subject_id(k, int(i), maps), a] for k, i, a in v]
    elif name == "audit" and row.get("entity") == "fee":
        mapped["entity_id"] = lambda v: _fee_subject(str(v), maps)
    elif name == "audit":
        table = ENTITY_TABLE.get(str(row.get("entity")))
        if table in maps:
            mapped["entity_id"] = lambda v: _ids(v, maps[table])
    for column, fn in mapped.items():
        if row.get(column) is not None:
            row[column] = fn(row[column])


def _subject_id(kind: str, number: int, maps: dict[str, dict[int, int]]) -> int:
    """A fee subject's id in the copy. A qualifier's place (``place``) is not carried (``LEFT_OUT``:
    the qualifier stays in its own database), so its payments keep the source's place id."""
    table = SUBJECT_TABLE.get(kind)
    return number if table is None else maps[table][number]


def _fee_subject(value: str, maps: dict[str, dict[int, int]]) -> str:
    """A fee audit line's ``kind:id``, the id mapped."""
    kind, _, number = value.partition(":")
    table = SUBJECT_TABLE.get(kind)
    if table is None or not number.isdigit():
        return value
    return f"{kind}:{maps[table].get(int(number), int(number))}"


def _fee_numbers(conn: Connection, name: str, row: dict[str, Any], renamed: dict[str, str]) -> bool:
    """Order and refund numbers are unique in a store: one the target already holds gets a new
    number in the copy. False for a notification the target already holds (skip it)."""
    if name == "payment_orders":
        old = row["out_trade_no"]
        t = _table(name)
        if conn.execute(select(t.c.id).where(t.c.out_trade_no == old)).first() is not None:
            row["out_trade_no"] = renamed[old] = f"YSC{secrets.token_hex(14).upper()}"[:32]
    elif name == "fee_refunds" and row.get("out_refund_no"):
        t = _table(name)
        if conn.execute(select(t.c.id).where(t.c.out_refund_no == row["out_refund_no"])).first() is not None:
            row["out_refund_no"] = f"RFC{secrets.token_hex(20).upper()}"[:64]
    elif name == "payment_notifications":
        row["out_trade_no"] = renamed.get(row["out_trade_no"], row["out_trade_no"])
        t = _table(name)
        held = select(t.c.id).where(t.c.provider == row["provider"], t.c.notify_id == row["notify_id"])
        return conn.execute(held).first() is None
    return True
