"""The JSON API described in OpenAPI 3.0: served at /api/openapi.json, fuzzed by the harness.

Kept beside the routes it describes (companion/web/api/); tests/test_openapi.py checks that every
route is described and nothing more. The event stream is described but never fuzzed (it never ends).
"""

from __future__ import annotations

from typing import Any

from companion.web.openapi_phones import phone_paths
from companion.web.openapi_players import player_paths

# A change carries the table PIN or a session (what POST /api/pin answers a right PIN with).
PIN_HEADER = {
    "name": "X-Table-Pin", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "the table PIN (each wrong one spends the client's and the table's budget of guesses)",
}
SESSION_HEADER = {
    "name": "X-Table-Session", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "a session opened by the right PIN (POST /api/pin); ends when the PIN changes",
}
DEVICE_HEADER = {"name": "X-Device", "in": "header", "required": False, "schema": {"type": "string"}}
GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}

FACE = {"oneOf": [{"type": "integer"}, {"type": "string"}]}
DIE = {"oneOf": [FACE, {"type": "object", "properties": {"face": FACE, "colour": {"type": "string"}}}]}
ACTION = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": ["roll", "keep", "stop", "claim", "place", "choose", "draw", "pass"]},
        "dice": {"type": "array", "items": DIE},
        "face": FACE,
        "player": {"type": "integer"},
        "table": {"type": "string"},
        "casino": {"type": "integer"},
    },
}


def _json(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _answers(*codes: int) -> dict[str, Any]:
    described = {
        200: "done",
        201: "created",
        400: "a malformed request (nothing changed)",
        403: "no PIN or a wrong one, or a session that has ended (nothing changed)",
        404: "no such game, or no camera and buttons",
        409: "the rules refuse it now (nothing changed)",
        421: "a host name this companion does not answer to",
        429: "too many wrong PINs from this client or at this table: wait (Retry-After), or unlock at the table",
        503: "the journal cannot save now (disk full or read-only, safe mode), or the kept PIN is damaged",
    }
    error = {"application/json": {"schema": {"type": "object", "properties": {"error": {"type": "string"}}}}}
    return {
        str(code): {"description": described[code], **({"content": error} if code >= 400 else {})}
        for code in sorted({*codes, 421})
    }


def _change(summary: str, body: dict[str, Any] | None = None, *codes: int, params: list[Any] | None = None) -> Any:
    op: dict[str, Any] = {
        "summary": summary,
        "parameters": [PIN_HEADER, SESSION_HEADER, DEVICE_HEADER, *(params or [])],
        "responses": _answers(200, 400, 403, 404, 409, 429, 503, *codes),
    }
    if body is not None:
        op["requestBody"] = body
    return op


def _read(summary: str, *codes: int, params: list[Any] | None = None) -> Any:
    return {"summary": summary, "parameters": params or [], "responses": _answers(200, *codes)}


def spec() -> dict[str, Any]:
    obj = {"type": "object"}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Vegas Table Companion", "version": "1"},
        "paths": {
            "/api/health": {"get": _read("which parts are real, and the Pi's vitals")},
            "/api/state": {"get": _read("the whole view a page shows")},
            "/api/journal": {"get": _read("whether the journal is whole and saving; the backup offered")},
            "/api/journal/recover": {
                "post": _change("restore the newest good backup (safe mode)", _json(
                    {"type": "object", "properties": {"empty": {"type": "boolean"}}}, required=False))
            },
            "/api/pin": {"post": _change("check the PIN; a right one opens a session: {ok, session}")},
            "/api/pin/change": {
                "post": {
                    "summary": "change the table PIN with the old one; the old PIN's sessions end: {ok, session}",
                    "requestBody": _json({
                        "type": "object", "required": ["old", "new"],
                        "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                    }),
                    "responses": _answers(200, 400, 403, 429, 503),
                }
            },
            "/api/games": {
                "get": _read("every game played here"),
                "post": _change("start a new game", _json({
                    "type": "object", "required": ["game", "players"],
                    "properties": {
                        "game": {"type": "string", "enum": ["heckmeck", "lasvegas", "cincinnati", "lordsofvegas"]},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "options": obj,
                        "title": {"type": "string"},
                        "colours": {"type": "array", "items": {"type": "string"}},
                    },
                }), 201),
            },
            "/api/games/{game_id}/open": {"post": _change("open a game", None, params=[GAME_ID])},
            "/api/games/{game_id}/record": {"get": _read("a game's record (JSON lines)", 404, 409, params=[GAME_ID])},
            "/api/games/{game_id}/history": {"get": _read("a game's story: entries, scores", 404, params=[GAME_ID])},
            "/api/games/{game_id}/stats": {"get": _read("a game's statistics", 404, params=[GAME_ID])},
            "/api/odds": {
                "get": _read("the odds for the position on the table", 409, params=[
                    {"name": "stake", "in": "query", "required": False, "schema": {"type": "integer"}}])
            },
            "/api/odds/settings": {
                "put": _change("switch the open game's odds on or off", _json({
                    "type": "object",
                    "properties": {"on": {"type": "boolean"}, "where": {"type": "string"}},
                }))
            },
            "/api/i18n.js": {"get": _read("the page's words in its language (a script)")},
            "/api/i18n/{lang}.js": {
                "get": _read("the page's words in one language (a script)", 404, params=[
                    {"name": "lang", "in": "path", "required": True, "schema": {"type": "string"}}])
            },
            "/api/games/import": {
                "post": _change("import a game record", {
                    "required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}, 201)
            },
            "/api/input": {
                "post": _change("enter an input", _json({
                    "type": "object", "required": ["action"], "properties": {"action": ACTION}}))
            },
            "/api/undo": {"post": _change("take back the last input")},
            "/api/redo": {"post": _change("enter the undone input again")},
            "/api/next": {"post": _change("highlight the next option")},
            "/api/confirm": {"post": _change("take the highlighted option or the camera's reading")},
            "/api/buttons/{name}": {
                "post": _change("press a simulated button", _json(
                    {"type": "object", "properties": {"hold": {"type": "number"}}}, required=False),
                    params=[{"name": "name", "in": "path", "required": True, "schema": {
                        "type": "string", "enum": ["confirm", "undo", "next", "reread", "red"]}}])
            },
            "/api/camera/roll": {"post": _change("mock mode: the simulated camera shows a roll")},
            "/api/camera/frame.jpg": {"get": _read("the camera's last annotated frame", 404)},
            "/api/calibration": {
                "get": _read("the guided calibration's state", 404),
                "post": _change("start teaching the table's dice", _json({
                    "type": "object",
                    "properties": {"faces": {"type": "array", "items": FACE}, "count": {"type": "integer"}},
                })),
                "delete": _change("stop the calibration"),
            },
            "/api/calibration/roll": {"post": _change("mock mode: a roll of the set being taught")},
            "/api/calibration/confirm": {
                "post": _change("learn the shown reading", _json({
                    "type": "object", "required": ["faces"],
                    "properties": {"faces": {"type": "array", "items": FACE}, "reading": {"type": "integer"}},
                }))
            },
            "/api/calibration/empty": {
                "post": _change("capture the empty tray (take the dice out first)"),
                "delete": _change("read without the empty tray's picture"),
            },
            "/api/profile": {"delete": _change("forget what was learnt of the old dice")},
            **player_paths(_read, _change, _json, GAME_ID),
            **phone_paths(_read, _change, _json, _answers, ACTION),
            "/api/events": {
                "get": {
                    "summary": "server-sent events: the view at once, then on every change",
                    "responses": {
                        "200": {
                            "description": "the stream",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}},
                        },
                        "503": {"description": "every stream slot is taken; retry"},
                    },
                }
            },
        },
    }
