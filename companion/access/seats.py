"""Each player's own phone: a seat's invitation (a QR code's link and a short code to type) and the
phone that joined with it.

Why two secrets: the invitation is shown on the tablet (to whoever has the PIN) and may be scanned
again; the phone that joins gets a session of its own, so a phone that joins a second time replaces
the first (the first phone's session is refused from then on). An invitation belongs to one game and
ends with it, unless the table keeps it for the night: it then follows its player, by name, into the
next games for up to ``NIGHT_HOURS``. The tablet can withdraw it at any time (with the PIN).

Every token is compared in constant time, against every live one; a token or code that is none of
this table's (a guess) spends a budget of wrong guesses per client and for the whole table, as a wrong
PIN does. A token the table issued and withdrew is not a guess: it is refused with the reason.
Kept in memory: a restart of the companion ends every invitation (the tablet shows new codes).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from companion.access.budget import GuessBudget, Refusal, Window
from companion.games.messages import Msg, msg

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6
NIGHT_HOURS = 16
FORGOTTEN = 256  # withdrawn tokens remembered, to say why they are refused
# a phone's guesses: generous for a fumbled code, far too few to find one of 32**6 codes in a night
CLIENT_WINDOWS = (Window(10, 60), Window(40, 3600))
TABLE_WINDOWS = (Window(300, 86400),)

WITHDRAWN = msg("The table has withdrawn this phone's seat. Ask at the table for a new code.")
REPLACED = msg(
    "Another phone has joined this seat since, so this one is no longer connected. Scan the seat's code again "
    "to take it back."
)
ENDED = msg("The game this phone joined is over. Ask at the table for the new game's code.")
UNKNOWN = msg("That code is not one of this table's. Check it on the tablet and try again.")
TOO_MANY = msg("Too many wrong codes: wait a while, then try again.")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def typed_code(text: str) -> str:
    """A code as a person types it: spaces, dashes and lower case do not matter."""
    return "".join(c for c in text.upper() if c.isalnum())


@dataclass(frozen=True)
class Invite:
    """One seat's invitation: the link's ``token`` and the ``code`` (shown only to the tablet)."""

    game_id: int
    seat: int
    name: str
    token: str
    code: str
    at: float
    night: bool = False
    phone: str = ""  # the SHA-256 of the joined phone's session ("" until a phone joins)
    joined: float = 0.0


@dataclass(frozen=True)
class Phone:
    """Who a phone's session speaks for."""

    game_id: int
    seat: int
    name: str


class SeatRefused(Exception):
    """A phone is refused; ``status`` is the HTTP answer, ``retry_after`` set while a budget is spent."""

    def __init__(self, status: int, message: Msg, retry_after: int | None = None) -> None:
        super().__init__(str(message))
        self.status, self.msg, self.retry_after = status, message, retry_after


@dataclass
class _Gone:
    """Tokens the table issued that no longer work, and why (a bounded memory)."""

    why: dict[str, Msg] = field(default_factory=dict)

    def add(self, digest: str, reason: Msg) -> None:
        if digest:
            self.why[digest] = reason
            while len(self.why) > FORGOTTEN:
                del self.why[next(iter(self.why))]

    def find(self, digest: str) -> Msg | None:
        found = None
        for known, reason in self.why.items():  # every one compared, so the time says nothing
            if _same(known, digest):
                found = reason
        return found


class Seats:
    """The table's seat invitations and joined phones. Thread-safe."""

    def __init__(self, *, clock: Callable[[], float] = time.time, budget: GuessBudget | None = None) -> None:
        self.clock = clock
        self.budget = budget or GuessBudget(None, clock=clock, client_windows=CLIENT_WINDOWS,
                                            table_windows=TABLE_WINDOWS)
        self.own_moves = False  # may a phone make its player's own moves on their turn (a table setting)
        self._lock = threading.Lock()
        self._invites: dict[int, Invite] = {}  # by seat, for the game they are bound to now
        self._gone = _Gone()

    # --- the tablet's side (the web checks the PIN first) ------------------------------------
    def follow(self, game_id: int | None, players: Sequence[str]) -> None:
        """Bind the invitations to the open game: those of another game end, but a kept one follows
        its player (by name) into this game while the night lasts."""
        with self._lock:
            self._follow(game_id, players)

    def _follow(self, game_id: int | None, players: Sequence[str]) -> None:
        now = self.clock()
        kept: dict[int, Invite] = {}
        for invite in self._invites.values():
            if invite.game_id == game_id:
                kept[invite.seat] = invite
                continue
            lasts = invite.night and now - invite.at < NIGHT_HOURS * 3600
            if lasts and game_id is not None and invite.name in players:
                seat = list(players).index(invite.name)
                if seat not in kept:
                    kept[seat] = replace(invite, game_id=game_id, seat=seat)
                    continue
            self._gone.add(_digest(invite.token), ENDED)
            self._gone.add(invite.phone, ENDED)
        self._invites = kept

    def invites(self, game_id: int | None, players: Sequence[str]) -> list[Invite]:
        with self._lock:
            self._follow(game_id, players)
            return sorted(self._invites.values(), key=lambda i: i.seat)

    def invite(self, game_id: int, seat: int, name: str, *, night: bool = False) -> Invite:
        """A new invitation for ``seat`` (the old one, and its phone, withdrawn)."""
        with self._lock:
            self._withdraw(seat)
            invite = Invite(game_id, seat, name, secrets.token_urlsafe(16), new_code(), self.clock(), night)
            self._invites[seat] = invite
            return invite

    def revoke(self, seat: int) -> bool:
        """Withdraw ``seat``'s invitation and its phone; False when it had none."""
        with self._lock:
            return self._withdraw(seat)

    def _withdraw(self, seat: int) -> bool:
        old = self._invites.pop(seat, None)
        if old is None:
            return False
        self._gone.add(_digest(old.token), WITHDRAWN)
        self._gone.add(old.phone, WITHDRAWN)
        return True

    # --- the phone's side ----------------------------------------------------------------------
    def join(self, token: str, code: str, client: str) -> tuple[Phone, str]:
        """A phone joins with the link's token or the typed code: its seat and a new session (the
        seat's earlier phone is refused from now on). SeatRefused for anything else. While the
        budget of wrong guesses is spent no token or code is checked, the right one included."""
        with self._lock:
            wanted, typed = _digest(token), typed_code(code)
            seen: list[Invite | Msg] = []

            def attempt() -> bool:
                for invite in self._invites.values():  # each compared whole, found or not
                    if (token and _same(_digest(invite.token), wanted)) or (typed and _same(invite.code, typed)):
                        seen.append(invite)
                reason = self._gone.find(wanted) if token and not seen else None
                if reason is not None:
                    seen.append(reason)  # a token the table issued: refused with why, not counted
                return bool(seen)

            outcome = self.budget.spend(client, attempt)
            if isinstance(outcome, Refusal):
                raise SeatRefused(429, TOO_MANY, outcome.retry_after)
            if not seen:
                raise SeatRefused(403, UNKNOWN)
            found = seen[0]
            if not isinstance(found, Invite):
                raise SeatRefused(403, found)
            session = secrets.token_urlsafe(32)
            self._gone.add(found.phone, REPLACED)
            self._invites[found.seat] = replace(found, phone=_digest(session), joined=self.clock())
            return Phone(found.game_id, found.seat, found.name), session

    def phone(self, session: str, client: str) -> Phone:
        """Who ``session`` speaks for; SeatRefused (withdrawn, replaced, ended, or unknown: a guess)."""
        with self._lock:
            wanted = _digest(session)
            found = None
            for invite in self._invites.values():
                if invite.phone and _same(invite.phone, wanted):
                    found = invite
            if found is not None:
                return Phone(found.game_id, found.seat, found.name)
            reason = self._gone.find(wanted) if session else None
            if reason is not None:
                raise SeatRefused(403, reason)
            self._guessed(client)
            raise SeatRefused(403, UNKNOWN)

    def _guessed(self, client: str) -> None:
        """A wrong token or code: counted, or refused unchecked while the budget is spent."""
        outcome = self.budget.spend(client, lambda: False)
        if isinstance(outcome, Refusal):
            raise SeatRefused(429, TOO_MANY, outcome.retry_after)
