"""The table's own network: the face classifier retrained deeper once the profile has grown.

A profile retrains only the classifier's last layer (``profile_adapt.Profile.adapt``). For dice the network
never saw, that layer cannot separate faces its features do not tell apart: on such dice it stops
near 85%, while the same network retrained from its second convolution on, on a few hundred
confirmed dice of the set, reads far more of them (docs/log/vision-rounds.md, eleventh and sixteenth rounds).
On the few dozen dice of a short calibration the deeper retraining only overfits. So it is tried only
once the profile holds ``MIN_FACES`` confirmed faces, and kept only when it earns its place on the
table's own dice: fitted on the older part of the profile, it must read the newest part better than
the last layer alone does.

The result is a model file like the shipped one (the same graph, new weights), which the reader loads
instead; the profile still retrains its last layer on top. Needs torch and onnx (the ``train``
extra). The daemon never imports this module: ``companion dice retrain`` runs it in a process of its
own, so that torch never loads beside the camera.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch.nn import functional

from companion.vision.classifier import DEFAULT_MODEL, FaceClassifier, standardise
from companion.vision.profile_adapt import Profile, _retrain_head

MIN_FACES = 100  # confirmed dice (a second view of a die not counted) before deeper retraining is tried;
# 5 photos hold 15-40
HOLD_OUT = 0.25  # the newest share of the profile, on which the deeper retraining must prove itself
MARGIN = 0.01  # ... reading at least this share more of it right than the last layer alone
START = 1  # retrain from the second convolution on (the first, colour edges, stays as shipped)
PULLS = (0.1, 0.01)  # L2 pulls towards the shipped weights tried; the check picks one
STEPS = 400
BATCH = 256
LR = 1e-3
OFFSET_KEEP = 4.0  # how strongly the top-face offsets are held to the shipped network's on the same patches
FACE_CLASSES = 7  # classes 0-6: faces 1-6 and the symbol face; 7 "not a die"


@dataclass
class Network:
    """The classifier's weights as tensors: four convolutions (batch norm folded in), then the class
    layer and the offset layer on the 96-d embedding."""

    convs: list[tuple[torch.Tensor, torch.Tensor]]
    head: tuple[torch.Tensor, torch.Tensor]
    offset: tuple[torch.Tensor, torch.Tensor]
    names: list[tuple[str, str]] = field(default_factory=list)  # ONNX initializer names of the convolutions

    @classmethod
    def load(cls, path: Path | str) -> Network:
        graph = onnx.load(str(path)).graph
        weights = {i.name: torch.tensor(numpy_helper.to_array(i).copy()) for i in graph.initializer}
        names = [(n.input[1], n.input[2]) for n in graph.node if n.op_type == "Conv"]
        if len(names) != 4:
            raise ValueError(f"{path}: expected the four-convolution face classifier, found {len(names)}")
        return cls([(weights[w], weights[b]) for w, b in names],
                   (weights["net.head.weight"], weights["net.head.bias"]),
                   (weights["net.offset.weight"], weights["net.offset.bias"]), names)


def _trunk(x: torch.Tensor, convs: list[tuple[torch.Tensor, torch.Tensor]], upto: int) -> torch.Tensor:
    for w, b in convs[:upto]:
        x = functional.max_pool2d(functional.relu(functional.conv2d(x, w, b, padding=1)), 2)
    return x


def _rest(x: torch.Tensor, convs: list[tuple[torch.Tensor, torch.Tensor]], start: int
          ) -> torch.Tensor:
    """The embedding from the output of the first ``start`` convolutions; ``convs``: the later ones."""
    for i, (w, b) in enumerate(convs):
        x = functional.relu(functional.conv2d(x, w, b, padding=1))
        if start + i < 3:
            x = functional.max_pool2d(x, 2)
    return x.mean(dim=(2, 3))


def _blob(patches: np.ndarray) -> torch.Tensor:
    blob = cv2.dnn.blobFromImages(list(patches), 1.0 / 255.0, (32, 32), swapRB=False)
    return torch.tensor(standardise(blob).astype(np.float32))


def eight_views(patches: np.ndarray) -> np.ndarray:
    """Each patch turned by quarter turns and mirrored: a die's face survives all eight."""
    views = []
    for k in range(4):
        turned = np.rot90(patches, k, axes=(1, 2))
        views += [turned, turned[:, :, ::-1]]
    return np.ascontiguousarray(np.concatenate(views))


def fit(base: Network, patches: np.ndarray, labels: np.ndarray, pull: float, *, start: int = START,
        steps: int = STEPS, seed: int = 0) -> Network:
    """The network from convolution ``start`` + 1 on, and its class layer, retrained on the labelled
    patches in their eight views, held to ``base`` by an L2 pull; the offset layer stays as it is and
    the offsets it gives are held to ``base``'s, so windows still move onto top faces as before."""
    gen = torch.Generator().manual_seed(seed)
    x = _blob(eight_views(patches))
    y = torch.tensor(labels, dtype=torch.long).repeat(8)
    with torch.no_grad():
        early = _trunk(x, base.convs, start)
        kept_offsets = _rest(early, base.convs[start:], start) @ base.offset[0].T + base.offset[1]
    init = [*base.convs[start:], base.head]
    params = [(w.clone().requires_grad_(), b.clone().requires_grad_()) for w, b in init]
    opt = torch.optim.Adam([t for pair in params for t in pair], lr=LR)
    for _ in range(steps):
        idx = torch.randint(0, len(y), (min(BATCH, len(y)),), generator=gen)
        emb = _rest(early[idx], params[:-1], start)
        loss = functional.cross_entropy(emb @ params[-1][0].T + params[-1][1], y[idx])
        offsets = emb @ base.offset[0].T + base.offset[1]
        loss = loss + OFFSET_KEEP * functional.mse_loss(offsets, kept_offsets[idx])
        loss = loss + pull * sum(((w - w0) ** 2).sum() + ((b - b0) ** 2).sum()
                                 for (w, b), (w0, b0) in zip(params, init, strict=True))
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call, unused-ignore]  # typed only with torch installed
        opt.step()
    done = [(w.detach(), b.detach()) for w, b in params]
    return Network(base.convs[:start] + done[:-1], done[-1], base.offset, base.names)


def _accuracy(net: Network, head: tuple[torch.Tensor, torch.Tensor], patches: np.ndarray,
              labels: np.ndarray) -> float:
    with torch.no_grad():
        emb = _rest(_trunk(_blob(patches), net.convs, START), net.convs[START:], START)
        logits = emb @ head[0].T + head[1]
    return float((logits.argmax(1).numpy() == labels).mean())


def _last_layer(net: Network, temperature: float, patches: np.ndarray, labels: np.ndarray
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """The class layer as ``Profile.adapt`` retrains it on ``net``'s embeddings."""
    with torch.no_grad():
        emb = _rest(_trunk(_blob(patches), net.convs, START), net.convs[START:], START).numpy()
    w, b = _retrain_head(emb, labels, net.head[0].numpy(), net.head[1].numpy(), temperature)
    return torch.tensor(w), torch.tensor(b)


@dataclass
class Verdict:
    """What the check on the profile's newest part found; ``pull`` is None when nothing beat the last layer."""

    faces: int
    held_out: int
    last_layer: float  # share of the held-out patches read right, last layer retrained only
    deeper: dict[float, float]  # the same for each pull tried
    pull: float | None
    reason: str


def judge(base: Network, temperature: float, profile: Profile, *, min_faces: int = MIN_FACES,
          pulls: tuple[float, ...] = PULLS, steps: int = STEPS) -> Verdict:
    """Fit on the older part of the profile, score its newest ``HOLD_OUT`` (patches a table confirmed
    later stand in for the dice it will roll next)."""
    labels = np.array(profile.labels)
    faces = sum(1 for lab, view in zip(profile.labels, profile.views, strict=True)
                if lab < FACE_CLASSES and not view)
    if faces < min_faces:
        return Verdict(faces, 0, 0.0, {}, None, f"{faces} confirmed dice, fewer than {min_faces}")
    patches = np.stack(profile.patches)
    cut = int(round(len(labels) * (1 - HOLD_OUT)))
    fit_x, fit_y, test_x, test_y = patches[:cut], labels[:cut], patches[cut:], labels[cut:]
    last = _accuracy(base, _last_layer(base, temperature, fit_x, fit_y), test_x, test_y)
    deeper = {}
    for pull in pulls:
        net = fit(base, fit_x, fit_y, pull, steps=steps)
        deeper[pull] = _accuracy(net, _last_layer(net, temperature, fit_x, fit_y), test_x, test_y)
    best = max(deeper, key=lambda p: deeper[p])
    if deeper[best] < last + MARGIN:
        return Verdict(faces, len(test_y), last, deeper, None,
                       f"deeper retraining read {deeper[best]:.1%} of the newest patches, the last layer {last:.1%}")
    return Verdict(faces, len(test_y), last, deeper, best,
                   f"deeper retraining (pull {best}) read {deeper[best]:.1%} of the newest patches, "
                   f"the last layer {last:.1%}")


def save(net: Network, base_path: Path | str, out: Path | str, note: dict[str, object]) -> None:
    """``net`` written as ``base_path``'s graph with new weights, and its metadata beside it."""
    model = onnx.load(str(base_path))
    new = {"net.head.weight": net.head[0], "net.head.bias": net.head[1]}
    for (wn, bn), (w, b) in zip(net.names, net.convs, strict=True):
        new[wn], new[bn] = w, b
    for init in model.graph.initializer:
        if init.name in new:
            init.CopyFrom(numpy_helper.from_array(new[init.name].numpy().astype(np.float32), init.name))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = model.SerializeToString()
    meta = json.loads(Path(base_path).with_suffix(".json").read_text())
    meta["head"] = {"weight": net.head[0].numpy().round(6).tolist(), "bias": net.head[1].numpy().round(6).tolist()}
    # The checksum ties the metadata (with its class layer) to these very weights: a power cut between
    # the two files' moves leaves a pair that does not match, and the reader then keeps the shipped model.
    meta["retrained"] = {**note, "crc32": zlib.crc32(data)}
    tmp_model, tmp_meta = out.with_name(out.name + ".tmp"), out.with_name(out.stem + ".json.tmp")
    tmp_model.write_bytes(data)
    tmp_meta.write_text(json.dumps(meta, indent=1) + "\n")
    tmp_meta.replace(out.with_suffix(".json"))
    tmp_model.replace(out)


def retrain(profile: Profile, out: Path | str, base_path: Path | str | None = None, *,
            min_faces: int = MIN_FACES, pulls: tuple[float, ...] = PULLS, steps: int = STEPS,
            threads: int = 1) -> Verdict:
    """Judge the deeper retraining on the profile; when it wins, retrain on the whole profile with the
    pull the check chose and write the table's model to ``out``. Nothing is written otherwise."""
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    base_path = Path(base_path) if base_path is not None else DEFAULT_MODEL
    base = Network.load(base_path)
    temperature = FaceClassifier(base_path).temperature
    verdict = judge(base, temperature, profile, min_faces=min_faces, pulls=pulls, steps=steps)
    if verdict.pull is not None:
        net = fit(base, np.stack(profile.patches), np.array(profile.labels), verdict.pull, steps=steps)
        save(net, base_path, out, {"base": Path(base_path).name, "patches": len(profile), "pull": verdict.pull,
                                   "held_out": verdict.held_out, "last_layer": round(verdict.last_layer, 4),
                                   "deeper": round(verdict.deeper[verdict.pull], 4)})
    return verdict
