"""Row access for players (one event's register); player ids outside the store are ``str(players.id)``."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.registry.person import Gender, Player, ProStatus
from yisai.store.audit_rows import audit
from yisai.store.errors import Conflict, NotFound
from yisai.store.models import PlayerRow
from yisai.store.records import Stamp
from yisai.vocabulary.rank import Rank


def player_value(row: PlayerRow) -> Player:
    return Player(
        id=str(row.id),
        name=row.name,
        gender=Gender(row.gender),
        birth_date=row.birth_date,
        id_number=row.id_number,
        rank=Rank(row.rank) if row.rank is not None else None,
        pro_status=ProStatus(row.pro_status),
        certificate_no=row.certificate_no,
        region=row.region,
        province=row.province,
        city=row.city,
        club=row.club,
        phone=row.phone,
        rating=row.rating,
    )


_PLAYER_FIELDS = (
    "name", "birth_date", "id_number", "certificate_no", "region", "province", "city", "club",
    "phone", "rating",
)  # fmt: skip


def _fill_player(row: PlayerRow, p: Player) -> None:
    for f in _PLAYER_FIELDS:
        setattr(row, f, getattr(p, f))
    row.gender = p.gender.value
    row.rank = p.rank.value if p.rank is not None else None
    row.pro_status = p.pro_status.value


def player_number(player_id: str | int) -> int:
    """The row key of a player id, or NotFound when it is not a number."""
    try:
        return int(player_id)
    except (TypeError, ValueError):
        raise NotFound(Text(f"棋手编号应为数字: {player_id!r}", f"the player number must be a number: {player_id!r}")) from None


def player_row(s: Session, player_id: str | int) -> PlayerRow:
    """The player's row (for the store's row modules: team seats, round boards), or NotFound."""
    row = s.get(PlayerRow, player_number(player_id))
    if row is None:
        raise NotFound(Text(f"没有编号为{player_id}的棋手", f"no player numbered {player_id}"))
    return row


def add_player(s: Session, by: Stamp, event_id: int, player: Player) -> Player:
    if player.id_number and find_player(s, event_id, id_number=player.id_number):
        raise Conflict(Text(f"身份证号{player.id_number}已登记",
                            f"ID number {player.id_number} is already registered"))
    row = PlayerRow(event_id=event_id)
    _fill_player(row, player)
    s.add(row)
    s.flush()
    saved = player_value(row)
    audit(s, by, event_id, "create", "player", row.id, None, saved.model_dump(mode="json"))
    return saved


def update_player(s: Session, by: Stamp, player: Player, note: str = "") -> Player:
    row = player_row(s, player.id)
    before = player_value(row)
    _fill_player(row, player)
    s.flush()
    after = player_value(row)
    if after != before:
        audit(
            s, by, row.event_id, "update", "player", row.id,
            before.model_dump(mode="json"), after.model_dump(mode="json"), note,
        )  # fmt: skip
    return after


def get_player(s: Session, player_id: str | int) -> Player:
    return player_value(player_row(s, player_id))


def player_event(s: Session, player_id: str | int) -> int:
    return player_row(s, player_id).event_id


def find_player(
    s: Session,
    event_id: int,
    *,
    id_number: str | None = None,
    name: str | None = None,
    birth_date: date | None = None,
) -> Player | None:
    """Match on the ID number when given, else on name + birth date (how rosters identify)."""
    q = select(PlayerRow).where(PlayerRow.event_id == event_id)
    if id_number:
        q = q.where(PlayerRow.id_number == id_number)
    elif name and birth_date:
        q = q.where(PlayerRow.name == name, PlayerRow.birth_date == birth_date)
    else:
        return None
    row = s.scalars(q.order_by(PlayerRow.id)).first()
    return player_value(row) if row else None
