"""Do the reader's wrong dice and the layout counter's miscounts coincide? Each labelled die of a set's
tune part sorted by whether the reading was right and whether ``layouts.fit_layout``, on the die's
final window, agreed with the value read, found another number, or gave no count.

    .venv/bin/python training/layout_agreement.py --model /tmp/noNellX.onnx --set nell-byler-d6

Reads as ``unseen_eval.py --crosswise --part tune`` does, without and with the 5-photo profile. The
bins do not depend on confidence, so they are the same with or without the reader's layout check.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from companion.vision.calibrate import build_profile  # noqa: E402
from companion.vision.evaluate import iterate, match  # noqa: E402
from companion.vision.layouts import fit_layout  # noqa: E402
from companion.vision.reader import DiceReader, _Window  # noqa: E402
from training.dev_split import DATA  # noqa: E402
from training.unseen_eval import OTHER, crosswise_counts, profile_photos  # noqa: E402


class LayoutReader(DiceReader):
    """A reader that keeps the layout counter's count on each die's final window."""

    def __init__(self, model: str, pip_counts: np.ndarray) -> None:
        super().__init__(model, pip_counts=pip_counts)
        self.layouts: dict[tuple[float, float], int | None] = {}

    def _weigh_die(self, frame: np.ndarray, w: _Window, allowed: np.ndarray | None
                   ) -> tuple[np.ndarray, np.ndarray, int | None]:
        self.layouts[(w.cx, w.cy)] = fit_layout(frame, w.cx, w.cy, w.size).count
        return super()._weigh_die(frame, w, allowed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--set", required=True, choices=sorted(OTHER))
    args = ap.parse_args()
    stems, tune = profile_photos(args.set)
    reader = LayoutReader(args.model, crosswise_counts(args.set))
    data = DATA / args.set
    profile = build_profile(reader, ((f, labels) for _, f, labels in iterate(data, only=stems)))
    frames = list(iterate(data, only=tune))
    for name, prof in (("no profile", None), ("profile", profile)):
        bins: Counter[tuple[str, str]] = Counter()
        for _, frame, labels in frames:
            reader.layouts.clear()
            dice = reader.read(frame, profile=prof).dice
            used: set[int] = set()
            placed = [(d.box, d.center) for d in dice]
            for lab in labels:
                i = match(lab, placed, used)
                if i < 0:
                    continue
                used.add(i)
                count = reader.layouts[dice[i].center]
                agree = "no count" if count is None else ("agrees" if str(count) == str(dice[i].value) else "differs")
                bins[("right" if str(dice[i].value) == str(lab.value) else "wrong", agree)] += 1
        print(f"{args.set} tune {name}: " + "; ".join(
            f"{ok}, layout {agree}: {bins[(ok, agree)]}" for ok in ("right", "wrong")
            for agree in ("agrees", "differs", "no count")), flush=True)


if __name__ == "__main__":
    main()
