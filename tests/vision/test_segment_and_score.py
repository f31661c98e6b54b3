"""Segmentation's die size, and the scoring that ``companion dice eval`` prints."""

import cv2
import numpy as np
import pytest

from companion.vision.evaluate import LabelledDie, Score
from companion.vision.render import RenderDie, render_dice
from companion.vision.segment import MIN_SIDE, TRAY, WORK_WIDTH, _holds_pips, _hole_area, _Scale, find_dice


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_die_size_when_every_die_touches_another(seed):
    """Every blob is two dice: the size must still be one die's, or each pair is read as one die."""
    frame, drawn = render_dice([RenderDie(f, "white") for f in (1, 2, 3, 4, 5, 6)], seed=seed, die_size=48,
                               touching=True)
    _, side = find_dice(frame)
    die = sum(d.size for d in drawn) / len(drawn)
    assert 0.75 * die <= side <= 1.35 * die, (side, die)


def test_lone_dice_size():
    frame, drawn = render_dice([RenderDie(f, "red") for f in (1, 2, 3, 4)], seed=4, die_size=40)
    _, side = find_dice(frame)
    assert 0.75 * 40 <= side <= 1.35 * 40


def test_small_dice_in_a_wide_frame_are_searched_finely(fixtures):
    """A photo tiled 3x3 (mirrored): the same dice at a third of the working size, where they are
    specks. They are searched again at a finer scale and found at their own size, nearly all of them."""
    path = sorted((fixtures / "nell-byler-d6" / "images").iterdir())[0]
    frame = cv2.imread(str(path))
    h, w = frame.shape[:2]
    wide = cv2.copyMakeBorder(frame, h, h, w, w, cv2.BORDER_REFLECT)
    cands, side = find_dice(frame)
    wide_cands, wide_side = find_dice(wide)
    assert 0.8 * side <= wide_side <= 1.25 * side, (side, wide_side)
    assert len(wide_cands) >= 0.8 * 9 * len(cands), (len(cands), len(wide_cands))


def test_known_die_size_sets_the_scale():
    """Told the die size, segmentation works where a die is neither a speck nor larger than its tray model."""
    assert _Scale.for_die(640, None) == _Scale(WORK_WIDTH, TRAY, WORK_WIDTH / 10)
    fine = _Scale.for_die(1920, 30)
    assert fine.width > WORK_WIDTH and 30 * fine.width / 1920 >= MIN_SIDE
    close = _Scale.for_die(640, 160)
    assert close.width == WORK_WIDTH and close.tray * 640 >= 3 * 160 and close.hole >= 160 * WORK_WIDTH / 640


def _die(value, x):
    return LabelledDie(value, (x, 50.0), 20.0)


def _read(value, x, conf):
    return (value, (int(x) - 10, 40, int(x) + 10, 60), (x, 50.0), conf)


def test_score_counts_right_wrong_missed_and_extra():
    score = Score()
    labels = [_die(1, 20), _die(2, 60), _die(3, 100), _die(4, 140)]
    readings = [_read(1, 21, 0.99), _read(5, 61, 0.95), _read(3, 99, 0.3), _read(6, 300, 0.9)]
    score.add(labels, readings, 12.0, 0.6)
    s = score.summary()
    assert (score.right, score.missed, score.extra) == (2, 1, 1)
    assert score.answered == 2 and score.answered_wrong == 1  # the 0.3 die is not answered
    assert s["accuracy"] == 0.5 and s["all_dice_right_images"] == 0.0
    assert score.confusion[("2", "5")] == 1 and score.confusion[("4", "missed")] == 1


def test_confident_wrong_at_five_percent_abstention():
    score = Score()
    # 20 dice: 18 right with confidence 0.9, one wrong at 0.2, one wrong at 0.95.
    labels = [_die(1, 30 * i) for i in range(20)]
    readings = [_read(1, 30 * i, 0.9) for i in range(18)] + [_read(2, 30 * 18, 0.2), _read(2, 30 * 19, 0.95)]
    score.add(labels, readings, 1.0, 0.6)
    threshold, answered, wrong = score.at_abstention(0.05)
    # Abstaining on one die in twenty drops the 0.2 one; the confident wrong one stays.
    assert threshold == 0.9
    assert answered == 19 / 20
    assert wrong == pytest.approx(1 / 19)


def _ring(inside: str):
    """A square die outline 60 px across, its face lost, with pips, nothing, or a large blob inside."""
    mask = np.zeros((100, 100), np.uint8)
    cv2.rectangle(mask, (20, 20), (80, 80), 255, thickness=4)
    if inside == "pips":
        for cx, cy in ((35, 35), (65, 35), (50, 50), (35, 65), (65, 65)):
            cv2.circle(mask, (cx, cy), 5, 255, -1)
    elif inside == "blob":
        cv2.rectangle(mask, (30, 30), (70, 70), 255, -1)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    hole = next(c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0)
    return mask, hole


@pytest.mark.parametrize(("inside", "pips"), [("pips", True), ("empty", False), ("blob", False)])
def test_a_lost_face_is_told_by_its_pips(inside, pips):
    mask, hole = _ring(inside)
    assert _holds_pips(mask, hole, _hole_area(hole)) is pips


def test_a_die_proposed_far_larger_than_the_frame_is_searched_without_a_crash():
    """The reader proposes again at the size the network saw; a size several times the frame's asked
    OpenCV's median for a window it refuses with an assertion (seen on a 65 px crop)."""
    frame, _ = render_dice([RenderDie(f, "white") for f in (2, 5)], seed=1, die_size=48)
    for die in (frame.shape[1] * 2.5, frame.shape[1] * 10.0):
        cands, side = find_dice(frame, die_size=die)
        assert side == die
        assert all(c.box[2] <= frame.shape[1] and c.box[3] <= frame.shape[0] for c in cands)
