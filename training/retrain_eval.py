"""Does the table's own network (``companion.vision.retrain``) read a set it never saw better?

    .venv/bin/python training/retrain_eval.py --model /tmp/noNellX.onnx --set nell-byler-d6 --photos 40

A profile is built from ``--photos`` of the set's train photos (as ``unseen_eval.py`` picks them), the
deeper retraining is judged on it and, when it wins, run; then the set's other train photos (the tune
part) are read with the profile by the model as it was and by the table's model. Pip counts are the
other set's (``unseen_eval.py --crosswise``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import retrain  # noqa: E402
from companion.vision.calibrate import build_profile  # noqa: E402
from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.reader import UNCERTAIN, DiceReader  # noqa: E402
from training.dev_split import DATA  # noqa: E402
from training.unseen_eval import OTHER, crosswise_counts, profile_photos  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--set", required=True, choices=sorted(OTHER))
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--out", default="/tmp/table_model.onnx")
    args = ap.parse_args()
    counts = crosswise_counts(args.set)
    stems, tune = profile_photos(args.set, args.photos)
    data = DATA / args.set
    reader = DiceReader(args.model, pip_counts=counts)
    profile = build_profile(reader, ((f, labels) for _, f, labels in iterate(data, only=stems)))
    t0 = time.perf_counter()
    verdict = retrain.retrain(profile, args.out, args.model)
    print(f"{args.set}, {args.photos} photos, {len(profile)} patches: {verdict.reason} "
          f"(pulls {verdict.deeper}; {time.perf_counter() - t0:.0f} s)", flush=True)
    readers = [("model as it was", reader)]
    if verdict.pull is not None:
        readers.append(("table's model", DiceReader(args.out, pip_counts=counts)))
    frames = list(iterate(data, only=tune))
    for name, r in readers:
        score = Score()
        for _, frame, labels in frames:
            reading = r.read(frame, profile=profile)
            score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
        s = score.summary()
        _, answered, wrong = score.at_abstention()
        print(f"{args.set} tune, {args.photos}-photo profile, {name}: dice {s['dice']} "
              f"right {100 * s['accuracy']:.2f}% missed {s['missed']} extra {s['extra']} "  # type: ignore[operator]
              f"at 5%: wrong {100 * wrong:.2f}%; at {UNCERTAIN}: answered "
              f"{100 * score.answered / max(score.dice, 1):.1f}% "
              f"wrong {100 * score.answered_wrong / max(score.answered, 1):.2f}% "
              f"({score.answered_wrong} of {score.answered})", flush=True)


if __name__ == "__main__":
    main()
