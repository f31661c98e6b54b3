"""The press classifier, fed edges with made-up timestamps: bounces, spikes, long presses, noise."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.hardware import HardwareConfigError
from companion.hardware.debounce import (
    ButtonEvent,
    ButtonTiming,
    ButtonTimingError,
    NoisyPin,
    PressClassifier,
)

TIMING = ButtonTiming(debounce=0.030, long_press=1.0, noisy_edges=16, noisy_window=0.5, calm=2.0)


def classifier(*names: str) -> PressClassifier:
    return PressClassifier(names or ("confirm",), timing=TIMING)


def feed_all(c: PressClassifier, edges: list[tuple[str, bool, float]], until: float) -> list[object]:
    events: list[object] = []
    for name, pressed, t in edges:
        events += c.feed(name, pressed, t)
    events += c.tick(until)
    return events


def test_clean_tap_is_one_press_at_release_time() -> None:
    c = classifier()
    events = feed_all(c, [("confirm", True, 1.0), ("confirm", False, 1.2)], until=1.3)
    assert events == [ButtonEvent("confirm", "press", 1.2, "button:confirm")]


def test_release_needs_the_debounce_window_before_it_counts() -> None:
    c = classifier()
    c.feed("confirm", True, 1.0)
    c.feed("confirm", False, 1.2)
    assert c.tick(1.2 + 0.029) == []
    assert [e.kind for e in c.tick(1.2 + 0.030)] == ["press"]  # type: ignore[union-attr]


def test_bouncing_press_and_release_is_one_press() -> None:
    c = classifier()
    down = [("confirm", i % 2 == 0, 1.0 + i * 0.002) for i in range(7)]  # ends pressed
    up = [("confirm", i % 2 == 1, 1.3 + i * 0.002) for i in range(7)]  # ends released
    events = feed_all(c, down + up, until=2.0)
    assert events == [ButtonEvent("confirm", "press", 1.3, "button:confirm")]


def test_spike_shorter_than_the_window_is_ignored() -> None:
    c = classifier()
    events = feed_all(c, [("confirm", True, 1.0), ("confirm", False, 1.010)], until=5.0)
    assert events == []


def test_glitch_during_a_hold_does_not_split_the_press() -> None:
    c = classifier()
    edges = [("confirm", True, 1.0), ("confirm", False, 1.5), ("confirm", True, 1.505), ("confirm", False, 1.7)]
    assert feed_all(c, edges, until=2.0) == [ButtonEvent("confirm", "press", 1.7, "button:confirm")]


def test_long_press_fires_while_held_when_ticked_and_not_again_on_release() -> None:
    c = classifier("undo")
    c.feed("undo", True, 10.0)
    assert c.tick(10.5) == []
    assert c.next_deadline() == pytest.approx(11.0)
    assert c.tick(11.0) == [ButtonEvent("undo", "long", 11.0, "button:undo")]
    c.feed("undo", False, 13.0)
    assert c.tick(14.0) == []


def test_long_press_without_ticks_is_reported_on_release() -> None:
    c = classifier("undo")
    events = feed_all(c, [("undo", True, 10.0), ("undo", False, 12.5)], until=12.6)
    assert events == [ButtonEvent("undo", "long", 11.0, "button:undo")]


def test_release_just_before_the_threshold_is_a_short_press_even_if_ticked_late() -> None:
    c = classifier()
    c.feed("confirm", True, 0.0)
    c.feed("confirm", False, 0.99)
    assert c.tick(5.0) == [ButtonEvent("confirm", "press", 0.99, "button:confirm")]


def test_chattering_pin_is_reported_noisy_and_not_obeyed_until_calm() -> None:
    c = classifier("next", "confirm")
    # 20 edges within 200 ms on "next", held low for 50 ms each time: would be presses if obeyed.
    edges = []
    t = 1.0
    for _ in range(10):
        edges += [("next", True, t), ("next", False, t + 0.05)]
        t += 0.06
    events = feed_all(c, edges, until=t)
    noisy = [e for e in events if isinstance(e, NoisyPin)]
    assert noisy and noisy[0].noisy and noisy[0].device == "button:next" and noisy[0].edges == 16
    assert c.noisy == frozenset({"next"})
    presses_before_noise = [e for e in events if isinstance(e, ButtonEvent)]
    assert len(presses_before_noise) <= 7  # at most the presses settled before the 16th edge
    # While noisy, a clean press is ignored; the other button still works.
    events = feed_all(
        c,
        [("next", True, t + 0.5), ("confirm", True, t + 0.5), ("next", False, t + 0.7), ("confirm", False, t + 0.7)],
        until=t + 0.8,
    )
    assert events == [ButtonEvent("confirm", "press", t + 0.7, "button:confirm")]
    # Calm after two quiet seconds, reported once; then presses count again.
    calm = c.tick(t + 0.7 + 2.0)
    assert calm == [NoisyPin("next", False, pytest.approx(t + 2.7), "button:next", 0)]  # type: ignore[arg-type]
    assert c.noisy == frozenset()
    events = feed_all(c, [("next", True, t + 3.0), ("next", False, t + 3.1)], until=t + 3.2)
    assert events == [ButtonEvent("next", "press", t + 3.1, "button:next")]


def test_pin_that_calms_down_while_held_needs_a_fresh_press() -> None:
    c = classifier("reread")
    edges = [("reread", i % 2 == 0, 1.0 + i * 0.01) for i in range(17)]  # ends pressed
    feed_all(c, edges, until=1.2)
    assert c.noisy == {"reread"}
    assert [e for e in c.tick(10.0) if isinstance(e, NoisyPin)][0].noisy is False
    assert feed_all(c, [("reread", False, 11.0)], until=20.0) == []  # the stale hold is dropped
    assert [e.kind for e in feed_all(c, [("reread", True, 21.0), ("reread", False, 21.2)], until=22.0)] == ["press"]


def test_button_held_at_start_is_ignored_until_released() -> None:
    c = PressClassifier(timing=TIMING)
    c.add("confirm", pressed=True, at=0.0)
    assert c.tick(5.0) == []
    assert feed_all(c, [("confirm", False, 6.0)], until=7.0) == []
    assert len(feed_all(c, [("confirm", True, 8.0), ("confirm", False, 8.1)], until=9.0)) == 1


def test_timestamps_going_backwards_are_treated_as_now() -> None:
    c = classifier()
    c.feed("confirm", True, 5.0)
    events = feed_all(c, [("confirm", False, 4.0)], until=5.1)  # clock jitter: 4.0 counts as 5.0
    assert events == []  # a 0 s press is a spike
    assert c.next_deadline() is None


def test_device_prefix_names_the_source() -> None:
    c = PressClassifier(["confirm"], timing=TIMING, device_prefix="mock-button")
    assert feed_all(c, [("confirm", True, 0.0), ("confirm", False, 0.1)], until=1.0)[0].device == (  # type: ignore[attr-defined]
        "mock-button:confirm"
    )


@example(steps=[("a", 0.25), ("a", 0.032009082392414574), ("b", 0.03)], tail=0.0)  # float rounding
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b"]), st.floats(0.0005, 0.4)), max_size=60),
    st.floats(0.0, 3.0),
)
def test_invariants_over_random_edge_streams(steps: list[tuple[str, float]], tail: float) -> None:
    """Any edge stream: ticking never spins, events come in time order, no press from nothing."""
    c = PressClassifier(["a", "b"], timing=TIMING)
    level = {"a": False, "b": False}
    t = 0.0
    events: list[object] = []
    for name, gap in steps:
        t += gap
        level[name] = not level[name]
        events += c.feed(name, level[name], t)
        events += c.tick(t)
        deadline = c.next_deadline()
        assert deadline is None or deadline > t
    end = t + tail + 5.0
    events += c.tick(end)
    deadline = c.next_deadline()
    assert deadline is None or deadline > end
    presses = [e for e in events if isinstance(e, ButtonEvent)]
    for name in ("a", "b"):
        press_edges = sum(1 for n, _ in steps if n == name) // 2 + 1
        assert len([e for e in presses if e.button == name]) <= press_edges
    for e in presses:
        assert e.device == f"button:{e.button}"
    for name in ("a", "b"):
        ats = [e.at for e in presses if e.button == name]
        assert ats == sorted(ats)


def test_timing_from_config_table_in_milliseconds() -> None:
    timing = ButtonTiming.from_mapping({"debounce_ms": 25, "long_press_ms": 800})
    assert timing.debounce == pytest.approx(0.025) and timing.long_press == pytest.approx(0.8)
    assert timing.noisy_edges == ButtonTiming().noisy_edges
    assert ButtonTiming.from_mapping(timing.as_mapping()) == timing


def test_timing_errors_are_listed_together() -> None:
    with pytest.raises(ButtonTimingError) as info:
        ButtonTiming.from_mapping({"debounce_ms": -1, "long_ms": 5, "noisy_edges": True})
    assert len(info.value.errors) == 3
    assert isinstance(info.value, HardwareConfigError) and isinstance(info.value, ValueError)
    assert "[buttons]" in str(info.value)
    with pytest.raises(ButtonTimingError, match="every press is long"):
        ButtonTiming.from_mapping({"debounce_ms": 50, "long_press_ms": 100})
