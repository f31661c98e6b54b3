"""The page's event stream: the view at once, then every change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, jsonify, request, stream_with_context

from companion.access.budget import client_key
from companion.web.api.context import ctx, table
from companion.web.hub import Hub, TooManyStreams
from companion.web.language import request_language
from companion.web.parking import PARK, parks

streams_api = Blueprint("streams", __name__)


@streams_api.get("/events")
def events() -> Any:
    """The page's event stream: parked after its first view under the companion's server (no thread
    held while the page watches), a generator holding a thread under any other."""
    hub: Hub = ctx()["hub"]
    try:
        client = client_key(request.remote_addr)  # an IPv6 /64 is one client, as for the PIN's budget
        render = ctx()["frames"].renderer(request_language())  # each view in this page's language
        if parks(request.environ):
            stream, head = hub.open(table().latest_view(), client=client, render=render)
            request.environ[PARK] = stream
            body: Iterator[bytes] = iter([head])  # an iterator, not a list: no Content-Length, so chunked
        else:
            body = stream_with_context(
                hub.stream(table().latest_view(), request.headers.get("Last-Event-ID"), client=client, render=render)
            )
    except TooManyStreams as exc:
        return jsonify(error=str(exc)), 503, {"Retry-After": "5"}
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
