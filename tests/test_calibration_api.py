"""The calibration's API: open to watch, PIN to change, 400 for malformed requests, 409 when the state
refuses, 404 without devices; a refused request changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.table.rig import Rig
from companion.table.session import Table
from companion.table.table_dice import PROFILE_FILE
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}


@pytest.fixture
def rig(table: Table, config: Config) -> Iterator[Rig]:
    r = Rig(table, config, mock=True, seed=5)
    yield r
    r.close()


@pytest.fixture
def client(table: Table, config: Config, rig: Rig) -> FlaskClient:
    return create_app(table, config=config, devices=rig).test_client()


def status(client: FlaskClient) -> dict[str, Any]:
    res = client.get("/api/calibration")
    assert res.status_code == 200
    data: dict[str, Any] = res.get_json()
    return data


def rolled(client: FlaskClient) -> dict[str, Any]:
    res = client.post("/api/calibration", json={"faces": [1, 2, 3, 4, 5, 6], "count": 5}, headers=AUTH)
    assert res.status_code == 200
    res = client.post("/api/calibration/roll", headers=AUTH)
    assert res.status_code == 200
    reading: dict[str, Any] = res.get_json()["reading"]
    return reading


def test_teach_a_roll_then_forget_the_dice(client: FlaskClient, config: Config) -> None:
    assert status(client)["active"] is False
    reading = rolled(client)
    assert status(client)["reading"] == reading and len(reading["dice"]) == 5
    frame = client.get("/api/camera/frame.jpg")
    assert frame.status_code == 200 and frame.data[:2] == b"\xff\xd8"
    faces = [d["value"] for d in reading["dice"]]
    faces[-1] = 6 if faces[-1] != 6 else 1  # one correction
    res = client.post("/api/calibration/confirm", json={"faces": faces, "reading": reading["number"]}, headers=AUTH)
    assert res.status_code == 200 and res.get_json()["learnt"] == 5
    assert res.get_json()["calibration"]["rolls"] == 1
    assert client.get("/api/state").get_json()["status"]["calibration"]["dice"] == 5  # live to every page
    res = client.delete("/api/calibration", headers=AUTH)
    assert res.status_code == 200 and res.get_json()["taught"] == {"rolls": 1, "dice": 5}
    assert status(client)["active"] is False and status(client)["learnt"] == 5
    profile = Path(config.store.data_dir) / PROFILE_FILE
    assert profile.exists()
    res = client.delete("/api/profile", headers=AUTH)
    assert res.status_code == 200 and res.get_json()["forgot"] is True
    assert not profile.exists() and status(client)["learnt"] == 0


@pytest.mark.parametrize("headers", [{}, {"X-Table-Pin": "0000"}])
def test_changing_needs_the_pin(client: FlaskClient, headers: dict[str, str]) -> None:
    rolled(client)
    before = status(client)
    for method, path, body in [
        ("post", "/api/calibration", {}),
        ("post", "/api/calibration/roll", {}),
        ("post", "/api/calibration/confirm", {"faces": [d["value"] for d in before["reading"]["dice"]]}),
        ("delete", "/api/calibration", None),
        ("delete", "/api/profile", None),
    ]:
        res = getattr(client, method)(path, json=body, headers=headers)
        assert res.status_code == 403 and "PIN" in res.get_json()["error"], path
    assert status(client) == before


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/api/calibration", None, "JSON object"),
        ("/api/calibration", {"faces": "123456"}, "List the faces"),
        ("/api/calibration", {"faces": [1, 7]}, "not 7"),
        ("/api/calibration", {"faces": [1]}, "at least two"),
        ("/api/calibration", {"count": "5"}, "whole number"),
        ("/api/calibration", {"count": 5.0}, "whole number"),
        ("/api/calibration", {"count": 0}, "from 1 to 16"),
        ("/api/calibration/confirm", None, "JSON object"),
        ("/api/calibration/confirm", {}, "one face for each die"),
        ("/api/calibration/confirm", {"faces": []}, "one face for each die"),
        ("/api/calibration/confirm", {"faces": [[1], 2]}, "one face for each die"),
        ("/api/calibration/confirm", {"faces": [1.0, 2]}, "one face for each die"),
        ("/api/calibration/confirm", {"faces": [1, 2, "worm", 4, 5]}, "cannot show worm"),
        ("/api/calibration/confirm", {"faces": [1, 2, 3, 4, 5], "reading": "1"}, "by its number"),
    ],
)
def test_malformed_requests_get_400_and_change_nothing(client: FlaskClient, path: str, body: Any, message: str) -> None:
    if path.endswith("confirm"):
        rolled(client)
    before = status(client)
    data = "not json" if body is None else json.dumps(body)
    res = client.post(path, data=data, headers={**AUTH, "Content-Type": "application/json"})
    assert res.status_code == 400 and message in res.get_json()["error"]
    assert status(client) == before


def test_refused_in_this_state_gets_409(client: FlaskClient, rig: Rig) -> None:
    for method, path, body, message in [
        ("post", "/api/calibration/roll", {}, "start the calibration"),
        ("post", "/api/calibration/confirm", {"faces": [1, 2]}, "start the calibration"),
        ("delete", "/api/calibration", None, "start the calibration"),
    ]:
        res = getattr(client, method)(path, json=body, headers=AUTH)
        assert res.status_code == 409 and message in res.get_json()["error"], path
    reading = rolled(client)
    before = status(client)
    faces = [d["value"] for d in reading["dice"]]
    for body, message in [
        ({"faces": faces[:4]}, "give one face for each"),
        ({"faces": faces, "reading": reading["number"] - 1}, "new roll since"),
    ]:
        res = client.post("/api/calibration/confirm", json=body, headers=AUTH)
        assert res.status_code == 409 and message in res.get_json()["error"]
    res = client.post("/api/calibration", json={}, headers=AUTH)
    assert res.status_code == 409 and "already being taught" in res.get_json()["error"]
    assert status(client) == before
    rig.devices.mock = False  # a real camera cannot roll by itself
    res = client.post("/api/calibration/roll", headers=AUTH)
    assert res.status_code == 409 and "roll the dice into the tray" in res.get_json()["error"]


def test_without_devices_every_calibration_route_is_404(table: Table, config: Config) -> None:
    client = create_app(table, config=config).test_client()
    for method, path in [
        ("get", "/api/calibration"),
        ("post", "/api/calibration"),
        ("post", "/api/calibration/roll"),
        ("post", "/api/calibration/confirm"),
        ("delete", "/api/calibration"),
        ("delete", "/api/profile"),
    ]:
        res = getattr(client, method)(path, json={}, headers=AUTH)
        assert res.status_code == 404 and "No camera" in res.get_json()["error"], path
