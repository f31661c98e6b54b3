"""Game records: replay, the first bad line named, and `companion replay` on the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.store.record import RecordError, replay_file, replay_lines
from companion.table.simulate import simulated_lines

REPO = Path(__file__).resolve().parents[1]

HEADER = '{"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck", "players": ["A", "B"]}'


def test_rulebook_record_replays_to_the_figure_4a_state() -> None:
    result = replay_file(REPO / "tests/records/heckmeck-figures-3-and-4a.jsonl")
    board = result["scoreboard"]
    assert board["players"][0]["stack"] == [24]
    assert board["current"] == 1 and result["inputs"] == 7 and not result["over"]


@pytest.mark.parametrize("path", sorted((REPO / "seeds/examples").glob("*.jsonl")), ids=lambda p: p.name)
def test_example_records_replay_to_the_end(path: Path) -> None:
    result = replay_file(path)
    assert result["over"] and result["outcome"]["winners"]


@pytest.mark.parametrize(
    ("lines", "line", "reason"),
    [
        ([], 1, "empty"),
        (["{nope"], 1, "not valid JSON"),
        (['{"format": "x"}'], 1, "not a game record"),
        ([HEADER.replace('"heckmeck"', '"poker"')], 1, "There is no game poker"),
        ([HEADER.replace('["A", "B"]', '["A"]')], 1, "2 to 7 players"),
        ([HEADER, '{"type": "input", "action": {"type": "roll", "dice": [1, 2]}}'], 2, "Expected 8 dice"),
        ([HEADER, '{"type": "input", "action": {"type": "take", "face": 3}}'], 2, "roll first"),
        ([HEADER, '{"type": "undo"}'], 2, "nothing to undo"),
        ([HEADER, '{"type": "jump"}'], 2, "entry type"),
        ([HEADER, "[1, 2]"], 2, "JSON object"),
        ([HEADER, '{"type": "input"}'], 2, "needs its action"),
        ([HEADER, '{"type": "input", "action": {"type": "stop", "extra": 1}}'], 2, "details it does not take"),
    ],
)
def test_an_invalid_record_stops_at_the_first_bad_line(lines: list[str], line: int, reason: str) -> None:
    with pytest.raises(RecordError, match=reason) as info:
        replay_lines(lines)
    assert info.value.line == line


def test_the_bad_line_number_counts_blank_lines_too() -> None:
    good = list(simulated_lines("heckmeck", ["A", "B"], seed=3))[:6]
    lines = [*good[:3], "", *good[3:], '{"type": "input", "action": {"type": "claim", "tile": 99}}']
    with pytest.raises(RecordError) as info:
        replay_lines(lines)
    assert info.value.line == len(lines)


def test_undo_redo_lines_replay_like_the_table() -> None:
    lines = list(simulated_lines("heckmeck", ["A", "B", "C"], seed=5, undo_rate=0.2))
    plain = [ln for ln in lines if '"undo"' not in ln and '"redo"' not in ln]
    assert len(plain) < len(lines)
    assert replay_lines(lines).state == replay_lines(plain).state


def test_replay_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(simulated_lines("heckmeck", ["A", "B"], seed=11)) + "\n")
    assert main(["replay", str(record)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is True and out["scoreboard"]["grill"] == []
    assert re.fullmatch(r"[AB] wins with \d+ worms?\.", out["outcome"]["text"])  # the console reads English


def test_replay_command_names_the_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_text(HEADER + "\n" + '{"type": "input", "action": {"type": "take", "face": 9}}\n')
    assert main(["replay", str(record)]) == 2
    assert "line 2:" in capsys.readouterr().err


def test_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", str(REPO / "tests/records/heckmeck-figures-3-and-4a.jsonl")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["scoreboard"]["players"][0]["worms"] == 1
