"""``companion hardware pins|test-buttons|test-lights|health``: check the wiring from a shell on the Pi."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.hardware import HardwareConfigError

DEFAULT_CONFIG = Path("/etc/companion/companion.toml")
DEFAULT_SEQUENCE = "confirm,undo:long,next:bounce,reread:noisy,reread,player.red"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    hw = sub.add_parser("hardware", help="pin table, button and light tests, health readings")
    hsub = hw.add_subparsers(dest="hardware_command", required=True)

    pins = hsub.add_parser("pins", help="print the pin table of the config and check it")
    _config_arg(pins)
    pins.set_defaults(func=_pins)

    buttons = hsub.add_parser("test-buttons", help="print button events: real presses, or a simulated sequence")
    _config_arg(buttons)
    buttons.add_argument("--mock", action="store_true", help="simulate presses on gpiozero's MockFactory")
    buttons.add_argument(
        "--sequence",
        default=DEFAULT_SEQUENCE,
        help="with --mock: comma-separated NAME[:long|:bounce|:noisy] (default: %(default)s)",
    )
    buttons.add_argument("--seconds", type=float, default=30.0, help="without --mock: how long to listen")
    buttons.add_argument("--json", action="store_true", help="one JSON object per event")
    buttons.set_defaults(func=_test_buttons)

    lights = hsub.add_parser("test-lights", help="show ready, reading, error in turn and beep")
    _config_arg(lights)
    lights.add_argument("--mock", action="store_true", help="on MockFactory, printing the pin levels")
    lights.add_argument("--step", type=float, default=1.0, help="seconds per light (default: %(default)s)")
    lights.set_defaults(func=_test_lights)

    health = hsub.add_parser("health", help="print the health readings as JSON")
    health.add_argument("--data", default="data", help="the data folder (default: %(default)s)")
    health.add_argument("--journal", help="the journal file (default: DATA/companion.sqlite3)")
    health.set_defaults(func=_health)


def _config_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", help=f"companion.toml (default: {DEFAULT_CONFIG} if present, else the built-in pin map)"
    )


def _tables(path: str | None) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The [pins] and [buttons] tables of the config, and where they came from."""
    chosen = Path(path) if path else (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    if chosen is None:
        return {}, {}, "built-in defaults"
    with open(chosen, "rb") as handle:
        data = tomllib.load(handle)
    return dict(data.get("pins", {})), dict(data.get("buttons", {})), str(chosen)


def _load(args: argparse.Namespace) -> tuple[Any, Any, str]:
    from companion.hardware.debounce import ButtonTiming
    from companion.hardware.pins import PinMap

    pins_table, buttons_table, source = _tables(args.config)
    pins = PinMap.from_mapping(pins_table) if pins_table else PinMap()
    return pins, ButtonTiming.from_mapping(buttons_table), source


def _fail(exc: Exception) -> int:
    from companion.config import not_allowed

    if isinstance(exc, PermissionError):
        errors: Sequence[str] = (not_allowed(exc.filename or "a file"),)
    else:
        errors = exc.errors if isinstance(exc, HardwareConfigError) else (str(exc),)
    section = f"[{exc.section}] " if isinstance(exc, HardwareConfigError) and exc.section else ""
    for message in errors:
        print(f"error: {section}{message}", file=sys.stderr)
    return 2


def _pins(args: argparse.Namespace) -> int:
    try:
        pins, timing, source = _load(args)
    except (HardwareConfigError, OSError, tomllib.TOMLDecodeError) as exc:
        return _fail(exc)
    print(f"pin map from {source}")
    print(f"{'role':<16} {'BCM':>6} {'header pin':>11}  wire to")
    for role, bcm, header in pins.as_table():
        wire = "GND (internal pull-up)" if not role.startswith(("led_", "buzzer")) else "resistor/driver to GND"
        print(f"{role:<16} {'GPIO' + str(bcm):>6} {header:>11}  {wire}")
    for warning in pins.warnings():
        print(f"warning: {warning}")
    settings = ", ".join(f"{key} = {value}" for key, value in timing.as_mapping().items())
    print(f"buttons: {settings}")
    return 0


def _test_buttons(args: argparse.Namespace) -> int:
    from companion.hardware.buttons import ButtonPanel, default_pin_factory
    from companion.hardware.debounce import ButtonEvent, NoisyPin

    try:
        pins, timing, _ = _load(args)
    except (HardwareConfigError, OSError, tomllib.TOMLDecodeError) as exc:
        return _fail(exc)
    if args.mock and "player.red" in args.sequence and "red" not in pins.players:
        pins = _with_player(pins, "red")
    clock = _ManualClock() if args.mock else None
    start = clock() if clock else 0.0

    def show(event: ButtonEvent | NoisyPin) -> None:
        at = event.at - start if clock else event.at
        if args.json:
            print(json.dumps({"type": type(event).__name__, **event.__dict__, "at": round(at, 3)}), flush=True)
        elif isinstance(event, ButtonEvent):
            print(f"{at:9.3f} s  {event.device:<22} {event.kind}", flush=True)
        else:
            print(f"{at:9.3f} s  {event.device:<22} {'NOISY: ignored' if event.noisy else 'calm again'}", flush=True)

    factory = default_pin_factory(args.mock)
    kwargs: dict[str, Any] = {"clock": clock, "autotick": False} if clock else {}
    try:
        panel = ButtonPanel(pins, on_event=show, on_noise=show, pin_factory=factory, timing=timing, **kwargs)
    except Exception as exc:  # gpiozero's errors: no GPIO here, pin busy, no permission
        print(f"error: cannot open the buttons: {exc}", file=sys.stderr)
        print("hint: off the Pi use --mock; on the Pi, is the user in the 'gpio' group?", file=sys.stderr)
        return 1
    with panel:
        if clock is None:
            print(f"press the buttons ({', '.join(panel.names)}); listening for {args.seconds:g} s", flush=True)
            threading.Event().wait(args.seconds)
            return 0
        for token in filter(None, (t.strip() for t in args.sequence.split(","))):
            name, _, how = token.partition(":")
            if name not in panel.names:
                print(f"error: no button {name!r} (have: {', '.join(panel.names)})", file=sys.stderr)
                return 2
            _simulate(panel, factory, clock, name, how, pins)
            clock.advance(0.5)
            panel.tick()
    return 0


def _simulate(panel: Any, factory: Any, clock: _ManualClock, name: str, how: str, pins: Any) -> None:
    """One scripted gesture on a mock pin, with the clock moved by hand."""
    timing = panel.timing
    if how not in ("long", "bounce", "noisy"):
        panel.press(name)
        return
    pin = factory.pin(pins.buttons()[name])
    if how == "long":  # held past the threshold: "long" comes while still held, nothing on release
        pin.drive_low()
        clock.advance(timing.long_press + 0.2)
        panel.tick()
        pin.drive_high()
        clock.advance(timing.debounce)
        panel.tick()
        return
    edges, gap = (6, 0.002) if how == "bounce" else (timing.noisy_edges + 2, 0.005)
    for i in range(edges):
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
        clock.advance(gap)
    if how == "bounce":
        pin.drive_low()
        clock.advance(0.15)
        pin.drive_high()
    clock.advance(timing.debounce)
    panel.tick()
    if how == "noisy":
        clock.advance(timing.calm)
        panel.tick()


def _with_player(pins: Any, name: str) -> Any:
    """The demo sequence presses a player button; borrow a free pin for it on the mock."""
    from dataclasses import replace

    used = {bcm for _, bcm in pins.assignments()}
    free = next(bcm for bcm in (16, 20, 21, 12, 4, 18, 19, 24, 25) if bcm not in used)
    return replace(pins, players={**pins.players, name: free})


class _ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _test_lights(args: argparse.Namespace) -> int:
    from companion.hardware.buttons import default_pin_factory
    from companion.hardware.leds import StatusLights

    try:
        pins, _, _ = _load(args)
    except (HardwareConfigError, OSError, tomllib.TOMLDecodeError) as exc:
        return _fail(exc)
    try:
        lights = StatusLights(pins, pin_factory=default_pin_factory(args.mock))
    except Exception as exc:
        print(f"error: cannot open the lights: {exc}", file=sys.stderr)
        return 1
    pause = threading.Event()
    with lights:
        for show in (lights.show_ready, lights.show_reading, lights.show_error):
            show()
            print(f"{lights.status:<8} lit: {', '.join(k for k, v in lights.lit.items() if v) or 'none'}", flush=True)
            pause.wait(0 if args.mock else args.step)
        lights.beep(seconds=0.01 if args.mock else 0.1, times=2, wait=True)
        print("beep" if pins.buzzer is not None else "no buzzer in the pin map", flush=True)
    return 0


def _health(args: argparse.Namespace) -> int:
    from companion.hardware.health import HealthProbe

    journal = args.journal or str(Path(args.data) / "companion.sqlite3")
    try:
        reading = HealthProbe(data_dir=args.data, journal=journal).read()
    except OSError as exc:
        return _fail(exc)
    print(json.dumps(reading.as_dict(), indent=2))
    return 0
