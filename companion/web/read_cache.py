"""Costly answers about one game (its history, statistics, record), made once per change and language.

Telling a long game again costs the server real time: a 1,242-entry game's history is a replay of
every entry and a walk over every message to put it in the page's language (tens of milliseconds
here, a Pi 4 core is some four times slower). Anyone on the Wi-Fi may read it, so six connections
asking for it over and over kept the table's inputs waiting half a second. Here each answer is kept,
by game and language, until the game changes: the same question costs a lookup. A change (an entry
added to the game, its row marked finished, a restored journal) makes the next question make a new
answer, and only one costly answer is made at a time, whatever the number of askers. Inputs to the
open game do not touch the answers kept for the others.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from flask import Response, current_app, g

from companion.web.language import localize_response, request_language

SIZE = 16  # answers kept (a history of 1,242 entries is ~70 KB)


@dataclass(eq=False)
class _Answer:
    lock: threading.Lock = field(default_factory=threading.Lock)
    stamp: Any = None  # what the journal was when it was made
    status: int = 0
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes | None = None


class ReadCache:
    """Answers by key, each kept while its stamp holds. Thread-safe: the first to ask makes the
    answer, the others asking the same wait for it; answers are made one at a time."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._answers: OrderedDict[tuple[Any, ...], _Answer] = OrderedDict()
        self._making = threading.Lock()
        self.made = 0  # answers made, not taken from the cache (for the tests)

    def answer(self, key: tuple[Any, ...], stamp: Callable[[], Any], make: Callable[[], Response]) -> Response:
        """The kept answer for ``key`` if ``stamp()`` is what it was when it was made, else a new one
        from ``make()`` (kept only when the stamp held while it was made, and it is a 200)."""
        with self._lock:
            slot = self._answers.get(key)
            if slot is None:
                slot = self._answers[key] = _Answer()
                while len(self._answers) > self.size:
                    self._answers.popitem(last=False)
            else:
                self._answers.move_to_end(key)
        with slot.lock:
            before = stamp()
            if slot.body is None or slot.stamp != before:
                with self._making:
                    response = make()
                    self.made += 1
                if response.status_code != 200 or response.is_streamed or stamp() != before:
                    return response  # a change came while it was made: right for this asker, not kept
                slot.stamp, slot.status, slot.body = before, response.status_code, response.get_data()
                slot.headers = list(response.headers.items())
            return Response(slot.body, status=slot.status, headers=slot.headers)


def cached_read(view: Callable[[int], Any]) -> Callable[[int], Any]:
    """For an API view of one game (``game_id``): its answer, in the page's language, kept by
    :class:`ReadCache` until the game changes."""

    @wraps(view)
    def wrapper(game_id: int) -> Any:
        extensions = current_app.extensions["companion"]
        table = extensions["table"]
        cache: ReadCache = extensions.setdefault("reads", ReadCache())

        def stamp() -> Any:
            # Entries are only ever added to the open game, so its entry count and the game's row (marked
            # finished with its summary) say when an answer is out of date; a restored journal is another
            # object. Taken under the table's lock: never half-way through a change.
            with table._lock:
                timeline = table.timeline if table.game_id == game_id else None
                return table.journal, table.journal.game(game_id), None if timeline is None else timeline.entries

        def make() -> Response:
            return localize_response(current_app.make_response(view(game_id)))

        response = cache.answer((view.__name__, game_id, request_language()), stamp, make)
        g.localized = True  # already in the page's language (see companion/web/language.py)
        return response

    return wrapper
