"""The games played at this table: list, start, open, import and export them, their story and
statistics, and the odds for the position on the table."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.games.messages import msg
from companion.store.record import summary_line
from companion.table.titles import MAX_TITLE
from companion.web.api.context import body, needs_pin, table
from companion.web.api.errors import ApiError
from companion.web.api.players import roster
from companion.web.read_cache import cached_read

games_api = Blueprint("games", __name__)


@games_api.get("/games")
def games() -> Any:
    # a deleted player's seat shows as "#2" (the journal hides it: companion.store.hidden)
    listed = [summarized(g.to_json()) for g in table().journal.games()]
    return jsonify(games=listed, current=table().game_id)


def summarized(game: dict[str, Any]) -> dict[str, Any]:
    """A stored game's summary is its outcome's message as JSON (older journals: English text). A title
    stored before titles were limited is cut to the limit: the list goes to every page."""
    title = game.get("title")
    if isinstance(title, str) and len(title) > MAX_TITLE:
        game["title"] = title[: MAX_TITLE - 1] + "…"
    summary = game.get("summary")
    if isinstance(summary, str) and summary.startswith("{"):
        with contextlib.suppress(ValueError):
            game["summary"] = json.loads(summary)
    return game


@games_api.post("/games")
@needs_pin
def new_game() -> Any:
    data = body()
    game, players, options = data.get("game"), data.get("players"), data.get("options", {})
    if not isinstance(game, str):
        raise ApiError(400, msg("Say which game to start."))
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ApiError(400, msg("List the players by name."))
    if not isinstance(options, dict):
        raise ApiError(400, msg("Options must be a JSON object."))
    title = data.get("title", "")
    colours = _colours(data.get("colours"), len(players))
    game_id = table().new_game(
        game, players, options, title if isinstance(title, str) else "", data.get("odds"), colours=colours
    )
    if colours:
        roster(sync=False).keep_colours(players, colours)  # each player's usual colour, for every tablet
    return jsonify(id=game_id), 201


def _colours(value: Any, seats: int) -> list[str] | None:
    """The seats' colours (``["red", "blue"]``), one a seat, each a short word; none is fine."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != seats
        or not all(isinstance(c, str) and c.isascii() and c.isalpha() and len(c) <= 16 for c in value)
    ):
        raise ApiError(400, msg("Give one colour a player, each a word such as red."))
    return [c.lower() for c in value]


@games_api.post("/games/<int:game_id>/open")
@needs_pin
def open_game(game_id: int) -> Any:
    if table().journal.game(game_id) is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    table().open(game_id)
    return jsonify(id=game_id)


@games_api.get("/games/<int:game_id>/record")
@cached_read
def export_game(game_id: int) -> Any:
    row = table().journal.game(game_id)
    if row is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    if table().secret_pending(game_id):
        # the record holds the choices made so far: it would give them away
        raise ApiError(409, msg("Export the game once every player has made their secret choice."))
    lines = list(table().journal.export_lines(game_id))
    summary = summary_line(table().timeline_of(game_id))
    text = "\n".join(lines + ([summary] if summary else [])) + "\n"
    name = f"{row.game}-{game_id}.jsonl"
    return Response(
        text,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@games_api.get("/games/<int:game_id>/stats")
@cached_read
def game_stats(game_id: int) -> Any:
    """The end-of-game statistics (only once the game is over: they would give away hidden money)."""
    from companion.store.stats import game_stats as stats_of

    if table().journal.game(game_id) is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    timeline = table().timeline_of(game_id)
    if timeline.rules.outcome(timeline.state) is None:
        raise ApiError(409, msg("The statistics come at the end of the game."))
    return jsonify(stats_of(timeline))


@games_api.get("/games/<int:game_id>/history")
@cached_read
def game_history(game_id: int) -> Any:
    """The whole game for the history, results and chart: every entry (undone ones marked), scores."""
    from companion.web.history import game_history as story

    row = table().journal.game(game_id)
    if row is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    entries = list(table().journal.entries(game_id))
    if table().secret_pending(game_id):  # the open game or another one left mid-choice
        # secret choices made so far would show in the story: it stops before the first of them
        timeline = table().timeline_of(game_id)
        entries = _before_secret(entries, timeline.steps if timeline is not None else [])
    told = story(row, entries)
    timeline = table().timeline_of(game_id)
    if hides(timeline.rules, timeline.state, choices=False):  # the story already stops before the choices
        # a game in progress hiding something (face-down money): the scores would give it away
        told = {**told, "series": [], "rounds": []}
    return jsonify(told)


def hides(rules: Any, state: Any, *, choices: bool = True) -> bool:
    """Whether a game in progress hides something one seat alone may see: a secret choice under way,
    or a scoreboard the pages get without a player's own part (face-down money)."""
    if rules.outcome(state) is not None:
        return False
    secret = choices and rules.awaiting(state).kind == "secret"
    return bool(secret or rules.shown(state) != rules.scoreboard(state))


def _before_secret(entries: list[dict[str, Any]], steps: list[Any]) -> list[dict[str, Any]]:
    """The entries up to the open secret choice (the choices already made stay hidden)."""
    hidden = sum(1 for step in reversed(steps) if step.entry.get("action", {}).get("type") == "choose")
    kept = list(entries)
    while hidden and kept:
        if kept[-1].get("action", {}).get("type") == "choose":
            hidden -= 1
        kept.pop()
    return kept


@games_api.post("/games/import")
@needs_pin
def import_game() -> Any:
    try:
        text = request.get_data().decode("utf-8-sig")  # a byte-order mark is allowed, as in replay
    except UnicodeDecodeError:
        raise ApiError(400, msg("A game record is UTF-8 text.")) from None
    game_id = table().import_record(text.splitlines())
    return jsonify(id=game_id), 201


@games_api.get("/odds")
def odds() -> Any:
    """The odds for the position on the table, when the table has switched them on for this game.
    ``?stake=N``: the bet to price a Lords of Vegas gamble at (else the largest allowed)."""
    import time

    from companion.odds.service import table_odds

    t = table()
    with t._lock:
        timeline, game_id = t.timeline, t.game_id
        if timeline is None or game_id is None:
            raise ApiError(409, msg("No game is open; start a new game first."))
        settings = t.odds_settings()
        state, steps, entries = timeline.state, len(timeline.steps), timeline.entries
    if not settings["on"]:
        raise ApiError(409, msg("The odds are off for this game; the table can switch them on with the PIN."))
    if hides(timeline.rules, state):
        raise ApiError(409, msg(
            "No odds while a player's secret is open (face-down money, a secret choice): they would give it away."
        ))
    stake = request.args.get("stake", type=int)
    key = (game_id, steps, entries)
    result = table_odds(timeline.header.game, state, seed=hash(key) & 0xFFFFFFFF, clock=time.perf_counter, stake=stake)
    return jsonify(settings=settings, odds=result, inputs=steps)


@games_api.put("/odds/settings")
@needs_pin
def set_odds() -> Any:
    """Switch the open game's odds on or off, or say where they show: ``{"on": true, "where": "ask"}``."""
    return jsonify(settings=table().set_odds(body()))
