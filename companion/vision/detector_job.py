"""The table's own detector: the head taught on its rolls, the background job that teaches it, and what
the teaching measured.

When the guided calibration ends, the daemon runs ``companion dice teach-detector`` in a child process
at the lowest priority (numpy and OpenCV: no torch). The job writes the head and its verdict beside
their final files; the daemon moves the verdict into place always (the tablet and ``companion
hardware health`` show what it measured) and the head only when the job kept it and the table has
not forgotten its dice meanwhile. The reader then finds dice with the table's head
(``DieDetector(head=...)``); a head file that does not load is not used. The face teaching's result
(the classifier's last two layers refitted, the faces told by their marks, or both) is moved in, or
the last one removed, whatever the detector's verdict. What the table is told it reads
(``taught_reading``) is the held-back reading of the reader it reads with after the teaching.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.vision.background_job import BackgroundJob, lowest_priority
from companion.vision.detector_head import Head
from companion.vision.face_tail import FaceTail

T = TypeVar("T")

log = logging.getLogger(__name__)

HEAD_FILE = "dice_detector_head.npz"
VERDICT_FILE = "dice_teaching.json"
FACES_FILE = "dice_face_layers.npz"  # the face classifier's last two layers refitted (face_fit.py)
MARKS_FILE = "dice_face_marks.json"  # the faces told by their marks (face_marks.py): the faces' verdict


def teach_command(rolls: Path, empty: Path | None, out: Path, verdict: Path, faces: Path | None = None,
                  set_faces: Sequence[int | str] | None = None, marks: Path | None = None) -> list[str]:
    """``faces``: where the face classifier's refitted layers go; ``set_faces``: the faces the set has;
    ``marks``: where the faces' verdict goes when they are to be told by their marks."""
    cmd = [sys.executable, "-m", "companion", "dice", "teach-detector", "--rolls", str(rolls), "--out", str(out),
           "--verdict", str(verdict)]
    if faces is not None:
        cmd += ["--faces-out", str(faces)]
    if faces is not None and marks is not None:
        cmd += ["--marks-out", str(marks)]
    if set_faces:
        cmd += ["--faces", *(str(f) for f in set_faces)]
    if empty is not None:
        cmd += ["--empty", str(empty)]
    return lowest_priority(cmd)


def read_verdict(path: Path) -> dict[str, Any] | None:
    """The last teaching's verdict (``teach_detector.Verdict.to_json``), or None."""
    try:
        out = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return out if isinstance(out, dict) else None


def taught_reading(verdict: dict[str, Any]) -> dict[str, Any] | None:
    """The held-back reading of the reader the table reads with after a teaching (its verdict): the face
    teaching's when it kept a deeper depth (read with the detector the table kept), else the detector's
    (the taught head's when kept, else the shipped one's). None when there is none."""
    faces = verdict.get("faces")
    reading = faces.get("reading") if isinstance(faces, dict) and faces.get("kept") else None
    if isinstance(reading, dict):
        return reading
    reading = verdict.get("adapted") if verdict.get("kept") else verdict.get("shipped")
    return reading if isinstance(reading, dict) else None


def marks_kept(path: Path) -> bool:
    """Whether the faces' verdict in ``path`` (``MARKS_FILE``) kept the faces told by their marks. A file
    that does not read so is logged and the faces are read without marks."""
    try:
        verdict = json.loads(path.read_text())
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        log.warning("the table's face marks %s are not used: %s", path, exc)
        return False
    if not (isinstance(verdict, dict) and verdict.get("kept") is True and verdict.get("depth") == 3):
        log.warning("the table's face marks %s are not used: not a verdict that kept them", path)
        return False
    return True


class ByMtime(Generic[T]):
    """A file's contents, loaded again only when its modification time changes: None while it is
    missing or when it does not load (logged as ``what``)."""

    def __init__(self, path: Path, load: Callable[[Path], T], what: str) -> None:
        self.path, self.load, self.what = path, load, what
        self._seen: tuple[float, T | None] | None = None

    def get(self) -> T | None:
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            return None
        if self._seen is not None and self._seen[0] == mtime:
            return self._seen[1]
        try:
            value: T | None = self.load(self.path)
        except Exception as exc:
            log.warning("%s %s is not used: %s", self.what, self.path, exc)
            value = None
        self._seen = (mtime, value)
        return value

    def forget(self) -> None:
        self._seen = None


class TableDetector(BackgroundJob):
    """The head file in the data folder, and the job that writes it."""

    what = "teaching the die detector"
    thread_name = "dice-teach"

    def __init__(self, folder: Path | str, *, command: Callable[..., list[str]] = teach_command,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(on_change)
        folder = Path(folder)
        self.path = folder / HEAD_FILE
        self.verdict_path = folder / VERDICT_FILE
        self.faces_path = folder / FACES_FILE
        self.marks_path = folder / MARKS_FILE
        self.command = command
        # never a reason to stop reading: without them, the shipped head and the last layer read
        self._head = ByMtime(self.path, Head.load, "the table's detector head")
        self._layers = ByMtime(self.faces_path, FaceTail.load, "the table's face layers")
        self._marks = ByMtime(self.marks_path, marks_kept, "the table's face marks")

    def _pending(self, path: Path) -> Path:
        return path.with_name(path.stem + ".next" + path.suffix)

    def head(self) -> Head | None:
        """The table's head, when it has one that loads (read again when the file changes)."""
        return self._head.get()

    def face_layers(self) -> tuple[FaceTail, int] | None:
        """The classifier's refitted last two layers and their base (``FaceTail.load``), when the last
        teaching kept some that load (read again when the file changes)."""
        return self._layers.get()

    def face_marks(self) -> bool:
        """Whether the last teaching kept the faces told by their marks (read again when the file changes;
        a damaged file: without marks)."""
        return bool(self._marks.get())

    def verdict(self) -> dict[str, Any] | None:
        return read_verdict(self.verdict_path)

    @property
    def teaching(self) -> bool:
        return self.running

    def start(self, rolls: Path, empty: Path | None, set_faces: Sequence[int | str] | None = None) -> bool:
        """Teach the detector (and the classifier's last two layers, the set having ``set_faces``) on the
        rolls file, in the background; False when a job runs already or cannot start."""
        with self._lock:
            if self._job is not None:
                return False
            out, verdict = self._pending(self.path), self._pending(self.verdict_path)
            faces, marks = self._pending(self.faces_path), self._pending(self.marks_path)
            for p in (out, verdict, faces, marks):
                p.unlink(missing_ok=True)
            if not self._launch(self.command(rolls, empty, out, verdict, faces, set_faces, marks)):
                return False
        self._changed()
        return True

    def _finished(self, returncode: int, out_text: bytes, err: bytes, current: bool) -> None:
        out, verdict = self._pending(self.path), self._pending(self.verdict_path)
        faces, marks = self._pending(self.faces_path), self._pending(self.marks_path)
        if current and verdict.exists():
            verdict.replace(self.verdict_path)
        if current and returncode in (0, 1):  # the faces' depth is kept or not on its own evidence
            for pending, path in ((faces, self.faces_path), (marks, self.marks_path)):
                if pending.exists():
                    pending.replace(path)
                else:
                    path.unlink(missing_ok=True)
        if current and returncode == 0 and out.exists():
            out.replace(self.path)
            log.info("the table's die detector is taught: %s", (self.verdict() or {}).get("reason"))
        elif current:
            self._failed(returncode, err)
        for p in (out, verdict, faces, marks):
            p.unlink(missing_ok=True)

    def forget(self) -> None:
        """A new dice set: the head and its verdict go, and a running job's result with them."""
        with self._lock:
            self._next_generation()
            for p in (self.path, self.verdict_path, self.faces_path, self.marks_path):
                p.unlink(missing_ok=True)
                self._pending(p).unlink(missing_ok=True)
            for cache in (self._head, self._layers, self._marks):
                cache.forget()

    def status(self) -> dict[str, Any]:
        """For the tablet: whether it teaches now, and what the last teaching measured on the held-back
        rolls with the reader the table reads with now (``taught_reading``); ``depth``: how deep the faces
        adapt (``face_fit.Verdict.depth``)."""
        verdict = self.verdict() or {}
        reading = taught_reading(verdict)
        faces = verdict.get("faces")
        depth = faces.get("depth") if isinstance(faces, dict) and faces.get("kept") else 1
        out: dict[str, Any] = {"teaching": self.teaching, "taught": self.path.exists(),
                               "kept": bool(verdict.get("kept")), "depth": depth if depth in (2, 3) else 1}
        if isinstance(reading, dict):
            out.update(dice=reading.get("dice"), right=reading.get("right"), extra=reading.get("extra"),
                       missed=reading.get("missed"), confused=reading.get("confused", [])[:3])
        return out
