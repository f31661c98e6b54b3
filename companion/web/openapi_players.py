"""The players' part of the API description (companion/web/openapi.py takes it in)."""

from __future__ import annotations

from typing import Any

PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}
GAME_NAME = {
    "name": "game", "in": "path", "required": True,
    "schema": {"type": "string", "enum": ["heckmeck", "lasvegas", "cincinnati", "lordsofvegas"]},
}
SEAT = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}


def player_paths(read: Any, change: Any, json_body: Any, game_id: dict[str, Any]) -> dict[str, Any]:
    """``read``, ``change`` and ``json_body`` are openapi.py's helpers, so the answers match the rest."""
    return {
        "/api/players": {"get": read("every player: last played; per game games, wins, rating")},
        "/api/players/{player_id}": {
            "get": read("one player's figures, ratings over time, rival and nemesis", 404, params=[PLAYER_ID]),
            "put": change("rename a player", json_body({
                "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}),
                params=[PLAYER_ID]),
            "delete": change("delete a player: their results stay, as a former player's", None, params=[PLAYER_ID]),
        },
        "/api/players/{player_id}/merge": {
            "post": change("merge player 'from' into this one (a typo made two of one)", json_body({
                "type": "object", "required": ["from"], "properties": {"from": {"type": "integer"}}}),
                params=[PLAYER_ID]),
        },
        "/api/games/{game_id}/seats/{seat}": {
            "put": change("fix a wrong match: this seat of a finished game was this player", json_body({
                "type": "object", "required": ["player"], "properties": {"player": {"type": "integer"}}}),
                params=[game_id, SEAT]),
        },
        "/api/leaderboard/{game}": {"get": read("a game's players by rating", 409, params=[GAME_NAME])},
        "/api/nights": {"get": read("the game nights (games less than six hours apart), newest first")},
        "/api/games/{game_id}/result": {
            "get": read("a finished game's places, ratings and changes, wins tonight", 404, params=[game_id])
        },
        "/api/games/{game_id}/bgstats": {
            "get": read("a finished game's BG Stats push link and play JSON", 404, params=[game_id])
        },
        "/api/games/{game_id}/bgstats.svg": {
            "get": read("the BG Stats push link as a QR code (SVG)", 404, params=[game_id])
        },
        "/api/plays.csv": {"get": read("every play, one row per seat (CSV)")},
        "/api/history": {
            "get": read("the whole history as one JSON file"),
            "post": change("take in a history file; games already here are skipped: {added, skipped}", json_body(
                {"type": "object", "required": ["format", "version", "games"], "properties": {
                    "format": {"type": "string"}, "version": {"type": "integer"},
                    "games": {"type": "array", "items": {"type": "object"}}}})),
        },
    }
