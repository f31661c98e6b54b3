"""The devices around the table, real or simulated, turned into table inputs.

Buttons and camera only ever *produce* inputs: a button handler puts its event on a queue, one worker
thread turns events into table actions (confirm, undo, next, re-read), so the game never runs inside a
gpiozero callback. The camera's settled reading is offered to the table; the confirm button or a tap
on the tablet accepts it.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.games.base import RuleViolation
from companion.session import Table

log = logging.getLogger(__name__)

COLOUR_NAMES = ("white", "black", "red", "blue", "green", "yellow")


@dataclass
class DiceView:
    """The last frame the camera pipeline produced, and what was read in it."""

    frame: Any = None  # BGR numpy array
    jpeg: bytes | None = None
    dice: list[dict[str, Any]] = field(default_factory=list)
    at: float = 0.0


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
        self.camera: Any = None
        self._build_buttons()
        self._build_camera()
        self._worker = threading.Thread(target=self._work, name="rig-inputs", daemon=True)
        self._worker.start()
        table.set_status("devices", self.status())

    # --- parts -------------------------------------------------------------------------------
    def _build_buttons(self) -> None:
        try:
            from companion.hardware.buttons import ButtonPanel, default_pin_factory
            from companion.hardware.pins import PinMap

            pins = PinMap.from_mapping(self.config.pins) if self.config.pins else PinMap()
            factory = default_pin_factory(self.mock)
            self.buttons = ButtonPanel(pins, on_event=self._events.put, on_noise=self._noise, pin_factory=factory)
            self.parts["buttons"] = "simulated" if self.mock else "gpio"
        except Exception as exc:  # no GPIO here (a laptop without --mock): the tablet still works
            log.warning("buttons unavailable: %s", exc)
            self.problems.append(f"buttons: {exc}")
            self.parts["buttons"] = "absent"

    def _build_camera(self) -> None:
        if self.mock:
            try:
                from companion.hardware.camera import SimulatedCamera

                self.camera = SimulatedCamera()
                self.parts["camera"] = "simulated"
            except Exception as exc:
                log.warning("simulated camera unavailable: %s", exc)
                self.parts["camera"] = "absent"
            return
        source = str(self.config.camera.get("source", "auto"))
        try:
            from companion.hardware.camera import open_camera

            self.camera = open_camera(self.config.camera)
            self.parts["camera"] = source if source != "auto" else type(self.camera).__name__
        except Exception as exc:
            log.warning("camera unavailable (%s): manual entry on the tablet", exc)
            self.problems.append(f"camera: {exc}")
            self.parts["camera"] = "absent"

    def status(self) -> dict[str, str]:
        return dict(self.parts)

    def _noise(self, event: Any) -> None:
        text = f"{event.device} is noisy and ignored" if event.noisy else f"{event.device} is calm again"
        self.table.set_status("notice", {"text": text, "at": time.time()})

    # --- inputs from the buttons -------------------------------------------------------------
    def press(self, name: str, *, hold: float = 0.0) -> None:
        """A press on the mock panel of the page; real pins cannot be pressed from software."""
        if self.buttons is None or not self.mock:
            raise RuleViolation("The buttons are real here: press them on the table.")
        if name not in self.buttons.names:
            raise RuleViolation(f"There is no button called {name!r}.")
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
            try:
                self._handle(event)
            except RuleViolation as exc:
                self.table.set_status("notice", {"text": f"{event.device}: {exc}", "at": time.time()})
            except Exception:  # a bug must not kill the button worker
                log.exception("button event %s failed", event)

    def _handle(self, event: Any) -> None:
        name, kind, device = event.button, event.kind, event.device
        if name == "confirm":
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
            self.reread()

    # --- the camera --------------------------------------------------------------------------
    def reread(self) -> list[dict[str, Any]] | None:
        """Read the tray now and offer the reading to the table (or say why there is none)."""
        if self.camera is None:
            raise RuleViolation("No camera is working: enter the dice on the tablet.")
        frame = self.camera.read()
        dice = self._read(frame)
        self._offer(frame, dice)
        return dice

    def simulate_roll(self) -> list[dict[str, Any]] | None:
        """Mock mode: put a random roll of the awaited dice under the simulated camera and read it."""
        if not self.mock or self.camera is None:
            raise RuleViolation("Only the simulated camera can roll by itself.")
        awaiting = self.table.awaiting()
        if awaiting is None or awaiting.dice is None:
            raise RuleViolation("The game is not waiting for dice.")
        spec = awaiting.dice
        colours = [c for c, n in spec.colours for _ in range(n)] or ["white"] * spec.count
        faces = [self.rng.choice(spec.faces) for _ in colours]
        self.camera.show([(f, c) for f, c in zip(faces, colours, strict=True)])
        return self.reread()

    def _read(self, frame: Any) -> list[dict[str, Any]]:
        truth = getattr(self.camera, "truth", None)
        if self.mock and truth is not None:
            # Until the vision reader is trusted on rendered frames, mock mode reads back what it drew.
            return [{"face": f, "colour": c} for f, c in truth()]
        from companion.vision.reader import read_dice

        reading = read_dice(frame)
        return [{"face": d.value, "colour": d.colour} for d in reading.dice]

    def _offer(self, frame: Any, dice: list[dict[str, Any]]) -> None:
        with self._frame_lock:
            self.view = DiceView(frame=frame, jpeg=None, dice=dice, at=time.time())
        awaiting = self.table.awaiting()
        note = ""
        if awaiting is not None and awaiting.dice is not None and len(dice) != awaiting.dice.count:
            note = f"The camera sees {len(dice)} dice but {awaiting.dice.count} were rolled: re-roll or correct."
        self.table.set_reading(dice, note)

    def frame_jpeg(self) -> bytes | None:
        with self._frame_lock:
            view = self.view
            if view.frame is None:
                return None
            if view.jpeg is None:
                import cv2

                ok, buf = cv2.imencode(".jpg", view.frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
                view.jpeg = bytes(buf) if ok else None
            return view.jpeg

    def close(self) -> None:
        self._stop.set()
        self._events.put(None)
        self._worker.join(timeout=2)
        for part in (self.buttons, self.camera):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", part)

