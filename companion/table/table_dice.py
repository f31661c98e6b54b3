"""What the table has learnt of its own dice: the profile, its own network, and the empty tray.

The reader reads every frame with them (``readings.py``); the rolls the table enters and the guided
calibration add to the profile (``teaching.py``), and a new dice set at the table forgets it. Learning
and forgetting take turns under one lock, and each forget starts a new generation: a roll entered
before a forget is not learnt after it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.games.base import RuleViolation
from companion.games.messages import msg
from companion.table.dice_view import DiceView
from companion.table.empty_reference import EMPTY_FILE, EmptyReference

log = logging.getLogger(__name__)

PROFILE_FILE = "dice_profile.npz"
MODEL_FILE = "dice_model.onnx"  # the table's own network, retrained on the profile (vision/retrain_job.py)
ROLLS_FILE = "dice_rolls.npz"  # the calibration's confirmed rolls, whole frames: the detector learns from them


@dataclass(frozen=True)
class EnteredRoll:
    """A roll the table entered, with the camera view it was read from."""

    view: DiceView
    dice: list[Any]
    generation: int  # the profile's generation when the roll was entered: a forgotten set is not taught


class TableDice:
    """The table's dice profile, its own network and its empty-tray reference, in its data folder.

    With a real camera the profile is loaded from the start; in mock mode (where games read the
    renderer's truth) only once the guided calibration or "forget" needs it (``load``)."""

    def __init__(self, config: Config, *, on_change: Callable[[], None]) -> None:
        self.config = config
        self.profile: Any = None
        self.profile_path = Path(config.store.data_dir) / PROFILE_FILE
        self.table_model: Any = None  # loaded with the profile
        self.rolls: Any = None  # the calibration's confirmed rolls (vision/table_rolls.py), loaded with the profile
        self.table_detector: Any = None  # the detector taught on them (vision/detector_job.py)
        self._readers: tuple[Any, Any, Any] | None = None  # (base reader, head, reader with the head)
        # The empty tray, captured with the calibration: every reading compares the frame with it.
        self.reference = EmptyReference(Path(config.store.data_dir) / EMPTY_FILE)
        self.generation = 0  # counts forgets
        self._lock = threading.RLock()  # learning (worker, calibration) and forgetting take turns
        self._on_change = on_change  # the tablet's calibration panel shows the model's state

    def load(self) -> Any:
        """The profile (a ``TableProfile``), read from its file the first time it is needed."""
        with self._lock:
            if self.profile is None:
                from companion.vision.detector_job import TableDetector
                from companion.vision.profile_store import TableProfile
                from companion.vision.table_rolls import TableRolls

                self.profile = TableProfile(self.profile_path)
                self.table_model = self._new_table_model()
                self.rolls = TableRolls(self.profile_path.with_name(ROLLS_FILE))
                self.table_detector = TableDetector(self.profile_path.parent, on_change=self._on_change)
            return self.profile

    def _new_table_model(self) -> Any:
        from companion.vision.retrain_job import TableModel

        # [camera] retrain = true lets the table retrain the network on its dice (needs the 'train' extra).
        # Off by default: on dice it never saw the table's model reads more of them right but answers more
        # of them wrongly with confidence (docs/log/vision-rounds.md, sixteenth round).
        enabled = None if bool(self.config.camera.get("retrain", False)) else False
        return TableModel(self.profile_path.with_name(MODEL_FILE), enabled=enabled, on_change=self._on_change)

    def reader(self) -> Any:
        """The table's own network once it has one (``vision/retrain_job.py``), else the shipped one;
        finding dice with the detector the table taught (``vision/detector_job.py``) once it has one."""
        if self.table_model is not None:
            base = self.table_model.reader()
        else:
            from companion.vision.reader import default_reader

            base = default_reader()
        head = self.table_detector.head() if self.table_detector is not None else None
        if head is None or base.detector is None:
            return base
        cached = self._readers
        if cached is not None and cached[0] is base and cached[1] is head:
            return cached[2]
        import copy

        from companion.vision.detector import DieDetector

        taught = copy.copy(base)  # the same classifier, the detector with the table's head
        taught.detector = DieDetector(base.detector.path, base.detector.second_read, head=head)
        self._readers = (base, head, taught)
        return taught

    def patches(self) -> Any:
        """The learnt patches the reader compares dice with, or None before the profile is loaded; with
        the classifier's last two layers refitted on them when the last teaching kept them
        (``vision/face_fit.py``), the faces told by their marks when it kept those
        (``vision/face_marks.py``), else with the last layer alone."""
        if self.profile is None:
            return None
        prof = self.profile.profile
        job = self.table_detector
        layers = job.face_layers() if job is not None else None
        prof.tail, prof.tail_base = layers if layers is not None else (None, 0)
        prof.marks = bool(job.face_marks()) if job is not None else False
        return prof

    def learn_entered(self, roll: EnteredRoll) -> None:
        """Learn a roll the table entered (on the worker thread: the game does not wait for it)."""
        faces = [d.get("face") if isinstance(d, dict) else d for d in roll.dice]
        try:
            with self._lock:
                if roll.generation != self.generation:
                    return  # the table forgot its dice after this roll was entered
                learnt = self.profile.learn(self.reader(), roll.view.frame, roll.view.reading, faces)
        except Exception:  # learning is a bonus: a full disk must not stop the game
            log.exception("learning the table's dice failed")
            return
        if learnt:
            log.info("learnt %d dice; the profile holds %d patches", learnt, len(self.profile.profile))
            self._grown(learnt)

    def learn_now(self, frame: Any, reading: Any, faces: list[Any], *, background: bool) -> int:
        """A calibration roll, learnt at once so the tablet hears whether it was taken. Every die was
        corrected on this very reading, so any number of corrections is learnt; ``background``: the
        set's count was given, so every die in view is in the reading and the rest of the tray is not."""
        with self._lock:
            try:
                profile = self.load()
                learnt = int(
                    profile.learn(self.reader(), frame, reading, faces, most_corrected=1.0, background=background)
                )
                if learnt and background:  # every die in view is in the reading: the detector may learn it
                    self.rolls.add(frame, _dice_of(reading, faces))
            except OSError as exc:
                raise RuleViolation(
                    msg("The dice could not be saved ({error}): free some space and confirm again.", error=str(exc))
                ) from exc
        if learnt:
            self._grown(learnt)
        return learnt

    def teach_detector(self, faces: Any = None) -> bool:
        """The calibration is done: teach the detector the confirmed rolls, in the background (with the
        empty tray as their background when there is one), and the classifier's last two layers the
        set's ``faces``. True when a teaching started."""
        with self._lock:
            if self.rolls is None or self.table_detector is None:
                return False
            from companion.vision.teach_detector import MIN_ROLLS

            if len(self.rolls) < MIN_ROLLS:
                return False
            empty = self.reference.path if self.reference.state == "ok" else None
            return bool(self.table_detector.start(self.rolls.path, empty, faces))

    def _grown(self, learnt: int) -> None:
        """Enough confirmed dice since the last try: retrain the network on them, in the background."""
        if self.table_model is not None and self.table_model.learnt(self.profile_path, learnt):
            log.info("retraining the dice network on the table's profile, in the background")

    def forget(self) -> bool:
        """A new dice set at the table: the learnt profile is deleted; True when there was one."""
        with self._lock:
            forgot = bool(self.load().forget())
            forgot = bool(self.rolls.forget()) or forgot
            self.generation += 1
            if self.table_model is not None:
                self.table_model.forget()
            if self.table_detector is not None:
                self.table_detector.forget()
                self._readers = None
        return forgot

    def status(self) -> dict[str, Any]:
        """What was learnt, for the tablet's calibration panel (JSON-ready)."""
        return {
            "learnt": None if self.profile is None else self.profile.profile.dice,
            "saved": self.profile_path.exists(),
            "own_model": self.table_model.status() if self.table_model is not None else None,
            "detector": self.table_detector.status() if self.table_detector is not None else None,
            "empty": self.reference.status(),
        }

    def close(self) -> None:
        for job in (self.table_model, self.table_detector):
            if job is not None:
                try:
                    job.close()
                except Exception:
                    log.exception("closing %s failed", job)


def _dice_of(reading: Any, faces: list[Any]) -> list[Any]:
    """The confirmed dice of a reading as labels: face, centre, side (the box's larger side)."""
    from companion.vision.evaluate import LabelledDie

    return [LabelledDie(face, (float(d.center[0]), float(d.center[1])),
                        float(max(d.box[2] - d.box[0], d.box[3] - d.box[1])))
            for d, face in zip(reading.dice, faces, strict=True)]
