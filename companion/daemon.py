"""``companion run``: wire journal, table, devices and web app, serve, and shut down cleanly.

Safe mode: a start marker is written before the journal check and the devices, and removed once the
companion serves, in safe mode too (companion/store/startup.py). If the marker is still there at the
next start, the last start crashed (a camera driver, a pin conflict...), so this start serves the
tablet only, with a banner, instead of joining a systemd restart loop. Any device failure during
start-up, and any journal the start-up check finds damaged or cannot open, does the same.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from companion.access.pin import TablePin
from companion.config import Config, ConfigError, load, override
from companion.games.messages import msg
from companion.store import BackupKeeper, Journal, Recovery, StartMarker, backups_of, open_at_start
from companion.table.session import Table
from companion.voice import problems as voice_problems
from companion.voice import start as start_voice
from companion.web import create_app
from companion.web.hub import Hub
from companion.web.limits import Limits

log = logging.getLogger("companion")
MARKER = "starting.marker"


class Shutdown(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM/SIGINT to leave the server loop.

    A KeyboardInterrupt on purpose: waitress's loop catches ``Exception`` around every channel
    callback (which would swallow a plain exception and keep serving) but lets this one through,
    shutting its task threads down on the way out.
    """


def on_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def tablet_urls(host: str, port: int) -> list[str]:
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    urls = [f"http://{socket.gethostname()}.local:{port}/"]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            urls.append(f"http://{s.getsockname()[0]}:{port}/")
    except OSError:
        pass
    urls.append(f"http://127.0.0.1:{port}/")
    return urls


OUTBUF_LIMIT = 256 * 1024  # bytes of one answer kept in memory before waitress spills it to a file
OUTBUF_WATERMARK = 32 * 1024  # bytes unsent to one connection before its stream waits for the page
# A connection's buffer keeps everything written to it, sent or not, until this much has gone through
# it and waitress starts a fresh one: at 256 KB, 200 tablets held ~100 MB of views they already had.
IDLE_TIMEOUT = 20  # seconds a connection may ask nothing and wait for nothing before it is closed


def dead_client_options() -> list[tuple[int, int, int]]:
    """Socket options for every accepted connection: a tablet that left the Wi-Fi is dropped within
    20 s of unanswered data (the event stream's 10 s heartbeats make sure there is some)."""
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 2), ("TCP_USER_TIMEOUT", 20000)):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    return options


def make_server(app: Any, config: Config, *, port: int | None = None, limits: Limits | None = None) -> Any:
    """The waitress server: event streams parked (no thread each; companion/web/parking.py), a few
    threads for inputs and page loads (the PIN's addresses first), connections, request sizes and times
    limited per client (companion/web/limits.py), dead clients dropped."""
    from companion.web.parking import create_server

    limits = limits or Limits(idle_s=IDLE_TIMEOUT)
    server = create_server(
        app,
        limits=limits,
        host=config.server.host,
        port=config.server.port if port is None else port,
        threads=config.threads,
        channel_timeout=IDLE_TIMEOUT,  # waitress's own idle check, behind the limits' stricter ones
        cleanup_interval=IDLE_TIMEOUT // 2,
        channel_request_lookahead=1,  # keep reading while a stream runs, so a closed page is noticed
        asyncore_use_poll=True,  # select() fails on a descriptor past 1023, which many connections reach
        # a page that reads slowly makes its stream wait (and skip to the newest view) instead of
        # piling views up in the server's memory: at most a few views are buffered per connection
        outbuf_high_watermark=OUTBUF_WATERMARK,
        outbuf_overflow=OUTBUF_LIMIT,
    )
    server.adj.socket_options = [*server.adj.socket_options, *dead_client_options()]
    return server


def run_daemon(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    started = time.monotonic()
    try:
        config = load(args.config)
        # Off a Pi everything is simulated unless a config file says which devices to use (a laptop
        # with a USB webcam, or the simulated camera through the real pipeline).
        mock = bool(args.mock) or (not on_pi() and args.config is None)
        config = override(config, host=args.host, port=args.port, data=args.data, mock=mock)
        if voice_problems(config.voice):
            raise ConfigError("; ".join(voice_problems(config.voice)))
    except ConfigError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    data_dir = Path(config.store.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    if not config.mock and not getattr(args, "allow_default_pin", False) and TablePin(
        config.server.pin, data_dir
    ).is_default:
        print(
            "companion: the table PIN is still the default 1234, so anyone on the Wi-Fi could change the game. "
            "Set [server] pin in the config file, or start with --allow-default-pin.",
            file=sys.stderr,
        )
        return 2
    marker = StartMarker(data_dir / MARKER)
    safe_reason = marker.previous()
    writable = marker.begin()
    opened = open_at_start(config.store.journal_path, writable=writable)
    journal = opened.journal
    table = Table(journal)
    hub = Hub(max_streams=config.server.sse_max_streams)
    keeper: list[BackupKeeper] = []

    def keep_backups(journal: Journal) -> None:
        for old in keeper:
            old.close()
        keeper[:] = [
            BackupKeeper(
                journal,
                backups_of(config.store.journal_path),
                every_s=config.store.backup_minutes * 60,
                keep=config.store.backups_kept,
            )
        ]

    if opened.refused is None:
        keep_backups(journal)
    elif safe_reason is None:
        safe_reason = opened.refused
    rig: Any = None
    if safe_reason is None:
        try:
            from companion.table.rig import Rig

            rig = Rig(table, config, mock=config.mock)
        except Exception as exc:  # a device that cannot start must not take the scoreboard with it
            log.exception("devices failed to start")
            safe_reason = f"the devices failed to start: {exc}"
    if opened.offer is not None:
        table.set_status("recovery", {"offer": opened.offer.name})  # the tablet's restore button
    if safe_reason is not None:
        log.warning("SAFE MODE (web only): %s", safe_reason)
        if opened.banner:
            banner = msg("{problem} Camera and buttons are off.", problem=opened.banner)
        else:
            banner = msg("Safe mode: {reason}. Camera and buttons are off; enter inputs here.", reason=safe_reason)
        table.set_status("banner", banner.to_json())
        table.set_status("devices", {"camera": "off (safe mode)", "buttons": "off (safe mode)"})
    voice = start_voice(config.voice, language=config.server.language, mock=config.mock,
                        data_dir=data_dir, lights=rig.devices.lights if rig is not None else None)
    table.subscribe(voice.observe)  # the Pi speaks; the pages get the words in the views (docs/voice.md)
    app = create_app(table, config=config, hub=hub, devices=rig, voice=voice)
    app.extensions["companion"]["recovery"] = Recovery(config.store.journal_path, opened, keep_backups)

    server = make_server(app, config)

    def stop(signum: int, frame: FrameType | None) -> None:
        # A second signal (Ctrl-C twice, a supervisor's repeat) must not cut the clean-up short (the
        # journal's close): from now on both are ignored; a clean-up that hangs still yields to SIGKILL.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        hub.close()  # end the event streams first: each page is told, and a generator stream frees its thread
        raise Shutdown(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    parts = table.status.get("devices", {})
    log.info("devices: %s", ", ".join(f"{k} {v}" for k, v in parts.items()) or "none")
    log.info("journal: %s", config.store.journal_path)
    for url in tablet_urls(config.server.host, config.server.port):
        print(f"Open on the tablet: {url}", flush=True)
    marker.finished()  # this start is done: a kill from now on is no reason for safe mode next time
    log.info("ready in %.2f s", time.monotonic() - started)
    try:
        server.run()
    except Shutdown:
        pass
    finally:
        log.info("stopping")
        hub.close()
        hub.wait_closed()
        if rig is not None:
            rig.close()
        voice.close()
        for running in keeper:
            running.close()
        server.close()
        table.journal.close()
        log.info("journal closed; bye")
    return 0
