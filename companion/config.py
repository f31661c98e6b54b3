"""The companion's settings: built-in defaults, overridden by a TOML file, overridden by the command line.

The file's tables are ``[server]``, ``[store]``, ``[camera]``, ``[pins]`` and ``[buttons]``
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
    sse_max_streams: int = 8
    threads: int = 0  # 0: enough for sse_max_streams plus a few for requests
    language: str = "en"  # the table's language when a tablet's browser asks for none we have


@dataclass(frozen=True)
class StoreConfig:
    data_dir: str = "data"

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
    mock: bool = False
    source: str = "built-in defaults"

    @property
    def threads(self) -> int:
        return self.server.threads or self.server.sse_max_streams + 4


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
    unknown = set(data) - {"server", "store", "camera", "pins", "buttons"}
    if unknown:
        raise ConfigError(f"{path}: unknown tables: {', '.join(sorted(unknown))}")
    config = Config(
        server=_section(ServerConfig, data.get("server", {}), "server"),
        store=_section(StoreConfig, data.get("store", {}), "store"),
        camera=dict(data.get("camera", {})),
        pins=dict(data.get("pins", {})),
        buttons=dict(data.get("buttons", {})),
        source=str(path),
    )
    check(config)
    return config


def check(config: Config) -> None:
    server = config.server
    if not 0 < server.port < 65536:
        raise ConfigError(f"[server] port {server.port} is not a port number")
    if not server.pin.strip():
        raise ConfigError("[server] pin must not be empty: it guards changes to the game")
    if server.sse_max_streams < 1:
        raise ConfigError("[server] sse_max_streams must be at least 1")
    if server.language not in LANGUAGES:
        raise ConfigError(f"[server] language must be one of {', '.join(LANGUAGES)}, not {server.language!r}")


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
