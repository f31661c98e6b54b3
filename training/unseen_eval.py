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

``--crosswise`` weighs the pip count with ``tuning.PIP_COUNTS`` counted on the *other* set only
(``pip_counts_by_set.json``, written by ``pip_confusion.py --json``): the shipped counts include the
left-out set's own dice. ``--second-model M`` reads the final dice of each frame again with a second
network and averages the two networks' probabilities (an ensemble, tried in the eleventh round).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from companion.vision.classifier import FaceClassifier  # noqa: E402
from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.profile_adapt import Profile  # noqa: E402
from companion.vision.profile_build import build_profile  # noqa: E402
from companion.vision.read_face import Window  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402
from training.dev_split import DATA  # noqa: E402

PIP_COUNTS_BY_SET = Path(__file__).with_name("pip_counts_by_set.json")


OTHER = {"nell-byler-d6": "matteop65-webcam", "matteop65-webcam": "nell-byler-d6"}


def crosswise_counts(name: str) -> np.ndarray:
    """``PIP_COUNTS`` counted on the other set only (``--crosswise``)."""
    return np.array(json.loads(PIP_COUNTS_BY_SET.read_text())[OTHER[name]])


def profile_photos(name: str, photos: int = 5) -> tuple[list[str], list[str]]:
    """The set's train photos a profile is built from (those of ``vision_accuracy.py``) and the rest
    of its train photos (the tune part)."""
    train: list[str] = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[name]["train"]
    stems = train[:: max(1, len(train) // photos)][:photos]
    return stems, [s for s in train if s not in stems]


class PairReader(DiceReader):
    """A reader whose final dice are read again by a second network, the probabilities averaged."""

    def __init__(self, model: str, second: str, pip_counts: np.ndarray | None = None) -> None:
        super().__init__(model, pip_counts=pip_counts)
        self.second = FaceClassifier(second)
        self._profiles: dict[int, Profile] = {}  # a copy of each profile for the second network

    def _dice_windows(self, frame: np.ndarray, die_size: float | None, prof: Profile | None
                      ) -> list[Window]:
        found = super()._dice_windows(frame, die_size, prof)
        if not found:
            return found
        scores = self.second.classify([w.patch for w in found])
        probs = scores.probs
        if prof is not None and len(prof) > 0:
            own = self._profiles.setdefault(id(prof), Profile(list(prof.patches), list(prof.labels),
                                                               prof.die_size, list(prof.views)))
            probs = own.adapt(self.second, scores)
        return [Window(w.cx, w.cy, w.size, (w.probs + probs[i]) / 2, w.emb, w.patch, w.offset)
                for i, w in enumerate(found)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--set", required=True, choices=sorted(OTHER))
    ap.add_argument("--part", default="tune", choices=["tune", "test"])
    ap.add_argument("--plain", action="store_true",
                    help="read as the daemon does for a game without symbol faces (faces 1-6 only)")
    ap.add_argument("--photos", type=int, default=5, help="photos the profile is built from")
    ap.add_argument("--crosswise", action="store_true", help="pip counts from the other set only")
    ap.add_argument("--second-model", help="average a second network's reading of the final dice")
    args = ap.parse_args()
    counts = crosswise_counts(args.set) if args.crosswise else None
    stems, tune = profile_photos(args.set, args.photos)
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.set]
    score_on = tune if args.part == "tune" else split["test"]
    reader = (DiceReader(args.model, pip_counts=counts) if args.second_model is None
              else PairReader(args.model, args.second_model, counts))
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
              f"wrong {100 * wrong:.2f}%; at {UNCERTAIN}: answered {100 * score.answered / max(score.dice, 1):.1f}% "
              f"wrong {100 * score.answered_wrong / max(score.answered, 1):.2f}%", flush=True)


if __name__ == "__main__":
    main()
