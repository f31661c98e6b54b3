"""Health readings over a fake /sys and /proc tree, and gracefully absent ones."""

from __future__ import annotations

import json
from pathlib import Path

from companion.hardware import health
from companion.hardware.health import HealthProbe


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def fake_pi(root: Path) -> None:
    write(root, "sys/class/thermal/thermal_zone0/type", "acpitz\n")
    write(root, "sys/class/thermal/thermal_zone0/temp", "30000\n")
    write(root, "sys/class/thermal/thermal_zone1/type", "cpu-thermal\n")
    write(root, "sys/class/thermal/thermal_zone1/temp", "81234\n")
    write(root, "sys/class/hwmon/hwmon0/name", "rpi_volt\n")
    write(root, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "1\n")
    write(root, "proc/uptime", "12345.67 40000.00\n")
    write(root, "proc/self/status", "Name:\tcompanion\nVmRSS:\t   51200 kB\nThreads:\t4\n")


def test_readings_from_a_fake_pi(tmp_path: Path) -> None:
    root = tmp_path / "root"
    fake_pi(root)
    journal = tmp_path / "companion.sqlite3"
    journal.write_bytes(b"x" * 4096)
    (tmp_path / "companion.sqlite3-wal").write_bytes(b"x" * 1000)
    now = [50.0]
    probe = HealthProbe(data_dir=tmp_path, journal=journal, clock=lambda: now[0], root=root)
    now[0] = 80.0
    reading = probe.read()
    assert reading.cpu_temperature_c == 81.234  # the CPU zone, not zone0
    assert reading.under_voltage is True
    assert reading.system_uptime_s == 12345.67
    assert reading.memory_rss_bytes == 51200 * 1024
    assert reading.journal_bytes == 5096
    assert reading.process_uptime_s == 30.0
    assert reading.disk_free_bytes is not None and reading.disk_free_bytes > 0
    warnings = reading.warnings()
    assert any("CPU at 81 C" in w for w in warnings) and any("Under-voltage" in w for w in warnings)
    assert json.loads(json.dumps(reading.as_dict()))["warnings"] == warnings


def test_everything_missing_reads_as_none(tmp_path: Path) -> None:
    probe = HealthProbe(data_dir=tmp_path / "gone", journal=tmp_path / "none.sqlite3", root=tmp_path / "empty")
    reading = probe.read()
    assert reading.cpu_temperature_c is None
    assert reading.under_voltage is None
    assert reading.system_uptime_s is None
    assert reading.memory_rss_bytes is None
    assert reading.journal_bytes is None
    assert reading.disk_free_bytes is None
    assert reading.process_uptime_s is not None
    assert reading.warnings() == []


def test_garbage_in_kernel_files_reads_as_none(tmp_path: Path) -> None:
    write(tmp_path, "sys/class/thermal/thermal_zone0/temp", "hot\n")
    write(tmp_path, "proc/uptime", "\n")
    write(tmp_path, "proc/self/status", "VmRSS: lots kB\n")
    assert health.cpu_temperature_c(tmp_path) is None
    assert health.system_uptime_s(tmp_path) is None
    assert health.memory_rss_bytes(tmp_path) is None


def test_low_disk_is_a_warning() -> None:
    reading = health.HealthReading(45.0, False, 10 * 1024 * 1024, 0, 1.0, 1.0, 1)
    assert reading.warnings() == ["Only 10 MB free on the SD card"]


def test_on_this_machine_it_does_not_raise(tmp_path: Path) -> None:
    reading = HealthProbe(data_dir=tmp_path).read()
    assert reading.disk_free_bytes is not None  # tmp_path exists on every machine


def test_how_well_the_dice_are_read_here_is_a_health_reading(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import main

    assert HealthProbe(data_dir=tmp_path).read().dice_read_right is None  # not taught yet
    held = {"dice": 50, "right": 45, "missed": 3, "extra": 1}
    (tmp_path / "dice_teaching.json").write_text(json.dumps({"kept": True, "shipped": held,
                                                             "adapted": {**held, "right": 49}}))
    reading = HealthProbe(data_dir=tmp_path).read()
    assert reading.dice_read_right == [49, 50]  # the kept detector's reading
    assert not any("dice reader" in w for w in reading.warnings())
    (tmp_path / "dice_teaching.json").write_text(json.dumps({"kept": False, "shipped": held}))
    assert main(["hardware", "health", "--data", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice_read_right"] == [45, 50]
    assert "The dice reader reads 45 of 50 dice right here" in " ".join(out["warnings"])
    faces = {"kept": True, "depth": 3, "reading": {**held, "right": 50}}  # the faces told by their marks kept
    (tmp_path / "dice_teaching.json").write_text(json.dumps({"kept": False, "shipped": held, "faces": faces}))
    assert HealthProbe(data_dir=tmp_path).read().dice_read_right == [50, 50]  # the reader the table reads with
    (tmp_path / "dice_teaching.json").write_text(json.dumps({"kept": False, "shipped": held,
                                                             "faces": {**faces, "kept": False}}))
    assert HealthProbe(data_dir=tmp_path).read().dice_read_right == [45, 50]
    (tmp_path / "dice_teaching.json").write_text("{not json")
    assert HealthProbe(data_dir=tmp_path).read().dice_read_right is None
