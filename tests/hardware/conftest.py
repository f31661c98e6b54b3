"""Fixtures for the hardware tests: a clock the test moves by hand, and a fresh gpiozero MockFactory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


class FakeClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """A MockFactory per test, so pins reserved by one test never leak into the next."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.close()
