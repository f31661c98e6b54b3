"""Regression tests for issue 28's findings: races, memory, malformed requests, names, headers, config.

Each test failed on the code before the fix it guards.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.config import Config, ConfigError, ServerConfig, StoreConfig, check
from companion.store.journal import Journal
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}
ROLL = {"type": "roll", "dice": ["worm", "worm", 4, 4, 4, 1, 2, 3]}
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def start(client: FlaskClient, players: list[str] | None = None) -> int:
    res = client.post("/api/games", json={"game": "heckmeck", "players": players or ["Ann", "Bob"]}, headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


# --- finding 2: Table.open raced an input --------------------------------------------------------
def test_opening_a_game_while_an_input_arrives_keeps_the_input(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    table = Table(journal)
    game = table.new_game("heckmeck", ["Ann", "Bob"])
    real_entries = journal.entries
    finished = threading.Event()

    def entries_with_a_roll_arriving(game_id: int) -> Any:
        rows = list(real_entries(game_id))
        # a roll from the buttons arrives while open() has read the journal but not installed it
        worker = threading.Thread(target=lambda: (table.submit(ROLL, device="button"), finished.set()))
        worker.start()
        worker.join(timeout=0.5)
        return iter(rows)

    journal.entries = entries_with_a_roll_arriving  # type: ignore[method-assign]
    table.open(game)
    journal.entries = real_entries  # type: ignore[method-assign]
    finished.wait(5)
    assert journal.game(game) is not None and journal.game(game).entries == 1  # type: ignore[union-attr]
    assert table.view()["game"]["inputs"] == 1  # the table shows the roll the journal holds
    table.undo(device="t")  # and the next inputs work
    journal.close()


# --- finding 3: refused dice were cached forever -------------------------------------------------
def test_refused_dice_leave_no_memory_behind_and_are_not_echoed(client: FlaskClient, table: Table) -> None:
    from companion.games.base import RuleViolation

    start(client)
    res = client.post("/api/input", json={"action": {"type": "roll", "dice": ["x" * 100_000] * 8}}, headers=AUTH)
    assert res.status_code == 409 and len(res.get_json()["error"]) < 400
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(20):
        face = f"{i}" + "x" * 200_000
        with pytest.raises(RuleViolation) as refused:
            table.submit({"type": "roll", "dice": [face] * 8}, device="t")
        assert len(str(refused.value)) < 400
    del refused
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 1_000_000, f"{grown} bytes kept after 20 refused inputs of 200 KB faces"


# --- finding 8: malformed requests answered 500 ---------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"action": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"action": {"type": [1]}}',
        '{"action": {"type": {"a": 1}}}',
        '{"action": {"type": "roll", "dice": [' + "9" * 5000 + "]}}",
        '{"action": {"type": "roll", "dice": [[1], {"face": [2]}, {"face": {}}]}}',
    ],
)
def test_malformed_inputs_are_refused_with_a_4xx(client: FlaskClient, table: Table, body: str) -> None:
    start(client)
    version = table.version
    res = client.post("/api/input", data=body, headers={**AUTH, "Content-Type": "application/json"})
    assert res.status_code in (400, 409), res.get_data()[:200]
    assert "error" in res.get_json()
    assert table.version == version


def test_a_huge_game_number_is_a_404(client: FlaskClient) -> None:
    assert client.get("/api/games/99999999999999999999/record").status_code == 404
    assert client.post("/api/games/99999999999999999999/open", headers=AUTH).status_code == 404


@pytest.mark.parametrize(
    "record",
    [
        '{"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck", "players": ["A", "B"]}\n'
        '{"type": "input", "action": {"type": "roll", "dice": [' + "7" * 4400 + "]}}\n",
        "[" * 50_000,
        '{"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck", "players": ["A", "B"],'
        ' "options": ' + "[" * 3000 + "]" * 3000 + "}\n",
    ],
)
def test_bad_imports_are_refused_with_a_400(client: FlaskClient, record: str) -> None:
    res = client.post("/api/games/import", data=record, headers=AUTH)
    assert res.status_code == 400, res.get_data()[:200]
    assert client.get("/api/games").get_json()["games"] == []


def test_calibration_faces_must_be_faces(table: Table, config: Config) -> None:
    from companion.table.rig import Rig

    rig = Rig(table, config, mock=True, seed=5)
    try:
        client = create_app(table, config=config, devices=rig).test_client()
        for faces in ([[1], 2], [{"a": 1}], [True, 2]):
            res = client.post("/api/calibration", json={"faces": faces}, headers=AUTH)
            assert res.status_code == 400, (faces, res.get_json())
    finally:
        rig.close()


# --- finding 10: import all-or-nothing, names, secret export ---------------------------------------
def test_an_import_that_fails_half_way_leaves_no_game(client: FlaskClient, journal: Journal) -> None:
    from companion.table.simulate import simulated_lines

    lines = list(simulated_lines("heckmeck", ["A", "B"], {}, seed=3))
    assert len(lines) > 10
    # the disk fails while the entries are written (a crash here behaves the same: one transaction)
    db = sqlite3.connect(journal.path)
    db.execute(
        "CREATE TRIGGER fail AFTER INSERT ON entries WHEN NEW.seq = 5 BEGIN SELECT RAISE(ABORT, 'disk'); END"
    )
    db.commit()
    db.close()
    res = client.post("/api/games/import", data="\n".join(lines), headers=AUTH)
    assert res.status_code >= 400
    assert journal.games() == []


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "x" * 1_000_000],
        ["Ann", "ANN"],
        ["Ann", "An\u200bn"],
        ["Ann", "Bob\u0007"],
    ],
)
def test_player_names_are_short_and_distinct(client: FlaskClient, players: list[str]) -> None:
    res = client.post("/api/games", json={"game": "heckmeck", "players": players}, headers=AUTH)
    assert res.status_code == 409, res.get_json()
    assert client.get("/api/games").get_json()["games"] == []


def test_a_pending_secret_choice_is_not_exported_once_another_game_is_open(
    client: FlaskClient, table: Table
) -> None:
    res = client.post(
        "/api/games", json={"game": "cincinnati", "players": ["A", "B", "C", "D"], "options": {"virtual_deck": True}},
        headers=AUTH,
    )
    secret_game = res.get_json()["id"]
    client.post("/api/input", json={"action": {"type": "choose", "player": 0, "table": "B"}}, headers=AUTH)
    start(client)  # another game is opened
    res = client.get(f"/api/games/{secret_game}/record")
    assert res.status_code == 409 and "secret" in res.get_json()["error"]
    story = client.get(f"/api/games/{secret_game}/history").get_json()
    assert story["entries"] and not [e for e in story["entries"] if e["device"] == "tablet:t1"]


# --- finding 5 (part): frames and foreign names ---------------------------------------------------
def test_pages_carry_csp_and_frame_headers(client: FlaskClient) -> None:
    for path in ("/", "/api/state"):
        res = client.get(path)
        assert res.headers["X-Frame-Options"] == "DENY"
        csp = res.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp


@pytest.mark.parametrize("host", ["evil.example", "attacker.test:8080", "companion.local.evil.example"])
def test_a_foreign_host_name_is_refused(client: FlaskClient, host: str) -> None:
    res = client.post("/api/pin", headers={**AUTH, "Host": host})
    assert res.status_code == 421
    assert client.get("/api/state", headers={"Host": host}).status_code == 421


@pytest.mark.parametrize("host", ["localhost:8080", "127.0.0.1:8080", "192.168.1.20", "[::1]:8080", "companion.local"])
def test_own_names_and_addresses_are_served(client: FlaskClient, host: str) -> None:
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_configured_host_names_are_served(table: Table, tmp_path: Path) -> None:
    config = Config(server=ServerConfig(pin=PIN, hosts=["scores.home.arpa"]), store=StoreConfig(str(tmp_path)))
    client = create_app(table, config=config).test_client()
    assert client.get("/api/state", headers={"Host": "scores.home.arpa"}).status_code == 200


# --- finding 9: check-config said ok, then the run failed -------------------------------------------
@pytest.mark.parametrize(
    "server, store, words",
    [
        ({"threads": -5}, {}, "threads"),
        ({"threads": 1}, {}, "threads"),
        ({"sse_max_streams": 1_000_000}, {}, "sse_max_streams"),
        ({"host": "no such host.invalid"}, {}, "host"),
        ({"host": ""}, {}, "host"),
        ({}, {"data_dir": ""}, "data_dir"),
        ({}, {"data_dir": "/proc/companion"}, "data_dir"),
        ({}, {"data_dir": "FILE"}, "data_dir"),
    ],
)
def test_check_config_catches_settings_that_fail_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], server: dict[str, Any], store: dict[str, Any], words: str
) -> None:
    from companion.cli import main

    (tmp_path / "FILE").write_text("not a folder")
    store = {k: str(tmp_path / v) if v == "FILE" else v for k, v in store.items()}
    lines = ["[server]"] + [f"{k} = {json.dumps(v)}" for k, v in server.items()]
    lines += ["[store]"] + [f"{k} = {json.dumps(v)}" for k, v in store.items()]
    path = tmp_path / "c.toml"
    path.write_text("\n".join(lines) + "\n")
    assert main(["check-config", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error" in out and words in out


def test_watching_pages_need_no_threads_so_the_count_does_not_grow_with_them() -> None:
    """Event streams are parked (they hold no server thread), so the automatic count is the same for
    8 pages or 200, and no count below two is accepted (one slow request must not hold up the rest)."""
    few, many = Config(server=ServerConfig(sse_max_streams=8)), Config(server=ServerConfig(sse_max_streams=200))
    check(few)
    check(many)
    assert few.threads == many.threads >= 2
    check(Config(server=ServerConfig(sse_max_streams=200, threads=2)))
    with pytest.raises(ConfigError):
        check(Config(server=ServerConfig(threads=1)))


# --- finding 10: BrokenPipe ------------------------------------------------------------------------
def test_simulate_into_head_stops_quietly() -> None:
    result = subprocess.run(
        f"{sys.executable} -m companion simulate heckmeck A B C | head -1",
        shell=True, capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert result.stdout.count("\n") == 1
    assert "Traceback" not in result.stderr and "Error" not in result.stderr, result.stderr


# --- finding 8: companion replay ------------------------------------------------------------------
HEADER = '{"format": "vegas-table-companion/record", "version": 1, "game": "heckmeck", "players": ["A", "B"]}'


@pytest.mark.parametrize(
    "content",
    [
        HEADER.encode() + b"\n" + b"[" * 100_000 + b"\n",
        HEADER.encode() + b'\n{"type": "input", "action": {"type": "roll", "dice": [' + b"1" * 5000 + b"]}}\n",
        HEADER.encode() + b'\n{"type": "input", "action": {"type": {"x": 1}}}\n',
        HEADER.encode() + b'\n{"type": {"x": 1}}\n',
        HEADER.encode() + b'\n{"type": "input", "action": {"type": "roll", "dice": [{"face": [1]}]}}\n',
        b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe",
    ],
)
def test_replay_refuses_bad_records_without_a_traceback(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "line" in result.stderr, result.stderr


def test_replay_refuses_a_device_and_takes_a_byte_order_mark(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "/dev/zero"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b"\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"] == ["A", "B"]
