"""The JSON API: open to read, PIN to change, clear 4xx for bad requests, nothing changed by them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}
ROLL = {"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]}


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def start(client: FlaskClient) -> int:
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"]}, headers=AUTH)
    assert res.status_code == 201
    game_id: int = res.get_json()["id"]
    return game_id


def test_pages_and_static_files_are_served(client: FlaskClient) -> None:
    for path in ("/", "/health", "/static/app.js", "/static/app.css", "/static/games/heckmeck.js"):
        assert client.get(path).status_code == 200, path


def test_viewing_needs_no_pin(client: FlaskClient) -> None:
    start(client)
    state = client.get("/api/state").get_json()
    assert state["game"]["awaiting"]["kind"] == "dice"
    assert client.get("/api/games").get_json()["games"][0]["players"] == ["Ann", "Bob"]


@pytest.mark.parametrize("headers", [{}, {"X-Table-Pin": "0000"}])
def test_changing_needs_the_pin(client: FlaskClient, headers: dict[str, str]) -> None:
    start(client)
    before = client.get("/api/state").get_json()
    for path, body in [("/api/input", {"action": ROLL}), ("/api/undo", {}), ("/api/games", {"game": "heckmeck"})]:
        res = client.post(path, json=body, headers=headers)
        assert res.status_code == 403 and "PIN" in res.get_json()["error"]
    assert client.get("/api/state").get_json() == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (None, 400, "JSON object"),
        ({"nothing": 1}, 400, '"action"'),
        ({"action": "roll"}, 400, "JSON object"),
        ({"action": {"type": "fly"}}, 400, "no such move"),
        ({"action": {"type": "roll"}}, 400, "missing a detail"),
        ({"action": {"type": "roll", "dice": "12345678"}}, 400, "should be a list"),
        ({"action": {"type": "roll", "dice": [1, 2]}}, 409, "Expected 8 dice"),
        ({"action": {"type": "take", "face": 4}}, 409, "roll first"),
        ({"action": {"type": "claim", "tile": "21"}}, 400, "whole number"),
    ],
)
def test_bad_input_gets_a_clear_4xx_and_changes_nothing(
    client: FlaskClient, body: Any, status: int, message: str
) -> None:
    start(client)
    before = client.get("/api/state").get_json()
    data = "not json" if body is None else json.dumps(body)
    res = client.post("/api/input", data=data, headers={**AUTH, "Content-Type": "application/json"})
    assert res.status_code == status
    assert message in res.get_json()["error"]
    assert client.get("/api/state").get_json() == before


def test_a_turn_through_the_api(client: FlaskClient, table: Table) -> None:
    game = start(client)
    assert client.post("/api/input", json={"action": ROLL}, headers=AUTH).status_code == 200
    options = client.get("/api/state").get_json()["game"]["awaiting"]["options"]
    assert [o["action"] for o in options] == [
        {"type": "take", "face": 1},
        {"type": "take", "face": 2},
        {"type": "take", "face": 3},
        {"type": "take", "face": 4},
        {"type": "take", "face": "worm"},
    ]
    res = client.post("/api/input", json={"action": {"type": "take", "face": "worm"}}, headers=AUTH)
    assert res.get_json()["events"][0]["kind"] == "kept"
    assert client.post("/api/undo", headers=AUTH).status_code == 200
    assert client.post("/api/redo", headers=AUTH).status_code == 200
    assert client.post("/api/redo", headers=AUTH).status_code == 409
    entries = list(table.journal.entries(game))
    assert [e.get("device") for e in entries] == ["tablet:t1"] * 4


def test_export_and_import_through_the_api(client: FlaskClient) -> None:
    game = start(client)
    client.post("/api/input", json={"action": ROLL}, headers=AUTH)
    record = client.get(f"/api/games/{game}/record")
    assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
    res = client.post("/api/games/import", data=record.data, headers=AUTH)
    assert res.status_code == 201
    copy = res.get_json()["id"]
    assert client.get(f"/api/games/{copy}/record").data == record.data
    bad = record.data + b'{"type": "input", "action": {"type": "take", "face": 6}}\n'
    res = client.post("/api/games/import", data=bad, headers=AUTH)
    assert res.status_code == 400 and "line 3" in res.get_json()["error"]
    assert len(client.get("/api/games").get_json()["games"]) == 2


def test_unknown_things_are_404(client: FlaskClient) -> None:
    assert client.get("/api/games/99/record").status_code == 404
    assert client.post("/api/games/99/open", headers=AUTH).status_code == 404
    assert client.get("/api/nothing").status_code == 404
    assert "error" in client.get("/api/nothing").get_json()


def test_new_game_validation(client: FlaskClient) -> None:
    for body, message in [
        ({"players": ["A", "B"]}, "which game"),
        ({"game": "heckmeck", "players": "A,B"}, "players"),
        ({"game": "heckmeck", "players": ["A", "A"]}, "same name"),
        ({"game": "heckmeck", "players": ["A", "B"], "options": {"short_variant": "yes"}}, "on or off"),
    ]:
        res = client.post("/api/games", json=body, headers=AUTH)
        assert 400 <= res.status_code < 500 and message in res.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_confirm_takes_the_usual_choice_and_next_moves_it(client: FlaskClient, table: Table) -> None:
    start(client)
    client.post("/api/input", json={"action": ROLL}, headers=AUTH)
    client.post("/api/input", json={"action": {"type": "take", "face": "worm"}}, headers=AUTH)
    client.post("/api/input", json={"action": {"type": "roll", "dice": [4, 4, 4, 1, 1, 1]}}, headers=AUTH)
    client.post("/api/input", json={"action": {"type": "take", "face": 4}}, headers=AUTH)  # 22 kept
    # deciding with no camera reading: confirm must not guess between rolling on and taking 22
    options = client.get("/api/state").get_json()["game"]["awaiting"]["options"]
    assert options[0]["recommended"] and options[0]["highlighted"]
    res = client.post("/api/confirm", headers=AUTH)
    assert res.status_code == 200
    assert table.view()["game"]["scoreboard"]["players"][0]["stack"] == [22]


def test_confirm_waits_for_dice_when_nothing_is_chosen(client: FlaskClient) -> None:
    start(client)
    client.post("/api/input", json={"action": ROLL}, headers=AUTH)
    client.post("/api/input", json={"action": {"type": "take", "face": 1}}, headers=AUTH)
    res = client.post("/api/confirm", headers=AUTH)  # only "stop" is open besides rolling: not a default
    assert res.status_code == 409 and "dice" in res.get_json()["error"]
    client.post("/api/next", headers=AUTH)  # the player highlights "stop" on purpose
    assert client.post("/api/confirm", headers=AUTH).status_code == 200


def test_device_routes_without_devices(client: FlaskClient) -> None:
    assert client.post("/api/buttons/confirm", headers=AUTH).status_code == 404
    assert client.get("/api/camera/frame.jpg").status_code == 404
    assert client.get("/api/health").get_json()["ok"] is True


def test_a_record_is_not_exported_while_secret_choices_are_pending(client: FlaskClient, table: Table) -> None:
    res = client.post(
        "/api/games",
        json={"game": "cincinnati", "players": ["A", "B", "C", "D"], "options": {"virtual_deck": True}},
        headers=AUTH,
    )
    game = res.get_json()["id"]
    assert table.awaiting() is not None and table.awaiting().kind == "secret"  # type: ignore[union-attr]
    client.post("/api/input", json={"action": {"type": "choose", "player": 0, "table": "B"}}, headers=AUTH)
    res = client.get(f"/api/games/{game}/record")
    assert res.status_code == 409 and "secret" in res.get_json()["error"]
    game_view = client.get("/api/state").get_json()["game"]
    assert game_view["scoreboard"]["players"][0]["table"] is None
    assert all(o["action"]["player"] != 0 for o in game_view["awaiting"]["options"])
    chosen = [e for e in game_view["log"] if e["kind"] == "chosen"]
    assert chosen and all("Ballroom" not in e["text"] and "B" not in json.dumps(e["data"]) for e in chosen)
