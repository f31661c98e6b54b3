"""The table PIN from a tablet: check it, change it with the old one."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.table.pin import PinError
from companion.web.api.context import body, needs_pin, pin
from companion.web.api.errors import ApiError
from companion.web.guard import refused_pin

access_api = Blueprint("access", __name__)


@access_api.post("/pin")
@needs_pin
def check_pin() -> Any:
    return jsonify(ok=True)


@access_api.post("/pin/change")
def change_pin() -> Any:
    """``{"old": "1234", "new": "8642"}``: the table's PIN from now on (kept across restarts)."""
    data = body()
    old, new = data.get("old"), data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        raise ApiError(400, 'Give the old and the new PIN: {"old": "...", "new": "..."}.')
    if not pin().matches(old):
        refused_pin()
        raise ApiError(403, "The old PIN is not this table's PIN.")
    try:
        pin().change(old, new)
    except PinError as exc:
        raise ApiError(400, str(exc)) from None
    except OSError as exc:
        raise ApiError(503, f"The new PIN could not be saved ({exc.strerror}); the old one still holds.") from None
    return jsonify(ok=True)
