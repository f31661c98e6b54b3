"""The journal's scratch copies: a start killed during its check leaves one, the next copy sweeps it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import copies


def journal(folder: Path) -> Path:
    path = folder / "companion.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (1)")
    return path


def test_copies_of_processes_that_are_gone_are_removed_and_the_rest_kept(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(copies, "SCRATCH", (str(scratch),))
    gone = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True).stdout)
    left = scratch / f"{copies.PREFIX}{gone}-x1"  # a start killed during its check
    left.mkdir()
    (left / "companion.sqlite3").write_bytes(b"a copy of the journal")
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as live:
        running = scratch / f"{copies.PREFIX}{live.pid}-x2"  # another process's check, still running
        running.mkdir()
        foreign = scratch / f"{copies.PREFIX}notapid"
        foreign.mkdir()
        try:
            with copies.copy_of(journal(tmp_path)) as copy:
                assert not copy.in_place and copy.path.parent.parent == scratch
                with sqlite3.connect(copy.path) as db:
                    assert db.execute("SELECT x FROM t").fetchall() == [(1,)]
                assert not left.exists()
                assert running.is_dir() and foreign.is_dir()
        finally:
            live.kill()
    assert sorted(p.name for p in scratch.iterdir()) == sorted([running.name, foreign.name])  # its own copy went


def test_copies_named_the_older_way_are_removed_once_an_hour_old(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Versions before the process id was in the name left ``companion-check-<8 letters>`` folders; an
    upgraded table sweeps those untouched for an hour, and keeps a fresh one and any other folder."""
    import os
    import time

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(copies, "SCRATCH", (str(scratch),))
    old = time.time() - 2 * copies.OLD_COPY_S

    def folder(name: str, journal_file: bool, age: float) -> Path:
        f = scratch / f"{copies.PREFIX}{name}"
        f.mkdir()
        if journal_file:
            (f / "companion.sqlite3").write_bytes(b"a copy")
        os.utime(f, (age, age))
        return f

    stale = folder("001xk1ay", True, old)
    fresh = folder("02r3gcxd", True, time.time())
    other = folder("notajrnl", False, old)
    short = folder("abc", True, old)
    with copies.copy_of(journal(tmp_path)):
        pass
    assert not stale.exists()
    assert fresh.is_dir() and other.is_dir() and short.is_dir()
