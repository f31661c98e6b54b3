"""Shared fixtures for the dice-reader tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision.reader import DiceReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


@pytest.fixture(scope="session")
def reader() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES
