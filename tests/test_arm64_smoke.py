"""scripts/arm64-smoke stops the mock daemon it started, not the shell that started it.

The script itself needs root, debootstrap and qemu; this runs its own lines that start, check and stop
the daemon (taken from the script, so the test follows it), with a stand-in for ``chroot`` and a fake
``.venv/bin/companion`` that just sleeps."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "arm64-smoke"

pytestmark = pytest.mark.skipif(not (shutil.which("bash") and shutil.which("ps") and Path("/proc/self").exists()),
                                reason="needs bash, ps and /proc")


def lines_between(text: str, first: str, last: str) -> str:
    """The script's lines from the one starting with ``first`` to the one starting with ``last``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(last))
    return "\n".join(lines[start:end + 1])


def processes_under(folder: Path) -> list[int]:
    """Live (not zombie) processes whose command line names something in ``folder``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError, ValueError):
            continue
        if proc.name.isdigit() and str(folder) in cmdline and state != "Z":
            found.append(int(proc.name))
    return found


def start_and_stop(tmp_path: Path, *, use_exec: bool) -> tuple[int, str]:
    """The script's lines run on a fake daemon: the exit status and what they said."""
    script = SCRIPT.read_text()
    functions = lines_between(script, 'daemon_pid=""', "mounted=()").rsplit("\n", 1)[0]
    start = lines_between(script, 'rm -f "$ROOT/tmp/smoke-daemon.pid"', "  || die")
    assert "exec .venv/bin/companion run" in start
    if not use_exec:
        start = start.replace("exec .venv/bin/companion", ".venv/bin/companion")  # the old line
    start = start.replace(" /tmp/smoke-daemon", " $ROOT/tmp/smoke-daemon")  # no chroot: the root's /tmp

    home = tmp_path / "home" / "smoke" / "companion"
    (home / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / "tmp").mkdir()
    fake = home / ".venv" / "bin" / "companion"
    fake.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    fake.chmod(0o755)
    driver = "\n".join([
        "set -euo pipefail",
        f"ROOT={tmp_path}",
        "PORT=8097",
        'die() { echo "die: $*"; exit 1; }',
        'inside() { /usr/bin/env -i PATH=/usr/bin:/bin /bin/bash -c "cd $ROOT/home/smoke/companion && $1"; }',
        functions,
        start,
        'echo "started $daemon_pid"',
        "stop_daemon",
        'echo "stopped"',
    ])
    # output to a file, not a pipe: a daemon left running would hold a pipe open until it ends
    with open(tmp_path / "driver.log", "w") as log:
        code = subprocess.run(["bash", "-c", driver], stdout=log, stderr=subprocess.STDOUT, timeout=60,
                              check=False).returncode
    return code, (tmp_path / "driver.log").read_text()


def test_the_daemon_started_is_the_one_stopped(tmp_path: Path) -> None:
    code, said = start_and_stop(tmp_path, use_exec=True)
    assert code == 0 and said.endswith("stopped\n"), said
    assert processes_under(tmp_path) == []


def test_without_exec_the_pid_is_the_shells_and_the_script_says_so(tmp_path: Path) -> None:
    """The line as it was: the pid written is the shell's, whose death left the daemon running."""
    code, said = start_and_stop(tmp_path, use_exec=False)
    left = processes_under(tmp_path)
    for pid in left:  # the orphan the old line leaves behind (this test started it)
        os.kill(pid, 15)
    time.sleep(0.2)
    assert code == 1 and "is not the mock daemon" in said, said
    assert left, "the old line leaves the daemon running"
