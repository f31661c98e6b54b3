"""Teaching the reader the table's dice: the guided calibration, the empty tray's reference, the
learnt profile, and the camera's last frame."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.games.messages import msg
from companion.web.api.context import body, devices, needs_pin
from companion.web.api.errors import ApiError

calibration_api = Blueprint("calibration", __name__)


@calibration_api.get("/calibration")
def calibration() -> Any:
    """The guided calibration: whether it runs, the reading to correct, and what it has taught."""
    return jsonify(devices().calibration_status())


@calibration_api.post("/calibration")
@needs_pin
def start_calibration() -> Any:
    """Start teaching the reader the table's dice: ``{"faces": [1, 2, 3, 4, 5, "worm"], "count": 8}``,
    both optional (plain dice 1-6; any number of dice)."""
    from companion.table.calibration import PLAIN, DiceSet

    rig = devices()
    data = body()
    faces, count = data.get("faces", list(PLAIN)), data.get("count")
    if not isinstance(faces, list) or not all(type(f) in (int, str) for f in faces):
        raise ApiError(400, msg('List the faces the dice have, e.g. "faces": [1, 2, 3, 4, 5, 6].'))
    if count is not None and type(count) is not int:
        raise ApiError(400, msg("The number of dice is a whole number."))
    return jsonify(rig.start_calibration(DiceSet(tuple(faces), count)))


@calibration_api.post("/calibration/roll")
@needs_pin
def calibration_roll() -> Any:
    """Mock mode: the simulated camera shows a random roll of the set being taught."""
    return jsonify(devices().calibration_roll())


@calibration_api.post("/calibration/confirm")
@needs_pin
def confirm_calibration() -> Any:
    """Learn the shown reading: ``{"faces": [...], "reading": n}``, one face per die in the reading's
    order (corrections included); ``reading`` is the number of the reading corrected."""
    rig = devices()
    data = body()
    faces, number = data.get("faces"), data.get("reading")
    if not isinstance(faces, list) or not faces or not all(type(f) in (int, str) for f in faces):
        raise ApiError(400, msg('List one face for each die read, in the reading\'s order, e.g. "faces": [3, 1, 6].'))
    if number is not None and type(number) is not int:
        raise ApiError(400, msg("The reading is named by its number."))
    learnt = rig.confirm_calibration(faces, number)
    return jsonify(learnt=learnt, calibration=rig.calibration_status())


@calibration_api.delete("/calibration")
@needs_pin
def stop_calibration() -> Any:
    rig = devices()
    taught = rig.stop_calibration()
    return jsonify(taught={"rolls": taught["rolls"], "dice": taught["dice"]}, calibration=rig.calibration_status())


@calibration_api.post("/calibration/empty")
@needs_pin
def capture_empty() -> Any:
    """Capture the empty tray: a few still frames with no die in them become the reference the reader
    compares every frame with (refused, nothing changed, if something moves or a die is in view)."""
    return jsonify(devices().capture_empty())


@calibration_api.delete("/calibration/empty")
@needs_pin
def forget_empty() -> Any:
    rig = devices()
    forgot = rig.forget_empty()
    return jsonify(forgot=forgot, calibration=rig.calibration_status())


@calibration_api.delete("/profile")
@needs_pin
def forget_dice() -> Any:
    """A new dice set at the table: what the reader learnt of the old one is deleted."""
    rig = devices()
    forgot = rig.forget_dice()
    return jsonify(forgot=forgot, calibration=rig.calibration_status())


@calibration_api.get("/camera/frame.jpg")
def camera_frame() -> Any:
    jpeg = devices().frame_jpeg()
    if jpeg is None:
        raise ApiError(404, msg("The camera has not produced a frame yet."))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
