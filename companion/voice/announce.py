"""From the table's views to what is said: the announcer compares each view with the one before.

The table publishes its whole view on every change, with the events of that change (``news``). The
announcer turns a view into announcements: the change's events (``events.py``), a new camera reading,
a new turn, a new question and the option the buttons highlight. It reads views only, never the
session, and keeps just the previous view's few facts it compares against. One announcer serves the
Pi's speaker and every tablet: each listener picks the kinds it wants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import companion.voice.words as words
from companion.games.messages import Msg, msg, nmsg, raw
from companion.voice.events import Announcement, name_of, said


@dataclass(frozen=True)
class _Seen:
    """What the previous view showed, as far as the announcer compares."""

    game: Any = None
    inputs: int = -1
    players: tuple[int, ...] = ()
    prompt: Any = None
    highlight: int | None = None
    reading: Any = None
    notice_at: Any = None
    bosses: tuple[tuple[str, Any], ...] = ()


class Announcer:
    """Feed it every view in order (``announce``); it returns what that change should say."""

    def __init__(self) -> None:
        self._seen = _Seen()  # nothing seen yet: the first view with a game says whose turn it is
        self._said_dice: list[Any] | None = None  # the reading just said: its roll is not said again

    def announce(self, view: Mapping[str, Any]) -> list[Announcement]:
        game = view.get("game") or None
        status = view.get("status") or {}
        seen, now = self._seen, self._facts(view)
        self._seen = now
        out: list[Announcement] = []
        if now.notice_at != seen.notice_at and status.get("notice"):
            out.append(Announcement("notice", _notice(status["notice"])))
        if game is None:
            return out
        fresh = now.game != seen.game
        for event in game.get("news") or []:
            if event.get("kind") == "rolled" and self._said_dice is not None and _faces(
                    (event.get("data") or {}).get("dice")) == self._said_dice:
                continue  # the camera's reading was said already; confirming it adds nothing
            found = said(event, game)
            if found is not None:
                out.append(found)
        if now.inputs != seen.inputs or fresh:
            self._said_dice = None
        out += self._reading(game, seen, now)
        out += _bosses(game, seen, now) if not fresh else []
        awaiting = game.get("awaiting") or {}
        if awaiting.get("kind") in (None, "over"):
            return out
        if now.players != seen.players or fresh:
            out += _turn(game, awaiting)
        if now.prompt != seen.prompt or now.inputs != seen.inputs or fresh:
            out.append(Announcement("ask", Msg.from_json(awaiting["prompt"])))
            out += _options(game, awaiting, new=True)
        elif now.highlight != seen.highlight:
            out += _options(game, awaiting, new=False)
        return out

    def _facts(self, view: Mapping[str, Any]) -> _Seen:
        game = view.get("game") or {}
        awaiting = game.get("awaiting") or {}
        options = awaiting.get("options") or []
        notice = (view.get("status") or {}).get("notice") or {}
        board = game.get("scoreboard") or {}
        bosses = tuple(sorted((str(lot), c.get("boss")) for c in board.get("casinos") or []
                              if isinstance(c, Mapping) for lot in c.get("lots") or []))
        return _Seen(
            game=game.get("id"),
            inputs=int(game.get("inputs", -1)),
            players=tuple(awaiting.get("players") or ()),
            prompt=awaiting.get("prompt"),
            highlight=next((i for i, o in enumerate(options) if o.get("highlighted")), None),
            reading=game.get("reading"),
            notice_at=notice.get("at") if isinstance(notice, Mapping) else None,
            bosses=bosses,
        )

    def _reading(self, game: Mapping[str, Any], seen: _Seen, now: _Seen) -> list[Announcement]:
        reading = now.reading
        if reading is None or reading == seen.reading:
            return []
        awaiting = game.get("awaiting") or {}
        expected = int((awaiting.get("dice") or {}).get("count", len(reading)))
        if len(reading) != expected:
            text = msg("The camera sees one die, not {rolled}.", rolled=expected) if len(reading) == 1 else nmsg(
                "The camera sees {n} die, not {rolled}.", "The camera sees {n} dice, not {rolled}.", len(reading),
                rolled=expected)
            return [Announcement("unsure", text)]
        unsure = [i + 1 for i, d in enumerate(reading) if _unsure(d)]
        if unsure:
            return [Announcement("unsure", nmsg("Check die number {dice}.", "Check dice number {dice}.",
                                                len(unsure), dice=[str(i) for i in unsure]))]
        self._said_dice = _faces(reading)
        player = str(name_of(game, (awaiting.get("players") or [None])[0]))
        if any(isinstance(d, Mapping) and d.get("colour") == "white" for d in reading) and game.get(
                "name") == "lasvegas":
            return [Announcement("dice", words.coloured_dice(reading, player))]
        return [Announcement("dice", msg("The camera reads {dice}.",
                                         dice=words.dice_words([words.die_face(d) for d in reading])))]


def _faces(dice: Any) -> list[Any]:
    return sorted(str(words.die_face(d)) for d in dice or [])


def _unsure(die: Any) -> bool:
    """A die the reader doubts (only a real camera's reading carries confidence and state)."""
    if not isinstance(die, Mapping) or "confidence" not in die:
        return False
    from companion.vision.tuning import UNCERTAIN

    return bool(die.get("state", "settled") != "settled" or float(die["confidence"]) < UNCERTAIN)


def _notice(notice: Any) -> Msg:
    """A notice as said: a refused press says only why (the page shows which button); a chattering
    button is named by what it does on the page, not said by its pin name."""
    text = notice.get("text") if isinstance(notice, Mapping) else notice
    if not isinstance(text, Mapping):
        return raw(str(text))
    found = Msg.from_json(text)
    problem = found.params.get("problem")
    if found.id == "{device}: {problem}" and isinstance(problem, Msg):
        return problem
    if found.id == "{device} is noisy and ignored":
        return msg("A button chatters and is ignored until it is calm.")
    if found.id == "{device} is calm again":
        return msg("The chattering button is obeyed again.")
    return found


def _turn(game: Mapping[str, Any], awaiting: Mapping[str, Any]) -> list[Announcement]:
    players: Sequence[Any] = awaiting.get("players") or []
    if len(players) != 1 or awaiting.get("kind") == "card":
        return []
    seat = players[0]
    player = str(name_of(game, seat))
    board = game.get("scoreboard") or {}
    if game.get("name") == "heckmeck":
        row = (board.get("players") or [{}])[seat] if seat < len(board.get("players") or []) else {}
        return [Announcement("turn", words.worms_turn(player, int(row.get("worms", 0))))]
    return [Announcement("turn", msg("{player}'s turn.", player=player))]


def _options(game: Mapping[str, Any], awaiting: Mapping[str, Any], *, new: bool) -> list[Announcement]:
    """The option *confirm* would take now, for a table played by ear (nothing for a secret choice)."""
    options = awaiting.get("options") or []
    if awaiting.get("kind") not in ("choice", "card") or not options:
        return []
    index = next((i for i, o in enumerate(options) if o.get("highlighted")), None)
    if index is None and awaiting.get("dice") is None:
        index = 0  # confirm takes the first option when no roll is open (Table.confirm)
    if index is None:
        if not new:
            return []
        count = len(options)
        text = msg("Roll the dice, or press next: one choice.") if count == 1 else nmsg(
            "Roll the dice, or press next: {n} choice.", "Roll the dice, or press next: {n} choices.", count)
        return [Announcement("options", text)]
    label = option_words(game, options[index])
    return [Announcement("options", words.highlighted(label, index + 1, len(options)))]


def option_words(game: Mapping[str, Any], option: Mapping[str, Any]) -> Msg:
    """An option as said: Heckmeck's and Las Vegas's in words of their own, others as labelled."""
    action = option.get("action") or {}
    board = game.get("scoreboard") or {}
    kind = action.get("type")
    if game.get("name") == "heckmeck":
        if kind == "take":
            count = sum(1 for f in board.get("roll") or [] if f == action.get("face"))
            return msg("Keep {dice}", dice=words.face_group(action.get("face"), count))
        if kind == "claim" and action.get("victim") is None:
            return msg("Take tile {tile}", tile=int(action.get("tile", 0)))
        if kind == "claim":
            return msg("Steal tile {tile} from {player}", tile=int(action.get("tile", 0)),
                       player=name_of(game, action.get("victim")))
        if kind == "stop":
            return msg("Stop, and the turn fails")
    if game.get("name") == "lasvegas" and kind == "place":
        by_face = {f.get("face"): f for f in (board.get("roll") or {}).get("by_face") or []}
        face = by_face.get(action.get("face")) or {}
        return words.option_place(int(action.get("face", 0)), int(face.get("own", 0)), int(face.get("white", 0)),
                                  bool(board.get("neutral_dice")))
    return Msg.from_json(option["label"])


def _bosses(game: Mapping[str, Any], seen: _Seen, now: _Seen) -> list[Announcement]:
    """Lords of Vegas: a casino whose boss is now another player than before."""
    before = dict(seen.bosses)
    out: list[Announcement] = []
    said_for: set[Any] = set()
    for casino in (game.get("scoreboard") or {}).get("casinos") or []:
        boss = casino.get("boss")
        lots = [str(lot) for lot in casino.get("lots") or []]
        if boss is None or casino.get("name") in said_for:
            continue
        if any(before.get(lot) is not None and before.get(lot) != boss for lot in lots):
            said_for.add(casino.get("name"))
            out.append(Announcement("boss", msg("{player} is now the boss of the casino at {lot}.",
                                                player=name_of(game, boss), lot=str(casino.get("name")))))
    return out
