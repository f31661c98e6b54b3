"""The companion's settings: built-in defaults, overridden by a TOML file, overridden by the command line.

The file's tables are ``[server]``, ``[store]``, ``[camera]``, ``[pins]``, ``[buttons]`` and ``[voice]``
(see firmware_config/companion.toml for every key). Hardware tables are kept as plain mappings here
and validated by the hardware package, which knows what a pin map means.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.i18n.catalogs import LANGUAGES


class ConfigError(ValueError):
    """A setting that cannot work; the message names the key."""


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = "1234"  # the table PIN: needed to change a game, not to watch one
    sse_max_streams: int = 24  # every player's phone (up to 7 seats) and the tablets, with room to spare
    threads: int = 0  # 0: the automatic count (REQUEST_THREADS); watching pages hold none
    hosts: list[str] = field(default_factory=list)  # extra names the tablet uses (besides <hostname>.local)
    language: str = "en"  # the table's language when a tablet's browser asks for none we have


@dataclass(frozen=True)
class StoreConfig:
    data_dir: str = "data"
    backup_minutes: int = 10  # a backup of the journal every this many minutes of play (and after each game)
    backups_kept: int = 10  # the newest this many backups are kept, in <data_dir>/backups

    @property
    def journal_path(self) -> Path:
        return Path(self.data_dir) / "companion.sqlite3"


@dataclass(frozen=True)
class Config:
    server: ServerConfig = field(default_factory=ServerConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    camera: dict[str, Any] = field(default_factory=dict)
    pins: dict[str, Any] = field(default_factory=dict)
    buttons: dict[str, Any] = field(default_factory=dict)
    voice: dict[str, Any] = field(default_factory=dict)  # checked by companion.voice.problems
    mock: bool = False
    source: str = "built-in defaults"

    @property
    def threads(self) -> int:
        return self.server.threads or REQUEST_THREADS


def _section(cls: type[Any], data: Any, name: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"[{name}] must be a table")
    known = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(known)
    if unknown:
        raise ConfigError(f"[{name}] has unknown keys: {', '.join(sorted(unknown))}")
    defaults = cls()
    for key, value in data.items():
        expected = type(getattr(defaults, key))
        if not isinstance(value, expected) or isinstance(value, bool) != (expected is bool):
            raise ConfigError(f"[{name}] {key} must be {expected.__name__}, not {value!r}")
    return cls(**data)


def not_allowed(path: str | Path) -> str:
    """One line for a file this user may not read: the installer's config is root:companion 0640."""
    return (f"{path}: permission denied; join the companion group (sudo usermod -a -G companion,gpio,video "
            f"$USER, then log in again; install.sh does this for the user who ran it) or use sudo")


def load(path: str | Path | None = None) -> Config:
    """Read ``path`` (or return the defaults); ConfigError says which key is wrong."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except PermissionError:
        raise ConfigError(not_allowed(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    unknown = set(data) - {"server", "store", "camera", "pins", "buttons", "voice"}
    if unknown:
        raise ConfigError(f"{path}: unknown tables: {', '.join(sorted(unknown))}")
    config = Config(
        server=_section(ServerConfig, data.get("server", {}), "server"),
        store=_section(StoreConfig, data.get("store", {}), "store"),
        camera=dict(data.get("camera", {})),
        pins=dict(data.get("pins", {})),
        buttons=dict(data.get("buttons", {})),
        voice=dict(data.get("voice", {})),
        source=str(path),
    )
    check(config)
    return config


MAX_STREAMS = 256  # open pages at once: each holds a connection and its send buffer, not a thread
REQUEST_THREADS = 6  # server threads for inputs, page loads and camera frames (a watching page is parked)
LEAST_THREADS = 2  # with one, a slow request (a camera capture) would hold up every other
SYSTEM_DIRS = ("/proc", "/sys", "/dev", "/run")


def check(config: Config) -> None:
    """Refuse settings with which the companion would start and then fail (or never answer)."""
    server = config.server
    if not 0 < server.port < 65536:
        raise ConfigError(f"[server] port {server.port} is not a port number")
    if not server.pin.strip():
        raise ConfigError("[server] pin must not be empty: it guards changes to the game")
    if not 1 <= server.sse_max_streams <= MAX_STREAMS:
        raise ConfigError(f"[server] sse_max_streams must be between 1 and {MAX_STREAMS}, not {server.sse_max_streams}")
    if server.language not in LANGUAGES:
        raise ConfigError(f"[server] language must be one of {', '.join(LANGUAGES)}, not {server.language!r}")
    if server.threads != 0 and not LEAST_THREADS <= server.threads <= MAX_STREAMS + 64:
        raise ConfigError(
            f"[server] threads must be 0 (automatic: {REQUEST_THREADS}) or from {LEAST_THREADS} (so that one slow "
            f"request never holds up the others) to {MAX_STREAMS + 64}, not {server.threads}"
        )
    check_host(server.host)
    for name in server.hosts:
        if not isinstance(name, str) or not name.strip() or any(c in name for c in "/ :@"):
            raise ConfigError(f"[server] hosts holds {name!r}, which is not a host name")
    check_data_dir(config.store.data_dir)
    if not 1 <= config.store.backup_minutes <= 24 * 60:
        raise ConfigError("[store] backup_minutes must be between 1 and 1440")
    if not 1 <= config.store.backups_kept <= 1000:
        raise ConfigError("[store] backups_kept must be between 1 and 1000")


def check_host(host: str) -> None:
    """The listening address: an IP address of this machine's kind, or a name that resolves."""
    import ipaddress
    import socket

    if not host.strip():
        raise ConfigError('[server] host must not be empty (use "0.0.0.0" for every interface)')
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise ConfigError(f"[server] host {host!r} is not an IP address nor a name this machine resolves") from None


def check_data_dir(data_dir: str) -> None:
    if not data_dir.strip():
        raise ConfigError("[store] data_dir must not be empty: it is where every game is kept")
    path = Path(data_dir).expanduser().resolve()
    if any(path == Path(d) or Path(d) in path.parents for d in SYSTEM_DIRS):
        raise ConfigError(f"[store] data_dir {data_dir!r} is inside a system folder; the games need a real disk")
    if path.exists() and not path.is_dir():
        raise ConfigError(f"[store] data_dir {data_dir!r} is a file, not a folder")


def override(config: Config, **changes: Any) -> Config:
    """Apply command-line values (None means: keep the file's)."""
    server = config.server
    if changes.get("host") is not None:
        server = replace(server, host=changes["host"])
    if changes.get("port") is not None:
        server = replace(server, port=changes["port"])
    store = config.store if changes.get("data") is None else replace(config.store, data_dir=changes["data"])
    mock = bool(changes.get("mock")) or config.mock
    out = replace(config, server=server, store=store, mock=mock)
    check(out)
    return out
