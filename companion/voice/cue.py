"""The buzzer and the LEDs confirm a button press: a short beep when the table took it, two and a red
blink when it was refused. Read from the views like the voice, so it needs nothing of the rig but its
lights (``companion.hardware.leds.StatusLights.cue``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class PressCue:
    """``[voice] cue``: ``both``, ``buzzer``, ``lights`` or ``off``."""

    def __init__(self, lights: Any, mode: str = "both") -> None:
        self.lights = lights
        self.mode = mode
        self._notice_at: Any = None
        self._highlight: tuple[Any, ...] = ()
        self.given: list[bool] = []  # each cue given, True for a press taken (for tests and the health page)

    def observe(self, view: Mapping[str, Any]) -> None:
        if self.lights is None or self.mode == "off":
            return
        game = view.get("game") or {}
        options = (game.get("awaiting") or {}).get("options") or []
        lit = next((i for i, o in enumerate(options) if o.get("highlighted")), None)
        highlight = (game.get("id"), game.get("inputs"), lit)
        moved = bool(self._highlight) and highlight[:2] == self._highlight[:2] and highlight[2] != self._highlight[2]
        self._highlight = highlight
        if moved or any(str(e.get("device", "")).startswith("button:") for e in game.get("news") or []):
            self._cue(True)  # an input a button made, or *next* moving the highlight
        notice = (view.get("status") or {}).get("notice")
        at = notice.get("at") if isinstance(notice, Mapping) else None
        if isinstance(notice, Mapping) and at is not None and at != self._notice_at and _from_a_button(notice):
            self._cue(False)
        self._notice_at = at

    def _cue(self, ok: bool) -> None:
        self.given.append(ok)
        self.lights.cue(ok, sound=self.mode in ("both", "buzzer"), light=self.mode in ("both", "lights"))


def _from_a_button(notice: Mapping[str, Any]) -> bool:
    text = notice.get("text")
    if not isinstance(text, Mapping):
        return False
    device = (text.get("params") or {}).get("device")
    return text.get("msg") == "{device}: {problem}" and isinstance(device, str) and device.startswith("button:")
