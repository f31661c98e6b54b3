"""Accuracy of the dice reader on the held-back photos, without and with a profile.

    .venv/bin/python benchmarks/vision_accuracy.py [--data /work/shared/data/dice] [--sets NAME ...]

For each dev set: ``companion dice eval DIR --split test`` (no profile); then a profile from 5 photos
of the set's *train* part (``companion dice calibrate --only``) and the same eval with ``--profile``.
The test photos take no part in training, tuning or the profile (see companion/vision/split.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from companion.cli import main as companion

SPLIT = Path(__file__).resolve().parents[1] / "companion" / "vision" / "split.json"


def run(argv: list[str]) -> None:
    print("$ companion " + " ".join(argv), flush=True)
    code = companion(argv)
    if code:
        raise SystemExit(code)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default="/work/shared/data/dice")
    ap.add_argument("--sets", nargs="*", default=["nell-byler-d6", "matteop65-webcam"])
    args = ap.parse_args()
    split = json.loads(SPLIT.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            data = str(Path(args.data) / name)
            run(["dice", "eval", data, "--split", "test"])
            train = split[name]["train"]
            stems = train[:: max(1, len(train) // 5)][:5]
            profile = str(Path(tmp) / f"{name}.npz")
            run(["dice", "calibrate", data, "--out", profile, "--only", *stems])
            run(["dice", "eval", data, "--split", "test", "--profile", profile])
    return 0


if __name__ == "__main__":
    sys.exit(main())
