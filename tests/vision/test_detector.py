"""The learned die detector (shipped ONNX model run by cv2.dnn), the empty-tray reference, and the
reader with both: on real fixture photos and rendered trays."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.annotate import LOOKED, annotate
from companion.vision.detection_score import DetectionScore
from companion.vision.detector import DEFAULT_DETECTOR, Detection, DieDetector, Found, decode, letterbox
from companion.vision.empty_tray import EmptyTray
from companion.vision.evaluate import LabelledDie, Score, enlarged, iterate, mirrored
from companion.vision.reader import DiceReader
from companion.vision.reading import DieReading, Reading
from companion.vision.render import RenderDie, Scene, render_scene
from companion.vision.tuning import DIE_SCORE, UNCERTAIN


@pytest.fixture(scope="module")
def detector() -> DieDetector:
    return DieDetector()


@pytest.fixture(scope="module")
def det_reader(detector) -> DiceReader:
    return DiceReader(detector=detector)


def test_shipped_detector_loads_in_opencv_and_says_what_it_was_trained_on(detector):
    assert isinstance(cv2.dnn.readNetFromONNX(str(DEFAULT_DETECTOR)), cv2.dnn.Net)
    assert detector.input % 16 == 0 and detector.stride == 4 and 0 < detector.threshold < 1
    meta = detector.meta
    assert "CC BY 4.0" in str(meta["credit"]) and "rune55" in str(meta["credit"])
    assert set(meta["trained_on"]) >= {"nell-byler-d6", "matteop65-webcam", "rune55-gray-closeups",  # type: ignore[arg-type]
                                       "chase-casino-crops", "rendered"}
    assert len(str(meta["split_sha256"])) == 64 and "training.detector.train" in str(meta["command"])


@pytest.mark.parametrize(("name", "recall", "precision"), [("nell-byler-d6", 0.8, 0.7), ("matteop65-webcam", 0.9, 0.8)])
def test_detector_finds_the_dice_on_real_photos(detector, fixtures, name, recall, precision):
    score = DetectionScore()
    for _, frame, labels in iterate(fixtures / name):
        score.add(labels, [d.box for d in detector.detect(frame)])
    assert score.images >= 5
    assert score.recall >= recall, score.line()
    assert score.precision >= precision, score.line()


def test_detector_sees_no_die_on_an_empty_tray(detector):
    empty, _ = render_scene([], Scene(background=(40, 70, 110)), seed=5)
    assert [d for d in detector.detect(empty) if d.score >= 0.5] == []


def test_decode_puts_dice_back_in_frame_pixels():
    out = np.full((4, 8, 8), -10.0, np.float32)
    out[0, 2, 5] = 3.0  # a sure peak at cell (5, 2)
    out[1, 2, 5], out[2, 2, 5], out[3, 2, 5] = 0.5, 0.25, np.log(10.0)
    out[0, 2, 6] = 1.0  # a weaker neighbour of the same die
    (d,) = decode(out, 4, 0.3, scale=0.5)
    assert (d.cx, d.cy, d.size) == pytest.approx((44.0, 18.0, 80.0))
    assert d.score == pytest.approx(1 / (1 + np.exp(-3.0)))
    frame = np.zeros((100, 300, 3), np.uint8)
    img, scale = letterbox(frame, 64)
    assert img.shape == (64, 64, 3) and scale == pytest.approx(64 / 300)


def test_letterbox_pads_to_a_square_or_only_to_whole_multiples_of_32():
    frame = np.zeros((300, 500, 3), np.uint8)
    img, scale = letterbox(frame, 224)
    assert img.shape == (224, 224, 3) and scale == pytest.approx(224 / 500)
    img, scale = letterbox(frame, 400, square=False)
    assert img.shape == (256, 416, 3) and scale == pytest.approx(0.8)  # 240 x 400 padded
    img, scale = letterbox(frame, 900, square=False)
    assert img.shape == (320, 512, 3) and scale == 1.0  # never enlarged


def test_a_frame_larger_than_the_second_reads_side_is_read_twice(detector):
    from companion.vision.detector import MAX_SIDE

    assert detector.second_side(np.zeros((960, 1280, 3), np.uint8)) == MAX_SIDE
    assert detector.second_side(np.zeros((640, 640, 3), np.uint8)) is None  # every photo of the data sets
    assert DieDetector(second_read=False).second_side(np.zeros((960, 1280, 3), np.uint8)) is None


def test_the_second_read_finds_dice_that_are_dots_at_the_first(detector, fixtures):
    """nell-byler-d6's dice are about 16 px at 224 in its 640 px photos; mirrored out to 1280 px they
    are 8, and the first read alone loses most of them."""
    once_score, twice_score = DetectionScore(), DetectionScore()
    one_read = DieDetector(second_read=False)
    for _, frame, labels in iterate(fixtures / "nell-byler-d6"):
        big, dice = mirrored(frame, labels)
        once_score.add(dice, [d.box for d in one_read.detect(big)])
        twice_score.add(dice, [d.box for d in detector.detect(big)])
    assert twice_score.recall >= 0.9 and twice_score.precision >= 0.7, twice_score.line()
    assert once_score.recall < twice_score.recall - 0.1, once_score.line()


def test_a_sharper_photo_of_an_ordinary_scene_reads_as_well_as_the_photo(det_reader, fixtures):
    """The webcam photos enlarged twice (as a camera of twice the resolution shows the scene) are read
    twice by the detector; at 640 px it sees each pip as a die, and segmentation's die size says so:
    the first read stands (``detector.PIP_SIZE``). Before, each pip was read as a 1."""
    native, sharper = Score(), Score()
    for _, frame, labels in iterate(fixtures / "matteop65-webcam"):
        for score, (img, dice) in ((native, (frame, labels)), (sharper, enlarged(frame, labels, 2))):
            reading = det_reader.read(img)
            score.add(dice, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
    assert max(frame.shape[:2]) * 2 > 640  # the enlarged photos take the second read
    assert sharper.right >= native.right - 1 and sharper.extra <= native.extra + 1, (native.report(), sharper.report())


def test_a_die_too_large_for_the_second_read_comes_from_the_first(detector):
    """A die a third of a 1600 px frame is about 75 px at 224 and 210 px at 640, larger than any die the
    network trained on: the first read's detection is kept."""
    from companion.vision.detector import LARGE_DIE

    frame, drawn = render_scene([RenderDie(5, "white")], Scene(die_size=520, background=(50, 110, 40)), seed=2,
                                size=(1600, 1200))
    found = detector.detect(frame)
    (die,) = drawn
    on = [d for d in found if abs(d.cx - die.center[0]) < 260 and abs(d.cy - die.center[1]) < 260]
    assert on and max(d.size for d in on) * detector.input / 1600 >= LARGE_DIE


def test_reader_with_detector_reads_real_photos(det_reader, fixtures):
    for name, minimum in (("matteop65-webcam", 0.9), ("nell-byler-d6", 0.7)):
        score = Score()
        for _, frame, labels in iterate(fixtures / name):
            reading = det_reader.read(frame)
            score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms,
                      UNCERTAIN)
        assert score.right / score.dice >= minimum, score.report()
        assert score.answered_wrong <= max(1, score.answered // 20), score.report()


class _Stub:
    """A detector that proposes the given dice (to test what the reader does with its proposals)."""

    def __init__(self, dets: list[Detection], threshold: float = 0.5) -> None:
        self.dets, self.threshold = dets, threshold

    def detect(self, frame: np.ndarray, threshold: float | None = None, die_side: float | None = None
               ) -> list[Detection]:
        return [d for d in self.dets if d.score >= (threshold or self.threshold)]

    def find(self, frame: np.ndarray, threshold: float | None = None, die_side: float | None = None) -> Found:
        return Found(self.detect(frame, threshold, die_side), (), 4)  # no heatmap: no heat anywhere


def _one_die_tray() -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(3, "black", body=(35, 40, 45), pip_colour=(40, 170, 215))], scene, seed=11)
    empty, _ = render_scene([], scene, seed=11)
    return frame, empty, drawn[0].center


def test_empty_tray_shows_where_a_die_lies():
    frame, empty, (cx, cy) = _one_die_tray()
    tray = EmptyTray(empty)
    (change,) = tray.changes(frame, 40.0)
    assert np.hypot(change[0] - cx, change[1] - cy) < 8
    assert tray.changes(empty, 40.0) == []
    again = EmptyTray.from_frames([empty, frame, empty])  # the median of frames loses the die
    assert again.changes(frame, 40.0) != [] and again.changes(empty, 40.0) == []


def test_a_doubted_die_is_kept_where_the_empty_tray_shows_it(monkeypatch):
    """The classifier is made to doubt every window; then a die the detector is sure of stays, and one
    it only doubts stays only where the frame differs from the empty tray."""
    frame, empty, (cx, cy) = _one_die_tray()
    doubted = DiceReader(detector=_Stub([Detection(cx, cy, 44.0, 0.2)]))  # type: ignore[arg-type]
    sure = DiceReader(detector=_Stub([Detection(cx, cy, 44.0, 0.9)]))  # type: ignore[arg-type]
    for r in (doubted, sure):  # doubted, though not taken for no die at all (VOUCHED)
        monkeypatch.setattr(r, "_die_score", lambda probs: 0.2)
    assert doubted.read(frame).dice == []
    (die,) = doubted.read(frame, empty=EmptyTray(empty)).dice
    assert np.hypot(die.center[0] - cx, die.center[1] - cy) < 8 and die.uncertain  # the tablet asks
    (die,) = sure.read(frame).dice
    assert die.uncertain
    # where the reader looked and found nothing is in the reading, for the annotated frame
    reading = doubted.read(frame)
    assert len(reading.looked) == 1 and np.hypot(reading.looked[0][0] - cx, reading.looked[0][1] - cy) < 1


def test_annotated_frame_circles_where_the_reader_looked():
    frame = np.zeros((200, 200, 3), np.uint8)
    die = DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.99, "white")
    out = annotate(frame, Reading([die], 1.0, looked=((140.0, 140.0, 30.0),)))
    edge = out[138:143, 122:129].reshape(-1, 3)  # the circle's left edge (anti-aliased)
    brightest = edge[edge.sum(axis=1).argmax()].astype(int)
    assert (np.abs(brightest - LOOKED) <= 40).all()
    assert not out[140, 140].any()  # the circle is open: the die inside stays visible


def test_a_detection_the_classifier_rejects_needs_a_sure_detector(monkeypatch):
    """A tray screw: the detector proposes it without being sure, the classifier sees no die. It is
    dropped unless the detector is at least ``VOUCH`` sure."""
    from companion.vision import tuning

    frame, _, (cx, cy) = _one_die_tray()
    unsure = DiceReader(detector=_Stub([Detection(cx, cy, 44.0, tuning.VOUCH - 0.1)], threshold=0.2))  # type: ignore[arg-type]
    vouched = DiceReader(detector=_Stub([Detection(cx, cy, 44.0, tuning.VOUCH + 0.1)], threshold=0.2))  # type: ignore[arg-type]
    for r in (unsure, vouched):
        monkeypatch.setattr(r, "_die_score", lambda probs: 0.0)
    assert unsure.read(frame).dice == []
    (die,) = vouched.read(frame).dice
    assert np.hypot(die.center[0] - cx, die.center[1] - cy) < 8 and die.uncertain


def test_a_die_found_with_the_detector_needs_a_second_witness(det_reader):
    """Pips counted, a sure reading, or a sure detection vouch for a die; a doubtful reading without
    pips that the detector only doubts does not."""
    from companion.vision.tuning import SURE_DETECTION

    det_reader.read(np.zeros((120, 120, 3), np.uint8))  # resets what the last frame showed
    doubtful = DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.6, "white")
    assert not det_reader._witnessed(doubtful)
    assert det_reader._witnessed(DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.6, "white", pips=4))
    assert det_reader._witnessed(DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.95, "white"))
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, SURE_DETECTION - 0.05)]
    assert not det_reader._witnessed(doubtful)
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, SURE_DETECTION)]
    assert det_reader._witnessed(doubtful)
    det_reader.last_detections = [Detection(120.0, 49.0, 30.0, 0.99)]  # sure, but of another die
    assert not det_reader._witnessed(doubtful)


def test_a_window_the_classifier_surely_takes_for_a_die_is_a_witness_where_the_detector_found_one(det_reader):
    """A close-up's large die: no pips counted, its face read unsurely, the detector at its threshold
    but not sure. The classifier sure that the window holds some die vouches for it; not where the
    detector only doubts one, nor where no detection lies."""
    from companion.vision.tuning import SURE_DIE

    det_reader.read(np.zeros((120, 120, 3), np.uint8))  # resets what the last frame showed
    unsure_face = DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.6, "white")
    threshold = det_reader.detector.threshold
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, threshold)]
    assert det_reader._witnessed(unsure_face, die_score=SURE_DIE)
    assert not det_reader._witnessed(unsure_face, die_score=SURE_DIE - 0.05)
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, threshold - 0.05)]
    assert not det_reader._witnessed(unsure_face, die_score=1.0)
    det_reader.last_detections = []
    assert not det_reader._witnessed(unsure_face, die_score=1.0)


def test_where_the_detector_only_doubts_a_die_only_a_sure_reading_vouches_for_it(det_reader):
    """A pip count is no witness for a die the detector scored below its threshold, unless the empty
    tray shows something there: one blob makes a count of 1."""
    det_reader.read(np.zeros((120, 120, 3), np.uint8))  # resets what the last frame showed
    counted = DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.6, "white", pips=4)
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, det_reader.detector.threshold)]
    assert det_reader._witnessed(counted)
    det_reader.last_detections = [Detection(52.0, 49.0, 30.0, det_reader.detector.threshold - 0.05)]
    assert not det_reader._witnessed(counted)
    assert det_reader._witnessed(DieReading(4, (50.0, 50.0), (35, 35, 65, 65), 0.95, "white"))
    det_reader._shown = [(50.0, 50.0, 30.0)]
    assert det_reader._witnessed(counted)
    det_reader._shown = []


def test_in_a_close_up_the_detectors_doubts_are_proposed(monkeypatch):
    """Where segmentation misjudged the dice's size, the detector is the one finder that sized them:
    a die it only doubts is proposed too, and kept when the classifier reads it surely."""
    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(v) for v in (2, 5, 6)], scene, seed=5)
    dets = [Detection(d.center[0], d.center[1], 44.0, s) for d, s in zip(drawn, (0.9, 0.9, 0.15), strict=True)]
    reader = DiceReader(detector=_Stub(dets))  # type: ignore[arg-type]
    # segmentation sees dice five times the detector's and no window at the detector's size
    monkeypatch.setattr(reader, "_proposals", lambda frame, die_size: ([], 220.0))
    reading = reader.read(frame)
    assert len(reading.dice) == 3
    doubted = drawn[2].center
    assert any(np.hypot(d.center[0] - doubted[0], d.center[1] - doubted[1]) < 8 and d.value == 6
               for d in reading.dice)


def test_the_daemon_reads_with_the_detector():
    from companion.vision import tuning
    from companion.vision.reader import default_reader

    assert tuning.USE_DETECTOR
    assert default_reader().detector is not None


def test_a_die_the_detector_adds_must_be_the_size_of_the_others():
    """A screw in the tray wall, seen in a window two or three dice wide, looks like the lone pip of a
    large die. The detector may be sure of it; segmentation's dice say how large a die is here."""
    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(v) for v in (2, 3, 5, 6)], scene, seed=5)
    dice = [Detection(d.center[0], d.center[1], 44.0, 0.9) for d in drawn]
    far = max(((x, y) for x in range(60, frame.shape[1] - 60, 20) for y in range(60, frame.shape[0] - 60, 20)),
              key=lambda p: min(np.hypot(p[0] - d.center[0], p[1] - d.center[1]) for d in drawn))
    seen = DiceReader(detector=_Stub(dice)).read(frame)  # type: ignore[arg-type]
    assert len(seen.dice) == 4
    large = DiceReader(detector=_Stub([*dice, Detection(far[0], far[1], 110.0, 0.95)])).read(frame)  # type: ignore[arg-type]
    assert [d.center for d in large.dice] == [d.center for d in seen.dice]
    # the same sure detection at a die's size is a die the detector adds (it is vouched for)
    sized = DiceReader(detector=_Stub([*dice, Detection(far[0], far[1], 44.0, 0.95)])).read(frame)  # type: ignore[arg-type]
    assert len(sized.dice) == 5 and any(np.hypot(d.center[0] - far[0], d.center[1] - far[1]) < 8 for d in sized.dice)


def test_a_die_the_detector_never_saw_is_still_read_where_segmentation_finds_it(monkeypatch):
    """A die the detector misses altogether (on a table it never saw it only doubts the dice, far under
    ``DOUBT``) is still read: segmentation's windows far from every detection are searched, a batch
    at a time. Without that search it was lost, unless the table had captured its empty tray."""
    from companion.vision import tuning

    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(v) for v in (2, 3, 5, 6)], scene, seed=5)
    empty, _ = render_scene([], scene, seed=5)
    dets = [Detection(d.center[0], d.center[1], 44.0, 0.9) for d in drawn]
    assert len(DiceReader(detector=_Stub(dets)).read(frame).dice) == 4  # type: ignore[arg-type]
    doubted = [*dets[:3], Detection(drawn[3].center[0], drawn[3].center[1], 44.0, 0.15)]
    assert len(DiceReader(detector=_Stub(doubted, threshold=0.5)).read(frame).dice) == 4  # type: ignore[arg-type]
    blind = DiceReader(detector=_Stub(dets[:3]))  # type: ignore[arg-type]
    missed = drawn[3].center
    reading = blind.read(frame)
    assert len(reading.dice) == 4
    assert any(np.hypot(d.center[0] - missed[0], d.center[1] - missed[1]) < 8 for d in reading.dice)
    monkeypatch.setattr(tuning, "FAR_BATCH", 0)  # the reader before the search
    reading = blind.read(frame)
    assert len(reading.dice) == 3
    assert all(np.hypot(d.center[0] - missed[0], d.center[1] - missed[1]) > 20 for d in reading.dice)
    again = blind.read(frame, empty=EmptyTray(empty))  # the empty tray finds it too
    assert any(np.hypot(d.center[0] - missed[0], d.center[1] - missed[1]) < 8 for d in again.dice)


def test_the_far_search_follows_the_heat_and_stops_after_batches_without_a_die(monkeypatch):
    """Windows far from every detection are classified in the order of the detector's heat on them, a
    batch at a time, and the search ends after ``FAR_PATIENCE`` batches in a row that hold no die: on a
    tray the detector knows, what is far from its detections is the tray's rim and clutter; on one it
    never saw, a printed rim can outrank a die by a batch."""
    from companion.vision.read_face import Window
    from companion.vision.tuning import FAR_BATCH, FAR_PATIENCE

    assert FAR_PATIENCE == 2  # the batches below are laid out for it
    reader = DiceReader(detector=_Stub([]))  # type: ignore[arg-type]
    classes = reader.classifier.classes
    patch = np.zeros((32, 32, 3), np.uint8)
    far = [(20.0 + 20.0 * i, 100.0, 15.0, patch) for i in range(6 * FAR_BATCH)]
    # heat rises from left to right (the heatmap at stride 4, the frame at scale 1)
    logit = np.tile(np.linspace(-6.0, -1.0, 128, dtype=np.float32), (64, 1))
    seen = Found([], ((logit, 1.0),), 4)
    hottest = [w[0] for w in far[::-1]]
    batch = [hottest[i * FAR_BATCH:(i + 1) * FAR_BATCH] for i in range(6)]
    # by heat: a batch of dice, an empty one, dice again, two empty ones, and dice the search never reaches
    dice_at = set(batch[0]) | set(batch[2]) | set(batch[5])

    asked: list[float] = []

    def classify(wins: list, prof: object) -> list[Window]:
        out = []
        for x, y, side, p in wins:
            asked.append(x)
            probs = np.full(len(classes), 0.01, np.float32)
            probs[classes.index("3" if x in dice_at else "none")] = 1.0 - 0.01 * (len(classes) - 1)
            out.append(Window(x, y, side, probs, np.zeros(8, np.float32), p, np.zeros(3, np.float32)))
        return out

    monkeypatch.setattr(reader, "_classify", classify)
    kept = reader._far_search(far, seen, None)
    assert sorted(w[0] for w in kept) == sorted(batch[0] + batch[2])
    assert asked == hottest[: 5 * FAR_BATCH]  # nothing after the second empty batch in a row was asked
    asked.clear()
    dice_at = set()
    assert reader._far_search(far, seen, None) == [] and len(asked) == FAR_PATIENCE * FAR_BATCH


def test_the_heat_of_a_window_is_the_highest_of_every_read():
    """``Found.heat``: the heatmap's highest value inside a window, in frame px through each read's
    scale; a window off the heatmap has none."""
    first = np.full((16, 16), -8.0, np.float32)
    first[5, 5] = 2.0  # a peak at input px (20, 20): frame px (40, 40) at scale 0.5
    second = np.full((40, 40), -8.0, np.float32)
    second[30, 10] = 0.0  # input px (40, 120): frame px (40, 120) at scale 1
    seen = Found([], ((first, 0.5), (second, 1.0)), 4)
    assert seen.heat(40.0, 40.0, 16.0) == pytest.approx(1 / (1 + np.exp(-2.0)))
    assert seen.heat(40.0, 120.0, 16.0) == pytest.approx(0.5)
    assert seen.heat(100.0, 100.0, 8.0) < 0.001
    assert seen.heat(-500.0, -500.0, 8.0) == 0.0
    assert Found([], (), 4).heat(40.0, 40.0, 16.0) == 0.0


def test_a_window_is_near_a_detection_within_the_larger_side():
    """Nearness is measured in the larger of the two sides: a small window beside a large die's
    detection is near it, the same window further off is not, and with no detection nothing is."""
    from companion.vision.find_with_detector import _near_detections
    from companion.vision.tuning import NEAR_DETECTION

    patch = np.zeros((32, 32, 3), np.uint8)
    wins = [(100.0, 100.0, 20.0, patch), (100.0 + 30.0 * NEAR_DETECTION, 100.0, 20.0, patch),
            (100.0 + 45.0 * NEAR_DETECTION, 100.0, 20.0, patch)]
    dets = [Detection(100.0, 100.0, 40.0, 0.9)]
    assert _near_detections(wins, dets).tolist() == [True, True, False]
    assert _near_detections(wins, []).tolist() == [False, False, False]
    assert _near_detections([], dets).tolist() == []


def test_a_lost_window_is_searched_only_near_a_likely_detection_no_die_explains(monkeypatch):
    """With the detector, the costly search around a window that led to no die runs only where a
    detection at least ``SEARCH_NEAR_DETECTION`` likely has no die yet: not beside a tray screw the
    detector barely doubts, nor beside a detection a found die already explains."""
    from companion.vision.find import _SEARCH
    from companion.vision.read_face import Window
    from companion.vision.tuning import SEARCH_NEAR_DETECTION

    reader = DiceReader(detector=_Stub([]))  # type: ignore[arg-type]
    classes = reader.classifier.classes

    def window(x: float, y: float, likely: str) -> Window:
        probs = np.full(len(classes), 0.01, np.float32)
        probs[classes.index(likely)] = 1.0 - 0.01 * (len(classes) - 1)
        return Window(x, y, 40.0, probs, np.zeros(8, np.float32), np.zeros((32, 32, 3), np.uint8),
                       np.zeros(3, np.float32))

    asked: list[int] = []
    def classify(wins: list, prof: object) -> list[Window]:
        asked.append(len(wins))
        return [window(w[0], w[1], "none") for w in wins]

    monkeypatch.setattr(reader, "_classify", classify)
    frame = np.zeros((400, 400, 3), np.uint8)
    lost, die = window(100.0, 100.0, "side"), window(300.0, 300.0, "3")
    for score, at, searched in [(SEARCH_NEAR_DETECTION - 0.05, (100.0, 100.0), False),
                                (SEARCH_NEAR_DETECTION + 0.05, (100.0, 100.0), True),
                                (0.95, (300.0, 300.0), False)]:
        asked.clear()
        reader.last_detections = [Detection(at[0], at[1], 44.0, score)]
        reader._search_lost(frame, [lost, die], [die], None)
        assert asked == ([len(_SEARCH)] if searched else []), (score, at)


def _four_dice_and_bare_felt(monkeypatch: pytest.MonkeyPatch, seen_as) -> tuple[DiceReader, np.ndarray, list]:
    """Four dice the detector is sure of and a doubtful detection on bare felt, which the classifier is
    made to take for a die (a stand-in: models differ in what they make of bare felt) and to be surer
    of than of any die."""
    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(v) for v in (2, 3, 5, 6)], scene, seed=5)
    far = max(((x, y) for x in range(60, frame.shape[1] - 60, 20) for y in range(60, frame.shape[0] - 60, 20)),
              key=lambda p: min(np.hypot(p[0] - d.center[0], p[1] - d.center[1]) for d in drawn))
    dets = [*(Detection(d.center[0], d.center[1], 44.0, 0.9) for d in drawn), Detection(far[0], far[1], 44.0, 0.3)]
    reader = DiceReader(detector=_Stub(dets, threshold=0.2))  # type: ignore[arg-type]
    seen_as(reader, far, 20.0, {"4": 0.6, "none": 0.4})
    none = reader.classifier.none_class
    monkeypatch.setattr(reader, "_die_score", lambda probs: 1.0 + 0.01 * float(probs[none]))
    return reader, frame, drawn


def _all_on_drawn_dice(dice: list, drawn: list) -> bool:
    return all(min(np.hypot(d.center[0] - x.center[0], d.center[1] - x.center[1]) for x in drawn) < 8 for d in dice)


def test_a_window_without_a_witness_takes_no_place_in_the_count(monkeypatch, seen_as):
    """At the table the reader knows how many dice were rolled and keeps that many of the likeliest.
    A window the witness rule drops is no die: it must go before the count cuts, not push a real die
    out and then vanish (a die short, on a table the reader never saw)."""
    reader, frame, drawn = _four_dice_and_bare_felt(monkeypatch, seen_as)
    asked: list[float] = []

    def only_counted_pips(die, die_score):
        asked.append(die_score)
        return die.pips is not None

    monkeypatch.setattr(reader, "_witnessed", only_counted_pips)
    assert len(reader.read(frame).dice) == 4
    # the witness rule is given each window's own die score (``SURE_DIE`` weighs it), not a default
    assert asked and all(s >= DIE_SCORE for s in asked)
    counted = reader.read(frame, expected=4).dice
    assert len(counted) == 4 and _all_on_drawn_dice(counted, drawn)


def test_the_count_keeps_the_dice_the_detector_is_surest_of(monkeypatch, seen_as):
    """With more dice found than were rolled, the detector's score decides which stay: on the dev photos of
    a table left out of training, the classifier was as sure of desk clutter as of the dice."""
    reader, frame, drawn = _four_dice_and_bare_felt(monkeypatch, seen_as)
    monkeypatch.setattr(reader, "_witnessed", lambda die, die_score: True)  # everything has a second witness
    assert len(reader.read(frame).dice) == 5
    counted = reader.read(frame, expected=4).dice
    assert len(counted) == 4 and _all_on_drawn_dice(counted, drawn)


def test_a_mirrored_photo_has_each_die_four_times_where_its_labels_say():
    frame = np.zeros((30, 40, 3), np.uint8)
    frame[5:11, 8:14] = (200, 50, 20)  # a die at (10.5, 7.5)
    big, dice = mirrored(frame, [LabelledDie(4, (10.5, 7.5), 6.0)])
    assert big.shape == (60, 80, 3) and len(dice) == 4 and {d.value for d in dice} == {4}
    for d in dice:
        assert tuple(big[int(d.center[1]), int(d.center[0])]) == (200, 50, 20)


def test_an_enlarged_photo_keeps_each_die_where_its_labels_say():
    frame = np.zeros((30, 40, 3), np.uint8)
    frame[5:11, 8:14] = (200, 50, 20)  # a die at (10.5, 7.5) px centres, 6 px wide
    big, dice = enlarged(frame, [LabelledDie(4, (10.5, 7.5), 6.0)], 3)
    assert big.shape == (90, 120, 3) and len(dice) == 1
    d = dice[0]
    assert d.value == 4 and d.size == 18.0 and d.center == (31.5, 22.5)
    assert tuple(big[int(d.center[1]), int(d.center[0])]) == (200, 50, 20)
    assert tuple(big[int(d.center[1]), int(d.center[0] + d.size)]) == (0, 0, 0)


def test_the_daemons_reader_reads_a_roll_on_a_frame_of_the_rigs_size(det_reader):
    """The rig's camera gives 2304 x 1296 frames with 73 px dice (hardware/README.md): a frame the
    detector reads twice. The simulated camera at that size: every roll read right, nothing extra."""
    from companion.hardware.camera import SimulatedCamera

    assert det_reader.detector is not None and det_reader.detector.second_side(np.zeros((1296, 2304, 3))) == 640
    for seed in (0, 3, 6):
        cam = SimulatedCamera(size=(2304, 1296), seed=seed, scene=Scene(tray_seed=seed, die_size=73), rolling_frames=0)
        rolled = cam.roll(5)
        reading = det_reader.read(cam.read())
        assert sorted(d.value for d in reading.dice) == sorted(d.face for d in rolled)


def _four_dice_one_unknown(seen_as, score: float) -> tuple[DiceReader, np.ndarray, list, tuple[float, float]]:
    """Four dice the detector finds, one of them only at ``score`` (under ``VOUCH``), and that one taken
    for no die by the classifier: a die unlike any the network trained on, on a table it never saw."""
    from companion.vision.tuning import VOUCH

    assert score < VOUCH
    scene = Scene(die_size=40.0, background=(40, 70, 110))
    frame, drawn = render_scene([RenderDie(v) for v in (2, 3, 5, 6)], scene, seed=5)
    odd = drawn[0].center
    dets = [Detection(d.center[0], d.center[1], 44.0, score if d.center == odd else 0.9) for d in drawn]
    reader = DiceReader(detector=_Stub(dets, threshold=0.2))  # type: ignore[arg-type]
    seen_as(reader, odd, 20.0, {"none": 1.0})
    return reader, frame, drawn, odd


def test_a_short_reading_with_the_count_known_takes_the_likeliest_window_as_an_unsure_die(seen_as):
    """The count of rolled dice says a die is missing: the window the detector (and classifier) find likeliest
    among those looked at becomes that die, unsure, so the tablet asks; without the count nothing changes."""
    from companion.vision.tuning import FILLED

    reader, frame, drawn, odd = _four_dice_one_unknown(seen_as, 0.45)
    blind = reader.read(frame).dice
    assert len(blind) == 3 and all(np.hypot(d.center[0] - odd[0], d.center[1] - odd[1]) > 20 for d in blind)
    counted = reader.read(frame, expected=4).dice
    assert len(counted) == 4 and _all_on_drawn_dice(counted, drawn)
    (added,) = [d for d in counted if np.hypot(d.center[0] - odd[0], d.center[1] - odd[1]) < 8]
    assert added.uncertain and added.state == "unreadable" and added.confidence <= FILLED
    assert sorted(d.center for d in counted if d is not added) == sorted(d.center for d in blind)


def test_a_short_reading_takes_nothing_below_the_evidence_floor(monkeypatch, seen_as):
    """A window the detector barely doubts and the classifier takes for no die is not made a die by the
    count; nor is anything with the fill turned off."""
    from companion.vision import tuning

    reader, frame, _, _ = _four_dice_one_unknown(seen_as, tuning.FILL_EVIDENCE - 0.05)
    assert len(reader.read(frame, expected=4).dice) == 3
    reader, frame, _, _ = _four_dice_one_unknown(seen_as, 0.45)
    monkeypatch.setattr(tuning, "FILL_EVIDENCE", None)
    assert len(reader.read(frame, expected=4).dice) == 3
