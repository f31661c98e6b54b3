"""``training/ensemble.py``: merged seeds give the mean of their members (needs onnx: ``pytest -m train``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
LEFT_OUT = ROOT / "training" / "left_out"

pytestmark = pytest.mark.train


def _patches(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.integers(0, 256, (32, 32, 3), dtype=np.uint8) for _ in range(n)]


def test_merged_classifiers_give_the_mean_of_their_calibrated_logits(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from companion.vision.classifier import FaceClassifier
    from training import ensemble

    members = [LEFT_OUT / f"faces_without_nell-byler-d6_seed{s}.onnx" for s in (0, 1)]
    out = tmp_path / "faces.onnx"
    assert ensemble.main(["faces", *map(str, members), "--out", str(out)]) == 0
    patches = _patches(6)
    a, b = (FaceClassifier(m).classify(patches) for m in members)
    merged = FaceClassifier(out)
    got = merged.classify(patches)
    mean_log = (np.log(a.probs) + np.log(b.probs)) / 2
    want = np.exp(mean_log - mean_log.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    assert np.allclose(got.probs, want, atol=1e-5)
    assert np.allclose(got.offsets, (a.offsets + b.offsets) / 2, atol=1e-5)
    assert np.allclose(got.raw, np.concatenate([a.raw, b.raw], axis=1), atol=1e-5)
    # the class layer in the JSON is the one inside the graph, so a profile retrains the right layer
    assert merged.head is not None
    weight, bias = merged.head
    assert np.allclose(merged.softmax(got.raw @ weight.T + bias), got.probs, atol=1e-5)
    meta = json.loads(out.with_suffix(".json").read_text())
    assert [m["file"] for m in meta["ensemble"]] == [m.name for m in members]
    assert "nell-byler-d6" not in meta["sources"] and "CC BY 4.0" in meta["credit"]


def test_merged_detectors_average_their_maps(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from companion.vision.detector import DieDetector
    from companion.vision.render import RenderDie, render_dice
    from training import ensemble

    members = [LEFT_OUT / f"detector_without_{s}.onnx" for s in ("rune55-gray-closeups", "chase-casino-crops")]
    out = tmp_path / "dice_detector.onnx"
    with pytest.raises(SystemExit, match="same set"):  # members that never saw different sets do not mix
        ensemble.main(["detector", *map(str, members), "--out", str(out), "--threshold", "0.25"])
    assert not out.exists()  # refused before anything is written
    same = [members[0], members[0]]
    assert ensemble.main(["detector", *map(str, same), "--out", str(out), "--threshold", "0.25"]) == 0
    frame, _ = render_dice([RenderDie(v) for v in (1, 3, 5, 6)], seed=4, size=(800, 600))
    single, merged = DieDetector(members[0]), DieDetector(out)
    assert merged.threshold == 0.25 and merged.meta["left_out"] == "rune55-gray-closeups"
    for side in (None, 640):  # the first read and the larger second one
        want, scale = single.heatmap(frame, side)
        got, same_scale = merged.heatmap(frame, side)
        assert scale == same_scale and np.allclose(got, want, atol=1e-4)
