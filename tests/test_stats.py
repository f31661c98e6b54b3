"""End-of-game statistics: a hand-made game whose numbers are known, the p-value against SciPy, and
the statistics of simulated games of every title."""

from __future__ import annotations

import json

import pytest
from scipy.stats import chi2

from companion.games import get_rules
from companion.store.record import Header, Timeline, replay_lines
from companion.store.stats import chi2_sf, game_stats, luck
from companion.table.simulate import simulated_lines


def at(seconds: int) -> str:
    return f"2026-11-25T20:{seconds // 60:02d}:{seconds % 60:02d}.000+00:00"


def heckmeck_game() -> Timeline:
    timeline = Timeline(get_rules("heckmeck"), Header("heckmeck", ("Ann", "Bob")))
    inputs = [
        (0, {"type": "roll", "dice": ["worm", "worm", "worm", 5, 5, 5, 4, 4]}),
        (5, {"type": "take", "face": "worm"}),
        (10, {"type": "roll", "dice": [5, 5, 5, 4, 4]}),
        (15, {"type": "take", "face": 5}),
        (20, {"type": "claim", "tile": 30}),
        (30, {"type": "roll", "dice": [1, 1, 1, 1, 1, 1, 1, 1]}),
        (35, {"type": "take", "face": 1}),
    ]
    for seconds, action in inputs:
        timeline.feed({"type": "input", "action": action, "at": at(seconds)})
    return timeline


def test_a_hand_made_game_tells_its_story() -> None:
    stats = game_stats(heckmeck_game())
    assert stats["busts"] == [0, 1]
    worms = stats["series"][0]
    assert worms["name"] == "worms" and worms["values"][0] == [0, 0] and worms["values"][-1] == [3, 0]
    assert stats["swing"] == {"seat": 0, "delta": 3, "step": 5, "at": at(20), "series": "worms"}
    ann, bob = stats["dice"]
    assert ann["dice"] == 13 and ann["counts"] == [0, 0, 0, 4, 6, 3]
    assert bob["dice"] == 8 and bob["counts"] == [8, 0, 0, 0, 0, 0]
    assert stats["luckiest"] == 0 and bob["z"] < 0 < ann["z"]
    assert bob["p"] < 1e-5  # eight 1s in eight dice is very unlikely on fair dice
    per = stats["time"]["per_player"]
    assert per[0]["seconds"] == 20 and per[0]["turns"] == 1
    assert per[1]["seconds"] == 15 and per[1]["turns"] == 1
    assert stats["time"]["turns"] == 2 and stats["time"]["mean_turn_seconds"] == 17.5


@pytest.mark.parametrize("dof", [1, 2, 3, 5, 6, 9])
def test_p_value_matches_scipy(dof: int) -> None:
    for x in (0.0, 0.3, 1.0, 4.2, 11.07, 20.0, 60.0):
        assert chi2_sf(x, dof) == pytest.approx(float(chi2.sf(x, dof)), rel=1e-9, abs=1e-14)


def test_luck_of_perfectly_even_dice() -> None:
    even = luck([1, 2, 3, 4, 5, 6] * 5, (1, 2, 3, 4, 5, 6))
    assert even["chi2"] == 0 and even["p"] == 1.0 and even["z"] == 0
    assert luck([], (1, 2, 3, 4, 5, 6))["p"] is None


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("heckmeck", ["A", "B", "C"], {}),
        ("lasvegas", ["A", "B", "C"], {"virtual_deck": True, "neutral_dice": True}),
        ("cincinnati", ["A", "B", "C", "D"], {"virtual_deck": True}),
        ("lordsofvegas", ["A", "B", "C"], {}),
    ],
)
def test_statistics_of_whole_simulated_games(game: str, players: list[str], options: dict[str, object]) -> None:
    timeline = replay_lines(simulated_lines(game, players, options, seed=2))
    stats = game_stats(timeline)
    assert stats["over"] and stats["players"] == players
    final = stats["series"][0]["values"][-1]
    board = timeline.rules.scoreboard(timeline.state)
    if game == "lasvegas":
        assert final == [p["money"] for p in board["players"]]
        # every note won came from one casino: the money per casino adds up to each player's money
        assert [sum(row) for row in stats["money_per_casino"]] == final
    if game == "heckmeck":
        assert final == [p["worms"] for p in board["players"]]
        assert sum(stats["busts"]) > 0
    assert sum(d["dice"] for d in stats["dice"]) > 0
    assert all(p["turns"] > 0 and p["seconds"] is None for p in stats["time"]["per_player"])  # no times recorded
    assert stats["luckiest"] in range(len(players))
    json.dumps(stats)  # plain JSON
