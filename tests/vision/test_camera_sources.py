import cv2
import numpy as np
import pytest

from companion.hardware.camera import (
    CameraError,
    CameraSource,
    FolderCamera,
    HardwareError,
    PiCamera,
    SimulatedCamera,
    VideoCaptureCamera,
)
from companion.vision.render import RenderDie


def test_simulated_camera_shows_what_it_is_told_and_settles():
    cam = SimulatedCamera(seed=1, rolling_frames=2)
    assert isinstance(cam, CameraSource)
    cam.show([RenderDie(3, "red")], moving=2)
    rolling = [cam.read() for _ in range(2)]
    still = [cam.read() for _ in range(2)]
    assert not np.array_equal(rolling[0], rolling[1])
    assert np.array_equal(still[0], still[1])


def test_unplugged_camera_raises_a_camera_error():
    cam = SimulatedCamera()
    cam.unplug()
    with pytest.raises(CameraError) as info:
        cam.read()
    assert isinstance(info.value, OSError) and isinstance(info.value, HardwareError)
    cam.plug_in()
    assert cam.read().shape == (480, 640, 3)


def test_folder_camera_cycles(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), i * 100, np.uint8))
    cam = FolderCamera(tmp_path)
    values = [int(cam.read()[0, 0, 0]) for _ in range(3)]
    assert values == [0, 100, 0]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError):
        FolderCamera(empty)


def test_missing_hardware_is_a_camera_error():
    with pytest.raises(CameraError):
        PiCamera()  # picamera2 only exists on a Pi
    with pytest.raises(CameraError):
        VideoCaptureCamera("/nonexistent/video.mp4")
