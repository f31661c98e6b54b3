"""Rebuild the shipped models with one command.

    .venv-train/bin/python -m training.rebuild [detector] [classifier] [--out DIR] [--work DIR] [--dry-run]
    .venv-train/bin/python -m training.rebuild --without nell-byler-d6 --out /tmp/loso   # leave one source out

The die detector is two runs of ``training.detector.train`` (from scratch, then fine-tuned on the hard
negatives the first model finds); the face classifier is ``training/make_patches.py`` (patches from the
train photos, rendered dice and mined mistakes) and then ``training/train_faces.py``. Each recipe here is
the one the shipped model's JSON records (``tests/vision/test_rebuild.py`` holds them to it), so the
two cannot drift apart. Everything runs on one thread with fixed seeds. The models that come out are
not the shipped files bit for bit: the training code has grown options since (each draws nothing when
off, but the data pipeline and the reader that mines the classifier's negatives have changed). How
close they come is in ``docs/vision-training.md``, "Rebuilding the shipped models".

``--out`` defaults to ``companion/vision/models``, overwriting the shipped files: give another folder
to compare first. Steps whose result is already in ``--work`` are skipped, so an interrupted rebuild
goes on where it stopped. Held-back photos are never read by any step. ``--without SET`` rebuilds both
models without one real set, as the leave-one-source-out runs of ``docs/vision-accuracy.md`` were made: the
detector trained, mined and thresholded without it (450 steps from scratch and 100 rendered trays, as
those runs had), the classifier's patches made as shipped and the set's dropped in training.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from training.sources import SOURCES

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "companion" / "vision" / "models"
MINING = ROOT / "training" / "mining"

# The shipped detector: 650 steps from scratch, then 350 steps fine-tuned on its own sure mistakes.
DETECTOR_BASE = ["--steps", "650", "--batch", "16", "--size", "224", "--rendered", "150", "--lr", "0.003",
                 "--seed", "31"]
DETECTOR_TUNE = ["--mine-threshold", "0.2", "--hard-weight", "8.0", "--hard-share", "0.5", "--steps", "350",
                 "--warm", "20", "--lr", "0.001", "--batch", "16", "--size", "224", "--rendered", "150", "--seed", "31"]
# The shipped classifier (round 5): its patches, mined with the three classifiers kept in training/mining/.
PATCHES = ["--sets", "rune55-gray-closeups", "chase-casino-crops", "--coins", "3", "--negatives",
           "--negative-windows", "10", "--negative-scale", "0.85", "3.0", "--mine-models",
           *(str(MINING / f"{m}.onnx") for m in ("faces_before_round_5", "faces_new_sets", "faces_round_2"))]
CLASSIFIER = ["--epochs", "14", "--widths", "24,48,96,96", "--stride", "1", "--invert", "0.3", "--dim", "0.2",
              "--subsample", "3:0.5", "--repeat", "1:2", "--seed", "0"]


@dataclass(frozen=True)
class Step:
    """One training run. An intermediate one (``final`` false) leaves a marker in the work folder when it
    finishes, so that a rebuild run again after an interruption does not repeat it."""

    name: str
    argv: list[str]
    final: bool = False


def _leaving_out(recipe: list[str], without: str, steps: str | None = None) -> list[str]:
    """A detector stage as the leave-one-source-out runs had it (``docs/log/leave-one-source-out-2026-11-27.md``):
    100 rendered trays, the set left out, and (from scratch) 450 steps."""
    out = list(recipe)
    out[out.index("--rendered") + 1] = "100"
    if steps is not None:
        out[out.index("--steps") + 1] = steps
    return [*out, "--without", without]


def steps(which: list[str], out: Path, work: Path, threads: int, python: str = sys.executable,
          without: str | None = None) -> list[Step]:
    """The runs that rebuild ``which`` ("detector", "classifier"), in order; ``without`` a real set."""
    out_steps: list[Step] = []
    t = ["--threads", str(threads)]
    if "detector" in which:
        base = work / "detector_base"
        first = _leaving_out(DETECTOR_BASE, without, steps="450") if without else DETECTOR_BASE
        tune = _leaving_out(DETECTOR_TUNE, without) if without else DETECTOR_TUNE
        out_steps.append(Step("detector, from scratch", [python, "-m", "training.detector.train", *first,
                                                          *t, "--out", str(base)]))
        out_steps.append(Step("detector, hard negatives", [
            python, "-m", "training.detector.train", "--init", str(base / "dice_detector.pt"),
            "--mine", str(base / "dice_detector.onnx"), *tune, *t, "--out", str(out)], final=True))
    if "classifier" in which:
        patches = work / "patches.npz"
        out_steps.append(Step("classifier patches", [python, str(ROOT / "training" / "make_patches.py"), *PATCHES,
                                                     "--out", str(patches)]))
        train = [python, str(ROOT / "training" / "train_faces.py"), "--patches", str(patches), *CLASSIFIER, *t]
        if without:
            train += ["--drop-source", str(SOURCES[without][0])]
        out_steps.append(Step("classifier", [*train, "--out", str(out / "faces.onnx")], final=True))
    return out_steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", metavar="detector|classifier",
                    help="what to rebuild (default: both, the detector first)")
    ap.add_argument("--out", type=Path, default=MODELS, help="where the ONNX files and their JSON go")
    ap.add_argument("--work", type=Path, help="intermediate files (default: a new temporary folder)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (one: the recorded runs)")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    ap.add_argument("--without", choices=[s for s in SOURCES if s != "rendered"],
                    help="leave this real set out of both models (the leave-one-source-out run)")
    args = ap.parse_args(argv)
    which = args.models or ["detector", "classifier"]
    if unknown := set(which) - {"detector", "classifier"}:
        ap.error(f"no such model: {', '.join(sorted(unknown))} (detector, classifier)")
    work = args.work or Path(tempfile.mkdtemp(prefix="rebuild-"))
    todo = steps(which, args.out.resolve(), work.resolve(), args.threads, without=args.without)
    env = os.environ | {"OMP_NUM_THREADS": str(args.threads), "PYTHONPATH": str(ROOT)}
    for step in todo:
        print(f"# {step.name}\n{' '.join(step.argv)}", flush=True)
        if args.dry_run:
            continue
        marker = work / (step.name.replace(" ", "_").replace(",", "") + ".done")
        if not step.final and marker.exists():
            print(f"  (done before: {marker})", flush=True)
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        work.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(step.argv, cwd=ROOT, env=env, check=False)
        if done.returncode:
            print(f"failed: {step.name} (exit {done.returncode})", file=sys.stderr)
            return done.returncode
        marker.touch()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
