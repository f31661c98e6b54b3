"""The empty tray through the daemon: captured from the tablet's API (mock camera and the real camera
path on the simulated camera), refused when the tray is not empty or not still, kept on the data disk
across a restart, a damaged file reported rather than crashing, ignored (and said so) once the light
changes, and used by every reading."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.config import Config, ServerConfig, StoreConfig
from companion.games.base import RuleViolation
from companion.i18n.render import localize
from companion.table.empty_reference import EMPTY_FILE, EmptyReference, check_empty
from companion.table.rig import Rig
from companion.table.session import Table
from companion.vision.empty_tray import EmptyTray
from companion.vision.reader import DiceReader
from companion.vision.render import RenderDie, Scene, render_scene
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def english(data: Any) -> str:
    return str(localize(data, "en"))


@pytest.fixture
def mock_rig(table: Table, config: Config) -> Iterator[Rig]:
    r = Rig(table, config, mock=True, seed=5)
    yield r
    r.close()


@pytest.fixture
def client(table: Table, config: Config, mock_rig: Rig) -> FlaskClient:
    return create_app(table, config=config, devices=mock_rig).test_client()


def empty_state(client: FlaskClient) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/calibration").get_json()["empty"]
    return data


def test_mock_mode_captures_the_empty_tray_and_reads_with_it(client: FlaskClient, mock_rig: Rig, config: Config
                                                            ) -> None:
    assert empty_state(client)["state"] == "none"
    res = client.post("/api/calibration/empty", headers=AUTH)
    assert res.status_code == 200, res.get_json()
    assert res.get_json()["empty"]["state"] == "ok"
    path = Path(config.store.data_dir) / EMPTY_FILE
    assert path.exists() and not path.with_name(EMPTY_FILE + ".tmp").exists()
    assert mock_rig.devices.camera.dice == []  # the simulated hands took the dice out
    # the calibration's rolls are read with it: the reader gets the reference on every read
    seen: list[Any] = []
    original = DiceReader.read

    def spy(self: DiceReader, frame: np.ndarray, **kw: Any) -> Any:
        seen.append(kw.get("empty"))
        return original(self, frame, **kw)

    client.post("/api/calibration", json={"faces": [1, 2, 3, 4, 5, 6], "count": 5}, headers=AUTH)
    DiceReader.read = spy  # type: ignore[method-assign]
    try:
        res = client.post("/api/calibration/roll", headers=AUTH)
    finally:
        DiceReader.read = original  # type: ignore[method-assign]
    assert res.status_code == 200 and len(res.get_json()["reading"]["dice"]) == 5
    assert seen and all(isinstance(e, EmptyTray) for e in seen)
    assert empty_state(client)["state"] == "ok" and empty_state(client)["share"] < 0.4


def test_capture_and_forget_need_the_pin(client: FlaskClient, config: Config) -> None:
    for method in ("post", "delete"):
        res = getattr(client, method)("/api/calibration/empty", headers={"X-Table-Pin": "0000"})
        assert res.status_code == 403
    assert not (Path(config.store.data_dir) / EMPTY_FILE).exists()
    client.post("/api/calibration/empty", headers=AUTH)
    res = client.delete("/api/calibration/empty", headers=AUTH)
    assert res.status_code == 200 and res.get_json()["forgot"] is True
    assert res.get_json()["calibration"]["empty"]["state"] == "none"
    assert not (Path(config.store.data_dir) / EMPTY_FILE).exists()


def test_the_reference_survives_a_restart(table: Table, config: Config) -> None:
    first = Rig(table, config, mock=True, seed=5)
    try:
        first.capture_empty()
        image = first.dice.reference.tray.image.copy()  # type: ignore[union-attr]
    finally:
        first.close()
    again = Rig(table, config, mock=True, seed=5)
    try:
        assert again.calibration_status()["empty"]["state"] == "ok"
        assert np.array_equal(again.dice.reference.tray.image, image)  # type: ignore[union-attr]
    finally:
        again.close()


def test_a_damaged_file_is_reported_not_a_crash(table: Table, config: Config) -> None:
    path = Path(config.store.data_dir) / EMPTY_FILE
    path.write_bytes(b"PK\x03\x04 not really a zip")
    rig = Rig(table, config, mock=True, seed=5)
    try:
        assert rig.calibration_status()["empty"]["state"] == "damaged"
        frame = rig.devices.camera.read()
        assert rig.readings.read_frame(frame) is not None  # reads on without it
        rig.capture_empty()  # and a new capture replaces it
        assert rig.calibration_status()["empty"]["state"] == "ok"
        assert EmptyReference(path).state == "ok"
    finally:
        rig.close()


def test_a_failed_save_changes_nothing(mock_rig: Rig, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    mock_rig.capture_empty()
    before = Path(config.store.data_dir, EMPTY_FILE).read_bytes()

    def full(self: EmptyTray, path: Any) -> None:
        Path(path).write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(EmptyTray, "save", full)
    with pytest.raises(RuleViolation) as refused:
        mock_rig.capture_empty()
    assert "could not be saved" in english(refused.value.msg.to_json())
    assert Path(config.store.data_dir, EMPTY_FILE).read_bytes() == before
    assert not Path(config.store.data_dir, EMPTY_FILE + ".tmp").exists()
    assert mock_rig.calibration_status()["empty"]["state"] == "ok"


def test_frames_with_dice_or_motion_are_refused() -> None:
    reader = DiceReader()
    scene = Scene(tray_seed=3)
    empty = [render_scene([], scene, seed=k)[0] for k in range(5)]
    assert check_empty(empty, reader).level > 0
    with_dice = [render_scene([RenderDie(3), RenderDie(5)], scene, seed=11)[0]] * 5
    with pytest.raises(RuleViolation) as refused:
        check_empty(with_dice, reader)
    said = english(refused.value.msg.to_json())
    assert said == "The camera sees 2 dice in the tray: take every die out and capture again."
    moving = [render_scene([], replace(scene, hand=True), seed=k)[0] for k in range(5)]
    with pytest.raises(RuleViolation) as refused:
        check_empty(moving, reader)
    assert "Something moved in the tray" in english(refused.value.msg.to_json())
    with pytest.raises(RuleViolation):
        check_empty(empty[:1], reader)


# --- the real camera path: watcher -> settle -> reader, on the simulated camera ------------------------

@pytest.fixture
def real_rig(table: Table, tmp_path: Path) -> Iterator[Rig]:
    config = Config(server=ServerConfig(pin=PIN), camera={"source": "simulated"},
                    store=StoreConfig(data_dir=str(tmp_path)))
    r = Rig(table, config, mock=False, seed=5)
    table.new_game("heckmeck", ["Ann", "Bob"])
    wait_for(lambda: r.readings.watcher.source is not None)
    yield r
    r.close()


def test_real_path_refuses_dice_in_the_tray_then_captures_and_notices_a_new_light(real_rig: Rig, table: Table
                                                                                 ) -> None:
    camera = real_rig.readings.watcher.source
    camera.show([RenderDie(f) for f in (1, 2, 3)])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    with pytest.raises(RuleViolation) as refused:
        real_rig.capture_empty()
    assert "take every die out" in english(refused.value.msg.to_json())
    assert real_rig.calibration_status()["empty"]["state"] == "none"
    assert not real_rig.dice.reference.path.exists()

    camera.show([])
    time.sleep(0.5)  # the empty tray settles
    real_rig.capture_empty()
    assert real_rig.calibration_status()["empty"]["state"] == "ok"
    camera.show([RenderDie(f) for f in (4, 5, 6, "worm")])
    wait_for(lambda: len(table.view()["game"]["reading"] or []) == 4)
    assert table.view()["status"]["calibration"]["empty"]["state"] == "ok"

    # a lamp switched on beside the tray: the picture no longer shows this tray
    plain = camera.read
    lamp = np.linspace(0.4, 1.5, camera.size[0], dtype=np.float32)[None, :, None]
    camera.read = lambda: np.clip(plain() * lamp, 0, 255).astype(np.uint8)
    camera.show([RenderDie(f) for f in (1, 1, 2)])
    wait_for(lambda: table.view()["status"]["calibration"]["empty"]["state"] == "stale")
    notice = table.view()["status"]["notice"]["text"]
    assert "Capture the empty tray again" in english(notice)
    wait_for(lambda: len(table.view()["game"]["reading"] or []) == 3)  # it reads on without the picture
