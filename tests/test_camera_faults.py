"""The real camera path (watcher -> settle -> reader) on the simulated camera, with faults on demand."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.config import Config, StoreConfig
from companion.games.base import RuleViolation
from companion.i18n.render import localize
from companion.table.rig import Rig
from companion.table.session import Table
from companion.table.table_dice import PROFILE_FILE
from companion.vision import FACES as FACES_ALL
from companion.vision.profile_adapt import Profile
from companion.vision.render import RenderDie

FACES = (1, 2, 3, 4, 5, "worm", "worm", 3)


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def rig(table: Table, tmp_path: Path) -> Iterator[Rig]:
    """Not mock mode: the camera is opened from the config and read by the vision pipeline."""
    config = Config(camera={"source": "simulated"}, store=StoreConfig(data_dir=str(tmp_path)))
    r = Rig(table, config, mock=False, seed=5)
    table.new_game("heckmeck", ["Ann", "Bob"])
    wait_for(lambda: r.readings.watcher.source is not None)
    yield r
    r.close()


def frames_later(rig: Rig, n: int) -> None:
    start = rig.readings.watcher.frames
    wait_for(lambda: rig.readings.watcher.frames >= start + n)


def test_still_dice_are_read_once_settled(rig: Rig, table: Table) -> None:
    rig.readings.watcher.source.show([RenderDie(f, "white") for f in FACES])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    game = table.view()["game"]
    assert len(game["reading"]) == 8
    assert table.view()["status"]["devices"]["camera"] == "simulated: ok"


def test_rolling_dice_give_no_reading(rig: Rig, table: Table) -> None:
    camera = rig.readings.watcher.source
    camera.rolling_frames = 10_000  # the dice never stop
    camera.roll(8, worms=True)
    frames_later(rig, 12)
    assert table.view()["game"]["reading"] is None
    assert rig.readings.watcher._settle.state in ("moving", "hand")


def test_blurred_frames_are_not_read_as_a_roll(rig: Rig, table: Table) -> None:
    camera = rig.readings.watcher.source
    camera.show([RenderDie(f, "white") for f in FACES], moving=10_000)
    frames_later(rig, 10)
    assert table.view()["game"]["reading"] is None


def test_unplugged_mid_game_then_back(rig: Rig, table: Table) -> None:
    camera = rig.readings.watcher.source
    camera.unplug()
    wait_for(lambda: "failing" in table.view()["status"]["devices"]["camera"])
    # the table carries on by hand
    table.submit({"type": "roll", "dice": list(FACES)}, device="tablet:a")
    assert table.view()["game"]["inputs"] == 1
    camera.plug_in()  # the watcher reopens a fresh source after its back-off
    wait_for(lambda: table.view()["status"]["devices"]["camera"] == "simulated: ok", timeout=30)


def test_a_reading_with_a_missing_die_is_never_confirmed(rig: Rig, table: Table) -> None:
    rig.readings.watcher.source.show([RenderDie(f, "white") for f in FACES[:7]])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    note = localize(table.view()["game"]["reading_note"], "en")
    assert "7 dice but 8" in note
    with pytest.raises(RuleViolation, match="7 dice but 8"):
        table.confirm(device="button:confirm")
    assert table.view()["game"]["inputs"] == 0


def test_a_cocked_die_is_flagged_or_read_right(rig: Rig, table: Table) -> None:
    """Never a confident wrong value: either the reading is marked unsure, or it is the true roll."""
    rig.readings.watcher.source.show([RenderDie(f, "white") for f in FACES], cocked=[2])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    game = table.view()["game"]
    if not game["reading_note"]:
        assert sorted(str(d["face"]) for d in game["reading"]) == sorted(str(f) for f in FACES)


def test_a_hand_resting_in_the_tray_gives_no_reading(rig: Rig, table: Table) -> None:
    camera = rig.readings.watcher.source
    camera.show([RenderDie(f, "white") for f in FACES])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    table.set_reading(None)
    camera.hand = True  # a hand reaches in and stays still over the dice
    rig.readings.watcher.reset()
    frames_later(rig, 15)
    assert table.view()["game"]["reading"] is None


def test_confirmed_rolls_teach_the_reader_the_tables_dice(rig: Rig, table: Table, tmp_path: Path) -> None:
    rig.readings.watcher.source.show([RenderDie(f, "white") for f in FACES])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    reading = rig.readings.view.reading
    read = [d.value for d in reading.dice]
    # The table corrects one die on the tablet (in the reading's order) and enters the roll.
    entered: list[int | str] = list(read)
    entered[0] = 1 if entered[0] != 1 else 2  # Heckmeck dice: 1-5 and the worm
    table.submit({"type": "roll", "dice": entered}, device="tablet:a")
    rig.drain()
    profile = Profile.load(tmp_path / PROFILE_FILE)
    assert len(profile) == 8 and rig.dice.profile.profile.labels == profile.labels
    assert profile.labels == [FACES_ALL.index(f) for f in entered]
    # The next reading uses the profile (a symbol face was confirmed, so worms stay possible).
    assert rig.dice.profile.profile.symbol_odds() == 1.0


def test_a_roll_unlike_the_reading_teaches_nothing(rig: Rig, table: Table, tmp_path: Path) -> None:
    rig.readings.watcher.source.show([RenderDie(f, "white") for f in FACES])
    wait_for(lambda: table.view()["game"]["reading"] is not None)
    # Typed in by hand while the camera still shows other dice: most faces differ from the reading.
    table.submit({"type": "roll", "dice": [1, 1, 1, 1, 1, 2, 2, 2]}, device="tablet:a")
    rig.drain()
    assert not (tmp_path / PROFILE_FILE).exists() and len(rig.dice.profile.profile) == 0
