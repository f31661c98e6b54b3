"""The tablet's web app: a JSON API, a server-sent event stream and the scoreboard pages."""

from __future__ import annotations

import ipaddress
import socket
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.access.seats import Seats
from companion.access.table_access import TableAccess
from companion.assets import asset_dir
from companion.config import Config
from companion.odds.service import TurnWarmer
from companion.table.session import Table
from companion.web.headers import SECURITY_HEADERS
from companion.web.hub import Hub
from companion.web.language import install as install_language
from companion.web.limits import Limits
from companion.web.trust import Trusted

WEB_ROOT = asset_dir("web")


def allowed_hosts(config: Config) -> set[str]:
    """The names the companion answers to: its own, localhost, and [server] hosts (any address too)."""
    name = socket.gethostname().lower()
    names = {"localhost", name, f"{name}.local", "companion.local"}
    names.update(h.lower() for h in config.server.hosts)
    if config.server.host not in ("0.0.0.0", "::", ""):
        names.add(config.server.host.lower())
    return names


def host_allowed(host: str, allowed: set[str]) -> bool:
    """An address is always fine (a page served elsewhere cannot claim one of ours as its own name)."""
    host = host.strip().lower()
    if host.startswith("[") and "]" in host:
        host = host[1 : host.index("]")]  # [::1]:8080
    elif host.count(":") == 1:
        host = host.split(":")[0]  # name:port
    host = host.rstrip(".")
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host in allowed


def create_app(
    table: Table,
    *,
    config: Config | None = None,
    hub: Hub | None = None,
    devices: Any = None,
    access: TableAccess | None = None,
    voice: Any = None,
    seats: Seats | None = None,
) -> Flask:
    """Build the app around one table. ``devices`` is the daemon's camera-and-buttons rig (or None);
    ``access`` the table's PIN, budget of wrong guesses and sessions (by default from the config, kept
    in the data folder); ``voice`` (companion.voice.Voice, or None) adds what to say to every view the
    pages get."""
    from companion.web.api import api
    from companion.web.api.guard import show_damage
    from companion.web.pages import pages

    config = config or Config()
    app = Flask(
        __name__,
        template_folder=str(WEB_ROOT / "templates"),
        static_folder=str(WEB_ROOT / "static"),
        static_url_path="/static",
    )
    app.config["MAX_CONTENT_LENGTH"] = Limits().largest_body  # a history file, at most (the server says so first)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    hub = hub or Hub(max_streams=config.server.sse_max_streams)
    table.subscribe(hub.publish if voice is None else lambda view: hub.publish(voice.decorate(view)))
    table.subscribe(TurnWarmer(table, time.perf_counter))  # Heckmeck odds: a turn's table before its first roll
    access = access or TableAccess(config.server.pin, Path(config.store.data_dir))
    show_damage(access.pin.damage, table)
    trusted = Trusted()  # addresses that gave the PIN: first for stream slots, threads, connections
    hub.trusted = trusted
    app.extensions["companion"] = {
        "table": table, "config": config, "hub": hub, "devices": devices, "access": access, "trusted": trusted,
        "seats": seats or Seats(),  # the players' own phones (companion/access/seats.py)
    }
    app.register_blueprint(api)
    app.register_blueprint(pages)
    install_language(app)  # templates' _() and ngettext() in each page's language (companion/web/language.py)

    allowed = allowed_hosts(config)

    @app.before_request
    def check_host() -> Any:
        # DNS rebinding: a web page elsewhere, under a name of its own that it points at this address,
        # would get the browser to talk to the companion as if it were that page's own server.
        host = request.host or ""
        if not host_allowed(host, allowed):
            response = jsonify(error=f"This companion does not answer to the name {host[:60]!r}.")
            response.status_code = 421
            return response
        return None

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS:
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = jsonify(error=exc.description or exc.name)
        response.status_code = exc.code or 500
        return response

    return app

