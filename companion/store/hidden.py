"""Seats whose player was deleted: their name leaves every way a past game is shown.

The journal's rows are never rewritten (their checksums, backups and the start-up check rely on that),
so a deleted player's name stays in the stored header; it is taken out on the way out instead. The
journal lists the hidden seats of a game in its ``meta`` table (key ``hidden:<game id>``, the seats as
"0,2") and every reading of a game row goes through :func:`hide`: the game opened on the table, its
story, statistics and record export, the games list and the history file all show the seat as
``#<seat number>`` (one label a seat, so two deleted players in one game stay two players, and the
game still replays: the rules want distinct names). The outcome's stored summary loses the name too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from companion.store.record import Header

PREFIX = "hidden:"


def key(game_id: int) -> str:
    return f"{PREFIX}{game_id}"


def seats_text(seats: Iterable[int]) -> str:
    return ",".join(str(s) for s in sorted(set(seats)))


def parse(text: str | None) -> set[int]:
    """The seats in a ``hidden:`` value; anything unreadable hides nothing more than it can read."""
    out = set()
    for part in (text or "").split(","):
        if part.strip().isdigit():
            out.add(int(part))
    return out


def label(seat: int, taken: Iterable[str] = ()) -> str:
    """``#2`` for the second seat; another ``#`` while a real player of the game has that name."""
    text, names = f"#{seat + 1}", set(taken)
    while text in names:
        text = "#" + text
    return text


def hide(header: Header, summary: str, seats: set[int]) -> tuple[Header, str]:
    """The header and stored summary with the names of ``seats`` replaced by their labels."""
    seats = {s for s in seats if 0 <= s < len(header.players)}
    if not seats:
        return header, summary
    kept = [n for i, n in enumerate(header.players) if i not in seats]
    names = {header.players[s]: label(s, kept) for s in seats}
    players = tuple(names.get(n, n) if i in seats else n for i, n in enumerate(header.players))
    return replace(header, players=players), _summary(summary, names)


def _summary(summary: str, names: dict[str, str]) -> str:
    """A summary is an outcome's message as JSON (its parameters hold names), or English text."""
    if not summary.startswith("{"):
        for name, shown in names.items():
            summary = summary.replace(name, shown)
        return summary
    try:
        data = json.loads(summary)
    except ValueError:
        return summary
    return json.dumps(_swap(data, names), ensure_ascii=False)


def _swap(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_swap(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _swap(v, names) for k, v in value.items()}
    return value
