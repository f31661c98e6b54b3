"""How many dice the reader answers, and how many of those are wrong, at several answer thresholds.

The reader answers a die (state "settled") when its confidence is at least ``tuning.UNCERTAIN``;
below it the tablet asks for one tap. This reads each photo once, blind, with the detector, matches
the dice to the labels as ``benchmarks/vision_detection.py`` does, and prints for each threshold the answered
dice and the wrong ones among them (confident-wrong). The reading itself does not depend on the
threshold (the detector's witness rule has its own bar, ``tuning.SURE_READING``), so one read gives
every row.

    .venv/bin/python training/experiments/answer_threshold.py --part dev
    .venv/bin/python training/experiments/answer_threshold.py --part train --sets nell-byler-d6
        --detector D.onnx --model F.onnx

``--part`` as in ``benchmarks/vision_detection.py`` (the same photos): dev (where choices are made), train
(every train photo but the calibration's five, for a set the models were trained without), test
(the held-back photos).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.evaluate import iterate, match  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from vision_detection import SETS, part_stems  # noqa: E402  (the same photos for each --part)

THRESHOLDS = (0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99)


def read_set(reader: DiceReader, data: Path, part: str) -> list[tuple[float, bool]]:
    """(confidence, right) of every labelled die the reader found."""
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    out: list[tuple[float, bool]] = []
    for _, frame, labels in iterate(data, only=part_stems(data.name, part, split)):
        reading = reader.read(frame)
        dice = [(d.box, d.center) for d in reading.dice]
        used: set[int] = set()
        for lab in labels:
            i = match(lab, dice, used)
            if i >= 0:
                used.add(i)
                out.append((reading.dice[i].confidence, reading.dice[i].value == lab.value))
    return out


def row(found: list[tuple[float, bool]], t: float) -> str:
    answered = [right for conf, right in found if conf >= t]
    wrong, n = answered.count(False), len(answered)
    return f"{wrong}/{n} = {100 * wrong / max(n, 1):.2f}% (answered {n}/{len(found)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "dice")
    ap.add_argument("--part", choices=("dev", "train", "test"), default="dev")
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--detector", type=Path)
    ap.add_argument("--model", type=Path)
    args = ap.parse_args()
    reader = DiceReader(args.model, detector=DieDetector(args.detector))
    pooled: list[tuple[float, bool]] = []
    for name in args.sets:
        found = read_set(reader, args.data / name, args.part)
        pooled += found
        print(f"{name} ({args.part}): {len(found)} dice found, {sum(r for _, r in found)} read right")
        for t in THRESHOLDS:
            mark = "  <- tuning.UNCERTAIN" if t == UNCERTAIN else ""
            print(f"  at {t:.2f}: confident-wrong {row(found, t)}{mark}")
    if len(args.sets) > 1:
        print(f"all ({args.part}): {len(pooled)} dice found")
        for t in THRESHOLDS:
            print(f"  at {t:.2f}: confident-wrong {row(pooled, t)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
