"""The companion's voice: listens to the table's views, speaks on the Pi and hands the tablets their words.

Data flows one way: session -> view (with its events) -> voice. The voice never calls the session. Its
listener (:meth:`Voice.observe`) runs on the table's thread under the table's lock, so it only works out
what to say (plain data, microseconds) and queues it: the speaker's worker does the talking. Each view the
pages get carries the newest announcements (:meth:`Voice.decorate`): a tablet set to speak says them in
its own language, with its own choice of kinds.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.voice.announce import Announcer
from companion.voice.backends import Backend, EspeakBackend, FolderBackend, SilentBackend, espeak_available
from companion.voice.cue import PressCue
from companion.voice.kinds import LASTING
from companion.voice.settings import VoiceSettings
from companion.voice.speaker import Speaker

log = logging.getLogger(__name__)
KEPT = 8  # views' announcements kept for the pages (a view is published to them right after it is observed)
RECENT = 4  # changes whose lasting announcements every view still carries, for a page that skipped a view


def choose_backend(settings: VoiceSettings, *, mock: bool, data_dir: str | Path) -> Backend:
    """``auto``: espeak-ng on a real table (silent without it), the folder in mock mode."""
    output = settings.output
    if output == "auto":
        output = "folder" if mock else "espeak"
    if not settings.enabled or output == "silent":
        return SilentBackend()
    if output == "folder":
        return FolderBackend(Path(settings.folder) if settings.folder else Path(data_dir) / "voice")
    if not espeak_available():
        log.warning("[voice] is on but espeak-ng is not installed (apt-get install espeak-ng): the Pi stays silent")
        return SilentBackend()
    return EspeakBackend(pipe=output == "aplay")


class Voice:
    """The announcer, the Pi's speaker and the press cue, fed by the table's views."""

    def __init__(self, settings: VoiceSettings, speaker: Speaker | None, *, lights: Any = None) -> None:
        self.settings = settings
        self.speaker = speaker
        self.cue = PressCue(lights, settings.cue)
        self._announcer = Announcer()
        self._lock = threading.Lock()
        self._parts: dict[int, dict[str, Any]] = {}
        self._latest: dict[str, Any] | None = None
        self._recent: deque[list[dict[str, Any]]] = deque(maxlen=RECENT)
        self._seq = 0

    def observe(self, view: Mapping[str, Any]) -> None:
        """A table listener: take a new view, say what it brings, give the press cue."""
        self.part(view)

    def part(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The voice part of ``view`` for the pages (empty: nothing said yet). Asked again for the same
        version (the table's listener and the web's both ask), it answers from the first time."""
        version = int(view.get("version", 0))
        with self._lock:
            if version in self._parts or (self._parts and version < min(self._parts)):
                return self._parts.get(version, self._latest or {})
            try:
                said = self._announcer.announce(view)
            except Exception:  # a sentence that cannot be made must never stop the table's listeners
                log.exception("announcing version %s failed", version)
                said = []
            if said:
                self._seq += 1
                self._recent.append([{**a.to_json(), "seq": self._seq, "version": version} for a in said])
                self._latest = self._part()
            self._parts[version] = self._latest or {}
            for old in sorted(self._parts)[:-KEPT]:
                del self._parts[old]
        self.cue.observe(view)
        if said and self.speaker is not None:
            self.speaker.offer(said)
        return self._parts[version]

    def _part(self) -> dict[str, Any]:
        """``seq`` counts the changes that said something; ``say`` holds the newest change's announcements
        and the lasting ones of the few before it (a page shown only the newest of several quick views
        still says a payout it missed), each with its ``seq`` and the table ``version`` it was made at (a
        page that opened later never says it)."""
        newest = self._recent[-1]
        older = [a for batch in list(self._recent)[:-1] for a in batch if a["kind"] in LASTING]
        return {"seq": self._seq, "version": newest[0]["version"], "say": [*older, *newest]}

    def decorate(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view as the pages get it: with ``voice``, the newest announcements and their number."""
        part = self.part(view)
        return {**view, "voice": part} if part else view

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.close()

