"""The lasting players: their list, each one's page, a game's leaderboard and the game nights (open to
every page), and the changes to them (rename, merge, delete, fix a seat's match; these need the PIN).

Each answer first stores the results of games finished since the last one (``Roster.sync``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.games import get_rules
from companion.games.messages import msg
from companion.store.boards import Boards
from companion.store.players import Player, Roster, UnknownPlayer
from companion.web.api.context import body, ctx, needs_pin, table
from companion.web.api.errors import ApiError

players_api = Blueprint("players", __name__)


def roster(*, sync: bool = True) -> Roster:
    """The table's journal's players, synced; made again when the journal was replaced (a restore)."""
    journal = table().journal
    kept: Roster | None = ctx().get("roster")
    if kept is None or kept.journal is not journal:
        kept = Roster(journal)
        ctx()["roster"] = kept
    if sync:
        kept.sync()
    return kept


def boards() -> Boards:
    r = roster()
    return Boards(r.players(), r.played(), r.colours())


def known(r: Roster, player_id: int) -> Player:
    try:
        return r.player(player_id)
    except UnknownPlayer as exc:
        raise ApiError(404, exc.msg) from None


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, msg("The request needs {field} as a whole number.", field=key))
    return value


@players_api.get("/players")
def players() -> Any:
    return jsonify(players=boards().all_players())


@players_api.get("/players/<int:player_id>")
def player(player_id: int) -> Any:
    b = boards()
    return jsonify(b.player(known(roster(), player_id)))


@players_api.get("/leaderboard/<game>")
def leaderboard(game: str) -> Any:
    get_rules(game)  # an unknown game: 409 naming the games there are
    return jsonify(boards().leaderboard(game))


@players_api.get("/nights")
def nights() -> Any:
    return jsonify(nights=boards().nights())


@players_api.put("/players/<int:player_id>")
@needs_pin
def rename(player_id: int) -> Any:
    name = body().get("name")
    if not isinstance(name, str):
        raise ApiError(400, msg("The request needs {field} as text.", field="name"))
    r = roster()
    known(r, player_id)
    renamed = r.rename(player_id, name)
    return jsonify(id=renamed.id, name=renamed.name)


@players_api.post("/players/<int:player_id>/merge")
@needs_pin
def merge(player_id: int) -> Any:
    gone = _int(body(), "from")
    r = roster()
    known(r, player_id)
    known(r, gone)
    kept = r.merge(player_id, gone)
    return jsonify(id=kept.id, name=kept.name)


@players_api.delete("/players/<int:player_id>")
@needs_pin
def delete(player_id: int) -> Any:
    r = roster()
    known(r, player_id)
    changed = r.delete(player_id)
    t = table()
    if t.game_id in changed:  # the game on the table shows the seat's new label at once
        t.open(t.game_id)
    return jsonify(deleted=player_id)


@players_api.put("/games/<int:game_id>/seats/<int:seat>")
@needs_pin
def assign(game_id: int, seat: int) -> Any:
    player_id = _int(body(), "player")
    r = roster()
    known(r, player_id)
    r.assign(game_id, seat, player_id)
    return jsonify(game_id=game_id, seat=seat, player=player_id)
