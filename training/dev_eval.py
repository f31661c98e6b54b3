"""Score the reader on the validation part of the train photos (training/dev_split.py), for tuning.

    .venv/bin/python training/dev_eval.py --model /tmp/dev.onnx [--errors]

The model should be trained with ``make_patches.py --dev`` so that it has not seen these photos.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.reader import UNCERTAIN, DiceReader  # noqa: E402
from training.dev_split import DATA, dev_split  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default=None)
    ap.add_argument("--errors", action="store_true", help="list every wrong, missed and extra die")
    ap.add_argument("--sets", nargs="*", default=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--part", default="val", choices=["val", "fit"])
    ap.add_argument("--dump", help="write one CSV line per matched die: set, p_face, pips, value, right")
    args = ap.parse_args()
    reader = DiceReader(args.model)
    dump = open(args.dump, "w") if args.dump else None  # noqa: SIM115
    for name in args.sets:
        fit, val = dev_split()[name]
        score = Score()
        confs: list[tuple[float, bool]] = []
        for path, frame, labels in iterate(DATA / name, only=val if args.part == "val" else fit):
            reading = reader.read(frame)
            dice = [(d.value, d.box, d.center, d.confidence) for d in reading.dice]
            before = (score.right, score.missed, score.extra)
            score.add(labels, dice, reading.ms, UNCERTAIN)
            if args.errors and (score.right - before[0] != len(labels) or score.extra != before[2]):
                got = ", ".join(f"{d.value}@({d.center[0]:.0f},{d.center[1]:.0f}) c{d.confidence:.2f} p{d.pips}"
                                for d in reading.dice)
                want = ", ".join(f"{lab.value}@({lab.center[0]:.0f},{lab.center[1]:.0f})" for lab in labels)
                print(f"  {path.stem}: want [{want}] got [{got}]")
            for lab in labels:
                near = [d for d in reading.dice if math.dist(d.center, lab.center) < lab.size]
                if near:
                    d = min(near, key=lambda d: math.dist(d.center, lab.center))
                    confs.append((d.confidence, str(d.value) == str(lab.value)))
                    if dump is not None:
                        alt = d.alternatives[0][1] if d.alternatives else 0.0
                        dump.write(f"{name},{d.classifier:.5f},{d.pips or 0},{d.value},{alt:.5f},"
                                   f"{int(str(d.value) == str(lab.value))}\n")
        s = score.summary()
        print(f"{name} ({args.part}): dice {s['dice']} acc {100 * s['accuracy']:.2f}% "  # type: ignore[operator]
              f"answered {100 * s['answered']:.1f}% cw {100 * s['confident_wrong']:.2f}% "  # type: ignore[operator]
              f"missed {s['missed']} extra {s['extra']} ms {s['ms_median']:.1f}")
        confs.sort(reverse=True)
        # confident-wrong when answering the most confident 95% of the matched dice
        k = int(0.95 * len(confs))
        wrong = sum(1 for _, ok in confs[:k] if not ok)
        print(f"   at 95% answered: threshold {confs[k - 1][0] if k else 0:.3f}, cw {100 * wrong / max(k, 1):.2f}%")
        for t in (0.6, 0.8, 0.9, 0.95, 0.99):
            ans = [ok for c, ok in confs if c >= t]
            print(f"   threshold {t}: answered {100 * len(ans) / max(len(confs), 1):.1f}%,"
                  f" wrong among them {100 * ans.count(False) / max(len(ans), 1):.2f}%")


if __name__ == "__main__":
    main()
