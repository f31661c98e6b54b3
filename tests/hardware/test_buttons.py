"""The button panel on gpiozero's MockFactory: mock pins driven low and high, a clock the test moves."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest

from companion.hardware.buttons import ButtonPanel, default_pin_factory
from companion.hardware.debounce import ButtonEvent, ButtonTiming, NoisyPin
from companion.hardware.pins import PinMap

TIMING = ButtonTiming(debounce=0.030, long_press=1.0, noisy_edges=16, noisy_window=0.5, calm=2.0)


class Sink:
    def __init__(self) -> None:
        self.events: list[ButtonEvent] = []
        self.noise: list[NoisyPin] = []
        self.got = threading.Event()

    def on_event(self, event: ButtonEvent) -> None:
        self.events.append(event)
        self.got.set()


@pytest.fixture
def sink() -> Sink:
    return Sink()


@pytest.fixture
def panel(mock_factory: Any, clock: Any, sink: Sink) -> Any:
    pins = PinMap(players={"red": 16})
    with ButtonPanel(
        pins,
        pin_factory=mock_factory,
        clock=clock,
        on_event=sink.on_event,
        on_noise=sink.noise.append,
        timing=TIMING,
        autotick=False,
    ) as p:
        yield p


def test_a_finger_press_on_the_mock_pin_goes_through_the_handlers(
    panel: ButtonPanel, mock_factory: Any, clock: Any, sink: Sink
) -> None:
    pin = mock_factory.pin(17)  # confirm
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    assert sink.events == []  # the release has not settled yet
    clock.advance(0.03)
    panel.tick()
    assert sink.events == [ButtonEvent("confirm", "press", clock.now - 0.03, "button:confirm")]


def test_bounces_on_the_mock_pin_make_one_press(panel: ButtonPanel, mock_factory: Any, clock: Any, sink: Sink) -> None:
    pin = mock_factory.pin(27)  # undo
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.2)
    for _ in range(3):
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    clock.advance(0.1)
    panel.tick()
    assert [(e.button, e.kind) for e in sink.events] == [("undo", "press")]


def test_long_press_while_held_with_a_controlled_clock(
    panel: ButtonPanel, mock_factory: Any, clock: Any, sink: Sink
) -> None:
    pin = mock_factory.pin(27)
    pin.drive_low()
    start = clock.now
    clock.advance(0.9)
    panel.tick()
    assert sink.events == []
    clock.advance(0.2)
    panel.tick()
    assert sink.events == [ButtonEvent("undo", "long", start + 1.0, "button:undo")]
    pin.drive_high()
    clock.advance(1.0)
    panel.tick()
    assert len(sink.events) == 1


def test_press_method_taps_and_holds_without_waiting(panel: ButtonPanel, sink: Sink) -> None:
    panel.press("confirm")
    panel.press("undo", hold=1.5)
    panel.press("player.red")
    assert [(e.device, e.kind) for e in sink.events] == [
        ("button:confirm", "press"),
        ("button:undo", "long"),
        ("button:player.red", "press"),
    ]
    ats = [e.at for e in sink.events]
    assert ats == sorted(ats)


def test_press_drives_the_real_mock_pin(panel: ButtonPanel, mock_factory: Any) -> None:
    panel.press("next")
    states = [s.state for s in mock_factory.pin(22).states]
    assert states[-2:] == [False, True]


def test_noisy_pin_is_reported_and_ignored(panel: ButtonPanel, mock_factory: Any, clock: Any, sink: Sink) -> None:
    pin = mock_factory.pin(23)  # reread
    for _ in range(10):
        pin.drive_low()
        clock.advance(0.01)
        pin.drive_high()
        clock.advance(0.01)
    assert [(n.device, n.noisy) for n in sink.noise] == [("button:reread", True)]
    assert panel.noisy == {"reread"}
    panel.press("reread")
    assert sink.events == []
    clock.advance(3.0)
    panel.tick()
    assert [n.noisy for n in sink.noise] == [True, False]
    panel.press("reread")
    assert [e.button for e in sink.events] == ["reread"]


def test_button_held_at_start_is_not_obeyed(mock_factory: Any, clock: Any, sink: Sink) -> None:
    mock_factory.pin(17).drive_low()  # a stuck confirm button
    with ButtonPanel(PinMap(), pin_factory=mock_factory, clock=clock, on_event=sink.on_event, autotick=False) as p:
        clock.advance(5.0)
        p.tick()
        assert sink.events == []
        mock_factory.pin(17).drive_high()
        clock.advance(1.0)
        p.tick()
        assert sink.events == []


def test_failing_sink_does_not_break_the_panel(mock_factory: Any, clock: Any) -> None:
    seen: list[ButtonEvent] = []

    def flaky(event: ButtonEvent) -> None:
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("sink bug")

    with ButtonPanel(PinMap(), pin_factory=mock_factory, clock=clock, on_event=flaky, autotick=False) as p:
        p.press("confirm")
        p.press("confirm")
    assert len(seen) == 2


def test_close_releases_the_pins(mock_factory: Any, clock: Any, sink: Sink) -> None:
    p = ButtonPanel(PinMap(), pin_factory=mock_factory, clock=clock, on_event=sink.on_event, autotick=False)
    p.close()
    p.close()
    # The pins are free again: a second panel can claim them.
    again = ButtonPanel(PinMap(), pin_factory=mock_factory, clock=clock, on_event=sink.on_event, autotick=False)
    again.press("confirm")
    again.close()
    assert len(sink.events) == 1


def test_ticker_thread_settles_releases_and_long_presses_on_the_real_clock(mock_factory: Any, sink: Sink) -> None:
    timing = ButtonTiming(debounce=0.005, long_press=0.05, noisy_edges=16, noisy_window=0.5, calm=2.0)
    with ButtonPanel(PinMap(), pin_factory=mock_factory, on_event=sink.on_event, timing=timing) as p:
        mock_factory.pin(27).drive_low()
        assert sink.got.wait(timeout=5.0), "the ticker never reported the long press"
        mock_factory.pin(27).drive_high()
        assert p.names[:4] == ("confirm", "undo", "next", "reread")
    assert [(e.button, e.kind) for e in sink.events] == [("undo", "long")]


def test_press_refuses_real_pins(mock_factory: Any, clock: Any, sink: Sink) -> None:
    with ButtonPanel(PinMap(), pin_factory=mock_factory, clock=clock, on_event=sink.on_event, autotick=False) as p:
        real = p._buttons["confirm"]
        p._buttons["confirm"] = SimpleNamespace(pin=object(), close=real.close)  # a pin with no drive_low
        with pytest.raises(TypeError, match="button:confirm is a real pin"):
            p.press("confirm")
    assert sink.events == []


def test_default_pin_factory() -> None:
    from gpiozero.pins.mock import MockFactory

    factory = default_pin_factory(mock=True)
    assert isinstance(factory, MockFactory)
    factory.close()
    assert default_pin_factory(mock=False) is None
