"""A player's own phone: join a seat with its link or code (no PIN), read what is the player's alone,
and make the player's own choices. Every route but ``join`` takes the phone's session
(``X-Phone-Session``); a withdrawn, replaced or ended one is refused with the reason (403), a guessed
one spends the budget of wrong guesses (429 once it is spent).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.access.budget import client_key
from companion.access.seats import Phone, SeatRefused, Seats
from companion.games.messages import msg
from companion.store.record import Timeline
from companion.table.seat_rights import own_options, refusal
from companion.web.api.context import body, ctx, table
from companion.web.api.errors import ApiError

phones_api = Blueprint("phones", __name__)
SECRET_PROMPT = msg("Make your secret choice: nobody sees it until everyone has chosen.")


def seats() -> Seats:
    found: Seats = ctx()["seats"]
    return found


def follow_game() -> None:
    """Invitations belong to the open game (a kept one follows its player into the next)."""
    timeline = table().timeline
    seats().follow(table().game_id, timeline.header.players if timeline is not None else ())


def refused(exc: SeatRefused) -> ApiError:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return ApiError(exc.status, exc.msg, headers=headers)


def this_phone() -> Phone:
    """The seat the request's session speaks for, in the open game; ApiError otherwise."""
    follow_game()
    try:
        return seats().phone(request.headers.get("X-Phone-Session", "").strip()[:100], client_key(request.remote_addr))
    except SeatRefused as exc:
        raise refused(exc) from None


@phones_api.post("/phone/join")
def join() -> Any:
    """``{"token": "..."}`` (the QR's link) or ``{"code": "K7QM2X"}`` (typed): the seat and the phone's
    session. A seat joined again from another phone belongs to the newest one."""
    data = body()
    token, code = data.get("token", ""), data.get("code", "")
    if not isinstance(token, str) or not isinstance(code, str) or not (token or code):
        raise ApiError(400, msg("Scan the seat's QR code on the tablet, or type its code."))
    follow_game()
    try:
        phone, session = seats().join(token.strip()[:100], code[:40], client_key(request.remote_addr))
    except SeatRefused as exc:
        raise refused(exc) from None
    return jsonify(session=session, seat=phone.seat, name=phone.name)


@phones_api.get("/phone")
def mine() -> Any:
    """What this phone shows beside the shared view: its player, what is theirs alone, whether they
    must act now, and the choices open to them."""
    phone = this_phone()
    t = table()
    view = t.latest_view()
    timeline = t.timeline
    awaiting = t.awaiting()
    if timeline is None or awaiting is None:
        return jsonify(seat=phone.seat, name=phone.name, game=None, version=view.get("version"))
    rules, state = timeline.rules, timeline.state
    allowed = own_options(rules, awaiting, phone.seat, seats().own_moves)
    return jsonify(
        seat=phone.seat,
        name=phone.name,
        game=timeline.header.game,
        version=view.get("version"),
        private=rules.private(state, phone.seat),
        act=awaiting.kind not in ("over", "card") and phone.seat in awaiting.players,
        # a secret choice's prompt names who is still to choose: it would change (and move the buttons
        # under a finger) each time another phone chooses; the phone says what is the same for all
        prompt=(SECRET_PROMPT if awaiting.kind == "secret" and phone.seat in awaiting.players
                else awaiting.prompt).to_json(),
        kind=awaiting.kind,
        own_moves=seats().own_moves,
        options=[
            {"index": i, "action": rules.action_to_json(awaiting.options[i].action),
             "label": awaiting.options[i].label.to_json()}
            for i in allowed
        ],
    )


@phones_api.post("/phone/input")
def phone_input() -> Any:
    """``{"action": {...}}``: this seat's own secret choice, or its own move on its turn when the
    table allows it. Anything else is refused (403) and changes nothing."""
    phone = this_phone()
    data = body()
    action = data.get("action")
    if not isinstance(action, dict):
        raise ApiError(400, msg('The request needs an "action".'))
    t = table()

    def allowed(timeline: Timeline) -> None:
        why = refusal(timeline.rules, timeline.rules.awaiting(timeline.state), phone.seat, action, seats().own_moves)
        if why is not None:
            raise ApiError(403, why)

    events = t.submit_if(action, device=f"phone:{phone.seat}", allowed=allowed)
    return jsonify(events=[e.to_json() for e in events], version=t.version)
