"""Does a change to the reader read the dev photos as before? This tree against another checkout.

    git worktree add /tmp/base <commit>
    .venv/bin/python training/experiments/vision_same_readings.py /tmp/base [--sets NAME ...] [--set NAME=VALUE ...]

A speed change must not change what the reader reads. Each tree reads the dev photos of the four
real sets (``training/detector/data.py``'s dev rule: where settings are chosen, never the held-back
photos), with the detector, once blind and once told how many dice lie there, each in a fresh
process. The readings are compared photo by photo: the values in order, the centres to half a
pixel and the confidences to 0.02 (a different engine's rounding moves no more than that). Prints
each reading that differs, then per set the dice read right by each tree (blind, with the count).
``--set NAME=VALUE`` sets one of the reader's constants in this tree's process first (trying a value
before editing it in). Exits 1 when a reading differs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "dice"
SETS = ("nell-byler-d6", "matteop65-webcam", "rune55-gray-closeups", "chase-casino-crops")

# Run in a child process with the tree to read first on sys.path (the installed package may be an
# editable install of this tree).
_CHILD = r"""
import json, sys
from pathlib import Path
tree, data, sets, settings = sys.argv[1], Path(sys.argv[2]), sys.argv[3].split(","), json.loads(sys.argv[4])
sys.path.insert(0, tree)
import cv2
cv2.setNumThreads(1)
from companion.vision import reader as R
try:
    from companion.vision import tuning as T  # the reader's constants, since the reader was split by stage
except ImportError:
    T = R  # an older tree: its constants are the reader module's
from companion.vision.detector import DieDetector
from companion.vision.evaluate import Score, iterate
from training.detector.data import parts
for k, v in settings.items():
    setattr(T, k, type(getattr(T, k))(v))
reader = R.DiceReader(detector=DieDetector())
out, right = {}, {}
for name in sets:
    scores = {"blind": Score(), "count": Score()}
    for path, frame, labels in iterate(data / name, only=parts(name)["dev"]):
        for how, score in scores.items():
            r = reader.read(frame, expected=len(labels) if how == "count" else None)
            out[f"{name}/{path.stem}/{how}"] = [[d.value, d.center[0], d.center[1], d.confidence] for d in r.dice]
            score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, T.UNCERTAIN)
    right[name] = [scores["blind"].right, scores["count"].right, scores["blind"].dice]
print(json.dumps({"readings": out, "right": right}))
"""


def read(tree: Path, data: Path, sets: list[str], settings: dict[str, float]) -> dict:
    """The readings of ``tree``'s reader, in a fresh process."""
    cmd = [sys.executable, "-c", _CHILD, str(tree), str(data), ",".join(sets), json.dumps(settings)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd="/")
    out: dict = json.loads(done.stdout)
    return out


def same(a: list, b: list) -> bool:
    """Two readings of one photo are the same: the values in order, centres and confidences close."""
    return len(a) == len(b) and all(
        x[0] == y[0] and abs(x[1] - y[1]) < 0.5 and abs(x[2] - y[2]) < 0.5 and abs(x[3] - y[3]) < 0.02
        for x, y in zip(a, b, strict=True))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", type=Path, help="the other checkout (git worktree add DIR COMMIT)")
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a reader constant for this tree's process")
    args = ap.parse_args(argv)
    settings = {k: float(v) for k, v in (s.split("=", 1) for s in args.set)}
    base, this = read(args.base, args.data, args.sets, {}), read(ROOT, args.data, args.sets, settings)
    differ = 0
    for key, old in base["readings"].items():
        new = this["readings"][key]
        if not same(old, new):
            differ += 1
            print(f"differs: {key}: {[d[0] for d in old]} -> {[d[0] for d in new]}")
    print(f"{differ} of {len(base['readings'])} readings differ")
    for name in args.sets:
        (b_blind, b_count, n), (t_blind, t_count, _) = base["right"][name], this["right"][name]
        print(f"{name}: {n} dice; right blind {b_blind} -> {t_blind}, with the count {b_count} -> {t_count}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
