"""The ``[voice]`` table of companion.toml: what the Pi's speaker says, when, how loud, through what.

Kept as a plain mapping in ``Config`` (like ``[camera]``) and read here, where its meaning lives, so
``companion check-config`` and the daemon share one reading of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any

from companion.i18n.catalogs import LANGUAGES
from companion.voice.kinds import DEFAULT_PRESET, KINDS, PRESETS

OUTPUTS = ("auto", "espeak", "aplay", "folder", "silent")
"""``auto``: espeak-ng on a real table, the folder in mock mode; ``aplay``: espeak-ng's WAV piped into ALSA's
``aplay`` (where espeak-ng's own output finds no device); ``silent``: nothing on the Pi (the tablets may still
speak)."""
CUES = ("both", "buzzer", "lights", "off")
HOUR = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True)
class VoiceSettings:
    """The Pi's voice; a tablet's own voice is set on the tablet."""

    enabled: bool = False
    language: str = ""  # "": the table's language ([server] language)
    preset: str = DEFAULT_PRESET
    kinds: frozenset[str] = field(default_factory=lambda: PRESETS[DEFAULT_PRESET])
    volume: int = 80  # percent
    rate: int = 160  # words a minute (espeak-ng's -s)
    voice: str = ""  # an espeak-ng voice, e.g. "de+f3"; "": the language's own
    night_from: str = ""  # "22:30": no sound from then ...
    night_to: str = ""  # ... until "08:00" (both empty: no night mode)
    output: str = "auto"
    folder: str = ""  # mock output: "" is <data_dir>/voice
    cue: str = "both"  # the buzzer and LEDs confirm a button press the table took, and warn of a refused one

    def says(self, kind: str) -> bool:
        return self.enabled and kind in self.kinds

    def is_night(self, now: datetime) -> bool:
        """Whether ``now`` (local time) falls in the night hours; a span may cross midnight."""
        if not self.night_from or not self.night_to:
            return False
        start, end, t = _hour(self.night_from), _hour(self.night_to), now.time()
        if start <= end:
            return start <= t < end
        return t >= start or t < end


def _hour(text: str) -> time:
    match = HOUR.match(text)
    assert match is not None, text  # checked by problems()
    return time(int(match.group(1)), int(match.group(2)))


def problems(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with a ``[voice]`` table, one line each (empty: it can work)."""
    out: list[str] = []
    known = {"enabled", "language", "preset", "kinds", "volume", "rate", "voice", "night_from", "night_to",
             "output", "folder", "cue"}
    unknown = sorted(set(data) - known)
    if unknown:
        out.append(f"[voice] has unknown keys: {', '.join(unknown)}")
    if not isinstance(data.get("enabled", False), bool):
        out.append("[voice] enabled must be true or false")
    language = data.get("language", "")
    if language != "" and language not in LANGUAGES:
        out.append(f"[voice] language must be one of {', '.join(LANGUAGES)} (or empty: the table's), not {language!r}")
    if data.get("preset", DEFAULT_PRESET) not in PRESETS:
        out.append(f"[voice] preset must be one of {', '.join(PRESETS)}, not {data.get('preset')!r}")
    kinds = data.get("kinds")
    if kinds is not None and (not isinstance(kinds, list) or any(k not in KINDS for k in kinds)):
        out.append(f"[voice] kinds must be a list of: {', '.join(KINDS)}")
    for key, low, high in (("volume", 0, 100), ("rate", 80, 450)):
        value = data.get(key, low)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            out.append(f"[voice] {key} must be a whole number from {low} to {high}")
    voice = data.get("voice", "")
    if not isinstance(voice, str) or not re.fullmatch(r"[A-Za-z0-9_+\-/]*", voice):
        out.append("[voice] voice must be an espeak-ng voice name such as \"de\" or \"en-gb+f3\"")
    night = [data.get("night_from", ""), data.get("night_to", "")]
    if any(not isinstance(h, str) or (h and not HOUR.match(h)) for h in night) or (bool(night[0]) != bool(night[1])):
        out.append('[voice] night_from and night_to must both be "HH:MM" (24 h), or both empty')
    if data.get("output", "auto") not in OUTPUTS:
        out.append(f"[voice] output must be one of {', '.join(OUTPUTS)}, not {data.get('output')!r}")
    if not isinstance(data.get("folder", ""), str):
        out.append("[voice] folder must be a path")
    if data.get("cue", "both") not in CUES:
        out.append(f"[voice] cue must be one of {', '.join(CUES)}, not {data.get('cue')!r}")
    return out


def read(data: Mapping[str, Any]) -> VoiceSettings:
    """The settings of a checked ``[voice]`` table (ValueError with every problem otherwise)."""
    found = problems(data)
    if found:
        raise ValueError("; ".join(found))
    preset = str(data.get("preset", DEFAULT_PRESET))
    kinds = frozenset(data["kinds"]) if "kinds" in data else PRESETS[preset]
    return VoiceSettings(
        enabled=bool(data.get("enabled", False)),
        language=str(data.get("language", "")),
        preset=preset,
        kinds=kinds,
        volume=int(data.get("volume", 80)),
        rate=int(data.get("rate", 160)),
        voice=str(data.get("voice", "")),
        night_from=str(data.get("night_from", "")),
        night_to=str(data.get("night_to", "")),
        output=str(data.get("output", "auto")),
        folder=str(data.get("folder", "")),
        cue=str(data.get("cue", "both")),
    )
