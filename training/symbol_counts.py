"""Count what the classical pip counter says on symbol faces, and how often it gives a count at all on
real numbered dice: ``reader.SYMBOL_COUNTS`` and ``reader.COUNTED``.

    .venv/bin/python training/symbol_counts.py --frames 300 \
        --left-out nell-byler-d6=/tmp/noNellX.onnx matteop65-webcam=/tmp/noWebcamX.onnx

There are no real photos of symbol faces, so they are rendered: frames drawn as for training (any body
colour, half of the dice marbled or translucent, half of the frames oblique), each die a symbol face
with probability 0.4, with seeds from 100000 on (training draws 0-899, ``vision_accuracy.py`` 50000
on). The reader reads each frame; every symbol face it finds adds one to its tally: no count, or a count
of 1-6. The counter's rows for numbered faces (``PIP_COUNTS``) hold only dice that were counted, so the
share of real numbered dice that get a count is measured too, on the reader's windows over the train
photos, as ``pip_confusion.py`` does (the shipped model, and each left-out model on its set).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.render import RenderDie, random_dice, render_dice  # noqa: E402
from training.dev_split import DATA  # noqa: E402
from training.make_patches import real_looks  # noqa: E402

FIRST_SEED = 100_000
SPLIT = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())


def symbol_tally(reader: DiceReader, frames: int) -> np.ndarray:
    """[no count, 1, 2, 3, 4, 5, 6] over the rendered symbol faces the reader found."""
    out = np.zeros(7, np.int64)
    rng = np.random.default_rng(FIRST_SEED)
    for i in range(frames):
        dice = [RenderDie("worm", d.colour) if rng.random() < 0.4 else d
                for d in random_dice(rng, int(rng.integers(2, 9)))]
        dice, tilt = real_looks(rng, dice, 0.5)
        frame, drawn = render_dice(dice, seed=FIRST_SEED + i, die_size=float(rng.uniform(24, 70)),
                                   touching=bool(rng.random() < 0.4), glare=bool(rng.random() < 0.4),
                                   noise=float(rng.uniform(0, 8)), dim=float(rng.uniform(0.45, 1.1)),
                                   background=tuple(int(v) for v in rng.integers(40, 220, 3)),  # type: ignore[arg-type]
                                   tilt=tilt)
        for die in reader.read(frame).dice:
            hit = next((d for d in drawn if d.box[0] <= die.center[0] <= d.box[2]
                        and d.box[1] <= die.center[1] <= d.box[3]), None)
            if hit is not None and hit.face == "worm":
                out[0 if die.pips is None else die.pips] += 1
    return out


def counted_share(model: str, name: str, stems: list[str]) -> tuple[int, int]:
    """(numbered dice with a count, numbered dice found) on a set's train photos."""
    reader = DiceReader(model)
    counted = found = 0
    for _, frame, labels in iterate(DATA / name, only=stems):
        for die in reader.read(frame).dice:
            label = next((lab for lab in labels if abs(lab.center[0] - die.center[0]) < lab.size / 2
                          and abs(lab.center[1] - die.center[1]) < lab.size / 2), None)
            if label is not None and isinstance(label.value, int):
                found += 1
                counted += die.pips is not None
    return counted, found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default=str(ROOT / "companion" / "vision" / "models" / "faces.onnx"))
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--left-out", nargs="*", default=[], help="SET=MODEL: a model trained without SET")
    args = ap.parse_args()
    tally = symbol_tally(DiceReader(args.model), args.frames)
    print(f"symbol faces found {int(tally.sum())}: no count {tally[0]}, counts 1-6 {tally[1:].tolist()}")
    counted = found = 0
    for name in ("nell-byler-d6", "matteop65-webcam"):
        models = [args.model] + [m.split("=", 1)[1] for m in args.left_out if m.split("=", 1)[0] == name]
        for model in models:
            c, f = counted_share(model, name, SPLIT[name]["train"])
            print(f"{name} {Path(model).name}: {c} of {f} numbered dice counted")
            counted, found = counted + c, found + f
    print(f"numbered dice counted: {counted} of {found} ({100 * counted / max(found, 1):.1f}%)")


if __name__ == "__main__":
    main()
