"""The database moves the revisions itself: triggers on games, rounds, players, entries, teams,
team members and audit lines, so a write that goes around the ORM (a Core ``update()`` or
``delete()``, raw SQL, an ``ON DELETE CASCADE``) moves them as surely as one through it
(store.revisions).

* a change to a game moves its round's ``revision``;
* a change to a round (its own, or one its games made) moves its event's ``revision``;
* a change to a player or an entry moves its event's ``roster_revision`` and ``revision``;
* a change to a team or a team member, and a new audit line of the event, move its ``revision``.

A new value is ``max(old + 1, clock)``: strictly increasing per row, and a clock reading so a
row deleted and made again under a reused id never repeats an earlier (id, revision). The
event's ``revision`` (new here) is what its public pages are keyed on (``web_rows.event_stamp``).

On SQLite, a later ``batch_alter_table`` on one of these tables copies the table and drops its
triggers: such a migration must create them again (``_sqlite`` here names each one).

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

# (table, the event it belongs to as an SQL expression over a row alias, the event columns it moves)
_EVENT_SOURCES = (
    ("rounds", "{row}.event_id", ("revision",)),
    ("players", "{row}.event_id", ("roster_revision", "revision")),
    ("entries", "{row}.event_id", ("roster_revision", "revision")),
    ("teams", "{row}.event_id", ("revision",)),
    ("team_members", "(SELECT t.event_id FROM teams t WHERE t.id = {row}.team_id)", ("revision",)),
)

# SQLite: milliseconds since the epoch in nanoseconds, with a random part below the millisecond
_SQLITE_CLOCK = ("(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 1000000"
                 " + abs(random() % 1000000))")


def _sqlite_moves(columns: tuple[str, ...]) -> str:
    return ", ".join(f"{c} = max({c} + 1, {_SQLITE_CLOCK})" for c in columns)


def _sqlite() -> None:
    statements = []
    for op_name, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
        body = "".join(f"UPDATE rounds SET {_sqlite_moves(('revision',))} WHERE id = {r}.round_id; " for r in rows)
        statements.append(f"CREATE TRIGGER games_move_round_{op_name.lower()} AFTER {op_name} ON games "
                          f"FOR EACH ROW BEGIN {body}END")
        for table, event, columns in _EVENT_SOURCES:
            body = "".join(f"UPDATE events SET {_sqlite_moves(columns)} WHERE id = {event.format(row=r)}; "
                           for r in rows)
            statements.append(f"CREATE TRIGGER {table}_move_event_{op_name.lower()} AFTER {op_name} ON {table} "
                              f"FOR EACH ROW BEGIN {body}END")
    # a round added by raw SQL gets a fresh revision too (its default 0 may have been used before)
    statements.append(f"CREATE TRIGGER rounds_fresh_revision AFTER INSERT ON rounds FOR EACH ROW "
                      f"BEGIN UPDATE rounds SET {_sqlite_moves(('revision',))} WHERE id = NEW.id; END")
    statements.append(f"CREATE TRIGGER audit_move_event AFTER INSERT ON audit FOR EACH ROW "
                      f"WHEN NEW.event_id IS NOT NULL "
                      f"BEGIN UPDATE events SET {_sqlite_moves(('revision',))} WHERE id = NEW.event_id; END")
    # the event's own row changed around the ORM (its settings, its regulation)
    statements.append(f"CREATE TRIGGER events_move_self AFTER UPDATE ON events FOR EACH ROW "
                      f"WHEN NEW.revision = OLD.revision "
                      f"BEGIN UPDATE events SET {_sqlite_moves(('revision',))} WHERE id = NEW.id; END")
    for statement in statements:
        op.execute(statement)


_PG_CLOCK = ("CREATE OR REPLACE FUNCTION yisai_clock() RETURNS bigint LANGUAGE sql VOLATILE AS $$ "
             "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint * 1000 "
             "+ floor(random() * 1000)::bigint $$")


def _pg_moves(columns: tuple[str, ...]) -> str:
    return ", ".join(f"{c} = greatest({c} + 1, yisai_clock())" for c in columns)


def _pg_function(name: str, target: str, key: str, source: str, columns: tuple[str, ...]) -> str:
    """A statement-level trigger function: every ``target`` row named by ``key`` in the
    statement's old and new rows moves on once per statement."""
    moves = _pg_moves(columns)
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF TG_OP IN ('INSERT', 'UPDATE') THEN UPDATE {target} SET {moves} WHERE id IN "
            f"(SELECT {key.format(row='n')} FROM new_rows n); END IF; "
            f"IF TG_OP IN ('UPDATE', 'DELETE') THEN UPDATE {target} SET {moves} WHERE id IN "
            f"(SELECT {key.format(row='o')} FROM old_rows o); END IF; "
            f"RETURN NULL; END $$")


def _pg_triggers(table: str, function: str) -> list[str]:
    return [f"CREATE TRIGGER {table}_{function}_insert AFTER INSERT ON {table} REFERENCING NEW TABLE AS new_rows "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"CREATE TRIGGER {table}_{function}_update AFTER UPDATE ON {table} "
            f"REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"CREATE TRIGGER {table}_{function}_delete AFTER DELETE ON {table} REFERENCING OLD TABLE AS old_rows "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()"]


def _postgresql() -> None:
    """Functions are created or replaced: a schema whose tables were dropped keeps them."""
    statements = [_PG_CLOCK,
                  _pg_function("yisai_games_move", "rounds", "{row}.round_id", "games", ("revision",)),
                  *_pg_triggers("games", "yisai_games_move")]
    for table, event, columns in _EVENT_SOURCES:
        function = f"yisai_{table}_move"
        statements += [_pg_function(function, "events", event, table, columns), *_pg_triggers(table, function)]
    statements += [
        "CREATE OR REPLACE FUNCTION yisai_round_fresh() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "NEW.revision := greatest(NEW.revision, yisai_clock()); RETURN NEW; END $$",
        "CREATE TRIGGER rounds_fresh_revision BEFORE INSERT ON rounds FOR EACH ROW EXECUTE FUNCTION yisai_round_fresh()",
        "CREATE OR REPLACE FUNCTION yisai_audit_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"UPDATE events SET {_pg_moves(('revision',))} WHERE id IN "
        "(SELECT n.event_id FROM new_rows n WHERE n.event_id IS NOT NULL); RETURN NULL; END $$",
        "CREATE TRIGGER audit_move_event AFTER INSERT ON audit REFERENCING NEW TABLE AS new_rows "
        "FOR EACH STATEMENT EXECUTE FUNCTION yisai_audit_move()",
        "CREATE OR REPLACE FUNCTION yisai_event_self() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF NEW.revision = OLD.revision THEN NEW.revision := greatest(OLD.revision + 1, yisai_clock()); END IF; "
        "RETURN NEW; END $$",
        "CREATE TRIGGER events_move_self BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION yisai_event_self()",
    ]
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("revision", sa.BigInteger(), nullable=False, server_default="0"))
    op.execute("UPDATE events SET revision = roster_revision")
    if op.get_bind().dialect.name == "postgresql":
        _postgresql()
    else:
        _sqlite()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in ("games", *(t for t, _, _ in _EVENT_SOURCES)):
            for kind in ("insert", "update", "delete"):
                function = "yisai_games_move" if table == "games" else f"yisai_{table}_move"
                op.execute(f"DROP TRIGGER IF EXISTS {table}_{function}_{kind} ON {table}")
        for trigger, table in (("rounds_fresh_revision", "rounds"), ("audit_move_event", "audit"),
                               ("events_move_self", "events")):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table}")
        for function in ("yisai_games_move", *(f"yisai_{t}_move" for t, _, _ in _EVENT_SOURCES),
                         "yisai_round_fresh", "yisai_audit_move", "yisai_event_self", "yisai_clock"):
            op.execute(f"DROP FUNCTION IF EXISTS {function}()")
    else:
        for kind in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS games_move_round_{kind}")
            for table, _, _ in _EVENT_SOURCES:
                op.execute(f"DROP TRIGGER IF EXISTS {table}_move_event_{kind}")
        for trigger in ("rounds_fresh_revision", "audit_move_event", "events_move_self"):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("revision")
