"""How the companion is: its health, this API's description, the current view, and the journal
(whole or damaged, and restoring a backup in safe mode)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, g, jsonify, request

from companion.web.api.context import body, ctx, needs_pin, table
from companion.web.api.errors import ApiError
from companion.web.language import request_language

status_api = Blueprint("status", __name__)


@status_api.get("/health")
def health() -> Any:
    """For the health page and the kiosk's wait-until-up loop: which parts are real, and the Pi's vitals."""
    rig = ctx()["devices"]
    config = ctx()["config"]
    probe = ctx().get("probe")
    if probe is None:
        from companion.hardware.health import HealthProbe

        probe = ctx()["probe"] = HealthProbe(data_dir=config.store.data_dir, journal=config.store.journal_path)
    system = probe.read().as_dict()
    devices = dict(table().status.get("devices", {}))
    if rig is not None:
        system.update(rig.health())
        devices.update(rig.status())
    return jsonify(ok=True, safe_mode=bool(table().status.get("banner")), devices=devices, system=system)


@status_api.get("/openapi.json")
def openapi() -> Any:
    """This API described in OpenAPI 3 (what the harness fuzzes)."""
    from companion.web.openapi import spec

    return jsonify(spec())


@status_api.get("/state")
def state() -> Any:
    """The current view, in the page's language: the rendering its event stream was sent (cached)."""
    view = table().latest_view()
    lang = request_language()
    text = ctx()["frames"].view(int(view.get("version", 0)), json.dumps(view, separators=(",", ":")), lang)
    g.localized = True
    return Response(text, mimetype="application/json", headers={"Content-Language": lang})


@status_api.get("/journal")
def journal_status() -> Any:
    """Whether the journal is whole and saving; when it is damaged, the backup the tablet offers."""
    recovery = ctx().get("recovery")
    if recovery is None:
        return jsonify(damaged=False, saving=table().journal.refuse is None, problems=[], offer=None)
    return jsonify(recovery.status())


@status_api.post("/journal/recover")
@needs_pin
def recover_journal() -> Any:
    """Safe mode: put the newest good backup in place of the damaged journal (``{"empty": true}``:
    start an empty one) and play on it; the damaged files are moved aside, untouched."""
    recovery = ctx().get("recovery")
    data = body() if request.get_data() else {}
    empty = data.get("empty", False)
    if not isinstance(empty, bool):
        raise ApiError(400, '"empty" is true or false.')
    if recovery is None:
        raise ApiError(409, "The journal is whole: there is nothing to restore.")
    try:
        return jsonify(recovery.restore(table(), empty=empty))
    except ValueError as exc:
        raise ApiError(409, str(exc)) from None
    except OSError as exc:
        reason = exc.strerror or exc
        raise ApiError(503, f"The backup could not be put in place ({reason}); nothing was changed.") from None
