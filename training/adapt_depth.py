"""How deep must a profile reach? Retrain the network from a given convolution on, on a set it never saw.

    .venv/bin/python training/adapt_depth.py --model /tmp/noNellX.onnx --set nell-byler-d6

The reader's final windows over the set's tune photos (its train photos but the 5 of the profile), read
without a profile, are matched to their labels. Each check trains the layers from convolution k on
(k = 4: the last one and the class layer; 3; 2), starting from the model's weights and held to them by
an L2 pull, on the profile's patches in their 8 turned and mirrored views, and scores the matched
windows' faces. ``profile.Profile.adapt`` retrains only the class layer; this says whether retraining
more of the network would read more of an unfamiliar set. ``--half``: the profile is every other tune
photo instead, scored on the rest (how far labelled dice of the set could take it at all).
Needs the ``train`` extra (torch, onnx).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import FACES  # noqa: E402
from companion.vision.calibrate import build_profile  # noqa: E402
from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.profile import _retrain_head  # noqa: E402
from companion.vision.reader import DiceReader, _Window  # noqa: E402
from companion.vision.retrain import Network, eight_views  # noqa: E402
from companion.vision.retrain import _blob as as_blob  # noqa: E402
from companion.vision.retrain import _rest as embedding_from  # noqa: E402
from companion.vision.retrain import _trunk as trunk  # noqa: E402
from training.dev_split import DATA  # noqa: E402

Params = list[tuple[torch.Tensor, torch.Tensor]]


class Capture(DiceReader):
    """A reader that keeps the final windows of its last frame."""

    last: list[_Window] = []

    def _dice_windows(self, frame: np.ndarray, die_size: float | None, prof: object) -> list[_Window]:
        self.last = super()._dice_windows(frame, die_size, prof)  # type: ignore[arg-type]
        return self.last


def matched_windows(reader: Capture, set_name: str, stems: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches of the final windows nearest each label (box contains its centre), classes, photo index."""
    patches, classes, photo = [], [], []
    for i, (_, frame, labels) in enumerate(iterate(DATA / set_name, only=stems)):
        reader.read(frame)
        for lab in labels:
            x, y = lab.center
            hit = [w for w in reader.last if abs(w.cx - x) <= w.size / 2.2 and abs(w.cy - y) <= w.size / 2.2]
            if hit:
                w = min(hit, key=lambda w: (w.cx - x) ** 2 + (w.cy - y) ** 2)
                patches.append(w.patch)
                classes.append(FACES.index(lab.value))
                photo.append(i)
    return np.stack(patches), np.array(classes), np.array(photo)


def load_layers(model: str) -> tuple[Params, tuple[torch.Tensor, torch.Tensor], float]:
    """The four convolutions (batch norm folded in), the class layer, and the softmax temperature."""
    net = Network.load(model)
    temperature = float(json.loads(Path(model).with_suffix(".json").read_text())["temperature"])
    return net.convs, net.head, temperature


def rest(x: torch.Tensor, params: Params, start: int) -> torch.Tensor:
    """Logits from the output of the first ``start`` convolutions; ``params``: the later ones, then the head."""
    w, b = params[-1]
    return embedding_from(x, params[:-1], start) @ w.T + b


def face_accuracy(logits: torch.Tensor, classes: torch.Tensor) -> float:
    faces = logits[:, : FACES.index("worm") + 1]
    return float((faces.argmax(1) == classes).float().mean())


def retrain(features: torch.Tensor, classes: torch.Tensor, init: Params, start: int, pull: float,
            steps: int = 300, batch: int = 256) -> Params:
    params = [(w.clone().requires_grad_(), b.clone().requires_grad_()) for w, b in init]
    opt = torch.optim.Adam([t for pair in params for t in pair], lr=1e-3)
    for _ in range(steps):
        idx = torch.randint(0, len(classes), (min(batch, len(classes)),))
        loss = functional.cross_entropy(rest(features[idx], params, start), classes[idx])
        loss = loss + pull * sum(((w - w0) ** 2).sum() + ((b - b0) ** 2).sum()
                                 for (w, b), (w0, b0) in zip(params, init, strict=True))
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
    return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a model trained without --set")
    ap.add_argument("--set", required=True, choices=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--half", action="store_true", help="the profile: every other tune photo, scored on the rest")
    ap.add_argument("--pulls", default="0.01,0.1,1.0")
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.set]
    train = split["train"]
    stems = train[:: max(1, len(train) // 5)][:5]
    reader = Capture(args.model)
    patches, classes, photo = matched_windows(reader, args.set, [s for s in train if s not in stems])
    if args.half:
        fit_x, fit_y = patches[photo % 2 == 0], classes[photo % 2 == 0]
        patches, classes = patches[photo % 2 == 1], classes[photo % 2 == 1]
    else:
        profile = build_profile(reader, ((f, labels) for _, f, labels in iterate(DATA / args.set, only=stems)))
        fit_x, fit_y = np.stack(profile.patches), np.array(profile.labels)
    convs, head, temperature = load_layers(args.model)
    x, y = as_blob(patches), torch.tensor(classes)
    with torch.no_grad():
        print(f"{args.set}: {len(y)} matched dice, fitted on {len(fit_y)} patches; shipped layers "
              f"{face_accuracy(rest(trunk(x, convs, 3), [convs[3], head], 3), y):.4f}", flush=True)
        embeddings = trunk(as_blob(fit_x), convs, 3)
        emb_fit = functional.relu(functional.conv2d(embeddings, *convs[3], padding=1)).mean(dim=(2, 3))
    w, b = _retrain_head(emb_fit.numpy(), fit_y, head[0].numpy(), head[1].numpy(), temperature)
    with torch.no_grad():
        print(f"  class layer as the reader retrains it: "
              f"{face_accuracy(rest(trunk(x, convs, 3), [convs[3], (torch.tensor(w), torch.tensor(b))], 3), y):.4f}")
    views_x, views_y = as_blob(eight_views(fit_x)), torch.tensor(fit_y).repeat(8)
    for start in (3, 2, 1):
        with torch.no_grad():
            fit_features, features = trunk(views_x, convs, start), trunk(x, convs, start)
        for pull in (float(p) for p in args.pulls.split(",")):
            params = retrain(fit_features, views_y, convs[start:] + [head], start, pull)
            with torch.no_grad():
                acc = face_accuracy(rest(features, params, start), y)
            print(f"  from convolution {start + 1}, pull {pull}: {acc:.4f}", flush=True)


if __name__ == "__main__":
    main()
