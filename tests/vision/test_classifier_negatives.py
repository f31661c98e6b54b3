"""The classifier's training helpers: mined hard negatives (training/hard_negatives.py), the share of a
source's patches kept (train_faces.py --subsample), the sources trained on more than once a pass
(--repeat), rendered coins (make_patches.py --coins) and dim-light patches (--dim). Marker ``train``:
scripts/test-train runs them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

pytestmark = pytest.mark.train


def test_only_places_off_every_labelled_die_are_negatives():
    from training.hard_negatives import off_dice

    dice = [(100.0, 100.0, 40.0)]
    places = [(100.0, 110.0, 44.0), (120.0, 100.0, 44.0), (200.0, 100.0, 44.0)]
    # 10 and 20 px are a quarter and half a die from the centre: on the die; 100 px is 2.5 dice away
    assert off_dice(places, dice, near=0.65) == [(200.0, 100.0, 44.0)]
    assert off_dice(places, [], near=0.65) == places


def test_places_found_twice_count_once():
    from training.hard_negatives import dedupe

    places = [(10.0, 10.0, 40.0), (25.0, 10.0, 44.0), (80.0, 10.0, 40.0)]
    assert dedupe(places) == [(10.0, 10.0, 40.0), (80.0, 10.0, 40.0)]


def test_subsample_keeps_the_share_of_one_source_and_all_of_the_others():
    pytest.importorskip("torch")
    from training.train_faces import parse_share, subsample

    src = np.array([0] * 10 + [3] * 100 + [4] * 7)
    keep = subsample(src, dict([parse_share("3:0.5")]), seed=0)
    assert keep[src == 0].all() and keep[src == 4].all()
    assert int(keep[src == 3].sum()) == 50
    assert (subsample(src, {3: 0.5}, seed=0) == keep).all()  # the same seed keeps the same patches


def test_repeat_lists_one_sources_training_rows_again_and_leaves_the_rest():
    pytest.importorskip("torch")
    from training.train_faces import repeat

    src = np.array([0, 1, 1, 2, 1, 0])
    rows = np.array([5, 1, 3, 4])  # row 2 (a webcam patch) is a validation row: it must not come back
    out = repeat(rows, src, {1: 2})
    assert sorted(out.tolist()) == [1, 1, 3, 4, 4, 5]
    assert repeat(rows, src, {}).tolist() == rows.tolist()


def test_coins_are_drawn_off_the_dice_and_their_windows_are_not_a_die():
    from companion.vision.render import RenderDie, render_dice
    from training.make_patches import BG, draw_coins, rendered_patches

    frame, drawn = render_dice([RenderDie(v) for v in (2, 5)], seed=3, size=(640, 480), die_size=50)
    before = frame.copy()
    discs = draw_coins(frame, drawn, np.random.default_rng(0), 6, 50.0)
    assert discs and not np.array_equal(frame, before)
    for cx, cy, across in discs:
        assert 0.7 * 50 <= across <= 1.4 * 50
        assert all(np.hypot(cx - d.center[0], cy - d.center[1]) >= 0.8 * d.size + across / 2 for d in drawn)
        assert frame[round(cy), round(cx)].tolist() != before[round(cy), round(cx)].tolist()
    # without --coins the rendered patches are exactly those made before the option existed
    plain = rendered_patches(4, np.random.default_rng(7), 12)
    again = rendered_patches(4, np.random.default_rng(7), 12, coins=0)
    with_coins = rendered_patches(4, np.random.default_rng(7), 12, coins=3)
    assert all(np.array_equal(a, b) for a, b in zip(plain.x, again.x, strict=True))
    # (segmentation's windows draw from the same generator, so the frames after the first differ)
    assert with_coins.y.count(BG) >= plain.y.count(BG) + 3


def test_dimmed_patches_keep_their_picture_in_coarser_steps():
    torch = pytest.importorskip("torch")
    from training.train_faces import augment, dimmed

    g = torch.Generator().manual_seed(0)
    x = torch.linspace(0, 1, 32 * 32 * 3).reshape(1, 3, 32, 32).repeat(64, 1, 1, 1)
    d = dimmed(x.clone(), g)
    assert d.shape == x.shape and float(d.min()) >= 0 and float(d.max()) <= 1
    assert float((d - x).abs().mean()) < 0.02  # the same picture...
    assert all(len(torch.unique(d[i])) < len(torch.unique(x[i])) for i in range(64))  # ... in fewer levels
    # augment draws nothing for it without --dim: the default training stays as it was
    a = augment(x.clone(), torch.zeros(64, 3), torch.Generator().manual_seed(1))[0]
    b = augment(x.clone(), torch.zeros(64, 3), torch.Generator().manual_seed(1), dim=0.0)[0]
    assert torch.equal(a, b)


def test_ghosted_patches_show_another_patch_faintly_over_the_die_only():
    torch = pytest.importorskip("torch")
    from training.train_faces import augment, ghosted

    # A blank face and a patch with one dark pip in the middle: the blank face takes a faint, soft
    # copy of the pip near its middle (turned, mirrored and shifted as the draws fall), its rim stays.
    blank = torch.full((1, 3, 32, 32), 0.8)
    pip = blank.clone()
    pip[:, :, 13:19, 13:19] = 0.1
    x = torch.cat([blank, pip] * 32)
    out = ghosted(x.clone(), torch.Generator().manual_seed(0))
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1
    changed = (out - x).abs().amax(dim=1)
    assert torch.all(changed[:, :2, :] == 0) and torch.all(changed[:, :, :2] == 0)  # the rim: no ghost
    took = [i for i in range(0, 64, 2) if float(out[i].min()) < 0.75]  # blank faces that got a pip
    assert took  # some donors were the pip patch
    assert all(float(out[i].min()) > 0.1 for i in took)  # fainter than the real pip
    # augment draws nothing for it without --ghost: the default training stays as it was
    a = augment(x.clone(), torch.zeros(64, 3), torch.Generator().manual_seed(1))[0]
    b = augment(x.clone(), torch.zeros(64, 3), torch.Generator().manual_seed(1), ghost=0.0)[0]
    assert torch.equal(a, b)


def test_only_face_patches_are_seen_through_and_only_faces_show_through(monkeypatch):
    torch = pytest.importorskip("torch")
    from training import train_faces

    # Every patch is asked to take a ghost; only the face patches (even rows, blank) are given one,
    # and only face patches lend theirs: the "not a die" patches' dark pip shows through nowhere.
    blank = torch.full((1, 3, 32, 32), 0.8)
    clutter = blank.clone()
    clutter[:, :, 13:19, 13:19] = 0.1
    x = torch.cat([blank, clutter] * 32)
    faces = torch.tensor([True, False] * 32)
    calls = []
    real = train_faces.ghosted

    def spy(patches, g, donors=None):
        out = real(patches, g, donors)
        calls.append((patches.clone(), out))
        return out

    monkeypatch.setattr(train_faces, "ghosted", spy)
    train_faces.augment(x.clone(), torch.zeros(64, 3), torch.Generator().manual_seed(2), ghost=1.0, faces=faces)
    (given, out), = calls
    assert len(given) == 32 and torch.equal(given, blank.expand(32, -1, -1, -1))  # the face patches only
    assert torch.equal(out, given)  # blank donors: nothing shows through


def test_a_blend_is_learnt_as_both_classes_by_their_shares():
    """--mixup: a patch blended half and half from a 2 and a 5 is learnt as either class alike, and
    patches without a class (-1) teach nothing."""
    torch = pytest.importorskip("torch")
    from training.train_faces import class_loss

    y = torch.tensor([1, 4, -1])
    other = torch.tensor([1, 0, 2])  # patch 0 and 1 swap; the classless one stays
    toward_2 = torch.full((3, 9), -2.0)
    toward_2[:, 1] = 3.0
    toward_5 = torch.full((3, 9), -2.0)
    toward_5[:, 4] = 3.0

    def mixed(logits):
        return 0.5 * class_loss(logits, y) + 0.5 * class_loss(logits, y[other])

    assert float(mixed(toward_2)) == pytest.approx(float(mixed(toward_5)))
    # unblended, the class it leans to is the cheaper one, and the classless patch counts for nothing
    assert float(class_loss(toward_2[:1], y[:1])) < float(class_loss(toward_5[:1], y[:1]))
    assert float(class_loss(toward_2[:1], torch.tensor([-1]))) == 0.0
