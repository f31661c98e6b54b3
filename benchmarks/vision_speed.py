"""Speed of the dice reader on one core: median milliseconds per photo.

    .venv/bin/python benchmarks/vision_speed.py [DATA_DIR ...]

Defaults to the held-back photos of the dev sets when /work/shared/data/dice exists, else to the test
fixtures. OpenCV is limited to one thread (a Pi 4 core is about 4x slower than one core here).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import cv2

from companion.vision.evaluate import find_images
from companion.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [Path("/work/shared/data/dice/nell-byler-d6"), Path("/work/shared/data/dice/matteop65-webcam")]


def main(argv: list[str]) -> int:
    cv2.setNumThreads(1)
    dirs = [Path(a) for a in argv] or [d for d in DEFAULT if d.exists()]
    if not dirs:
        dirs = sorted((ROOT / "tests" / "fixtures" / "dice").iterdir())
    reader = DiceReader()
    for d in dirs:
        frames = [cv2.imread(str(p)) for p in find_images(d)[:80]]
        reader.read(frames[0])  # warm-up: the first forward pass sets up the network
        ms = []
        for f in frames:
            t = time.perf_counter()
            reader.read(f)
            ms.append((time.perf_counter() - t) * 1000)
        h, w = frames[0].shape[:2]
        print(f"{d.name}: {len(ms)} photos {w}x{h}, median {statistics.median(ms):.1f} ms, "
              f"p90 {sorted(ms)[int(0.9 * len(ms))]:.1f} ms (one thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
