"""The speaker's own worker: announcements wait in its queue, never in the table's way.

``offer`` is called by the table's listener, under the table's lock: it only appends to a list and
returns. One worker thread renders each announcement in the speaker's language and hands it to the
backend. When a newer change arrives, what waits from older ones is dropped unless its kind lasts
(a payout, a winner), and a transient announcement being said is cut off: a highlight that moved on, a
reading already confirmed, a question already answered are not worth hearing late.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from companion.i18n.render import render
from companion.voice.backends import Backend, Utterance
from companion.voice.events import Announcement
from companion.voice.settings import VoiceSettings
from companion.voice.words import speakable

log = logging.getLogger(__name__)
MOST_WAITING = 24  # announcements kept waiting at most (lasting ones from a long burst of payouts)


@dataclass
class _Item:
    announcement: Announcement
    batch: int
    cancel: threading.Event = field(default_factory=threading.Event)


class Speaker:
    """Says the announcements the settings let through, in ``lang``, one at a time."""

    def __init__(
        self,
        backend: Backend,
        settings: VoiceSettings,
        lang: str,
        *,
        now: Callable[[], datetime] = datetime.now,
    ) -> None:
        self.backend = backend
        self.settings = settings
        self.lang = lang
        self.now = now
        self.dropped = 0  # announcements dropped as stale (for the health page and the tests)
        self._waiting: list[_Item] = []
        self._speaking: _Item | None = None
        self._batch = 0
        self._news = threading.Condition()
        self._idle = threading.Event()
        self._idle.set()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="voice-speaker", daemon=True)
        self._thread.start()

    def offer(self, announcements: Sequence[Announcement]) -> None:
        """Queue one change's announcements (those this speaker says); never blocks on speech."""
        chosen = [a for a in announcements if self.settings.says(a.kind)]
        if not chosen or self.settings.is_night(self.now()):
            return
        with self._news:
            self._batch += 1
            kept = [i for i in self._waiting if i.announcement.lasting]
            self.dropped += len(self._waiting) - len(kept)
            if self._speaking is not None and not self._speaking.announcement.lasting:
                self._speaking.cancel.set()
            self._waiting = [*kept, *(_Item(a, self._batch) for a in chosen)][-MOST_WAITING:]
            self._idle.clear()
            self._news.notify()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Until everything offered has been said or dropped (tests, ``companion say``)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        with self._news:
            self._closed = True
            if self._speaking is not None:
                self._speaking.cancel.set()
            self._news.notify()
        self._thread.join(timeout=5)

    def _work(self) -> None:
        while True:
            with self._news:
                while not self._waiting and not self._closed:
                    self._speaking = None
                    self._idle.set()
                    self._news.wait()
                if self._closed:
                    self._idle.set()
                    return
                item = self._speaking = self._waiting.pop(0)
            try:
                self.backend.say(self._utterance(item.announcement), item.cancel)
            except Exception:  # a broken speaker must not end the worker; the game goes on regardless
                log.exception("saying %s failed", item.announcement.kind)

    def _utterance(self, announcement: Announcement) -> Utterance:
        text = render(speakable(announcement.text), self.lang)
        s = self.settings
        return Utterance(text, self.lang, announcement.kind, volume=s.volume, rate=s.rate, voice=s.voice)
