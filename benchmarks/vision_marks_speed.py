"""What reading the faces by their marks costs (``companion/vision/face_marks.py``), on one core.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_marks_speed.py DIR [--calibrate 6] [--passes 4]

DIR holds labelled photos (DIR/images, DIR/labels), e.g. a rendered numeral table
(``training/experiments/numeral_table.py render --rig``). The first ``--calibrate`` photos build the
profile; the others are read with the detector, with the profile's last layer and with the marks,
taking turns (so the machine's drift falls on both). Prints the median milliseconds a frame of each,
the windows the marks matched a frame and their cost a window, the templates' build time and size.
A Pi 4 core is about 4x slower than one core here (``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import face_marks  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.profile_build import build_profile  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--calibrate", type=int, default=6)
    ap.add_argument("--passes", type=int, default=4)
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    reader = DiceReader(detector=DieDetector())
    photos = sorted(iterate(args.dir), key=lambda x: x[0].stem)
    if len(photos) <= args.calibrate:
        print(f"{args.dir}: {len(photos)} labelled photos, more than --calibrate {args.calibrate} needed",
              file=sys.stderr)
        return 2
    profile = build_profile(reader, [(f, lab) for _, f, lab in photos[:args.calibrate]])
    marked = copy.copy(profile)
    marked.marks = True
    faces = [int(i) for i in (reader.classifier.face_mask.nonzero()[0])]
    t = time.perf_counter()
    templates = face_marks.MarkTemplates.build(profile.patches, profile.labels, faces)
    built = (time.perf_counter() - t) * 1000
    if templates is None:
        print("the calibration shows fewer than two faces: nothing to match", file=sys.stderr)
        return 2
    matched: list[int] = []
    spent: list[float] = []
    similarity = face_marks.MarkTemplates.similarity

    def timed(self: face_marks.MarkTemplates, patches: list) -> object:  # type: ignore[type-arg]
        t0 = time.perf_counter()
        out = similarity(self, patches)
        spent.append((time.perf_counter() - t0) * 1000)
        matched.append(len(patches))
        return out

    face_marks.MarkTemplates.similarity = timed  # type: ignore[method-assign,assignment]
    frames = [f for _, f, _ in photos[args.calibrate:]]
    reader.read(frames[0], profile=marked)  # warm-up, and the templates built once
    matched.clear()
    spent.clear()
    ms: dict[str, list[float]] = {"last layer": [], "marks": []}
    for _ in range(args.passes):
        for f in frames:
            for name, prof in (("last layer", profile), ("marks", marked)):
                t = time.perf_counter()
                reader.read(f, profile=prof)
                ms[name].append((time.perf_counter() - t) * 1000)
    h, w = frames[0].shape[:2]
    n = len(frames) * args.passes
    print(f"{args.dir.name}: {len(frames)} frames {w}x{h}, {args.passes} passes, one core")
    for name, times in ms.items():
        print(f"  {name:<10} median {statistics.median(times):.1f} ms a frame")
    print(f"  marks: {sum(matched) / n:.1f} windows matched a frame, {sum(spent) / max(sum(matched), 1):.2f} ms a "
          f"window ({sum(spent) / n:.1f} ms a frame); {len(templates.labels)} templates "
          f"({templates.templates.nbytes / 1e6:.1f} MB), built in {built:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
