import numpy as np
import pytest

from companion.vision.render import RenderDie, random_dice, render_dice


def test_same_seed_same_frame():
    dice = [RenderDie(2, "red"), RenderDie("worm", "white"), RenderDie(6, "black")]
    a, da = render_dice(dice, seed=5, glare=True, noise=3)
    b, db = render_dice(dice, seed=5, glare=True, noise=3)
    assert np.array_equal(a, b)
    assert da == db
    c, _ = render_dice(dice, seed=6)
    assert not np.array_equal(a, c)


def test_drawn_dice_are_inside_the_frame_and_apart():
    rng = np.random.default_rng(1)
    frame, drawn = render_dice(random_dice(rng, 8), seed=2, size=(320, 240))
    assert frame.shape == (240, 320, 3)
    assert len(drawn) == 8
    for d in drawn:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240
        assert x0 <= d.center[0] <= x1 and y0 <= d.center[1] <= y1


def test_touching_pairs_touch():
    _, drawn = render_dice([RenderDie(1), RenderDie(2)], seed=3, touching=True, die_size=40)
    (ax, ay), (bx, by) = drawn[0].center, drawn[1].center
    assert np.hypot(ax - bx, ay - by) == pytest.approx(0.52 * 2 * 40, rel=0.01)


def test_dim_frames_are_darker_and_hand_covers_the_tray():
    dice = [RenderDie(4, "yellow")]
    bright, _ = render_dice(dice, seed=1)
    dim, _ = render_dice(dice, seed=1, dim=0.4)
    hand, _ = render_dice(dice, seed=1, hand=True)
    assert dim.mean() < 0.5 * bright.mean()
    assert np.mean(np.any(hand != bright, axis=2)) > 0.03


def test_bad_faces_and_colours_are_refused():
    with pytest.raises(ValueError):
        RenderDie(7)
    with pytest.raises(ValueError):
        RenderDie(3, "mauve")


def test_oblique_camera_shows_the_side_faces_turned_to_it():
    die = [RenderDie(5, "white", center=(160.0, 120.0), angle=0.0)]
    flat, [top] = render_dice(die, seed=1, size=(320, 240), die_size=40)
    oblique, [seen] = render_dice(die, seed=1, size=(320, 240), die_size=40, tilt=(0.0, 0.4))
    # The top face stays where it was; the die now reaches further down, where its front face shows.
    assert seen.center == top.center
    assert seen.box[3] >= top.box[3] + 12 and seen.box[1] == top.box[1]
    below = (slice(top.box[3] + 2, seen.box[3] - 2), slice(145, 175))
    assert np.abs(oblique[below].astype(int) - flat[below].astype(int)).mean() > 30
    assert np.array_equal(oblique[:100], flat[:100])  # nothing changes above the die


def test_marbled_and_translucent_dice_change_only_the_die():
    plain = RenderDie(3, "red", center=(160.0, 120.0), angle=10.0)
    frame, [d] = render_dice([plain], seed=4, size=(320, 240), die_size=44)
    x0, y0, x1, y1 = d.box
    inside = (slice(y0, y1), slice(x0, x1))
    for look in (RenderDie(3, "red", center=(160.0, 120.0), angle=10.0, marble=(40, 200, 240)),
                 RenderDie(3, "red", center=(160.0, 120.0), angle=10.0, translucent=0.6)):
        other, [e] = render_dice([look], seed=4, size=(320, 240), die_size=44)
        assert e == d
        changed = np.any(other != frame, axis=2)
        assert changed[inside].mean() > 0.05
        assert not changed[: y0 - 2].any() and not changed[y1 + 2 :].any()


def test_a_die_of_any_tint_with_larger_pips():
    # A body colour outside the named tints, and pips larger than usual: the die keeps its name and
    # box, its face takes the new colour, and more of it is pip.
    kw = dict(center=(160.0, 120.0), angle=0.0)
    frame, [d] = render_dice([RenderDie(5, "blue", **kw)], seed=4, size=(320, 240), die_size=44)
    tinted, [e] = render_dice([RenderDie(5, "blue", body=(40, 160, 200), pip_colour=(30, 30, 120), **kw)],
                              seed=4, size=(320, 240), die_size=44)
    big, _ = render_dice([RenderDie(5, "blue", body=(40, 160, 200), pip_colour=(30, 30, 120), pip_size=1.25,
                                    **kw)], seed=4, size=(320, 240), die_size=44)
    assert e == d and e.colour == "blue"
    x0, y0, x1, y1 = e.box
    face = tinted[y0 + 4 : y1 - 4, x0 + 4 : x1 - 4].reshape(-1, 3).astype(int)
    body = np.abs(face - (40, 160, 200)).sum(axis=1) < 60
    assert body.mean() > 0.4
    assert not np.array_equal(frame, tinted)

    def pip_share(img):
        px = img[y0 + 4 : y1 - 4, x0 + 4 : x1 - 4].reshape(-1, 3).astype(int)
        return float((np.abs(px - (30, 30, 120)).sum(axis=1) < 60).mean())

    assert pip_share(big) > 1.2 * pip_share(tinted) > 0
