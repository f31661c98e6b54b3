"""Shared by the voice tests: a table with the voice listening, played to the end, and what it said."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from companion.games.messages import msg
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import random_input
from companion.voice import Speaker, Voice, read
from companion.voice.backends import FolderBackend, Utterance

PLAYERS = ["Anna", "Benno", "Carla"]
OPTIONS: dict[str, dict[str, Any]] = {
    "heckmeck": {},
    "lasvegas": {"neutral_dice": True, "virtual_deck": True, "money_open": True},
    "cincinnati": {"virtual_deck": True},
    "lordsofvegas": {"virtual_deck": True},
}


class HeldBackend:
    """A speaker that takes ``hold`` seconds per text, or until released; records what it said and what
    was cut off."""

    name = "held"

    def __init__(self, hold: float = 2.0) -> None:
        self.hold = hold
        self.release = threading.Event()
        self.started = threading.Event()
        self.said: list[Utterance] = []
        self.cut: list[Utterance] = []

    def say(self, utterance: Utterance, cancel: threading.Event) -> None:
        self.started.set()
        if cancel.wait(0) or self._held(cancel):
            self.cut.append(utterance)
            return
        self.said.append(utterance)

    def _held(self, cancel: threading.Event) -> bool:
        """True when cut off while held back."""
        waited = 0.0
        while waited < self.hold and not self.release.is_set():
            if cancel.wait(0.01):
                return True
            waited += 0.01
        return False


def folder_voice(folder: Path, lang: str, preset: str = "everything") -> tuple[Voice, FolderBackend]:
    """Mock mode's voice writing texts only (WAVs for thousands of lines would take minutes)."""
    settings = read({"enabled": True, "preset": preset, "output": "folder", "language": lang})
    backend = FolderBackend(folder, wav=False)
    return Voice(settings, Speaker(backend, settings, lang)), backend


def play_game(table: Table, voice: Voice, game: str, seed: int, *, players: list[str] | None = None) -> None:
    """A whole simulated game, every change heard to its end before the next (as a patient table would):
    now and then a highlight moved by *next*, a camera reading (a sure one, an unsure one, one die short),
    a refused press and an undo, so every kind of announcement has its moment."""
    rng = random.Random(seed)
    speaker = voice.speaker
    assert speaker is not None

    def step(action: Any, *args: Any, **kwargs: Any) -> None:
        action(*args, **kwargs)
        assert speaker.wait_idle(10), "the speaker did not finish"

    step(table.new_game, game, players or PLAYERS, OPTIONS[game])
    for count in range(5000):
        timeline = table.timeline
        assert timeline is not None
        choice = random_input(game, timeline.rules, timeline.state, rng)
        if choice is None:
            return
        awaiting = table.awaiting()
        assert awaiting is not None
        if count % 5 == 2 and awaiting.kind == "choice" and len(awaiting.options) > 1:
            step(table.next_option, device="button:next")
        if awaiting.dice is not None and count % 6 == 1 and game == "heckmeck":
            _readings(table, awaiting.dice.count, step)
        action = timeline.rules.action_to_json(choice)
        step(table.submit, action, device="tablet")
        if count == 7:
            step(table.undo, device="button:undo")
            step(table.submit, action, device="tablet")
        if count == 9:
            refused = msg("{device}: {problem}", device="button:undo", problem=msg("There is nothing to undo."))
            step(table.set_status, "notice", {"text": refused.to_json(), "at": float(count)})
    raise AssertionError(f"{game} did not end")


def _readings(table: Table, count: int, step: Any) -> None:
    short = [{"face": 2, "colour": "white"}] * (count - 1)
    unsure = [{"face": 5, "colour": "white", "confidence": 0.99, "state": "settled"}] * count
    unsure[-1] = {"face": 3, "colour": "white", "confidence": 0.4, "state": "settled"}
    sure = [{"face": f, "colour": "white"} for f in ([5, 5, 4, "worm", 1, 1, 2, 3] * 2)[:count]]
    if count > 1:
        step(table.set_reading, short, msg("short"), trusted=False)
    step(table.set_reading, unsure, msg("unsure"), trusted=False)
    step(table.set_reading, sure)


def new_table(folder: Path) -> Table:
    folder.mkdir(parents=True, exist_ok=True)
    return Table(Journal(folder / "journal.sqlite3"), rng=random.Random(0))


class Recorder:
    """A speaker that says nothing and remembers every utterance at once (an ear for the tests)."""

    name = "recorder"

    def __init__(self) -> None:
        self.heard: list[Utterance] = []

    def say(self, utterance: Utterance, cancel: threading.Event) -> None:
        self.heard.append(utterance)
