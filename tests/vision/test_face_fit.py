"""The face classifier's last two layers refitted in numpy on the table's dice (``face_fit``)."""

import numpy as np
import pytest

from companion.vision import face_fit
from companion.vision.classifier import FaceClassifier
from companion.vision.detector_head import unfold
from companion.vision.face_fit import deepen, fit, loss_and_grads, per_face, pull_for, read_right, views
from companion.vision.face_tail import FaceTail
from companion.vision.numpy_fit import unfold_batch
from companion.vision.profile_adapt import Profile
from tests.vision.numerals import numeral, numeral_profile


@pytest.fixture(scope="module")
def classifier() -> FaceClassifier:
    return FaceClassifier()


def test_the_numpy_layers_read_as_the_network(classifier):
    rng = np.random.default_rng(1)
    patches = [numeral(int(f), rng) for f in rng.integers(1, 7, 9)]
    scores = classifier.classify(patches, features=True)
    tail = FaceTail.of_classifier(classifier)
    assert scores.features is not None and scores.features.shape == (9, 96, 4, 4)
    assert np.allclose(tail.embed(scores.features), scores.raw, atol=1e-4)
    assert np.allclose(classifier.softmax(tail.logits(scores.features)), scores.probs, atol=1e-5)


def test_the_shared_unfolding_is_the_detectors(classifier):
    feats = np.random.default_rng(2).normal(size=(5, 7, 6)).astype(np.float32)
    every = unfold_batch(feats[None])
    assert np.array_equal(every, unfold(feats))
    cells = np.array([0, 7, 23, 41])
    assert np.array_equal(every[cells], unfold(feats, cells))


def test_the_gradient_is_the_losss_slope(classifier):
    rng = np.random.default_rng(3)
    feats = classifier.classify([numeral(f, rng) for f in (1, 2, 3, 4, 5, 6)], features=True).features
    shipped = FaceTail.of_classifier(classifier)
    start = shipped.copy()
    start.conv_w += rng.normal(0, 0.01, start.conv_w.shape).astype(np.float32)
    labels = np.arange(6)
    _, g = loss_and_grads(start, feats, labels, classifier.temperature, shipped, 0.3)
    assert g is not None
    eps = 1e-3
    norm = np.sqrt(sum(np.sum(a.astype(np.float64) ** 2) for a in g.arrays().values()))
    up, down = start.copy(), start.copy()
    for k, a in g.arrays().items():
        getattr(up, k)[...] += eps * a / norm
        getattr(down, k)[...] -= eps * a / norm
    slope = (loss_and_grads(up, feats, labels, classifier.temperature, shipped, 0.3, grads=False)[0]
             - loss_and_grads(down, feats, labels, classifier.temperature, shipped, 0.3, grads=False)[0]) / (2 * eps)
    assert slope == pytest.approx(norm, rel=0.05)


def test_it_moves_towards_the_evidence_and_little_on_little(classifier):
    profile = numeral_profile(4)
    labels = np.array(profile.labels)
    feats = views(classifier, np.stack(profile.patches))
    shipped = FaceTail.of_classifier(classifier)
    y = np.tile(labels, face_fit.TURNS)
    tail, losses = fit(shipped, feats, y, classifier.temperature, steps=120)
    assert losses[-1] < losses[0]
    probs = classifier.softmax(shipped.logits(feats))
    after = classifier.softmax(tail.logits(feats))
    assert read_right(after, y, np.ones(9, bool)) > read_right(probs, y, np.ones(9, bool))
    # two dice move it less than twenty-four: the shipped weights weigh as PRIOR_PATCHES patches
    few, _ = fit(shipped, feats[:2], y[:2], classifier.temperature, steps=120)
    assert pull_for(2) > pull_for(len(y))
    assert few.distance(shipped) < tail.distance(shipped)


def test_deepen_keeps_a_fit_that_reads_held_back_numerals_better(classifier):
    profile = numeral_profile(5)
    verdict = deepen(profile, classifier, faces=[1, 2, 3, 4, 5, 6], steps=150)
    assert verdict.per_face == {str(f): 5 for f in range(1, 7)}
    assert verdict.held == 12
    assert verdict.kept and verdict.depth == 2
    assert verdict.deeper > max(verdict.last_layer, verdict.shipped)
    assert profile.tail is not None and profile.reads_deeper(classifier)


def test_adapt_reads_with_the_refitted_layers(classifier, tmp_path):
    # The last-layer-only profile ignored a refitted tail; now adapt reads through it, and it is saved.
    profile = numeral_profile(2)
    shipped = FaceTail.of_classifier(classifier)
    profile.tail = shipped.copy()
    profile.tail.head_b[:] = 0.0
    profile.tail.head_b[3] = 40.0  # everything reads as a 4
    profile.tail_base = shipped.crc()
    scores = classifier.classify(profile.patches[:6], features=True)
    assert list(profile.adapt(classifier, scores).argmax(axis=1)) == [3] * 6
    profile.save(tmp_path / "p.npz")
    again = Profile.load(tmp_path / "p.npz")
    assert again.tail is not None and again.tail_base == profile.tail_base
    assert list(again.adapt(classifier, scores).argmax(axis=1)) == [3] * 6
    # another classifier than the one it was refitted from reads with the last layer alone
    again.tail_base += 1
    assert not again.reads_deeper(classifier)
    assert list(again.adapt(classifier, scores).argmax(axis=1)) != [3] * 6


def test_the_keep_rule_refuses_a_fit_that_reads_held_back_worse(classifier):
    # the newest throws contradict the older ones: what the older teach reads the newer wrong
    profile = numeral_profile(5)
    n = len(profile.labels)
    cut = face_fit.held_cut(profile)
    for i in range(cut, n):
        profile.labels[i] = (profile.labels[i] + 1) % 6
    sentinel = FaceTail.of_classifier(classifier)
    profile.tail = sentinel
    verdict = deepen(profile, classifier, faces=[1, 2, 3, 4, 5, 6], steps=150)
    assert not verdict.kept and verdict.depth == 1
    assert verdict.deeper <= max(verdict.last_layer, verdict.shipped)
    assert profile.tail is None


def test_a_face_never_confirmed_leaves_the_last_layer_and_says_so(classifier):
    profile = numeral_profile(3)
    keep = [i for i, lab in enumerate(profile.labels) if lab != 3]
    profile = Profile([profile.patches[i] for i in keep], [profile.labels[i] for i in keep])
    profile.views = [False] * len(profile.labels)
    before = FaceTail.of_classifier(classifier)
    profile.tail = before
    verdict = deepen(profile, classifier, faces=[1, 2, 3, 4, 5, 6])
    assert not verdict.kept and verdict.depth == 1
    assert "face 4 (0)" in verdict.reason
    assert profile.tail is before


def test_not_a_number_changes_nothing(classifier, monkeypatch):
    profile = numeral_profile(3)
    before = FaceTail.of_classifier(classifier)
    profile.tail = before
    monkeypatch.setattr(face_fit, "views",
                        lambda c, p, turns=4: np.full((turns * len(p), 96, 4, 4), np.nan, np.float32))
    verdict = deepen(profile, classifier)
    assert not verdict.kept and "finite" in verdict.reason
    assert profile.tail is before
    with pytest.raises(ValueError, match="finite"):
        fit(before, np.full((2, 96, 4, 4), np.nan, np.float32), np.array([0, 1]), 1.0)
    with pytest.raises(ValueError, match="no confirmed dice"):
        fit(before, np.zeros((0, 96, 4, 4), np.float32), np.array([], int), 1.0)
    with pytest.raises(ValueError, match="not a face"):
        per_face(profile, [1, 2, 7])


def _rolls(n: int, faces=(1, 2, 3, 4, 5, 6)):
    """``n`` rolls of an odd set (purple, green pips), each showing ``faces``, as labelled frames."""
    from companion.vision.evaluate import LabelledDie
    from companion.vision.render import RenderDie, render_dice

    out = []
    for seed in range(n):
        frame, drawn = render_dice([RenderDie(f, "other", pip_colour=(60, 200, 60)) for f in faces], seed=seed,
                                   die_size=48.0)
        out.append((frame, [LabelledDie(d.face, d.center, d.size) for d in drawn]))
    return out


def test_the_rolls_decide_and_a_fit_that_reads_them_worse_is_refused(reader, monkeypatch):
    from companion.vision import face_teach

    rolls = _rolls(5)
    read: list[str] = []

    def kind(profile) -> str:
        if profile is None:
            return "shipped"
        if profile.marks:
            return "both" if profile.tail is not None else "marks"
        return "layers" if profile.tail is not None else "last"

    def judged(winner: str | None):
        def points(rdr, held, profile, faces, empty=None):
            read.append(kind(profile))
            return (12, 12, 0, 9.0) if kind(profile) == winner else (10, 10, 0, 8.0)
        return points

    monkeypatch.setattr(face_teach, "points", judged(None))  # nothing reads better than as shipped
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert not verdict.kept and verdict.depth == 1 and profile.tail is None and not profile.marks
    assert verdict.held == 12 and verdict.per_face == {str(f): 5 for f in range(1, 7)}
    assert read == ["shipped", "last"] + ["layers"] * len(face_fit.PULLS) + ["marks", "both"]
    monkeypatch.setattr(face_teach, "points", judged("last"))  # the last layer alone reads best
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert not verdict.kept and profile.tail is None and not profile.marks
    monkeypatch.setattr(face_teach, "points", judged("layers"))
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert verdict.kept and verdict.depth == 2 and profile.tail is not None and profile.reads_deeper(reader.classifier)
    assert not profile.marks
    assert len(profile.labels) > sum(len(d) for _, d in rolls)  # every roll's profile, pips and tray windows too
    monkeypatch.setattr(face_teach, "points", judged("marks"))
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert verdict.kept and verdict.depth == 3 and profile.marks and profile.tail is None
    assert verdict.marks == 12 and verdict.marks_layers == 10 and "by their marks" in verdict.reason
    monkeypatch.setattr(face_teach, "points", judged("both"))  # the refit finds the dice, the marks name them
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert verdict.kept and verdict.depth == 3 and profile.marks and profile.reads_deeper(reader.classifier)
    assert verdict.marks_layers == 12 and verdict.marks == 10

    def tied(rdr, held, profile, faces, empty=None):  # as many points: the surer wins
        sure = {"shipped": 1.0, "last": 2.0, "layers": 3.0, "marks": 5.0, "both": 4.0}[kind(profile)]
        deeper = profile is not None and (profile.tail is not None or profile.marks)
        return (10, 10, 0, sure) if deeper else (9, 9, 0, sure)

    monkeypatch.setattr(face_teach, "points", tied)
    profile, verdict = face_teach.teach_faces(reader, rolls, steps=20)
    assert verdict.kept and verdict.depth == 3 and profile.marks and profile.tail is None


def test_the_rolls_too_few_or_a_face_missing_leave_the_last_layer(reader):
    from companion.vision import face_teach

    profile, verdict = face_teach.teach_faces(reader, _rolls(2), steps=20)
    assert not verdict.kept and "at least 3" in verdict.reason and profile.tail is None
    profile, verdict = face_teach.teach_faces(reader, _rolls(4, faces=(1, 2, 3, 5, 6)), steps=20)
    assert not verdict.kept and "face 4 (0)" in verdict.reason and profile.tail is None
