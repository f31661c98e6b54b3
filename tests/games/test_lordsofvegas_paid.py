"""What a Lords of Vegas draw paid, as the tablet's summary card reads it from the scoreboard."""

from __future__ import annotations

from lordsofvegas_play import play  # type: ignore[import-not-found]

from companion.games.base import Die
from companion.games.lordsofvegas.actions import Build, Card, Roll
from companion.games.lordsofvegas.position import position
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState
from companion.i18n.render import localize

rules = LordsOfVegasRules()


def paid(state: LordsState) -> dict:  # type: ignore[type-arg]
    return rules.scoreboard(state)["paid"]  # type: ignore[no-any-return]


def test_a_draw_says_who_got_what_from_the_drawer_round_the_table() -> None:
    state = position(
        ["Ann", "Bob", "Cy"],
        tiles={"C1": ("gold", 0, 4), "E4": ("gold", 2, 3), "B1": ("gold", 1, 5)},
        markers={"A1": 2, "A2": 0},
        current=1,
        phase="draw",
    )
    assert paid(state) is None  # nothing drawn yet in this position
    state, events = play(state, Card("A4"))  # gold: every gold casino pays, then its boss scores
    record = paid(state)
    assert record["number"] == 1 and record["card"] == "A4" and record["drawer"] == 1
    assert [p["seat"] for p in record["players"]] == [1, 2, 0]  # from the drawer, Bob
    by_seat = {p["seat"]: p for p in record["players"]}
    # the record adds up to what the events paid, player by player
    for seat in range(3):
        mine = [e for e in events if e.data.get("player") == seat]
        money = sum(e.data["money"] for e in mine if e.kind in ("lots_paid", "casino_paid"))
        points = sum(e.data["to"] - e.data["from"] for e in mine if e.kind == "scored")
        assert (by_seat[seat]["money"], by_seat[seat]["points"]) == (money, points)
    assert by_seat[0]["money"] == 1 + 4 and by_seat[0]["points"] == 1  # A2 marked, C1 pays 4, one tile
    assert record["ties"] == [] and record["casinos_paid"] and record["no_casino"] is None
    english = localize(record, "en")
    assert english["title"] == "Bob drew A4 (Sphinx, gold)."
    assert "1 marked lot: $1M" in english["players"][2]["lines"]
    assert "casino at C1 (gold): $4M" in english["players"][2]["lines"]
    italian = localize(record, "it")
    assert italian["players"][2]["lines"] != english["players"][2]["lines"]


def test_a_boss_tie_made_by_the_draw_is_in_the_record_with_who_came_out_boss() -> None:
    state = position(["Ann", "Bob"], tiles={"A4": ("gold", 1, 5), "A5": ("gold", 1, 5)}, phase="draw")
    state, _ = play(state, Card("A5"))  # Ann takes A5 over with a 5: tied with Bob's 5
    assert state.wait is not None and paid(state) is None  # no summary until the payout is over
    state, _ = play(state, Roll((Die(2, "blue"), Die(4, "green"))))
    record = paid(state)
    assert record["ties"] == [{"casino": "A4", "players": [0, 1], "boss": 1, "text": record["ties"][0]["text"]}]
    assert localize(record, "en")["ties"][0]["text"] == (
        "Boss tie at A4 (gold) between Ann and Bob: rerolled, Bob is the boss."
    )
    # a silver card and no silver casino: the record says so
    assert not record["casinos_paid"] and localize(record, "en")["no_casino"].startswith("No casino of silver")


def test_ties_after_the_draw_are_not_the_draws_and_the_next_draw_replaces_the_record() -> None:
    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 1, 3)}, markers={"A1": 0}, money=(30, 0), phase="draw")
    state, _ = play(state, Card("E1"))
    first = paid(state)
    assert first["number"] == 1 and first["players"][0]["seat"] == 0
    state, _ = play(state, Build("A1", "gold"))  # Ann's die on A1 may tie Bob's 3: not part of the draw
    assert paid(state) == first
