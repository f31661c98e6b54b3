"""Debounce and short/long-press classification over raw edges, as pure code with no clock of its own.

Buttons bounce (a microswitch makes and breaks contact for a few milliseconds), long wires pick up
spikes, and gpiozero's mock pins simulate neither, so debouncing lives here where a test can feed
it any sequence of ``(button, is_pressed, t)`` edges with made-up timestamps.

The rules, per button:

* A level counts once it has held for ``debounce`` without another edge ("settled"). A spike shorter
  than that is ignored; a bounce burst is one transition, timed from its first edge.
* A settled press followed by a settled release gives ``press`` if it was held less than
  ``long_press``, else ``long``. ``long`` fires as soon as the hold reaches ``long_press`` when
  :meth:`PressClassifier.tick` runs in time (so the player gets feedback while still holding),
  otherwise on release; never both, never twice.
* ``noisy_edges`` edges within ``noisy_window`` mark the pin noisy (a loose wire, a missing pull-up,
  interference): one :class:`NoisyPin` is reported, the press in progress is dropped, and nothing
  from that pin is obeyed until it has been quiet for ``calm``. If it calms down while held, the
  held press is ignored too: it takes a fresh press to act.
* A button already held when it is added (a stuck switch, a shorted wire) is ignored until released.

Time only moves forward: a timestamp older than the last one seen is treated as "now".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from companion.hardware import HardwareConfigError


@dataclass(frozen=True)
class ButtonEvent:
    """A press the game may act on; ``device`` names the physical source, e.g. ``button:confirm``."""

    button: str
    kind: Literal["press", "long"]
    at: float
    device: str


@dataclass(frozen=True)
class NoisyPin:
    """A button's pin went noisy (``noisy=True``) or calmed down again (``noisy=False``)."""

    button: str
    noisy: bool
    at: float
    device: str
    edges: int


Event = ButtonEvent | NoisyPin


class ButtonTimingError(HardwareConfigError):
    """The ``[buttons]`` table cannot be used as it is."""

    def __init__(self, errors: list[str] | tuple[str, ...]) -> None:
        super().__init__(errors, section="buttons")


@dataclass(frozen=True)
class ButtonTiming:
    """Debounce and classification thresholds, in seconds; the config gives them in milliseconds."""

    debounce: float = 0.030
    long_press: float = 1.0
    noisy_edges: int = 40
    noisy_window: float = 0.5
    calm: float = 2.0

    # config key -> (field, scale from the config's unit to ours)
    KEYS: ClassVar[dict[str, tuple[str, float]]] = {
        "debounce_ms": ("debounce", 0.001),
        "long_press_ms": ("long_press", 0.001),
        "noisy_edges": ("noisy_edges", 1),
        "noisy_window_ms": ("noisy_window", 0.001),
        "calm_ms": ("calm", 0.001),
    }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ButtonTiming:
        """Build from a ``[buttons]`` table (missing keys keep their defaults); list every problem."""
        errors: list[str] = []
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in cls.KEYS:
                errors.append(f"unknown key {key!r} (known: {', '.join(cls.KEYS)})")
            elif isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                errors.append(f"{key}: expected a positive number, got {value!r}")
            else:
                name, scale = cls.KEYS[key]
                values[name] = int(value) if scale == 1 else value * scale
        if errors:
            raise ButtonTimingError(errors)
        timing = cls(**values)
        problems = timing.problems()
        if problems:
            raise ButtonTimingError(problems)
        return timing

    def problems(self) -> list[str]:
        """Combinations that would make buttons unusable."""
        problems = []
        if self.debounce > 0.2:
            problems.append(f"debounce_ms: {self.debounce * 1000:g} ms would swallow quick presses (max 200)")
        if self.long_press < 3 * self.debounce:
            problems.append("long_press_ms: must be at least three debounce windows, or every press is long")
        if self.noisy_edges < 4:
            problems.append("noisy_edges: must be at least 4; one clean press already makes 2 edges")
        if self.calm < self.debounce:
            problems.append("calm_ms: must be longer than debounce_ms")
        return problems

    def as_mapping(self) -> dict[str, int]:
        """The ``[buttons]`` table form, for writing a config or printing."""
        return {key: round(getattr(self, name) / scale) for key, (name, scale) in self.KEYS.items()}


@dataclass
class _Pin:
    """One button's state; all times are the caller's timestamps."""

    raw: bool
    stable: bool
    last_edge: float
    burst_start: float
    down_since: float | None = None
    long_sent: bool = False
    ignore_until_release: bool = False
    noisy: bool = False
    edges: deque[float] = field(default_factory=deque)


class PressClassifier:
    """Turns raw edges into :class:`ButtonEvent` and :class:`NoisyPin` events. Not thread-safe:
    the owner (``ButtonPanel``) serialises calls under its lock."""

    def __init__(
        self,
        buttons: Iterable[str] = (),
        *,
        timing: ButtonTiming | None = None,
        device_prefix: str = "button",
        start: float = 0.0,
    ) -> None:
        self.timing = timing or ButtonTiming()
        self.device_prefix = device_prefix
        self._pins: dict[str, _Pin] = {}
        self._now = start
        for name in buttons:
            self.add(name)

    def add(self, button: str, *, pressed: bool = False, at: float | None = None) -> None:
        """Start tracking a button in its current level; held at start means ignored until released."""
        t = self._clamp(at)
        self._pins[button] = _Pin(raw=pressed, stable=pressed, last_edge=t, burst_start=t, ignore_until_release=pressed)

    @property
    def now(self) -> float:
        """The latest time seen; earlier timestamps are treated as this."""
        return self._now

    def device(self, button: str) -> str:
        return f"{self.device_prefix}:{button}"

    @property
    def noisy(self) -> frozenset[str]:
        """Buttons currently not obeyed because their pin is noisy."""
        return frozenset(name for name, pin in self._pins.items() if pin.noisy)

    def feed(self, button: str, is_pressed: bool, t: float) -> list[Event]:
        """One raw edge. Returns what it settled (events always come out in time order)."""
        pin = self._pins[button]
        t = self._clamp(t)
        events = self._advance(button, pin, t)
        if is_pressed == pin.raw:
            return events  # a repeated level is not an edge (backends may report one after a glitch)
        if t >= pin.last_edge + self.timing.debounce:
            pin.burst_start = t
        pin.raw = is_pressed
        pin.last_edge = t
        pin.edges.append(t)
        while pin.edges and pin.edges[0] <= t - self.timing.noisy_window:
            pin.edges.popleft()
        if not pin.noisy and len(pin.edges) >= self.timing.noisy_edges:
            pin.noisy = True
            pin.down_since = None
            events.append(NoisyPin(button, True, t, self.device(button), len(pin.edges)))
        return events

    def tick(self, now: float) -> list[Event]:
        """Let time pass with no edges: settles pending levels, fires long presses, calms pins."""
        now = self._clamp(now)
        events: list[Event] = []
        for name, pin in self._pins.items():
            events += self._advance(name, pin, now)
        events.sort(key=lambda e: e.at)
        return events

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` would have something to do, or ``None``.

        Right after ``tick(now)`` it is always later than ``now``, so a ticker that ticks and then
        waits for it cannot spin.
        """
        deadlines = []
        for pin in self._pins.values():
            if pin.noisy:
                deadlines.append(pin.last_edge + self.timing.calm)
            elif pin.raw != pin.stable:
                deadlines.append(pin.last_edge + self.timing.debounce)
            elif pin.stable and pin.down_since is not None and not pin.long_sent:
                deadlines.append(pin.down_since + self.timing.long_press)
        return min(deadlines, default=None)

    def _clamp(self, t: float | None) -> float:
        if t is not None and t > self._now:
            self._now = t
        return self._now

    def _advance(self, name: str, pin: _Pin, now: float) -> list[Event]:
        timing = self.timing
        if pin.noisy:
            if now < pin.last_edge + timing.calm:  # the same sum as next_deadline(), so they agree
                return []
            pin.noisy = False
            pin.edges.clear()
            pin.stable = pin.raw
            pin.down_since = None
            pin.ignore_until_release = pin.raw
            return [NoisyPin(name, False, pin.last_edge + timing.calm, self.device(name), 0)]
        if pin.raw != pin.stable and now >= pin.last_edge + timing.debounce:
            pin.stable = pin.raw
            if not pin.stable:
                return self._released(name, pin)
            pin.down_since = pin.burst_start
            pin.long_sent = False
        # A held press becomes long once the hold reaches the threshold, unless the pending
        # (unsettled) release happened before that.
        if pin.stable and pin.down_since is not None and not pin.long_sent:
            long_at = pin.down_since + timing.long_press
            held = pin.raw or pin.burst_start >= long_at
            if held and now >= long_at:
                pin.long_sent = True
                return [ButtonEvent(name, "long", long_at, self.device(name))]
        return []

    def _released(self, name: str, pin: _Pin) -> list[Event]:
        down, pin.down_since = pin.down_since, None
        if pin.ignore_until_release:
            pin.ignore_until_release = False
            return []
        if down is None or pin.long_sent:
            return []
        if pin.burst_start - down >= self.timing.long_press:
            return [ButtonEvent(name, "long", down + self.timing.long_press, self.device(name))]
        return [ButtonEvent(name, "press", pin.burst_start, self.device(name))]
