"""``companion players``: the leaderboards from a shell, as a table or JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import StoreConfig
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import simulated_lines


@pytest.fixture
def data(tmp_path: Path) -> Path:
    journal = Journal(StoreConfig(data_dir=str(tmp_path)).journal_path)
    table = Table(journal, rng=random.Random(0))
    for seed in range(4):
        table.import_record(simulated_lines("heckmeck", ["Anna", "Benno", "Carla"], seed=seed))
    table.import_record(simulated_lines("lasvegas", ["Anna", "Dora"], seed=9))
    journal.close()
    return tmp_path


def test_json_for_one_game(data: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["players", "--data", str(data), "--game", "heckmeck", "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["game"] == "heckmeck" and [r["place"] for r in board["players"]] == [1, 2, 3]
    assert {r["name"] for r in board["players"]} == {"Anna", "Benno", "Carla"}
    assert sum(r["games"] for r in board["players"]) == 12 and sum(r["wins"] for r in board["players"]) >= 4


def test_a_table_of_every_game(data: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["players", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("heckmeck (Elo, start 1500, K 32)") and "\nlasvegas (Elo" in out
    assert "Dora" in out.split("lasvegas")[1] and "Dora" not in out.split("lasvegas")[0]


def test_no_journal_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["players", "--data", str(tmp_path / "none")]) == 1
    assert "no journal yet" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
