"""Where the reader loses the dice it misses: for each labelled die no reading matches, the last stage
that still had it.

    .venv/bin/python training/experiments/vision_losses.py --part train --sets rune55-gray-closeups [--list]
    .venv/bin/python training/experiments/vision_losses.py --part train --sets nell-byler-d6
        --detector D.onnx --model F.onnx

Stages, from the earliest loss to the latest:

- ``not looked at``: no detection (from ``tuning.DOUBT``) and no classified window near the die;
- ``detected, not classified``: a detection, but no window near the die was classified;
- ``classified, no die``: windows near it were classified, none as a die (die score under
  ``tuning.DIE_SCORE``, after moving onto the top face too);
- ``witness rule``: read as a die, then dropped for want of a second witness (``_witnessed``);
- ``a die, lost later``: a window near it was a die, and none survived (suppression, the size filter).

"Near" is within half the label's side of its centre. The reader is the daemon's (with the detector),
blind. Only ``--part dev`` and ``--part train`` (the same photos as ``benchmarks/vision_detection.py``): the
held-back photos are for scoring, not for looking at what went wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.evaluate import LabelledDie, iterate, match  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.reading import DieReading  # noqa: E402
from companion.vision.tuning import DIE_SCORE  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from vision_detection import SETS, part_stems  # noqa: E402  (the same photos for each --part)

STAGES = ("not looked at", "detected, not classified", "classified, no die", "witness rule",
          "a die, lost later")


@dataclass
class Trace:
    """What one reading looked at: every classified window (x, y, side, die score) and the dice the
    witness rule dropped."""

    classified: list[tuple[float, float, float, float]] = field(default_factory=list)
    unwitnessed: list[DieReading] = field(default_factory=list)


def traced(reader: DiceReader) -> Trace:
    """Wrap the reader's classification and witness rule (on this instance only) to fill a Trace."""
    trace = Trace()
    classify: Callable[..., Any] = reader._classify
    witnessed: Callable[..., bool] = reader._witnessed

    def classify_and_keep(wins: list[Any], prof: Any) -> Any:
        found = classify(wins, prof)
        trace.classified += [(w.cx, w.cy, w.size, reader._die_score(w.probs)) for w in found]
        return found

    def witnessed_and_keep(die: DieReading, die_score: float = 0.0) -> bool:
        ok = witnessed(die, die_score)
        if not ok:
            trace.unwitnessed.append(die)
        return ok

    reader._classify = classify_and_keep  # type: ignore[method-assign]
    reader._witnessed = witnessed_and_keep  # type: ignore[method-assign]
    return trace


def stage(label: LabelledDie, trace: Trace, detections: list[tuple[float, float]]) -> str:
    """The last stage that still had a missed die."""
    x, y = label.center
    near = 0.5 * label.size

    def close(px: float, py: float) -> bool:
        return bool(np.hypot(px - x, py - y) < near)

    if any(close(*d.center) for d in trace.unwitnessed):
        return "witness rule"
    scores = [s for cx, cy, _, s in trace.classified if close(cx, cy)]
    if scores:
        return "a die, lost later" if max(scores) >= DIE_SCORE else "classified, no die"
    return "detected, not classified" if any(close(*d) for d in detections) else "not looked at"


def losses(reader: DiceReader, data: Path, name: str, part: str, listing: bool) -> Counter[str]:
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    out: Counter[str] = Counter()
    trace = traced(reader)
    for path, frame, labels in iterate(data / name, only=part_stems(name, part, split)):
        trace.classified.clear()
        trace.unwitnessed.clear()
        reading = reader.read(frame)
        dice = [(d.box, d.center) for d in reading.dice]
        used: set[int] = set()
        detections = [(d.cx, d.cy) for d in reader.last_detections]
        for label in labels:
            i = match(label, dice, used)
            if i >= 0:
                used.add(i)
                continue
            where = stage(label, trace, detections)
            out[where] += 1
            if listing:
                print(f"  {path.stem}: a {label.value} of {label.size:.0f} px at "
                      f"({label.center[0]:.0f}, {label.center[1]:.0f}): {where}")
        out["dice"] += len(labels)
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "dice"))
    ap.add_argument("--part", choices=("dev", "train"), default="dev")
    ap.add_argument("--sets", nargs="*", default=list(SETS))
    ap.add_argument("--detector", help="another detector than the shipped one (e.g. trained --without a set)")
    ap.add_argument("--model", help="another face classifier than the shipped one")
    ap.add_argument("--list", action="store_true", help="print every missed die and its stage")
    args = ap.parse_args(argv)
    reader = DiceReader(args.model, detector=DieDetector(args.detector))
    for name in args.sets:
        counts = losses(reader, Path(args.data), name, args.part, args.list)
        missed = sum(counts[s] for s in STAGES)
        print(f"{name} ({args.part}): {counts['dice']} dice, {missed} missed")
        for s in STAGES:
            print(f"  {s:<26} {counts[s]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
