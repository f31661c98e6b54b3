"""Profiles (the table's own dice) and the 'companion dice' commands."""

import json

import numpy as np
import pytest

from companion.cli import main
from companion.vision.crops import patch
from companion.vision.evaluate import iterate
from companion.vision.profile_adapt import PRIOR_PATCHES, Profile, _retrain_head
from companion.vision.profile_build import build_profile
from companion.vision.render import RenderDie, render_dice


def test_profile_round_trip(tmp_path):
    p = Profile()
    p.add(np.zeros((32, 32, 3), np.uint8), 3)
    p.add(np.full((32, 32, 3), 200, np.uint8), 6)
    path = tmp_path / "table"
    p.save(path)
    q = Profile.load(path)
    assert q.labels == [3, 6] and len(q) == 2
    assert np.array_equal(q.patches[1], p.patches[1])


def test_profile_votes_for_its_own_dice(reader, fixtures):
    # The nearest-neighbour fallback: with no opinion from the classifier (uniform probabilities),
    # a confirmed patch reads as its own label, being its own nearest neighbour.
    photos = [(f, labels) for _, f, labels in iterate(fixtures / "matteop65-webcam")]
    profile = build_profile(reader, photos[:3])
    assert len(profile) >= 3 * 2
    # One patch of each class the profile holds, so that no single answer fits them all.
    first = {label: i for i, label in reversed(list(enumerate(profile.labels)))}
    assert len(first) >= 3
    patches = [profile.patches[i] for i in first.values()]
    emb = reader.classifier.classify(patches).embeddings
    uniform = np.full((len(patches), len(reader.classifier.classes)), 1 / len(reader.classifier.classes), np.float32)
    votes = profile.vote_adapt(reader.classifier, uniform, emb)
    assert np.allclose(votes.sum(axis=1), 1.0)
    assert list(votes.argmax(axis=1)) == list(first)


def test_retrained_last_layer_fits_the_tables_dice(reader):
    # A purple die with green pips and symbol faces: the table's own dice, confirmed on the tablet.
    rng = np.random.default_rng(0)
    profile = Profile()
    faces = [1, 2, 3, 4, 5, 6, "worm"]
    for seed in range(6):
        dice = [RenderDie(f, "other", pip_colour=(60, 200, 60)) for f in faces]
        frame, drawn = render_dice(dice, seed=seed, die_size=float(rng.uniform(36, 56)))
        for d in drawn:
            profile.add(patch(frame, d.center[0], d.center[1], d.size * 1.25), faces.index(d.face))
    scores = reader.classifier.classify(profile.patches)
    adapted = profile.adapt(reader.classifier, scores)
    labels = np.array(profile.labels)
    assert np.mean(adapted.argmax(axis=1) == labels) >= np.mean(scores.probs.argmax(axis=1) == labels)
    assert np.mean(adapted.argmax(axis=1) == labels) >= 0.9


def test_a_larger_profile_moves_the_last_layer_further():
    # The shipped layer weighs as much as PRIOR_PATCHES examples (or PULL, whichever is stronger): the
    # same dice confirmed ten times over are more evidence than once, so the layer moves further.
    rng = np.random.default_rng(1)
    w0, b0 = rng.normal(0, 1, (9, 16)).astype(np.float32), np.zeros(9, np.float32)
    x = rng.normal(0, 1, (12, 16)).astype(np.float32)
    y = rng.integers(0, 6, 12)
    moved = []
    for copies in (1, 10):
        w, _ = _retrain_head(np.tile(x, (copies, 1)), np.tile(y, copies), w0, b0, 1.0)
        moved.append(float(np.linalg.norm(w - w0)))
    assert PRIOR_PATCHES > 12  # once, the dice weigh less than the shipped layer
    assert moved[1] > 1.5 * moved[0] > 0


@pytest.mark.parametrize("patches", [1, 3, 8, 17])
def test_a_first_roll_of_a_few_patches_keeps_the_last_layer_finite_and_near(patches):
    # a roll confirmed without its count gives a handful of patches: the pull to the shipped layer is
    # strong then, and its step once overshot to inf/NaN (numpy's overflow warnings are errors here)
    rng = np.random.default_rng(2)
    w0, b0 = rng.normal(0, 1, (9, 16)).astype(np.float32), rng.normal(0, 1, 9).astype(np.float32)
    x = rng.normal(0, 1, (patches, 16)).astype(np.float32)
    y = rng.integers(0, 6, patches)
    with np.errstate(all="raise"):
        w, b = _retrain_head(x, y, w0, b0, 1.0)
    assert np.isfinite(w).all() and np.isfinite(b).all()
    assert 0 < np.linalg.norm(w - w0) < np.linalg.norm(w0)


def test_cli_read_json(fixtures, capsys, tmp_path):
    images = sorted(str(p) for p in (fixtures / "matteop65-webcam" / "images").iterdir())[:2]
    assert main(["dice", "read", *images, "--json", "--annotate", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line, image in zip(lines, images, strict=True):
        obj = json.loads(line)
        assert obj["image"] == image and obj["ms"] > 0
        assert {"value", "center", "box", "confidence", "colour"} <= set(obj["dice"][0])
    assert len(list(tmp_path.glob("*.png"))) == 2


def test_cli_calibrate_then_eval_with_profile(fixtures, capsys, tmp_path):
    data = fixtures / "matteop65-webcam"
    stems = sorted(p.stem for p in (data / "images").iterdir())
    prof = tmp_path / "table.npz"
    assert main(["dice", "calibrate", str(data), "--out", str(prof), "--only", *stems[:2]]) == 0
    assert prof.exists()
    capsys.readouterr()
    assert main(["dice", "eval", str(data), "--profile", str(prof), "--skip", *stems[:2], "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["images"] == len(stems) - 2
    assert summary["accuracy"] >= 0.9


def test_cli_bad_image_is_an_error(tmp_path, capsys):
    assert main(["dice", "read", str(tmp_path / "nope.jpg")]) == 2


def test_a_profile_without_symbol_faces_makes_them_unlikely():
    p = Profile()
    assert p.symbol_odds() == 0.5
    for i in range(30):
        p.add(np.zeros((32, 32, 3), np.uint8), i % 6)
    p.add(np.zeros((32, 32, 3), np.uint8), 7)  # "not a die" windows say nothing of the faces
    assert 1 / 260 < p.symbol_odds() < 1 / 220
    # classes: 1-6, worm, none, side. The symbol face's share goes to the numbers; "a die is here"
    # (1 - none - side) stays as it was.
    probs = np.array([[0.05, 0.01, 0.02, 0.01, 0.01, 0.0, 0.8, 0.05, 0.05]], np.float32)
    out = p.weigh_symbols(probs)
    assert out[0, 6] < 0.01 and int(out[0].argmax()) == 0
    assert np.isclose(out.sum(), 1.0) and np.allclose(out[0, 7:], probs[0, 7:])
    p.add(np.zeros((32, 32, 3), np.uint8), 6)  # one confirmed worm: the table has symbol faces
    assert p.symbol_odds() == 1.0 and np.array_equal(p.weigh_symbols(probs), probs)


def test_cli_faces_bound_the_reading_and_bad_faces_are_refused(tmp_path, capsys):
    import cv2
    import pytest

    frame, _ = render_dice([RenderDie("worm", "white"), RenderDie(2, "red")], seed=11, die_size=50)
    image = str(tmp_path / "tray.png")
    cv2.imwrite(image, frame)
    assert main(["dice", "read", image, "--json", "--faces", "1", "2", "3", "4", "5", "6"]) == 0
    values = [d["value"] for d in json.loads(capsys.readouterr().out)["dice"]]
    assert len(values) == 2 and "worm" not in values
    with pytest.raises(SystemExit):
        main(["dice", "read", image, "--faces", "7"])
    assert "not a face" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["dice", "read", image, "--faces", "2", "2"])
    assert "given twice" in capsys.readouterr().err


def test_cli_faces_before_the_photos_do_not_swallow_them(tmp_path, capsys):
    import cv2

    frame, _ = render_dice([RenderDie("worm", "white"), RenderDie(6, "white"), RenderDie(6, "white"),
                            RenderDie(6, "white"), RenderDie(2, "white")], seed=3, die_size=50)
    image = str(tmp_path / "skull_on_the_1.png")
    cv2.imwrite(image, frame)
    second = str(tmp_path / "again.png")
    cv2.imwrite(second, frame)
    # --faces first, a symbol on the 1 ("symbol" names the symbol face too), the photos after it
    assert main(["dice", "read", "--faces", "symbol", "2", "3", "4", "5", "6", image, second, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [image, second]
    assert sorted(str(d["value"]) for d in lines[0]["dice"]) == ["2", "6", "6", "6", "worm"]
    # photos on both sides of --faces
    assert main(["dice", "read", image, "--faces", "worm", "2", "3", "4", "5", "6", second]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["dice", "read", "--faces", "1", "2"]) == 2  # no photo at all
    assert "at least one image" in capsys.readouterr().err


def test_cli_eval_takes_its_folder_after_faces(fixtures, capsys):
    data = fixtures / "matteop65-webcam"
    stems = sorted(p.stem for p in (data / "images").iterdir())
    assert main(["dice", "eval", "--faces", "1", "2", "3", "4", "5", "6", str(data), "--json",
                 "--skip", *stems[1:]]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 1


def test_two_patches_of_one_die_count_once(tmp_path):
    p = Profile()
    for i in range(12):
        p.add(np.zeros((32, 32, 3), np.uint8), i % 6)
        p.add(np.zeros((32, 32, 3), np.uint8), i % 6, view=True)  # the same die, centred otherwise
    plain = (5 / 6) ** 12
    assert np.isclose(p.symbol_odds(), plain / (plain + 1))
    p.save(tmp_path / "t.npz")
    assert np.isclose(Profile.load(tmp_path / "t.npz").symbol_odds(), p.symbol_odds())


def test_table_profile_survives_a_damaged_file_and_keeps_the_latest_dice(reader, tmp_path, monkeypatch):
    from companion.vision import profile_store
    from companion.vision.profile_store import TableProfile

    path = tmp_path / "dice_profile.npz"
    path.write_bytes(b"not a profile")  # a power cut in the middle of an older version's write
    kept = TableProfile(path)
    assert len(kept.profile) == 0
    frame, _ = render_dice([RenderDie(f, "white") for f in (2, 4, 5)], seed=3, die_size=50)
    reading = reader.read(frame)
    assert len(reading.dice) == 3
    faces = [d.value for d in reading.dice]
    monkeypatch.setattr(profile_store, "MAX_PATCHES", 7)
    assert kept.learn(reader, frame, reading, faces) == 3
    assert kept.learn(reader, frame, reading, faces) == 3
    assert kept.learn(reader, frame, reading, faces[:2]) == 0  # not the reading's dice: nothing learnt
    others = [1 if f != 1 else 2 for f in faces]
    assert kept.learn(reader, frame, reading, others) == 0  # typed in while the camera showed another roll
    again = Profile.load(path)
    assert len(again) == 6 and not (tmp_path / "dice_profile.npz.tmp").exists()
    assert kept.learn(reader, frame, reading, faces) == 3
    assert len(Profile.load(path)) == 7  # the oldest dropped beyond the cap
    # Corrected die by die on this reading (the guided calibration): learnt however many differ.
    assert kept.learn(reader, frame, reading, others, most_corrected=1.0) == 3
    assert Profile.load(path).labels[-3:] == [f - 1 for f in others]


def test_a_whole_set_in_view_teaches_the_rest_of_the_tray_as_not_a_die(reader, tmp_path, seen_as):
    """The guided calibration, with the set's count known: a mark on the tray away from the dice is kept
    as "not a die"; a game's roll (dice set aside may lie in view) teaches no background."""
    import cv2

    from companion.vision.profile_build import MAX_BACKGROUND_PER_IMAGE, NOT_A_DIE
    from companion.vision.profile_store import TableProfile

    frame, drawn = render_dice([RenderDie(f, "white") for f in (3, 6)], seed=5, die_size=50)
    assert all(np.hypot(d.center[0] - 100, d.center[1] - 400) > 150 for d in drawn)
    cv2.circle(frame, (100, 400), 14, (20, 20, 20), -1, cv2.LINE_AA)  # a screw head on the tray...
    seen_as(reader, (100, 400), 20.0, {"1": 0.6, "none": 0.4})  # ... that the classifier half takes for a 1
    assert "1" in [str(d.value) for d in reader.read(frame).dice]
    reading = reader.read(frame, expected=2)  # the table said how many dice the set has
    faces = [d.value for d in reading.dice]
    assert sorted(faces) == [3, 6]
    game = TableProfile(tmp_path / "game.npz")
    assert game.learn(reader, frame, reading, faces) == 2
    assert NOT_A_DIE not in game.profile.labels
    taught = TableProfile(tmp_path / "taught.npz")
    assert taught.learn(reader, frame, reading, faces, background=True) == 2
    labels = Profile.load(tmp_path / "taught.npz").labels
    assert labels[:2] == [f - 1 for f in faces] and NOT_A_DIE in labels[2:]
    background = [p for p, lab in zip(taught.profile.patches, labels, strict=True) if lab == NOT_A_DIE]
    assert len(background) <= MAX_BACKGROUND_PER_IMAGE


def test_a_calibration_teaches_small_windows_on_a_dies_pips_as_no_top_face(reader, tmp_path):
    """In a close-up one pip fills a small window as a 1's face fills a die's, and a profile of the table's
    faces alone taught the last layer to read such windows as 1s (docs/log/calibration-2026-11-28.md).
    So each labelled die of a calibration also gives windows on its pips, labelled "side"; a game's roll
    (dice set aside may lie in view) gives none."""
    from companion.vision.evaluate import LabelledDie
    from companion.vision.profile_build import PIP_PLACES, PIP_WINDOW
    from companion.vision.profile_store import TableProfile

    side = reader.classifier.classes.index("side")
    frames = [render_dice([RenderDie(f, "white") for f in (5, 6, 4)], seed=s, die_size=150) for s in range(2)]
    photos = [(frame, [LabelledDie(d.face, d.center, d.size) for d in drawn]) for frame, drawn in frames]
    profile = build_profile(reader, photos)
    assert profile.labels.count(side) == 6 * len(PIP_PLACES)
    frame, labels = photos[0]
    middle = patch(frame, *labels[0].center, labels[0].size * PIP_WINDOW, reader.classifier.patch)
    taught_side = [p for p, lab in zip(profile.patches, profile.labels, strict=True) if lab == side]
    assert any(np.array_equal(middle, p) for p in taught_side)
    # the guided calibration with the set's count known teaches them too, a game's roll does not
    reading = reader.read(frame, expected=3)
    faces = [d.value for d in reading.dice]
    game, taught = TableProfile(tmp_path / "game.npz"), TableProfile(tmp_path / "taught.npz")
    assert game.learn(reader, frame, reading, faces) == 3 and side not in game.profile.labels
    assert taught.learn(reader, frame, reading, faces, background=True) == 3
    assert taught.profile.labels.count(side) == 3 * len(PIP_PLACES)


def test_the_dice_commands_read_as_the_daemon_does_unless_told_not_to(fixtures, monkeypatch, capsys, tmp_path):
    """`companion dice read|eval|calibrate` use the learned detector when it is shipped, as the daemon
    does, so that a newcomer trying a photo sees what the table would; `--no-detector` leaves it out."""
    from companion.vision.detector import DieDetector, available

    assert available()
    calls = []
    find = DieDetector.find  # what the reader calls (``detect`` is its dice alone)
    monkeypatch.setattr(DieDetector, "find", lambda self, *a, **k: calls.append(1) or find(self, *a, **k))
    image = str(sorted((fixtures / "matteop65-webcam" / "images").iterdir())[0])
    assert main(["dice", "read", image, "--json"]) == 0 and calls
    calls.clear()
    assert main(["dice", "read", image, "--json", "--no-detector"]) == 0 and not calls
    data = fixtures / "matteop65-webcam"
    stems = sorted(p.stem for p in (data / "images").iterdir())
    assert main(["dice", "calibrate", str(data), "--out", str(tmp_path / "p.npz"), "--only", stems[0]]) == 0 and calls
    calls.clear()
    assert main(["dice", "eval", str(data), "--no-detector", "--json"]) == 0 and not calls
    capsys.readouterr()
    # without the detector's model: the reader without it, unless the detector is asked for by name
    monkeypatch.setattr("companion.vision.detector.available", lambda *a: False)
    assert main(["dice", "read", image, "--json"]) == 0 and not calls
    with pytest.raises(SystemExit, match="not installed"):
        main(["dice", "read", image, "--detector"])


def test_cli_says_which_photo_is_missing_and_which_is_no_image(tmp_path, capsys):
    import cv2

    frame, _ = render_dice([RenderDie(3, "white")], seed=2, die_size=50)
    good = str(tmp_path / "tray.png")
    cv2.imwrite(good, frame)
    garbled = tmp_path / "garbled.jpg"
    garbled.write_bytes(b"not a picture at all")
    missing = str(tmp_path / "nowhere.jpg")
    # the readable photo is still read; the command exits 2 for the other two, naming each and why
    assert main(["dice", "read", missing, str(garbled), good, "--json"]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == [good]
    assert f"{missing}: no such file" in err
    assert f"{garbled}: not an image OpenCV can read" in err
    assert main(["empty-tray", "capture", "--data", str(tmp_path), "--image", missing]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "empty_tray.npz").exists()
