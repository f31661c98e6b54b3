"""The tablet pages: the scoreboard (one page for every game) and the health view."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, url_for

pages = Blueprint("pages", __name__)


@pages.get("/")
def scoreboard() -> Any:
    return render_template("scoreboard.html")


@pages.get("/phone")
@pages.get("/phone/<token>")
def phone(token: str = "") -> Any:
    """A player's own phone: joins its seat with the link's token (or a typed code), no PIN."""
    return render_template("phone.html")


@pages.get("/health")
def health() -> Any:
    return render_template("health.html")


@pages.get("/manifest.webmanifest")
def manifest() -> Any:
    """Lets a tablet install the scoreboard to its home screen and open it full screen."""

    def icon(size: int) -> dict[str, str]:
        return {
            "src": url_for("static", filename=f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }

    body = {
        "name": "Vegas Table Companion",
        "short_name": "Table",
        "start_url": "/",
        "scope": "/",
        "display": "fullscreen",
        "background_color": "#0d3b2e",
        "theme_color": "#0d3b2e",
        "icons": [
            icon(192),
            icon(512),
            {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@pages.get("/favicon.ico")
def favicon() -> Any:
    from flask import redirect

    return redirect(url_for("static", filename="icons/icon.svg"))
