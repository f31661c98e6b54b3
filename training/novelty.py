"""Write a model's novelty statistics (``companion/vision/novelty.py``) into its JSON: how far each
face's training patches lie from their class, in the model's own embedding.

    .venv/bin/python training/novelty.py --model companion/vision/models/faces.onnx --patches P.npz \\
        [--drop-source 0]

Use the patches the model was trained on (``make_patches.py``; ``--drop-source`` as given to
``train_faces.py``). Only patches of a top face count (classes 1-6 and the symbol face).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from companion.vision import FACES  # noqa: E402
from companion.vision.classifier import FaceClassifier  # noqa: E402
from companion.vision.novelty import Novelty  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--patches", required=True)
    ap.add_argument("--drop-source", type=int, nargs="*", default=[])
    args = ap.parse_args()
    data = np.load(args.patches)
    keep = (data["y"] >= 0) & (data["y"] < len(FACES)) & ~np.isin(data["src"], args.drop_source)
    x, y = data["x"][keep], data["y"][keep]
    clf = FaceClassifier(args.model)
    emb = np.vstack([clf.classify(list(x[i : i + 1024])).embeddings for i in range(0, len(x), 1024)])
    novelty = Novelty.fit(emb, y, len(FACES))
    path = Path(args.model).with_suffix(".json")
    meta = json.loads(path.read_text())
    meta["novelty"] = novelty.to_json()
    path.write_text(json.dumps(meta, indent=1) + "\n")
    tails = np.array([novelty.tail(e, int(c)) for e, c in zip(emb, y, strict=True)])
    print(f"{len(y)} face patches; per class {np.bincount(y, minlength=len(FACES)).tolist()}; "
          f"training patches under a tail of 0.01: {np.mean(tails < 0.01):.2%}")


if __name__ == "__main__":
    main()
