"""The classical pip counter and colour names on rendered dice (exact ground truth)."""

import numpy as np
import pytest

from companion.vision import FACES
from companion.vision.colour import body_colour
from companion.vision.pips import count_pips
from companion.vision.reader import (
    COUNTED,
    PIP_COUNTS,
    SYMBOL_COUNTS,
    DiceReader,
    _pip_likelihood,
    pip_given_face,
    pip_given_symbol,
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
        assert like[FACES.index("worm")] == pytest.approx(pip_given_symbol()[count - 1])
    four = _pip_likelihood(4)
    assert four[FACES.index(6)] > 2 * four[FACES.index(3)]
    # No count is trusted beyond what two sets of dice can vouch for: at most 31 to 1 for any face.
    for count in range(1, 7):
        like = _pip_likelihood(count)[:6]
        assert like.max() / like.min() <= 31.0 + 1e-9


def test_a_count_weighs_against_a_symbol_face_by_how_often_symbols_get_that_count():
    # Rendered worms are mostly not counted at all, and when they are, as one pip or two: a count of
    # 1 is weak evidence against a worm, a count of 5 strong.
    like = pip_given_symbol()
    assert like[0] > like[1] > like[3] > like[4]
    assert _pip_likelihood(5)[FACES.index(5)] > 50 * like[4]  # a count of 5: a 5 over a worm, 50 to 1 at least
    # Were symbol faces counted as often as numbered ones, their row would weigh as a face's row does.
    as_often = pip_given_symbol(np.array([0, 10, 20, 30, 40, 50, 60]), counted=1.0)
    assert np.allclose(as_often, pip_given_face(np.array([[10, 20, 30, 40, 50, 60]]))[0])
    # Counted half as often as numbered faces: half the weight for every count.
    half = pip_given_symbol(np.array([210, 10, 20, 30, 40, 50, 60]), counted=1.0)
    assert np.allclose(half, 0.5 * as_often)
    assert SYMBOL_COUNTS[0] > SYMBOL_COUNTS[1:].sum() and 0.9 < COUNTED < 1.0


def test_a_reader_can_weigh_counts_by_other_error_counts():
    # A counter that was never wrong on the dev sets: its count weighs as much as any can (31 to 1);
    # the shipped counts, with their slips, weigh less.
    sure = pip_given_face(np.diag([1000] * 6))
    assert np.allclose(sure.sum(axis=1), 1.0)
    assert _pip_likelihood(4, sure)[FACES.index(4)] == pytest.approx(31 * _pip_likelihood(4, sure)[FACES.index(6)])
    assert _pip_likelihood(4)[FACES.index(4)] < 31 * _pip_likelihood(4)[FACES.index(6)]
    assert np.array_equal(DiceReader()._pip_given_face, pip_given_face(PIP_COUNTS))
    assert np.array_equal(DiceReader(pip_counts=np.diag([1000] * 6))._pip_given_face, sure)
