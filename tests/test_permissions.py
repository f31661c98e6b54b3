"""A login user who may not read the installed config (root:companion 0640) gets one line that says
what to do, never a traceback: ``check-config``, ``hardware pins`` and ``hardware health``."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped config that this process may not open (the tests may run as root, for whom
    file modes do not apply, so the refusal is the operating system's answer, played back)."""
    path = tmp_path / "companion.toml"
    path.write_bytes((REPO / "firmware_config/companion.toml").read_bytes())
    real_open = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    return path


def one_line_hint(text: str, path: Path | str) -> None:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert str(path) in lines[0] and "permission denied" in lines[0]
    assert "usermod -a -G companion" in lines[0] and "Traceback" not in text


def test_check_config_says_how_to_get_read_access(unreadable: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "--config", str(unreadable)]) == 1
    one_line_hint(capsys.readouterr().out, unreadable)


def test_hardware_pins_says_how_to_get_read_access(unreadable: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "pins", "--config", str(unreadable)]) == 2
    one_line_hint(capsys.readouterr().err, unreadable)


def test_hardware_health_says_how_to_get_read_access(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.hardware import health

    journal = "/var/lib/companion/companion.sqlite3"

    def refused(self: Any) -> Any:
        raise PermissionError(13, "Permission denied", journal)

    monkeypatch.setattr(health.HealthProbe, "read", refused)
    assert main(["hardware", "health", "--data", str(tmp_path)]) == 2
    one_line_hint(capsys.readouterr().err, journal)


def test_a_readable_config_still_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "--config", str(REPO / "firmware_config/companion.toml")]) == 0
    assert "permission" not in capsys.readouterr().out
