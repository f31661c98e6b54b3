"""The browser tests' hint when Playwright's driver cannot start (no Chromium or driver needed here)."""

from __future__ import annotations

import sys

from playwright_driver import driver_executable, driver_problem, hint  # type: ignore[import-not-found]


def test_a_driver_that_cannot_load_a_library_is_named_with_the_package_to_install():
    missing = "node: error while loading shared libraries: libatomic.so.1: cannot open shared object file"
    problem = driver_problem([sys.executable, "-c", f"import sys; sys.exit({missing!r})"])
    assert problem == missing
    message = hint(Exception("Connection closed while reading from the driver"), problem)
    assert "libatomic.so.1" in message and "apt-get install chromium libatomic1" in message
    assert "\n" not in message


def test_a_driver_that_is_not_there_or_runs_is_told_apart(tmp_path):
    assert "No such file" in (driver_problem([str(tmp_path / "node"), "--version"]) or "")
    assert driver_problem([sys.executable, "--version"]) is None
    assert hint(Exception("Connection closed while reading from the driver\nmore"), None).startswith(
        "Playwright's driver could not start (Connection closed while reading from the driver)")


def test_the_installed_driver_starts_here():
    assert driver_executable().endswith("node")
    problem = driver_problem()
    assert problem is None, hint(Exception("driver"), problem)
