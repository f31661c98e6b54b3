"""What a page shows of the open game, in one JSON object: who plays, what the rules await and which
option the buttons would take, the scoreboard, the turn log, the camera's reading, the odds switch."""

from __future__ import annotations

from typing import Any

from companion.games.base import Awaiting
from companion.store.record import Timeline, describe
from companion.table.button_state import Controls


def game_view(game_id: int | None, timeline: Timeline, controls: Controls, log: list[dict[str, Any]],
              odds: dict[str, Any]) -> dict[str, Any]:
    """The ``game`` part of the table's view (``Table.view``)."""
    rules, state = timeline.rules, timeline.state
    awaiting = rules.awaiting(state)
    highlight = controls.highlighted(awaiting)
    outcome = rules.outcome(state)
    last = timeline.steps[-1] if timeline.steps else None
    return {
        "id": game_id,
        "name": timeline.header.game,
        "title": rules.title,
        "players": list(timeline.header.players),
        "options": dict(timeline.header.options),
        "inputs": len(timeline.steps),
        "can_undo": bool(timeline.steps),
        "undo_label": describe(last).to_json() if last else None,
        "undo_warns": bool(last and last.entry.get("action", {}).get("type") == "roll"),
        "can_redo": bool(timeline.redo_stack),
        "awaiting": awaiting_json(rules, awaiting, highlight, controls.highlight is not None),
        "scoreboard": rules.shown(state),
        "outcome": None if outcome is None else outcome.to_json(),
        "log": list(log),
        "reading": controls.reading,
        "reading_note": None if controls.reading_note is None else controls.reading_note.to_json(),
        "odds": odds,
    }


def awaiting_json(rules: Any, awaiting: Awaiting[Any], highlight: int = 0, chosen: bool = False) -> dict[str, Any]:
    """``highlight`` is the option *confirm* would take; ``chosen`` says a player moved it there."""
    return {
        "kind": awaiting.kind,
        "players": list(awaiting.players),
        "prompt": awaiting.prompt.to_json(),
        "options": [
            {
                "action": rules.action_to_json(o.action),
                "label": o.label.to_json(),
                "recommended": o.recommended,
                "highlighted": i == highlight and (chosen or o.recommended),
            }
            for i, o in enumerate(awaiting.options)
        ],
        "dice": None if awaiting.dice is None else awaiting.dice.to_json(),
        "card": None if awaiting.card is None else awaiting.card.to_json(),
    }
