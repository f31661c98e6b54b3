"""Shared fixtures for the dice-reader tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.vision.reader import DiceReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


@pytest.fixture(scope="session")
def reader() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


SeenAs = Callable[[DiceReader, tuple[float, float], float, dict[str, float]], None]


@pytest.fixture
def seen_as(monkeypatch: pytest.MonkeyPatch) -> SeenAs:
    """Stands in for a classifier that takes what lies at a place for something: ``seen_as(reader, at,
    within, probs)`` gives every window centred within ``within`` px of ``at`` the probabilities ``probs``
    (by class name, e.g. ``{"1": 1.0}``) and no offset. A test of the reader's rules then holds whatever
    the shipped model makes of the thing."""

    def stand_in(reader: DiceReader, at: tuple[float, float], within: float, probs: dict[str, float]) -> None:
        real = reader._classify
        forced = np.zeros(len(reader.classifier.classes), np.float32)
        for name, p in probs.items():
            forced[reader.classifier.classes.index(name)] = p

        def classify(wins, prof):  # type: ignore[no-untyped-def]
            out = [replace(w, probs=forced.copy(), offset=np.zeros(3, np.float32))
                   if np.hypot(w.cx - at[0], w.cy - at[1]) < within else w for w in real(wins, prof)]
            if out:  # the reading's record of what it looked at (``_fill``) holds what the stand-in says
                reader._seen[-len(out):] = out
            return out

        monkeypatch.setattr(reader, "_classify", classify)

    return stand_in
