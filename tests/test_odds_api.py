"""The odds switch, the odds endpoint and the end-of-game statistics through the JSON API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import simulated_lines
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def start(client: FlaskClient, **extra: object) -> int:
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"], **extra}, headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


def test_odds_are_off_by_default_and_the_table_switches_them_with_the_pin(client: FlaskClient) -> None:
    start(client)
    assert client.get("/api/state").get_json()["game"]["odds"] == {"on": False, "where": "all"}
    res = client.get("/api/odds")
    assert res.status_code == 409 and "off" in res.get_json()["error"]
    assert client.put("/api/odds/settings", json={"on": True}).status_code == 403
    assert client.get("/api/state").get_json()["game"]["odds"]["on"] is False
    res = client.put("/api/odds/settings", json={"on": True, "where": "ask"}, headers=AUTH)
    assert res.status_code == 200 and res.get_json()["settings"] == {"on": True, "where": "ask"}
    got = client.get("/api/odds").get_json()
    assert got["settings"]["where"] == "ask"
    reach = got["odds"]["reach"]
    assert [r["tile"] for r in reach] == list(range(21, 37)) and reach[0]["p"] > reach[-1]["p"] > 0


@pytest.mark.parametrize("bad", [{"on": "yes"}, {"where": "kitchen"}, {"colour": 1}, "on"])
def test_a_malformed_switch_is_refused_and_changes_nothing(client: FlaskClient, bad: object) -> None:
    start(client)
    res = client.put("/api/odds/settings", json=bad, headers=AUTH)
    assert res.status_code == 400
    assert client.get("/api/state").get_json()["game"]["odds"] == {"on": False, "where": "all"}


def test_the_switch_chosen_at_setup_survives_a_restart(tmp_path: Path, config: Config) -> None:
    journal = Journal(tmp_path / "odds.sqlite3")
    client = create_app(Table(journal), config=config).test_client()
    start(client, odds={"on": True, "where": "all"})
    client.post("/api/input", json={"action": {"type": "roll", "dice": ["worm", 5, 5, 4, 3, 2, 1, 1]}}, headers=AUTH)
    journal.close()
    again = Journal(tmp_path / "odds.sqlite3")
    client = create_app(Table(again), config=config).test_client()
    assert client.get("/api/state").get_json()["game"]["odds"] == {"on": True, "where": "all"}
    keeps = client.get("/api/odds").get_json()["odds"]["keeps"]
    assert [k["face"] for k in keeps] == [1, 2, 3, 4, 5, "worm"]
    assert sum(k["best"] for k in keeps) >= 1
    again.close()


def test_a_bad_switch_at_setup_starts_no_game(client: FlaskClient) -> None:
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["A", "B"], "odds": {"on": 1}}, headers=AUTH)
    assert res.status_code == 400
    assert client.get("/api/games").get_json()["games"] == []


def imported(client: FlaskClient, game: str, players: list[str], options: dict[str, object], **kw: int) -> int:
    lines = list(simulated_lines(game, players, options, seed=kw.get("seed", 1), max_inputs=kw.get("inputs", 100_000)))
    res = client.post("/api/games/import", data="\n".join(lines) + "\n", headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


@pytest.mark.parametrize(
    ("game", "players", "options", "key"),
    [
        ("lasvegas", ["A", "B", "C"], {"virtual_deck": True, "money_open": True}, "choices"),
        ("lordsofvegas", ["A", "B", "C"], {}, "payouts"),
        ("cincinnati", ["A", "B", "C", "D"], {"virtual_deck": True}, "players"),
    ],
)
def test_each_game_has_odds_on_the_table(
    client: FlaskClient, game: str, players: list[str], options: dict[str, object], key: str
) -> None:
    for inputs in range(40, 400, 7):
        game_id = imported(client, game, players, options, inputs=inputs)
        assert client.post(f"/api/games/{game_id}/open", headers=AUTH).status_code == 200
        client.put("/api/odds/settings", json={"on": True}, headers=AUTH)
        got = client.get("/api/odds?stake=3").get_json()["odds"]
        assert got["game"] == game
        if got.get(key):
            return
    pytest.fail(f"no position of {game} showed {key}")


def test_statistics_come_at_the_end_and_close_the_export(client: FlaskClient) -> None:
    unfinished = start(client)
    assert client.get(f"/api/games/{unfinished}/stats").status_code == 409
    assert client.get("/api/games/99/stats").status_code == 404
    game_id = imported(client, "heckmeck", ["Ann", "Bob", "Cy"], {})
    stats = client.get(f"/api/games/{game_id}/stats").get_json()
    assert stats["over"] and len(stats["busts"]) == 3 and stats["series"][0]["name"] == "worms"
    assert stats["luckiest"] in (0, 1, 2) and all(0 <= d["p"] <= 1 for d in stats["dice"])
    record = client.get(f"/api/games/{game_id}/record").data.decode().splitlines()
    last = json.loads(record[-1])
    assert last["type"] == "summary" and last["stats"] == stats
    copy = client.post("/api/games/import", data="\n".join(record) + "\n", headers=AUTH).get_json()["id"]
    assert client.get(f"/api/games/{copy}/record").data.decode().splitlines() == record


def test_a_heckmeck_turn_table_is_built_before_the_first_roll(client: FlaskClient, table: Table) -> None:
    import time as clock

    from companion.odds import heckmeck
    from companion.odds.service import TurnWarmer

    heckmeck.solver.cache_clear()
    warmer = next(listener for listener in table._listeners if isinstance(listener, TurnWarmer))
    start(client, odds={"on": True})
    for _ in range(600):  # the build runs in the background: wait for it (at most a minute)
        if not warmer._busy.locked():
            break
        clock.sleep(0.1)
    assert heckmeck.solver.cache_info().currsize == 2  # both objectives of the turn's board are built
    assert client.get("/api/odds").get_json()["odds"]["start"]["p_tile"] > 0.5


def test_no_odds_while_they_would_show_face_down_money(client: FlaskClient) -> None:
    game_id = imported(client, "lasvegas", ["A", "B", "C"], {"virtual_deck": True}, inputs=60)
    assert client.post(f"/api/games/{game_id}/open", headers=AUTH).status_code == 200
    client.put("/api/odds/settings", json={"on": True}, headers=AUTH)
    res = client.get("/api/odds")
    assert res.status_code == 409 and "face-down money" in res.get_json()["error"]
