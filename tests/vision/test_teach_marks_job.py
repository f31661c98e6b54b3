"""The face teaching's depth carried to the daemon: the faces told by their marks (``--marks-out``) moved
in and out by the teaching job like the refitted face layers, and the figure the table is told read
with the reader it reads with after the teaching (``detector_job.taught_reading``)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import cv2
import pytest

from companion.vision.detector_job import MARKS_FILE, TableDetector, taught_reading

DETECTOR = {"dice": 10, "right": 8, "extra": 0, "missed": 1, "confused": [["3", "5", 1]]}
MARKED = {"dice": 10, "right": 10, "extra": 0, "missed": 0, "confused": []}

# argv: out, verdict, faces, marks, what the face teaching kept ("marks", "layers", "both" or "none")
FAKE_TEACH = """
import json, sys
from pathlib import Path
out, verdict, faces, marks, kept = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], sys.argv[5]
reading = {"dice": 10, "right": 10, "extra": 0, "missed": 0, "confused": []}
told = {"kept": kept != "none", "depth": {"marks": 3, "both": 3, "layers": 2, "none": 1}[kept], "reason": "fake",
        "reading": reading if kept != "none" else {**reading, "right": 7}}
verdict.write_text(json.dumps({"kept": False, "reason": "fake", "shipped": {"dice": 10, "right": 8, "extra": 0,
    "missed": 1, "confused": [["3", "5", 1]]}, "faces": told}))
if kept in ("marks", "both") and marks != "-":
    Path(marks).write_text(json.dumps(told))
if kept in ("layers", "both"):
    from companion.vision.classifier import FaceClassifier
    from companion.vision.face_tail import FaceTail
    shipped = FaceTail.of_classifier(FaceClassifier())
    shipped.save(faces, shipped.crc())
sys.exit(1)
"""


def fake_teach(kept: str):
    """The daemon's command, standing in for ``companion dice teach-detector``: the detector is not
    kept; the face teaching keeps ``kept``."""

    def command(rolls: Path, empty: Path | None, out: Path, verdict: Path, faces: Path, set_faces=None,
                marks: Path | None = None) -> list[str]:
        return [sys.executable, "-c", FAKE_TEACH, str(out), str(verdict), str(faces), str(marks or "-"), kept]

    return command


def test_the_job_moves_in_the_marks_and_takes_them_away(tmp_path, caplog):
    job = TableDetector(tmp_path, command=fake_teach("marks"))
    assert not job.face_marks()
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_marks() and job.face_layers() is None  # one depth at most
    assert not any(tmp_path.glob("*.next.*"))  # nothing left pending
    status = job.status()  # what the table is told: the held-back rolls read with the marks
    assert (status["right"], status["dice"], status["confused"], status["depth"]) == (10, 10, [], 3)
    assert not status["kept"]  # the detector's own verdict stays the detector's
    job.command = fake_teach("layers")  # a later teaching that keeps the layers takes the marks away
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert not job.face_marks() and job.face_layers() is not None and job.status()["depth"] == 2
    job.command = fake_teach("both")  # the marks on the refitted layers: both move in
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_marks() and job.face_layers() is not None and job.status()["depth"] == 3
    job.command = fake_teach("marks")
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_marks() and job.face_layers() is None
    job.command = fake_teach("none")  # ... and one that keeps no depth: the figure is the detector's again
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert not job.face_marks() and not (tmp_path / MARKS_FILE).exists()
    status = job.status()
    assert (status["right"], status["dice"], status["confused"], status["depth"]) == (8, 10, [["3", "5", 1]], 1)
    job.command = fake_teach("marks")
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_marks()
    job.forget()  # "Forget these dice"
    assert not job.face_marks() and not (tmp_path / MARKS_FILE).exists() and job.status().get("dice") is None

    (tmp_path / MARKS_FILE).write_text("{damaged")  # never a reason to stop reading: without marks
    with caplog.at_level(logging.WARNING):
        assert not job.face_marks()
    assert "face marks" in caplog.text
    (tmp_path / MARKS_FILE).write_text(json.dumps({"kept": False, "depth": 1}))
    assert not job.face_marks()


def test_a_failed_job_leaves_the_marks_as_they_were(tmp_path):
    job = TableDetector(tmp_path, command=fake_teach("marks"))
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    job.command = lambda *args: [sys.executable, "-c", "import sys; sys.exit(2)"]
    assert job.start(tmp_path / "rolls.npz", None)
    job.wait(60)
    assert job.face_marks()


def test_the_figure_is_the_final_readers():
    detector = {"kept": True, "shipped": DETECTOR, "adapted": {**DETECTOR, "right": 9}}
    assert taught_reading(detector)["right"] == 9  # the taught head's, as before
    assert taught_reading({**detector, "kept": False})["right"] == 8
    assert taught_reading({**detector, "faces": {"kept": True, "depth": 3, "reading": MARKED}}) == MARKED
    assert taught_reading({**detector, "faces": {"kept": False, "depth": 1, "reading": MARKED}})["right"] == 9
    assert taught_reading({**detector, "faces": {"kept": True, "depth": 2}})["right"] == 9  # an older verdict
    assert taught_reading({"kept": False}) is None


def _photos(folder: Path, n: int = 5) -> list[str]:
    """``n`` rendered rolls of an odd set written as labelled photos (YOLO labels), oldest first."""
    from tests.vision.test_face_fit import _rolls

    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    stems = []
    for i, (frame, dice) in enumerate(_rolls(n)):
        stem = f"roll{i:02d}"
        h, w = frame.shape[:2]
        cv2.imwrite(str(folder / "images" / f"{stem}.png"), frame)
        (folder / "labels" / f"{stem}.txt").write_text("".join(
            f"{d.value - 1} {d.center[0] / w} {d.center[1] / h} {d.size / w} {d.size / h}\n" for d in dice))
        stems.append(stem)
    return stems


@pytest.mark.parametrize("head_kept", [True, False])
def test_the_command_writes_the_marks_and_judges_with_the_detector_kept(tmp_path, monkeypatch, capsys, head_kept):
    from companion.cli import main
    from companion.vision import face_teach, teach_detector

    stems = _photos(tmp_path / "photos")
    heads: list[object] = []
    real = face_teach.reading

    def points(reader, held, profile, faces, empty=None):  # the faces told by their marks read best
        heads.append(reader.detector.head)
        return (12, 12, 0, 9.0) if profile is not None and profile.marks and profile.tail is None else (9, 9, 0, 8.0)

    def reading(reader, held, profile, faces, empty=None):
        heads.append(reader.detector.head)
        assert profile.marks and profile.tail is None  # the reading told is the marks'
        return real(reader, held, profile, faces, empty)

    monkeypatch.setattr(face_teach, "points", points)
    monkeypatch.setattr(face_teach, "reading", reading)
    monkeypatch.setattr(teach_detector, "keeps", lambda shipped, adapted: head_kept)
    out = tmp_path / "out"
    out.mkdir()
    code = main(["dice", "teach-detector", "--photos", str(tmp_path / "photos"), "--only", *stems, "--out",
                 str(out / "head.npz"), "--verdict", str(out / "v.json"), "--composites", "3", "--faces-out",
                 str(out / "faces.npz"), "--marks-out", str(out / "marks.json"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == (0 if head_kept else 1) and (out / "head.npz").exists() == head_kept
    faces = verdict["faces"]
    assert faces["kept"] and faces["depth"] == 3 and faces["reading"]["dice"] == 12  # the held-back dice, read
    assert json.loads((out / "marks.json").read_text()) == faces and not (out / "faces.npz").exists()
    assert taught_reading(verdict) == faces["reading"]
    assert heads and all((h is not None) == head_kept for h in heads)  # judged with the detector the table keeps


def test_the_faces_verdict_holds_the_reading_of_the_depth_kept(reader, monkeypatch):
    """``face_teach`` reads the held-back rolls once more at the depth it chose, and the verdict holds
    that reading (what the table is told): the last layer alone when no deeper depth was kept."""
    from companion.vision import face_teach
    from tests.vision.test_face_fit import _rolls

    rolls = _rolls(5)
    told: list[str] = []

    def kind(profile) -> str:
        return ("marks" if profile.marks else "") + ("layers" if profile.tail is not None else "") or "last"

    def judged(winner: str):
        def points(rdr, held, profile, faces, empty=None):
            return (12, 12, 0, 9.0) if profile is not None and kind(profile) == winner else (10, 10, 0, 8.0)
        return points

    def reading(rdr, held, profile, faces, empty=None):
        told.append(kind(profile))
        return {"dice": 12, "right": len(told), "extra": 0, "missed": 0, "confused": []}

    monkeypatch.setattr(face_teach, "reading", reading)
    for winner, depth in (("marks", 3), ("markslayers", 3), ("layers", 2), ("last", 1)):
        monkeypatch.setattr(face_teach, "points", judged(winner))
        _, verdict = face_teach.teach_faces(reader, rolls, steps=20)
        assert verdict.depth == depth and told[-1] == winner and verdict.reading["right"] == len(told)
        assert verdict.to_json()["reading"] == verdict.reading
