"""The table's physical parts, real or simulated: built once from the config, owned until closed.

Each part is its own small class in ``companion.hardware`` (``ButtonPanel``, ``StatusLights``, the camera
sources) over gpiozero's pin factory; this builds the ones the config asks for, says which came up
(``parts``), and lets a part that will not come up leave the table working without it (the tablet
still enters everything). ``mock`` swaps each part for its simulation behind the same classes. The real
camera is the camera watcher's (``readings.py``), which reports its state here.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.config import Config
from companion.games.base import RuleViolation
from companion.games.messages import msg
from companion.table.session import Table

log = logging.getLogger(__name__)


class Devices:
    """The buttons, status lights, simulated camera and health probe of one table."""

    def __init__(
        self, table: Table, config: Config, *, mock: bool, rng: random.Random, on_button: Callable[[Any], None]
    ) -> None:
        self.table = table
        self.config = config
        self.mock = mock
        self.rng = rng  # the simulated hands: the simulated camera's scene and every simulated roll
        self.parts: dict[str, str] = {}
        self.problems: list[str] = []
        self.buttons: Any = None
        self.lights: Any = None
        self.camera: Any = None  # the simulated camera, read on demand (mock mode)
        self.camera_fps: float | None = None
        self.probe: Any = None
        try:
            from companion.hardware.health import HealthProbe

            self.probe = HealthProbe(data_dir=config.store.data_dir, journal=config.store.journal_path)
        except Exception:  # health readings are a nicety, never a reason not to start
            log.exception("health probe unavailable")
        self._build_buttons(on_button)
        self._build_camera()

    @property
    def source(self) -> str:
        """The ``[camera] source`` of the config."""
        return str(self.config.camera.get("source", "auto"))

    @property
    def watch_camera(self) -> bool:
        """A real camera is configured: the camera watcher opens it and reads it on its own thread."""
        return not self.mock and self.source != "none"

    # --- building -----------------------------------------------------------------------------
    def _build_buttons(self, on_button: Callable[[Any], None]) -> None:
        try:
            from companion.hardware.buttons import ButtonPanel, default_pin_factory
            from companion.hardware.debounce import ButtonTiming
            from companion.hardware.pins import PinMap

            pins = PinMap.from_mapping(self.config.pins) if self.config.pins else PinMap()
            factory = default_pin_factory(self.mock)
            timing = ButtonTiming.from_mapping(self.config.buttons) if self.config.buttons else None
            self.buttons = ButtonPanel(
                pins, on_event=on_button, on_noise=self._noise, pin_factory=factory, timing=timing
            )
            self.parts["buttons"] = "simulated" if self.mock else "gpio"
            self._build_lights(pins, factory)
        except Exception as exc:  # no GPIO here (a laptop without --mock): the tablet still works
            log.warning("buttons unavailable: %s", exc)
            self.problems.append(f"buttons: {exc}")
            self.parts["buttons"] = "absent"

    def _build_lights(self, pins: Any, factory: Any) -> None:
        try:
            from companion.hardware.leds import StatusLights

            self.lights = StatusLights(pins, pin_factory=factory)
            self.lights.show_ready()
            self.parts["lights"] = "simulated" if self.mock else "gpio"
        except Exception as exc:
            log.warning("status lights unavailable: %s", exc)
            self.parts["lights"] = "absent"

    def _build_camera(self) -> None:
        if self.mock:
            from companion.hardware.camera import SimulatedCamera

            self.camera = SimulatedCamera(seed=self.rng.randrange(1 << 30))
            self.parts["camera"] = "simulated"
        elif self.source == "none":
            self.parts["camera"] = "none (manual entry)"
        else:
            self.parts["camera"] = f"{self.source}: starting"

    # --- what the parts say -------------------------------------------------------------------
    def camera_state(self, state: str, fps: float | None) -> None:
        """The camera watcher's report: shown on the tablet and, when failing, on the red light."""
        self.parts["camera"] = f"{self.source}: {state}"
        self.camera_fps = fps
        if self.lights is not None:
            if state == "ok":
                self.lights.show_ready()
            else:
                self.lights.show_error()
        self.table.set_status("devices", self.status())

    def show_lights(self, view: dict[str, Any]) -> None:
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

    def _noise(self, event: Any) -> None:
        if event.noisy:
            text = msg("{device} is noisy and ignored", device=event.device)
        else:
            text = msg("{device} is calm again", device=event.device)
        self.table.set_status("notice", {"text": text.to_json(), "at": time.time()})

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = self.probe.read().as_dict() if self.probe is not None else {}
        out["camera_fps"] = None if self.camera_fps is None else round(self.camera_fps, 1)
        out["noisy_buttons"] = sorted(self.buttons.noisy) if self.buttons is not None else []
        return out

    def status(self) -> dict[str, str]:
        return dict(self.parts)

    # --- the simulated table ------------------------------------------------------------------
    def press(self, name: str, *, hold: float = 0.0) -> None:
        """A press on the mock panel of the page; real pins cannot be pressed from software."""
        if self.buttons is None or not self.mock:
            raise RuleViolation(msg("The buttons are real here: press them on the table."))
        if name not in self.buttons.names:
            raise RuleViolation(msg("There is no button called {name}.", name=name))
        self.buttons.press(name, hold=hold)

    def throw(self, faces: Sequence[Any], colours: Sequence[str | None]) -> None:
        """The simulated hands roll one die per colour (None: the renderer's own) into the tray."""
        from companion.vision.render import RenderDie

        self.camera.show([
            RenderDie(self.rng.choice(faces)) if c is None else RenderDie(self.rng.choice(faces), c) for c in colours
        ])

    def clear_tray(self) -> None:
        """The simulated hands take the dice out of the tray."""
        self.camera.show([])

    def grab(self, advice: str) -> Any:
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

    def close(self) -> None:
        for part in (self.buttons, self.lights, self.camera):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %s failed", part)
