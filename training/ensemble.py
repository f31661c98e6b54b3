"""Merge models of one recipe trained with different seeds into one ONNX file that averages them.

    .venv-train/bin/python -m training.ensemble faces A.onnx B.onnx --out faces.onnx
    .venv-train/bin/python -m training.ensemble detector A.onnx B.onnx --out dice_detector.onnx

Why it was tried: on a tray neither model saw, one seed of the same recipe reads 43 dice of 1,147
more than another (the classifier), and finds 4 to 21 points more of them (the detector). Averaging
runs usually cancels such differences; here it did not: each ensemble read the left-out sets about
as the mean of its seeds does, for one network pass per member (``docs/log/ensemble-2026-12-01.md``),
and none ships. The merged file is one graph that runs every member on the same input and averages them,
so the reader, ``cv2.dnn`` and the daemon load it as they load a single model.

- faces: the members' embeddings are put side by side; the class layer on that joint embedding is
  the members' layers, each over its temperature and over the number of members. Its logits are
  then the mean of the members' calibrated logits, and a profile can retrain that layer as it
  retrains a single model's (``profile_adapt``). The top-face offsets are averaged.
- detector: the members' output maps (heatmap logit, centre in the cell, log size) are averaged;
  the threshold is picked on the dev photos as training picks one (F2), unless ``--threshold`` is given.

Needs onnx (the ``train`` extra); the result runs on OpenCV alone.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import compose, helper, numpy_helper


def _members(paths: list[Path]) -> list[onnx.ModelProto]:
    if len(paths) < 2:
        raise SystemExit("an ensemble needs at least two models")
    models = []
    for i, p in enumerate(paths):
        m = onnx.load(str(p))
        models.append(compose.add_prefix(m, f"m{i}_", rename_inputs=False, rename_outputs=True))
    return models


def _joined(models: list[onnx.ModelProto], nodes: list[onnx.NodeProto], inits: list[onnx.TensorProto],
            outputs: list[onnx.ValueInfoProto], name: str) -> onnx.ModelProto:
    """One graph: every member's nodes on the shared input, then ``nodes`` that combine them."""
    first = models[0]
    graph = helper.make_graph(
        [n for m in models for n in m.graph.node] + nodes, name, list(first.graph.input), outputs,
        [t for m in models for t in m.graph.initializer] + inits)
    model = helper.make_model(graph, opset_imports=list(first.opset_import))
    model.ir_version = first.ir_version
    onnx.checker.check_model(model)
    return model


def _mean(nodes: list[onnx.NodeProto], inits: list[onnx.TensorProto], names: list[str], out: str) -> None:
    """Appends nodes that write the mean of ``names`` to ``out``."""
    inits.append(numpy_helper.from_array(np.array(1.0 / len(names), np.float32), f"{out}_share"))
    nodes.append(helper.make_node("Sum", names, [f"{out}_sum"]))
    nodes.append(helper.make_node("Mul", [f"{out}_sum", f"{out}_share"], [out]))


def faces(paths: list[Path], out: Path) -> dict[str, object]:
    metas = [json.loads(p.with_suffix(".json").read_text()) for p in paths]
    if any(m["classes"] != metas[0]["classes"] or not m.get("standardised") or "head" not in m for m in metas):
        raise SystemExit("the members must be standardised classifiers with the same classes and a head")
    models = _members(paths)
    n = len(models)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    emb = [f"m{i}_embedding" for i in range(n)]
    nodes.append(helper.make_node("Concat", emb, ["embedding"], axis=1))
    # the joint class layer: each member's, over its temperature and the number of members
    shares = [1.0 / (float(m.get("temperature", 1.0)) * n) for m in metas]
    weight = np.concatenate([np.array(m["head"]["weight"], np.float32) * k for m, k in zip(metas, shares, strict=True)],
                            axis=1)
    bias = sum(np.array(m["head"]["bias"], np.float32) * k for m, k in zip(metas, shares, strict=True))
    inits += [numpy_helper.from_array(weight, "head_weight"), numpy_helper.from_array(np.asarray(bias), "head_bias")]
    nodes.append(helper.make_node("Gemm", ["embedding", "head_weight", "head_bias"], ["logits"], transB=1))
    _mean(nodes, inits, [f"m{i}_offset" for i in range(n)], "offset")
    width = sum(len(m["head"]["weight"][0]) for m in metas)
    outputs = [helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, ["n", k])
               for name, k in (("logits", len(metas[0]["classes"])), ("embedding", width), ("offset", 3))]
    model = _joined(models, nodes, inits, outputs, "faces_ensemble")
    onnx.save(model, str(out))
    meta = dict(metas[0])
    meta |= {"temperature": 1.0,
             "head": {"weight": weight.round(6).tolist(), "bias": np.asarray(bias).round(6).tolist()},
             "val_accuracy": float(np.mean([m.get("val_accuracy", np.nan) for m in metas])),
             "ensemble": [{"file": p.name, "command": m.get("command"), "temperature": m.get("temperature"),
                           "val_accuracy": m.get("val_accuracy")} for p, m in zip(paths, metas, strict=True)]}
    return meta


def detector(paths: list[Path], out: Path, threshold: float | None) -> dict[str, object]:
    metas = [json.loads(p.with_suffix(".json").read_text()) for p in paths]
    if any((m["input"], m["stride"]) != (metas[0]["input"], metas[0]["stride"]) for m in metas):
        raise SystemExit("the members must share the input size and stride")
    if len({m.get("left_out") for m in metas}) > 1:
        raise SystemExit("the members must leave out the same set")
    models = _members(paths)
    (shown,) = onnx.load(str(paths[0])).graph.output
    output = shown.name
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    _mean(nodes, inits, [f"m{i}_{output}" for i in range(len(models))], output)
    outputs = [shown]
    model = _joined(models, nodes, inits, outputs, "detector_ensemble")
    onnx.save(model, str(out))
    meta = dict(metas[0])
    meta["ensemble"] = [{"file": p.name, "command": m.get("command"), "threshold": m.get("threshold"),
                         "dev": m.get("dev")} for p, m in zip(paths, metas, strict=True)]
    if threshold is None:  # picked as training picks a single detector's: F2 on the dev photos
        out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")  # DieDetector reads it
        from companion.vision.detector import DieDetector
        from training.detector.data import SETS, data_root, load_photos, parts
        from training.detector.train import pick_threshold
        root = data_root()
        dev = {n: load_photos(root, n, parts(n)["dev"], cache_side=None) for n in SETS if n != meta.get("left_out")}
        threshold, scores = pick_threshold(DieDetector(out), dev)
        meta["dev"] = {n: {"recall": round(s.recall, 4), "precision": round(s.precision, 4)}
                       for n, s in scores[threshold].items()}
    meta["threshold"] = threshold
    return meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["faces", "detector"])
    ap.add_argument("models", nargs="+", type=Path, help="ONNX files, each with its JSON beside it")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--threshold", type=float,
                    help="detector: the ensemble's threshold (default: picked on the dev photos, F2)")
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = faces(args.models, args.out) if args.kind == "faces" else detector(args.models, args.out, args.threshold)
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {args.out} ({len(args.models)} members)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
