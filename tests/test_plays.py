"""The play logged where the players log it (companion/web/api/plays.py, companion/store/bgstats.py,
companion/store/history.py): the BG Stats push link and QR, the CSV, the history file and back."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.store.bgstats import PUSH
from companion.table.session import Table
from companion.table.simulate import simulated_lines
from companion.web import create_app
from tests.conftest import AUTH


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def played(client: FlaskClient, players: list[str], seed: int, start: str, game: str = "heckmeck") -> int:
    """A game whose inputs are five seconds apart from ``start`` (an ISO time, UTC)."""
    lines = list(simulated_lines(game, players, seed=seed))
    first = datetime.fromisoformat(start).replace(tzinfo=UTC)
    timed = [lines[0]]
    for i, line in enumerate(lines[1:]):
        timed.append(json.dumps({**json.loads(line), "at": (first + timedelta(seconds=5 * i)).isoformat()}))
    res = client.post("/api/games/import", data="\n".join(timed), headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


def test_bgstats_push_link_holds_the_play(client: FlaskClient):
    game_id = played(client, ["Anna", "Benno", "Carla"], 1, "2026-03-01T19:00")
    answer = client.get(f"/api/games/{game_id}/bgstats").get_json()
    assert answer["url"].startswith(PUSH)
    data = json.loads(unquote(answer["url"][len(PUSH) :]))
    assert data == answer["play"]
    assert data["sourceName"] == "Vegas Table Companion" and data["game"]["name"] == "Heckmeck am Bratwurmeck"
    inputs = len(list(simulated_lines("heckmeck", ["Anna", "Benno", "Carla"], seed=1))) - 1
    ended = datetime(2026, 3, 1, 19, 0) + timedelta(seconds=5 * (inputs - 1))
    assert data["playDate"] == ended.strftime("%Y-%m-%d %H:%M:%S")  # UTC, the game's end
    assert data["durationMin"] == round(5 * (inputs - 1) / 60)
    assert [p["name"] for p in data["players"]] == ["Anna", "Benno", "Carla"]
    winners = [p for p in data["players"] if p["winner"]]
    assert winners and all(p["rank"] == 1 for p in winners)
    svg = client.get(f"/api/games/{game_id}/bgstats.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg") and b"<path" in svg.data


def test_bgstats_for_an_unknown_or_unfinished_game_says_so(client: FlaskClient):
    assert "99" in client.get("/api/games/99/bgstats").get_json()["error"]
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Anna", "Benno"]}, headers=AUTH)
    open_game = res.get_json()["id"]
    res = client.get(f"/api/games/{open_game}/bgstats.svg")
    assert res.status_code == 404 and "not over" in res.get_json()["error"]


def test_the_result_line_counts_wins_tonight_and_the_rating_change(client: FlaskClient):
    ids = [played(client, ["Anna", "Benno"], seed, f"2026-03-01T{18 + seed}:00") for seed in range(3)]
    played(client, ["Anna", "Benno"], 7, "2026-03-02T20:00")  # the next night
    results = [client.get(f"/api/games/{i}/result").get_json() for i in ids]
    for n, result in enumerate(results):
        for seat in result["seats"]:
            won_so_far = sum(
                any(s["name"] == seat["name"] and s["place"] == 1 for s in r["seats"]) for r in results[: n + 1]
            )
            assert seat["wins_tonight"] == won_so_far
    first = results[0]["seats"]
    assert sorted(s["delta"] for s in first) == [-16, 16] and {s["rating"] for s in first} == {1484, 1516}


def test_plays_csv_has_a_row_per_seat(client: FlaskClient):
    played(client, ["Anna", "Benno"], 1, "2026-03-01T19:00")
    played(client, ["Anna", "Benno", "Carla"], 2, "2026-03-01T21:00", game="lasvegas")
    rows = list(csv.DictReader(io.StringIO(client.get("/api/plays.csv").get_data(as_text=True))))
    assert len(rows) == 5 and [r["game"] for r in rows] == ["heckmeck"] * 2 + ["lasvegas"] * 3
    assert sum(r["winner"] == "1" for r in rows) >= 2


def test_history_out_and_back_in_is_idempotent(client: FlaskClient, tmp_path, table: Table):
    for seed in range(3):
        played(client, ["Anna", "Benno"], seed, f"2026-03-0{seed + 1}T19:00")
    history = client.get("/api/history").get_json()
    assert len(history["games"]) == 3
    board = client.get("/api/leaderboard/heckmeck").get_json()

    again = client.post("/api/history", data=json.dumps(history), headers=AUTH)
    assert again.get_json() == {"added": 0, "skipped": 3}

    other = Config(
        server=client.application.extensions["companion"]["config"].server,
        store=type(client.application.extensions["companion"]["config"].store)(data_dir=str(tmp_path / "b")),
        mock=True,
    )
    from companion.store.journal import Journal

    fresh = create_app(Table(Journal(tmp_path / "b" / "j.sqlite3")), config=other).test_client()
    reversed_file = {**history, "games": list(reversed(history["games"]))}
    assert fresh.post("/api/history", data=json.dumps(reversed_file), headers=AUTH).get_json() == {
        "added": 3,
        "skipped": 0,
    }
    assert fresh.post("/api/history", data=json.dumps(history), headers=AUTH).get_json() == {"added": 0, "skipped": 3}
    assert fresh.get("/api/leaderboard/heckmeck").get_json() == board  # same games, same order played


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ("{", "not JSON"),
        ('{"format": "x", "version": 1, "games": []}', "not a history file"),
        ('{"format": "vegas-table-companion-history", "version": 9, "games": []}', "not supported"),
        ('{"format": "vegas-table-companion-history", "version": 1, "games": [{"lines": []}]}', "created"),
    ],
)
def test_a_bad_history_file_says_why_and_adds_nothing(client: FlaskClient, payload: str, words: str):
    played(client, ["Anna", "Benno"], 1, "2026-03-01T19:00")
    res = client.post("/api/history", data=payload, headers=AUTH)
    assert res.status_code == 400 and words in res.get_json()["error"]
    assert len(client.get("/api/games").get_json()["games"]) == 1


def test_a_history_with_one_bad_game_adds_none(client: FlaskClient):
    played(client, ["Anna", "Benno"], 1, "2026-03-01T19:00")
    history = client.get("/api/history").get_json()
    good = dict(history["games"][0])
    bad = {"created": "2026-03-02T19:00:00+00:00", "lines": [good["lines"][0], '{"type":"input","action":{}}']}
    other = {"created": "2026-03-03T19:00:00+00:00", "lines": list(simulated_lines("heckmeck", ["X", "Y"], seed=3))}
    res = client.post("/api/history", data=json.dumps({**history, "games": [other, bad]}), headers=AUTH)
    assert res.status_code == 400 and "game 2" in res.get_json()["error"]
    assert len(client.get("/api/games").get_json()["games"]) == 1
    assert client.post("/api/history", data=json.dumps(history)).status_code == 403


def _fresh(client: FlaskClient, tmp_path) -> tuple[FlaskClient, Table]:
    from companion.store.journal import Journal

    config = client.application.extensions["companion"]["config"]
    other = Config(server=config.server, store=type(config.store)(data_dir=str(tmp_path / "b")), mock=True)
    table = Table(Journal(tmp_path / "b" / "j.sqlite3"))
    return create_app(table, config=other).test_client(), table


def test_an_imported_history_is_not_replayed_again_by_the_first_answer(client: FlaskClient, tmp_path):
    from companion.store.players import Roster

    for seed in range(4):
        played(client, ["Anna", "Benno"], seed, f"2026-03-0{seed + 1}T19:00")
    history = client.get("/api/history").get_json()
    fresh, table = _fresh(client, tmp_path)
    assert fresh.post("/api/history", data=json.dumps(history), headers=AUTH).get_json()["added"] == 4
    assert Roster(table.journal).sync() == 0  # the import stored every result as it replayed the games
    assert [p["games"]["heckmeck"]["games"] for p in fresh.get("/api/players").get_json()["players"]] == [4, 4]


def test_a_deleted_player_stays_out_of_a_history_taken_elsewhere(client: FlaskClient, tmp_path):
    played(client, ["Anna", "Benno"], 1, "2026-03-01T19:00")
    played(client, ["Carla", "Benno", "Anna"], 2, "2026-03-01T21:00")
    benno = next(p["id"] for p in client.get("/api/players").get_json()["players"] if p["name"] == "Benno")
    assert client.delete(f"/api/players/{benno}", headers=AUTH).status_code == 200
    history = client.get("/api/history").get_json()
    assert "Benno" not in json.dumps(history) and [g.get("hidden") for g in history["games"]] == [[1], [1]]
    fresh, _ = _fresh(client, tmp_path)
    assert fresh.post("/api/history", data=json.dumps(history), headers=AUTH).get_json()["added"] == 2
    assert [p["name"] for p in fresh.get("/api/players").get_json()["players"]] == ["Anna", "Carla"]
    listed = [g["players"] for g in fresh.get("/api/games").get_json()["games"]]
    assert listed == [["Carla", "#2", "Anna"], ["Anna", "#2"]]
    history["games"][0]["hidden"] = [5]
    res = fresh.post("/api/history", data=json.dumps(history), headers=AUTH)
    assert res.status_code == 400 and "hidden" in res.get_json()["error"]


def test_a_gzipped_history_is_taken_and_a_bomb_is_not(client: FlaskClient, tmp_path, monkeypatch):
    import gzip

    from companion.web.api import plays

    for seed in range(2):
        played(client, ["Anna", "Benno"], seed, f"2026-03-0{seed + 1}T19:00")
    raw = client.get("/api/history").get_data()
    fresh, _ = _fresh(client, tmp_path)
    packed = gzip.compress(raw)
    assert len(packed) < len(raw) / 4
    assert fresh.post("/api/history", data=packed, headers=AUTH).get_json() == {"added": 2, "skipped": 0}
    res = fresh.post("/api/history", data=packed[: len(packed) // 2], headers=AUTH)
    assert res.status_code == 400 and "gzip" in res.get_json()["error"]
    monkeypatch.setattr(plays, "UNZIPPED", 1000)
    res = fresh.post("/api/history", data=gzip.compress(b" " * 5000 + raw), headers=AUTH)
    assert res.status_code == 413 and "MB" in res.get_json()["error"]
    assert len(fresh.get("/api/games").get_json()["games"]) == 2
