"""``companion players [--game G] [--json] [--data DIR]``: the leaderboards from a shell.

Reads the journal in the data folder (it may be in use by the running companion: SQLite lets both),
stores the results of games finished since it was last asked, and prints each game's players by
rating, or one game's with ``--game``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.config import ConfigError, StoreConfig, load
from companion.games import game_names
from companion.store.boards import Boards
from companion.store.journal import Journal, JournalUnavailable
from companion.store.players import Roster


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    players = sub.add_parser("players", help="the leaderboards: each game's players by rating")
    players.add_argument("--game", choices=game_names(), help="only this game's leaderboard")
    players.add_argument("--json", action="store_true", help="print JSON instead of a table")
    players.add_argument("--config", help="companion.toml (default: built-in defaults)")
    players.add_argument("--data", help="the companion's data folder (default from config)")
    players.set_defaults(func=_players)


def table_text(board: dict[str, Any]) -> list[str]:
    """One leaderboard as aligned lines for a terminal."""
    lines = [f"{board['game']} (Elo, start {board['start']:.0f}, K {board['k']:.0f})"]
    if not board["players"]:
        return [*lines, "  no finished games yet"]
    width = max(len(row["name"]) for row in board["players"])
    lines.append(f"  {'#':>2}  {'player':<{width}}  rating  games  wins  win%  avg place  best")
    for row in board["players"]:
        lines.append(
            f"  {row['place']:>2}  {row['name']:<{width}}  {row['rating']:>6}  {row['games']:>5}  {row['wins']:>4}"
            f"  {row['win_rate'] * 100:>3.0f}%  {row['average_place']:>9.2f}  {row['best_score']:>4}"
        )
    return lines


def _players(args: argparse.Namespace) -> int:
    try:
        data = args.data if args.data else load(args.config).store.data_dir
        path = StoreConfig(data_dir=str(data)).journal_path
    except ConfigError as exc:
        print(f"companion players: {exc}", file=sys.stderr)
        return 2
    if not path.exists():
        print(f"companion players: {path}: no journal yet", file=sys.stderr)
        return 1
    journal = Journal(path)
    try:
        roster = Roster(journal)
        roster.sync()
        boards = Boards(roster.players(), roster.played())
    except JournalUnavailable as exc:
        print(f"companion players: {exc}", file=sys.stderr)
        return 1
    finally:
        journal.close()
    games = [args.game] if args.game else boards.games()
    result = [boards.leaderboard(g) for g in games]
    if args.json:
        print(json.dumps(result if not args.game else result[0], indent=2, ensure_ascii=False))
    elif not result:
        print("no finished games yet")
    else:
        print("\n\n".join("\n".join(table_text(board)) for board in result))
    return 0
