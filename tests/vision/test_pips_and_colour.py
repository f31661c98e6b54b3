"""The classical pip counter and colour names on rendered dice (exact ground truth)."""

import pytest

from companion.vision.colour import body_colour
from companion.vision.pips import count_pips
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
