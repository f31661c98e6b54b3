"""The JSON API: one parent blueprint at ``/api`` with a child blueprint per concern.

Reading is open to every page; changing the game needs the table PIN (``context.needs_pin``). Errors
are JSON ``{"error": "..."}`` written for the players (``errors``); every answer's messages are in the
page's language. The children: ``games`` (list, start, open, import, export, story, statistics,
odds), ``players`` (the lasting players, leaderboards, game nights), ``plays``
(BG Stats, a CSV of the plays, the whole history as JSON), ``inputs`` (inputs,
undo, redo, the mock-hardware panel), ``calibration`` (teaching the reader, the empty tray, the
camera frame), ``status`` (health, this API's description, the view, the
journal), ``access`` (the PIN), ``streams`` (the event stream), ``seats`` (the
players' phones, from the tablet) and ``phones`` (a player's own phone). Their endpoints are named
``api.<child>.<view>``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from companion.web.api import errors
from companion.web.api.access import access_api
from companion.web.api.calibration import calibration_api
from companion.web.api.games import games_api
from companion.web.api.inputs import inputs_api
from companion.web.api.phones import phones_api
from companion.web.api.players import players_api
from companion.web.api.plays import plays_api
from companion.web.api.seats import seats_api
from companion.web.api.status import status_api
from companion.web.api.streams import streams_api
from companion.web.language import bundle, localize_response, request_language

api = Blueprint("api", __name__, url_prefix="/api")
api.after_request(localize_response)  # every answer's messages in the page's language
errors.install(api)  # the children's errors too: Flask looks up a nested blueprint's parents' handlers
for child in (status_api, access_api, games_api, inputs_api, calibration_api, streams_api, players_api, plays_api,
              phones_api, seats_api):
    api.register_blueprint(child)


@api.get("/i18n.js")
@api.get("/i18n/<lang>.js")
def i18n_bundle(lang: str | None = None) -> Any:
    """The page scripts' words and plural rule in the page's language (or ``lang``). On the parent, so
    that the pages' ``url_for('api.i18n_bundle')`` keeps its name."""
    response = Response(bundle(lang or request_language()), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
