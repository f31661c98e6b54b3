"""The tablet's web app: a JSON API, a server-sent event stream and the scoreboard pages."""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from companion.assets import asset_dir
from companion.config import Config
from companion.odds.service import TurnWarmer
from companion.session import Table
from companion.web.hub import Hub
from companion.web.language import install as install_language

WEB_ROOT = asset_dir("web")


def create_app(table: Table, *, config: Config | None = None, hub: Hub | None = None, devices: Any = None) -> Flask:
    """Build the app around one table. ``devices`` is the daemon's camera-and-buttons rig (or None)."""
    from companion.web.api import api
    from companion.web.pages import pages

    config = config or Config()
    app = Flask(
        __name__,
        template_folder=str(WEB_ROOT / "templates"),
        static_folder=str(WEB_ROOT / "static"),
        static_url_path="/static",
    )
    app.config["MAX_CONTENT_LENGTH"] = 8 * 1024 * 1024  # a game record import, at most
    app.json.sort_keys = False  # type: ignore[attr-defined]
    hub = hub or Hub(max_streams=config.server.sse_max_streams)
    table.subscribe(hub.publish)
    table.subscribe(TurnWarmer(table, time.perf_counter))  # Heckmeck odds: a turn's table before its first roll
    app.extensions["companion"] = {"table": table, "config": config, "hub": hub, "devices": devices}
    app.register_blueprint(api)
    app.register_blueprint(pages)
    install_language(app)  # templates' _() and ngettext() in each page's language (companion/web/language.py)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = jsonify(error=exc.description or exc.name)
        response.status_code = exc.code or 500
        return response

    return app

