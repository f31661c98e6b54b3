"""The table's events as spoken sentences: one function per event the table wants to hear.

Pure: an event's JSON (``kind``, ``text``, ``data``) and the view it belongs to in, an
:class:`Announcement` (or none) out. Events without a sentence of their own are said as the turn log
writes them, under the kind ``move``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import companion.voice.words as words
from companion.games.messages import Msg, Param, msg, nmsg
from companion.voice.kinds import LASTING

JSON = Any


@dataclass(frozen=True)
class Announcement:
    """One thing to say: its kind (switched on or off by the listener) and its words."""

    kind: str
    text: Msg

    @property
    def lasting(self) -> bool:
        return self.kind in LASTING

    def to_json(self) -> JSON:
        return {"kind": self.kind, "text": words.speakable(self.text).to_json()}


def names(game: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in game.get("players") or []]


def name_of(game: Mapping[str, Any], seat: Any) -> Param:
    players = names(game)
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return msg("the white dice")


def _text(event: Mapping[str, Any]) -> Msg:
    return Msg.from_json(event["text"])


Said = Callable[[Mapping[str, Any], Mapping[str, Any]], "Announcement | None"]


def _rolled(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    player = str(name_of(game, data.get("player")))
    dice = list(data.get("dice") or [])
    if any(isinstance(d, Mapping) for d in dice):
        return Announcement("dice", words.coloured_dice(dice, player))
    return Announcement("dice", msg("{player} rolls {dice}.", player=player, dice=words.dice_words(dice)))


def _kept(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    return Announcement("move", msg(
        "{player} keeps {dice}: {total} in all.",
        player=name_of(game, data.get("player")),
        dice=words.face_group(data.get("face"), int(data.get("count", 1))),
        total=int(data.get("total", 0)),
    ))


def _claimed(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    if game.get("name") != "heckmeck":
        return Announcement("move", _text(event))
    player, tile = name_of(game, data.get("player")), int(data.get("tile", 0))
    if data.get("victim") is None:
        return Announcement("payout", msg("{player} takes tile {tile}.", player=player, tile=tile))
    return Announcement("payout", msg("{player} steals tile {tile} from {victim}.", player=player, tile=tile,
                                      victim=name_of(game, data.get("victim"))))


def _failed(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    player, returned, flipped = name_of(game, data.get("player")), data.get("returned"), data.get("flipped")
    if returned is None:
        text = msg("{player}: the turn fails.", player=player)
    elif flipped is None:
        text = msg("{player}: the turn fails; tile {tile} goes back to the grill.", player=player, tile=returned)
    elif flipped == returned:
        text = msg("{player}: the turn fails; tile {tile} goes back face down.", player=player, tile=returned)
    else:
        text = msg("{player}: the turn fails; tile {tile} goes back and {flipped} is turned over.", player=player,
                   tile=returned, flipped=flipped)
    return Announcement("bust", text)


def _payout(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement | None:
    data = event.get("data") or {}
    casino = int(data.get("casino", 0))
    paid = [msg("{player} {amount}", player=_owner(p), amount=int(p["note"]))
            for p in data.get("paid") or [] if p.get("note") is not None]
    ties = [[_owner(p) for p in t.get("players") or []] for t in data.get("ties") or []]
    parts: list[Param] = []
    if paid:
        parts.append(msg("Casino {casino} pays {payments}.", casino=casino, payments=paid))
    for tied in ties:
        parts.append(msg("{players} tie at casino {casino} and get nothing.", players=tied, casino=casino))
    if not parts:
        return None
    return Announcement("payout", joined(parts))


def joined(parts: list[Param]) -> Msg:
    """Sentences said one after the other."""
    out = parts[0]
    for part in parts[1:]:
        out = msg("{first} {then}", first=out, then=part)
    assert isinstance(out, Msg)
    return out


def _owner(owner: Mapping[str, Any]) -> Param:
    name = owner.get("name")
    return Msg.from_json(name) if isinstance(name, Mapping) else str(name)


def _new_round(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    if game.get("name") != "lasvegas":
        return Announcement("round", _text(event))
    text = msg("Round {round}: {player} is the start player.", round=int(data.get("round", 0)),
               player=name_of(game, data.get("start")))
    board = game.get("scoreboard") or {}
    if board.get("money_hidden") is False:
        ranked = sorted(board.get("players") or [], key=lambda p: -int(p.get("money", 0)))
        standings = [msg("{player} {amount}", player=str(p["name"]), amount=int(p.get("money", 0))) for p in ranked]
        text = joined([text, msg("Standings: {standings}.", standings=standings)])
    return Announcement("round", text)


def _duel(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    return Announcement("duel", msg("{player} wins the duel against {opponent}.",
                                    player=name_of(game, data.get("winner")),
                                    opponent=name_of(game, data.get("loser"))))


def _money(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    data = event.get("data") or {}
    return Announcement("payout", msg("{player} gets {money}.", player=name_of(game, data.get("player")),
                                      money=words.millions(int(data.get("money", 0)))))


def _game_over(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    winners = list((event.get("data") or {}).get("winners") or [])
    board = game.get("scoreboard") or {}
    players = board.get("players") or []
    if len(winners) != 1:
        return Announcement("end", msg("The game is over: {players} share the win.",
                                       players=[name_of(game, w) for w in winners]))
    seat = winners[0]
    player = name_of(game, seat)
    row = players[seat] if isinstance(seat, int) and seat < len(players) else {}
    if game.get("name") == "heckmeck":
        worms = int(row.get("worms", 0))
        return Announcement("end", nmsg("The game is over: {player} wins with one worm.",
                                        "The game is over: {player} wins with {n} worms.", worms, player=player))
    if game.get("name") == "lasvegas":
        return Announcement("end", msg("The game is over: {player} wins with {amount}.", player=player,
                                       amount=int(row.get("money", 0))))
    return Announcement("end", msg("The game is over: {player} wins.", player=player))


def _move(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement:
    return Announcement("move", _text(event))


def _silent(event: Mapping[str, Any], game: Mapping[str, Any]) -> None:
    return None


SAID: dict[str, Said] = {
    "rolled": _rolled,
    "kept": _kept,
    "claimed": _claimed,
    "failed": _failed,
    "payout": _payout,
    "new_round": _new_round,
    "duel_won": _duel,
    "casino_paid": _money,
    "lots_paid": _money,
    "game_over": _game_over,
    # what was undone is in the turn log's words ("Keep 1 x 1"); the question said next tells where the table is
    "undone": lambda e, g: Announcement("undo", msg("The last input is undone.")),
    "redone": lambda e, g: Announcement("undo", msg("The input is done again.")),
    "cleared": lambda e, g: Announcement("payout", _text(e)),
    "gamble_result": lambda e, g: Announcement("payout", _text(e)),
    "no_new_face": _silent,  # the failed turn that follows says it
    "cannot_claim": _silent,
    "stopped": _silent,
    "chosen": _silent,  # a secret choice: only that it was made, which the prompt's list of players says
}


def said(event: Mapping[str, Any], game: Mapping[str, Any]) -> Announcement | None:
    """The announcement of one event of ``game`` (the view's game part the event belongs to)."""
    return SAID.get(str(event.get("kind")), _move)(event, game)
