"""The API's errors: JSON ``{"error": ...}`` written for the players, one status per kind of refusal.

400 for a malformed request, 403 for a missing or wrong PIN, 429 while too many wrong PINs were
given, 409 for a move the rules refuse now, 404 for an unknown game, 503 when the journal cannot
save. A refused request changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.games.base import MalformedAction, RuleViolation
from companion.games.messages import Msg, msg, raw
from companion.store.journal import JournalUnavailable
from companion.store.record import RecordError


class ApiError(Exception):
    """A refusal with its status; the message is for the players (a catalogue message or plain text)."""

    def __init__(self, status: int, message: Msg | str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(str(message))
        self.msg = message if isinstance(message, Msg) else raw(message)
        self.status = status
        self.headers = headers or {}


def api_error(exc: ApiError) -> Any:
    return jsonify(error=exc.msg.to_json()), exc.status, exc.headers


def malformed(exc: MalformedAction) -> Any:
    # ``kind`` lets the tablet put a sentence for the players in place of the field-level detail
    return jsonify(error=exc.msg.to_json(), kind="malformed"), 400


def refused(exc: RuleViolation) -> Any:
    return jsonify(error=exc.msg.to_json()), 409


def unavailable(exc: JournalUnavailable) -> Any:
    return jsonify(error=str(exc)), 503, {"Retry-After": "10"}


def bad_record(exc: RecordError) -> Any:
    return jsonify(error=msg("The record cannot be imported: {reason}", reason=exc.msg).to_json()), 400


def install(blueprint: Blueprint) -> None:
    """Answer these errors in ``blueprint`` and every blueprint nested in it."""
    blueprint.register_error_handler(ApiError, api_error)
    blueprint.register_error_handler(MalformedAction, malformed)
    blueprint.register_error_handler(RuleViolation, refused)
    blueprint.register_error_handler(JournalUnavailable, unavailable)
    blueprint.register_error_handler(RecordError, bad_record)
