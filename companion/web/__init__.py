"""The tablet's web app: a JSON API, a server-sent event stream and the scoreboard pages."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from companion.assets import asset_dir
from companion.config import Config
from companion.session import Table
from companion.web.hub import Hub

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
    app.extensions["companion"] = {"table": table, "config": config, "hub": hub, "devices": devices}
    # Every sentence in a template goes through _() and ngettext() (English for now; the catalogues of
    # other languages plug in here).
    app.jinja_env.globals.update(_=_identity, ngettext=_ngettext_identity)
    app.register_blueprint(api)
    app.register_blueprint(pages)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = jsonify(error=exc.description or exc.name)
        response.status_code = exc.code or 500
        return response

    return app


def _identity(text: str, **values: Any) -> str:
    return text.format(**values) if values else text


def _ngettext_identity(one: str, many: str, n: int, **values: Any) -> str:
    return (one if n == 1 else many).format(n=n, **values)
