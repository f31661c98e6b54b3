"""The reader on held-back real photos (fixtures) and on rendered edge cases."""

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.vision import FACES, exposure
from companion.vision.decide import one_set
from companion.vision.evaluate import LabelledDie, Score, iterate
from companion.vision.reader import DiceReader, read_dice
from companion.vision.reading import Reading
from companion.vision.render import RenderDie, render_dice
from companion.vision.tuning import UNCERTAIN


@pytest.mark.parametrize(("name", "minimum"), [("matteop65-webcam", 0.9), ("nell-byler-d6", 0.7)])
def test_reads_held_back_photos(reader, fixtures, name, minimum):
    score = Score()
    for _, frame, labels in iterate(fixtures / name):
        reading = reader.read(frame)
        score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
    assert score.images >= 5
    assert score.right / score.dice >= minimum, score.report()
    # Whatever it answers with confidence must be almost always right.
    assert score.answered_wrong <= max(1, score.answered // 20), score.report()


def test_shipped_classifier_says_what_it_was_trained_on():
    """Trained in part on rune55 (CC BY 4.0): its metadata carries the credit, the sources and how."""
    from companion.vision.classifier import DEFAULT_MODEL

    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert "CC BY 4.0" in str(meta["credit"]) and "rune55" in str(meta["credit"])
    assert set(meta["sources"]) == {"nell-byler-d6", "matteop65-webcam", "rendered", "rune55-gray-closeups",
                                    "chase-casino-crops"}
    assert len(str(meta["split_sha256"])) == 64 and "training/train_faces.py" in str(meta["command"])


def test_reading_json_shape(reader, fixtures):
    path = next(iter((fixtures / "matteop65-webcam" / "images").iterdir()))
    frame = cv2.imread(str(path))
    reading = reader.read(frame)
    assert isinstance(reading, Reading) and reading.ms > 0
    assert reading.dice
    obj = json.loads(json.dumps(reading.to_json()))
    for die in obj["dice"]:
        assert die["value"] in [1, 2, 3, 4, 5, 6, "worm"]
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x1 <= frame.shape[1] and 0 <= y0 < y1 <= frame.shape[0]
        assert x0 <= die["center"][0] <= x1
        assert 0.0 <= die["confidence"] <= 1.0
        assert die["colour"] in ["white", "black", "red", "blue", "green", "yellow", "other"]


def test_empty_tray_has_no_dice():
    frame, _ = render_dice([], seed=1)
    assert read_dice(frame).dice == []


def test_any_image_size(reader, fixtures):
    path = next(iter((fixtures / "matteop65-webcam" / "images").iterdir()))
    frame = cv2.imread(str(path))
    big = cv2.resize(frame, (1280, 960))
    a, b = reader.read(frame), reader.read(big)
    assert [d.value for d in a.dice] == [d.value for d in b.dice]
    for da, db in zip(a.dice, b.dice, strict=True):
        assert np.allclose(np.array(db.center) / 2, da.center, atol=8)


def test_rendered_dice_and_symbol_faces(reader):
    dice = [RenderDie(f, c) for f, c in [(1, "white"), (4, "red"), ("worm", "white"), (5, "blue"), (3, "yellow")]]
    frame, drawn = render_dice(dice, seed=11, size=(640, 480), die_size=56)
    reading = reader.read(frame)
    assert sorted(map(str, reading.values)) == sorted(str(d.face) for d in drawn)


def test_a_six_rules_out_a_symbol_face_in_the_same_set(reader):
    # A set with a symbol face has no 6. A symbol face beside a sure 6 contradicts that: the die is
    # reported for one tap, not read confidently as either.
    dice = [RenderDie(f, c) for f, c in [(1, "white"), (4, "red"), ("worm", "white"), (6, "blue"), (3, "yellow")]]
    frame, drawn = render_dice(dice, seed=11, size=(640, 480), die_size=56)
    reading = reader.read(frame)
    assert len(reading.dice) == 5 and "worm" not in reading.values
    sure = sorted(str(d.value) for d in reading.dice if not d.uncertain)
    assert sure == ["1", "3", "4", "6"]


def test_one_set_weighs_a_symbol_face_by_the_other_dice():
    worm, six = FACES.index("worm"), FACES.index(6)

    def die(**faces: float) -> np.ndarray:
        p = np.full(len(FACES), 0.001, np.float32)
        for name, value in faces.items():
            p[FACES.index("worm" if name == "worm" else int(name[1:]))] = value
        return p / p.sum()

    unfamiliar = die(worm=0.6, f5=0.35)
    alone, kept = one_set(unfamiliar[None])
    assert np.allclose(alone[0], unfamiliar) and kept[0] == pytest.approx(1.0)
    # A sure 6 elsewhere: the die is some number, most likely the 5, but no longer surely anything.
    probs, kept = one_set(np.stack([unfamiliar, die(f6=0.98)]))
    assert int(np.argmax(probs[0])) == FACES.index(5) and probs[0, worm] < 0.05
    assert kept[0] < 0.5 and kept[1] == pytest.approx(1.0)
    # A Heckmeck roll (no 6 anywhere) is left as it is.
    heckmeck = np.stack([die(worm=0.9), die(worm=0.9), die(f5=0.9)])
    probs, kept = one_set(heckmeck)
    assert np.allclose(probs, heckmeck, atol=1e-6) and np.allclose(kept, 1.0)
    # Symbol faces never count against a 6 (dice the network never saw look like them).
    mixed = np.stack([die(worm=0.9), die(worm=0.9), die(f6=0.6, f5=0.3)])
    probs, kept = one_set(mixed)
    assert np.allclose(probs[2], mixed[2], atol=1e-6) and kept[2] == pytest.approx(1.0)
    assert probs[0, worm] < mixed[0, worm] and probs[2, six] == pytest.approx(mixed[2, six])


def test_one_set_leaves_a_declared_set_as_it_is():
    """Declared faces say what the set is: a symbol beside 6s (a skull on the 1) is not doubted."""
    worm, six = FACES.index("worm"), FACES.index(6)
    skull = np.full(len(FACES), 0.001, np.float32)
    skull[worm] = 0.9
    sixes = np.full(len(FACES), 0.001, np.float32)
    sixes[six] = 0.98
    dice = np.stack([skull / skull.sum(), sixes / sixes.sum(), sixes / sixes.sum()])
    doubted, kept = one_set(dice)  # nothing declared: 6s are evidence against a symbol set
    assert doubted[0, worm] < 0.05 and kept[0] < 0.5
    for faces in (("worm", 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, "worm"), (1, 2, 3, 4, 5, 6)):
        probs, kept = one_set(dice, faces)
        assert np.allclose(probs, dice) and np.allclose(kept, 1.0)


def test_a_symbol_on_another_face_is_read_when_the_set_is_declared():
    # A set whose symbol replaces the 1 (a skull), rolled beside three 6s: undeclared, the reader
    # assumes the Heckmeck kind of set (the symbol in place of the 6) and the skull loses to a number.
    dice = [RenderDie("worm", "white"), RenderDie(6, "white"), RenderDie(6, "white"), RenderDie(6, "white"),
            RenderDie(2, "white")]
    for seed in (3, 11):
        frame, _ = render_dice(dice, seed=seed, die_size=50)
        assert "worm" not in read_dice(frame).values
        declared = read_dice(frame, faces=("worm", 2, 3, 4, 5, 6))
        assert sorted(map(str, declared.values)) == ["2", "6", "6", "6", "worm"]
        assert all(not d.uncertain for d in declared.dice if d.value == "worm")
        assert 1 not in declared.values


def test_expected_keeps_the_likeliest_dice(reader, fixtures):
    path = sorted((fixtures / "nell-byler-d6" / "images").iterdir())[0]
    frame = cv2.imread(str(path))
    full = reader.read(frame)
    assert len(reader.read(frame, expected=2).dice) == min(2, len(full.dice))


def test_touching_dice_are_read_one_by_one(reader):
    """Dice lying against each other are the normal case: a window over two of them is neither die."""
    counted = right = total = 0
    for seed in range(5):
        faces: list[int | str] = [5, 2, 4, "worm", 3, 1]
        frame, drawn = render_dice([RenderDie(f, "white") for f in faces], seed=seed, die_size=48, touching=True)
        reading = reader.read(frame)
        counted += len(reading.dice) == len(drawn)
        for d in drawn:
            near = [r for r in reading.dice
                    if np.hypot(r.center[0] - d.center[0], r.center[1] - d.center[1]) < 0.5 * d.size]
            total += 1
            right += bool(near) and str(near[0].value) == str(d.face)
    assert counted >= 4, counted
    assert right >= 0.9 * total, (right, total)


def test_dim_light_reads_like_daylight(reader, fixtures):
    """A frame taken in dim light (every pixel at 40%) reads as the well-lit one: without brightening,
    only the darkest pips stand out from the tray and are read as small dice."""
    for path in sorted((fixtures / "matteop65-webcam" / "images").iterdir()):
        frame = cv2.imread(str(path))
        dim = (frame.astype(np.float32) * 0.4).astype(np.uint8)
        lit, dark = reader.read(frame), reader.read(dim)
        # Clutter at the frame's edge may come and go as an uncertain die; the sure ones must not change.
        sure = [sorted(str(d.value) for d in r.dice if not d.uncertain) for r in (lit, dark)]
        assert sure[1] == sure[0], path.name


def test_well_lit_frames_are_not_brightened(fixtures):
    for path in sorted((fixtures / "nell-byler-d6" / "images").iterdir()):
        frame = cv2.imread(str(path))
        assert exposure.gain(frame) == 1.0
        assert exposure.normalise(frame) is frame
        assert exposure.gain((frame * 0.3).astype(np.uint8)) > 2.0


# White dice seen obliquely on light wood, enlarged: the shipped model reads their pips as 1s (docs/vision-accuracy.md,
# "Dice it never saw, and robustness"). Kept apart so that the other close-ups still guard the rule below,
# and so that a model that reads it right says so (the strict xfail then fails).
PIPS_AS_ONES = "two_38"


def _close_ups(reader, fixtures, stems):
    """The middle of each webcam photo at twice the size: dice a fifth of the frame wide."""
    score = Score()
    for path, frame, labels in iterate(fixtures / "matteop65-webcam"):
        if path.stem not in stems:
            continue
        h, w = frame.shape[:2]
        x0, y0 = w // 4, h // 4
        close = cv2.resize(frame[y0 : y0 + h // 2, x0 : x0 + w // 2], (w, h), interpolation=cv2.INTER_CUBIC)
        inside = [LabelledDie(lab.value, ((lab.center[0] - x0) * 2, (lab.center[1] - y0) * 2), lab.size * 2)
                  for lab in labels if x0 < lab.center[0] < x0 + w / 2 and y0 < lab.center[1] < y0 + h / 2]
        reading = reader.read(close)
        score.add(inside, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
    return score


def test_close_ups_read_large_dice_not_their_pips(reader, fixtures):
    """A tray model narrower than the dice loses their faces and leaves the pips, which were read as many
    small 1s."""
    stems = {p.stem for p in (fixtures / "matteop65-webcam" / "images").iterdir()} - {PIPS_AS_ONES}
    score = _close_ups(reader, fixtures, stems)
    assert score.dice >= 10
    assert score.extra <= 2, score.report()
    assert score.right >= 0.75 * score.dice, score.report()


def test_close_up_of_white_dice_on_light_wood(reader, fixtures):
    """White dice seen obliquely on light wood: their pips were read as 1s until round 5's classifier."""
    score = _close_ups(reader, fixtures, {PIPS_AS_ONES})
    assert score.dice == 2
    assert score.extra <= 1 and score.right == 2, score.report()


def test_the_games_faces_bound_the_reading():
    # A worm die at a table whose game has no symbol faces reads as a number; a Heckmeck die never
    # reads as a 6 (its sixth face is the worm).
    frame, _ = render_dice([RenderDie("worm", "white"), RenderDie(2, "white"), RenderDie(3, "white")],
                           seed=11, die_size=50)
    free = read_dice(frame)
    assert sorted(map(str, free.values)) == ["2", "3", "worm"]
    plain = read_dice(frame, faces=(1, 2, 3, 4, 5, 6))
    assert "worm" not in plain.values and len(plain.dice) == 3
    assert [d.center for d in plain.dice] == [d.center for d in free.dice]
    frame, _ = render_dice([RenderDie(6, "white"), RenderDie(2, "white"), RenderDie(3, "white")],
                           seed=11, die_size=50)
    assert 6 in read_dice(frame).values
    heckmeck = read_dice(frame, faces=(1, 2, 3, 4, 5, "worm"))
    assert 6 not in heckmeck.values and len(heckmeck.dice) == 3


def test_a_misjudged_die_size_does_not_lose_the_dice():
    """A network that has never seen the table's dice may judge them far larger than they are (big
    white dice on light wood: 150 px for 70). The frame is then proposed again at that size, where
    segmentation finds nothing; the dice already found must stay."""
    frame, _ = render_dice([RenderDie(v, "white") for v in (1, 3, 5, 6)], seed=3)
    reader = DiceReader()
    real = reader.classifier.classify
    calls = []

    def misjudging(patches):
        scores = real(patches)
        calls.append(len(patches))
        if len(calls) == 1:  # segmentation's windows: "these dice are 2.5 times larger"
            offsets = scores.offsets.copy()
            offsets[:, 2] += np.log(2.5)
            scores = dataclasses.replace(scores, offsets=offsets)
        return scores

    proposals = reader._proposals
    reader.classifier.classify = misjudging
    reader._proposals = lambda f, die_size: ([], 0.0) if die_size is not None else proposals(f, die_size)
    reading = reader.read(frame)
    assert calls[:2] == [4, 0]  # it did propose again, and found nothing there
    assert sorted(d.value for d in reading.dice) == [1, 3, 5, 6]


def test_an_oversized_window_does_not_take_the_touching_die_beside_it(reader):
    """Two windows are one die when their centres are closer than 0.6 of their mean size. By the larger
    size, a close-up's oversized window swallowed the touching die next to it."""
    from companion.vision.read_face import Window

    def window(cx: float, size: float, face: int, p: float) -> Window:
        probs = np.full(len(reader.classifier.classes), (1 - p) / (len(reader.classifier.classes) - 1), np.float32)
        probs[face] = p
        return Window(cx, 200.0, size, probs, np.zeros(8, np.float32), np.zeros((32, 32, 3), np.uint8),
                       np.zeros(3, np.float32))

    # a dev close-up (rune55 00051): a 5 in a window of 383 px beside a 6 in one of 232, 183 px apart
    big, beside = window(100.0, 383.0, 4, 0.99), window(283.0, 232.0, 5, 0.9)
    assert len(reader._suppress([big, beside])) == 2
    # two windows on one die, a third of a die apart, are still one
    assert reader._suppress([big, window(100.0 + 232.0 / 3, 232.0, 5, 0.9)]) == [big]


def _window_saying(reader, face: int | str, sure: float = 0.9):
    """A window whose network gives ``face`` the probability ``sure``, the rest spread evenly."""
    from companion.vision.read_face import Window

    classes = reader.classifier.classes
    probs = np.full(len(classes), (1.0 - sure) / (len(classes) - 1), np.float32)
    probs[classes.index(str(face))] = sure
    return Window(50.0, 50.0, 40.0, probs, np.zeros(8, np.float32), np.zeros((32, 32, 3), np.uint8),
                   np.zeros(3, np.float32))


def test_a_die_read_unsurely_is_read_again_in_quarter_turns_and_stays_unsure(monkeypatch):
    """The second look may change an unsure die's face, never its confidence (the tablet still asks);
    a sure die is not looked at again, and the symbol face is not the second look's to give."""
    from companion.vision import tuning
    from companion.vision.reading import DieReading

    reader = DiceReader()
    views: list[int] = []

    def classify(wins, prof):
        views.append(len(wins))
        return [_window_saying(reader, turned_to, 0.95) for _ in wins]

    monkeypatch.setattr(reader, "_classify", classify)
    first = _window_saying(reader, 3, 0.4)
    unsure = DieReading(3, (50.0, 50.0), (30, 30, 70, 70), 0.4, "white", "unreadable")
    sure = DieReading(3, (50.0, 50.0), (30, 30, 70, 70), 0.99, "white")
    weighed = [(np.zeros(7), np.zeros(7), None)]

    turned_to: int | str = 5
    (again,) = reader._second_look([first], weighed, [unsure], None, None)
    assert views == [tuning.TURNS - 1]
    assert again.value == 5 and again.confidence == unsure.confidence and again.state == "unreadable"
    views.clear()
    assert reader._second_look([first], weighed, [sure], None, None) == [sure] and views == []
    turned_to = "worm"
    assert reader._second_look([first], weighed, [unsure], None, None) == [unsure]
