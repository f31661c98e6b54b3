"""The play logged where the players already log it: a finished game's BG Stats push link and its QR
code, a CSV of every play, and the whole history as one JSON file and back (the import needs the PIN,
and taking the same file twice adds nothing)."""

from __future__ import annotations

import zlib
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.games.messages import msg
from companion.store.bgstats import play, plays_csv, push_link
from companion.store.history import export_history, import_history
from companion.store.nights import nights
from companion.store.played import Played
from companion.store.ratings import rate
from companion.store.record import loads
from companion.web.api.context import needs_pin, table
from companion.web.api.errors import ApiError
from companion.web.api.players import roster
from companion.web.qr import qr_svg

plays_api = Blueprint("plays", __name__)


def finished(game_id: int) -> tuple[Played, list[Played]]:
    """The game's stored result and every result; 404 for a game that is unknown or not over."""
    everything = roster().played()
    mine = next((p for p in everything if p.game_id == game_id), None)
    if mine is None:
        if table().journal.game(game_id) is None:
            raise ApiError(404, msg("There is no game number {game}.", game=game_id))
        raise ApiError(404, msg("Game {game} is not over yet.", game=game_id))
    return mine, everything


@plays_api.get("/games/<int:game_id>/result")
def result(game_id: int) -> Any:
    """The end of a game for the page: each seat's place, rating and change, and wins tonight."""
    mine, everything = finished(game_id)
    history = rate(everything).get(mine.game, {})
    night = next(n for n in nights(everything) if mine in n.games)
    tonight = night.games[: night.games.index(mine) + 1]  # wins up to this game, not later ones
    seats = []
    for s in mine.seats:
        change = next((c for c in history.get(s.player, []) if c.game_id == game_id), None) if s.player else None
        seats.append(
            {
                "seat": s.seat,
                "player": s.player,
                "name": s.name,
                "score": s.score,
                "place": s.place,
                "rating": None if change is None else round(change.after),
                "delta": None if change is None else round(change.after) - round(change.before),
                "wins_tonight": None
                if s.player is None
                else sum(any(w.player == s.player for w in g.winners()) for g in tonight),
            }
        )
    return jsonify(game_id=game_id, game=mine.game, played=mine.played, seats=seats, bgstats=push_link(mine))


@plays_api.get("/games/<int:game_id>/bgstats")
def bgstats(game_id: int) -> Any:
    mine, _ = finished(game_id)
    return jsonify(url=push_link(mine), play=play(mine))


@plays_api.get("/games/<int:game_id>/bgstats.svg")
def bgstats_qr(game_id: int) -> Any:
    mine, _ = finished(game_id)
    return Response(qr_svg(push_link(mine)), mimetype="image/svg+xml")


@plays_api.get("/plays.csv")
def plays() -> Any:
    return Response(
        plays_csv(roster().played()),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="plays.csv"'},
    )


@plays_api.get("/history")
def history() -> Any:
    response = jsonify(export_history(table().journal))
    response.headers["Content-Disposition"] = 'attachment; filename="history.json"'
    return response


@plays_api.post("/history")
@needs_pin
def take_history() -> Any:
    try:
        data = loads(_unzipped(request.get_data()).decode("utf-8-sig"))
    except ValueError as exc:
        raise ApiError(400, f"The history file is not JSON: {exc}.") from None
    taken = import_history(table().journal, data)
    roster(sync=False).keep(taken.results)  # from the replays just made: no answer replays them again
    return jsonify(added=taken.added, skipped=taken.skipped)


UNZIPPED = 128 * 1024 * 1024  # a gzipped history file unpacks to at most this (a few thousand games)


def _unzipped(data: bytes) -> bytes:
    """The history file as sent, or unpacked when it was gzipped (``gzip history.json``: about a tenth
    of the size on the Wi-Fi); a file that would unpack past ``UNZIPPED`` is refused, not unpacked."""
    if not data.startswith(b"\x1f\x8b"):
        return data
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unpack.decompress(data, UNZIPPED + 1)
    except zlib.error as exc:
        raise ApiError(400, f"The history file is not a whole gzip file: {exc}.") from None
    if len(out) > UNZIPPED or unpack.unconsumed_tail:
        raise ApiError(413, msg("The history file unpacks to more than {size} MB.", size=UNZIPPED // (1024 * 1024)))
    if not unpack.eof:
        raise ApiError(400, "The history file is not a whole gzip file: it ends too soon.")
    return out
