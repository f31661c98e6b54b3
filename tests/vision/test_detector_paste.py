"""Copy-paste augmentation of the detector's training (``training/detector/paste.py``): numpy and OpenCV
only, so these run in the product's test command."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from training.detector.data import Photo, tiled  # noqa: E402
from training.detector.paste import cut_patches, paste  # noqa: E402

GREY = 120


def _die_photo(dice: list[tuple[float, float, float]], size: tuple[int, int] = (240, 320)) -> Photo:
    """Grey ground with a white square die (a black pip in its middle) at each (cx, cy, side)."""
    img = np.full((*size, 3), GREY, np.uint8)
    for cx, cy, s in dice:
        h = s / 2
        img[round(cy - h):round(cy + h), round(cx - h):round(cx + h)] = 250
        img[round(cy - s / 8):round(cy + s / 8), round(cx - s / 8):round(cx + s / 8)] = 0
    return Photo("src", "a", img, np.array(dice, np.float32).reshape(-1, 3))


def test_patches_are_the_dice_and_skip_dice_a_neighbour_overlaps():
    photo = _die_photo([(60, 60, 30), (200, 120, 30), (228, 120, 30)])
    patches = cut_patches([photo])
    assert len(patches) == 1  # the two touching dice are left out
    p = patches[0]
    n = p.image.shape[0]
    assert abs(n - 39) <= 1 and abs(p.side - 30) <= 1
    assert (p.image[n // 2, n // 2] == 0).all()  # the pip at the centre
    assert (p.image[2, 2] == GREY).all()  # the margin is the photo's ground


def test_a_single_die_crop_gives_a_patch_with_its_edge_repeated():
    crop = _die_photo([(20, 20, 38)], size=(40, 40))
    patches = cut_patches([crop])
    assert len(patches) == 1 and abs(patches[0].image.shape[0] - 1.3 * 38) <= 1


def test_pasted_dice_are_labelled_where_they_lie_and_touch_no_other_die():
    donor = cut_patches([_die_photo([(60, 60, 30), (200, 120, 30)])])
    base = Photo("felt", "b", np.full((240, 320, 3), (40, 110, 50), np.uint8), np.array([[100, 100, 30]], np.float32))
    for seed in range(20):
        out = paste(np.random.default_rng(seed), base, donor, 4)
        assert len(out.dice) >= 1 and len(out.dice) <= 5
        assert np.array_equal(out.dice[0], base.dice[0]) and out.image.shape == base.image.shape
        for i, (cx, cy, s) in enumerate(out.dice):
            for dx, dy, ds in out.dice[i + 1:]:
                assert math.hypot(cx - dx, cy - dy) > 0.55 * (s + ds)
        for cx, cy, s in out.dice[1:]:
            assert 0.8 * 30 * 0.99 <= s <= 1.25 * 30 * 1.01
            # the die's face is there: not the felt's colour at its centre's ring
            ring = out.image[round(cy - s / 4), round(cx)].astype(int)
            assert np.abs(ring - (40, 110, 50)).sum() > 60
        assert np.array_equal(base.image[0, 0], (40, 110, 50))  # the base photo is untouched


def test_hard_negatives_under_a_pasted_die_go_the_others_stay():
    donor = cut_patches([_die_photo([(60, 60, 30)])])
    negatives = np.array([[x, y, 20] for x in range(20, 320, 40) for y in range(20, 240, 40)], np.float32)
    base = Photo("felt", "b", np.full((240, 320, 3), 60, np.uint8), np.zeros((0, 3), np.float32), negatives)
    out = paste(np.random.default_rng(1), base, donor, 3)
    assert len(out.dice) >= 1
    for x, y, _ in out.negatives:
        assert all(math.hypot(x - cx, y - cy) > 0.6 * s for cx, cy, s in out.dice)
    dropped = [n for n in negatives if not any((n == k).all() for k in out.negatives)]
    assert dropped and all(any(math.hypot(n[0] - cx, n[1] - cy) <= 0.6 * s for cx, cy, s in out.dice) for n in dropped)


def test_tiled_photos_keep_each_die_where_its_labels_say():
    """``train.py --tile``: k x k photos of one set in one square, each die 1/k of its size."""
    pool = [_die_photo([(60, 60, 30)]), _die_photo([(200, 120, 40), (100, 180, 30)])]
    rng = np.random.default_rng(0)
    for k in (2, 3):
        ph = tiled(rng, pool, k, size=320 * k)  # each photo is 320 px wide: its cell, unscaled
        assert ph.image.shape == (320 * k, 320 * k, 3) and ph.negatives.shape == (0, 3)
        assert k * k <= len(ph.dice) <= 2 * k * k  # every cell holds one photo, of one or two dice
        for cx, cy, side in ph.dice:
            assert side in (30.0, 40.0)
            assert (ph.image[int(cy), int(cx)] == 0).all()  # the die's pip, where its label says
    small = tiled(rng, pool, 2, size=320)  # cells of 160 px: each die half its size
    assert set(small.dice[:, 2].tolist()) <= {15.0, 20.0}


def test_generated_trays_can_be_scaled_to_a_die_width_and_their_small_dice_grow():
    from training.detector.data import augment_all

    photo = _die_photo([(100, 100, 12), (200, 150, 12), (150, 60, 12)])
    widths = []
    for seed in range(40):
        _, dice, _ = augment_all(np.random.default_rng(seed), photo, 224, die_px=(60, 90))
        inside = dice[(dice[:, 0] >= 0) & (dice[:, 0] < 224) & (dice[:, 1] >= 0) & (dice[:, 1] < 224)]
        widths += inside[:, 2].tolist()
    # the median die as wide as asked (a little perspective aside), never the 8 px the frame's fit gives
    assert widths and 60 * 0.85 <= float(np.median(widths)) <= 90 * 1.15
    _, plain, _ = augment_all(np.random.default_rng(0), photo, 224)
    assert float(np.median(plain[:, 2])) < 25
