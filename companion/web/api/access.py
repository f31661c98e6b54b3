"""The table PIN from a tablet: check it (and open a session), change it with the old one."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.access.pin import PinError
from companion.games.messages import msg
from companion.web.api.context import access, body, table
from companion.web.api.errors import ApiError
from companion.web.api.guard import admit, answer, client

access_api = Blueprint("access", __name__)


@access_api.post("/pin")
def check_pin() -> Any:
    """``X-Table-Pin`` right: ``{"ok": true, "session": "..."}``, the token the tablet sends from now
    on instead of the PIN. ``X-Table-Session`` still open: ``{"ok": true}``."""
    if admit(access(), table()):
        return jsonify(ok=True, session=access().open_session())
    return jsonify(ok=True)


@access_api.post("/pin/change")
def change_pin() -> Any:
    """``{"old": "1234", "new": "8642"}``: the table's PIN from now on (kept across restarts). Every
    session of the old PIN ends; the answer carries the changer's new one."""
    data = body()
    old, new = data.get("old"), data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        raise ApiError(400, 'Give the old and the new PIN: {"old": "...", "new": "..."}.')
    try:
        verdict = access().change(old, new, client())
    except PinError as exc:
        raise ApiError(400, exc.msg) from None
    except OSError as exc:
        unsaved = msg("The new PIN could not be saved ({reason}); the old one still holds.", reason=exc.strerror or "")
        raise ApiError(503, unsaved) from None
    answer(verdict, table(), msg("The old PIN is not this table's PIN."))
    return jsonify(ok=True, session=access().open_session())
