"""Each player's own phone: joining a seat, its rights (its own choices, nothing more), withdrawing
it, a second phone replacing the first, the end of the game, and guessing tokens and codes."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.access.seats import CLIENT_WINDOWS, ENDED, REPLACED, UNKNOWN, WITHDRAWN, Seats, typed_code
from companion.config import Config
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN, "X-Device": "t1"}
NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def start(client: FlaskClient, game: str = "cincinnati", options: dict[str, Any] | None = None,
          players: list[str] = NAMES) -> int:
    res = client.post("/api/games", json={"game": game, "players": players,
                                          "options": options or {"virtual_deck": True}}, headers=AUTH)
    assert res.status_code == 201, res.get_json()
    game_id: int = res.get_json()["id"]
    return game_id


def invite(client: FlaskClient, seat: int, **body: Any) -> dict[str, Any]:
    res = client.post(f"/api/seats/{seat}", json=body, headers=AUTH)
    assert res.status_code == 200, res.get_json()
    found: dict[str, Any] = res.get_json()["invite"]
    return found


def join(client: FlaskClient, seat: int) -> dict[str, str]:
    token = invite(client, seat)["link"].rsplit("/", 1)[1]
    res = client.post("/api/phone/join", json={"token": token})
    assert res.status_code == 200, res.get_json()
    assert res.get_json()["seat"] == seat and res.get_json()["name"] == NAMES[seat]
    return {"X-Phone-Session": res.get_json()["session"]}


def choose(client: FlaskClient, phone: dict[str, str], seat: int, table: str) -> Any:
    return client.post("/api/phone/input", json={"action": {"type": "choose", "player": seat, "table": table}},
                       headers=phone)


def error(res: Any) -> str:
    text: str = res.get_json()["error"]
    return text


def test_the_tablet_shows_a_qr_code_and_a_code_per_seat_and_a_code_joins(client: FlaskClient) -> None:
    start(client)
    assert client.get("/api/seats").status_code == 403, "the invitations are the table's: the PIN first"
    first = invite(client, 1)
    assert first["qr"].lstrip().startswith("<svg") and "/phone/" in first["link"]
    listed = client.get("/api/seats", headers=AUTH).get_json()["seats"]
    assert [s["invite"] is not None for s in listed] == [False, True, False]
    typed = "-".join([first["code"][:3].lower(), first["code"][3:]])  # as a person types it
    res = client.post("/api/phone/join", json={"code": typed})
    assert res.status_code == 200 and res.get_json()["seat"] == 1
    assert client.get("/phone/" + first["link"].rsplit("/", 1)[1]).status_code == 200, "the page needs no PIN"
    me = client.get("/api/phone", headers={"X-Phone-Session": res.get_json()["session"]}).get_json()
    assert me["name"] == "Bob" and me["game"] == "cincinnati" and me["act"] and me["kind"] == "secret"
    assert [o["action"] for o in me["options"]] == [{"type": "choose", "player": 1, "table": t} for t in "AC"]


def test_three_phones_choose_at_once_and_no_one_sees_another_choice(client: FlaskClient) -> None:
    start(client)
    phones = [join(client, s) for s in range(3)]
    assert choose(client, phones[0], 0, "C").status_code == 200
    assert choose(client, phones[1], 1, "A").status_code == 200
    board = client.get("/api/state").get_json()["game"]["scoreboard"]
    assert [p["chosen"] for p in board["players"]] == [True, True, False]
    assert all(p["table"] is None for p in board["players"]) and all(t["players"] is None for t in board["tables"])
    mine = [client.get("/api/phone", headers=p).get_json() for p in phones]
    assert [m["private"] for m in mine] == [{"table": "C"}, {"table": "A"}, {"table": None}], "each its own only"
    assert not mine[0]["act"] and mine[2]["act"] and not mine[0]["options"]
    assert choose(client, phones[2], 2, "A").status_code == 200
    board = client.get("/api/state").get_json()["game"]["scoreboard"]
    assert [p["table"] for p in board["players"]] == ["C", "A", "A"], "revealed together once all are in"


def test_a_phone_acts_for_its_own_seat_only(client: FlaskClient) -> None:
    start(client)
    before = client.get("/api/state").get_json()["version"]
    phone = join(client, 0)
    res = choose(client, phone, 1, "A")
    assert res.status_code == 403 and "own player" in error(res)
    assert choose(client, {"X-Phone-Session": ""}, 0, "A").status_code == 403
    for path, method in (("/api/undo", "post"), ("/api/redo", "post"), ("/api/input", "post"),
                         ("/api/seats/0", "post"), ("/api/seats/1", "delete"), ("/api/seats", "get"),
                         ("/api/seats/1/peek", "post"), ("/api/odds/settings", "put")):
        res = getattr(client, method)(path, json={"on": True}, headers=phone)
        assert res.status_code == 403, f"{method} {path} with a phone's session"
    res = client.put("/api/seats/settings", json={"own_moves": True}, headers=phone)
    assert res.status_code == 403, "the settings are the table's"
    assert client.get("/api/state").get_json()["version"] == before, "nothing changed"


def test_own_moves_only_on_the_players_turn_and_only_when_the_table_allows(client: FlaskClient) -> None:
    start(client, "lasvegas", {"virtual_deck": True}, NAMES)
    phones = [join(client, s) for s in range(3)]
    roll = {"type": "roll", "dice": [{"face": f, "colour": "red"} for f in (1, 1, 2, 3, 4, 5, 6, 6)]}
    res = client.post("/api/phone/input", json={"action": roll}, headers=phones[0])
    assert res.status_code == 403 and "tablet" in error(res), "own moves are off until the table allows them"
    assert client.put("/api/seats/settings", json={"own_moves": True}, headers=AUTH).status_code == 200
    current = client.get("/api/state").get_json()["game"]["scoreboard"]["current"]
    other = (current + 1) % 3
    res = client.post("/api/phone/input", json={"action": roll}, headers=phones[other])
    assert res.status_code == 403 and "not your turn" in error(res)
    colour = client.get("/api/state").get_json()["game"]["scoreboard"]["players"][current]["colour"]
    mine = {"type": "roll", "dice": [{"face": f, "colour": colour} for f in (1, 1, 2, 3, 4, 5, 6, 6)]}
    assert client.post("/api/phone/input", json={"action": mine}, headers=phones[current]).status_code == 200
    me = client.get("/api/phone", headers=phones[current]).get_json()
    assert me["act"] and me["options"], "placing the dice is the player's own move"
    res = client.post("/api/phone/input", json={"action": me["options"][0]["action"]}, headers=phones[other])
    assert res.status_code == 403
    assert client.post("/api/phone/input", json={"action": me["options"][0]["action"]},
                       headers=phones[current]).status_code == 200


def test_a_withdrawn_seat_is_refused_on_every_phone_route_with_the_reason(client: FlaskClient) -> None:
    start(client)
    first = invite(client, 2)
    token = first["link"].rsplit("/", 1)[1]
    phone = {"X-Phone-Session": client.post("/api/phone/join", json={"token": token}).get_json()["session"]}
    assert client.delete("/api/seats/2", headers=AUTH).get_json() == {"revoked": True}
    answers = [
        client.get("/api/phone", headers=phone),
        choose(client, phone, 2, "A"),
        client.post("/api/phone/join", json={"token": token}),
        client.post("/api/phone/join", json={"code": first["code"]}),
    ]
    assert [a.status_code for a in answers] == [403, 403, 403, 403]
    assert [error(a) for a in answers[:3]] == [str(WITHDRAWN)] * 3
    assert error(answers[3]) == str(UNKNOWN), "a withdrawn code is nobody's now"
    assert client.get("/api/state").get_json()["game"]["scoreboard"]["players"][2]["chosen"] is False


def test_a_phone_that_joins_twice_replaces_the_first(client: FlaskClient) -> None:
    start(client)
    token = invite(client, 0)["link"].rsplit("/", 1)[1]
    old = {"X-Phone-Session": client.post("/api/phone/join", json={"token": token}).get_json()["session"]}
    new = {"X-Phone-Session": client.post("/api/phone/join", json={"token": token}).get_json()["session"]}
    res = choose(client, old, 0, "C")
    assert res.status_code == 403 and error(res) == str(REPLACED)
    assert choose(client, new, 0, "C").status_code == 200


def test_a_seat_ends_with_the_game_unless_kept_for_the_night(client: FlaskClient) -> None:
    start(client)
    plain = join(client, 0)
    token = invite(client, 1, night=True)["link"].rsplit("/", 1)[1]
    kept = {"X-Phone-Session": client.post("/api/phone/join", json={"token": token}).get_json()["session"]}
    start(client, players=["Dee", "Bob", "Ann"])
    res = client.get("/api/phone", headers=plain)
    assert res.status_code == 403 and error(res) == str(ENDED)
    me = client.get("/api/phone", headers=kept).get_json()
    assert me["name"] == "Bob" and me["seat"] == 1, "kept for the night: Bob's phone follows Bob"
    start(client, players=["Dee", "Eve", "Fay"])
    assert error(client.get("/api/phone", headers=kept)) == str(ENDED), "no Bob in this game"


def test_guessing_codes_and_tokens_is_limited_like_the_pin(client: FlaskClient) -> None:
    start(client)
    right = invite(client, 0)
    allowed = CLIENT_WINDOWS[0].guesses
    codes = [client.post("/api/phone/join", json={"code": f"ZZZZ{i:02d}"}).status_code for i in range(allowed)]
    assert codes == [403] * allowed
    res = client.post("/api/phone/join", json={"code": right["code"]})
    assert res.status_code == 429 and int(res.headers["Retry-After"]) > 0, "not even the right code while spent"
    res = client.get("/api/phone", headers={"X-Phone-Session": "guessed"})
    assert res.status_code == 429, "a guessed session spends the same budget"


def test_a_joined_phone_plays_on_while_a_guesser_is_refused(table: Table, config: Config) -> None:
    now = [1000.0]
    seats = Seats(clock=lambda: now[0])
    client = create_app(table, config=config, seats=seats).test_client()
    start(client)
    phone = join(client, 0)
    for i in range(20):
        client.post("/api/phone/join", json={"code": f"WRONG{i}"})
    assert seats.budget.counted() == CLIENT_WINDOWS[0].guesses, "refused guesses are not even checked"
    assert choose(client, phone, 0, "A").status_code == 200
    now[0] += 61
    assert client.post("/api/phone/join", json={"code": "WRONG0"}).status_code == 403, "a minute later: one more"


def test_codes_are_typed_loosely_but_compared_whole() -> None:
    assert typed_code(" k7q-m2x ") == "K7QM2X"
    seats = Seats()
    one = seats.invite(1, 0, "Ann")
    _, session = seats.join("", one.code.lower(), "10.0.0.1")
    assert seats.phone(session, "10.0.0.1").seat == 0
    with pytest.raises(Exception) as refused:
        seats.join("", one.code[:-1], "10.0.0.1")
    assert getattr(refused.value, "status", None) == 403
