"""A table that plays by ear: whole games of Heckmeck and Las Vegas with the camera and the buttons alone,
each choice taken from what the voice said, never from the tablet (mock pins, the simulated camera).

The game is set up on the tablet (the buttons cannot name the players); from then on the player only
rolls dice under the camera (``simulate_roll``: the simulated hands) and presses buttons, choosing from
what was heard: every option the *next* button highlights is spoken, with its place among the others.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from voice_play import Recorder  # type: ignore[import-not-found]

from companion.config import Config
from companion.table.rig import Rig
from companion.table.session import Table
from companion.voice import Speaker, Voice, read

PLACE = re.compile(r"^(?P<label>.+), (?:(?P<index>\d+) of (?P<count>\d+)|the only choice)\.$")


class Listener:
    """The player at the table: hears the speaker, presses the buttons, rolls under the camera."""

    def __init__(self, table: Table, rig: Rig) -> None:
        self.table, self.rig = table, rig
        self.ear = Recorder()
        settings = read({"enabled": True, "preset": "everything", "output": "silent", "cue": "both"})
        self.voice = Voice(settings, Speaker(self.ear, settings, "en"), lights=rig.devices.lights)
        table.subscribe(self.voice.observe)
        self.since = 0
        self.presses = 0

    def hear(self) -> list[tuple[str, str]]:
        """What was said since the last time the player listened."""
        assert self.voice.speaker is not None and self.voice.speaker.wait_idle(10)
        new = self.ear.heard[self.since:]
        self.since = len(self.ear.heard)
        return [(u.kind, u.text) for u in new]

    def press(self, button: str) -> list[tuple[str, str]]:
        self.presses += 1
        self.rig.press(button)
        heard = self.hear()
        return heard

    def roll(self) -> list[tuple[str, str]]:
        self.rig.simulate_roll()  # the dice thrown into the tray; the camera reads them
        return self.hear()

    def choose(self, heard: list[tuple[str, str]], want: int | None) -> list[tuple[str, str]]:
        """Walk the options with *next*, hearing each, until option ``want`` (1-based) is highlighted,
        then confirm. ``want`` None: hear every option first and take the last one heard."""
        option = [t for k, t in heard if k == "options"][-1]
        place = PLACE.match(option)
        assert place, option
        count = int(place["count"] or 1)
        index = int(place["index"] or 1)
        target = count if want is None else want
        steps = 0
        while index != target:
            said = [t for k, t in self.press("next") if k == "options"]
            assert len(said) == 1, f"next must say the highlighted option, said {said}"
            found = PLACE.match(said[0])
            assert found and int(found["count"]) == count, said
            assert int(found["index"]) == index % count + 1, said  # the highlight moved by one, and was said
            index = int(found["index"])
            steps += 1
            assert steps <= count
        return self.press("confirm")


@pytest.fixture
def rig(table: Table, config: Config) -> Iterator[Rig]:
    r = Rig(table, config, mock=True, seed=7)
    yield r
    r.close()


def asked(heard: list[tuple[str, str]]) -> str:
    return next((t for k, t in reversed(heard) if k == "ask"), "")


def test_heckmeck_is_played_by_ear(table: Table, rig: Rig) -> None:
    player = Listener(table, rig)
    table.new_game("heckmeck", ["Anna", "Benno"])
    heard = player.hear()
    rng = random.Random(1)
    for _ in range(3000):
        if any(k == "end" for k, _ in heard):
            break
        question = asked(heard)
        if re.search(r": roll \d+ dice?\.$", question) or "Roll the dice, or press next" in str(heard[-1:]):
            heard = player.roll()
            assert any(k == "dice" and t.startswith("The camera reads") for k, t in heard), heard
            heard = player.press("confirm")
        elif "keep all dice of one face" in question:
            options = [t for k, t in heard if k == "options"]
            worm = 0 if not options else None
            heard = player.choose(heard, worm if rng.random() < 0.5 else None)
        else:  # a tile can be taken: the usual choice is highlighted, confirm takes it
            option = ([t for k, t in heard if k == "options"] or [f"nothing: {heard}"])[-1]
            assert option.startswith(("Take tile", "Steal tile")), (question, option)
            heard = player.press("confirm")
    else:
        raise AssertionError("the game did not end")
    assert table.timeline is not None and table.timeline.rules.outcome(table.timeline.state) is not None
    devices = {e["device"] for e in table.journal.entries(table.game_id or 0)}
    assert devices == {"button:confirm", "button:next"} or devices == {"button:confirm"}, devices
    assert any(t.startswith("The game is over") for k, t in heard if k == "end")
    given = player.voice.cue.given
    assert all(given) and len(given) == player.presses  # every press (each one taken) had its cue


def test_las_vegas_is_played_by_ear(table: Table, rig: Rig) -> None:
    player = Listener(table, rig)
    table.new_game("lasvegas", ["Anna", "Benno"], {"neutral_dice": True, "virtual_deck": True})
    heard = player.hear()
    rng = random.Random(2)
    for _ in range(3000):
        if any(k == "end" for k, _ in heard):
            break
        question = asked(heard)
        if ": roll " in question:
            heard = player.roll()
            assert any(k == "dice" for k, _ in heard), heard
            heard = player.press("confirm")
        else:
            assert "choose a number" in question, question
            count = PLACE.match([t for k, t in heard if k == "options"][-1])
            assert count, heard
            heard = player.choose(heard, rng.randint(1, int(count["count"] or 1)))
    else:
        raise AssertionError("the game did not end")
    outcome = table.timeline.rules.outcome(table.timeline.state) if table.timeline else None
    assert outcome is not None
    devices = {e["device"] for e in table.journal.entries(table.game_id or 0)}
    assert devices <= {"button:confirm", "button:next", "companion:virtual-deck"}, devices
    assert [k for k, _ in heard].count("end") == 1


def test_a_refused_press_is_heard_and_buzzed(table: Table, rig: Rig) -> None:
    player = Listener(table, rig)
    table.new_game("heckmeck", ["Anna", "Benno"])
    player.hear()
    heard = player.press("undo")
    assert ("notice", "There is nothing to undo.") in heard
    assert player.voice.cue.given == [False]
    heard = player.press("confirm")  # nothing rolled yet: waiting for the dice
    assert ("notice", "Waiting for the dice: roll them under the camera or enter them.") in heard
