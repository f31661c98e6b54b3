"""How many windows the reader asks the face classifier about per frame, and the classifier's time.

    PYTHONPATH=$PWD .venv/bin/python training/experiments/classifier_windows.py nell-byler-d6 [--part train]
        [--frames 40] [--near-detection X]

The first ``--frames`` photos of a set's split part (sorted by name), each resized to 640x640, read by
the reader with the detector on one OpenCV thread. ``--near-detection`` replaces
``tuning.NEAR_DETECTION`` (1e9: every window of segmentation's near any detection, as before that
rule). Counts are exact; times move with other jobs on the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision import tuning  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "dice"))
    ap.add_argument("--part", choices=("train", "test"), default="train")
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--near-detection", type=float, default=tuning.NEAR_DETECTION)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    tuning.NEAR_DETECTION = args.near_detection
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    stems = sorted(split[args.set][args.part])[: args.frames]
    frames = [cv2.resize(frame, (640, 640), interpolation=cv2.INTER_AREA)
              for _, frame, _ in iterate(Path(args.data) / args.set, only=stems)]
    reader = DiceReader(detector=DieDetector())
    calls: list[tuple[int, float]] = []
    classify = reader.classifier.classify

    def counted(patches: list[np.ndarray]):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        out = classify(patches)
        calls.append((len(patches), (time.perf_counter() - t0) * 1000.0))
        return out

    reader.read(frames[0])  # load and warm up
    reader.classifier.classify = counted  # type: ignore[method-assign]
    dice = sum(len(reader.read(f).dice) for f in frames)
    n = len(frames)
    print(f"{args.set} ({args.part}, {n} frames 640x640, NEAR_DETECTION {args.near_detection:g}): "
          f"{dice / n:.1f} dice, {sum(c for c, _ in calls) / n:.1f} windows, "
          f"{sum(t for _, t in calls) / n:.1f} ms in the classifier, a frame")


if __name__ == "__main__":
    main()
