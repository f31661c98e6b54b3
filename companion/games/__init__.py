"""The rules engines, one package per game, and the registry the session looks them up in."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from companion.games.base import Rules
from companion.games.messages import msg
from companion.games.violations import RuleViolation

# name -> "module:Class"; imported on first use so the daemon only loads the games it plays.
_REGISTRY: dict[str, str] = {
    "cincinnati": "companion.games.cincinnati.rules:CincinnatiRules",
    "heckmeck": "companion.games.heckmeck.rules:HeckmeckRules",
    "lasvegas": "companion.games.lasvegas.rules:LasVegasRules",
    "lordsofvegas": "companion.games.lordsofvegas.rules:LordsOfVegasRules",
}


def game_names() -> list[str]:
    """Games whose engine is installed."""
    names = []
    for name, target in _REGISTRY.items():
        try:
            found = importlib.util.find_spec(target.split(":")[0]) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            names.append(name)
    return names


def get_rules(name: str) -> Rules[Any, Any]:
    """The rules object for a game, or a RuleViolation naming the games that exist."""
    target = _REGISTRY.get(name)
    if target is None or name not in game_names():
        raise RuleViolation(msg("There is no game {name}; choose one of: {games}.", name=name, games=game_names()))
    module_name, cls_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    rules: Rules[Any, Any] = cls()
    return rules
