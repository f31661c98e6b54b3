"""A finished game as a BG Stats play: the app's push link and a CSV of every play.

BG Stats takes a play as url-encoded JSON on ``https://app.bgstatsapp.com/createPlay.html?data=``;
opening the link on a phone with the app shows its import dialog (nothing is logged unseen). The fields
used are those of BG Stats' "push plays from other apps" format: ``sourceName``, ``sourcePlayId``,
``playDate`` (UTC, ``yyyy-MM-dd HH:mm:ss``), ``durationMin``, ``game`` (``name``, ``sourceGameId``,
``highestWins``, ``noPoints``) and ``players`` (``name``, ``sourcePlayerId``, ``score``, ``winner``,
``rank``). Stable ``source...Id`` values let the app remember how it matched our games and players.
No BoardGameGeek ids are sent: the app asks once which of its games ours is, then remembers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from companion.store.played import FORMER, Played

PUSH = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE = "Vegas Table Companion"
TITLES = {
    "heckmeck": "Heckmeck am Bratwurmeck",
    "lasvegas": "Las Vegas",
    "cincinnati": "Cincinnati",
    "lordsofvegas": "Lords of Vegas",
}


def play_date(played: str) -> str:
    moment = datetime.fromisoformat(played)
    if moment.tzinfo is None:
        moment = moment.astimezone()  # a time without a zone is this Pi's local time
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def play(played: Played) -> dict[str, Any]:
    """The BG Stats JSON of one finished game."""
    data: dict[str, Any] = {
        "sourceName": SOURCE,
        "sourcePlayId": f"vtc-{played.game}-{played.played}",
        "playDate": play_date(played.played),
        "game": {
            "name": TITLES.get(played.game, played.game),
            "sourceGameId": f"vtc-{played.game}",
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": s.name or FORMER,
                "sourcePlayerId": f"vtc-player-{s.player}" if s.player is not None else f"vtc-former-{s.seat}",
                "score": s.score,
                "winner": s.place == 1,
                "rank": s.place,
            }
            for s in played.seats
        ],
    }
    if played.seconds is not None:
        data["durationMin"] = max(1, round(played.seconds / 60))
    return data


def push_link(played: Played) -> str:
    text = json.dumps(play(played), ensure_ascii=False, separators=(",", ":"))
    return PUSH + quote(text, safe="")


CSV_FIELDS = ("game_id", "game", "played", "minutes", "seat", "player_id", "name", "score", "place", "winner")


def plays_csv(games: Iterable[Played]) -> str:
    """Every play, one row per seat, oldest first (a spreadsheet's way to keep them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for g in sorted(games, key=Played.order_key):
        minutes = "" if g.seconds is None else f"{g.seconds / 60:.1f}"
        for s in g.seats:
            player = "" if s.player is None else s.player
            writer.writerow(
                [
                    g.game_id,
                    g.game,
                    g.played,
                    minutes,
                    s.seat,
                    player,
                    s.name or FORMER,
                    s.score,
                    s.place,
                    int(s.place == 1),
                ]
            )
    return out.getvalue()
