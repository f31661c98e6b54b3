"""The example Las Vegas records in seeds/examples: in step with the simulator, and replayable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.lasvegas.banknotes import TOTAL
from companion.games.lasvegas.simulate import record
from companion.store.record import replay_file

EXAMPLES = Path(__file__).resolve().parents[2] / "seeds" / "examples"
RECORDS = {
    "lasvegas-4p-seed7.jsonl": (["Anna", "Benno", "Carla", "Denny"], {}, 7),
    "lasvegas-3p-neutral-seed12.jsonl": (
        ["Anna", "Benno", "Carla"],
        {"neutral_dice": True, "colours": ["red", "blue", "green"]},
        12,
    ),
}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_example_record_is_what_the_seeded_simulator_plays(name: str) -> None:
    players, options, seed = RECORDS[name]
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == record(players, options, seed)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_example_record_replays_to_a_finished_game(name: str) -> None:
    view = replay_file(EXAMPLES / name)
    assert view["over"] and view["outcome"]["winners"]
    board = view["scoreboard"]
    assert board["round"] == 4 and board["payout"]["round"] == 4
    assert sum(p["money"] for p in board["players"]) + board["deck"]["total"] + board["under"]["total"] == TOTAL
