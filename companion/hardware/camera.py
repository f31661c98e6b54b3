"""Camera sources behind one small interface: ``read()`` a BGR frame, ``close()``.

- ``PiCamera``: the Raspberry Pi camera through Picamera2 (imported only when one is opened).
- ``VideoCaptureCamera``: a USB webcam or a video file through ``cv2.VideoCapture``.
- ``FolderCamera``: cycles through the photos of a folder (replaying a session, demos).
- ``SimulatedCamera``: renders the dice it is told to show, with faults on demand (mock mode, tests).

Every error is a ``CameraError``, which is both a ``HardwareError`` and an ``OSError``, so callers may
catch either.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from companion.vision.render import RenderDie, Scene, random_dice, render_scene


class HardwareError(Exception):
    """Base of the errors raised by hardware adapters."""


class CameraError(HardwareError, OSError):
    """The camera is missing, unplugged or returned no frame."""


@contextmanager
def quiet_opencv() -> Iterator[None]:
    """OpenCV's own log lines off while a command opens a camera: they go to stderr from C++ (past
    Python's logging), so a command that says in one line why no camera opened printed them first."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


@runtime_checkable
class CameraSource(Protocol):
    def read(self) -> np.ndarray:
        """The next frame, BGR uint8 (height x width x 3)."""
        ...

    def close(self) -> None: ...


class _Closing:
    def close(self) -> None:  # pragma: no cover - overridden
        pass

    def __enter__(self) -> _Closing:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class PiCamera(_Closing):
    """The Pi camera via Picamera2: BGR frames at ``size``; exposure, white balance and focus are
    locked after a warm-up so the dice look the same all evening (auto exposure chasing a hand that
    reaches into the tray would change the colours mid-read)."""

    def __init__(self, *, size: tuple[int, int] = (1280, 960), warmup: float = 1.5,
                 lock: bool = True, controls: dict[str, Any] | None = None) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi, from apt (python3-picamera2)
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: is this a Raspberry Pi with python3-picamera2?") from exc
        try:
            self._cam = Picamera2()
            # Picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's BGR.
            config = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"},
                                                          buffer_count=2)
            self._cam.configure(config)
            self._cam.start()
            if controls:
                self._cam.set_controls(controls)
            time.sleep(warmup)
            if lock:
                self._lock()
        except Exception as exc:  # libcamera raises RuntimeError and friends
            raise CameraError(f"cannot open the Pi camera: {exc}") from exc

    def _lock(self) -> None:
        meta = self._cam.capture_metadata()
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                fixed[key] = meta[key]
        if "LensPosition" in meta:  # autofocus modules (Camera Module 3): manual focus at the found distance
            fixed.update({"AfMode": 0, "LensPosition": meta["LensPosition"]})
        self._cam.set_controls(fixed)

    def read(self) -> np.ndarray:
        try:
            frame: np.ndarray = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"Pi camera read failed: {exc}") from exc
        return np.ascontiguousarray(frame[..., :3])

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class VideoCaptureCamera(_Closing):
    """A USB webcam (``device`` an index) or a video file/stream (a path or URL)."""

    def __init__(self, device: int | str = 0, *, size: tuple[int, int] | None = (1280, 960)) -> None:
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            raise CameraError(f"cannot open video source {device!r}")
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._device = device

    def read(self) -> np.ndarray:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"no frame from video source {self._device!r} (unplugged?)")
        return frame

    def close(self) -> None:
        self._cap.release()


class FolderCamera(_Closing):
    """Cycles through the images of a folder, sorted by name; each read gives the next one."""

    SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")

    def __init__(self, folder: str | Path, *, repeat: int = 1, loop: bool = True) -> None:
        self._paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in self.SUFFIXES)
        if not self._paths:
            raise CameraError(f"no images in {folder}")
        self._repeat = max(1, repeat)  # the same photo for a few reads looks like a settled tray
        self._loop = loop
        self._i = 0

    def read(self) -> np.ndarray:
        k = self._i // self._repeat
        if k >= len(self._paths):
            if not self._loop:
                raise CameraError("no more images in the folder")
            self._i, k = 0, 0
        self._i += 1
        frame = cv2.imread(str(self._paths[k]))
        if frame is None:
            raise CameraError(f"cannot read {self._paths[k]}")
        return frame


class SimulatedCamera(_Closing):
    """Renders the dice it is told to show (``show``), with faults on demand.

    ``roll(n)`` shows ``n`` random dice after ``rolling_frames`` blurred, moving frames, like a real
    throw. Faults: ``unplug()`` makes ``read`` raise ``CameraError`` until ``plug_in()``;
    ``hand = True`` puts a hand in the tray; ``blur`` blurs every frame; ``show(..., cocked=[i])`` leans
    die ``i`` on its neighbour.
    """

    def __init__(self, *, size: tuple[int, int] = (640, 480), seed: int = 0, scene: Scene | None = None,
                 rolling_frames: int = 6) -> None:
        self.size = size
        # One tray under one fixed camera: its felt and light stay the same from roll to roll.
        self.scene = scene or Scene(tray_seed=seed)
        self.hand = False
        self.blur = 0.0
        self.rolling_frames = rolling_frames
        self._rng = np.random.default_rng(seed)
        self._dice: list[RenderDie] = []
        self._layout_seed = seed
        self._moving = 0
        self._plugged = True
        self._frame_no = 0

    @property
    def dice(self) -> list[RenderDie]:
        return list(self._dice)

    def show(self, dice: Sequence[RenderDie], *, cocked: Sequence[int] = (), moving: int = 0) -> None:
        """Show these dice from the next frame on (after ``moving`` frames of rolling)."""
        self._dice = [replace(d, cocked=True) if i in cocked else d for i, d in enumerate(dice)]
        self._layout_seed = int(self._rng.integers(1 << 30))
        self._moving = moving

    def roll(self, n: int, *, worms: bool = False) -> list[RenderDie]:
        dice = random_dice(self._rng, n, worms=worms)
        self.show(dice, moving=self.rolling_frames)
        return dice

    def unplug(self) -> None:
        self._plugged = False

    def plug_in(self) -> None:
        self._plugged = True

    def read(self) -> np.ndarray:
        if not self._plugged:
            raise CameraError("simulated camera unplugged")
        self._frame_no += 1
        scene = replace(self.scene, hand=self.hand or self.scene.hand, blur=max(self.blur, self.scene.blur))
        seed = self._layout_seed
        if self._moving > 0:
            # Still rolling: a new layout every frame, motion-blurred.
            self._moving -= 1
            seed = self._layout_seed + 7919 * (self._moving + 1)
            scene = replace(scene, blur=max(scene.blur, 9.0))
        frame, _ = render_scene(self._dice, scene, seed=seed, size=self.size)
        return frame
