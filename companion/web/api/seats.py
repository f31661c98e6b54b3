"""The tablet's side of the players' phones (all with the PIN: an invitation is a seat's key): each
seat's QR code and code, a new one, withdrawing one, whether phones may make their own moves, and a
player's look at what is theirs alone on the shared tablet (Las Vegas's face-down money)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.access.seats import Invite
from companion.games.messages import msg
from companion.web.api.context import body, needs_pin, table
from companion.web.api.errors import ApiError
from companion.web.api.phones import follow_game, seats
from companion.web.qr import qr_svg

seats_api = Blueprint("seats", __name__)


def _players() -> tuple[str, ...]:
    timeline = table().timeline
    if timeline is None or table().game_id is None:
        raise ApiError(409, msg("No game is open; start a new game first."))
    return tuple(timeline.header.players)


def _seat(seat: int) -> str:
    players = _players()
    if not 0 <= seat < len(players):
        raise ApiError(404, msg("There is no seat {seat} in this game.", seat=seat))
    return players[seat]


def _link(invite: Invite) -> str:
    return f"{request.host_url.rstrip('/')}/phone/{invite.token}"


def _invite_json(invite: Invite) -> dict[str, Any]:
    link = _link(invite)
    return {
        "seat": invite.seat, "name": invite.name, "code": invite.code, "link": link,
        "qr": qr_svg(link, scale=5, title=invite.name), "night": invite.night, "joined": bool(invite.phone),
    }


@seats_api.get("/seats")
@needs_pin
def list_seats() -> Any:
    """Every seat of the open game with its invitation (QR code, code, link) if it has one."""
    players = _players()
    follow_game()
    invites = {i.seat: i for i in seats().invites(table().game_id, players)}
    return jsonify(
        own_moves=seats().own_moves,
        seats=[
            {"seat": s, "name": name, "invite": _invite_json(invites[s]) if s in invites else None}
            for s, name in enumerate(players)
        ],
    )


@seats_api.post("/seats/<int:seat>")
@needs_pin
def invite_seat(seat: int) -> Any:
    """A new invitation for the seat (``{"night": true}``: it follows the player into the next games
    tonight); the seat's old one, and the phone that joined with it, are withdrawn."""
    data = body() if request.get_data() else {}
    night = data.get("night", False)
    if not isinstance(night, bool):
        raise ApiError(400, msg("night is true or false."))
    name = _seat(seat)
    follow_game()
    invite = seats().invite(table().game_id or 0, seat, name, night=night)
    return jsonify(invite=_invite_json(invite))


@seats_api.delete("/seats/<int:seat>")
@needs_pin
def revoke_seat(seat: int) -> Any:
    """Withdraw the seat's invitation: its phone is refused from now on."""
    _seat(seat)
    return jsonify(revoked=seats().revoke(seat))


@seats_api.put("/seats/settings")
@needs_pin
def seat_settings() -> Any:
    """``{"own_moves": true}``: phones may make their own player's moves on their turn."""
    own = body().get("own_moves")
    if not isinstance(own, bool):
        raise ApiError(400, msg("own_moves is true or false."))
    seats().own_moves = own
    return jsonify(own_moves=own)


@seats_api.post("/seats/<int:seat>/peek")
@needs_pin
def peek(seat: int) -> Any:
    """What only this seat may see, for a player looking on the shared tablet (never in its view)."""
    _seat(seat)
    timeline = table().timeline
    assert timeline is not None
    return jsonify(seat=seat, private=timeline.rules.private(timeline.state, seat))
