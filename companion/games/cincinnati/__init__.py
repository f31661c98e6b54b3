"""Cincinnati (AMIGO, 2006): three tables, five dice each, twelve rounds of cards, chips and duels."""

from __future__ import annotations
