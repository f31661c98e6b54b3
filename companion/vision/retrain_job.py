"""The table's own network: which reader the daemon uses, and the background job that retrains it.

Once the table has confirmed ``RETRAIN_EVERY`` more dice since the last try, the daemon runs
``companion dice retrain`` in a child process at the lowest priority (``retrain_network.py`` says what it does
and when it keeps the result). torch loads only there, never in the daemon. The job writes beside
the final file; the daemon moves its result into place only if the table has not forgotten its dice
meanwhile, and the reader picks the new model up on its next read. A model whose metadata does not
match its weights (a power cut between the two files' moves) is not used: the shipped one reads.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.vision.background_job import BackgroundJob, lowest_priority
from companion.vision.reader import DiceReader, default_reader

log = logging.getLogger(__name__)

RETRAIN_EVERY = 100  # dice confirmed between two tries (a try takes minutes of one core at the lowest priority)


def can_retrain() -> bool:
    """torch and onnx are installed (the ``train`` extra), without importing them here."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "onnx"))


def retrain_command(profile: Path, out: Path) -> list[str]:
    return lowest_priority([sys.executable, "-m", "companion", "dice", "retrain", "--profile", str(profile),
                            "--out", str(out), "--json"])


class TableModel(BackgroundJob):
    """The model file beside the table's profile; ``reader()`` is the reader to read with."""

    what = "retraining the dice network"
    thread_name = "dice-retrain"

    def __init__(self, path: Path | str, *, enabled: bool | None = None,
                 command: Callable[[Path, Path], list[str]] = retrain_command, every: int = RETRAIN_EVERY,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(on_change)
        self.path = Path(path)
        self.enabled = can_retrain() if enabled is None else enabled
        self.command = command
        self.every = every
        self.grown = 0  # dice learnt since the last try (or since the daemon started)
        self.last_verdict: dict[str, Any] | None = None
        self._loaded: tuple[float, DiceReader] | None = None

    @property
    def pending(self) -> Path:
        return self.path.with_name(self.path.stem + ".next" + self.path.suffix)

    def reader(self) -> DiceReader:
        """The table's model when retraining is on and there is a sound one, else the shipped model."""
        if not self.enabled:
            return default_reader()
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            return default_reader()
        loaded = self._loaded
        if loaded is not None and loaded[0] == mtime:
            return loaded[1]
        try:
            meta = json.loads(self.path.with_suffix(".json").read_text())
            if zlib.crc32(self.path.read_bytes()) != meta["retrained"]["crc32"]:
                raise ValueError("its metadata belongs to other weights")
            reader = DiceReader(self.path, detector=default_reader().detector)  # the same die finder
        except Exception as exc:  # never a reason to stop reading: the shipped model reads instead
            log.warning("the table's model %s is not used: %s", self.path, exc)
            reader = default_reader()
        self._loaded = (mtime, reader)
        return reader

    def learnt(self, profile_path: Path | str, dice: int) -> bool:
        """``dice`` more were learnt into the profile; start a retraining when enough have been since the
        last try. True if one was started."""
        with self._lock:
            self.grown += dice
            if not self.enabled or self._job is not None or self.grown < self.every:
                return False
            self.grown = 0
            self.pending.unlink(missing_ok=True)
            if not self._launch(self.command(Path(profile_path), self.pending)):
                return False
        self._changed()
        return True

    def _finished(self, returncode: int, out: bytes, err: bytes, current: bool) -> None:
        try:
            self.last_verdict = json.loads(out.decode() or "null")
        except ValueError:
            self.last_verdict = None
        if returncode == 0 and current:
            self.pending.with_suffix(".json").replace(self.path.with_suffix(".json"))
            self.pending.replace(self.path)
            log.info("the table's dice network is retrained: %s", (self.last_verdict or {}).get("reason"))
            return
        if current:
            self._failed(returncode, err)
        self._drop_pending()

    def forget(self) -> None:
        """A new dice set: the model learnt from the old one goes, and a running job's result with it."""
        with self._lock:
            self._next_generation()
            self.grown = 0
            self.last_verdict = None
            self._drop_pending()
            self.path.unlink(missing_ok=True)
            self.path.with_suffix(".json").unlink(missing_ok=True)
            self._loaded = None

    def status(self) -> dict[str, Any]:
        return {"own_model": self.path.exists(), "retraining": self._job is not None, "can_retrain": self.enabled,
                "learnt_since": self.grown}

    def _drop_pending(self) -> None:
        for p in (self.pending, self.pending.with_suffix(".json"), self.pending.with_name(self.pending.name + ".tmp"),
                  self.pending.with_name(self.pending.stem + ".json.tmp")):
            p.unlink(missing_ok=True)
