"""Shared fixtures: a journal in a temporary folder, the table on it, and the web app around it."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Speed is measured by benchmarks, not by tests: on a shared 2-core machine (or under arm64 emulation) a
# property example may take longer than Hypothesis's default 200 ms deadline for reasons not its own.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")  # before any gpiozero device is built

from companion.config import Config, ServerConfig, StoreConfig  # noqa: E402
from companion.store.journal import Journal  # noqa: E402
from companion.table.session import Table  # noqa: E402

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "test"}
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(server=ServerConfig(pin=PIN, port=8080), store=StoreConfig(data_dir=str(tmp_path)), mock=True)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def table(journal: Journal) -> Table:
    """A table whose own draws (virtual decks) are seeded, so every run of a test is the same."""
    return Table(journal, rng=random.Random(0))
