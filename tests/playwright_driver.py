"""Why Playwright could not start, in one line a newcomer can act on.

Playwright runs a bundled node as its driver. When that node cannot start (on a bare Debian it needs
``libatomic.so.1``, from the ``libatomic1`` package), ``sync_playwright()`` only says "Connection closed
while reading from the driver", before Chromium is ever looked for. Running the driver's node once by
itself shows the real reason.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

APT_HINT = "apt-get install chromium libatomic1 (the README names them; .ci/run installs them)"


def driver_executable() -> str:
    """The node binary Playwright starts as its driver."""
    from playwright._impl._driver import compute_driver_executable

    found = compute_driver_executable()
    return str(found[0] if isinstance(found, tuple) else found)


def driver_problem(command: Sequence[str] | None = None) -> str | None:
    """None when the driver's node runs; else what it printed (e.g. a missing shared library)."""
    cmd = list(command) if command is not None else [driver_executable(), "--version"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    except OSError as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    return (done.stderr or done.stdout).strip().splitlines()[-1] if (done.stderr or done.stdout).strip() else (
        f"exit status {done.returncode}")


def hint(error: BaseException, problem: str | None) -> str:
    """The message a failing browser fixture shows."""
    why = problem or str(error).strip().splitlines()[0]
    return f"Playwright's driver could not start ({why}); on Debian: {APT_HINT}"
