"""A whole game told again from its journal, for the tablet's history, results and chart.

The page keeps only the latest view; the full story (every input, including the ones later undone,
and each player's score after every step) is replayed here from the journal on demand, so nothing
extra has to be stored while the game is played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import get_rules
from companion.store.journal import GameRow
from companion.store.record import Timeline

MAX_POINTS = 400  # the chart needs no more; a long game is thinned evenly


def scores(game: str, board: Mapping[str, Any]) -> list[float]:
    """What decides each player's place, as one number: worms, money, points."""
    players: Sequence[Mapping[str, Any]] = board.get("players", [])
    key = {"heckmeck": "worms", "lasvegas": "money", "cincinnati": "score", "lordsofvegas": "points"}.get(game)
    return [float(p.get(key, 0) or 0) if key else 0.0 for p in players]


@dataclass
class _Item:
    text: dict[str, Any]  # a message (rendered in the page's language on the way out)
    kind: str
    at: str
    device: str
    players: list[int]
    undone: bool = False


@dataclass
class _Story:
    items: list[_Item] = field(default_factory=list)
    active: list[list[int]] = field(default_factory=list)  # item indexes of each step in the timeline
    redo: list[list[int]] = field(default_factory=list)


def _round_of(game: str, board: Mapping[str, Any], turns: int, n: int) -> int:
    if game in ("lasvegas", "cincinnati"):
        return int(board.get("round", 1) or 1)
    return turns // max(n, 1) + 1  # Heckmeck, Lords of Vegas: a round is every player's turn once


def game_history(row: GameRow, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``entries``: every entry of one game in journal order. Returns the story and the score series."""
    rules = get_rules(row.game)
    timeline = Timeline(rules, row.header)
    n = len(row.header.players)
    story = _Story()
    for entry in entries:
        kind = entry.get("type")
        events = timeline.feed(entry)
        if kind == "undo":
            undone = story.active.pop() if story.active else []
            for i in undone:
                story.items[i].undone = True
            story.redo.append(undone)
            continue
        if kind == "redo":
            redone = story.redo.pop() if story.redo else []
            for i in redone:
                story.items[i].undone = False
            story.active.append(redone)
            continue
        story.redo.clear()
        indexes = []
        for event in events:
            data = event.data or {}
            seats = [v for k, v in data.items() if k in ("player", "seat", "winner") and isinstance(v, int)]
            story.items.append(
                _Item(event.text.to_json(), event.kind, str(entry.get("at", "")), str(entry.get("device", "")), seats)
            )
            indexes.append(len(story.items) - 1)
        story.active.append(indexes)

    # the score after every step that counts (undone ones left out), and at the end of each round
    series: list[dict[str, Any]] = []
    turns = 0
    start = rules.scoreboard(timeline.initial)
    series.append({"step": 0, "round": _round_of(row.game, start, 0, n), "scores": scores(row.game, start)})
    # a round's row is the score after the last step made *in* it: the step that closes a round (Las
    # Vegas's payout, Heckmeck's last turn) already shows the next round on its board
    rounds: dict[int, list[float]] = {series[0]["round"]: series[0]["scores"]}
    for number, step in enumerate(timeline.steps, start=1):
        turns += sum(1 for e in step.events if e.kind in ("turn_ended", "failed", "claimed", "stole", "next_turn"))
        board = rules.scoreboard(step.state)
        after = scores(row.game, board)
        rounds[series[-1]["round"]] = after
        series.append({"step": number, "round": _round_of(row.game, board, turns, n), "scores": after})
    if len(series) > MAX_POINTS:
        every = len(series) / MAX_POINTS
        series = [series[int(i * every)] for i in range(MAX_POINTS)] + [series[-1]]
    times = [str(e.get("at", "")) for e in entries if e.get("at")]
    return {
        "id": row.id,
        "game": row.game,
        "players": list(row.header.players),
        "created": row.created,
        "started": times[0] if times else row.created,
        "ended": times[-1] if times else row.created,
        "finished": row.finished,
        "entries": [item.__dict__ for item in story.items],
        "series": series,
        "rounds": [{"round": r, "scores": s} for r, s in sorted(rounds.items())],
    }
