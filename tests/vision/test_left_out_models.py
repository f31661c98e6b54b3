"""The leave-one-source-out models kept in training/left_out/ are what their names say: trained
without the set, and loadable by the reader's own classes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.vision.classifier import FaceClassifier
from companion.vision.detector import DieDetector
from training.sources import SOURCES

LEFT_OUT = Path(__file__).resolve().parents[2] / "training" / "left_out"
DETECTORS = sorted(LEFT_OUT.glob("detector_without_*.onnx"))
CLASSIFIERS = sorted(LEFT_OUT.glob("faces_without_*.onnx"))


def _left_out_set(path: Path) -> str:
    """``detector_without_SET[_seedN].onnx`` / ``faces_without_SET_seedN.onnx`` -> SET."""
    return path.stem.split("_without_", 1)[1].rsplit("_seed", 1)[0]


def test_every_left_out_model_is_listed_in_the_readme() -> None:
    readme = (LEFT_OUT / "README.md").read_text()
    assert len(DETECTORS) == 9 and len(CLASSIFIERS) == 2
    for path in DETECTORS + CLASSIFIERS:
        assert f"`{path.stem}`" in readme


@pytest.mark.parametrize("path", DETECTORS, ids=lambda p: p.stem)
def test_a_left_out_detector_never_saw_its_set(path: Path) -> None:
    meta = json.loads(path.with_suffix(".json").read_text())
    name = _left_out_set(path)
    assert meta["left_out"] == name
    assert name not in meta["trained_on"] and name not in meta["hard_negatives"] and name not in meta["dev"]
    frame = np.full((240, 320, 3), 90, np.uint8)
    found = DieDetector(path).find(frame)
    assert found.heatmaps[0][0].ndim == 2  # it runs in cv2.dnn and gives a heatmap


@pytest.mark.parametrize("path", CLASSIFIERS, ids=lambda p: p.stem)
def test_a_left_out_classifier_never_saw_its_set(path: Path) -> None:
    meta = json.loads(path.with_suffix(".json").read_text())
    name = _left_out_set(path)
    assert name not in meta["sources"]
    assert f"--drop-source {SOURCES[name][0]}" in meta["command"]
    scores = FaceClassifier(path).classify([np.full((32, 32, 3), 128, np.uint8)])
    assert scores.probs.shape == (1, len(meta["classes"]))
    assert abs(float(scores.probs.sum()) - 1.0) < 1e-4
