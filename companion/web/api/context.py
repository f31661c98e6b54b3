"""What every API route reads: the app's table, its door (PIN and sessions) and devices, who sent the
request, its JSON body, and whether it may change the game."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request

from companion.access.table_access import TableAccess
from companion.games.messages import msg
from companion.store.record import loads
from companion.table.session import Table
from companion.web.api.errors import ApiError
from companion.web.api.guard import admit


def ctx() -> dict[str, Any]:
    extensions: dict[str, Any] = current_app.extensions["companion"]
    return extensions


def table() -> Table:
    t: Table = ctx()["table"]
    return t


def device() -> str:
    """Who sent this request: the tablet's own id (kept in its browser), else its address."""
    name = request.headers.get("X-Device", "").strip()[:40]
    return f"tablet:{name}" if name else f"web:{request.remote_addr}"


def access() -> TableAccess:
    """The table's door: its PIN, the budget of wrong guesses, the tablets' sessions."""
    door: TableAccess = ctx()["access"]
    return door


def devices() -> Any:
    """The daemon's camera and buttons (404 when the companion has none)."""
    rig = ctx()["devices"]
    if rig is None:
        raise ApiError(404, msg("No camera or buttons are attached to this companion."))
    return rig


def needs_pin(view: Callable[..., Any]) -> Callable[..., Any]:
    """The view runs for a tablet's session or the table PIN (within the budget of wrong guesses)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        admit(access(), table())
        return view(*args, **kwargs)

    return wrapper


def body() -> dict[str, Any]:
    try:
        data = loads(request.get_data(as_text=True))
    except ValueError as exc:
        raise ApiError(400, f"The request needs a JSON object body; this one is {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, msg("The request needs a JSON object body."))
    return data
