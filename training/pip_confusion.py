"""Count how the classical pip counter errs on the reader's own windows: ``reader.PIP_COUNTS``.

    .venv/bin/python training/pip_confusion.py --model companion/vision/models/faces.onnx \
        --left-out nell-byler-d6=/tmp/noNellX.onnx matteop65-webcam=/tmp/noWebcamX.onnx

Each set's train photos are read once with ``--model`` (dice it knows) and once with the model trained
without that set (dice it never saw: its windows sit less well on the top faces, and the counter
misses more pips). Every die with a count whose centre lies in a label's box adds one to (true face,
count). The held-back photos are never read. ``--json FILE`` also writes each set's own total (both models),
which ``unseen_eval.py --crosswise`` uses: a set left out is then scored with counts from the other
set only, so that its own dice do not shape the weights it is judged with.

    .venv/bin/python training/pip_confusion.py --faint 4 [--json FILE]

``reader.PIP_COUNTS_FAINT``: the same tally for the faint counts alone (``PipCount.clarity`` under the
given value), over the train photos of every set in ``split.json``, read as the daemon reads (the
shipped models and the die detector). It prints the share of counts right on either side of the value
and, with ``--json``, each set's own faint tally, so that a set measured as new can be read with a
tally its own dice took no part in (``DiceReader(faint_counts=...)``).
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


def faint_confusion(name: str, stems: list[str], below: float) -> tuple[np.ndarray, np.ndarray]:
    """(true face, count) of the faint counts, and of the clearer ones."""
    from companion.vision.detector import DieDetector

    reader = DiceReader(detector=DieDetector())
    faint, clear = np.zeros((6, 6), np.int64), np.zeros((6, 6), np.int64)
    for _, frame, labels in iterate(DATA / name, only=stems):
        for die in reader.read(frame).dice:
            label = next((lab for lab in labels if abs(lab.center[0] - die.center[0]) < lab.size / 2
                          and abs(lab.center[1] - die.center[1]) < lab.size / 2), None)
            if label is None or not isinstance(label.value, int) or die.pips is None:
                continue
            (faint if die.pip_clarity < below else clear)[label.value - 1, die.pips - 1] += 1
    return faint, clear


def main_faint(below: float, json_out: str | None) -> None:
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    total, total_clear = np.zeros((6, 6), np.int64), np.zeros((6, 6), np.int64)
    by_set: dict[str, list[list[int]]] = {}
    for name in (n for n in split if n != "about"):
        m, clear = faint_confusion(name, split[name]["train"], below)
        print(f"{name}: faint counts right {np.trace(m)} of {m.sum()}, the others {np.trace(clear)} of {clear.sum()}",
              m.tolist(), flush=True)
        by_set[name] = m.tolist()
        total, total_clear = total + m, total_clear + clear
    print(f"right: faint {np.trace(total)} of {total.sum()}, the others {np.trace(total_clear)} of {total_clear.sum()}")
    print("PIP_COUNTS_FAINT =", total.tolist())
    if json_out:
        Path(json_out).write_text(json.dumps(by_set) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", help="the model that saw every set")
    ap.add_argument("--left-out", nargs="+", metavar="SET=MODEL", help="for each set, a model trained without it")
    ap.add_argument("--faint", type=float, metavar="CLARITY",
                    help="tally only counts fainter than this, read as the daemon reads (reader.PIP_COUNTS_FAINT)")
    ap.add_argument("--json", help="write {set: its own 6x6 counts} here (for unseen_eval.py --crosswise)")
    args = ap.parse_args()
    if args.faint is not None:
        main_faint(args.faint, args.json)
        return
    if not args.model or not args.left_out:
        ap.error("--model and --left-out are needed without --faint")
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
