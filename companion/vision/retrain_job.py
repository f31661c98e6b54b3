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
import shutil
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.vision.reader import DiceReader, default_reader

log = logging.getLogger(__name__)

RETRAIN_EVERY = 100  # dice confirmed between two tries (a try takes minutes of one core at the lowest priority)


def can_retrain() -> bool:
    """torch and onnx are installed (the ``train`` extra), without importing them here."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "onnx"))


def retrain_command(profile: Path, out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "companion", "dice", "retrain", "--profile", str(profile), "--out", str(out),
           "--json"]
    nice = shutil.which("nice")
    return [nice, "-n", "19", *cmd] if nice else cmd


class TableModel:
    """The model file beside the table's profile; ``reader()`` is the reader to read with."""

    def __init__(self, path: Path | str, *, enabled: bool | None = None,
                 command: Callable[[Path, Path], list[str]] = retrain_command, every: int = RETRAIN_EVERY,
                 on_change: Callable[[], None] | None = None) -> None:
        self.path = Path(path)
        self.on_change = on_change  # told when a retraining starts and ends (the tablet shows it)
        self.enabled = can_retrain() if enabled is None else enabled
        self.command = command
        self.every = every
        self.grown = 0  # dice learnt since the last try (or since the daemon started)
        self.last_verdict: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._job: subprocess.Popen[bytes] | None = None
        self._watch: threading.Thread | None = None
        self._generation = 0
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
            try:
                self._job = subprocess.Popen(self.command(Path(profile_path), self.pending),
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            except OSError as exc:
                log.warning("cannot start retraining the dice network: %s", exc)
                return False
            generation = self._generation
            self._watch = threading.Thread(target=self._finish, args=(self._job, generation),
                                           name="dice-retrain", daemon=True)
            self._watch.start()
        self._changed()
        return True

    def wait(self, timeout: float | None = None) -> None:
        """Until a running retraining has finished (for tests and shutdown)."""
        watch = self._watch
        if watch is not None:
            watch.join(timeout)

    def _finish(self, job: subprocess.Popen[bytes], generation: int) -> None:
        out, err = job.communicate()
        with self._lock:
            self._job = None
            try:
                self.last_verdict = json.loads(out.decode() or "null")
            except ValueError:
                self.last_verdict = None
            kept = job.returncode == 0 and generation == self._generation
            if kept:
                self.pending.with_suffix(".json").replace(self.path.with_suffix(".json"))
                self.pending.replace(self.path)
            else:
                if job.returncode not in (0, 1) and generation == self._generation:
                    log.warning("retraining the dice network failed (%s): %s", job.returncode,
                                err.decode(errors="replace")[-500:])
                self._drop_pending()
        if kept:
            log.info("the table's dice network is retrained: %s", (self.last_verdict or {}).get("reason"))
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # the tablet's view is a nicety
                log.exception("telling the table about the retraining failed")

    def forget(self) -> None:
        """A new dice set: the model learnt from the old one goes, and a running job's result with it."""
        with self._lock:
            self._generation += 1
            self.grown = 0
            self.last_verdict = None
            if self._job is not None:
                self._job.kill()
            self._drop_pending()
            self.path.unlink(missing_ok=True)
            self.path.with_suffix(".json").unlink(missing_ok=True)
            self._loaded = None

    def close(self) -> None:
        """The daemon stops: a running retraining stops with it (its result would not be moved in)."""
        with self._lock:
            if self._job is not None:
                self._job.kill()

    def status(self) -> dict[str, Any]:
        return {"own_model": self.path.exists(), "retraining": self._job is not None, "can_retrain": self.enabled,
                "learnt_since": self.grown}

    def _drop_pending(self) -> None:
        for p in (self.pending, self.pending.with_suffix(".json"), self.pending.with_name(self.pending.name + ".tmp"),
                  self.pending.with_name(self.pending.stem + ".json.tmp")):
            p.unlink(missing_ok=True)
