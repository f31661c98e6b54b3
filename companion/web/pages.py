"""The tablet pages: the scoreboard (one page for every game) and the health view."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

pages = Blueprint("pages", __name__)


@pages.get("/")
def scoreboard() -> Any:
    return render_template("scoreboard.html")


@pages.get("/health")
def health() -> Any:
    return render_template("health.html")
