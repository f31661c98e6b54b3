"""The results' table of rounds: each row is the score once that round was over (issue 54: every row
but the last showed the score from before its round's last input, e.g. Las Vegas round 1 at 0/0/0
after round 1 had paid). The rows are checked against scores recomputed from the record by a
different route: the boards themselves, state by state, not the history's step bookkeeping."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games import get_rules
from companion.store.journal import GameRow
from companion.store.record import Header, Timeline
from companion.table.simulate import simulated_lines
from companion.web.history import game_history, scores

PLAYERS = ("Ann", "Bob", "Cy")


def boards(game: str, lines: list[str]) -> list[dict[str, Any]]:
    """The scoreboard before the first input and after every input that stands, from the record."""
    rules = get_rules(game)
    timeline = Timeline(rules, Header.from_json(json.loads(lines[0])))
    for line in lines[1:]:
        timeline.feed(json.loads(line))
    return [rules.scoreboard(timeline.initial)] + [rules.scoreboard(step.state) for step in timeline.steps]


def expected_rows(game: str, seen: list[dict[str, Any]]) -> list[list[float]]:
    """Round r's row: the score on the first board of round r + 1 (the board the round's last input
    left), the last round's the final board's."""
    def round_of(board: dict[str, Any]) -> int:
        if game == "heckmeck":  # a round is every player's turn once; the board numbers the turns from 1
            return (int(board["turn"]) - 1) // len(PLAYERS) + 1
        return int(board["round"])

    rows = []
    for r in range(1, round_of(seen[-1]) + 1):
        after = next((b for b in seen if round_of(b) > r), seen[-1])
        rows.append(scores(game, after))
    return rows


@pytest.mark.parametrize("game", ["heckmeck", "lasvegas", "cincinnati"])
@pytest.mark.parametrize("seed", [1, 2])
def test_each_round_shows_the_score_once_it_was_over(game: str, seed: int) -> None:
    lines = list(simulated_lines(game, PLAYERS, seed=seed, undo_rate=0.05))
    header = Header.from_json(json.loads(lines[0]))
    row = GameRow(
        id=1, game=game, header=header, created="2026-12-02", finished=True, summary="", entries=len(lines) - 1
    )
    story = game_history(row, [json.loads(line) for line in lines[1:]])
    table = [r["scores"] for r in story["rounds"]]
    assert [r["round"] for r in story["rounds"]] == list(range(1, len(table) + 1))
    assert table == expected_rows(game, boards(game, lines))
    assert table[0] != table[-1], "the game moved the score on"
