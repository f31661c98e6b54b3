"""The classical pip counter and colour names on rendered dice (exact ground truth)."""

import numpy as np
import pytest

from companion.vision import FACES
from companion.vision.colour import body_colour
from companion.vision import reader as reader_module
from companion.vision.pips import PipCount, count_pips
from companion.vision.reader import (
    FAINT_PIPS,
    PIP_COUNTS,
    PIP_COUNTS_FAINT,
    PIP_ON_SYMBOL,
    DiceReader,
    _pip_likelihood,
    _Window,
    pip_given_face,
)
from companion.vision.render import RenderDie, render_dice


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("colour", ["white", "red", "black"])
def test_counts_rendered_pips(face, colour):
    frame, drawn = render_dice([RenderDie(face, colour, angle=20.0)], seed=face, die_size=48)
    d = drawn[0]
    assert count_pips(frame, d.center[0], d.center[1], d.size * 1.2).count == face


@pytest.mark.parametrize("colour", ["white", "black", "red", "blue", "green", "yellow"])
def test_names_body_colours(colour):
    frame, drawn = render_dice([RenderDie(2, colour)], seed=3, die_size=48)
    d = drawn[0]
    assert body_colour(frame, d.center[0], d.center[1], d.size * 1.2) == colour


def test_a_pip_count_weighs_by_how_the_counter_errs():
    # Each count favours its own face, and a missed pair of pips is no veto: a count of 4 weighs
    # less against a 6 (the counter's commonest slip) than against a 3, which it rarely counts as 4.
    for count in range(1, 7):
        like = _pip_likelihood(count)
        assert int(np.argmax(like)) == FACES.index(count)
        assert like[FACES.index("worm")] == pytest.approx(PIP_ON_SYMBOL)
    four = _pip_likelihood(4)
    assert four[FACES.index(6)] > 2 * four[FACES.index(3)]
    # No count is trusted beyond what two sets of dice can vouch for: at most 31 to 1 for any face.
    for count in range(1, 7):
        like = _pip_likelihood(count)[:6]
        assert like.max() / like.min() <= 31.0 + 1e-9


def test_a_reader_can_weigh_counts_by_other_error_counts():
    # A counter that was never wrong on the dev sets: its count weighs as much as any can (31 to 1);
    # the shipped counts, with their slips, weigh less.
    sure = pip_given_face(np.diag([1000] * 6))
    assert np.allclose(sure.sum(axis=1), 1.0)
    assert _pip_likelihood(4, sure)[FACES.index(4)] == pytest.approx(31 * _pip_likelihood(4, sure)[FACES.index(6)])
    assert _pip_likelihood(4)[FACES.index(4)] < 31 * _pip_likelihood(4)[FACES.index(6)]
    assert np.array_equal(DiceReader()._pip_given_face, pip_given_face(PIP_COUNTS))
    assert np.array_equal(DiceReader(pip_counts=np.diag([1000] * 6))._pip_given_face, sure)


@pytest.mark.parametrize("colour", ["white", "red", "black"])
def test_pips_that_hardly_stand_out_of_the_face_are_called_faint(colour):
    # The same die, crisp, then washed out and grainy (a smoky translucent die shows its other faces'
    # pips through it): the count may still be right, but the counter says how little it had to go on.
    frame, drawn = render_dice([RenderDie(5, colour, angle=20.0)], seed=5, die_size=48)
    d = drawn[0]
    crisp = count_pips(frame, d.center[0], d.center[1], d.size * 1.2)
    noise = np.random.default_rng(0).normal(0, 25, frame.shape)
    washed = np.clip(frame.mean() + 0.4 * (frame.astype(float) - frame.mean()) + noise, 0, 255).astype(np.uint8)
    faint = count_pips(washed, d.center[0], d.center[1], d.size * 1.2)
    assert crisp.clarity > 10 * FAINT_PIPS
    assert faint.clarity < FAINT_PIPS


def test_a_faint_count_weighs_less_than_a_clear_one():
    # On the train photos a faint count was right 2 times in 3, a clear one 9 in 10: an agreeing faint
    # count lifts its face less, a disagreeing one pulls it down less.
    faint = pip_given_face(PIP_COUNTS_FAINT)
    for count in range(1, 7):
        clear_like = _pip_likelihood(count)[:6]
        faint_like = _pip_likelihood(count, faint)[:6]
        assert clear_like.max() / clear_like.min() > faint_like.max() / faint_like.min()
    assert np.array_equal(DiceReader()._pip_given_face_faint, faint)
    assert np.array_equal(DiceReader(faint_counts=np.diag([1000] * 6))._pip_given_face_faint,
                          pip_given_face(np.diag([1000] * 6)))


@pytest.mark.parametrize("clarity", [2.0, 50.0])
def test_a_doubtful_die_is_not_made_sure_by_a_faint_count(monkeypatch, clarity):
    # The classifier cannot tell a 2 from a 6 (smoky dice with red pips did that on the dev photos) and
    # the counter sees 2 pips: a clear count settles it as a 2, a faint one leaves the die to the table.
    reader = DiceReader()
    monkeypatch.setattr(reader_module, "count_pips", lambda *_: PipCount(2, 2, 1.0, clarity))
    probs = np.zeros(len(reader.classifier.classes), np.float32)
    probs[FACES.index(2)], probs[FACES.index(6)] = 0.5, 0.5
    window = _Window(50.0, 50.0, 40.0, probs, np.zeros(96, np.float32), np.zeros((32, 32, 3), np.uint8),
                     np.zeros(3, np.float32))
    frame = np.zeros((100, 100, 3), np.uint8)
    face_probs, network, pips = reader._weigh_die(frame, window, None)
    die = reader._read_die(frame, window, face_probs, network, pips, 1.0)
    assert die.value == 2 and die.pips == 2 and die.pip_clarity == clarity
    assert (die.confidence >= reader_module.UNCERTAIN) == (clarity >= FAINT_PIPS)
