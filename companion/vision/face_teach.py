"""The table's confirmed rolls decide how deep the face classifier adapts: read whole, as the daemon reads.

``face_fit.deepen`` judges the refitted last two layers on held-back patches. A patch read right is
not a die read right: on rune55's close-ups (both models left out, 10 photos) layers that read 4 more
of 103 held-back patches right read 16 fewer of the 506 held-back dice (they took dice for no die).
So, where the rolls themselves are at hand (the calibration's photos, the daemon's rolls file), the
newest ``HELD_SHARE`` of them are held back and read whole with the reader, blind to
their count, as the detector's teaching does: the refit (each pull of ``face_fit.PULLS``, on the
profile of the older rolls) is kept only when it reads more of their dice right, less extra dice, than
the last layer alone on the same profile and than the shipped classifier. Kept, it is refitted on
every roll's profile with the pull that won. The faces told by their marks (``face_marks``: the older
rolls' dice as turned templates) are judged the same way, on the last layer and on the refit (the refit
finding the dice, the marks naming their faces). Of two with as many points the surer wins (the confidence
of the held-back dice read right less that of those read wrong), and of equals the plainest.
The reader given reads as the table will (the daemon's job passes the detector its teaching kept), so
the held-back rolls read at the depth chosen (``Verdict.reading``) are what the table is told it reads.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from companion.vision.evaluate import LabelledDie, Score
from companion.vision.face_fit import MIN_PER_FACE, PULLS, STEPS, TURNS, Verdict, fit, per_face, pull_for, refit, views
from companion.vision.face_tail import FaceTail
from companion.vision.profile_adapt import Profile
from companion.vision.profile_build import build_profile
from companion.vision.reader import DiceReader
from companion.vision.teach_detector import HELD_SHARE, HeldBack
from companion.vision.tuning import UNCERTAIN

Roll = tuple[np.ndarray, Sequence[LabelledDie]]  # a confirmed roll: its frame and its dice


def points(reader: DiceReader, rolls: Sequence[Roll], profile: Profile | None,
           faces: Sequence[int | str] | None, empty: Any = None) -> tuple[int, int, int, float]:
    """(dice right less extra dice, right, extra, sureness) on the rolls, read blind to their count;
    sureness: the confidence of the dice read right less that of the dice read wrong (a tie-break)."""
    score = Score()
    for frame, dice in rolls:
        r = reader.read(frame, profile=profile, faces=faces, empty=empty)
        score.add(list(dice), [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
    sure = sum(c if right else -c for c, right in score.matched)
    return score.right - score.extra, score.right, score.extra, round(sure, 4)


def reading(reader: DiceReader, rolls: Sequence[Roll], profile: Profile | None,
            faces: Sequence[int | str] | None, empty: Any = None) -> dict[str, Any]:
    """The rolls read with ``profile`` as ``points`` reads them, as the table is told: dice, right, extra,
    missed and the faces confused, commonest first (``teach_detector.HeldBack``)."""
    score = Score()
    for frame, dice in rolls:
        r = reader.read(frame, profile=profile, faces=faces, empty=empty)
        score.add(list(dice), [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
    held = HeldBack.of(score, 0.0)
    return {"dice": held.dice, "right": held.right, "extra": held.extra, "missed": held.missed,
            "confused": held.confused}


def _marked(profile: Profile) -> Profile:
    """The same profile, its faces told by their marks."""
    out = copy.copy(profile)
    out.marks = True
    return out


def teach_faces(reader: DiceReader, rolls: Sequence[Roll], faces: Sequence[int | str] | None = None, *,
                empty: Any = None, steps: int = STEPS, seed: int = 0) -> tuple[Profile, Verdict]:
    """The profile of every roll (oldest first), with ``tail`` set when the refitted last two layers read
    the held-back rolls better; and the verdict. Too little evidence (a face of the set confirmed fewer
    than ``MIN_PER_FACE`` times, fewer than 3 rolls) leaves the last layer alone and says why."""
    t0 = time.process_time()
    classifier = reader.classifier
    profile = build_profile(reader, [(f, list(d)) for f, d in rolls])
    counts = per_face(profile, faces)
    short = [f"{f} ({n})" for f, n in counts.items() if n < MIN_PER_FACE]
    if short or len(rolls) < 3:
        why = (f"fewer than {MIN_PER_FACE} confirmed dice of face {', '.join(short)}" if short
               else f"{len(rolls)} confirmed rolls; at least 3 are needed")
        return profile, Verdict(False, 1, f"the last layer alone: {why}", counts)
    cut = len(rolls) - max(1, int(round(len(rolls) * HELD_SHARE)))  # as the detector's teaching holds back
    fitted, held = rolls[:cut], rolls[cut:]
    older = build_profile(reader, [(f, list(d)) for f, d in fitted])
    feats = views(classifier, np.stack(older.patches))
    if not np.all(np.isfinite(feats)):
        return profile, Verdict(False, 1, "the last layer alone: the network's features of the confirmed dice are "
                                "not all finite numbers", counts)
    shipped = FaceTail.of_classifier(classifier)
    labels = np.tile(np.array(older.labels), TURNS)
    base, last = points(reader, held, None, faces, empty), points(reader, held, older, faces, empty)
    best, unit, refitted = (-10**9, 0, 0, 0.0), PULLS[0], older
    for u in PULLS:  # the strongest pull wins a tie
        trial = copy.copy(older)
        trial.tail, _ = fit(shipped, feats, labels, classifier.temperature, pull=pull_for(len(older), u),
                            steps=steps, seed=seed)
        trial.tail_base = shipped.crc()
        got = points(reader, held, trial, faces, empty)
        if got[0] > best[0]:
            best, unit, refitted = got, u, trial
    # the marks, on the last layer and on the refitted layers (which may find the dice the better)
    by_marks = points(reader, held, _marked(older), faces, empty)
    by_both = points(reader, held, _marked(refitted), faces, empty)
    options = [(best, True, False), (by_marks, False, True), (by_both, True, True)]  # (points, tail, marks)
    # more points; of as many, the surer (held-back evidence too, finer); of equals, the plainest
    won, tail, marks = max(options, key=lambda o: (o[0][0], o[0][3]))
    kept = won[0] > max(base[0], last[0])
    dice = sum(len(d) for _, d in held)
    reason = (f"held back {len(held)} rolls ({dice} dice): {by_both[1]} right, {by_both[2]} extra with the last two "
              f"layers refitted (pull {pull_for(len(older), unit):.3g}) and the faces told by their marks; "
              f"{by_marks[1]}, {by_marks[2]} with the marks alone; {best[1]}, {best[2]} with the refit alone; "
              f"{last[1]}, {last[2]} with the last layer alone; {base[1]}, {base[2]} as shipped")
    verdict = Verdict(kept, (3 if marks else 2) if kept else 1, reason, counts, dice, base[0], last[0], best[0],
                      round(pull_for(len(profile), unit), 4), marks=by_marks[0], marks_layers=by_both[0])
    # the table is told the held-back reading of the depth it reads with (the last layer when none was kept)
    told = (_marked(refitted) if tail else _marked(older)) if kept and marks else refitted if kept else older
    verdict.reading = reading(reader, held, told, faces, empty)
    if kept and tail:
        refit(profile, classifier, unit=unit, steps=steps, seed=seed)
    profile.marks = kept and marks
    verdict.cpu_seconds = round(time.process_time() - t0, 2)
    return profile, verdict
