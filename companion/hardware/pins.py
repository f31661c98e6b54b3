"""The pin map: which BCM GPIO drives which button, LED and buzzer, checked before anything starts.

``PinMap.from_mapping`` takes the ``[pins]`` table of ``companion.toml`` as parsed by ``tomllib``
and refuses it with every problem listed at once (a user fixing wiring wants the whole list, not
one error per restart). Pins that the Pi's own peripherals may want (I2C, UART, SPI) are allowed
but warned about, because a button there works until someone enables that interface.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.hardware import HardwareConfigError

REQUIRED_BUTTONS = ("confirm", "undo", "next", "reread")
LED_ROLES = ("led_ready", "led_reading", "led_error")
OUTPUT_ROLES = (*LED_ROLES, "buzzer")

# The 40-pin header exposes BCM 0-27. 0 and 1 are the HAT ID EEPROM bus (ID_SD/ID_SC): the firmware
# probes it at boot, so nothing of ours goes there.
FIRST_USABLE, LAST_USABLE = 2, 27
RESERVED = {0: "HAT ID EEPROM (ID_SD)", 1: "HAT ID EEPROM (ID_SC)"}
# Usable, but shared with an interface someone may switch on in raspi-config or config.txt.
# The Camera Module 3 uses the CSI/MIPI ribbon and its own I2C bus, no header pin (Pi 4 and Pi 5).
SHARED = {
    2: "I2C1 SDA (has a fixed 1.8 kOhm pull-up to 3.3 V)",
    3: "I2C1 SCL (has a fixed 1.8 kOhm pull-up to 3.3 V)",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART TXD (serial console)",
    15: "UART RXD (serial console)",
}
# BCM number -> physical header pin, for the pin table people wire by.
HEADER_PIN = {
    2: 3,
    3: 5,
    4: 7,
    5: 29,
    6: 31,
    7: 26,
    8: 24,
    9: 21,
    10: 19,
    11: 23,
    12: 32,
    13: 33,
    14: 8,
    15: 10,
    16: 36,
    17: 11,
    18: 12,
    19: 35,
    20: 38,
    21: 40,
    22: 15,
    23: 16,
    24: 18,
    25: 22,
    26: 37,
    27: 13,
}
PLAYER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")


class PinMapError(HardwareConfigError):
    """The ``[pins]`` table cannot be used as it is."""

    def __init__(self, errors: list[str] | tuple[str, ...]) -> None:
        super().__init__(errors, section="pins")


@dataclass(frozen=True)
class PinMap:
    """BCM GPIO numbers for every device; ``None`` means not fitted (its methods become no-ops)."""

    confirm: int = 17
    undo: int = 27
    next: int = 22
    reread: int = 23
    players: Mapping[str, int] = field(default_factory=dict)
    led_ready: int | None = 5
    led_reading: int | None = 6
    led_error: int | None = 13
    buzzer: int | None = 26

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PinMap:
        """Build from a ``[pins]`` table; raise :class:`PinMapError` listing every problem."""
        errors: list[str] = []
        if not isinstance(data, Mapping):
            raise PinMapError([f"expected a table of pin numbers, got {type(data).__name__}"])
        known = {*REQUIRED_BUTTONS, *OUTPUT_ROLES, "players"}
        errors += [f"unknown key {key!r} (known: {', '.join(sorted(known))})" for key in data if key not in known]
        values: dict[str, int | None] = {}
        for role in REQUIRED_BUTTONS:
            if role not in data:
                errors.append(f"{role}: missing; every table needs a {role} button")
            else:
                values[role] = _pin_number(role, data[role], errors)
        for role in OUTPUT_ROLES:
            values[role] = _pin_number(role, data[role], errors) if role in data else None
        players: dict[str, int] = {}
        raw_players = data.get("players", {})
        if not isinstance(raw_players, Mapping):
            errors.append("players: expected a table such as { red = 16, blue = 20 }")
        else:
            for name, value in raw_players.items():
                if not isinstance(name, str) or not PLAYER_NAME.match(name):
                    errors.append(f"players.{name}: name must be lower-case letters, digits, - or _")
                    continue
                number = _pin_number(f"players.{name}", value, errors)
                if number is not None:
                    players[name] = number
        if errors:
            raise PinMapError(errors)
        pins = cls(
            confirm=_required(values["confirm"]),
            undo=_required(values["undo"]),
            next=_required(values["next"]),
            reread=_required(values["reread"]),
            players=players,
            led_ready=values["led_ready"],
            led_reading=values["led_reading"],
            led_error=values["led_error"],
            buzzer=values["buzzer"],
        )
        duplicates = pins.duplicate_errors()
        if duplicates:
            raise PinMapError(duplicates)
        return pins

    def buttons(self) -> dict[str, int]:
        """Button name -> BCM pin; player buttons are named ``player.<name>``."""
        named = {role: getattr(self, role) for role in REQUIRED_BUTTONS}
        named.update({f"player.{name}": pin for name, pin in self.players.items()})
        return named

    def outputs(self) -> dict[str, int]:
        """Fitted outputs only: role -> BCM pin."""
        return {role: pin for role in OUTPUT_ROLES if (pin := getattr(self, role)) is not None}

    def assignments(self) -> Iterator[tuple[str, int]]:
        """Every (role, BCM pin) pair, buttons first, in wiring order."""
        yield from self.buttons().items()
        yield from self.outputs().items()

    def duplicate_errors(self) -> list[str]:
        """One message per GPIO claimed by more than one role."""
        claims: dict[int, list[str]] = {}
        for role, pin in self.assignments():
            claims.setdefault(pin, []).append(role)
        return [f"GPIO{pin} is used twice: {' and '.join(roles)}" for pin, roles in claims.items() if len(roles) > 1]

    def warnings(self) -> list[str]:
        """Pins that work but clash with an interface the Pi may have switched on."""
        return [
            f"{role}: GPIO{pin} is also {SHARED[pin]}; leave that interface off or move the {role} wire"
            for role, pin in self.assignments()
            if pin in SHARED
        ]

    def as_table(self) -> list[tuple[str, int, int]]:
        """Rows of (role, BCM GPIO, physical header pin) for docs and ``companion hardware pins``."""
        return [(role, pin, HEADER_PIN[pin]) for role, pin in self.assignments()]


def _pin_number(role: str, value: object, errors: list[str]) -> int | None:
    # bool is an int in Python; `confirm = true` is a typo, not GPIO1.
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(f"{role}: expected a BCM GPIO number, got {value!r}")
        return None
    if value in RESERVED:
        errors.append(f"{role}: GPIO{value} is reserved for the {RESERVED[value]}")
        return None
    if not FIRST_USABLE <= value <= LAST_USABLE:
        errors.append(f"{role}: GPIO{value} is not on the 40-pin header (use BCM {FIRST_USABLE}-{LAST_USABLE})")
        return None
    return value


def _required(value: int | None) -> int:
    assert value is not None  # from_mapping has returned early on every missing or invalid value
    return value


@dataclass(frozen=True)
class PinCheck:
    """What ``companion check-config`` reports for ``[pins]``: the map if usable, and messages."""

    pins: PinMap | None
    errors: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def check_pins(data: Mapping[str, Any] | None) -> PinCheck:
    """Validate a ``[pins]`` table without raising; a missing table means the default map."""
    try:
        pins = PinMap() if data is None else PinMap.from_mapping(data)
    except PinMapError as exc:
        return PinCheck(None, exc.errors, ())
    return PinCheck(pins, (), tuple(pins.warnings()))
