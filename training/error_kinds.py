"""Why the reader gets dice wrong on a set its model never saw: each die of the tune part sorted by
what the two witnesses said.

    .venv/bin/python training/error_kinds.py --model /tmp/noNellX.onnx --set nell-byler-d6

Reads as ``unseen_eval.py --crosswise --part tune`` does (the same profile photos, the pip counts of
the other set), without and with the profile, and puts each labelled die in one bin:
- ``right``; ``right, not the network's best``: the count (or ``one_set``, for a die the network read as a
  symbol face) turned it;
- ``missed``: no die read there;
- ``network right, count overrode``: the network's own best face was right, the count turned it;
- ``network wrong, count right``: the count gave the true face but did not win;
- ``network wrong, no count``; ``both wrong``.
It also counts the wrong dice read as a symbol face, by the count they got. Choices may be made from
these bins only on the tune part, as from ``unseen_eval.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from companion.vision import FACES  # noqa: E402
from companion.vision.calibrate import build_profile  # noqa: E402
from companion.vision.evaluate import iterate, match  # noqa: E402
from companion.vision.reader import DiceReader, _Window  # noqa: E402
from training.dev_split import DATA  # noqa: E402
from training.unseen_eval import OTHER, crosswise_counts, profile_photos  # noqa: E402


class WitnessReader(DiceReader):
    """A reader that keeps, per die, the network's own face probabilities and the pip count."""

    def __init__(self, model: str, pip_counts: np.ndarray) -> None:
        super().__init__(model, pip_counts=pip_counts)
        self.witnesses: dict[tuple[float, float], tuple[np.ndarray, int | None]] = {}

    def _weigh_die(self, frame: np.ndarray, w: _Window, allowed: np.ndarray | None
                   ) -> tuple[np.ndarray, np.ndarray, int | None]:
        out = super()._weigh_die(frame, w, allowed)
        self.witnesses[(w.cx, w.cy)] = (out[1], out[2])
        return out


def kind(truth: str, value: str, network: np.ndarray, count: int | None) -> str:
    own = str(FACES[int(np.argmax(network))])  # the network's best face, before the count and one_set
    if value == truth:
        return "right" if own == truth else "right, not the network's best"
    if own == truth:
        return "network right, count overrode"
    if count is not None and str(count) == truth:
        return "network wrong, count right"
    return "network wrong, no count" if count is None else "both wrong"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--set", required=True, choices=sorted(OTHER))
    args = ap.parse_args()
    stems, tune = profile_photos(args.set)
    reader = WitnessReader(args.model, crosswise_counts(args.set))
    data = DATA / args.set
    profile = build_profile(reader, ((f, labels) for _, f, labels in iterate(data, only=stems)))
    frames = list(iterate(data, only=tune))
    for name, prof in (("no profile", None), ("profile", profile)):
        bins: Counter[str] = Counter()
        worms: Counter[str] = Counter()
        for _, frame, labels in frames:
            reader.witnesses.clear()
            dice = reader.read(frame, profile=prof).dice
            used: set[int] = set()
            placed = [(d.box, d.center) for d in dice]
            for lab in labels:
                i = match(lab, placed, used)
                if i < 0:
                    bins["missed"] += 1
                    continue
                used.add(i)
                network, count = reader.witnesses[dice[i].center]
                k = kind(str(lab.value), str(dice[i].value), network, count)
                bins[k] += 1
                if k != "right" and dice[i].value == "worm":
                    worms[str(count)] += 1
        total = sum(bins.values())
        print(f"{args.set} tune {name}: {total} dice; " + "; ".join(f"{k} {v}" for k, v in bins.most_common()))
        print(f"  wrong as a symbol face: {sum(worms.values())}, by count: {dict(sorted(worms.items()))}")


if __name__ == "__main__":
    main()
