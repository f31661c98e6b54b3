"""What the harness parts share: a journal with games in it, a real daemon to start and kill."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "harness", "Content-Type": "application/json"}


def emit(**figures: Any) -> None:
    print(json.dumps(figures), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(folder: Path, port: int, **server: Any) -> Path:
    lines = ["[server]", 'host = "127.0.0.1"', f"port = {port}", f'pin = "{PIN}"']
    lines += [f"{k} = {json.dumps(v)}" for k, v in server.items()]
    lines += ["[store]", f'data_dir = "{folder}"', "[camera]", 'source = "none"']
    path = folder.parent / f"{folder.name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


class Daemon:
    """``companion run --mock`` on a free port with its own data folder."""

    def __init__(
        self, data: Path, *, port: int | None = None, extra: tuple[str, ...] = (), root: Path = ROOT,
        wrap: tuple[str, ...] = (), **server: Any,
    ) -> None:
        """``root``: the checkout whose ``companion`` runs (another commit's, to compare); ``wrap``: a
        command the daemon runs under (e.g. in a mount namespace whose root is read-only)."""
        self.data = data
        self.port = port or free_port()
        data.mkdir(parents=True, exist_ok=True)
        config = write_config(data, self.port, **server)
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
        self.log = open(data.parent / f"{data.name}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*wrap, sys.executable, "-m", "companion", "run", "--mock", "--config", str(config), *extra],
            cwd=root, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 20) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                status, _ = self.request("GET", "/api/health", timeout=1)
                if status == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        timeout: float = 10,
        headers: dict[str, str] | None = None,
        raw: str | bytes | None = None,
    ) -> tuple[int, Any]:
        """``body`` is sent as JSON, ``raw`` as it is."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = raw if raw is not None else None if body is None else json.dumps(body)
            conn.request(method, path, body=data, headers=headers if headers is not None else AUTH)
            response = conn.getresponse()
            raw = response.read()
            kind = response.getheader("Content-Type") or ""
            if "json" not in kind or "ndjson" in kind:
                return response.status, raw
            try:
                return response.status, json.loads(raw) if raw else None
            except ValueError:
                return response.status, raw
        finally:
            conn.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log.close()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self.log.close()
        return code


@contextmanager
def running(data: Path, **kwargs: Any) -> Iterator[Daemon]:
    daemon = Daemon(data, **kwargs)
    try:
        yield daemon
    finally:
        daemon.stop()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used: less swayed by a busy machine than latency."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def heckmeck_roll(rng: random.Random, count: int = 8) -> dict[str, Any]:
    return {"type": "roll", "dice": [rng.choice([1, 2, 3, 4, 5, "worm"]) for _ in range(count)]}
