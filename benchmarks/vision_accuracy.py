"""Accuracy of the dice reader on the held-back photos, without and with a profile.

    .venv/bin/python benchmarks/vision_accuracy.py [--data /work/shared/data/dice] [--sets NAME ...]

The reader **without** the learned detector (``--no-detector``; the daemon's reader, with it, is scored
by ``benchmarks/vision_detection.py``). For each dev set: ``companion dice eval DIR --split test
--no-detector`` (no profile); then a profile from 5 photos of the set's *train* part (``companion dice
calibrate --only --no-detector``) and the same eval with ``--profile``.
The test photos take no part in training, tuning or the profile (see companion/vision/split.json).

There are no real photos of symbol faces, so ``--symbols`` also renders Heckmeck-style dice (white,
worm in place of the 6) with seeds the training never used, writes them as a labelled folder, and
scores them the same way, without and with a profile from 5 of them. Rendered numbers say whether the
symbol class works; they are not an accuracy claim for real photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.cli import main as companion  # noqa: E402
from companion.vision import FACES  # noqa: E402
from companion.vision.render import RenderDie, render_dice  # noqa: E402

SPLIT = Path(__file__).resolve().parents[1] / "companion" / "vision" / "split.json"


def run(argv: list[str]) -> None:
    print("$ companion " + " ".join(argv), flush=True)
    code = companion(argv)
    if code:
        raise SystemExit(code)


def write_symbol_set(folder: Path, frames: int, first_seed: int = 50_000) -> list[str]:
    """Rendered Heckmeck-style frames with YOLO labels (class 6 = symbol face); returns the stems."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    rng = np.random.default_rng(first_seed)
    stems = []
    for i in range(frames):
        faces: list[int | str] = [int(f) if f != 6 else "worm" for f in rng.integers(1, 7, int(rng.integers(3, 9)))]
        frame, drawn = render_dice([RenderDie(f, "white") for f in faces], seed=first_seed + i,
                                   die_size=float(rng.uniform(30, 60)), touching=bool(rng.random() < 0.3),
                                   glare=bool(rng.random() < 0.3), noise=float(rng.uniform(0, 6)),
                                   dim=float(rng.uniform(0.5, 1.0)))
        h, w = frame.shape[:2]
        stem = f"symbols_{i:03d}"
        cv2.imwrite(str(folder / "images" / f"{stem}.png"), frame)
        lines = [f"{FACES.index(d.face)} {(d.box[0] + d.box[2]) / 2 / w:.5f} {(d.box[1] + d.box[3]) / 2 / h:.5f} "
                 f"{(d.box[2] - d.box[0]) / w:.5f} {(d.box[3] - d.box[1]) / h:.5f}" for d in drawn]
        (folder / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n")
        stems.append(stem)
    return stems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default="/work/shared/data/dice")
    ap.add_argument("--sets", nargs="*", default=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--model", help="score another classifier than the shipped one")
    ap.add_argument("--symbols", type=int, default=60, help="rendered symbol-face frames (0: none)")
    args = ap.parse_args()
    split = json.loads(SPLIT.read_text())
    # the reader without the detector (``--no-detector``): the daemon's, with it, is scored by
    # benchmarks/vision_detection.py
    model = (["--model", args.model] if args.model else []) + ["--no-detector"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            data = str(Path(args.data) / name)
            run(["dice", "eval", data, "--split", "test", *model])
            train = split[name]["train"]
            stems = train[:: max(1, len(train) // 5)][:5]
            profile = str(Path(tmp) / f"{name}.npz")
            run(["dice", "calibrate", data, "--out", profile, *model, "--only", *stems])
            run(["dice", "eval", data, "--split", "test", "--profile", profile, *model])
        if args.symbols:
            folder = Path(tmp) / "symbols"
            stems = write_symbol_set(folder, args.symbols)
            print(f"# {args.symbols} rendered Heckmeck-style frames in {folder}", flush=True)
            run(["dice", "eval", str(folder), *model])
            profile = str(Path(tmp) / "symbols.npz")
            run(["dice", "calibrate", str(folder), "--out", profile, *model, "--only", *stems[:5]])
            run(["dice", "eval", str(folder), "--profile", profile, "--skip", *stems[:5], *model])
    return 0


if __name__ == "__main__":
    sys.exit(main())
