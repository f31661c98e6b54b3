"""Status lights on MockFactory, checked by reading the mock pins' states."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.hardware.leds import StatusLights
from companion.hardware.pins import PinMap

PINS = PinMap()  # ready 5, reading 6, error 13, buzzer 26


def levels(factory: Any) -> tuple[bool, bool, bool]:
    return (factory.pin(5).state, factory.pin(6).state, factory.pin(13).state)


def test_one_light_at_a_time(mock_factory: Any) -> None:
    with StatusLights(PINS, pin_factory=mock_factory) as lights:
        assert levels(mock_factory) == (False, False, False)
        lights.show_ready()
        assert levels(mock_factory) == (True, False, False)
        lights.show_reading()
        assert levels(mock_factory) == (False, True, False)
        assert lights.status == "reading"
        lights.show_error()
        assert levels(mock_factory) == (False, False, True)
        assert lights.lit == {"ready": False, "reading": False, "error": True}
        lights.off()
        assert levels(mock_factory) == (False, False, False)


def test_beep_toggles_the_buzzer_pin(mock_factory: Any) -> None:
    with StatusLights(PINS, pin_factory=mock_factory) as lights:
        lights.beep(seconds=0.001, times=2, wait=True)
        states = [s.state for s in mock_factory.pin(26).states]
        assert states == [False, True, False, True, False]


def test_unfitted_outputs_are_no_ops(mock_factory: Any) -> None:
    pins = PinMap(led_reading=None, led_error=None, buzzer=None)
    with StatusLights(pins, pin_factory=mock_factory) as lights:
        lights.show_error()
        assert lights.status == "error"
        assert lights.lit == {"ready": False}
        lights.beep(wait=True)
        lights.show_ready()
        assert mock_factory.pin(5).state is True


def test_close_turns_off_and_releases(mock_factory: Any) -> None:
    lights = StatusLights(PINS, pin_factory=mock_factory)
    lights.show_ready()
    lights.close()
    lights.close()
    assert lights.lit == {}
    again = StatusLights(PINS, pin_factory=mock_factory)  # the pins are free again
    again.show_reading()
    assert levels(mock_factory) == (False, True, False)
    again.close()


def test_a_pin_clash_with_the_buttons_fails_cleanly(mock_factory: Any) -> None:
    from gpiozero import GPIOPinInUse

    from companion.hardware.buttons import ButtonPanel

    clash = PinMap(led_ready=17)  # the same GPIO as confirm: PinMap.from_mapping would refuse it
    with ButtonPanel(clash, pin_factory=mock_factory, on_event=print, autotick=False), pytest.raises(GPIOPinInUse):
        StatusLights(clash, pin_factory=mock_factory)


def test_a_refused_press_beeps_twice_and_flashes_red_then_the_lights_come_back(mock_factory: Any) -> None:
    with StatusLights(PINS, pin_factory=mock_factory) as lights:
        lights.show_ready()
        red = mock_factory.pin(13)
        red.clear_states()
        flashing = lights.cue(False)
        assert flashing is not None
        flashing.join(5)
        assert [s.state for s in red.states] == [False, True, False, True, False]
        assert levels(mock_factory) == (True, False, False)  # ready again, as before the cue
        taken = lights.cue(True, sound=False)
        assert taken is not None
        taken.join(5)
        assert [s.state for s in mock_factory.pin(5).states][-3:] == [True, False, True]  # the lit LED winked
        assert lights.cue(True, light=False) is None


def test_a_cue_without_a_buzzer_only_flashes(mock_factory: Any) -> None:
    pins = replace(PINS, buzzer=None)
    with StatusLights(pins, pin_factory=mock_factory) as lights:
        lights.show_reading()
        flashing = lights.cue(True)
        assert flashing is not None
        flashing.join(5)
        assert lights.lit == {"ready": False, "reading": True, "error": False}
