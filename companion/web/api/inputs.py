"""What the players enter from a tablet: inputs, undo and redo, the highlighted option, and the
mock-hardware panel's buttons and simulated rolls (through the same path as the real ones)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.games.messages import msg
from companion.web.api.context import body, device, devices, needs_pin, table
from companion.web.api.errors import ApiError

inputs_api = Blueprint("inputs", __name__)


@inputs_api.post("/input")
@needs_pin
def submit() -> Any:
    data = body()
    if "action" not in data:
        raise ApiError(400, msg('The request needs an "action".'))
    events = table().submit(data["action"], device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@inputs_api.post("/undo")
@needs_pin
def undo() -> Any:
    events = table().undo(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@inputs_api.post("/redo")
@needs_pin
def redo() -> Any:
    events = table().redo(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@inputs_api.post("/next")
@needs_pin
def next_option() -> Any:
    table().next_option(device=device())
    return jsonify(version=table().version)


@inputs_api.post("/confirm")
@needs_pin
def confirm() -> Any:
    events = table().confirm(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@inputs_api.post("/buttons/<name>")
@needs_pin
def press_button(name: str) -> Any:
    """The mock-hardware panel: press a simulated button (through the same pins as a real one)."""
    data = body() if request.get_data() else {}
    hold = data.get("hold", 0.0)
    if not isinstance(hold, int | float) or isinstance(hold, bool) or not 0 <= hold <= 10:
        raise ApiError(400, msg("hold is a number of seconds between 0 and 10."))
    devices().press(name, hold=float(hold))
    return jsonify(ok=True, version=table().version)


@inputs_api.post("/camera/roll")
@needs_pin
def simulated_roll() -> Any:
    """Mock mode: the simulated camera shows a random roll of the dice the game waits for."""
    reading = devices().simulate_roll()
    return jsonify(reading=reading, version=table().version)
