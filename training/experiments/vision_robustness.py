"""How the dice reader holds up when the same photos are taken differently: dimmer, closer, wider,
turned, more compressed. Per-die accuracy for each change, scored like ``companion dice eval``.

    .venv/bin/python training/experiments/vision_robustness.py [--part test|val] [--model M.onnx] [--no-detector]
        [--changes ...]

``--part test`` (default): the held-back photos of split.json with the shipped model. ``--part val``:
the dev part of the train photos (``training/detector/data.py``'s rule; for nell-byler-d6 and the
webcam set the same photos as training/dev_split.py), the part to compare readers on while changing
them. The reader reads as the daemon does, with the die detector; ``--no-detector`` without it.

Changes: ``none``; ``rot90``; ``scaleK`` (resized by K); ``dimK`` (every pixel times K); ``shade``
(light falling to 40% across the frame); ``warm`` (lamplight: blue x0.6, green x0.9, red x1.1);
``noiseS`` (Gaussian noise, sigma S); ``blurS`` (Gaussian blur, sigma S px); ``jpegQ`` (re-encoded at
quality Q); ``zoomK`` (the middle 1/K of the photo enlarged K times: dice K times larger,
only dice whose centre stays in the frame are scored; those cut by the edge may count as extra);
``tile`` (the photo mirrored into a 3x3 mosaic: nine times the dice, each a third of the width it had;
dice cut by the photo's edge become odd shapes at the seams).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.detector import DieDetector, available  # noqa: E402
from companion.vision.evaluate import LabelledDie, Score, enlarged, iterate  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice"  # ../shared beside the repository
CHANGES = ["none", "rot90", "scale2.5", "scale0.6", "dim0.45", "shade", "warm", "noise8", "blur1.5", "jpeg30",
           "zoom1.5", "zoom2", "zoom3", "tile"]


def change(frame: np.ndarray, labels: list[LabelledDie], name: str) -> tuple[np.ndarray, list[LabelledDie]]:
    """The frame taken differently, with its labels moved along."""
    h, w = frame.shape[:2]
    if name == "none":
        return frame, labels
    if name == "rot90":
        return cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE), [
            LabelledDie(lab.value, (h - 1 - lab.center[1], lab.center[0]), lab.size) for lab in labels]
    if name.startswith("scale"):
        return enlarged(frame, labels, float(name[5:]))
    if name.startswith("dim"):
        return (frame.astype(np.float32) * float(name[3:])).astype(np.uint8), labels
    if name == "warm":  # lamplight: less blue, a little more red
        return np.clip(frame.astype(np.float32) * np.float32([0.6, 0.9, 1.1]), 0, 255).astype(np.uint8), labels
    if name.startswith("noise"):  # sensor noise of a dim room, sigma in grey levels
        noise = np.random.default_rng(0).normal(0.0, float(name[5:]), frame.shape)
        return np.clip(frame + noise, 0, 255).astype(np.uint8), labels
    if name.startswith("blur"):  # out of focus, sigma in px
        return cv2.GaussianBlur(frame, (0, 0), float(name[4:])), labels
    if name == "shade":  # light falling off across the tray: the far side at 40%
        ramp = np.linspace(1.0, 0.4, w, dtype=np.float32)[None, :, None]
        return (frame.astype(np.float32) * ramp).astype(np.uint8), labels
    if name.startswith("jpeg"):
        _, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(name[4:])])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), labels
    if name.startswith("zoom"):
        k = float(name[4:])
        x0, y0 = (w - w / k) / 2, (h - h / k) / 2
        out = cv2.warpAffine(frame, np.float32([[k, 0, -x0 * k], [0, k, -y0 * k]]), (w, h), flags=cv2.INTER_CUBIC)
        return out, [LabelledDie(lab.value, ((lab.center[0] - x0) * k, (lab.center[1] - y0) * k), lab.size * k)
                     for lab in labels if 0 <= (lab.center[0] - x0) * k < w and 0 <= (lab.center[1] - y0) * k < h]
    if name == "tile":
        out = cv2.copyMakeBorder(frame, h, h, w, w, cv2.BORDER_REFLECT)  # mirrored: x -> w - 1 - x
        return out, [LabelledDie(lab.value, (x, y), lab.size) for lab in labels
                     for x in (w - 1 - lab.center[0], lab.center[0] + w, 3 * w - 1 - lab.center[0])
                     for y in (h - 1 - lab.center[1], lab.center[1] + h, 3 * h - 1 - lab.center[1])]
    raise SystemExit(f"unknown change {name!r}")


def photos(name: str, part: str) -> Iterator[tuple[Path, np.ndarray, list[LabelledDie]]]:
    if part == "val":
        from training.detector.data import parts
        only = parts(name)["dev"]
    else:
        only = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[name]["test"]
    return iterate(DATA / name, only=only)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--part", choices=["test", "val"], default="test")
    ap.add_argument("--model", default=None)
    ap.add_argument("--sets", nargs="*", default=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--changes", nargs="*", default=CHANGES)
    ap.add_argument("--no-detector", action="store_true", help="the reader without the die detector")
    args = ap.parse_args()
    detector = None if args.no_detector or not available() else DieDetector()
    reader = DiceReader(args.model, detector=detector)
    print("| set | change | frame | per-die | missed / extra | median ms |\n| --- | --- | --- | --- | --- | --- |")
    for name in args.sets:
        for what in args.changes:
            score, size = Score(), ""
            for _, frame, labels in photos(name, args.part):
                seen, truth = change(frame, labels, what)
                size = f"{seen.shape[1]}x{seen.shape[0]}"
                reading = reader.read(seen)
                dice = [(d.value, d.box, d.center, d.confidence) for d in reading.dice]
                score.add(truth, dice, reading.ms, UNCERTAIN)
            s = score.summary()
            print(f"| {name} | {what} | {size} | {100 * s['accuracy']:.2f}% | {s['missed']} / {s['extra']} "  # type: ignore[operator]
                  f"| {s['ms_median']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
