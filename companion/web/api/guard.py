"""The web side of the table's door: which budget a request spends, and the answer to each verdict.

A request may change the game with a session (``X-Table-Session``, what the tablet keeps once the
PIN was given right) or the PIN itself (``X-Table-Pin``, for scripts and the first check). The PIN is
checked below the web (``companion.access.table_access``), under one budget whatever route carries it: 403
for a wrong PIN (logged), 429 with ``Retry-After`` while a budget is spent, 503 while the kept PIN is
damaged (with a banner on every tablet). Reading never needs either.
"""

from __future__ import annotations

import logging

from flask import request

from companion.access.budget import client_key
from companion.access.table_access import TableAccess, Verdict
from companion.games.messages import Msg, msg
from companion.table.session import Table
from companion.web.api.errors import ApiError
from companion.web.trust import vouch

log = logging.getLogger("companion.access.pin")

BANNER = "pin"  # the table status key of the damaged-PIN banner
TOO_MANY_HERE = msg(
    "Too many wrong PINs from this device: wait a while, or ask someone at the table to hold "
    "the reread button to unlock."
)
TOO_MANY_AT_TABLE = msg(
    "Too many wrong PINs at this table: no PIN is taken for a while. Tablets already unlocked play on; "
    "someone at the table can hold the reread button to unlock."
)
DAMAGED = msg(
    "The table's kept PIN is damaged, so no PIN is taken: set a new one on the companion's console "
    "with `companion pin set`. Tablets already unlocked play on."
)
SESSION_ENDED = msg(
    "This tablet's session has ended (the PIN was changed, or 30 days passed): enter the table PIN again."
)


def client() -> str:
    return client_key(request.remote_addr)


def admit(access: TableAccess, table: Table) -> bool:
    """Let the request change the game, or raise the ApiError that says why not. True when it was let
    in by the PIN (it may then be given a session), False by its session."""
    show_damage(access.pin.damage, table)  # a PIN set on the console meanwhile takes the banner away
    token = request.headers.get("X-Table-Session", "")
    if token and access.session_open(token):
        vouch()  # this address is the table's: served first under load (companion/web/trust.py)
        return False
    given = request.headers.get("X-Table-Pin", "")
    if not given:
        raise ApiError(403, SESSION_ENDED if token else msg("Enter the table PIN to change the game."))
    answer(access.check(given, client()), table, msg("That PIN is not this table's PIN."))
    vouch()
    return True


def answer(verdict: Verdict, table: Table, wrong: Msg | str) -> None:
    """Nothing for a right PIN; else the ApiError for the verdict (``wrong``: a checked, wrong PIN)."""
    show_damage(verdict.damage, table)
    if verdict.damage:
        raise ApiError(503, DAMAGED)
    if verdict.refusal is not None:
        text = TOO_MANY_AT_TABLE if verdict.refusal.table else TOO_MANY_HERE
        raise ApiError(429, text, headers={"Retry-After": str(verdict.refusal.retry_after)})
    if not verdict.right:
        log.warning("wrong table PIN from %s (%s %s)", client(), request.method, request.path)
        raise ApiError(403, wrong)


def show_damage(damage: str | None, table: Table) -> None:
    """The banner on every tablet while the kept PIN is damaged; gone once a new PIN is set."""
    if bool(damage) != bool(table.status.get(BANNER)):
        table.set_status(BANNER, DAMAGED.to_json() if damage else None)
