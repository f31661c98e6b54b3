"""The settle detector over a simulated camera: one reading per roll, none while moving."""

from companion.hardware.camera import SimulatedCamera
from companion.vision.reading import DieReading, Reading
from companion.vision.render import RenderDie
from companion.vision.settle import SettleConfig, SettleDetector
from companion.vision.tuning import UNCERTAIN


class FakeReader:
    """Reads from a script of readings, to test the detector's logic without the network."""

    def __init__(self, script):
        self.script = list(script)
        self.calls = 0

    def __call__(self, frame):
        self.calls += 1
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]


def die(value, conf=0.99, x=100.0):
    return DieReading(value, (x, 100.0), (int(x) - 20, 80, int(x) + 20, 120), conf, "white")


def test_rolling_dice_give_nothing_then_one_reading(reader):
    cam = SimulatedCamera(seed=3, rolling_frames=4)
    cam.show([RenderDie(2, "red"), RenderDie(5, "white")], moving=4)
    detector = SettleDetector(reader.read)
    results = [detector.feed(cam.read()) for _ in range(16)]
    got = [r for r in results if r is not None]
    assert results[:5] == [None] * 5  # moving, then not yet still for long enough
    assert len(got) == 1
    assert sorted(got[0].values) == [2, 5]
    assert detector.state == "settled"


def test_hand_in_tray_gives_no_reading():
    cam = SimulatedCamera(seed=4)
    cam.show([RenderDie(3)])
    detector = SettleDetector(FakeReader([Reading([die(3)])]))
    detector.feed(cam.read())
    cam.hand = True
    assert detector.feed(cam.read()) is None
    assert detector.state == "hand"
    assert all(detector.feed(cam.read()) is None for _ in range(2))


def test_uncertain_die_is_reread_from_next_frames():
    cam = SimulatedCamera(seed=5)
    cam.show([RenderDie(4)])
    script = [Reading([die(4, 0.3)]), Reading([die(4, 0.4)]), Reading([die(4, 0.98)]), Reading([die(4, 0.99)])]
    fake = FakeReader(script)
    detector = SettleDetector(fake, SettleConfig(still_frames=1, agree=2, retries=4))
    out = [detector.feed(cam.read()) for _ in range(6)]
    got = [r for r in out if r is not None]
    assert len(got) == 1
    assert got[0].dice[0].confidence >= UNCERTAIN and not got[0].uncertain
    assert fake.calls >= 3


def test_the_settled_reading_keeps_where_the_reader_looked():
    """The annotated frame draws ``looked`` as grey circles: merging still frames must not lose it."""
    cam = SimulatedCamera(seed=5)
    cam.show([RenderDie(4)])
    script = [Reading([die(4, 0.99)], looked=((10.0, 20.0, 30.0),))] * 3
    detector = SettleDetector(FakeReader(script), SettleConfig(still_frames=1, agree=2))
    got = [r for r in (detector.feed(cam.read()) for _ in range(4)) if r is not None]
    assert len(got) == 1 and got[0].looked == ((10.0, 20.0, 30.0),)


def test_disagreeing_frames_end_uncertain():
    cam = SimulatedCamera(seed=6)
    cam.show([RenderDie(1)])
    script = [Reading([die(v, 0.99)]) for v in (1, 2, 1, 2, 1, 2, 1, 2)]
    detector = SettleDetector(FakeReader(script), SettleConfig(still_frames=1, agree=2, retries=3))
    got = [r for r in (detector.feed(cam.read()) for _ in range(8)) if r is not None]
    assert len(got) == 1
    assert got[0].uncertain


def test_hand_held_still_in_tray_gives_no_reading():
    cam = SimulatedCamera(seed=7)
    cam.show([RenderDie(3), RenderDie(5)])
    detector = SettleDetector(FakeReader([Reading([die(3), die(5, x=200.0)])]), SettleConfig(still_frames=2))
    got = [r for r in (detector.feed(cam.read()) for _ in range(6)) if r is not None]
    assert len(got) == 1  # the empty-handed tray is read once
    cam.hand = True  # a hand reaches in and then rests there, not moving
    assert all(detector.feed(cam.read()) is None for _ in range(12))
    assert detector.state == "hand"
    cam.hand = False  # the hand leaves: the dice are read again
    got = [r for r in (detector.feed(cam.read()) for _ in range(6)) if r is not None]
    assert len(got) == 1


def test_lasting_change_is_not_a_hand_forever():
    cam = SimulatedCamera(seed=8)
    cam.show([RenderDie(2)])
    detector = SettleDetector(FakeReader([Reading([die(2)])]), SettleConfig(still_frames=1, hand_patience=5))
    assert [r for r in (detector.feed(cam.read()) for _ in range(4)) if r is not None]
    cam.hand = True  # stands for anything large that stays (a moved tray)
    got = [r for r in (detector.feed(cam.read()) for _ in range(12)) if r is not None]
    assert len(got) == 1
