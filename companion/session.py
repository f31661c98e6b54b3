"""The table's session: one game in play at a time, fed by the journal, watched by every page.

Inputs arrive from the tablet, the buttons and the camera; each is checked against the rules, committed
to the journal, and only then applied and announced. Undo and redo are journal entries like any other.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion.games import game_names, get_rules
from companion.games.base import Awaiting, Event, RuleViolation
from companion.journal import Journal
from companion.record import Header, RecordError, Timeline, check_entry, describe, read_lines

LOG_LENGTH = 40
COMPANION_DEVICE = "companion:virtual-deck"


def _by_companion(entry: Mapping[str, Any]) -> bool:
    return str(entry.get("device", "")).startswith("companion:")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class NoGame(RuleViolation):
    """An input arrived while no game is open."""


@dataclass
class Controls:
    """What the hardware buttons act on: the highlighted option and the camera's latest reading."""

    highlight: int | None = None  # None: the option the rules recommend
    reading: list[dict[str, Any]] | None = None
    reading_note: str = ""
    reading_trusted: bool = True  # False: wrong count or unsure dice; confirm will not take it


Listener = Callable[[dict[str, Any]], None]


class Table:
    """The companion's one table. Thread-safe: every change happens under one lock, in order."""

    def __init__(
        self, journal: Journal, *, clock: Callable[[], str] = utc_now, rng: random.Random | None = None
    ) -> None:
        self.journal = journal
        self.clock = clock
        self.rng = rng or random.SystemRandom()  # only for inputs the companion supplies (virtual decks)
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._input_listeners: list[Listener] = []
        self.game_id: int | None = None
        self.timeline: Timeline | None = None
        self.log: list[dict[str, Any]] = []
        self.controls = Controls()
        self.status: dict[str, Any] = {}
        self.version = 0
        self._view: dict[str, Any] = {}
        self.attach(journal)

    def attach(self, journal: Journal) -> None:
        """Play on ``journal`` from now on (at start, and after a backup was restored in safe mode)."""
        with self._lock:
            self.journal = journal
            self.game_id, self.timeline, self.log, self.controls = None, None, [], Controls()
            self.version = max(self.version, journal.last_entry_id())
            current = journal.get_meta("current_game")
            try:
                game_id = int(current) if current is not None else None
            except ValueError:
                game_id = None
                self.status["reopen"] = "The journal did not say which game was open; open one or start a new one."
            if game_id is not None and journal.game(game_id) is not None:
                try:
                    self.open(game_id)
                except (ValueError, RuleViolation) as exc:
                    # A stored game that no longer replays (an older rules version, say) must not stop the
                    # companion from starting: say so, and let the table open another game or a new one.
                    self.status["reopen"] = f"Game {game_id} could not be reopened ({exc}); start or open another."
            self._changed()

    # --- listening ---------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def on_input(self, listener: Listener) -> None:
        """``listener(action)`` after each input the table entered (not undo or redo), once it is in the
        journal: the camera's side learns the table's dice from the rolls it confirmed."""
        with self._lock:
            self._input_listeners.append(listener)

    def _changed(self) -> None:
        self.version += 1
        view = self._view = self.view()
        for listener in list(self._listeners):
            listener(view)

    # --- games -------------------------------------------------------------------------------
    def new_game(
        self, game: str, players: Iterable[str], options: Mapping[str, Any] | None = None, title: str = ""
    ) -> int:
        header = Header(game, tuple(players), dict(options or {}), title)
        rules = get_rules(game)
        timeline = Timeline(rules, header)  # raises RuleViolation for a bad setup, before any write
        with self._lock:
            game_id = self.journal.create_game(header, self.clock())
            self.journal.set_meta("current_game", str(game_id))
            self._install(game_id, timeline)
            self._changed()
            self._supply()
        return game_id

    def open(self, game_id: int) -> None:
        # All under the lock: an input entered between reading the journal and installing the game
        # would otherwise be in the journal but not on the table (and the next input would clash).
        with self._lock:
            row = self.journal.game(game_id)
            if row is None:
                raise RuleViolation(f"There is no game number {game_id}.")
            timeline = Timeline(get_rules(row.game), row.header)
            for entry in self.journal.entries(game_id):
                timeline.feed(entry)
            if self.journal.get_meta("current_game") != str(game_id):  # no write when reopening at start
                self.journal.set_meta("current_game", str(game_id))
            self._install(game_id, timeline)
            self._changed()
            self._supply()

    def _install(self, game_id: int, timeline: Timeline) -> None:
        self.status.pop("reopen", None)
        self.game_id = game_id
        self.timeline = timeline
        self.controls = Controls()
        self.log = []
        for step in timeline.steps:
            self._log(step.events, step.entry)

    def import_record(self, lines: Iterable[str]) -> int:
        """Check a whole record by replay, then store it as a new game (all or nothing)."""
        header: Header | None = None
        timeline: Timeline | None = None
        entries: list[dict[str, Any]] = []
        for number, data in read_lines(lines):
            try:
                if header is None:
                    header = Header.from_json(data)
                    timeline = Timeline(get_rules(header.game), header)
                    continue
                assert timeline is not None
                entry = check_entry(data)
                timeline.feed(entry)
                entries.append(entry)
            except (ValueError, RuleViolation) as exc:
                raise RecordError(number, str(exc)) from None
        if header is None:
            raise RecordError(1, "the record is empty; it needs at least a header line")
        assert timeline is not None
        outcome = timeline.rules.outcome(timeline.state)
        summary = outcome.text if outcome else ""
        # one transaction: a crash never leaves half a game behind
        return self.journal.import_game(header, self.clock(), entries, finished=outcome is not None, summary=summary)

    # --- inputs ------------------------------------------------------------------------------
    def submit(self, action: Any, *, device: str) -> list[Event]:
        return self._enter({"type": "input", "action": action}, device)

    def undo(self, *, device: str) -> list[Event]:
        """Take back the last input the table made, with the companion's own inputs that followed it
        (a virtual-deck draw would otherwise just be drawn again)."""
        with self._lock:
            steps = self._timeline().steps
            automatic = 0
            while automatic < len(steps) and _by_companion(steps[-1 - automatic].entry):
                automatic += 1
            if automatic == len(steps):
                raise RuleViolation("There is nothing to undo.")
            events: list[Event] = []
            for _ in range(automatic + 1):
                events += self._enter({"type": "undo"}, device, supply=False)
            return events

    def redo(self, *, device: str) -> list[Event]:
        with self._lock:
            events = self._enter({"type": "redo"}, device, supply=False)
            timeline = self._timeline()
            while timeline.redo_stack and _by_companion(timeline.redo_stack[-1].entry):
                events += self._enter({"type": "redo"}, device, supply=False)
            return events

    def _supply(self) -> None:
        """Enter the inputs the rules ask the companion itself to supply (a virtual deck's draws)."""
        from companion.simulate import random_input

        for _ in range(1000):  # a bound, in case a game ever asked for itself forever
            awaiting = self.awaiting()
            if awaiting is None or awaiting.source != "companion" or self.timeline is None:
                return
            rules = self.timeline.rules
            action = random_input(self.timeline.header.game, rules, self.timeline.state, self.rng)
            self._enter({"type": "input", "action": rules.action_to_json(action)}, COMPANION_DEVICE, supply=False)

    def _enter(self, entry: dict[str, Any], device: str, *, supply: bool = True) -> list[Event]:
        with self._lock:
            timeline = self._timeline()
            entry = {**entry, "device": device, "at": self.clock()}
            step = timeline.check(entry)  # RuleViolation here: nothing written, nothing changed
            if step is not None:
                entry = step.entry  # the canonical spelling of the action
            self.journal.append(self.game_id or 0, timeline.entries, entry)  # durable before acknowledged
            events = timeline.commit(entry, step)
            self.controls = Controls()  # a new input: no highlight, and a camera reading is used once
            self._log(events, entry)
            if timeline.rules.outcome(timeline.state) is not None or entry["type"] == "undo":
                self._mark(self.game_id or 0, timeline)
            self._changed()
            if entry["type"] == "input" and device != COMPANION_DEVICE:
                for listener in list(self._input_listeners):
                    listener(entry["action"])
            if supply:
                self._supply()
            return events

    def _timeline(self) -> Timeline:
        if self.timeline is None:
            raise NoGame("No game is open; start a new game first.")
        return self.timeline

    def _mark(self, game_id: int, timeline: Timeline | None) -> None:
        if timeline is None:
            return
        outcome = timeline.rules.outcome(timeline.state)
        self.journal.mark(game_id, finished=outcome is not None, summary=outcome.text if outcome else "")

    def _log(self, events: list[Event], entry: Mapping[str, Any]) -> None:
        for event in events:
            self.log.append({**event.to_json(), "device": entry.get("device"), "at": entry.get("at")})
        del self.log[:-LOG_LENGTH]

    def timeline_of(self, game_id: int) -> Timeline | None:
        """The open game's timeline, or another game's replayed (None: no such game, or it no longer
        replays)."""
        with self._lock:
            if game_id == self.game_id:
                return self.timeline
            row = self.journal.game(game_id)
            if row is None:
                return None
            try:
                timeline = Timeline(get_rules(row.game), row.header)
                for entry in self.journal.entries(game_id):
                    timeline.feed(entry)
            except (ValueError, RuleViolation):
                return None
            return timeline

    def secret_pending(self, game_id: int) -> bool:
        """Whether ``game_id`` stopped while players were making a secret choice (its record would
        give the choices made so far away), whether it is the open game or not."""
        timeline = self.timeline_of(game_id)
        return timeline is not None and timeline.rules.awaiting(timeline.state).kind == "secret"

    # --- hardware controls -------------------------------------------------------------------
    def awaiting(self) -> Awaiting[Any] | None:
        return None if self.timeline is None else self.timeline.rules.awaiting(self.timeline.state)

    def set_reading(self, dice: list[dict[str, Any]] | None, note: str = "", *, trusted: bool = True) -> None:
        """The camera's latest settled reading; ``note`` says what is wrong with an untrusted one."""
        with self._lock:
            self.controls.reading = dice
            self.controls.reading_note = note
            self.controls.reading_trusted = trusted
            self._changed()

    def set_status(self, key: str, value: Any) -> None:
        with self._lock:
            self.status[key] = value
            self._changed()

    def next_option(self, *, device: str) -> None:
        with self._lock:
            awaiting = self.awaiting()
            if awaiting is None or not awaiting.options or awaiting.kind == "secret":
                raise RuleViolation("There is nothing to choose between right now.")
            self.controls.highlight = (self._highlight(awaiting) + 1) % len(awaiting.options)
            self._changed()

    def confirm(self, *, device: str) -> list[Event]:
        """The confirm button: take the camera's reading when dice are awaited, else the highlighted
        option (the usual choice until *next* moves the highlight)."""
        with self._lock:
            awaiting = self.awaiting()
            if awaiting is None:
                raise NoGame("No game is open; start a new game first.")
            if awaiting.kind == "secret":
                raise RuleViolation("This choice is secret: each player makes it on the tablet.")
            if awaiting.dice is not None and self.controls.reading is not None:
                if not self.controls.reading_trusted:
                    raise RuleViolation(self.controls.reading_note or "The camera reading needs checking.")
                return self.submit({"type": "roll", "dice": self.controls.reading}, device=device)
            chosen = self.controls.highlight is not None or any(o.recommended for o in awaiting.options)
            if awaiting.options and (chosen or awaiting.dice is None):
                index = self._highlight(awaiting)
                action = self._timeline().rules.action_to_json(awaiting.options[index].action)
                return self.submit(action, device=device)
            if awaiting.dice is not None:
                raise RuleViolation("Waiting for the dice: roll them under the camera or enter them.")
            raise RuleViolation("There is nothing to confirm.")

    def _highlight(self, awaiting: Awaiting[Any]) -> int:
        if not awaiting.options:
            return 0
        if self.controls.highlight is not None:
            return self.controls.highlight % len(awaiting.options)
        return next((i for i, o in enumerate(awaiting.options) if o.recommended), 0)

    # --- views -------------------------------------------------------------------------------
    def latest_view(self) -> dict[str, Any]:
        """The view as of the last change, without waiting for the lock (a slow disk holding the lock
        across a sync must not stall the pages)."""
        return self._view or self.view()

    def view(self) -> dict[str, Any]:
        """Everything a page shows, in one JSON object (sent whole on every change)."""
        with self._lock:
            base: dict[str, Any] = {
                "version": self.version,
                "games": game_names(),
                "status": dict(self.status),
                "game": None,
            }
            timeline = self.timeline
            if timeline is None:
                return base
            rules, state = timeline.rules, timeline.state
            awaiting = rules.awaiting(state)
            highlight = self._highlight(awaiting)
            outcome = rules.outcome(state)
            last = timeline.steps[-1] if timeline.steps else None
            base["game"] = {
                "id": self.game_id,
                "name": timeline.header.game,
                "title": rules.title,
                "players": list(timeline.header.players),
                "options": dict(timeline.header.options),
                "inputs": len(timeline.steps),
                "can_undo": bool(timeline.steps),
                "undo_label": describe(last) if last else None,
                "undo_warns": bool(last and last.entry.get("action", {}).get("type") == "roll"),
                "can_redo": bool(timeline.redo_stack),
                "awaiting": awaiting_json(rules, awaiting, highlight, self.controls.highlight is not None),
                "scoreboard": rules.scoreboard(state),
                "outcome": None if outcome is None else {"winners": list(outcome.winners), "text": outcome.text},
                "log": list(self.log),
                "reading": self.controls.reading,
                "reading_note": self.controls.reading_note,
            }
            return base


def awaiting_json(rules: Any, awaiting: Awaiting[Any], highlight: int = 0, chosen: bool = False) -> dict[str, Any]:
    """``highlight`` is the option *confirm* would take; ``chosen`` says a player moved it there."""
    return {
        "kind": awaiting.kind,
        "players": list(awaiting.players),
        "prompt": awaiting.prompt,
        "options": [
            {
                "action": rules.action_to_json(o.action),
                "label": o.label,
                "recommended": o.recommended,
                "highlighted": i == highlight and (chosen or o.recommended),
            }
            for i, o in enumerate(awaiting.options)
        ],
        "dice": None if awaiting.dice is None else awaiting.dice.to_json(),
        "card": None if awaiting.card is None else awaiting.card.to_json(),
    }
