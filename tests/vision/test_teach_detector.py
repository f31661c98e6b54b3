"""The table teaches the detector: composites of its dice, the numpy head and its refit, the rule that
keeps a taught head only when it reads better, the rolls file and the background job."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.composites import Roll, compose, composites, cut_dice, flipped, tray_area
from companion.vision.detector import DieDetector
from companion.vision.detector_head import Head
from companion.vision.detector_job import TableDetector
from companion.vision.evaluate import LabelledDie, iterate
from companion.vision.head_fit import Cells, FeatureMap, fit, fit_mined, loss_and_grads, sample, sample_all
from companion.vision.table_rolls import TableRolls
from companion.vision.teach_detector import HeldBack, keeps, split, teach


def _roll(seed: int = 0, n: int = 3, size: int = 240) -> Roll:
    """Grey felt with white dice (a black pip each) at known places, and its empty tray."""
    rng = np.random.default_rng(seed)
    empty = np.full((size, size, 3), 90, np.uint8)
    frame = empty.copy()
    dice = []
    for i in range(n):
        cx, cy = 60 + 60 * i + float(rng.uniform(-5, 5)), 120 + float(rng.uniform(-20, 20))
        cv2.rectangle(frame, (int(cx - 10), int(cy - 10)), (int(cx + 10), int(cy + 10)), (250, 250, 250), -1)
        cv2.circle(frame, (int(cx), int(cy)), 3, (0, 0, 0), -1)
        dice.append(LabelledDie(i + 1, (cx, cy), 21.0))
    return Roll(frame, dice, empty)


def test_a_pasted_die_lands_where_its_label_says():
    roll = _roll()
    cuts = cut_dice([roll])
    assert len(cuts) == 3
    rng = np.random.default_rng(1)
    for _ in range(20):
        frame, dice = compose(roll.empty, cuts, (0, 0, 240, 240), rng, 1)
        assert len(dice) == 1
        (cx, cy), side = dice[0].center, dice[0].size
        inner = frame[int(cy - side / 4):int(cy + side / 4), int(cx - side / 4):int(cx + side / 4)]
        assert inner.max() > 150  # the white die is under its label
        far = frame.copy()
        far[max(0, int(cy - side)):int(cy + side), max(0, int(cx - side)):int(cx + side)] = 0
        assert far.max() <= 90 * 1.25 + 1  # and nowhere else (felt, lit at most 1.25 times)


def test_a_die_is_never_pasted_outside_the_tray():
    rolls = [_roll(s) for s in range(3)]
    x0, y0, x1, y1 = tray_area(rolls)
    made = composites(rolls, 30, seed=2)
    assert made and sum(len(d) for _, d in made) > 60
    for frame, dice in made:
        h, w = frame.shape[:2]
        for d in dice:
            # mirrored composites mirror the tray with them
            xs = sorted(((x0, x1), (w - 1 - x1, w - 1 - x0)))
            ys = sorted(((y0, y1), (h - 1 - y1, h - 1 - y0)))
            assert any(a - 0.5 <= d.center[0] - d.size / 2 and d.center[0] + d.size / 2 <= b + 0.5 for a, b in xs)
            assert any(a - 0.5 <= d.center[1] - d.size / 2 and d.center[1] + d.size / 2 <= b + 0.5 for a, b in ys)
        for i, a in enumerate(dice):  # pasted dice may touch, never lie on one another
            for b in dice[i + 1:]:
                gap = max(abs(a.center[0] - b.center[0]), abs(a.center[1] - b.center[1]))
                assert gap >= 0.97 * (a.size + b.size) / 2


def test_a_mirrored_frame_mirrors_its_dice():
    roll = _roll()
    frame, dice = flipped(roll.frame, roll.dice, 1)
    for d in dice:
        assert frame[int(d.center[1]), int(d.center[0])].max() < 60  # the pip is still under the label


def test_the_numpy_head_gives_the_networks_own_output(fixtures):
    frame = next(iter(iterate(fixtures / "nell-byler-d6")))[1]
    shipped = DieDetector()
    ours = DieDetector(head=shipped.shipped_head())
    a, _ = shipped.heatmap(frame)
    b, _ = ours.heatmap(frame)
    assert np.abs(a - b).max() < 1e-3
    assert [round(d.cx) for d in shipped.detect(frame)] == [round(d.cx) for d in ours.detect(frame)]


def _synthetic(rng: np.random.Generator, maps: int = 12) -> tuple[Head, list[FeatureMap]]:
    """Feature maps where channel 0 is high at each die's centre; a head that does not look at it."""
    c, g = 4, 16
    out = []
    for _ in range(maps):
        feats = rng.normal(0, 0.3, (c, g, g)).astype(np.float32).clip(0)
        dice = []
        for _ in range(3):
            x, y = rng.integers(2, g - 2, size=2)
            feats[0, y, x] += 3.0
            dice.append(((x + 0.5) * 4, (y + 0.5) * 4, 12.0))
        out.append(FeatureMap(feats, dice, 4))
    head = Head(rng.normal(0, 0.1, (6, c, 3, 3)).astype(np.float32), np.zeros(6, np.float32),
                rng.normal(0, 0.1, (4, 6)).astype(np.float32), np.array([-4, 0, 0, 0], np.float32))
    return head, out


def test_the_refit_lowers_the_loss_on_a_synthetic_problem():
    rng = np.random.default_rng(0)
    shipped, maps = _synthetic(rng)
    head, losses, _ = fit_mined(shipped, maps, rng, rounds=1, steps=150)
    cells = Cells.join([sample(m.feats, m.dice, m.stride, np.ones(m.feats.shape[1:], bool), rng) for m in maps])
    before = loss_and_grads(shipped, cells, grads=False)[0]
    after = loss_and_grads(head, cells, grads=False)[0]
    assert after < 0.5 * before and losses[-1] < losses[0]
    # it finds the dice: the heat peaks where the dice are
    heat = head.apply(maps[0].feats)[0]
    top = {tuple(p) for p in np.argwhere(heat >= np.sort(heat.ravel())[-3])}
    assert top == {(int(y / 4), int(x / 4)) for x, y, _ in maps[0].dice}
    frozen, _ = fit(shipped, cells, steps=20, conv=False)
    assert np.array_equal(frozen.conv_w, shipped.conv_w)  # conv=False refits the output layer alone


def test_sampling_all_maps_at_once_gives_the_same_cells_as_one_by_one():
    # the teaching unfolds every map's cells straight into one array (half the memory of joining parts)
    shipped, maps = _synthetic(np.random.default_rng(0))
    suspects = [shipped.apply(m.feats)[0] >= -3.0 for m in maps]
    one = sample(maps[0].feats, maps[0].dice, maps[0].stride, suspects[0], np.random.default_rng(5))
    rng = np.random.default_rng(5)
    parts = Cells.join([sample(m.feats, m.dice, m.stride, s, rng) for m, s in zip(maps, suspects, strict=True)])
    together = sample_all(maps, suspects, np.random.default_rng(5))
    for name in ("cols", "heat", "reg", "mask", "weight"):
        assert np.array_equal(getattr(parts, name), getattr(together, name)), name
    assert together.cols.shape[0] > one.cols.shape[0] > 0 and together.cols.dtype == np.float32


def test_a_taught_head_is_kept_only_when_it_reads_better():
    base = HeldBack(dice=50, right=45, extra=1, laid=[200, 190, 6])
    assert keeps(base, HeldBack(dice=50, right=47, extra=1, laid=[200, 150, 60]))  # more dice right
    assert not keeps(base, HeldBack(dice=50, right=47, extra=4, laid=[200, 200, 0]))  # but more extra dice
    assert keeps(base, HeldBack(dice=50, right=45, extra=0, laid=[200, 150, 60]))  # one extra die fewer
    # as many points is not better, however the held-back dice laid anew are found
    assert not keeps(base, HeldBack(dice=50, right=44, extra=0, laid=[200, 200, 0]))
    assert not keeps(base, HeldBack(dice=50, right=45, extra=1, laid=[200, 200, 0]))


def test_a_worse_head_is_discarded(fixtures, reader, monkeypatch):
    photos = list(iterate(fixtures / "nell-byler-d6"))
    rolls = [Roll(f, lab) for _, f, lab in photos]
    fitted, held = split(rolls)
    assert len(held) == 2 and len(fitted) == 3

    def ruined(shipped, maps, rng, **kw):
        head = shipped.copy()
        head.out_b[0] = -30.0  # sees no die anywhere
        return head, [1.0, 1.0], 10

    monkeypatch.setattr("companion.vision.teach_detector.fit_mined", ruined)
    detector = DieDetector()
    head, verdict = teach(detector, reader, rolls, n_composites=2)
    assert head is not None and not verdict.kept
    assert verdict.shipped is not None and verdict.adapted is not None
    assert verdict.adapted.missed >= 0 and verdict.shipped.right > 0
    assert verdict.shipped.missed == sum(n for t, g, n in verdict.shipped.confused if g == "missed")
    # the held-back dice laid anew: the ruined head alone finds none of them, the shipped one most
    assert verdict.adapted.laid[1] == 0 < verdict.adapted.laid[0] / 2 < verdict.shipped.laid[1]
    assert json.loads(json.dumps(verdict.to_json()))["kept"] is False
    few, short = teach(detector, reader, rolls[:2])
    assert few is None and not short.kept and "at least 3" in short.reason


def test_head_file_round_trip_and_damage(tmp_path):
    head = DieDetector().shipped_head()
    head.save(tmp_path / "h.npz")
    back = Head.load(tmp_path / "h.npz")
    assert np.array_equal(back.conv_w, head.conv_w) and np.array_equal(back.out_b, head.out_b)
    with np.load(tmp_path / "h.npz") as data:
        arrays = {k: data[k] for k in data.files}
    arrays["out_b"] = arrays["out_b"] + 1
    with open(tmp_path / "bad.npz", "wb") as fh:
        np.savez(fh, **arrays)
    with pytest.raises(ValueError):
        Head.load(tmp_path / "bad.npz")


def test_the_rolls_file_keeps_the_latest_rolls(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.vision.table_rolls.MAX_ROLLS", 3)
    rolls = TableRolls(tmp_path / "r.npz")
    for s in range(4):
        r = _roll(s, n=s + 1)
        rolls.add(r.frame, r.dice)
    back = TableRolls(tmp_path / "r.npz").rolls()
    assert [len(r.dice) for r in back] == [2, 3, 4]
    assert back[0].dice[1].value == 2 and abs(back[0].dice[0].center[0] - _roll(1).dice[0].center[0]) < 1e-3
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    assert len(TableRolls(tmp_path / "bad.npz")) == 0  # a damaged file: start afresh
    assert rolls.forget() and not (tmp_path / "r.npz").exists()


FAKE_TEACH = """
import json, sys
from pathlib import Path
from companion.vision.detector import DieDetector
out, verdict, keep = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "keep"
verdict.write_text(json.dumps({"kept": keep, "reason": "fake", "shipped": {"dice": 10, "right": 8, "extra": 0,
    "missed": 1, "confused": [["3", "5", 1]]}, "adapted": {"dice": 10, "right": 10, "extra": 0, "missed": 0,
    "confused": []}}))
if keep:
    DieDetector().shipped_head().save(out)
    from companion.vision.classifier import FaceClassifier
    from companion.vision.face_tail import FaceTail
    shipped = FaceTail.of_classifier(FaceClassifier())
    shipped.save(Path(sys.argv[4]), shipped.crc())
sys.exit(0 if keep else 1)
"""


def fake_teach(keep: bool):
    def command(rolls: Path, empty: Path | None, out: Path, verdict: Path, faces: Path, set_faces=None,
                marks: Path | None = None) -> list[str]:
        return [sys.executable, "-c", FAKE_TEACH, str(out), str(verdict), "keep" if keep else "no", str(faces)]

    return command


def test_the_teaching_job_moves_in_a_kept_head_and_always_its_verdict(tmp_path):
    told: list[bool] = []
    job = TableDetector(tmp_path, command=fake_teach(True), on_change=lambda: told.append(job.teaching))
    assert job.head() is None and job.status()["teaching"] is False
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert told[-1] is False and job.head() is not None
    layers = job.face_layers()  # the face classifier's refitted layers, moved in beside the head
    assert layers is not None and layers[1] == layers[0].crc()
    status = job.status()
    assert status["kept"] and (status["right"], status["dice"]) == (10, 10)
    job.command = fake_teach(False)  # a later teaching that keeps no face layers takes the old ones away
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_layers() is None and job.head() is not None
    job.forget()
    assert job.head() is None and job.verdict() is None

    declined = TableDetector(tmp_path / "d", command=fake_teach(False))
    (tmp_path / "d").mkdir()
    assert declined.start(tmp_path / "rolls.npz", None)
    declined.wait(60)
    status = declined.status()
    assert declined.head() is None and not status["kept"]
    assert (status["right"], status["dice"], status["confused"]) == (8, 10, [["3", "5", 1]])


def test_the_command_teaches_on_labelled_photos_and_always_writes_its_verdict(fixtures, tmp_path, capsys):
    from companion.cli import main

    stems = sorted(p.stem for p in (fixtures / "nell-byler-d6" / "images").iterdir())
    code = main(["dice", "teach-detector", "--photos", str(fixtures / "nell-byler-d6"), "--only", *stems,
                 "--out", str(tmp_path / "head.npz"), "--verdict", str(tmp_path / "v.json"), "--composites", "3",
                 "--faces-out", str(tmp_path / "faces.npz"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    # five photos of a few dice: too few of some face for the deeper fit, which says so and writes nothing
    assert verdict["faces"]["depth"] == 1 and "fewer than 2 confirmed dice" in verdict["faces"]["reason"]
    assert not (tmp_path / "faces.npz").exists()
    assert code in (0, 1) and verdict["kept"] == (code == 0) == (tmp_path / "head.npz").exists()
    assert json.loads((tmp_path / "v.json").read_text()) == verdict
    assert (verdict["fit_rolls"], verdict["held_rolls"], verdict["composites"]) == (3, 2, 3)
    held = iterate(fixtures / "nell-byler-d6", only=stems[3:])
    assert verdict["shipped"]["dice"] == sum(len(lab) for _, _, lab in held)
    none = ["--rolls", str(tmp_path / "none.npz"), "--out", str(tmp_path / "h2.npz")]
    assert main(["dice", "teach-detector", *none]) == 1
    assert "at least 3" in capsys.readouterr().out
