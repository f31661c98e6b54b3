"""The classical pip counter and colour names on rendered dice (exact ground truth)."""

import numpy as np
import pytest

from companion.vision import FACES
from companion.vision.colour import body_colour
from companion.vision.decide import _pip_likelihood, pip_given_face
from companion.vision.pips import count_pips
from companion.vision.reader import DiceReader
from companion.vision.render import RenderDie, render_dice
from companion.vision.tuning import PIP_COUNTS, PIP_ON_SYMBOL


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
