"""The empty tray's reference on the data disk: captured with the calibration, read with every frame.

The camera and the tray do not move, so a picture of the empty tray shows the reader where something
now lies that was not there before (``vision/empty_tray.py``): a dark die on dark felt, a translucent
one, a die against the wall, which the reader alone may miss. It is taken from a few frames of the
empty tray, which must be still (no hand moving) and empty (the reader sees no die in them); a
refusal says which, and nothing changes. The file is written beside the old one and moved over it,
so a power cut leaves one or the other; a damaged file is reported and not used.

Each frame is checked against it before it is used: when most of the frame differs (a lamp switched
on, the camera knocked), the reference no longer shows this tray and is ignored until it matches again
or is captured afresh; the tablet says so.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.games.base import RuleViolation
from companion.games.messages import msg, nmsg
from companion.store.atomic_file import remove_file, replace_file
from companion.vision.empty_tray import EmptyTray

log = logging.getLogger(__name__)

EMPTY_FILE = "empty_tray.npz"
FRAMES = 5  # frames of the empty tray taken; their median is the reference, their spread its noise
STILL_LEVEL = 20  # grey levels: a pixel changed by more than this between two frames has moved
STILL_SHARE = 0.002  # ... and frames are still when fewer than this share of pixels did (as settle.py)
STATES = ("none", "ok", "stale", "damaged")


def check_empty(frames: Sequence[np.ndarray], reader: Any, profile: Any = None) -> EmptyTray:
    """The empty tray from these frames, or ``RuleViolation`` saying why they do not show one."""
    frames = [np.asarray(f) for f in frames]
    if len(frames) < 2 or any(f.ndim != 3 or f.shape != frames[0].shape for f in frames):
        raise RuleViolation(msg("The camera gave no steady picture of the tray: check it and capture again."))
    small = [_grey(f) for f in frames]
    if any(float(np.count_nonzero(cv2.absdiff(a, b) > STILL_LEVEL)) / a.size > STILL_SHARE
           for a, b in zip(small, small[1:], strict=False)):
        raise RuleViolation(msg("Something moved in the tray: keep hands out of it and capture again."))
    tray = EmptyTray.capture(frames)
    seen = len(reader.read(tray.image, profile=profile).dice)
    if seen:
        raise RuleViolation(nmsg(
            "The camera sees {n} die in the tray: take every die out and capture again.",
            "The camera sees {n} dice in the tray: take every die out and capture again.",
            seen,
        ))
    return tray


def _grey(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (160, max(1, round(h * 160 / w))), interpolation=cv2.INTER_AREA)
    out: np.ndarray = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2GRAY)
    return out


class EmptyReference:
    """The table's empty-tray file and its state: ``none``, ``ok`` (used), ``stale`` (ignored: the tray
    looks different now), ``damaged`` (the file cannot be read). Thread-safe: the camera thread reads
    with it while a tablet request captures a new one."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.tray: EmptyTray | None = None
        self.state = "none"
        self.problem = ""
        self.share: float | None = None  # how much of the last frame differed from it
        self.taken: float | None = None
        if self.path.exists():
            try:
                self.tray = EmptyTray.load(self.path)
                self.state, self.taken = "ok", self.path.stat().st_mtime
            except (OSError, ValueError) as exc:
                log.warning("empty-tray reference %s unusable: %s", self.path, exc)
                self.state, self.problem = "damaged", str(exc)

    def usable(self, frame: np.ndarray) -> tuple[EmptyTray | None, bool]:
        """The reference if it still shows this tray, else None; and whether the state changed."""
        with self._lock:
            tray = self.tray
            if tray is None:
                return None, False
            share = tray.changed_share(frame)
            matches = tray.matches(frame)
            before = self.state
            self.share = share
            self.state = "ok" if matches else "stale"
            return (tray if matches else None), self.state != before

    def save(self, tray: EmptyTray) -> None:
        """Written beside the file and moved over it; raises ``OSError`` (nothing changed) when it cannot."""
        replace_file(self.path, tray.save)
        with self._lock:
            self.tray, self.state, self.problem, self.share, self.taken = tray, "ok", "", None, time.time()

    def forget(self) -> bool:
        """Delete the reference (the reader goes on without it); True when there was a file."""
        with self._lock:
            self.tray, self.state, self.problem, self.share, self.taken = None, "none", "", None, None
            return remove_file(self.path)

    def status(self) -> dict[str, Any]:
        """For the tablet (JSON-ready)."""
        with self._lock:
            return {
                "state": self.state,
                "taken": None if self.taken is None else round(self.taken),
                "share": None if self.share is None else round(self.share, 3),
            }

