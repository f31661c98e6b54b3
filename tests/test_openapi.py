"""The OpenAPI description the harness fuzzes covers every API route, and nothing else."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.config import Config
from companion.table.session import Table
from companion.web import create_app


def test_every_api_route_is_described(table: Table, config: Config) -> None:
    app = create_app(table, config=config)
    client: FlaskClient = app.test_client()
    spec = client.get("/api/openapi.json").get_json()
    described = {(path, method.upper()) for path, ops in spec["paths"].items() for method in ops}
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule == "/api/openapi.json":
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        routes |= {(path, m) for m in rule.methods or () if m not in ("HEAD", "OPTIONS")}
    assert routes == described
