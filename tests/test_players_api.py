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


def _everything_about(client: FlaskClient, game_id: int) -> str:
    """Every answer that shows one past game: the list, its record, story, statistics, the CSV, BG Stats,
    the history file, and the game opened on the table."""
    texts = [
        client.get(url).get_data(as_text=True)
        for url in (
            "/api/games",
            f"/api/games/{game_id}/record",
            f"/api/games/{game_id}/history",
            f"/api/games/{game_id}/stats",
            "/api/plays.csv",
            "/api/history",
            f"/api/games/{game_id}/bgstats",
        )
    ]
    assert client.post(f"/api/games/{game_id}/open", headers=AUTH).status_code == 200
    texts.append(client.get("/api/state").get_data(as_text=True))
    return "\n".join(texts)


def test_a_deleted_players_name_leaves_every_past_game(client: FlaskClient, evening):
    assert "Benno" in _everything_about(client, 1)  # the check can see the name
    assert client.delete(f"/api/players/{evening['Benno']}", headers=AUTH).status_code == 200
    listed = {g["id"]: g["players"] for g in client.get("/api/games").get_json()["games"]}
    assert listed == {1: ["Anna", "#2"], 2: ["#1", "Anna", "Carla"], 3: ["Anna", "Carla"]}
    for game_id in (1, 2):
        everything = _everything_about(client, game_id)
        assert "benno" not in everything.casefold()
    record = client.get("/api/games/1/record").get_data(as_text=True)
    assert json.loads(record.splitlines()[0])["players"] == ["Anna", "#2"]
    page = client.get(f"/api/players/{evening['Anna']}").get_json()
    assert page["games"]["heckmeck"]["games"] == 3  # the results stay
    assert client.post("/api/games/import", data=record, headers=AUTH).status_code == 201  # it still replays


def test_two_deleted_players_in_one_game_stay_two(client: FlaskClient, evening):
    for name in ("Benno", "Carla"):
        assert client.delete(f"/api/players/{evening[name]}", headers=AUTH).status_code == 200
    listed = {g["id"]: g["players"] for g in client.get("/api/games").get_json()["games"]}
    assert listed[2] == ["#1", "Anna", "#3"]
    assert client.get("/api/games/2/history").status_code == 200


def test_a_deleted_player_leaves_a_game_not_yet_finished(client: FlaskClient, evening):
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Carla", "Dora"]}, headers=AUTH)
    game_id = res.get_json()["id"]
    assert client.delete(f"/api/players/{evening['Carla']}", headers=AUTH).status_code == 200
    state = client.get("/api/state").get_data(as_text=True)
    assert "Carla" not in state and "#1" in state and "Dora" in state
    assert client.get(f"/api/games/{game_id}/record").get_data(as_text=True).count("Carla") == 0


def test_the_usual_colour_is_kept_by_the_companion_for_every_tablet(client: FlaskClient, evening):
    res = client.post(
        "/api/games", json={"game": "heckmeck", "players": ["Anna", "Dora"], "colours": ["green", "Purple"]},
        headers=AUTH,
    )
    assert res.status_code == 201
    assert client.get("/api/state").get_json()["game"]["colours"] == ["green", "purple"]  # every tablet's view
    colours = {p["name"]: p["colour"] for p in client.get("/api/players").get_json()["players"]}
    assert colours == {"Anna": "green", "Benno": None, "Carla": None}  # Dora is known once a game of hers ends
    client.post("/api/games", json={"game": "heckmeck", "players": ["Carla", "anna"], "colours": ["red", "blue"]},
                headers=AUTH)
    colours = {p["name"]: p["colour"] for p in client.get("/api/players").get_json()["players"]}
    assert colours == {"Anna": "blue", "Benno": None, "Carla": "red"}  # the latest choice, whatever the case


@pytest.mark.parametrize("colours", [["red"], "red", ["red", 5], ["red", "<b>"], ["red", "x" * 17]])
def test_bad_colours_start_no_game(client: FlaskClient, evening, colours):
    before = len(client.get("/api/games").get_json()["games"])
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Anna", "Dora"], "colours": colours},
                      headers=AUTH)
    assert res.status_code == 400 and "colour" in res.get_json()["error"]
    assert len(client.get("/api/games").get_json()["games"]) == before
