"""``companion dice teach-detector``: the detector taught a table's confirmed rolls (numpy; no torch).

The daemon's background job runs it on the table's rolls file (``table_rolls.py``) and empty tray; on
labelled photos (``--photos DIR --only STEM ...``) it stands in for the calibration, as ``companion
dice calibrate`` does for the classifier. Exit 0: the taught head was kept and written; 1: it read the
held-back rolls no better, nothing written (the verdict still is); 2: it could not run. With
``--faces-out`` the face classifier is taught the same rolls too (``face_teach.py``), read with the
detector the table will read with (the taught head when it was kept): its last two layers refitted are
written there when they win on the held-back dice, whatever the detector's verdict; when the faces told
by their marks win (on those layers or alone), the faces' verdict is written to ``--marks-out`` too.
The verdict's ``faces`` holds the held-back reading at the depth chosen.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(dsub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    td = dsub.add_parser("teach-detector", help="teach the die detector a table's confirmed rolls (no torch)")
    src = td.add_mutually_exclusive_group(required=True)
    src.add_argument("--rolls", help="the table's rolls file (DATA/dice_rolls.npz)")
    src.add_argument("--photos", help="photos with YOLO labels (DIR/images, DIR/labels) standing in for rolls")
    td.add_argument("--only", nargs="*", help="with --photos: the image stems, oldest first (the newest are held back)")
    td.add_argument("--empty", help="the empty tray: DATA/empty_tray.npz or an image")
    td.add_argument("--out", required=True, help="the head to write (.npz) when it is kept")
    td.add_argument("--verdict", help="write the verdict (JSON) here, kept or not")
    td.add_argument("--detector-model", help="another detector than the shipped one (.onnx beside its .json)")
    td.add_argument("--composites", type=int, default=None, help="frames laid anew from the fitted rolls (default 120)")
    td.add_argument("--faces-out", help="the face classifier's last two layers refitted on the rolls (.npz), "
                    "written when they read the held-back dice better (face_fit.py)")
    td.add_argument("--marks-out", help="with --faces-out: the faces' verdict (JSON), written when the faces told by "
                    "their marks read the held-back dice better (face_marks.py)")
    td.add_argument("--faces", nargs="+", metavar="FACE", help="with --faces-out: the faces the set has (1-6, worm)")
    td.add_argument("--json", action="store_true", help="print the verdict as JSON")
    td.set_defaults(func=_teach)


def _rolls(args: argparse.Namespace, empty):  # type: ignore[no-untyped-def]
    from companion.vision.composites import Roll
    from companion.vision.evaluate import iterate
    from companion.vision.table_rolls import TableRolls

    if args.rolls:
        return TableRolls(args.rolls).rolls(empty)
    photos = {p.stem: (f, lab) for p, f, lab in iterate(Path(args.photos), only=args.only)}
    order = args.only or sorted(photos)
    return [Roll(photos[s][0], photos[s][1], empty) for s in order if s in photos]


def _empty(path: str | None):  # type: ignore[no-untyped-def]
    if not path:
        return None
    import cv2

    from companion.vision.empty_tray import EmptyTray

    if path.endswith(".npz"):
        return EmptyTray.load(path)
    image = cv2.imread(path)
    if image is None:
        raise OSError(f"{path}: not an image")
    return EmptyTray(image)


def _teach(args: argparse.Namespace) -> int:
    from companion.vision.detector import DieDetector
    from companion.vision.reader import DiceReader
    from companion.vision.teach_detector import COMPOSITES, teach

    try:
        empty = _empty(args.empty)
        rolls = _rolls(args, None if empty is None else empty.image)
    except (OSError, ValueError) as exc:
        print(f"companion dice teach-detector: {exc}", file=sys.stderr)
        return 2
    detector = DieDetector(args.detector_model)
    head, verdict = teach(detector, DiceReader(detector=detector), rolls, empty=empty,
                          n_composites=COMPOSITES if args.composites is None else args.composites)
    out = verdict.to_json()
    if args.faces_out:  # the faces judged with the detector the table will read with
        kept = head is not None and verdict.kept
        taught = DieDetector(detector.path, detector.second_read, head=head) if kept else detector
        marks = Path(args.marks_out) if args.marks_out else None
        out["faces"] = _deepen(rolls, taught, Path(args.faces_out), empty, args.faces, marks)
    text = json.dumps(out)
    if args.verdict:
        from companion.store.atomic_file import replace_file

        replace_file(Path(args.verdict), lambda p: Path(p).write_text(text))
    if head is not None and verdict.kept:
        from companion.store.atomic_file import replace_file

        replace_file(Path(args.out), lambda p: head.save(p))
    print(text if args.json else f"{args.out if verdict.kept else 'nothing written'}: {verdict.reason} "
          f"({verdict.seconds} s)")
    return 0 if verdict.kept else 1


def _deepen(rolls, detector, path: Path, empty, faces, marks: Path | None = None  # type: ignore[no-untyped-def]
            ) -> dict[str, object]:
    """How deep the classifier adapts to every roll's dice (the newest held back to decide): the last two
    layers refitted written to ``path`` when kept, the verdict to ``marks`` when the faces told by their
    marks are kept (with the layers or not). Its verdict, JSON-ready."""
    from companion.store.atomic_file import replace_file
    from companion.vision.face_teach import teach_faces
    from companion.vision.reader import DiceReader

    reader = DiceReader(detector=detector)
    set_faces = None if not faces else [int(f) if f.isdigit() else f for f in faces]
    profile, verdict = teach_faces(reader, [(r.frame, r.dice) for r in rolls], set_faces, empty=empty)
    tail, out = profile.tail, verdict.to_json()
    if tail is not None:
        replace_file(path, lambda p: tail.save(p, profile.tail_base))
    if profile.marks and marks is not None:
        text = json.dumps(out)
        replace_file(marks, lambda p: Path(p).write_text(text))
    return out
