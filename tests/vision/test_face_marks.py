"""The faces told by their marks: the table's own confirmed dice as turned templates (``face_marks``)."""

import numpy as np
import pytest

from companion.vision.classifier import FaceClassifier
from companion.vision.face_marks import VOUCH, VOUCH_MOST, MarkTemplates
from companion.vision.profile_adapt import MARKS_MIN_DIE, Profile
from companion.vision.profile_store import TableProfile
from tests.vision.numerals import numeral, numeral_profile

FACES = [0, 1, 2, 3, 4, 5, 6]  # the classifier's face classes: 1-6 and the symbol face


@pytest.fixture(scope="module")
def classifier() -> FaceClassifier:
    return FaceClassifier()


def thrown(n: int, seed: int) -> tuple[list[np.ndarray], np.ndarray]:
    rng = np.random.default_rng(seed)
    faces = rng.integers(1, 7, n)
    return [numeral(int(f), rng) for f in faces], faces - 1


def test_two_throws_of_each_face_teach_numerals_the_network_cannot_tell_apart(classifier):
    profile = numeral_profile(2)
    patches, truth = thrown(90, seed=11)
    scores = classifier.classify(patches)
    last = profile.adapt(classifier, scores, patches)[:, :6].argmax(axis=1)
    profile.marks = True
    marks = profile.adapt(classifier, scores, patches)[:, :6].argmax(axis=1)
    right_last, right_marks = int((last == truth).sum()), int((marks == truth).sum())
    assert right_marks >= 0.9 * len(truth)  # 88 of 90 when written
    assert right_marks > right_last + 40  # the last layer alone: 12 of 90


def test_the_marks_name_the_face_and_vouch_only_for_a_die_like_the_tables(classifier):
    templates = MarkTemplates.build(numeral_profile(2).patches, numeral_profile(2).labels, FACES)
    assert templates is not None and templates.classes == [0, 1, 2, 3, 4, 5]
    patches, truth = thrown(4, seed=3)
    felt = np.clip(np.random.default_rng(4).normal(90, 25, (32, 32, 3)), 0, 255).astype(np.uint8)
    patches.append(felt)  # the tray's own texture: like none of the table's dice
    probs = np.full((5, 9), 0.0, np.float32)
    probs[:, 7] = [0.9, 0.5, 0.2, 0.0, 0.5]  # "none": not a die
    probs[:, 6] = [0.1, 0.5, 0.8, 1.0, 0.5]  # all the rest on the symbol face
    out = templates.probs(patches, probs, FACES)
    best = templates.similarity(patches)[:, :6].max(axis=1)
    assert np.all(best[:4] > VOUCH[1]) and best[4] < VOUCH[0]  # the table's faces match, the felt does not
    assert np.allclose(out[:4, FACES].sum(axis=1), np.maximum(probs[:4, FACES].sum(axis=1), VOUCH_MOST), atol=1e-5)
    assert np.allclose(out[4], probs[4])  # the felt: all the network's
    assert np.allclose(out.sum(axis=1), 1.0, atol=1e-5) and np.all(out >= 0.0)
    assert np.allclose(out[:, 6], probs[:, 6])  # no confirmed die showed a symbol: the network's to say
    probs[:, 6], probs[:, 2] = 0.0, [0.1, 0.5, 0.8, 1.0, 0.5]  # all on face 3, which the marks share out
    out = templates.probs(patches, probs, FACES)
    assert out[4, 7] == pytest.approx(0.5) and out[4, :6].sum() == pytest.approx(0.5)  # the felt: a die or not,
    assert np.all(out[:4, 6] == 0.0)  # the network's to say; which face, the marks'
    assert np.array_equal(out[:4, :6].argmax(axis=1), truth)  # and they tell which face it is


def test_a_window_unlikely_a_die_is_left_as_the_network_read_it(classifier):
    profile = numeral_profile(2)
    profile.marks = True
    patches, _ = thrown(2, seed=5)
    probs = np.zeros((2, len(classifier.classes)), np.float32)
    none = classifier.classes.index("none")
    probs[0, none], probs[0, 3] = 1.0 - MARKS_MIN_DIE / 2, MARKS_MIN_DIE / 2
    probs[1, none], probs[1, 3] = 0.5, 0.5
    out = profile.by_marks(classifier, probs, patches)
    assert np.array_equal(out[0], probs[0])  # not even matched: a die's mark is no reason to look
    assert not np.array_equal(out[1], probs[1]) and out[1, none] < 0.5  # matched, and vouched for


def test_too_few_faces_or_an_odd_patch_read_nothing():
    profile = numeral_profile(2)
    only_ones = [p for p, lab in zip(profile.patches, profile.labels, strict=True) if lab == 0]
    assert MarkTemplates.build(only_ones, [0] * len(only_ones), FACES) is None
    templates = MarkTemplates.build(profile.patches, profile.labels, FACES)
    assert templates is not None
    sims = templates.similarity([np.zeros((20, 20, 3), np.uint8), np.full((32, 32, 3), 128, np.uint8)])
    assert np.all(sims[0] == -1.0)  # another size: no face matched
    assert np.all(sims[1, :6] <= 1e-6)  # a flat grey patch correlates with no mark
    assert templates.similarity([]).shape == (0, 8)
    probs = np.full((1, 9), 1 / 9, np.float32)
    probs[0, 2] += 0.5
    assert np.array_equal(templates.probs([np.zeros((20, 20, 3), np.uint8)], probs, FACES), probs)
    assert np.array_equal(templates.probs([profile.patches[0]], probs, [6]), probs)  # no face it knows asked


def test_the_choice_is_kept_with_the_profile_and_as_it_grows(tmp_path, reader):
    profile = numeral_profile(2)
    profile.marks = True
    profile.save(tmp_path / "p.npz")
    assert Profile.load(tmp_path / "p.npz").marks
    profile.marks = False
    profile.save(tmp_path / "q.npz")
    assert not Profile.load(tmp_path / "q.npz").marks
    from companion.vision.render import RenderDie, render_dice

    store = TableProfile(tmp_path / "dice_profile.npz")
    store.profile.marks = True
    frame, _ = render_dice([RenderDie(f, "white") for f in (2, 5)], seed=1, die_size=48.0)
    reading = reader.read(frame)
    assert store.learn(reader, frame, reading, [d.value for d in reading.dice]) == len(reading.dice) > 0
    assert store.profile.marks and TableProfile(tmp_path / "dice_profile.npz").profile.marks
    assert store.profile._marks is not None  # built where it learnt: the next reading does not wait
