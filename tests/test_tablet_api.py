"""What the tablet page reads besides the live view: the whole game's story, the web-app manifest,
and a malformed input marked so the page can put a sentence for the players in its place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def heckmeck(client: FlaskClient) -> int:
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"]}, headers=AUTH)
    game_id: int = res.get_json()["id"]
    return game_id


def put(client: FlaskClient, action: dict[str, object]) -> None:
    res = client.post("/api/input", json={"action": action}, headers=AUTH)
    assert res.status_code == 200, res.get_json()


def test_history_marks_undone_entries_and_follows_the_score(client: FlaskClient) -> None:
    game = heckmeck(client)
    put(client, {"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]})
    put(client, {"type": "take", "face": "worm"})
    put(client, {"type": "roll", "dice": [4, 4, 4, 5, 5, 1]})
    put(client, {"type": "take", "face": 4})
    put(client, {"type": "claim", "tile": 22})
    assert client.post("/api/undo", headers=AUTH).status_code == 200
    put(client, {"type": "claim", "tile": 22})

    story = client.get(f"/api/games/{game}/history").get_json()
    claims = [e for e in story["entries"] if e["kind"] == "claimed"]
    assert [e["undone"] for e in claims] == [True, False], "the first claim was undone, the second stands"
    assert all(e["players"] == [0] for e in claims)
    assert story["series"][0]["scores"] == [0.0, 0.0]
    assert story["series"][-1]["scores"] == [1.0, 0.0], "22 is worth one worm"
    assert len(story["series"]) == 6, "the start and the five inputs that stand"
    assert story["rounds"][-1]["scores"] == [1.0, 0.0]
    assert story["players"] == ["Ann", "Bob"] and story["started"] <= story["ended"]


def test_history_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    res = client.get("/api/games/99/history")
    assert res.status_code == 404 and "no game number 99" in res.get_json()["error"]


def test_a_malformed_input_is_marked_for_the_page(client: FlaskClient) -> None:
    heckmeck(client)
    res = client.post("/api/input", json={"action": {"type": "roll", "dice": [1], "player": 0}}, headers=AUTH)
    assert res.status_code == 400
    assert res.get_json()["kind"] == "malformed"
    # the page replaces such a message with a sentence for the players
    assert 'data.kind === "malformed"' in (ROOT / "web/static/app/api.js").read_text()


def test_manifest_icons_and_favicon_are_served(client: FlaskClient) -> None:
    res = client.get("/manifest.webmanifest")
    assert res.status_code == 200 and res.mimetype == "application/manifest+json"
    manifest = res.get_json()
    assert manifest["start_url"] == "/" and manifest["display"] == "fullscreen"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    assert client.get("/favicon.ico", follow_redirects=True).status_code == 200
    page = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in page and 'rel="icon"' in page


def test_pages_have_no_inline_scripts_handlers_or_styles(client: FlaskClient) -> None:
    """A Content-Security-Policy of script-src/style-src 'self' must not break the pages."""
    for path in ("/", "/health"):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert " style=" not in html, path
