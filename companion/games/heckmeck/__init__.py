"""Heckmeck (Pickomino) by Reiner Knizia."""

from companion.games.heckmeck.rules import HeckmeckRules
from companion.games.heckmeck.state import HeckmeckState

__all__ = ["HeckmeckRules", "HeckmeckState"]
