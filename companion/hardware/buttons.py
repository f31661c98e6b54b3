"""The button panel: arcade buttons on GPIO through gpiozero, debounced by our own classifier.

gpiozero's handlers run on its callback thread (on a mock pin, on the caller's thread). Ours do the
least possible there: stamp the edge with the clock, feed :class:`PressClassifier` under a lock and
pass whatever it settles to the sink. The game never runs in a handler; the daemon's ``on_event``
should put the event on its own queue and return.

A small ticker thread lets time pass for the classifier (a release only counts once it has settled,
a long press fires while still held); it sleeps until the classifier's next deadline, so an idle
panel costs nothing.

The same class drives real pins and gpiozero's ``MockFactory``: :meth:`ButtonPanel.press` pushes a
mock pin low then high, through the same handlers a finger would.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from companion.hardware.debounce import ButtonEvent, ButtonTiming, Event, NoisyPin, PressClassifier
from companion.hardware.pins import PinMap

log = logging.getLogger(__name__)


def default_pin_factory(mock: bool) -> Any:
    """``MockFactory()`` for mock mode, else ``None`` so gpiozero chooses the backend itself.

    gpiozero 2 tries lgpio first, which is the only backend that works on a Pi 5 (its GPIO sits
    behind the RP1 chip, so RPi.GPIO and pigpio cannot reach it); the ``pi`` extra installs lgpio.
    Set ``GPIOZERO_PIN_FACTORY=lgpio`` to insist on it.
    """
    if not mock:
        return None
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


class ButtonPanel:
    """The table's buttons: confirm, undo, next, reread and any per-player buttons of the pin map.

    Buttons are wired from the GPIO to GND and use the Pi's internal pull-ups. Events go to
    ``on_event`` (a press the game may act on) and ``on_noise`` (a pin went noisy or calmed down);
    both are called on gpiozero's callback thread or the ticker thread, so keep them short.
    """

    def __init__(
        self,
        pins: PinMap,
        *,
        on_event: Callable[[ButtonEvent], None],
        on_noise: Callable[[NoisyPin], None] | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        timing: ButtonTiming | None = None,
        device_prefix: str = "button",
        autotick: bool = True,
    ) -> None:
        from gpiozero import Button

        self.pins = pins
        self._on_event = on_event
        self._on_noise = on_noise
        self._clock = clock
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._closed = False
        self._edge_time: float | None = None  # set by press() so a simulated hold takes no real time
        self._classifier = PressClassifier(timing=timing, device_prefix=device_prefix, start=clock())
        self._buttons: dict[str, Any] = {}
        try:
            for name, number in pins.buttons().items():
                button = Button(number, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._buttons[name] = button
                self._classifier.add(name, pressed=bool(button.is_pressed), at=clock())
                button.when_pressed = partial(self._edge, name, True)
                button.when_released = partial(self._edge, name, False)
        except BaseException:
            self._close_buttons()
            raise
        self._ticker: threading.Thread | None = None
        if autotick:
            self._ticker = threading.Thread(target=self._run_ticker, name="button-ticker", daemon=True)
            self._ticker.start()

    @property
    def timing(self) -> ButtonTiming:
        return self._classifier.timing

    @property
    def names(self) -> tuple[str, ...]:
        """Button names in pin-map order, e.g. ``("confirm", "undo", "next", "reread", "player.red")``."""
        return tuple(self._buttons)

    @property
    def noisy(self) -> frozenset[str]:
        """Buttons not obeyed right now because their pin chatters (for the health page)."""
        with self._lock:
            return self._classifier.noisy

    def device(self, name: str) -> str:
        return self._classifier.device(name)

    def press(self, name: str, *, hold: float = 0.0) -> None:
        """Press and release a button on a mock pin, as a finger would; ``hold`` in seconds.

        The pin really goes low then high, so gpiozero calls the same handlers as for a real press.
        The hold takes no wall time: the two edges are stamped ``hold`` apart (at least two debounce
        windows, so a tap survives the debounce) and the release is settled before returning, so the
        event has reached ``on_event`` when this returns. Only for pins with ``drive_low`` (mock pins).
        The classifier's time runs ahead of the clock by the hold until the clock catches up; an
        edge arriving in that span is stamped at its end.
        """
        button = self._buttons[name]
        pin = button.pin
        if not hasattr(pin, "drive_low"):
            raise TypeError(f"{self.device(name)} is a real pin; press() needs gpiozero's MockFactory")
        timing = self._classifier.timing
        hold = max(hold, 2 * timing.debounce)
        with self._lock:
            start = max(self._clock(), self._classifier.now)
            try:
                self._edge_time = start
                pin.drive_low()
                self._edge_time = start + hold
                pin.drive_high()
            finally:
                self._edge_time = None
            # 1.5 windows, not 1: at monotonic-clock magnitudes (t + d) - t can round to just under d,
            # which would leave the release unsettled until the next press.
            self._dispatch(self._classifier.tick(start + hold + 1.5 * timing.debounce))
        self._wake.set()

    def tick(self) -> None:
        """Let the classifier see the current time now (the ticker thread does this by itself)."""
        with self._lock:
            if not self._closed:
                self._dispatch(self._classifier.tick(self._clock()))

    def close(self) -> None:
        """Stop the ticker and release the GPIO pins; safe to call twice."""
        with self._lock:
            self._closed = True
        self._wake.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(timeout=2.0)
        self._close_buttons()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            if self._closed:
                return
            t = self._edge_time if self._edge_time is not None else self._clock()
            self._dispatch(self._classifier.feed(name, pressed, t))
        self._wake.set()

    def _dispatch(self, events: list[Event]) -> None:
        for event in events:
            try:
                if isinstance(event, ButtonEvent):
                    self._on_event(event)
                elif self._on_noise is not None:
                    self._on_noise(event)
            except Exception:
                # A failing sink must not kill the ticker or gpiozero's callback thread: the next
                # press should still get through.
                log.exception("button event sink failed on %r", event)

    def _run_ticker(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                self._dispatch(self._classifier.tick(self._clock()))
                deadline = self._classifier.next_deadline()
                now = self._clock()
            timeout = None if deadline is None else max(deadline - now, 0.001)
            self._wake.wait(timeout)
            self._wake.clear()

    def _close_buttons(self) -> None:
        for button in self._buttons.values():
            button.close()
