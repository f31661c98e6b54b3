"""The table's session: one game in play at a time, fed by the journal, watched by every page.

Inputs arrive from the tablet, the buttons and the camera; each is checked against the rules, committed
to the journal, and only then applied and announced. Undo and redo are journal entries like any other.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from companion.games import game_names, get_rules
from companion.games.base import Awaiting, Event, RuleViolation
from companion.games.messages import Msg, msg, raw
from companion.store.journal import Journal
from companion.store.record import Header, Timeline
from companion.table.button_state import Controls
from companion.table.game_view import game_view
from companion.table.odds_switch import ODDS_OFF, odds_settings
from companion.table.record_import import import_record
from companion.table.titles import check_title

LOG_LENGTH = 40
COMPANION_DEVICE = "companion:virtual-deck"


def _by_companion(entry: Mapping[str, Any]) -> bool:
    return str(entry.get("device", "")).startswith("companion:")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class NoGame(RuleViolation):
    """An input arrived while no game is open."""


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
        self.news: list[dict[str, Any]] = []  # the events entered since the last view was shown
        self.controls = Controls()
        self.status: dict[str, Any] = {}
        self.version = 0
        self._view: dict[str, Any] = {}
        self._batch = 0  # open _one_change blocks: their changes are shown once, when the outermost ends
        self._batched = False
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
                self.status["reopen"] = msg(
                    "The journal did not say which game was open; open one or start a new one."
                ).to_json()
            if game_id is not None and journal.game(game_id) is not None:
                try:
                    self.open(game_id)
                except (ValueError, RuleViolation) as exc:
                    # A stored game that no longer replays (an older rules version, say) must not stop the
                    # companion from starting: say so, and let the table open another game or a new one.
                    reason = exc.msg if isinstance(exc, RuleViolation) else raw(str(exc))
                    self.status["reopen"] = msg(
                        "Game {game} could not be reopened ({reason}); start or open another.",
                        game=game_id,
                        reason=reason,
                    ).to_json()
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
        if self._batch:
            self._batched = True
            return
        self.version += 1
        view = self._view = self.view()
        self.news = []  # shown once: the next view carries only what happens after this one
        for listener in list(self._listeners):
            listener(view)

    @contextmanager
    def _one_change(self) -> Iterator[None]:
        """Several entries shown to the pages as one change. A player's input and the companion's draws
        that follow it (an undo and the draws it takes back) are one step at the table: a page given
        the state in between would offer buttons for the companion's own draw, refused once tapped."""
        with self._lock:
            self._batch += 1
            try:
                yield
            finally:
                self._batch -= 1
                if not self._batch and self._batched:
                    self._batched = False
                    self._changed()  # also after a failure part-way: what was entered is shown

    # --- games -------------------------------------------------------------------------------
    def new_game(
        self,
        game: str,
        players: Iterable[str],
        options: Mapping[str, Any] | None = None,
        title: str = "",
        odds: Mapping[str, Any] | None = None,
        colours: list[str] | None = None,
    ) -> int:
        """``odds``: the game's odds switch (off unless the table chose otherwise at setup); ``colours``:
        each seat's colour on the pages (every tablet shows the same; checked by the caller)."""
        check_title(title)
        header = Header(game, tuple(players), dict(options or {}), title)
        rules = get_rules(game)
        timeline = Timeline(rules, header)  # raises RuleViolation for a bad setup, before any write
        settings = odds_settings(odds)
        with self._lock:
            game_id = self.journal.create_game(header, self.clock())
            self.journal.set_meta(f"odds:{game_id}", json.dumps(settings))
            if colours:
                self.journal.set_meta(f"colours:{game_id}", json.dumps(colours))
            self.journal.set_meta("current_game", str(game_id))
            with self._one_change():
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
                raise RuleViolation(msg("There is no game number {game}.", game=game_id))
            timeline = Timeline(get_rules(row.game), row.header)
            for entry in self.journal.entries(game_id):
                timeline.feed(entry)
            if self.journal.get_meta("current_game") != str(game_id):  # no write when reopening at start
                self.journal.set_meta("current_game", str(game_id))
            with self._one_change():
                self._install(game_id, timeline)
                self._changed()
                self._supply()

    def odds_settings(self, game_id: int | None = None) -> dict[str, Any]:
        """The odds switch of a game (the open one by default), as stored in the journal."""
        game_id = self.game_id if game_id is None else game_id
        stored = None if game_id is None else self.journal.get_meta(f"odds:{game_id}")
        return odds_settings(json.loads(stored)) if stored else dict(ODDS_OFF)

    def set_odds(self, change: Mapping[str, Any]) -> dict[str, Any]:
        """Turn the open game's odds on or off, or change where they show (the table, with the PIN)."""
        with self._lock:
            if self.game_id is None:
                raise NoGame(msg("No game is open; start a new game first."))
            settings = odds_settings({**self.odds_settings(), **change})
            self.journal.set_meta(f"odds:{self.game_id}", json.dumps(settings))
            self._changed()
            return settings

    def timeline_of(self, game_id: int) -> Timeline:
        """A game's history: the open one as it is, another replayed from the journal."""
        with self._lock:
            if game_id == self.game_id and self.timeline is not None:
                return self.timeline
        row = self.journal.game(game_id)
        if row is None:
            raise RuleViolation(msg("There is no game number {game}.", game=game_id))
        timeline = Timeline(get_rules(row.game), row.header)
        for entry in self.journal.entries(game_id):
            timeline.feed(entry)
        return timeline

    def _install(self, game_id: int, timeline: Timeline) -> None:
        self.status.pop("reopen", None)
        self.game_id = game_id
        self.timeline = timeline
        self.controls = Controls()
        self.log = []
        self.news = []
        for step in timeline.steps:
            self._log(step.events, step.entry, news=False)

    def import_record(self, lines: Iterable[str]) -> int:
        """Check a whole record by replay, then store it as a new game (all or nothing)."""
        return import_record(self.journal, lines, self.clock())

    # --- inputs ------------------------------------------------------------------------------
    def submit(self, action: Any, *, device: str) -> list[Event]:
        return self._enter({"type": "input", "action": action}, device)

    def submit_if(self, action: Any, *, device: str, allowed: Callable[[Timeline], None]) -> list[Event]:
        """``submit`` once ``allowed(timeline)`` did not raise, under the same lock: no input from
        elsewhere slips in between the check (a phone's rights) and the entry."""
        with self._lock:
            allowed(self._timeline())
            return self.submit(action, device=device)

    def undo(self, *, device: str) -> list[Event]:
        """Take back the last input the table made, with the companion's own inputs that followed it
        (a virtual-deck draw would otherwise just be drawn again)."""
        with self._lock:
            steps = self._timeline().steps
            automatic = 0
            while automatic < len(steps) and _by_companion(steps[-1 - automatic].entry):
                automatic += 1
            if automatic == len(steps):
                raise RuleViolation(msg("There is nothing to undo."))
            events: list[Event] = []
            with self._one_change():
                for _ in range(automatic + 1):
                    events += self._enter({"type": "undo"}, device, supply=False)
            return events

    def redo(self, *, device: str) -> list[Event]:
        with self._one_change():
            events = self._enter({"type": "redo"}, device, supply=False)
            timeline = self._timeline()
            while timeline.redo_stack and _by_companion(timeline.redo_stack[-1].entry):
                events += self._enter({"type": "redo"}, device, supply=False)
            return events

    def _supply(self) -> None:
        """Enter the inputs the rules ask the companion itself to supply (a virtual deck's draws)."""
        from companion.table.simulate import random_input

        for _ in range(1000):  # a bound, in case a game ever asked for itself forever
            awaiting = self.awaiting()
            if awaiting is None or awaiting.source != "companion" or self.timeline is None:
                return
            rules = self.timeline.rules
            action = random_input(self.timeline.header.game, rules, self.timeline.state, self.rng)
            self._enter({"type": "input", "action": rules.action_to_json(action)}, COMPANION_DEVICE, supply=False)

    def _enter(self, entry: dict[str, Any], device: str, *, supply: bool = True) -> list[Event]:
        with self._one_change():
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
            raise NoGame(msg("No game is open; start a new game first."))
        return self.timeline

    def _mark(self, game_id: int, timeline: Timeline | None) -> None:
        if timeline is None:
            return
        outcome = timeline.rules.outcome(timeline.state)
        summary = json.dumps(outcome.text.to_json(), ensure_ascii=False) if outcome else ""
        self.journal.mark(game_id, finished=outcome is not None, summary=summary)

    def _log(self, events: list[Event], entry: Mapping[str, Any], *, news: bool = True) -> None:
        for event in events:
            logged = {**event.to_json(), "device": entry.get("device"), "at": entry.get("at")}
            self.log.append(logged)
            if news:
                self.news.append(logged)
        del self.log[:-LOG_LENGTH]

    def secret_pending(self, game_id: int) -> bool:
        """Whether ``game_id`` stopped while players were making a secret choice (its record would
        give the choices made so far away), whether it is the open game or not."""
        try:
            timeline = self.timeline_of(game_id)
        except (ValueError, RuleViolation):
            return False  # no such game, or one that no longer replays: no state to give away
        return timeline.rules.awaiting(timeline.state).kind == "secret"

    # --- hardware controls -------------------------------------------------------------------
    def awaiting(self) -> Awaiting[Any] | None:
        return None if self.timeline is None else self.timeline.rules.awaiting(self.timeline.state)

    def set_reading(self, dice: list[dict[str, Any]] | None, note: Msg | None = None, *, trusted: bool = True) -> None:
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
                raise RuleViolation(msg("There is nothing to choose between right now."))
            self.controls.highlight = (self.controls.highlighted(awaiting) + 1) % len(awaiting.options)
            self._changed()

    def confirm(self, *, device: str) -> list[Event]:
        """The confirm button: take the camera's reading when dice are awaited, else the highlighted
        option (the usual choice until *next* moves the highlight)."""
        with self._lock:
            awaiting = self.awaiting()
            if awaiting is None:
                raise NoGame(msg("No game is open; start a new game first."))
            if awaiting.kind == "secret":
                raise RuleViolation(msg("This choice is secret: each player makes it on the tablet."))
            if awaiting.dice is not None and self.controls.reading is not None:
                if not self.controls.reading_trusted:
                    raise RuleViolation(self.controls.reading_note or msg("The camera reading needs checking."))
                return self.submit({"type": "roll", "dice": self.controls.reading}, device=device)
            chosen = self.controls.highlight is not None or any(o.recommended for o in awaiting.options)
            if awaiting.options and (chosen or awaiting.dice is None):
                index = self.controls.highlighted(awaiting)
                action = self._timeline().rules.action_to_json(awaiting.options[index].action)
                return self.submit(action, device=device)
            if awaiting.dice is not None:
                raise RuleViolation(msg("Waiting for the dice: roll them under the camera or enter them."))
            raise RuleViolation(msg("There is nothing to confirm."))

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
            base["game"] = game_view(self.game_id, timeline, self.controls, self.log, self.odds_settings())
            base["game"]["news"] = list(self.news)  # this change's events (the voice says them; companion/voice/)
            colours = self.journal.get_meta(f"colours:{self.game_id}")
            base["game"]["colours"] = json.loads(colours) if colours else None
            return base

