"""Heckmeck (Pickomino) by Reiner Knizia."""

from companion.games.heckmeck.rules import HeckmeckRules, HeckmeckState

__all__ = ["HeckmeckRules", "HeckmeckState"]
