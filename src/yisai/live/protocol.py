"""The live socket's frame protocol: the ticket a player connects with, and the messages.

Protocol (JSON text frames; ``t`` is the type). Connect to ``/live/ws?ticket=...`` (a signed
ticket naming the player, their name and division, good for ``TICKET_SECONDS``: ``issue_ticket``);
no ticket = spectator. A refused ticket gets ``error`` ``bad_ticket`` or ``ticket_expired`` and
the socket is closed with code 4401 (the page renews the ticket from ``/play/ticket``).

client → server                                  server → client
  {"t":"focus","game":id,"lost":n}                  (none: the page lost focus n times so far)
  {"t":"queue"} / {"t":"leave"}                    {"t":"welcome","player","games":[ids]}
  {"t":"join","game":id}                           {"t":"queued","pool","period"}
  {"t":"act","game":id,"kind":"move|pass|resign|   {"t":"matched","game","color","opponent"}
        toggle|accept|reject","point":"D4",        {"t":"state","game",...}   (full resync)
        "version":n}                               {"t":"ack","game","seq","version","duplicate"}
  {"t":"sync","game":id}                           {"t":"update","game","action","version","state"}
  {"t":"pong","at":<the ping's at>}                {"t":"refused","game","code","message","version"}
  (any frame counts as presence)
                                                   {"t":"ended","game","result","reason"}
                                                   {"t":"ping"}, {"t":"error","code","message"}
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from yisai.game.flow import Phase
from yisai.i18n import Text
from yisai.live.sockets import Slot
from yisai.qualifier.session import Action

TICKET_SALT = "yisai-live-ticket"
# A ticket is accepted for this long after it was issued (wall time). The page fetches a fresh
# one from ``/play/ticket`` when the socket says it expired, so a long day at the board is not
# interrupted; a ticket copied out of a log or a shared link stops working within hours.
TICKET_SECONDS = 4 * 3600


@dataclass(frozen=True)
class Ticket:
    player: str
    name: str
    division: str
    expires: float  # epoch seconds (wall time)


def issue_ticket(secret: str, player: str, name: str, division: str, *, now: float | None = None) -> str:
    """A signed ticket the web app gives a signed-in player for the live socket."""
    expires = int((time.time() if now is None else now) + TICKET_SECONDS)
    return URLSafeSerializer(secret, salt=TICKET_SALT).dumps({"p": player, "n": name, "d": division, "x": expires})


def read_ticket(secret: str, ticket: str) -> Ticket | None:
    """The ticket's contents, or None when it is not one of ours (its expiry is the caller's)."""
    try:
        data = URLSafeSerializer(secret, salt=TICKET_SALT).loads(ticket)
        # a ticket from before tickets expired has no "x": treated as expired, the page renews it
        return Ticket(str(data["p"]), str(data["n"]), str(data["d"]), float(data.get("x", 0)))
    except (BadSignature, KeyError, TypeError, ValueError, AttributeError):
        return None


def error(code: str, text: Text, lang: str) -> dict[str, Any]:
    return {"t": "error", "code": code, "message": text.render(lang)}


def refusal(slot: Slot, code: str, text: Text, version: int, lang: str) -> dict[str, Any]:
    return {"t": "refused", "game": slot.info.id, "code": code, "message": text.render(lang),
            "version": version}  # fmt: skip


def unreachable(gid: int, lang: str) -> dict[str, Any]:
    return {"t": "refused", "game": gid, "code": "owner_unreachable", "version": -1,
            "message": Text("服务器正在切换, 请稍后同步重试", "the server is switching over; sync and retry").render(lang)}


def not_your_game(lang: str) -> dict[str, Any]:
    return error("not_your_game", Text("你不是这局棋的对局者", "you are not playing this game"), lang)


def state(slot: Slot, now: float) -> dict[str, Any]:
    """The full resync message of a game as it is now."""
    info = slot.info
    out = slot.game.state(now)
    out.update({"t": "state", "game": info.id, "black": info.black_name or info.black,
                "white": info.white_name or info.white})  # fmt: skip
    return out


def update(slot: Slot, action: Action, now: float) -> dict[str, Any]:
    """One accepted action for every connection of the game (no move list: resync has it)."""
    game = slot.game
    msg: dict[str, Any] = {"t": "update", "game": slot.info.id, "version": game.version,
                           "action": game.describe(action), "phase": game.phase.value,
                           "clocks": game.clocks(now)}  # fmt: skip
    if game.phase == Phase.SCORING:
        full = game.state(now)
        msg.update(dead=full["dead"], accepted=full["accepted"], count=full["count"])
    return msg


__all__ = ["TICKET_SECONDS", "Ticket", "error", "issue_ticket", "not_your_game", "read_ticket", "refusal", "state",
           "unreachable", "update"]
