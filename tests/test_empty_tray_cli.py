"""``companion empty-tray``: capture from photos, from the config's camera or through a running
companion; refused with a message (and nothing written) when the tray is not empty; check and forget."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from live import serve  # type: ignore[import-not-found]

from companion.cli import main
from companion.config import Config, ServerConfig, StoreConfig
from companion.hardware.camera import quiet_opencv
from companion.store.journal import Journal
from companion.table.empty_reference import EMPTY_FILE
from companion.table.rig import Rig
from companion.table.session import Table
from companion.vision.render import RenderDie, Scene, render_scene
from companion.web import create_app

SCENE = Scene(tray_seed=4)


def photos(folder: Path, dice: list[RenderDie]) -> list[str]:
    out = []
    for k in range(3):
        path = folder / f"tray{k}.png"
        cv2.imwrite(str(path), render_scene(dice, SCENE, seed=9 if dice else k)[0])
        out.append(str(path))
    return out


def test_capture_from_photos_then_check_and_forget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["empty-tray", "capture", "--data", str(data), "--image", *photos(tmp_path, [])]) == 0
    assert (data / EMPTY_FILE).exists()
    assert main(["empty-tray", "check", "--data", str(data)]) == 0
    assert "whole, 640x480" in capsys.readouterr().out
    assert main(["empty-tray", "forget", "--data", str(data)]) == 0
    assert not (data / EMPTY_FILE).exists()
    assert main(["empty-tray", "check", "--data", str(data)]) == 0
    assert "none captured" in capsys.readouterr().out


def test_dice_in_the_photos_are_refused_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    data = tmp_path / "data"
    code = main(["empty-tray", "capture", "--data", str(data), "--image",
                 *photos(tmp_path, [RenderDie(2), RenderDie(6), RenderDie(3)])])
    assert code == 1
    assert "The camera sees 3 dice in the tray: take every die out" in capsys.readouterr().err
    assert not (data / EMPTY_FILE).exists()


def test_a_damaged_reference_fails_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / EMPTY_FILE).write_bytes(b"\x00" * 100)
    assert main(["empty-tray", "check", "--data", str(tmp_path)]) == 1
    assert "damaged, not used" in capsys.readouterr().err


def test_capture_from_the_configs_camera(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(f'[store]\ndata_dir = "{tmp_path / "data"}"\n\n[camera]\nsource = "simulated"\n')
    assert main(["empty-tray", "capture", "--config", str(config)]) == 0
    assert (tmp_path / "data" / EMPTY_FILE).exists()


@pytest.mark.skipif(Path("/dev/video63").exists(), reason="a camera sits at /dev/video63 here")
def test_no_camera_is_one_clear_line_without_opencvs_warnings(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(f'[store]\ndata_dir = "{tmp_path / "data"}"\n\n[camera]\nsource = "usb"\nusb_index = 63\n')
    done = subprocess.run([sys.executable, "-m", "companion", "empty-tray", "capture", "--config", str(config)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "companion empty-tray capture: cannot open the camera (cannot open video source 63): if the companion "
        "is running, use --url and --pin; without a camera, give photos of the empty tray with --image"
    ]
    assert not (tmp_path / "data" / EMPTY_FILE).exists()


def test_opencv_speaks_again_after_the_attempt() -> None:
    before = cv2.utils.logging.getLogLevel()
    with quiet_opencv():
        assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_SILENT
    assert cv2.utils.logging.getLogLevel() == before != cv2.utils.logging.LOG_LEVEL_SILENT


def test_capture_through_a_running_companion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = Config(server=ServerConfig(pin="4321"), store=StoreConfig(data_dir=str(tmp_path)), mock=True)
    table = Table(Journal(tmp_path / "journal.sqlite3"), rng=random.Random(0))
    rig = Rig(table, config, mock=True, seed=3)
    try:
        with serve(create_app(table, config=config, devices=rig)) as base:
            assert main(["empty-tray", "capture", "--url", base, "--pin", "0000"]) == 1
            assert "PIN" in capsys.readouterr().err
            assert not (tmp_path / EMPTY_FILE).exists()
            assert main(["empty-tray", "capture", "--url", base, "--pin", "4321"]) == 0
            assert "state ok" in capsys.readouterr().out
            assert (tmp_path / EMPTY_FILE).exists()
            assert table.view()["status"]["calibration"]["empty"]["state"] == "ok"
    finally:
        rig.close()
        table.journal.close()
