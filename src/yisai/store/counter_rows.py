"""Row access for the shared windowed counters (``rate_counters``); called only by
``yisai.services.counters``."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yisai.store.notice_models import RateCounterRow


def hit(s: Session, key: str, now: float, window: float) -> tuple[int, float]:
    """Count one more for ``key`` and say the count and when its window ends. The first hit
    opens a window of ``window`` seconds; an ended window starts again. One ``UPDATE`` of the
    row (the row lock on PostgreSQL, the write lock on SQLite), so two workers never both count
    the same number; windows that have ended are dropped on the way."""
    s.execute(delete(RateCounterRow).where(RateCounterRow.expires <= now)
              .execution_options(synchronize_session=False))  # fmt: skip
    bump = (update(RateCounterRow).where(RateCounterRow.key == key)
            .values(hits=RateCounterRow.hits + 1)
            .returning(RateCounterRow.hits, RateCounterRow.expires)
            .execution_options(synchronize_session=False))  # fmt: skip
    found = s.execute(bump).first()
    if found is not None:
        return int(found[0]), float(found[1])
    try:
        with s.begin_nested():
            s.add(RateCounterRow(key=key, hits=1, expires=now + window))
        return 1, now + window
    except IntegrityError:  # another worker opened the window first: count on its row
        again = s.execute(bump).one()
        return int(again[0]), float(again[1])


def peek(s: Session, key: str, now: float) -> tuple[int, float]:
    """The count of ``key``'s open window and when it ends (0 and ``now`` without one)."""
    found = s.execute(select(RateCounterRow.hits, RateCounterRow.expires)
                      .where(RateCounterRow.key == key, RateCounterRow.expires > now)).first()  # fmt: skip
    return (int(found[0]), float(found[1])) if found is not None else (0, now)


def forget(s: Session, key: str) -> None:
    s.execute(delete(RateCounterRow).where(RateCounterRow.key == key).execution_options(synchronize_session=False))


def clear(s: Session, prefix: str) -> int:
    """Forget every window whose key starts with ``prefix`` (digits, letters and ``:`` only)."""
    done = s.execute(delete(RateCounterRow).where(RateCounterRow.key.startswith(prefix, autoescape=True))
                     .execution_options(synchronize_session=False))  # fmt: skip
    return int(getattr(done, "rowcount", 0) or 0)
