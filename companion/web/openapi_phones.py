"""The players' phones in the API description (companion/web/openapi.py takes it in): the tablet's
side, with the PIN, and the phone's, with the session its seat's link or code opened."""

from __future__ import annotations

from typing import Any

SEAT = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}
PHONE_HEADER = {
    "name": "X-Phone-Session", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "the session POST /api/phone/join answered; refused once the seat is withdrawn, "
                   "joined by another phone, or its game is over (a guessed one spends the budget of guesses)",
}


def _phone(summary: str, answers: Any, body: dict[str, Any] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary, "parameters": [PHONE_HEADER], "responses": answers(200, 400, 403, 409, 429),
    }
    if body is not None:
        op["requestBody"] = body
    return op


def phone_paths(read: Any, change: Any, json_body: Any, answers: Any, action: dict[str, Any]) -> dict[str, Any]:
    """``read``, ``change``, ``json_body``, ``answers`` and ``action`` are openapi.py's, so the answers match."""
    flag = {"type": "boolean"}
    return {
        "/api/seats": {"get": change("every seat of the open game with its phone invitation (QR, code, link)")},
        "/api/seats/{seat}": {
            "post": change("a new invitation for the seat (the old one and its phone withdrawn)", json_body(
                {"type": "object", "properties": {"night": flag}}, required=False), params=[SEAT]),
            "delete": change("withdraw the seat's invitation: its phone is refused from now on", None, params=[SEAT]),
        },
        "/api/seats/settings": {
            "put": change("whether phones may make their own player's moves", json_body(
                {"type": "object", "required": ["own_moves"], "properties": {"own_moves": flag}})),
        },
        "/api/seats/{seat}/peek": {"post": change("what only this seat may see, for a look on the tablet", None,
                                                  params=[SEAT])},
        "/api/phone/join": {
            "post": {
                "summary": "join a seat with its link's token or its typed code (no PIN): {session, seat, name}",
                "requestBody": json_body({"type": "object", "properties": {
                    "token": {"type": "string"}, "code": {"type": "string"}}}),
                "responses": answers(200, 400, 403, 429),
            }
        },
        "/api/phone": {
            "get": _phone("this phone's seat, what is its player's alone, the choices open to them", answers),
        },
        "/api/phone/input": {
            "post": _phone("the seat's own secret choice, or its own move when the table allows", answers,
                           json_body({"type": "object", "required": ["action"], "properties": {"action": action}})),
        },
    }
