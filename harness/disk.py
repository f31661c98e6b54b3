"""Disk trouble: full, read-only, and stalled.

* full: the daemon's data folder on a small tmpfs, filled up; inputs must be refused with 503 and a
  clear message (never a 500), change nothing, and work again once space is freed, with nothing
  acknowledged lost. Without the right to mount (not root), SQLite's ``max_page_count`` makes the
  journal's file full instead (the same SQLITE_FULL error path).
* read-only: the tmpfs remounted read-only and the daemon restarted on it: it must start (safe mode,
  banner), show the games, and refuse inputs with 503.
* stall: a write that hangs for ``stall_s`` seconds while holding the table's lock; the page's state
  and a new event stream must still answer at once.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness.common import PIN, Daemon, emit
from harness.kills import next_input


def _mount(point: Path, options: str) -> bool:
    if os.geteuid() != 0:
        return False
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True)
    return result.returncode == 0


def _umount(point: Path) -> None:
    subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb") as handle, contextlib.suppress(OSError):
        while True:
            handle.write(b"\0" * 65536)
            handle.flush()
    return filler


def full_and_read_only(inputs: int = 20) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="harness-disk-") as tmp:
        point = Path(tmp) / "mnt"
        point.mkdir()
        if not _mount(point, "size=4m,mode=0755"):
            return {"mode": "skipped: mounting a small tmpfs needs root"} | full_in_process(Path(tmp))
        try:
            data = point / "data"
            daemon = Daemon(data)
            assert daemon.wait_ready(60), "the daemon did not start on the tmpfs"
            daemon.request("POST", "/api/games", {"game": "heckmeck", "players": ["Ann", "Bob"]})
            acked = _play(daemon, inputs)
            filler = _fill(point)
            _, before = daemon.request("GET", "/api/state")
            codes: list[int] = []
            messages: set[str] = set()
            rng = random.Random(5)
            for _ in range(inputs):
                path, body = next_input(before, rng)
                status, answer = daemon.request("POST", path, body)
                codes.append(status)
                if isinstance(answer, dict) and status >= 500:
                    messages.add(answer.get("error", "")[:80])
            status, answer = daemon.request("POST", "/api/games", {"game": "heckmeck", "players": ["C", "D"]})
            codes.append(status)
            _, after = daemon.request("GET", "/api/state")
            filler.unlink()
            acked += _play(daemon, 5)
            _, listing = daemon.request("GET", "/api/games")
            have = sum(g["entries"] for g in listing["games"])
            out["full"] = {
                "mode": "tmpfs 4 MB",
                "codes": sorted(set(codes)),
                "server_errors": sum(c >= 500 and c != 503 for c in codes),
                "messages": sorted(messages),
                "changed_while_full": before["game"]["inputs"] != after["game"]["inputs"],
                "acknowledged": acked,
                "in_journal": have,
                "lost": max(0, acked - have),
            }
            daemon.stop()
            # read-only: the same folder, remounted
            subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
            daemon = _daemon_on_readonly(data)
            ready = daemon.wait_ready(60)
            ro: dict[str, Any] = {"started": ready}
            if ready:
                _, health = daemon.request("GET", "/api/health")
                _, listing = daemon.request("GET", "/api/games")
                status, answer = daemon.request("POST", "/api/undo")
                _, state = daemon.request("GET", "/api/state")
                ro.update(
                    safe_mode=health["safe_mode"],
                    banner=(state["status"].get("banner") or "")[:100],
                    games_shown=len(listing["games"]),
                    entries_shown=sum(g["entries"] for g in listing["games"]),
                    input_code=status,
                    input_message=(answer or {}).get("error", "")[:100] if isinstance(answer, dict) else "",
                )
            daemon.stop()
            shutil.rmtree(Path(daemon.log.name).parent, ignore_errors=True)  # its config and log
            out["read_only"] = ro
        finally:
            _umount(point)
    return out


def _daemon_on_readonly(data: Path) -> Daemon:
    """The daemon's config and log cannot live on the read-only mount: put them beside it."""
    import harness.common as common

    elsewhere = Path(tempfile.mkdtemp(prefix="harness-ro-"))
    port = common.free_port()
    config = elsewhere / "ro.toml"
    config.write_text(
        f'[server]\nhost = "127.0.0.1"\nport = {port}\npin = "{PIN}"\n[store]\ndata_dir = "{data}"\n'
        '[camera]\nsource = "none"\n'
    )
    daemon = Daemon.__new__(Daemon)
    daemon.data, daemon.port = data, port
    daemon.log = open(elsewhere / "ro.log", "ab")  # noqa: SIM115
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    daemon.proc = subprocess.Popen(
        [os.sys.executable, "-m", "companion", "run", "--mock", "--config", str(config)],  # type: ignore[attr-defined]
        cwd=common.ROOT, env=env, stdout=daemon.log, stderr=subprocess.STDOUT,
    )
    return daemon


def _play(daemon: Daemon, inputs: int) -> int:
    rng = random.Random(3)
    acked = 0
    _, view = daemon.request("GET", "/api/state")
    for _ in range(inputs):
        path, body = next_input(view, rng)
        status, _ = daemon.request("POST", path, body)
        acked += status == 200
        _, view = daemon.request("GET", "/api/state")
    return acked


def full_in_process(folder: Path) -> dict[str, Any]:
    """No tmpfs: the journal's own page limit stands for a full disk (SQLite raises the same error)."""
    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.session import Table
    from companion.web import create_app

    config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=str(folder)), mock=True)
    journal = Journal(folder / "j.sqlite3")
    table = Table(journal)
    client = create_app(table, config=config).test_client()
    auth = {"X-Table-Pin": PIN}
    client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"]}, headers=auth)
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    before = table.view()["game"]["inputs"]
    codes = set()
    for _ in range(200):
        roll = {"type": "roll", "dice": [1, 2, 3, 4, 5, 1, 2, 3]}
        res = client.post("/api/input", json={"action": roll}, headers=auth)
        codes.add(res.status_code)
        if res.status_code == 503:
            break
        before = table.view()["game"]["inputs"]
    message = res.get_json()["error"]
    after = table.view()["game"]["inputs"]
    journal.close()
    return {"full": {"mode": "max_page_count", "codes": sorted(codes), "message": message[:80],
                     "changed_while_full": before != after}}


def stall(stall_s: float = 10.0) -> dict[str, Any]:
    """A write hangs while holding the lock: do reads and new streams wait for it?"""
    import sys

    from companion.config import Config, ServerConfig, StoreConfig
    from companion.store.journal import Journal
    from companion.table.session import Table
    from companion.web import create_app

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from live import EventStream, serve  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory(prefix="harness-stall-") as tmp:
        config = Config(server=ServerConfig(pin=PIN), store=StoreConfig(data_dir=tmp), mock=True)
        journal = Journal(Path(tmp) / "j.sqlite3")
        table = Table(journal)
        table.new_game("heckmeck", ["Ann", "Bob"])
        app = create_app(table, config=config)
        real_write = journal._write

        def stalled_write(sql: str, args: tuple[Any, ...]) -> Any:
            time.sleep(stall_s)  # the disk does not answer (held under the table's and the journal's locks)
            return real_write(sql, args)

        journal._write = stalled_write  # type: ignore[method-assign]
        with serve(app) as base:
            worker = threading.Thread(
                target=lambda: table.submit({"type": "roll", "dice": [1, 2, 3, 4, 5, 1, 2, 3]}, device="t")
            )
            worker.start()
            time.sleep(0.3)
            import urllib.request

            started = time.monotonic()
            with urllib.request.urlopen(base + "/api/state", timeout=stall_s + 5) as response:
                response.read()
            state_s = time.monotonic() - started
            started = time.monotonic()
            page = EventStream(base, timeout=stall_s + 5)
            page.next()
            stream_s = time.monotonic() - started
            page.close()
            worker.join()
        journal.close()
    return {"stall": {"stall_s": stall_s, "state_answered_s": round(state_s, 3), "new_stream_s": round(stream_s, 3)}}


def run(stall_s: float = 10.0, inputs: int = 20) -> dict[str, Any]:
    result = {"part": "disk", **full_and_read_only(inputs), **stall(stall_s)}
    emit(**result)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--stall", type=float, default=10.0)
    args = parser.parse_args()
    print(json.dumps(run(args.stall)))
