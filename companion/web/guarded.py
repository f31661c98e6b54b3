"""A connection that keeps to companion/web/limits.py: let in by the door, given a few seconds to send
its request whole, refused a body it may not send before that body reaches memory or disk.

waitress measures a connection's idleness from its last byte, so a client trickling a header byte
every few seconds is never idle and never done; here a request must arrive whole within a deadline
from its first byte (``Limits.deadline``), and a connection that has asked nothing for ``idle_s`` is
closed even if it keeps sending empty lines. A body longer than its request may send is refused
from its ``Content-Length`` (413) before a byte of it is read, a chunked one as soon as it grows past
that; big bodies (a game record to import) are few at a time. waitress's own refusals (400, 413,
431...) carry the app's security headers, and ours say what happened in the players' language.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.task import ErrorTask
from waitress.utilities import Error, RequestEntityTooLarge
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from companion.games.messages import Msg, msg
from companion.i18n.catalogs import DEFAULT, LANGUAGES
from companion.i18n.render import render
from companion.web.headers import SECURITY_HEADERS
from companion.web.limits import KB, Door, Limits, address, client_of


class Refusal(Error):
    """The server's own refusal of a request, as the API words its errors: JSON ``{"error": ...}``."""

    def __init__(self, code: int, reason: str, text: str, retry_after: int | None = None) -> None:
        super().__init__(text)
        self.code = code
        self.reason = reason
        self.retry_after = retry_after

    def to_response(self, ident: str | None = None) -> Any:  # waitress's stubs say the body is str: it is bytes
        headers = [("Content-Type", "application/json")]
        if self.retry_after is not None:
            headers.append(("Retry-After", str(self.retry_after)))
        body = json.dumps({"error": self.body}, ensure_ascii=False).encode()
        return f"{self.code} {self.reason}", headers, body


class SecureErrorTask(ErrorTask):
    """waitress's error answer (a malformed request, headers too large...) with the security headers."""

    def execute(self) -> None:
        self.response_headers = [*self.response_headers, *SECURITY_HEADERS]
        super().execute()


def head_language(query: str, headers: Mapping[str, str]) -> str:
    """The language of a request the app never sees, chosen as companion/web/language.py chooses it
    (``?lang=``, the ``lang`` cookie, ``Accept-Language``), else the catalogues' default."""
    for part in query.split("&"):
        if part.startswith("lang=") and part[5:] in LANGUAGES:
            return part[5:]
    cookie = parse_cookie(headers.get("COOKIE", "")).get("lang")
    if cookie in LANGUAGES:
        return str(cookie)
    best = parse_accept_header(headers.get("ACCEPT_LANGUAGE", ""), LanguageAccept).best_match(list(LANGUAGES))
    return str(best or DEFAULT)


def size_text(size: int) -> str:
    return f"{size // (1024 * KB)} MB" if size >= 1024 * KB else f"{size // KB} KB"


class GuardedParser(HTTPRequestParser):
    """One request's parser that, once the head is read, knows how big a body the request may send."""

    big = False  # holds one of the door's big-body slots
    path = ""  # set by waitress once the request line is read
    query = ""

    def __init__(self, adj: Any, channel: GuardedChannel) -> None:
        super().__init__(adj)
        self.channel = channel
        self.limit = channel.limits.small_body

    def received(self, data: bytes) -> int:
        head_done = self.headers_finished
        consumed = int(super().received(data))
        if isinstance(self.error, RequestEntityTooLarge):
            self._refuse_size()  # waitress's own limit (``max_request_body_size``), said as ours
        elif self.error is None and self.headers_finished and not self.empty:
            if not head_done:
                self._head_read()
            elif self.body_bytes_received > self.limit:
                self._refuse_size()
        # a refused request's body is not parsed as the next request: the connection ends after the answer
        return len(data) if self.error is not None else consumed

    def _head_read(self) -> None:
        limits = self.channel.limits
        self.limit = limits.body_limit(self.path)
        if self.content_length > self.limit:
            self._refuse_size()
        elif self.limit > limits.small_body and (self.content_length > limits.small_body or self.chunked):
            if self.channel.door.take_big_body(address(self.channel)):
                self.big = True
            else:
                text = msg("Another game record is being received; try again in a moment.")
                self._refuse(503, "Service Unavailable", text, retry_after=5)

    def _refuse_size(self) -> None:
        self.limit = self.channel.limits.body_limit(self.path)
        if self.limit > self.channel.limits.small_body:
            text = msg("The game record is too large: the companion takes records of at most {size}.",
                       size=size_text(self.limit))
        else:
            text = msg("The request is too large for the companion (at most {size}).", size=size_text(self.limit))
        self._refuse(413, "Request Entity Too Large", text)

    def _refuse(self, code: int, reason: str, text: Msg, retry_after: int | None = None) -> None:
        language = head_language(self.query, self.headers)
        self.error = Refusal(code, reason, render(text, language), retry_after)
        self.completed = True
        self.connection_close = True
        self.expect_continue = False  # else waitress says "100 Continue", takes the request back and reads on

    def close(self) -> None:
        super().close()
        if self.big:
            self.big = False
            self.channel.door.give_big_body(address(self.channel))


class GuardedChannel(HTTPChannel):
    """An HTTP connection under the server's :class:`Limits` (``server.limits``, ``server.door``)."""

    error_task_class = SecureErrorTask
    began: float | None = None  # when the first byte of the request being received came

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        self.limits: Limits = server.limits
        self.door: Door = server.door
        super().__init__(server, sock, addr, adj, map)
        self.quiet_since = self.creation_time  # since when it has asked, answered and watched nothing
        if not self.door.admit(self):
            self.handle_close()  # its address holds enough connections already, or the rest are kept

    def parser_class(self, adj: Any) -> GuardedParser:  # type: ignore[override]
        """waitress makes each request's parser with ``self.parser_class(self.adj)``."""
        return GuardedParser(adj, self)

    def watching(self) -> bool:
        """Whether a page watches the table on this connection (companion/web/parking.py)."""
        return False

    def idle(self) -> bool:
        """Nothing asked, nothing to send, nobody watching: the door may close it for a new one."""
        return not (self.requests or self.request is not None or self.total_outbufs_len or self.watching())

    def received(self, data: bytes) -> bool:
        before = self.request
        taken = bool(super().received(data))
        if self.request is None:
            self.began = None
        elif self.request is not before:
            self.began = time.time()
        return taken

    def writable(self) -> bool:
        # asked of every connection at each turn of the server's loop (at least once a second)
        if self.connected and not self.will_close and self.overdue(time.time()):
            self.will_close = True  # closed by handle_write, straight after
        return bool(super().writable())

    def overdue(self, now: float) -> bool:
        """A request still arriving past its deadline, or nothing asked for ``idle_s``."""
        if self.requests or self.total_outbufs_len or self.watching():
            self.quiet_since = now
            return False
        request = self.request
        if request is None:
            return now - self.quiet_since > self.limits.idle_s
        started = self.began or self.quiet_since
        if not request.headers_finished:
            return now - started > self.limits.head_s
        return now - started > self.limits.deadline(request.content_length)

    def handle_close(self) -> None:
        request = self.request
        if request is not None:
            request.close()  # a big body's slot goes back
        self.door.leave(self)
        super().handle_close()


ACCEPTS_PER_TURN = 64


def accept_waiting(server: Any) -> None:
    """A listener's ``handle_accept``: every connection waiting to be accepted (up to
    ``ACCEPTS_PER_TURN``) at this turn of the loop, not one; a connection the door would turn away is
    closed before anything is made for it. waitress takes one a turn, so a guest's burst of hundreds
    kept a tablet's connection waiting behind it for as many turns."""
    for _ in range(ACCEPTS_PER_TURN):
        try:
            accepted = server.accept()
        except OSError:
            return
        if accepted is None:
            return  # nothing more waiting
        sock, addr = accepted
        if not server.door.room(client_of(addr)):
            server.door.refused += 1
            sock.close()
            continue
        try:
            server.set_socket_options(sock)
        except OSError:
            sock.close()  # gone before its options could be set
            continue
        server.channel_class(server, sock, server.fix_addr(addr), server.adj, map=server._map)
