"""The classifier's training helpers: mined hard negatives (training/hard_negatives.py), the share of a
source's patches kept (train_faces.py --subsample) and the sources trained on more than once a pass
(--repeat). Marker ``train``: scripts/test-train runs them."""

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
