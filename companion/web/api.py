"""The JSON API. Reading is open to every page; changing the game needs the table PIN.

Errors are JSON ``{"error": "..."}`` written for the players: 400 for a malformed request, 403 for a
missing or wrong PIN, 409 for a move the rules refuse now, 404 for an unknown game. A refused request
changes nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request, stream_with_context

from companion.games.base import MalformedAction, RuleViolation
from companion.games.messages import Msg, msg, raw
from companion.store.journal import JournalUnavailable
from companion.store.record import RecordError, loads, summary_line
from companion.table.pin import PinError, TablePin
from companion.table.session import Table
from companion.web.guard import refused_pin
from companion.web.hub import Hub, TooManyStreams
from companion.web.language import bundle, localize_response, request_language
from companion.web.parking import PARK, parks

api = Blueprint("api", __name__, url_prefix="/api")
api.after_request(localize_response)  # every answer's messages in the page's language


def ctx() -> dict[str, Any]:
    extensions: dict[str, Any] = current_app.extensions["companion"]
    return extensions


def table() -> Table:
    t: Table = ctx()["table"]
    return t


def device() -> str:
    """Who sent this request: the tablet's own id (kept in its browser), else its address."""
    name = request.headers.get("X-Device", "").strip()[:40]
    return f"tablet:{name}" if name else f"web:{request.remote_addr}"


def pin() -> TablePin:
    p: TablePin = ctx()["pin"]
    return p


class ApiError(Exception):
    def __init__(self, status: int, message: Msg | str) -> None:
        super().__init__(str(message))
        self.msg = message if isinstance(message, Msg) else raw(message)
        self.status = status


@api.errorhandler(ApiError)
def api_error(exc: ApiError) -> Any:
    return jsonify(error=exc.msg.to_json()), exc.status


@api.errorhandler(MalformedAction)
def malformed(exc: MalformedAction) -> Any:
    # ``kind`` lets the tablet put a sentence for the players in place of the field-level detail
    return jsonify(error=exc.msg.to_json(), kind="malformed"), 400


@api.errorhandler(RuleViolation)
def refused(exc: RuleViolation) -> Any:
    return jsonify(error=exc.msg.to_json()), 409


@api.errorhandler(JournalUnavailable)
def unavailable(exc: JournalUnavailable) -> Any:
    return jsonify(error=str(exc)), 503, {"Retry-After": "10"}


@api.errorhandler(RecordError)
def bad_record(exc: RecordError) -> Any:
    return jsonify(error=msg("The record cannot be imported: {reason}", reason=exc.msg).to_json()), 400


def needs_pin(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = request.headers.get("X-Table-Pin", "")
        if not given:
            raise ApiError(403, msg("Enter the table PIN to change the game."))
        if not pin().matches(given):
            refused_pin()
            raise ApiError(403, msg("That PIN is not this table's PIN."))
        return view(*args, **kwargs)

    return wrapper


def body() -> dict[str, Any]:
    try:
        data = loads(request.get_data(as_text=True))
    except ValueError as exc:
        raise ApiError(400, f"The request needs a JSON object body; this one is {exc}.") from None
    if not isinstance(data, dict):
        raise ApiError(400, msg("The request needs a JSON object body."))
    return data


@api.get("/health")
def health() -> Any:
    """For the health page and the kiosk's wait-until-up loop: which parts are real, and the Pi's vitals."""
    rig = ctx()["devices"]
    config = ctx()["config"]
    probe = ctx().get("probe")
    if probe is None:
        from companion.hardware.health import HealthProbe

        probe = ctx()["probe"] = HealthProbe(data_dir=config.store.data_dir, journal=config.store.journal_path)
    system = probe.read().as_dict()
    devices = dict(table().status.get("devices", {}))
    if rig is not None:
        system.update(rig.health())
        devices.update(rig.status())
    return jsonify(ok=True, safe_mode=bool(table().status.get("banner")), devices=devices, system=system)


@api.get("/openapi.json")
def openapi() -> Any:
    """This API described in OpenAPI 3 (what the harness fuzzes)."""
    from companion.web.openapi import spec

    return jsonify(spec())


@api.get("/state")
def state() -> Any:
    """The current view, in the page's language: the rendering its event stream was sent (cached)."""
    view = table().latest_view()
    lang = request_language()
    text = ctx()["frames"].view(int(view.get("version", 0)), json.dumps(view, separators=(",", ":")), lang)
    g.localized = True
    return Response(text, mimetype="application/json", headers={"Content-Language": lang})


@api.post("/pin")
@needs_pin
def check_pin() -> Any:
    return jsonify(ok=True)


@api.post("/pin/change")
def change_pin() -> Any:
    """``{"old": "1234", "new": "8642"}``: the table's PIN from now on (kept across restarts)."""
    data = body()
    old, new = data.get("old"), data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        raise ApiError(400, 'Give the old and the new PIN: {"old": "...", "new": "..."}.')
    if not pin().matches(old):
        refused_pin()
        raise ApiError(403, "The old PIN is not this table's PIN.")
    try:
        pin().change(old, new)
    except PinError as exc:
        raise ApiError(400, str(exc)) from None
    except OSError as exc:
        raise ApiError(503, f"The new PIN could not be saved ({exc.strerror}); the old one still holds.") from None
    return jsonify(ok=True)


@api.get("/journal")
def journal_status() -> Any:
    """Whether the journal is whole and saving; when it is damaged, the backup the tablet offers."""
    recovery = ctx().get("recovery")
    if recovery is None:
        return jsonify(damaged=False, saving=table().journal.refuse is None, problems=[], offer=None)
    return jsonify(recovery.status())


@api.post("/journal/recover")
@needs_pin
def recover_journal() -> Any:
    """Safe mode: put the newest good backup in place of the damaged journal (``{"empty": true}``:
    start an empty one) and play on it; the damaged files are moved aside, untouched."""
    recovery = ctx().get("recovery")
    data = body() if request.get_data() else {}
    empty = data.get("empty", False)
    if not isinstance(empty, bool):
        raise ApiError(400, '"empty" is true or false.')
    if recovery is None:
        raise ApiError(409, "The journal is whole: there is nothing to restore.")
    try:
        return jsonify(recovery.restore(table(), empty=empty))
    except ValueError as exc:
        raise ApiError(409, str(exc)) from None
    except OSError as exc:
        reason = exc.strerror or exc
        raise ApiError(503, f"The backup could not be put in place ({reason}); nothing was changed.") from None


@api.get("/games")
def games() -> Any:
    return jsonify(games=[summarized(g.to_json()) for g in table().journal.games()], current=table().game_id)


def summarized(game: dict[str, Any]) -> dict[str, Any]:
    """A stored game's summary is its outcome's message as JSON (older journals: English text)."""
    summary = game.get("summary")
    if isinstance(summary, str) and summary.startswith("{"):
        with contextlib.suppress(ValueError):
            game["summary"] = json.loads(summary)
    return game


@api.get("/i18n.js")
@api.get("/i18n/<lang>.js")
def i18n_bundle(lang: str | None = None) -> Any:
    """The page scripts' words and plural rule in the page's language (or ``lang``)."""
    response = Response(bundle(lang or request_language()), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@api.post("/games")
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
    game_id = table().new_game(game, players, options, title if isinstance(title, str) else "", data.get("odds"))
    return jsonify(id=game_id), 201


@api.post("/games/<int:game_id>/open")
@needs_pin
def open_game(game_id: int) -> Any:
    if table().journal.game(game_id) is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    table().open(game_id)
    return jsonify(id=game_id)


@api.get("/games/<int:game_id>/record")
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


@api.get("/games/<int:game_id>/stats")
def game_stats(game_id: int) -> Any:
    """The end-of-game statistics (only once the game is over: they would give away hidden money)."""
    from companion.store.stats import game_stats as stats_of

    if table().journal.game(game_id) is None:
        raise ApiError(404, msg("There is no game number {game}.", game=game_id))
    timeline = table().timeline_of(game_id)
    if timeline.rules.outcome(timeline.state) is None:
        raise ApiError(409, msg("The statistics come at the end of the game."))
    return jsonify(stats_of(timeline))


@api.get("/odds")
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
    stake = request.args.get("stake", type=int)
    key = (game_id, steps, entries)
    result = table_odds(timeline.header.game, state, seed=hash(key) & 0xFFFFFFFF, clock=time.perf_counter, stake=stake)
    return jsonify(settings=settings, odds=result, inputs=steps)


@api.put("/odds/settings")
@needs_pin
def set_odds() -> Any:
    """Switch the open game's odds on or off, or say where they show: ``{"on": true, "where": "ask"}``."""
    return jsonify(settings=table().set_odds(body()))


@api.get("/games/<int:game_id>/history")
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
    return jsonify(story(row, entries))


def _before_secret(entries: list[dict[str, Any]], steps: list[Any]) -> list[dict[str, Any]]:
    """The entries up to the open secret choice (the choices already made stay hidden)."""
    hidden = sum(1 for step in reversed(steps) if step.entry.get("action", {}).get("type") == "choose")
    kept = list(entries)
    while hidden and kept:
        if kept[-1].get("action", {}).get("type") == "choose":
            hidden -= 1
        kept.pop()
    return kept


@api.post("/games/import")
@needs_pin
def import_game() -> Any:
    try:
        text = request.get_data().decode("utf-8-sig")  # a byte-order mark is allowed, as in replay
    except UnicodeDecodeError:
        raise ApiError(400, msg("A game record is UTF-8 text.")) from None
    game_id = table().import_record(text.splitlines())
    return jsonify(id=game_id), 201


@api.post("/input")
@needs_pin
def submit() -> Any:
    data = body()
    if "action" not in data:
        raise ApiError(400, msg('The request needs an "action".'))
    events = table().submit(data["action"], device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@api.post("/undo")
@needs_pin
def undo() -> Any:
    events = table().undo(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@api.post("/redo")
@needs_pin
def redo() -> Any:
    events = table().redo(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


@api.post("/next")
@needs_pin
def next_option() -> Any:
    table().next_option(device=device())
    return jsonify(version=table().version)


@api.post("/confirm")
@needs_pin
def confirm() -> Any:
    events = table().confirm(device=device())
    return jsonify(events=[e.to_json() for e in events], version=table().version)


def devices() -> Any:
    rig = ctx()["devices"]
    if rig is None:
        raise ApiError(404, msg("No camera or buttons are attached to this companion."))
    return rig


@api.post("/buttons/<name>")
@needs_pin
def press_button(name: str) -> Any:
    """The mock-hardware panel: press a simulated button (through the same pins as a real one)."""
    data = body() if request.get_data() else {}
    hold = data.get("hold", 0.0)
    if not isinstance(hold, int | float) or isinstance(hold, bool) or not 0 <= hold <= 10:
        raise ApiError(400, msg("hold is a number of seconds between 0 and 10."))
    devices().press(name, hold=float(hold))
    return jsonify(ok=True, version=table().version)


@api.post("/camera/roll")
@needs_pin
def simulated_roll() -> Any:
    """Mock mode: the simulated camera shows a random roll of the dice the game waits for."""
    reading = devices().simulate_roll()
    return jsonify(reading=reading, version=table().version)


@api.get("/calibration")
def calibration() -> Any:
    """The guided calibration: whether it runs, the reading to correct, and what it has taught."""
    return jsonify(devices().calibration_status())


@api.post("/calibration")
@needs_pin
def start_calibration() -> Any:
    """Start teaching the reader the table's dice: ``{"faces": [1, 2, 3, 4, 5, "worm"], "count": 8}``,
    both optional (plain dice 1-6; any number of dice)."""
    from companion.table.calibration import PLAIN, DiceSet

    rig = devices()
    data = body()
    faces, count = data.get("faces", list(PLAIN)), data.get("count")
    if not isinstance(faces, list) or not all(type(f) in (int, str) for f in faces):
        raise ApiError(400, msg('List the faces the dice have, e.g. "faces": [1, 2, 3, 4, 5, 6].'))
    if count is not None and type(count) is not int:
        raise ApiError(400, msg("The number of dice is a whole number."))
    return jsonify(rig.start_calibration(DiceSet(tuple(faces), count)))


@api.post("/calibration/roll")
@needs_pin
def calibration_roll() -> Any:
    """Mock mode: the simulated camera shows a random roll of the set being taught."""
    return jsonify(devices().calibration_roll())


@api.post("/calibration/confirm")
@needs_pin
def confirm_calibration() -> Any:
    """Learn the shown reading: ``{"faces": [...], "reading": n}``, one face per die in the reading's
    order (corrections included); ``reading`` is the number of the reading corrected."""
    rig = devices()
    data = body()
    faces, number = data.get("faces"), data.get("reading")
    if not isinstance(faces, list) or not faces or not all(type(f) in (int, str) for f in faces):
        raise ApiError(400, msg('List one face for each die read, in the reading\'s order, e.g. "faces": [3, 1, 6].'))
    if number is not None and type(number) is not int:
        raise ApiError(400, msg("The reading is named by its number."))
    learnt = rig.confirm_calibration(faces, number)
    return jsonify(learnt=learnt, calibration=rig.calibration_status())


@api.delete("/calibration")
@needs_pin
def stop_calibration() -> Any:
    rig = devices()
    taught = rig.stop_calibration()
    return jsonify(taught={"rolls": taught["rolls"], "dice": taught["dice"]}, calibration=rig.calibration_status())


@api.post("/calibration/empty")
@needs_pin
def capture_empty() -> Any:
    """Capture the empty tray: a few still frames with no die in them become the reference the reader
    compares every frame with (refused, nothing changed, if something moves or a die is in view)."""
    return jsonify(devices().capture_empty())


@api.delete("/calibration/empty")
@needs_pin
def forget_empty() -> Any:
    rig = devices()
    forgot = rig.forget_empty()
    return jsonify(forgot=forgot, calibration=rig.calibration_status())


@api.delete("/profile")
@needs_pin
def forget_dice() -> Any:
    """A new dice set at the table: what the reader learnt of the old one is deleted."""
    rig = devices()
    forgot = rig.forget_dice()
    return jsonify(forgot=forgot, calibration=rig.calibration_status())


@api.get("/camera/frame.jpg")
def camera_frame() -> Any:
    jpeg = devices().frame_jpeg()
    if jpeg is None:
        raise ApiError(404, msg("The camera has not produced a frame yet."))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@api.get("/events")
def events() -> Any:
    """The page's event stream: parked after its first view under the companion's server (no thread
    held while the page watches), a generator holding a thread under any other."""
    hub: Hub = ctx()["hub"]
    try:
        client = request.remote_addr or ""
        render = ctx()["frames"].renderer(request_language())  # each view in this page's language
        if parks(request.environ):
            stream, head = hub.open(table().latest_view(), client=client, render=render)
            request.environ[PARK] = stream
            body: Iterator[bytes] = iter([head])  # an iterator, not a list: no Content-Length, so chunked
        else:
            body = stream_with_context(
                hub.stream(table().latest_view(), request.headers.get("Last-Event-ID"), client=client, render=render)
            )
    except TooManyStreams as exc:
        return jsonify(error=str(exc)), 503, {"Retry-After": "5"}
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
