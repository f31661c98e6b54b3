"""The detector's training code (``training/detector``): run with ``pytest -m train`` (needs torch)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

pytestmark = pytest.mark.train


def test_targets_peak_at_each_die_and_carry_its_size():
    from training.detector.data import targets

    dice = np.array([[50.0, 70.0, 24.0], [130.5, 20.25, 40.0]], np.float32)
    heat, reg, mask = targets(dice, 256, 4)
    assert heat.shape == (64, 64) and mask.sum() == 2
    for cx, cy, side in dice:
        ix, iy = int(cx / 4), int(cy / 4)
        assert heat[iy, ix] == 1.0 and mask[iy, ix] == 1.0
        assert reg[0, iy, ix] == pytest.approx(cx / 4 - ix)
        assert reg[1, iy, ix] == pytest.approx(cy / 4 - iy)
        assert reg[2, iy, ix] == pytest.approx(math.log(side / 4))
    assert heat[0, 63] < 1e-6


def test_augmented_dice_stay_on_their_dice():
    """After scaling, turning and perspective each moved label still sits on its die: the pixels at its
    centre differ from the tray's felt, taken where no die is."""
    from training.detector.data import augment, render_tray

    rng = np.random.default_rng(3)
    photo = render_tray(7)
    for _ in range(5):
        img, dice = augment(rng, photo, 256)
        assert img.shape == (256, 256, 3)
        assert ((dice[:, :2] >= 0) & (dice[:, :2] < 256)).all()
        assert (dice[:, 2] > 3).all()
        felt = np.median(img.reshape(-1, 3), axis=0)
        for cx, cy, side in dice:
            r = max(1, int(side * 0.15))
            y, x = int(cy), int(cx)
            spot = img[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3).astype(float)
            assert np.abs(spot - felt).sum(axis=1).max() > 20


def test_held_back_photos_take_no_part():
    from training.detector.data import SETS, parts

    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    for name in SETS:
        p = parts(name)
        assert not set(p["fit"]) & set(split[name]["test"])
        assert not set(p["dev"]) & set(split[name]["test"])
        assert not set(p["fit"]) & set(p["dev"])
        assert sorted(p["fit"] + p["dev"]) == sorted(split[name]["train"])


def test_all_train_adds_the_dev_photos_and_never_the_held_back_ones():
    pytest.importorskip("torch")
    from training.detector.data import SETS, parts
    from training.detector.train import training_stems

    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    for name in SETS:
        assert training_stems(name, False) == parts(name)["fit"]
        both = training_stems(name, True)
        assert sorted(both) == sorted(split[name]["train"]) and len(both) > len(parts(name)["fit"])
        assert not set(both) & set(split[name]["test"])


@pytest.mark.parametrize("kind", ["default", "slim", "wide", "deep32"])
def test_exported_network_runs_in_opencv_as_in_torch(tmp_path, kind):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import cv2

    from training.detector import model as nets
    from training.detector.train import export, focal

    torch.manual_seed(0)
    model = nets.slim() if kind == "slim" else nets.wide() if kind == "wide" else nets.DieNet(deep32=kind == "deep32")
    x = torch.randn(2, 3, 64, 64)
    heat = torch.zeros(2, 16, 16)
    heat[:, 5, 7] = 1.0
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    first = None
    for _ in range(15):  # the loss falls on a fixed batch: the gradients reach the heatmap
        loss = focal(model(x)[:, 0], heat)
        first = float(loss) if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert float(loss) < first
    path = export(model, tmp_path, 64, {"input": 64, "stride": 4, "threshold": 0.3})
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x[:1].numpy())
    with torch.no_grad():
        want = model(x[:1]).numpy()
    assert np.allclose(net.forward(), want, atol=1e-3)


def test_hard_negatives_weigh_more_where_they_lie_and_move_with_the_image():
    from training.detector.data import augment_all, hard_weights, render_tray, targets

    photo = render_tray(7)
    free = np.array([[10.0, 10.0, 20.0]], np.float32)  # a place with no die: a stand-in for a tray screw
    photo.negatives = free
    rng = np.random.default_rng(0)
    moved = 0
    for _ in range(6):
        img, dice, negs = augment_all(rng, photo, 256)
        heat, _, _ = targets(dice, 256, 4)
        w = hard_weights(negs, heat, 4, 8.0)
        assert w.shape == heat.shape and w.min() >= 1.0
        assert (w[heat > 0.3] == 1.0).all()  # never on a die
        for cx, cy, _ in negs:
            moved += 1
            assert w[min(63, int(cy / 4)), min(63, int(cx / 4))] > 4.0
    assert moved >= 1
    assert (hard_weights(np.zeros((0, 3), np.float32), heat, 4, 8.0) == 1.0).all()


def test_mining_keeps_only_detections_off_the_labelled_dice():
    from companion.vision.detector import Detection
    from training.detector.data import Photo
    from training.detector.train import mine

    class Fixed:
        def detect(self, image, threshold=None):
            return [Detection(50.0, 50.0, 20.0, 0.9), Detection(150.0, 40.0, 20.0, 0.3)]

    photo = Photo("nell-byler-d6", "x", np.zeros((200, 200, 3), np.uint8), np.array([[52.0, 49.0, 22.0]], np.float32))
    assert mine(Fixed(), {"nell-byler-d6": [photo]}, 0.2) == {"nell-byler-d6": 1}  # type: ignore[arg-type]
    assert photo.negatives.tolist() == [[150.0, 40.0, 20.0]]


def test_generated_trays_take_their_share_of_the_draws():
    from training.detector.data import Photo
    from training.detector.train import Sampler

    def photo(name: str) -> Photo:
        return Photo(name, "x", np.zeros((40, 40, 3), np.uint8), np.array([[20.0, 20.0, 8.0]], np.float32))

    pools = {"nell-byler-d6": [photo("nell-byler-d6")], "matteop65-webcam": [photo("matteop65-webcam")]}
    rendered = [photo("rendered")]
    with_scenes = Sampler(pools, rendered, 64, seed=1, scenes=[photo("scenes")], scene_share=0.4)
    names = [with_scenes.photo().name for _ in range(2000)]
    assert abs(names.count("scenes") / 2000 - 0.4) < 0.04
    without = Sampler(pools, rendered, 64, seed=1)
    assert "scenes" not in {without.photo().name for _ in range(500)}
    # the others keep their proportions among themselves
    rest = [n for n in names if n != "scenes"]
    base = [without.photo().name for _ in range(2000)]
    for n in ("rendered", "nell-byler-d6"):
        assert abs(rest.count(n) / len(rest) - base.count(n) / len(base)) < 0.05


def test_generated_trays_can_take_the_2d_renders_share_and_leave_the_real_sets_theirs():
    from training.detector.data import Photo
    from training.detector.train import Sampler

    def photo(name: str) -> Photo:
        return Photo(name, "x", np.zeros((40, 40, 3), np.uint8), np.array([[20.0, 20.0, 8.0]], np.float32))

    pools = {"nell-byler-d6": [photo("nell-byler-d6")], "matteop65-webcam": [photo("matteop65-webcam")]}
    base = Sampler(pools, [photo("rendered")], 64, seed=2)
    swapped = Sampler(pools, [photo("rendered")], 64, seed=2, scenes=[photo("scenes")], scene_share=0.3,
                      scenes_for_rendered=True)
    weights = dict(zip(swapped.names, swapped.weights, strict=True))
    before = dict(zip(base.names, base.weights, strict=True))
    for real in pools:  # the real sets' shares unchanged, the 2D renders' given to the generated trays
        assert abs(weights[real] - before[real]) < 1e-9
    assert abs(weights["scenes"] + weights["rendered"] - before["rendered"]) < 1e-9
    assert weights["scenes"] == min(0.3, before["rendered"])
    names = [swapped.photo().name for _ in range(2000)]
    assert abs(names.count("scenes") / 2000 - weights["scenes"]) < 0.04
