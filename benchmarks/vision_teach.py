"""The table teaches the reader, measured on real photos: blind, calibrated (the classifier's profile)
and calibrated with the detector taught too (``companion/vision/teach_detector.py``), side by side.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_teach.py [--sets NAME ...] [--part test]
        [--photos 5] [--force] [--deeper] [--no-teach] [--json OUT]

The calibration is ``benchmarks/vision_detection.py``'s: 5 photos of the set's train part, in the
order they are listed (the newest two held back by the teaching to decide whether its detector is
kept). A set with a fixed camera per capture group (matteop65-webcam) gets each group's empty tray,
the per-pixel median of 5 of its train frames, as the composites' background and, with ``--empty``,
as the reader's reference. ``--force`` also scores the taught detector where the teaching did not
keep it. ``--deeper`` also refits the classifier's last two layers on the calibration
(``companion/vision/face_fit.py``) or reads the faces by their marks (``face_marks.py``), as the
calibration's held-back rolls decide; with ``--force`` both scored even where they were not kept.
``--part test``: the held-back photos of ``split.json`` (never used to fit or decide).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from vision_detection import calibration_stems, group, part_stems  # noqa: E402

from companion.vision.composites import Roll  # noqa: E402
from companion.vision.detection_score import DetectionScore  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.empty_tray import EmptyTray  # noqa: E402
from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.face_fit import refit  # noqa: E402
from companion.vision.face_teach import teach_faces  # noqa: E402
from companion.vision.profile_build import build_profile  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.teach_detector import teach  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402


def empties_of(data: Path, train: list[str]) -> dict[str, EmptyTray]:
    by_group: dict[str, list[str]] = defaultdict(list)
    for s in train:
        by_group[group(s)].append(s)
    return {g: EmptyTray.from_frames([f for _, f, _ in iterate(data, only=m[:: max(1, len(m) // 5)][:5])])
            for g, m in by_group.items()}


def score(reader: DiceReader, photos, profile, empties) -> dict[str, float]:  # type: ignore[no-untyped-def]
    found, faces = DetectionScore(), Score()
    for stem, frame, labels in photos:
        empty = empties.get(group(stem)) if empties else None
        r = reader.read(frame, profile=profile, empty=empty)
        found.add(labels, [d.box for d in r.dice])
        faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
    s = faces.summary()
    return {"dice": faces.dice, "right": faces.right, "per_die": round(100 * faces.right / max(faces.dice, 1), 2),
            "recall": round(100 * found.recall, 2), "missed": faces.missed, "extra": faces.extra,
            "confident_wrong": round(100 * float(s["confident_wrong"]), 2)}  # type: ignore[arg-type]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "dice"))
    ap.add_argument("--sets", nargs="+", default=["nell-byler-d6", "matteop65-webcam"])
    ap.add_argument("--part", default="test", choices=("test", "dev", "train"))
    ap.add_argument("--empty", action="store_true", help="read with the groups' empty trays too (webcam)")
    ap.add_argument("--force", action="store_true", help="also score the taught detector when it was not kept")
    ap.add_argument("--composites", type=int, default=120)
    ap.add_argument("--head-only", action="store_true", help="refit only the 1x1 output layer")
    ap.add_argument("--detector", help="another detector (e.g. training/left_out/detector_without_SET.onnx)")
    ap.add_argument("--model", help="another face classifier (.onnx beside its .json)")
    ap.add_argument("--photos", type=int, default=5, help="calibration photos (spread over the train part)")
    ap.add_argument("--deeper", action="store_true",
                    help="also the classifier's last two layers refitted on the calibration (face_fit.deepen)")
    ap.add_argument("--no-teach", action="store_true", help="leave the detector untaught (faster)")
    ap.add_argument("--json")
    args = ap.parse_args()
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    detector = DieDetector(args.detector)
    reader = DiceReader(args.model, detector=detector)
    results: dict[str, object] = {}
    for name in args.sets:
        data = Path(args.data) / name
        train = split[name]["train"]
        spread = train[:: max(1, len(train) // args.photos)][:args.photos]
        picked = calibration_stems(train) if args.photos == 5 else spread
        photos = [(p.stem, f, lab) for p, f, lab in iterate(data, only=part_stems(name, args.part, split))]
        cal = [(p.stem, f, lab) for p, f, lab in iterate(data, only=picked)]
        cal.sort(key=lambda c: picked.index(c[0]))
        empties = empties_of(data, train) if name == "matteop65-webcam" else {}
        rolls = [Roll(f, lab, empties[group(s)].image if group(s) in empties else None) for s, f, lab in cal]
        print(f"{name} ({args.part}): {len(photos)} photos, {sum(len(x[2]) for x in photos)} dice; "
              f"calibration {picked}", flush=True)
        head, verdict = None, None
        if not args.no_teach:
            t = time.perf_counter()
            head, verdict = teach(detector, reader, rolls, n_composites=args.composites, conv=not args.head_only)
            print(f"  taught in {time.perf_counter() - t:.1f} s ({verdict.cpu_seconds} s CPU): kept={verdict.kept}; "
                  f"{verdict.reason}; {verdict.composites} composites, {verdict.cells} cells, "
                  f"loss {verdict.loss_first} -> {verdict.loss_last}", flush=True)
        profile = build_profile(reader, [(f, lab) for _, f, lab in cal])
        use = empties if args.empty else {}
        rows = {"blind": score(reader, photos, None, use), "calibrated": score(reader, photos, profile, use)}
        taught = None
        if head is not None and verdict is not None and (verdict.kept or args.force):
            taught = copy.copy(reader)
            taught.detector = DieDetector(args.detector, head=head)
            rows["calibrated + taught detector" + ("" if verdict.kept else " (not kept)")] = score(
                taught, photos, profile, use)
        if args.deeper:
            deep, face = teach_faces(reader, [(f, lab) for _, f, lab in cal])
            print(f"  deeper: kept={face.kept}, {face.reason}; per face {face.per_face}; "
                  f"{face.cpu_seconds} s CPU", flush=True)
            results[f"{name} deeper"] = face.to_json()
            if not face.kept and args.force:
                refit(deep, reader.classifier)
            if args.force and not deep.marks:
                marked = copy.copy(profile)
                marked.marks = True
                rows["calibrated, faces by their marks (not kept)"] = score(reader, photos, marked, use)
            if deep.tail is not None or deep.marks:
                note = ("" if face.kept else " (not kept)") + (" by the marks" if deep.marks else "")
                rows["calibrated, deeper" + note] = score(reader, photos, deep, use)
                if taught is not None:
                    rows["calibrated + taught detector, deeper" + note] = score(taught, photos, deep, use)
        for k, v in rows.items():
            print(f"  {k:<44} {v}", flush=True)
        results[name] = {"verdict": verdict.to_json() if verdict else None, "rows": rows}
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
