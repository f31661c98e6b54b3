"""Status lights and buzzer: what the table sees at a glance, without looking at the tablet.

One light at a time: green *ready* (waiting for a roll or a press), amber *reading* (the camera is
reading the dice: hands off the tray), red *error* (something needs attention on the tablet). The
buzzer beeps on a long press or a reading that needs a confirm. Any output missing from the pin map
is simply not driven, so a table without a buzzer runs the same code.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Literal

from companion.hardware.pins import PinMap

Status = Literal["off", "ready", "reading", "error"]


class StatusLights:
    """Ready / reading / error LEDs and an optional buzzer, on gpiozero ``LED`` and ``Buzzer``."""

    def __init__(self, pins: PinMap, *, pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer

        self._leds: dict[Status, Any] = {}
        self._buzzer: Any = None
        self._status: Status = "off"
        self._cue_lock = threading.Lock()
        self._cues = 0  # counts cues: a newer one ends an older one's flashing
        try:
            fitted: tuple[tuple[Status, int | None], ...] = (
                ("ready", pins.led_ready),
                ("reading", pins.led_reading),
                ("error", pins.led_error),
            )
            for status, number in fitted:
                if number is not None:
                    self._leds[status] = LED(number, pin_factory=pin_factory)
            if pins.buzzer is not None:
                self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @property
    def status(self) -> Status:
        """What the lights show now; the mock panel on the web page draws this."""
        return self._status

    @property
    def lit(self) -> dict[str, bool]:
        """Which fitted LEDs are on, read back from the devices, e.g. ``{"ready": True, ...}``."""
        return {status: bool(led.is_lit) for status, led in self._leds.items()}

    def show_ready(self) -> None:
        """Green: the companion waits for the table (a roll, a press)."""
        self._show("ready")

    def show_reading(self) -> None:
        """Amber: the camera is reading; hands off the tray."""
        self._show("reading")

    def show_error(self) -> None:
        """Red: something needs attention on the tablet (an unreadable roll, a noisy button)."""
        self._show("error")

    def off(self) -> None:
        self._show("off")

    def beep(self, *, seconds: float = 0.08, times: int = 1, wait: bool = False) -> None:
        """Beep ``times`` times; returns at once unless ``wait`` (gpiozero runs it on its own thread)."""
        if self._buzzer is not None:
            self._buzzer.beep(on_time=seconds, off_time=seconds, n=times, background=not wait)

    def cue(self, ok: bool, *, sound: bool = True, light: bool = True) -> threading.Thread | None:
        """A button press the table took (one short beep, the lit LED winks once) or refused (two beeps,
        the red LED flashes twice); the lights then show what they showed before. Returns at once: the
        flashes run on a short thread of their own (returned; None when nothing flashes), and a newer cue
        ends an older one."""
        if sound:
            self.beep(seconds=0.05 if ok else 0.12, times=1 if ok else 2)
        led = self._leds.get(self._status if ok else "error")
        if not light or led is None:
            return None
        with self._cue_lock:
            self._cues += 1
            mine = self._cues
        times, seconds = (1, 0.1) if ok else (2, 0.15)

        def flash() -> None:
            try:
                wink()
            except Exception:  # the lights were closed mid-flash (the companion stopping): nothing to show
                return

        def wink() -> None:
            for _ in range(times):
                for lit in (not led.is_lit, led.is_lit):
                    if self._cues != mine or not self._leds:
                        return
                    led.value = lit
                    time.sleep(seconds)
            if self._cues == mine and self._leds:
                self._show(self._status)

        thread = threading.Thread(target=flash, name="led-cue", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Switch everything off and release the pins; safe to call twice."""
        for device in (*self._leds.values(), self._buzzer):
            if device is not None:
                device.close()
        self._leds.clear()
        self._buzzer = None
        self._status = "off"

    def __enter__(self) -> StatusLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _show(self, status: Status) -> None:
        # Every fitted LED is set each time, so a missing one never leaves a stale light on.
        for name, led in self._leds.items():
            led.value = name == status
        self._status = status
