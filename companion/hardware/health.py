"""System health readings for the tablet's health view: is the Pi too hot, short of power or disk?

Every reading returns ``None`` where the machine cannot tell (not a Pi, no such file, no permission)
rather than raising: a health page that crashes on a laptop is worse than one showing "n/a".
Readings come straight from the kernel's files, which is also where gpiozero's ``CPUTemperature``
reads; ``root`` lets tests point them at a fake tree.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# Thresholds for warnings(): the Pi 4/5 firmware starts throttling the CPU at 80 C (85 C hard limit).
HOT_C = 80.0
LOW_DISK_BYTES = 200 * 1024 * 1024
DICE_LOW = 0.98  # the dice reader's share right on the table's held-back rolls below which it warns


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def cpu_temperature_c(root: Path = Path("/")) -> float | None:
    """The SoC temperature in Celsius from ``/sys/class/thermal`` (the CPU zone if one is named so)."""
    zones = sorted((root / "sys/class/thermal").glob("thermal_zone*"))
    zones.sort(key=lambda zone: "cpu" not in (_read(zone / "type") or ""))
    for zone in zones:
        text = _read(zone / "temp")
        try:
            return int(text) / 1000.0 if text is not None else None
        except ValueError:
            continue
    return None


def under_voltage(root: Path = Path("/")) -> bool | None:
    """Whether the Pi's firmware has seen the supply sag below 4.63 V (the ``rpi_volt`` hwmon alarm).

    A weak power supply is the commonest cause of a Pi that reboots or corrupts its SD card.
    """
    for hwmon in sorted((root / "sys/class/hwmon").glob("hwmon*")):
        if _read(hwmon / "name") == "rpi_volt":
            alarm = _read(hwmon / "in0_lcrit_alarm")
            return None if alarm is None else alarm == "1"
    return None


def disk_free_bytes(path: str | os.PathLike[str]) -> int | None:
    """Bytes free for an unprivileged user on the file system holding ``path``."""
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return None


def journal_bytes(journal: str | os.PathLike[str]) -> int | None:
    """The journal's size on disk, counting SQLite's ``-wal`` and ``-shm`` side files."""
    base = Path(journal)
    sizes = []
    for path in (base, base.with_name(base.name + "-wal"), base.with_name(base.name + "-shm")):
        try:
            sizes.append(path.stat().st_size)
        except OSError:
            continue
    return sum(sizes) if sizes else None


def system_uptime_s(root: Path = Path("/")) -> float | None:
    """Seconds since the Pi booted, from ``/proc/uptime``."""
    text = _read(root / "proc/uptime")
    try:
        return float(text.split()[0]) if text else None
    except (ValueError, IndexError):
        return None


def memory_rss_bytes(root: Path = Path("/"), pid: str = "self") -> int | None:
    """This process's resident memory, from ``VmRSS`` in ``/proc/<pid>/status``."""
    text = _read(root / "proc" / pid / "status")
    for line in (text or "").splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            try:
                return int(parts[1]) * 1024 if len(parts) >= 2 else None
            except ValueError:
                return None
    return None


def dice_read_right(data_dir: Path) -> list[int] | None:
    """[right, dice] of the table's last teaching of the dice (``DATA/dice_teaching.json``): the held-back
    rolls read as the table reads now, with the detector and the faces' depth that teaching kept
    (``detector_job.taught_reading``)."""
    from companion.vision.detector_job import VERDICT_FILE, taught_reading

    try:
        verdict = json.loads((data_dir / VERDICT_FILE).read_text())
        reading = taught_reading(verdict)
        return None if reading is None else [int(reading["right"]), int(reading["dice"])]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


@dataclass(frozen=True)
class HealthReading:
    """One snapshot; ``None`` means "cannot tell here". ``as_dict()`` is JSON-ready."""

    cpu_temperature_c: float | None
    under_voltage: bool | None
    disk_free_bytes: int | None
    journal_bytes: int | None
    system_uptime_s: float | None
    process_uptime_s: float | None
    memory_rss_bytes: int | None
    # [right, dice]: how the dice reader read the newest confirmed rolls of "Teach the dice", which its
    # teaching held back (companion/vision/teach_detector.py); None before any
    dice_read_right: list[int] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "warnings": self.warnings()}

    def warnings(self) -> list[str]:
        """What a player should act on, in words for the health page."""
        found = []
        if self.cpu_temperature_c is not None and self.cpu_temperature_c >= HOT_C:
            found.append(f"CPU at {self.cpu_temperature_c:.0f} C: the Pi slows down; give it air or a heatsink")
        if self.under_voltage:
            found.append("Under-voltage: use the official power supply")
        if self.disk_free_bytes is not None and self.disk_free_bytes < LOW_DISK_BYTES:
            found.append(f"Only {self.disk_free_bytes // (1024 * 1024)} MB free on the SD card")
        if self.dice_read_right is not None and self.dice_read_right[0] < DICE_LOW * self.dice_read_right[1]:
            right, dice = self.dice_read_right
            found.append(f"The dice reader reads {right} of {dice} dice right here: teach the dice again, with more "
                         "light or the camera higher")
        return found


class HealthProbe:
    """Takes readings for one running companion: its data folder, its journal, its start time."""

    def __init__(
        self,
        *,
        data_dir: str | os.PathLike[str] = ".",
        journal: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        started_at: float | None = None,
        root: str | os.PathLike[str] = "/",
    ) -> None:
        self.data_dir = Path(data_dir)
        self.journal = Path(journal) if journal is not None else None
        self._clock = clock
        self.started_at = clock() if started_at is None else started_at
        self.root = Path(root)

    def read(self) -> HealthReading:
        return HealthReading(
            cpu_temperature_c=cpu_temperature_c(self.root),
            under_voltage=under_voltage(self.root),
            disk_free_bytes=disk_free_bytes(self.data_dir),
            journal_bytes=journal_bytes(self.journal) if self.journal is not None else None,
            system_uptime_s=system_uptime_s(self.root),
            process_uptime_s=max(0.0, self._clock() - self.started_at),
            memory_rss_bytes=memory_rss_bytes(self.root),
            dice_read_right=dice_read_right(self.data_dir),
        )
