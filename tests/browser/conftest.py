"""Headless Debian Chromium driven by Playwright (``playwright install`` cannot download here)."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live import serve  # type: ignore[import-not-found]
from playwright_driver import APT_HINT, driver_problem, hint  # type: ignore[import-not-found]

from companion.config import Config, ServerConfig, StoreConfig
from companion.store.journal import Journal
from companion.table.rig import Rig
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail(f"Debian's chromium is needed for the browser tests: {APT_HINT}")
    return path


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many page states the whole-game tests checked with axe-core (and how many were repeats)."""
    play = __import__("sys").modules.get("play")
    stats = getattr(play, "AXE_STATS", None)
    if not stats:
        return
    runs, same, secs = (sum(v[i] for v in stats.values()) for i in range(3))
    terminalreporter.write_line(
        f"axe-core: {runs:.0f} page states checked in {secs:.0f} s, {same:.0f} repeats of a checked DOM skipped"
    )
    for name, (r, s, t) in sorted(stats.items()):
        terminalreporter.write_line(f"  {name}: {r:.0f} checked ({t:.1f} s), {s:.0f} skipped")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium_path()  # before the driver: the likelier miss on a new machine
    try:
        manager = sync_playwright().start()
    except Exception as exc:  # the driver's node did not start: say why, not "connection closed"
        pytest.fail(hint(exc, driver_problem()), pytrace=False)
    try:
        b = manager.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
    finally:
        manager.stop()


@pytest.fixture
def rigged(tmp_path: Path) -> Iterator[tuple[str, Table, Rig]]:
    """A mock-hardware companion on a free port: (base URL, its table, its simulated devices); its data
    folder is the test's ``tmp_path``."""
    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(tmp_path)), mock=True)
    table = Table(Journal(tmp_path / "journal.sqlite3"), rng=random.Random(0))
    rig = Rig(table, config, mock=True, seed=3)
    app = create_app(table, config=config, devices=rig)
    try:
        with serve(app) as base:
            yield base, table, rig
    finally:
        rig.close()
        table.journal.close()


@pytest.fixture
def companion(rigged: tuple[str, Table, Rig]) -> tuple[str, Table]:
    """The same companion as (base URL, its table)."""
    return rigged[0], rigged[1]


@pytest.fixture
def page(browser: Any, companion: tuple[str, Table]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    yield pg
    context.close()
