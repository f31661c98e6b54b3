"""The pin map: defaults, validation messages, warnings for shared pins."""

from __future__ import annotations

import pytest

from companion.hardware import HardwareConfigError
from companion.hardware.pins import PinMap, PinMapError, check_pins

DEFAULT = {
    "confirm": 17,
    "undo": 27,
    "next": 22,
    "reread": 23,
    "led_ready": 5,
    "led_reading": 6,
    "led_error": 13,
    "buzzer": 26,
}


def test_default_mapping_round_trips_to_the_dataclass_defaults() -> None:
    assert PinMap.from_mapping(DEFAULT) == PinMap()
    assert PinMap().warnings() == []


def test_optional_outputs_and_players() -> None:
    pins = PinMap.from_mapping(
        {"confirm": 17, "undo": 27, "next": 22, "reread": 23, "players": {"red": 16, "blue": 20}}
    )
    assert pins.led_ready is None and pins.buzzer is None and pins.outputs() == {}
    assert pins.buttons() == {"confirm": 17, "undo": 27, "next": 22, "reread": 23, "player.red": 16, "player.blue": 20}


def test_every_problem_is_listed_at_once() -> None:
    with pytest.raises(PinMapError) as info:
        PinMap.from_mapping(
            {"confirm": 1, "undo": 40, "next": "22", "led_ready": True, "buzer": 26, "players": {"Red Team": 16}}
        )
    errors = info.value.errors
    assert any("confirm: GPIO1 is reserved" in e for e in errors)
    assert any("undo: GPIO40 is not on the 40-pin header" in e for e in errors)
    assert any("next: expected a BCM GPIO number, got '22'" in e for e in errors)
    assert any("reread: missing" in e for e in errors)
    assert any("led_ready: expected a BCM GPIO number, got True" in e for e in errors)
    assert any("unknown key 'buzer'" in e for e in errors)
    assert any("players.Red Team" in e for e in errors)
    assert len(errors) == 7
    assert isinstance(info.value, HardwareConfigError) and isinstance(info.value, ValueError)
    assert str(info.value).startswith("[pins] ")


def test_a_pin_used_twice_names_both_roles() -> None:
    with pytest.raises(PinMapError) as info:
        PinMap.from_mapping({**DEFAULT, "led_error": 17, "players": {"red": 22}})
    assert sorted(info.value.errors) == [
        "GPIO17 is used twice: confirm and led_error",
        "GPIO22 is used twice: next and player.red",
    ]


def test_shared_interface_pins_are_warned_about_not_refused() -> None:
    check = check_pins({**DEFAULT, "confirm": 2, "buzzer": 14})
    assert check.ok and check.pins is not None and check.pins.confirm == 2
    assert len(check.warnings) == 2
    assert "I2C1 SDA" in check.warnings[0] and "UART TXD" in check.warnings[1]


def test_check_pins_reports_errors_without_raising_and_defaults_when_absent() -> None:
    assert check_pins(None).pins == PinMap()
    bad = check_pins({"confirm": 17})
    assert not bad.ok and bad.pins is None and len(bad.errors) == 3


def test_pin_table_gives_header_pins() -> None:
    rows = PinMap().as_table()
    assert rows[0] == ("confirm", 17, 11)
    assert ("buzzer", 26, 37) in rows
    assert len(rows) == 8
