"""The guided calibration in mock mode: the real reader reads rendered rolls, the table corrects and
confirms them, and they are learnt into the table's profile; refused readings change nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config, StoreConfig
from companion.games.base import MalformedAction, RuleViolation
from companion.i18n.render import localize
from companion.table.calibration import HECKMECK, DiceSet, Progress
from companion.table.rig import Rig
from companion.table.session import Table
from companion.table.table_dice import PROFILE_FILE
from companion.vision.render import RenderDie


@pytest.fixture
def rig(table: Table, config: Config) -> Iterator[Rig]:
    r = Rig(table, config, mock=True, seed=5)
    yield r
    r.close()


def profile_file(config: Config) -> Path:
    return Path(config.store.data_dir) / PROFILE_FILE


def shown(rig: Rig) -> list[Any]:
    reading = rig.calibration_status()["reading"]
    assert reading is not None, "no reading shown"
    return [d["value"] for d in reading["dice"]]


def other(face: Any, faces: tuple[Any, ...] = (1, 2, 3, 4, 5, 6)) -> Any:
    return next(f for f in faces if f != face)


def test_a_roll_is_read_corrected_confirmed_and_learnt(rig: Rig, table: Table, config: Config) -> None:
    status = rig.start_calibration(DiceSet(count=5))
    assert status["active"] and status["rolls"] == 0 and status["reading"] is None and status["can_roll"]
    rig.calibration_roll()
    status = table.view()["status"]["calibration"]  # pushed to every page with the view
    reading = status["reading"]
    assert len(reading["dice"]) == 5 and reading["note"] is None and reading["size"] == [640, 480]
    assert all(len(d["box"]) == 4 and 0 <= d["confidence"] <= 1 for d in reading["dice"])
    assert rig.frame_jpeg()[:2] == b"\xff\xd8"  # type: ignore[index]  # the calibration reading, annotated

    faces = [d["value"] for d in reading["dice"]]
    faces[0] = other(faces[0])  # the table corrects one die
    assert rig.confirm_calibration(faces, reading["number"]) == 5
    status = rig.calibration_status()
    assert (status["rolls"], status["dice"], status["reading"]) == (1, 5, None)
    assert sum(status["seen"].values()) == 5 and status["seen"][str(faces[0])] >= 1
    assert status["learnt"] == 5 and status["saved"] and profile_file(config).exists()
    labels = rig.dice.profile.profile.labels
    assert labels[:5] == [(1, 2, 3, 4, 5, 6, "worm").index(f) for f in faces]  # the corrected face is learnt
    assert labels[5:].count(8) == 5 * 5 and set(labels[5:]) <= {7, 8}  # then windows on pips, and not dice


def test_readings_go_to_the_calibration_not_the_game(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.start_calibration(DiceSet(HECKMECK, 8))
    rig.calibration_roll()
    assert set(shown(rig)) <= set(HECKMECK)  # read with the set's faces: no 6
    assert table.view()["game"]["reading"] is None
    with pytest.raises(RuleViolation, match="being taught"):
        rig.simulate_roll()
    rig.stop_calibration()
    assert rig.calibration_status()["active"] is False
    assert rig.simulate_roll() is not None and table.view()["game"]["reading"] is not None


def test_a_reading_with_a_face_missing_changes_nothing(rig: Rig, config: Config) -> None:
    rig.start_calibration(DiceSet())
    rig.calibration_roll()
    before = rig.calibration_status()
    with pytest.raises(RuleViolation, match="give one face for each"):
        rig.confirm_calibration(shown(rig)[:-1])
    assert rig.calibration_status() == before  # the reading is still there to correct properly
    assert not profile_file(config).exists()


def test_a_reading_corrected_die_by_die_is_learnt_however_wrong(rig: Rig, config: Config) -> None:
    """Dice the reader gets mostly wrong are the ones the calibration is for (a game's roll, typed in
    while the camera may show another, is still not learnt when more than half differs)."""
    rig.start_calibration(DiceSet())
    rig.calibration_roll()
    faces = [other(f) for f in shown(rig)]  # every die corrected
    assert rig.confirm_calibration(faces) == len(faces)
    assert rig.calibration_status()["rolls"] == 1
    assert profile_file(config).exists()
    assert rig.dice.profile.profile.labels == [(1, 2, 3, 4, 5, 6).index(f) for f in faces]


def test_a_roll_with_dice_missing_is_refused(rig: Rig) -> None:
    rig.start_calibration(DiceSet(count=5))
    rig.devices.camera.show([RenderDie(f) for f in (1, 2, 6, 4)])  # one die fell off the tray
    rig.reread()
    assert "sees 4 dice but the set has 5" in localize(rig.calibration_status()["reading"]["note"], "en")
    with pytest.raises(RuleViolation, match="sees 4 dice"):
        rig.confirm_calibration(shown(rig))
    assert rig.calibration_status()["rolls"] == 0


def test_each_reading_is_learnt_once_and_only_while_current(rig: Rig) -> None:
    with pytest.raises(RuleViolation, match="start the calibration"):
        rig.confirm_calibration([1, 2, 3])
    rig.start_calibration(DiceSet())
    with pytest.raises(RuleViolation, match="no reading"):
        rig.confirm_calibration([1, 2, 3])
    rig.calibration_roll()
    first = rig.calibration_status()["reading"]["number"]
    rig.calibration_roll()  # re-rolled before the first was confirmed
    with pytest.raises(RuleViolation, match="new roll since"):
        rig.confirm_calibration(shown(rig), first)
    with pytest.raises(MalformedAction, match="cannot show worm"):
        rig.confirm_calibration(["worm"] * 5)
    rig.confirm_calibration(shown(rig), first + 1)
    with pytest.raises(RuleViolation, match="no reading"):
        rig.confirm_calibration([1, 2, 3, 4, 5])
    assert rig.calibration_status()["rolls"] == 1


def test_the_confirm_button_takes_the_reading_as_read(rig: Rig, table: Table) -> None:
    table.new_game("heckmeck", ["Ann", "Bob"])
    rig.start_calibration(DiceSet())
    rig.calibration_roll()
    rig.press("confirm")
    assert rig.calibration_status()["rolls"] == 1
    assert table.view()["game"]["inputs"] == 0  # the game was not touched


def test_forgetting_the_dice_deletes_the_profile(rig: Rig, config: Config) -> None:
    assert rig.forget_dice() is False  # nothing learnt yet: nothing to delete
    rig.start_calibration(DiceSet())
    rig.calibration_roll()
    rig.confirm_calibration(None)
    assert profile_file(config).exists()
    assert rig.forget_dice() is True
    status = rig.calibration_status()
    assert not profile_file(config).exists() and status["learnt"] == 0 and not status["saved"]
    assert (status["rolls"], status["dice"], status["active"]) == (0, 0, True)


def test_calibration_needs_a_camera_and_starts_once(table: Table, config: Config, rig: Rig) -> None:
    rig.start_calibration(DiceSet())
    with pytest.raises(RuleViolation, match="already being taught"):
        rig.start_calibration(DiceSet())
    rig.devices.mock = False  # a real rig whose camera is a real one: it cannot roll by itself
    with pytest.raises(RuleViolation, match="roll the dice into the tray"):
        rig.calibration_roll()
    rig.stop_calibration()
    rig.devices.camera = None
    with pytest.raises(RuleViolation, match="No camera"):
        rig.start_calibration(DiceSet())


@pytest.mark.parametrize(
    ("faces", "count", "message"),
    [
        ((1,), None, "at least two"),
        ((1, 1, 2), None, "at least two different"),
        ((1, 7), None, "not 7"),
        ((True, 2), None, "not True"),
        ((1, "1"), None, "not 1"),
        ((1, 2), 0, "from 1 to 16"),
        ((1, 2), 17, "from 1 to 16"),
    ],
)
def test_a_dice_set_is_checked(faces: tuple[Any, ...], count: int | None, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        DiceSet(faces, count)


def test_enough_means_every_face_seen_twice_over_five_rolls() -> None:
    progress = Progress()
    dice = DiceSet((1, 2))
    for _ in range(4):
        progress.add([1, 2])
    assert not progress.enough(dice)  # every face twice, but only 4 rolls
    progress.add([1, 1])
    assert progress.enough(dice) and progress.seen == {"1": 6, "2": 4}
    assert not progress.enough(DiceSet((1, 2, 3)))


def test_the_real_camera_path_shows_settled_readings_to_the_calibration(table: Table, tmp_path: Path) -> None:
    """Not mock mode: the watcher's settled reading goes to the calibration, read with the set's faces."""
    config = Config(camera={"source": "simulated"}, store=StoreConfig(data_dir=str(tmp_path)))
    rig = Rig(table, config, mock=False, seed=5)
    try:
        table.new_game("heckmeck", ["Ann", "Bob"])
        rig.start_calibration(DiceSet(HECKMECK, 8))
        assert not rig.calibration_status()["can_roll"]
        deadline = time.monotonic() + 20
        while rig.readings.watcher.source is None:
            assert time.monotonic() < deadline, "the camera did not open"
            time.sleep(0.02)
        rig.readings.watcher.source.show([RenderDie(f) for f in (1, 2, 3, 4, 5, "worm", "worm", 3)])
        while rig.calibration_status()["reading"] is None:
            assert time.monotonic() < deadline, "no reading shown to the calibration"
            time.sleep(0.02)
        assert sorted(map(str, shown(rig))) == sorted(["1", "2", "3", "3", "4", "5", "worm", "worm"])
        assert table.view()["game"]["reading"] is None  # the game was not offered it
        assert rig.confirm_calibration(shown(rig)) == 8
        assert rig.dice.profile.profile.dice == 8 and profile_file(config).exists()
    finally:
        rig.close()


def test_the_calibrations_rolls_teach_the_detector_when_it_is_done(rig: Rig, config: Config) -> None:
    from tests.vision.test_teach_detector import fake_teach

    rig.start_calibration(DiceSet(count=4))
    fake, asked = fake_teach(True), []

    def command(*args: Any) -> list[str]:
        asked.append(args[5])  # the faces the set has, for the classifier's last layers
        return fake(*args)

    rig.dice.table_detector.command = command
    for _ in range(3):
        rig.calibration_roll()
        rig.confirm_calibration(None)
    rolls = rig.dice.rolls.rolls()
    assert len(rolls) == 3 and all(len(r.dice) == 4 for r in rolls)  # whole frames, every die placed
    assert rolls[0].frame.shape == (480, 640, 3)
    rig.stop_calibration()  # Done: the detector is taught in the background
    rig.dice.table_detector.wait(60)
    detector = rig.calibration_status()["detector"]
    assert detector["kept"] and not detector["teaching"] and (detector["right"], detector["dice"]) == (10, 10)
    assert rig.dice.reader().detector.head is not None  # the reader finds dice with the table's head
    assert asked == [[1, 2, 3, 4, 5, 6]]
    profile = rig.dice.patches()  # ... and reads faces through the classifier's refitted last layers
    assert profile.tail is not None and profile.reads_deeper(rig.dice.reader().classifier)
    assert rig.forget_dice() and rig.dice.table_detector.head() is None and len(rig.dice.rolls) == 0
    assert rig.dice.patches().tail is None


def test_the_faces_told_by_their_marks_are_read_with_until_forgotten(rig: Rig, caplog: Any) -> None:
    from tests.vision.test_teach_marks_job import fake_teach

    rig.start_calibration(DiceSet(count=4))
    rig.dice.table_detector.command = fake_teach("marks")
    for _ in range(3):
        rig.calibration_roll()
        rig.confirm_calibration(None)
    rig.stop_calibration()
    rig.dice.table_detector.wait(60)
    assert rig.dice.patches().marks and rig.dice.patches().tail is None  # the reader tells faces by their marks
    detector = rig.calibration_status()["detector"]
    assert (detector["right"], detector["dice"], detector["depth"]) == (10, 10, 3)  # read so on the held-back rolls
    rig.dice.table_detector.marks_path.write_text("{damaged")
    assert not rig.dice.patches().marks and "face marks" in caplog.text  # read without them, and said so
    rig.dice.table_detector.marks_path.unlink()
    rig.start_calibration(DiceSet(count=4))
    rig.calibration_roll()
    rig.confirm_calibration(None)
    rig.stop_calibration()
    rig.dice.table_detector.wait(60)
    assert rig.dice.patches().marks
    assert rig.forget_dice() and not rig.dice.patches().marks  # "Forget these dice"


def test_without_the_count_no_roll_is_kept_for_the_detector(rig: Rig) -> None:
    rig.start_calibration(DiceSet())  # a die the reader missed could be in view: not taught as "no die"
    for _ in range(3):
        rig.calibration_roll()
        rig.confirm_calibration(None)
    assert len(rig.dice.rolls) == 0
    assert rig.dice.teach_detector() is False
