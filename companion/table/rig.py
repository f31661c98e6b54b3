"""The devices around the table, real or simulated, turned into table inputs.

Buttons and camera only ever *produce* inputs: a button handler puts its event on a queue, one worker
thread turns events into table actions (confirm, undo, next, re-read), so the game never runs inside a
gpiozero callback. The camera's settled reading is offered to the table; the confirm button or a tap
on the tablet accepts it. During the guided calibration (``calibration.py``) readings go to it instead.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.games.base import RuleViolation
from companion.games.messages import Msg, msg, nmsg
from companion.table.calibration import Calibration, DiceSet
from companion.table.dice_view import DiceView
from companion.table.empty_reference import EMPTY_FILE, FRAMES, EmptyReference, check_empty
from companion.table.session import Table

log = logging.getLogger(__name__)

COLOUR_NAMES = ("white", "black", "red", "blue", "green", "yellow")


@dataclass(frozen=True)
class _Learn:
    """A roll the table entered, with the camera view it was read from."""

    view: DiceView
    dice: list[Any]
    generation: int  # the profile's generation when the roll was entered: a forgotten set is not taught


PROFILE_FILE = "dice_profile.npz"
MODEL_FILE = "dice_model.onnx"  # the table's own network, retrained on the profile (vision/retrain_job.py)


class Rig:
    """Buttons, camera and reader for one table; ``mock`` swaps every part for its simulation."""

    def __init__(self, table: Table, config: Config, *, mock: bool, seed: int | None = None) -> None:
        self.table = table
        self.config = config
        self.mock = mock
        self.rng = random.Random(seed)
        self.parts: dict[str, str] = {}
        self.problems: list[str] = []
        self._events: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self.view = DiceView()
        self._frame_lock = threading.Lock()
        self.buttons: Any = None
        self.camera: Any = None  # the simulated camera, read on demand (mock mode)
        # The table's dice profile: with a real camera from the start; in mock mode (where games read the
        # renderer's truth) only once the guided calibration or "forget" needs it.
        self.profile: Any = None
        self.profile_path = Path(config.store.data_dir) / PROFILE_FILE
        self.table_model: Any = None  # loaded with the profile
        self._profile_lock = threading.RLock()  # learning (worker, calibration) and forgetting take turns
        self._generation = 0  # counts forgets
        self.calibration: Calibration | None = None
        # The empty tray, captured with the calibration: every reading compares the frame with it.
        self.reference = EmptyReference(Path(config.store.data_dir) / EMPTY_FILE)
        self.watcher: Any = None  # the real camera's reading thread
        self.lights: Any = None
        self.camera_fps: float | None = None
        self.probe: Any = None
        try:
            from companion.hardware.health import HealthProbe

            self.probe = HealthProbe(data_dir=config.store.data_dir, journal=config.store.journal_path)
        except Exception:  # health readings are a nicety, never a reason not to start
            log.exception("health probe unavailable")
        self._build_buttons()
        self._build_camera()
        self._worker = threading.Thread(target=self._work, name="rig-inputs", daemon=True)
        self._worker.start()
        table.subscribe(self._show_lights)
        table.set_status("devices", self.status())
        table.set_status("calibration", self.calibration_status())

    def _show_lights(self, view: dict[str, Any]) -> None:
        """Status LEDs follow the table: amber while dice are awaited, red on a camera fault, else green."""
        if self.lights is None:
            return
        game = view.get("game") or {}
        awaiting = game.get("awaiting") or {}
        camera = str(view.get("status", {}).get("devices", {}).get("camera", ""))
        if "failing" in camera or view.get("status", {}).get("banner"):
            self.lights.show_error()
        elif awaiting.get("dice") is not None:
            self.lights.show_reading()
        else:
            self.lights.show_ready()

    # --- parts -------------------------------------------------------------------------------
    def _build_buttons(self) -> None:
        try:
            from companion.hardware.buttons import ButtonPanel, default_pin_factory
            from companion.hardware.debounce import ButtonTiming
            from companion.hardware.pins import PinMap

            pins = PinMap.from_mapping(self.config.pins) if self.config.pins else PinMap()
            factory = default_pin_factory(self.mock)
            timing = ButtonTiming.from_mapping(self.config.buttons) if self.config.buttons else None
            self.buttons = ButtonPanel(
                pins, on_event=self._events.put, on_noise=self._noise, pin_factory=factory, timing=timing
            )
            self.parts["buttons"] = "simulated" if self.mock else "gpio"
            self._build_lights(pins, factory)
        except Exception as exc:  # no GPIO here (a laptop without --mock): the tablet still works
            log.warning("buttons unavailable: %s", exc)
            self.problems.append(f"buttons: {exc}")
            self.parts["buttons"] = "absent"

    def _build_camera(self) -> None:
        if self.mock:
            from companion.hardware.camera import SimulatedCamera

            self.camera = SimulatedCamera(seed=self.rng.randrange(1 << 30))
            self.parts["camera"] = "simulated"
            return
        source = str(self.config.camera.get("source", "auto"))
        if source == "none":
            self.parts["camera"] = "none (manual entry)"
            return
        from companion.table.watcher import CameraWatcher
        from companion.vision.profile_store import TableProfile

        # The table's own dice, learnt from the rolls it confirms (see ``_learn``).
        self.profile = TableProfile(self.profile_path)
        self.table_model = self._new_table_model()
        self.table.on_input(self._roll_entered)
        self.watcher = CameraWatcher(
            lambda: open_camera(self.config.camera), self._read_frame, self._offer_reading, self._camera_state
        )
        self.parts["camera"] = f"{source}: starting"
        self.watcher.start()

    def _camera_state(self, state: str, fps: float | None) -> None:
        source = str(self.config.camera.get("source", "auto"))
        self.parts["camera"] = f"{source}: {state}"
        self.camera_fps = fps
        if self.lights is not None:
            if state == "ok":
                self.lights.show_ready()
            else:
                self.lights.show_error()
        self.table.set_status("devices", self.status())

    def _build_lights(self, pins: Any, factory: Any) -> None:
        try:
            from companion.hardware.leds import StatusLights

            self.lights = StatusLights(pins, pin_factory=factory)
            self.lights.show_ready()
            self.parts["lights"] = "simulated" if self.mock else "gpio"
        except Exception as exc:
            log.warning("status lights unavailable: %s", exc)
            self.parts["lights"] = "absent"

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = self.probe.read().as_dict() if self.probe is not None else {}
        out["camera_fps"] = None if self.camera_fps is None else round(self.camera_fps, 1)
        out["noisy_buttons"] = sorted(self.buttons.noisy) if self.buttons is not None else []
        return out

    def status(self) -> dict[str, str]:
        return dict(self.parts)

    def _noise(self, event: Any) -> None:
        if event.noisy:
            text = msg("{device} is noisy and ignored", device=event.device)
        else:
            text = msg("{device} is calm again", device=event.device)
        self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})

    # --- inputs from the buttons -------------------------------------------------------------
    def press(self, name: str, *, hold: float = 0.0) -> None:
        """A press on the mock panel of the page; real pins cannot be pressed from software."""
        if self.buttons is None or not self.mock:
            raise RuleViolation(msg("The buttons are real here: press them on the table."))
        if name not in self.buttons.names:
            raise RuleViolation(msg("There is no button called {name}.", name=name))
        self.buttons.press(name, hold=hold)
        self.drain()

    def drain(self, timeout: float = 2.0) -> None:
        """Wait until the worker has handled every queued button event (mock presses are synchronous)."""
        done = threading.Event()
        self._events.put(done)
        done.wait(timeout)

    def _work(self) -> None:
        while not self._stop.is_set():
            event = self._events.get()
            if event is None:
                return
            if isinstance(event, threading.Event):
                event.set()
                continue
            if isinstance(event, _Learn):
                self._learn(event)
                continue
            try:
                self._handle(event)
            except RuleViolation as exc:
                text = msg("{device}: {problem}", device=event.device, problem=exc.msg)
                self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})
            except Exception:  # a bug must not kill the button worker
                log.exception("button event %s failed", event)

    def _handle(self, event: Any) -> None:
        name, kind, device = event.button, event.kind, event.device
        if name == "confirm" and kind != "long" and self.calibration is not None:
            self.confirm_calibration(None)  # the reading as it is, like a confirm during a game
        elif name == "confirm":
            if kind == "long":
                self.reread()
            else:
                self.table.confirm(device=device)
        elif name == "undo":
            self.table.undo(device=device)
        elif name == "next":
            if kind == "long":
                self.table.undo(device=device)
            else:
                self.table.next_option(device=device)
        elif name == "reread":
            if kind == "long":
                # someone at the table lifts every PIN lockout (a tablet that guessed wrong too often)
                from companion.table.pin import request_unlock

                request_unlock(self.config.store.data_dir)
                self.table.set_status("notice", {"text": "PIN lockouts lifted.", "at": time.time()})
            else:
                self.reread()

    # --- the camera --------------------------------------------------------------------------
    def reread(self) -> list[dict[str, Any]] | None:
        """Read the tray now and offer the reading to the table (or say why there is none)."""
        if self.watcher is not None:
            self.watcher.reset()  # the watcher offers a fresh reading once the tray is still
            return None
        if self.camera is None:
            raise RuleViolation(msg("No camera is working: enter the dice on the tablet."))
        if self.calibration is not None:
            frame = self._grab("check the simulated camera on the health page")
            self._show_calibration(frame, self._read_frame(frame))
            return None
        frame = self._grab("enter the dice on the tablet")
        dice = [{"face": d.face, "colour": d.colour} for d in self.camera.dice]
        self._offer(frame, dice, None)
        return dice

    def _grab(self, advice: str) -> Any:
        """A frame from the simulated camera; a failure is reported on the tablet and refused."""
        try:
            frame = self.camera.read()
        except Exception as exc:  # unplugged mid-game: say so, and the tablet entry carries on
            self.parts["camera"] = f"simulated: failing ({exc})"
            self.table.set_status("devices", self.status())
            raise RuleViolation(msg("The camera is not answering: {advice}.", advice=advice)) from exc
        if self.parts.get("camera") != "simulated":
            self.parts["camera"] = "simulated"
            self.table.set_status("devices", self.status())
        return frame

    def simulate_roll(self) -> list[dict[str, Any]] | None:
        """Mock mode: put a random roll of the awaited dice under the simulated camera and read it."""
        if not self.mock or self.camera is None:
            raise RuleViolation(msg("Only the simulated camera can roll by itself."))
        if self.calibration is not None:
            raise RuleViolation(msg("The dice are being taught: press Done on the calibration first."))
        awaiting = self.table.awaiting()
        if awaiting is None or awaiting.dice is None:
            raise RuleViolation(msg("The game is not waiting for dice."))
        from companion.vision.render import RenderDie

        spec = awaiting.dice
        colours = [c for c, n in spec.colours for _ in range(n)] or ["white"] * spec.count
        self.camera.show([RenderDie(self.rng.choice(spec.faces), c) for c in colours])
        # Mock mode reads back what it drew: the renderer's truth stands in for the reader, so mock
        # games never depend on how well the vision reads rendered dice (measured on real photos).
        return self.reread()

    def _reader(self) -> Any:
        """The table's own network once it has one (``vision/retrain_job.py``), else the shipped one."""
        if self.table_model is not None:
            return self.table_model.reader()
        from companion.vision.reader import default_reader

        return default_reader()

    def _read_frame(self, frame: Any) -> Any:
        profile = self.profile.profile if self.profile is not None else None
        reader = self._reader()
        empty = self._empty_tray(frame)
        calibration = self.calibration
        if calibration is not None:  # the set being taught: its faces, and its count if the table gave it
            dice = calibration.dice
            return reader.read(frame, profile=profile, expected=dice.count, faces=dice.faces, empty=empty)
        awaiting = self.table.awaiting()
        if awaiting is None or awaiting.dice is None:
            return reader.read(frame, profile=profile, empty=empty)
        # The game knows how many dice were rolled and which faces they have (a worm only in Heckmeck).
        return reader.read(frame, profile=profile, expected=awaiting.dice.count, faces=awaiting.dice.faces,
                           empty=empty)

    def _empty_tray(self, frame: Any) -> Any:
        """The empty-tray reference when it still shows this tray; the tablet hears when it stops (or
        starts again) matching."""
        empty, changed = self.reference.usable(frame)
        if changed:
            if empty is None:
                text = msg("The tray looks different from its empty picture (light or camera changed): the "
                           "picture is ignored. Capture the empty tray again.")
                self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})
            self._calibration_changed()
        return empty

    def _roll_entered(self, action: dict[str, Any]) -> None:
        """(Under the table's lock.) A roll was entered: learn from it later, on the worker thread, with
        the reading shown when it was entered."""
        if isinstance(action, dict) and action.get("type") == "roll" and self.view.reading is not None:
            self._events.put(_Learn(self.view, list(action.get("dice") or []), self._generation))

    def _learn(self, job: _Learn) -> None:
        faces = [d.get("face") if isinstance(d, dict) else d for d in job.dice]
        try:
            with self._profile_lock:
                if job.generation != self._generation:
                    return  # the table forgot its dice after this roll was entered
                learnt = self.profile.learn(self._reader(), job.view.frame, job.view.reading, faces)
        except Exception:  # learning is a bonus: a full disk must not stop the game
            log.exception("learning the table's dice failed")
            return
        if learnt:
            log.info("learnt %d dice; the profile holds %d patches", learnt, len(self.profile.profile))
            self._grown(learnt)

    def _grown(self, learnt: int) -> None:
        """Enough confirmed dice since the last try: retrain the network on them, in the background."""
        if self.table_model is not None and self.table_model.learnt(self.profile_path, learnt):
            log.info("retraining the dice network on the table's profile, in the background")

    def _offer_reading(self, frame: Any, reading: Any) -> None:
        if self.calibration is not None:
            self._show_calibration(frame, reading)
            return
        dice = [
            {"face": d.value, "colour": d.colour, "confidence": round(d.confidence, 3), "state": d.state}
            for d in reading.dice
        ]
        self._offer(frame, dice, reading, unsure=len(reading.uncertain))

    def _offer(self, frame: Any, dice: list[dict[str, Any]], reading: Any, *, unsure: int = 0) -> None:
        """Show a reading on the tablet; one with the wrong count or unsure dice is shown for correction
        only: the confirm button will not enter it, because a confident wrong roll corrupts the game."""
        with self._frame_lock:
            self.view = DiceView(frame=frame, jpeg=None, dice=dice, at=time.time(), reading=reading)
        awaiting = self.table.awaiting()
        note: Msg | None = None
        if awaiting is not None and awaiting.dice is not None and len(dice) != awaiting.dice.count:
            note = nmsg(
                "The camera sees {n} die but {rolled} were rolled: re-roll or correct.",
                "The camera sees {n} dice but {rolled} were rolled: re-roll or correct.",
                len(dice),
                rolled=awaiting.dice.count,
            )
        elif unsure:
            note = nmsg(
                "The camera is unsure of {n} die: check it, correct by hand or re-roll.",
                "The camera is unsure of {n} dice: check them, correct by hand or re-roll.",
                unsure,
            )
        self.table.set_reading(dice, note, trusted=note is None)

    def frame_jpeg(self) -> bytes | None:
        with self._frame_lock:
            view = self.calibration.view if self.calibration is not None else self.view
            if view is None or view.frame is None:
                return None
            if view.jpeg is None:
                import cv2

                from companion.vision.annotate import annotate

                # Mock mode enters the renderer's truth; the picture still shows what the reader sees.
                reading = view.reading if view.reading is not None else self._read_frame(view.frame)
                frame = annotate(view.frame, reading)
                ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                view.jpeg = bytes(buf) if ok else None
            return view.jpeg

    # --- the guided calibration (see calibration.py) ---------------------------------------------
    def start_calibration(self, dice: DiceSet) -> dict[str, Any]:
        """From now on the camera's readings are shown for correction and learnt, not offered to the game."""
        if self.calibration is not None:
            raise RuleViolation(msg("The dice are already being taught: press Done first."))
        if self.camera is None and self.watcher is None:
            raise RuleViolation(msg("No camera is attached: the dice can only be taught with a camera."))
        self._table_profile()  # loaded now, so the first confirm does not wait for it
        self.calibration = Calibration(dice, self._learn_now)
        self._calibration_changed()
        return self.calibration_status()

    def calibration_roll(self) -> dict[str, Any]:
        """Mock mode: a random roll of the set under the simulated camera, read by the real reader."""
        calibration = self._calibrating()
        if not self.mock or self.camera is None:
            raise RuleViolation(msg("Only the simulated camera can roll by itself: roll the dice into the tray."))
        from companion.vision.render import RenderDie

        faces = calibration.dice.faces
        self.camera.show([RenderDie(self.rng.choice(faces)) for _ in range(calibration.dice.default_count)])
        frame = self._grab("check the simulated camera on the health page")
        self._show_calibration(frame, self._read_frame(frame))
        return self.calibration_status()

    def confirm_calibration(self, faces: list[Any] | None, number: int | None = None) -> int:
        """Learn the shown reading with the table's faces (None: as read); returns the dice learnt."""
        calibration = self._calibrating()
        if faces is None:
            view = calibration.view
            faces = [] if view is None or view.reading is None else [d.value for d in view.reading.dice]
        learnt = calibration.confirm(faces, number)
        self._calibration_changed()
        return learnt

    def stop_calibration(self) -> dict[str, Any]:
        """Done: readings go to the game again; returns what the calibration taught."""
        status = self._calibrating().status()
        self.calibration = None
        self._calibration_changed()
        return status

    def forget_dice(self) -> bool:
        """A new dice set at the table: the learnt profile is deleted; True when there was one."""
        with self._profile_lock:
            forgot = bool(self._table_profile().forget())
            self._generation += 1
            if self.table_model is not None:
                self.table_model.forget()
        if self.calibration is not None:
            self.calibration.forgotten()
        self._calibration_changed()
        return forgot

    def calibration_status(self) -> dict[str, Any]:
        calibration = self.calibration
        out: dict[str, Any] = calibration.status() if calibration is not None else {"active": False}
        out["can_roll"] = self.mock and self.camera is not None
        out["has_camera"] = self.camera is not None or self.watcher is not None
        out["learnt"] = None if self.profile is None else self.profile.profile.dice
        out["saved"] = self.profile_path.exists()
        out["own_model"] = self.table_model.status() if self.table_model is not None else None
        out["empty"] = self.reference.status()
        return out

    # --- the empty tray (see empty_reference.py) ----------------------------------------------------
    def capture_empty(self) -> dict[str, Any]:
        """Take the empty tray's reference from a few frames; refused (nothing changed) unless the
        frames are still and show no die."""
        if self.camera is None and self.watcher is None:
            raise RuleViolation(msg("No camera is attached: the empty tray can only be captured with a camera."))
        if self.watcher is not None:
            frames = self._watched_frames(FRAMES)
        else:
            self.camera.show([])  # mock mode: the simulated hands take the dice out of the tray
            frames = [self._grab("check the simulated camera on the health page") for _ in range(FRAMES)]
        profile = self.profile.profile if self.profile is not None else None
        tray = check_empty(frames, self._reader(), profile)
        try:
            self.reference.save(tray)
        except OSError as exc:
            raise RuleViolation(
                msg("The empty tray could not be saved ({error}): free some space and capture again.",
                    error=str(exc.strerror or exc))
            ) from exc
        log.info("captured the empty tray (change level %.1f)", tray.level)
        if self.watcher is not None:
            self.watcher.reset()
        self._calibration_changed()
        return self.calibration_status()

    def forget_empty(self) -> bool:
        """Read without the empty tray from now on; True when there was one."""
        forgot = self.reference.forget()
        self._calibration_changed()
        return forgot

    def _watched_frames(self, n: int, timeout: float = 10.0) -> list[Any]:
        """The next ``n`` frames the camera watcher reads (the real camera is the watcher's alone)."""
        frames: list[Any] = []
        seen = self.watcher.frames
        deadline = time.monotonic() + timeout
        while len(frames) < n:
            if time.monotonic() > deadline:
                raise RuleViolation(msg("The camera is not answering: check it on the health page."))
            if self.watcher.frames != seen and self.watcher.last_frame is not None:
                seen = self.watcher.frames
                frames.append(self.watcher.last_frame)
            time.sleep(0.01)
        return frames

    def _calibrating(self) -> Calibration:
        calibration = self.calibration
        if calibration is None:
            raise RuleViolation(msg("The dice are not being taught: start the calibration first."))
        return calibration

    def _calibration_changed(self) -> None:
        self.table.set_status("calibration", self.calibration_status())

    def _show_calibration(self, frame: Any, reading: Any) -> None:
        calibration = self.calibration
        if calibration is None:
            return
        with self._frame_lock:
            calibration.show(DiceView(frame=frame, at=time.time(), reading=reading))
        self._calibration_changed()

    def _table_profile(self) -> Any:
        with self._profile_lock:
            if self.profile is None:
                from companion.vision.profile_store import TableProfile

                self.profile = TableProfile(self.profile_path)
                self.table_model = self._new_table_model()
            return self.profile

    def _new_table_model(self) -> Any:
        from companion.vision.retrain_job import TableModel

        # [camera] retrain = true lets the table retrain the network on its dice (needs the 'train' extra).
        # Off by default: on dice it never saw the table's model reads more of them right but answers more
        # of them wrongly with confidence (docs/log/vision-rounds.md, sixteenth round).
        enabled = None if bool(self.config.camera.get("retrain", False)) else False
        return TableModel(self.profile_path.with_name(MODEL_FILE), enabled=enabled, on_change=self._calibration_changed)

    def _learn_now(self, frame: Any, reading: Any, faces: list[Any]) -> int:
        """A calibration roll, learnt at once so the tablet hears whether it was taken."""
        with self._profile_lock:
            try:
                # Every die was corrected on this very reading: any number of corrections is learnt. With
                # the set's count given, every die in view is in the reading: the rest of the tray is not.
                counted = self.calibration is not None and self.calibration.dice.count is not None
                profile = self._table_profile()
                learnt = int(
                    profile.learn(self._reader(), frame, reading, faces, most_corrected=1.0, background=counted)
                )
            except OSError as exc:
                raise RuleViolation(
                    msg("The dice could not be saved ({error}): free some space and confirm again.", error=str(exc))
                ) from exc
        if learnt:
            self._grown(learnt)
        return learnt

    def close(self) -> None:
        self.table.unsubscribe(self._show_lights)
        self._stop.set()
        self._events.put(None)
        self._worker.join(timeout=2)
        for part in (self.watcher, self.buttons, self.lights, self.camera, self.table_model):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", part)


CAMERA_SOURCES = ("auto", "picamera2", "usb", "folder", "simulated", "none")


def camera_problems(settings: dict[str, Any]) -> list[str]:
    """What is wrong with a ``[camera]`` table (for ``companion check-config``), without opening it."""
    problems = []
    source = settings.get("source", "auto")
    if source not in CAMERA_SOURCES:
        problems.append(f"[camera] source must be one of {', '.join(CAMERA_SOURCES)}, not {source!r}")
    size = settings.get("resolution")
    if size is not None and not (
        isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and 64 <= v <= 8192 for v in size)
    ):
        problems.append("[camera] resolution must be [width, height] in pixels, e.g. [2304, 1296]")
    if not isinstance(settings.get("retrain", False), bool):
        problems.append("[camera] retrain must be true or false (retrain the dice network on the table's dice)")
    warmup = settings.get("warmup_s", 2.0)
    if not isinstance(warmup, int | float) or isinstance(warmup, bool) or not 0 <= warmup <= 30:
        problems.append("[camera] warmup_s must be a number of seconds between 0 and 30")
    for key in ("lock_exposure", "lock_white_balance"):
        if not isinstance(settings.get(key, True), bool):
            problems.append(f"[camera] {key} must be true or false")
    if source == "folder" and not settings.get("folder"):
        problems.append('[camera] source = "folder" needs folder = "/path/to/photos"')
    index = settings.get("usb_index", 0)
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        problems.append("[camera] usb_index must be 0 or more")
    return problems


def open_camera(settings: dict[str, Any]) -> Any:
    """The camera source the ``[camera]`` table asks for; ``auto`` tries the Pi camera, then USB."""
    from companion.hardware.camera import FolderCamera, PiCamera, SimulatedCamera, VideoCaptureCamera

    source = str(settings.get("source", "auto"))
    raw_size = settings.get("resolution")
    size = (int(raw_size[0]), int(raw_size[1])) if isinstance(raw_size, list) and len(raw_size) == 2 else None
    if source == "simulated":
        return SimulatedCamera()
    if source == "folder":
        return FolderCamera(str(settings.get("folder", "")))
    if source == "usb":
        return VideoCaptureCamera(int(settings.get("usb_index", 0)), size=size)
    if source in ("picamera2", "auto"):
        lock = bool(settings.get("lock_exposure", True)) or bool(settings.get("lock_white_balance", True))
        try:
            return PiCamera(size=size or (2304, 1296), warmup=float(settings.get("warmup_s", 2.0)), lock=lock)
        except Exception:
            if source == "picamera2":
                raise
    return VideoCaptureCamera(int(settings.get("usb_index", 0)), size=size)
