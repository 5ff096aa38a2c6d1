"""A member register (会员名单): "须为本协会注册会员", "俱乐部在册会员".

The director imports the list (names, with an ID-card or member number where the register has
one); eligibility reads it. A row with an 18-digit ID number matches that number only (two
people may share a name); a row without one matches the name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yisai.registry.person import Player


@dataclass(frozen=True, slots=True)
class MemberList:
    rows: tuple[tuple[str, str], ...]  # (name, ID number or "")

    @classmethod
    def of(cls, rows: Iterable[Iterable[str]]) -> MemberList:
        out = []
        for row in rows:
            cells = [str(c).strip() for c in row]
            if cells and cells[0]:
                out.append((cells[0], (cells[1] if len(cells) > 1 else "").upper()))
        return cls(tuple(out))

    def holds(self, player: Player) -> bool:
        own = (player.id_number or "").strip().upper()
        for name, number in self.rows:
            if len(number) == 18:
                if own == number:
                    return True
            elif name == player.name.strip():
                return True
        return False
