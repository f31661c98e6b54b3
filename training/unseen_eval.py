"""Score a model on a dice set it never saw, without and with a profile of 5 of its photos
(``--photos N``: of N).

    .venv/bin/python training/train_faces.py --patches P.npz --drop-source 0 --out /tmp/no_nell.onnx
    .venv/bin/python training/unseen_eval.py --model /tmp/no_nell.onnx --set nell-byler-d6 [--part tune]

The judges read photos of dice the reader was never tuned on, so a model trained without one of the
two dev sets (``train_faces.py --drop-source``: 0 nell-byler-d6, 1 matteop65-webcam) stands in for
them. ``--part tune``: the profile from 5 of the set's train photos, scored on its other train photos
(the model never saw any of them, so this part may be used for choices); ``--part test``: the same
profile, scored on the held-back photos (report only). The profile photos are the 5 that
``benchmarks/vision_accuracy.py`` uses.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.calibrate import build_profile  # noqa: E402
from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.reader import UNCERTAIN, DiceReader  # noqa: E402
from training.dev_split import DATA  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--set", required=True, choices=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--part", default="tune", choices=["tune", "test"])
    ap.add_argument("--plain", action="store_true",
                    help="read as the daemon does for a game without symbol faces (faces 1-6 only)")
    ap.add_argument("--photos", type=int, default=5, help="photos the profile is built from")
    args = ap.parse_args()
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.set]
    train = split["train"]
    stems = train[:: max(1, len(train) // args.photos)][: args.photos]
    score_on = [s for s in train if s not in stems] if args.part == "tune" else split["test"]
    reader = DiceReader(args.model)
    data = DATA / args.set
    profile = build_profile(reader, ((f, labels) for _, f, labels in iterate(data, only=stems)))
    frames = list(iterate(data, only=score_on))
    for name, prof in (("no profile", None), ("profile", profile)):
        score = Score()
        for _, frame, labels in frames:
            reading = reader.read(frame, profile=prof, faces=(1, 2, 3, 4, 5, 6) if args.plain else None)
            score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
        s = score.summary()
        _, answered, wrong = score.at_abstention()
        what = f"{args.set} {args.part}{' plain' if args.plain else ''} {name}"
        print(f"{what}: dice {s['dice']} right {100 * s['accuracy']:.2f}% "  # type: ignore[operator]
              f"missed {s['missed']} extra {s['extra']} at 5%: answered {100 * answered:.1f}% "
              f"wrong {100 * wrong:.2f}%", flush=True)


if __name__ == "__main__":
    main()
