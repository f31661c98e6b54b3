"""Count how the classical pip counter errs on the reader's own windows: ``tuning.PIP_COUNTS``.

    .venv/bin/python training/pip_confusion.py --model companion/vision/models/faces.onnx \
        --left-out nell-byler-d6=/tmp/noNellX.onnx matteop65-webcam=/tmp/noWebcamX.onnx

Each set's train photos are read once with ``--model`` (dice it knows) and once with the model trained
without that set (dice it never saw: its windows sit less well on the top faces, and the counter
misses more pips). Every die with a count whose centre lies in a label's box adds one to (true face,
count). The held-back photos are never read. ``--json FILE`` also writes each set's own total (both models),
which ``unseen_eval.py --crosswise`` uses: a set left out is then scored with counts from the other
set only, so that its own dice do not shape the weights it is judged with.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from training.dev_split import DATA  # noqa: E402


def confusion(model: str, name: str, stems: list[str]) -> np.ndarray:
    reader = DiceReader(model)
    out = np.zeros((6, 6), np.int64)
    for _, frame, labels in iterate(DATA / name, only=stems):
        for die in reader.read(frame).dice:
            label = next((lab for lab in labels if abs(lab.center[0] - die.center[0]) < lab.size / 2
                          and abs(lab.center[1] - die.center[1]) < lab.size / 2), None)
            if label is not None and isinstance(label.value, int) and die.pips is not None:
                out[label.value - 1, die.pips - 1] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="the model that saw every set")
    ap.add_argument("--left-out", nargs="+", required=True, metavar="SET=MODEL",
                    help="for each set, a model trained without it")
    ap.add_argument("--json", help="write {set: its own 6x6 counts} here (for unseen_eval.py --crosswise)")
    args = ap.parse_args()
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    total = np.zeros((6, 6), np.int64)
    by_set: dict[str, list[list[int]]] = {}
    for item in args.left_out:
        name, unseen = item.split("=", 1)
        own = np.zeros((6, 6), np.int64)
        for model in (args.model, unseen):
            m = confusion(model, name, split[name]["train"])
            print(name, model, m.tolist(), flush=True)
            own += m
        by_set[name] = own.tolist()
        total += own
    print("PIP_COUNTS =", total.tolist())
    if args.json:
        Path(args.json).write_text(json.dumps(by_set) + "\n")


if __name__ == "__main__":
    main()
