"""``companion hardware ...`` through the real command-line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main


def test_pins_prints_the_table_of_a_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[pins]\nconfirm = 17\nundo = 27\nnext = 22\nreread = 2\n[pins.players]\nred = 16\n")
    assert main(["hardware", "pins", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "confirm          GPIO17          11" in out
    assert "player.red       GPIO16          36" in out
    assert "warning: reread: GPIO2 is also I2C1 SDA" in out
    assert "debounce_ms = 30" in out


def test_pins_lists_every_error_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[pins]\nconfirm = 17\nundo = 17\nnext = 22\nreread = 99\n[buttons]\ndebounce_ms = 0\n")
    assert main(["hardware", "pins", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "error: [pins] reread: GPIO99 is not on the 40-pin header" in err


def test_mock_button_sequence_prints_each_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test-buttons", "--mock", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = [(e["device"], e.get("kind", e.get("noisy"))) for e in events]
    assert summary == [
        ("button:confirm", "press"),
        ("button:undo", "long"),
        ("button:next", "press"),  # six bounce edges, then one press
        ("button:reread", True),  # noisy: the chatter is not obeyed
        ("button:reread", False),
        ("button:reread", "press"),
        ("button:player.red", "press"),
    ]


def test_mock_button_unknown_name_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test-buttons", "--mock", "--sequence", "confirm,jump"]) == 2
    assert "no button 'jump'" in capsys.readouterr().err


def test_mock_lights(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test-lights", "--mock"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ready    lit: ready",
        "reading  lit: reading",
        "error    lit: error",
        "beep",
    ]


def test_health_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "companion.sqlite3").write_bytes(b"\0" * 100)
    assert main(["hardware", "health", "--data", str(tmp_path)]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["journal_bytes"] == 100
    assert set(reading) >= {"cpu_temperature_c", "disk_free_bytes", "memory_rss_bytes", "warnings"}
