"""`companion run` as a process: mock start, clean SIGTERM, safe mode after a crashed start (and only then),
safe mode rather than a crash loop for files and folders in the way, check-config."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.daemon import MARKER
from companion.store.backups import take_backup
from companion.store.journal import Journal
from companion.table.session import Table

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def daemon(data: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--mock", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(data), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=1) as res:
                if res.status == 200:
                    break
        except OSError:
            pass
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        assert time.monotonic() < deadline, "the daemon did not answer"
        time.sleep(0.05)
    try:
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def health(base: str) -> dict[str, object]:
    with urllib.request.urlopen(base + "/api/health", timeout=5) as res:
        data: dict[str, object] = json.loads(res.read())
        return data


def test_mock_start_reports_simulated_parts_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    with daemon(tmp_path) as (proc, base):
        info = health(base)
        assert info["safe_mode"] is False
        assert info["devices"] == {"buttons": "simulated", "lights": "simulated", "camera": "simulated"}
        system = info["system"]
        assert isinstance(system, dict) and system["journal_bytes"] is not None
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
    assert proc.returncode == 0
    assert "Open on the tablet: http://" in out and "journal closed" in out
    assert not (tmp_path / MARKER).exists()


def test_signals_during_the_clean_up_do_not_cut_it_short(tmp_path: Path) -> None:
    """A second SIGTERM (or Ctrl-C twice) while the daemon closes its devices and journal: before, it
    raised in the middle of the clean-up, skipping the journal's close."""
    with daemon(tmp_path) as (proc, base):
        health(base)
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 3.0
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                proc.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                break
            time.sleep(0.002)
        out, _ = proc.communicate(timeout=15)
    assert proc.returncode == 0, out[-2000:]
    assert "journal closed" in out and "Traceback" not in out
    assert not (tmp_path / MARKER).exists()


def test_a_crashed_start_brings_up_safe_mode(tmp_path: Path) -> None:
    (tmp_path / MARKER).write_text("started earlier, pid 1")  # the last start never finished
    with daemon(tmp_path) as (proc, base):
        info = health(base)
        assert info["safe_mode"] is True
        with urllib.request.urlopen(base + "/api/state", timeout=5) as res:
            banner = json.loads(res.read())["status"]["banner"]
        assert banner.startswith("Safe mode: the last start did not finish")
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)
    assert not (tmp_path / MARKER).exists()  # a clean stop: the next start tries the devices again


def test_the_journal_survives_a_kill(tmp_path: Path) -> None:
    body = json.dumps({"game": "heckmeck", "players": ["Ann", "Bob"]}).encode()
    roll = json.dumps({"action": {"type": "roll", "dice": [1, 2, 3, 4, 5, 5, "worm", "worm"]}}).encode()
    headers = {"X-Table-Pin": "1234", "Content-Type": "application/json"}
    with daemon(tmp_path) as (proc, base):
        for path, data in (("/api/games", body), ("/api/input", roll)):
            urllib.request.urlopen(urllib.request.Request(base + path, data, headers), timeout=5).read()
        proc.kill()  # no shutdown at all, as with a pulled plug
        proc.wait()
    with daemon(tmp_path) as (proc, base):
        with urllib.request.urlopen(base + "/api/state", timeout=5) as res:
            game = json.loads(res.read())["game"]
        assert game["scoreboard"]["roll"] == [1, 2, 3, 4, 5, 5, "worm", "worm"]
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)


def test_check_config_accepts_the_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "--config", str(REPO / "firmware_config/companion.toml")]) == 0
    assert "ok" in capsys.readouterr().out


def test_check_config_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[pins]\nconfirm = 17\nundo = 99\nnext = 22\nreread = 23\n[camera]\nsource = "webcam"\n'
                   '[buttons]\ndebounce_ms = -5\n')
    assert main(["check-config", "--config", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "[pins]" in out and "[camera] source" in out and "[buttons]" in out


def test_check_config_refuses_a_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[server\nport = 80\n")
    assert main(["check-config", "--config", str(bad)]) == 1
    assert "not valid TOML" in capsys.readouterr().out


def state(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/state", timeout=5) as res:
        data: dict[str, Any] = json.loads(res.read())
        return data


def test_a_safe_start_that_finished_is_not_followed_by_another_after_a_kill(tmp_path: Path) -> None:
    # issue 53, item 8: every start after one crashed start came up in safe mode until a clean stop
    (tmp_path / MARKER).write_text("started earlier, pid 1")
    with daemon(tmp_path) as (proc, base):
        assert health(base)["safe_mode"] is True
        assert state(base)["status"]["banner"].startswith("Safe mode: the last start did not finish (it started")
        proc.kill()  # a pulled plug, after this start had finished
        proc.wait()
    assert not (tmp_path / MARKER).exists()
    with daemon(tmp_path) as (proc, base):
        assert health(base)["safe_mode"] is False  # the camera and buttons are back
        proc.kill()
        proc.wait()
    with daemon(tmp_path) as (proc, base):
        assert health(base)["safe_mode"] is False


def a_journal(folder: Path) -> Path:
    """A game of four entries, a backup after the second."""
    journal = Journal(folder / "companion.sqlite3")
    table = Table(journal)
    table.new_game("heckmeck", ["Ann", "Bob"])
    table.submit({"type": "roll", "dice": [1, 2, 4, 4, 5, 5, "worm", "worm"]}, device="t")
    table.submit({"type": "take", "face": 5}, device="t")
    take_backup(journal, folder / "backups")
    table.undo(device="t")
    table.redo(device="t")
    journal.close()
    return folder / "companion.sqlite3"


def cut_the_last_entries(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("DELETE FROM entries WHERE id > 2")
    db.commit()
    db.close()


def folder_at(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.mkdir()


BLOCKED = {
    "journal": lambda p: folder_at(p),
    "wal": lambda p: folder_at(Path(f"{p}-wal")),
    "shm": lambda p: folder_at(Path(f"{p}-shm")),
    "marker": lambda p: folder_at(p.parent / MARKER),
    "damaged": lambda p: ((p.parent / "damaged").write_text("a file\n"), cut_the_last_entries(p)),
}


@pytest.mark.parametrize("what", sorted(BLOCKED))
def test_a_folder_or_file_in_the_way_starts_safe_mode_not_a_crash_loop(tmp_path: Path, what: str) -> None:
    # issue 53, item 9: each of these crashed every start
    path = a_journal(tmp_path)
    BLOCKED[what](path)
    for _ in range(2):
        with daemon(tmp_path) as (proc, base):
            assert health(base)["safe_mode"] is True
            assert state(base)["status"]["banner"].startswith("Safe mode:")
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=15)
            assert proc.returncode == 0


def test_a_damaged_journal_beside_a_file_named_damaged_is_kept_and_restored(tmp_path: Path) -> None:
    path = a_journal(tmp_path)
    BLOCKED["damaged"](path)
    with daemon(tmp_path) as (proc, base):
        banner = state(base)["status"]["banner"]
        assert "A copy of its files is kept in" in banner and "damaged-" in banner
        request = urllib.request.Request(base + "/api/journal/recover", b"{}", {
            "X-Table-Pin": "1234", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as res:
            assert res.status == 200 and json.loads(res.read())["aside"].startswith(str(tmp_path / "damaged-"))
        assert state(base)["game"]["inputs"] == 2
    assert (tmp_path / "damaged").read_text() == "a file\n"


RO_ROOT = ["unshare", "-m", "--propagation", "private", "sh", "-c", 'mount -o remount,bind,ro / && exec "$0" "$@"']


def test_a_read_only_root_file_system_starts_safe_mode(tmp_path: Path) -> None:
    # issue 53, item 9: "No usable temporary directory" crashed every start
    if os.geteuid() != 0 or shutil.which("unshare") is None or subprocess.run([*RO_ROOT, "true"]).returncode:
        pytest.skip("needs root and a mount namespace")
    a_journal(tmp_path)
    port = free_port()
    proc = subprocess.Popen(
        [*RO_ROOT, sys.executable, "-m", "companion.cli", "run", "--mock", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline
            try:
                info = health(f"http://127.0.0.1:{port}")
                break
            except OSError:
                time.sleep(0.1)
        assert info["safe_mode"] is True
        view = state(f"http://127.0.0.1:{port}")
        assert "read-only" in view["status"]["banner"] and view["game"]["inputs"] == 2
    finally:
        proc.kill()
        proc.wait()
