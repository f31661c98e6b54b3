"""Is a change to the reader faster? This tree against another checkout, taking turns.

    git worktree add /tmp/base <commit>
    .venv/bin/python training/experiments/vision_speed_ab.py /tmp/base [--rounds 5]
        [--sets nell-byler-d6 matteop65-webcam]

On the shared machine the wall clock of one run moves by several milliseconds from one minute to
the next, more than most changes are worth. So each round reads the held-back photos (resized to
640x640, as ``benchmarks/vision_speed.py --square 640``) once with the other tree's reader and once with this
tree's, each in a fresh process pinned to the same core, with the detector, and prints the median
CPU time a photo of each; the rounds alternate which tree goes first. What a change is worth is the
median over rounds of the per-round differences: drift falls on both sides of each one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "dice"

# Run in a child process with the tree to time first on sys.path (the installed package may be an
# editable install of this tree).
_CHILD = r"""
import json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
from companion.vision.detector import DieDetector
from companion.vision.evaluate import find_images
from companion.vision.reader import DiceReader
split = json.loads((Path(sys.argv[1]) / "companion" / "vision" / "split.json").read_text())
out = []
for name in sys.argv[3:]:
    held_back = set(split[name]["test"])
    paths = [p for p in find_images(Path(sys.argv[2]) / name) if p.stem in held_back][:80]
    frames = [cv2.resize(cv2.imread(str(p)), (640, 640), interpolation=cv2.INTER_AREA) for p in paths]
    reader = DiceReader(detector=DieDetector())
    reader.read(frames[0])
    ms = []
    for f in frames:
        c = time.process_time()
        reader.read(f)
        ms.append((time.process_time() - c) * 1000)
    out.append(statistics.median(ms))
print(" ".join(f"{m:.2f}" for m in out))
"""


def run(tree: Path, data: Path, sets: list[str], core: int) -> list[float]:
    """Median CPU ms a photo per set, read by ``tree``'s reader in a fresh process on ``core``."""
    cmd = [sys.executable, "-c", _CHILD, str(tree), str(data), *sets]
    pin = (lambda: os.sched_setaffinity(0, {core})) if hasattr(os, "sched_setaffinity") else None
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/", preexec_fn=pin)
    return [float(v) for v in done.stdout.split()]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", type=Path, help="the other checkout (git worktree add DIR COMMIT)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sets", nargs="+", default=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--core", type=int, default=max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0)
    args = ap.parse_args(argv)
    base_all: list[list[float]] = []
    this_all: list[list[float]] = []
    for k in range(args.rounds):
        order = [(args.base, base_all), (ROOT, this_all)]
        for tree, into in order if k % 2 == 0 else order[::-1]:
            into.append(run(tree, args.data, args.sets, args.core))
        print(f"round {k + 1}: base " + " ".join(f"{m:.1f}" for m in base_all[-1])
              + " | this " + " ".join(f"{m:.1f}" for m in this_all[-1]) + " ms", flush=True)
    for i, name in enumerate(args.sets):
        base = statistics.median(r[i] for r in base_all)
        this = statistics.median(r[i] for r in this_all)
        diff = statistics.median(t[i] - b[i] for t, b in zip(this_all, base_all, strict=True))
        print(f"{name}: base {base:.1f} ms, this {this:.1f} ms; per-round difference, median {diff:+.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
