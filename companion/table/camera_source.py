"""The camera the ``[camera]`` table asks for: its settings checked, and the source opened.

The real camera is opened by the camera watcher (``watcher.py``) on its own thread, and reopened after a
fault, so this is a factory it is given rather than a camera; ``companion check-config`` checks the same
settings without opening anything, and ``companion empty-tray capture`` opens one directly while the
companion is stopped.
"""

from __future__ import annotations

from typing import Any

CAMERA_SOURCES = ("auto", "picamera2", "usb", "folder", "simulated", "none")


def camera_problems(settings: dict[str, Any]) -> list[str]:
    """What is wrong with a ``[camera]`` table (for ``companion check-config``), without opening it."""
    problems = []
    source = settings.get("source", "auto")
    if source not in CAMERA_SOURCES:
        problems.append(f"[camera] source must be one of {', '.join(CAMERA_SOURCES)}, not {source!r}")
    size = settings.get("resolution")
    if size is not None and not (
        isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and 64 <= v <= 8192 for v in size)
    ):
        problems.append("[camera] resolution must be [width, height] in pixels, e.g. [2304, 1296]")
    if not isinstance(settings.get("retrain", False), bool):
        problems.append("[camera] retrain must be true or false (retrain the dice network on the table's dice)")
    warmup = settings.get("warmup_s", 2.0)
    if not isinstance(warmup, int | float) or isinstance(warmup, bool) or not 0 <= warmup <= 30:
        problems.append("[camera] warmup_s must be a number of seconds between 0 and 30")
    for key in ("lock_exposure", "lock_white_balance"):
        if not isinstance(settings.get(key, True), bool):
            problems.append(f"[camera] {key} must be true or false")
    if source == "folder" and not settings.get("folder"):
        problems.append('[camera] source = "folder" needs folder = "/path/to/photos"')
    index = settings.get("usb_index", 0)
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        problems.append("[camera] usb_index must be 0 or more")
    return problems


def open_camera(settings: dict[str, Any]) -> Any:
    """The camera source the ``[camera]`` table asks for; ``auto`` tries the Pi camera, then USB."""
    from companion.hardware.camera import FolderCamera, PiCamera, SimulatedCamera, VideoCaptureCamera

    source = str(settings.get("source", "auto"))
    raw_size = settings.get("resolution")
    size = (int(raw_size[0]), int(raw_size[1])) if isinstance(raw_size, list) and len(raw_size) == 2 else None
    if source == "simulated":
        return SimulatedCamera()
    if source == "folder":
        return FolderCamera(str(settings.get("folder", "")))
    if source == "usb":
        return VideoCaptureCamera(int(settings.get("usb_index", 0)), size=size)
    if source in ("picamera2", "auto"):
        lock = bool(settings.get("lock_exposure", True)) or bool(settings.get("lock_white_balance", True))
        try:
            return PiCamera(size=size or (2304, 1296), warmup=float(settings.get("warmup_s", 2.0)), lock=lock)
        except Exception:
            if source == "picamera2":
                raise
    return VideoCaptureCamera(int(settings.get("usb_index", 0)), size=size)
