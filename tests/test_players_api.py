"""The players' routes (companion/web/api/players.py): reading is open, changes need the PIN, and a bad
request gets a clear message and changes nothing."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.table.session import Table
from companion.table.simulate import simulated_lines
from companion.web import create_app
from tests.conftest import AUTH


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def played(client: FlaskClient, players: list[str], seed: int, when: str) -> int:
    lines = list(simulated_lines("heckmeck", players, seed=seed))
    timed = [lines[0]] + [json.dumps({**json.loads(line), "at": when}) for line in lines[1:]]
    res = client.post("/api/games/import", data="\n".join(timed), headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


@pytest.fixture
def evening(client: FlaskClient) -> dict[str, int]:
    played(client, ["Anna", "Benno"], 1, "2026-03-01T19:00:00+00:00")
    played(client, ["benno", "Anna", "Carla"], 2, "2026-03-01T21:00:00+00:00")
    played(client, ["Anna", "Carla"], 3, "2026-03-05T20:00:00+00:00")
    return {p["name"]: p["id"] for p in client.get("/api/players").get_json()["players"]}


def test_players_list_their_games_wins_and_rating(client: FlaskClient, evening: dict[str, int]):
    players = client.get("/api/players").get_json()["players"]
    assert [p["name"] for p in players] == ["Anna", "Benno", "Carla"]
    anna = players[0]["games"]["heckmeck"]
    assert anna["games"] == 3 and set(anna) == {"games", "wins", "rating"}
    ratings = [p["games"]["heckmeck"]["rating"] for p in players]
    assert sum(ratings) == pytest.approx(3 * 1500, abs=2)  # Elo moves points between players


def test_a_players_page_and_an_unknown_one(client: FlaskClient, evening: dict[str, int]):
    page = client.get(f"/api/players/{evening['Benno']}").get_json()
    assert page["name"] == "Benno" and page["games"]["heckmeck"]["games"] == 2
    assert len(page["games"]["heckmeck"]["ratings"]) == 2
    res = client.get("/api/players/999")
    assert res.status_code == 404 and "999" in res.get_json()["error"]


def test_leaderboard_by_rating_and_an_unknown_game(client: FlaskClient, evening: dict[str, int]):
    board = client.get("/api/leaderboard/heckmeck").get_json()
    ratings = [row["rating"] for row in board["players"]]
    assert ratings == sorted(ratings, reverse=True) and board["k"] == 32 and board["start"] == 1500
    assert client.get("/api/leaderboard/lasvegas").get_json()["players"] == []
    res = client.get("/api/leaderboard/chess")
    assert res.status_code == 409 and "chess" in res.get_json()["error"]


def test_nights_split_at_six_hours(client: FlaskClient, evening: dict[str, int]):
    nights = client.get("/api/nights").get_json()["nights"]
    assert [len(n["games"]) for n in nights] == [1, 2]  # newest first
    assert all(n["games"][0]["winners"] for n in nights)


def test_changes_need_the_pin(client: FlaskClient, evening: dict[str, int]):
    res = client.put(f"/api/players/{evening['Benno']}", json={"name": "Ben"})
    assert res.status_code == 403
    assert [p["name"] for p in client.get("/api/players").get_json()["players"]] == ["Anna", "Benno", "Carla"]


def test_rename_merge_delete_and_fix_a_seat(client: FlaskClient, evening: dict[str, int]):
    anna, benno, carla = evening["Anna"], evening["Benno"], evening["Carla"]
    assert client.put(f"/api/players/{benno}", json={"name": "Ben"}, headers=AUTH).get_json()["name"] == "Ben"
    # Carla sat in game 3 in fact as Benno: fix that seat (game 3, seat 1)
    res = client.put("/api/games/3/seats/1", json={"player": benno}, headers=AUTH)
    assert res.status_code == 200
    assert client.get(f"/api/players/{carla}").get_json()["games"]["heckmeck"]["games"] == 1
    res = client.delete(f"/api/players/{carla}", headers=AUTH)
    assert res.status_code == 200
    names = [p["name"] for p in client.get("/api/players").get_json()["players"]]
    assert names == ["Anna", "Ben"]
    assert client.get(f"/api/players/{anna}").get_json()["games"]["heckmeck"]["games"] == 3


@pytest.mark.parametrize(
    ("method", "path", "payload", "status", "words"),
    [
        ("post", "/api/players/{benno}/merge", {"from": "{benno}"}, 409, "themselves"),
        ("post", "/api/players/{benno}/merge", {"from": "{anna}"}, 409, "same game"),
        ("post", "/api/players/{benno}/merge", {"from": 999}, 404, "999"),
        ("post", "/api/players/{benno}/merge", {"from": "Anna"}, 400, "from"),
        ("put", "/api/players/{benno}", {"name": 5}, 400, "name"),
        ("put", "/api/players/{benno}", {"name": "ANNA"}, 409, "merge"),
        ("put", "/api/players/999", {"name": "Zed"}, 404, "999"),
        ("delete", "/api/players/999", None, 404, "999"),
        ("put", "/api/games/1/seats/0", {"player": 999}, 404, "999"),
        ("put", "/api/games/1/seats/5", {"player": "{anna}"}, 409, "seat"),
        ("put", "/api/games/99/seats/0", {"player": "{anna}"}, 409, "seat"),
    ],
)
def test_bad_changes_say_why_and_change_nothing(client, evening, method, path, payload, status, words):
    def fill(value):
        if isinstance(value, str) and value.startswith("{"):
            return evening[value.strip("{}").capitalize()]
        return value

    before = [client.get(f"/api/players/{i}").get_json() for i in evening.values()]
    body = None if payload is None else {k: fill(v) for k, v in payload.items()}
    res = getattr(client, method)(path.format(benno=evening["Benno"], anna=evening["Anna"]), json=body, headers=AUTH)
    assert res.status_code == status
    assert words in res.get_json()["error"]
    assert [client.get(f"/api/players/{i}").get_json() for i in evening.values()] == before


def test_a_malformed_body_is_refused(client: FlaskClient, evening: dict[str, int]):
    res = client.put(f"/api/players/{evening['Anna']}", data="[1,", headers=AUTH)
    assert res.status_code == 400 and res.get_json()["error"]


def test_a_deleted_players_name_leaves_the_games_list_but_not_the_record(client: FlaskClient, evening):
    assert client.delete(f"/api/players/{evening['Benno']}", headers=AUTH).status_code == 200
    listed = {g["id"]: g["players"] for g in client.get("/api/games").get_json()["games"]}
    assert listed == {1: ["Anna", "a former player"], 2: ["a former player", "Anna", "Carla"], 3: ["Anna", "Carla"]}
    header = json.loads(client.get("/api/games/1/record").get_data(as_text=True).splitlines()[0])
    assert header["players"] == ["Anna", "Benno"]
    german = client.get("/api/games?lang=de").get_json()["games"]
    assert [g["players"] for g in german if g["id"] == 1] == [["Anna", "ein früherer Spieler"]]
