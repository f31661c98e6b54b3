"""Cincinnati records and the session: the example game, simulation, the virtual deck, the camera's throw."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.i18n.render import localize
from companion.store.journal import Journal
from companion.store.record import replay_file, replay_lines
from companion.table.session import COMPANION_DEVICE, Table
from companion.table.simulate import simulated_lines

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "seeds/examples/cincinnati-4-players.jsonl"


def test_the_example_game_is_the_simulation_of_seed_1_and_replays_to_its_end() -> None:
    lines = EXAMPLE.read_text().splitlines()
    assert lines == list(simulated_lines("cincinnati", ["Ann", "Bob", "Cy", "Di"], seed=1))
    result = replay_file(EXAMPLE)
    assert result["over"] and result["outcome"]["winners"]
    types = {json.loads(line)["action"]["type"] for line in lines[1:]}
    assert types >= {"card", "choose", "roll", "pass", "buy", "no_more", "challenge"}


def test_simulated_games_of_every_size_replay_with_undo_and_redo() -> None:
    for players in (3, 4, 5, 6):
        names = [f"P{i}" for i in range(players)]
        lines = list(simulated_lines("cincinnati", names, {"virtual_deck": players == 5}, seed=players, undo_rate=0.05))
        timeline = replay_lines(lines)
        assert timeline.rules.outcome(timeline.state) is not None


def cincinnati_table(journal: Journal, virtual: bool) -> Table:
    table = Table(journal, rng=random.Random(2))
    table.new_game("cincinnati", ["Ann", "Bob", "Cy", "Di"], {"virtual_deck": virtual})
    return table


def test_the_virtual_deck_lays_the_cards_and_the_players_choose_next(journal: Journal) -> None:
    table = cincinnati_table(journal, True)
    game = table.view()["game"]
    assert game["awaiting"]["kind"] == "secret" and game["awaiting"]["players"] == [0, 1, 2, 3]
    assert all(len(t["cards"]) == 1 for t in game["scoreboard"]["tables"])
    entries = list(journal.entries(table.game_id or 0))
    assert entries and all(e["device"] == COMPANION_DEVICE and e["action"]["type"] == "card" for e in entries)


def test_a_secret_choice_shows_in_no_view_until_all_have_chosen(journal: Journal) -> None:
    table = cincinnati_table(journal, True)
    table.submit({"type": "choose", "player": 2, "table": "C"}, device="phone:cy")
    game = table.view()["game"]
    board = game["scoreboard"]
    assert [p["chosen"] for p in board["players"]] == [False, False, True, False]
    assert all(p["table"] is None for p in board["players"]) and all(t["players"] is None for t in board["tables"])
    assert localize(game["undo_label"], "en") == "Cy has chosen a table." and "table C" not in json.dumps(game["log"])
    assert 2 not in game["awaiting"]["players"] and all(o["action"]["player"] != 2 for o in game["awaiting"]["options"])
    for seat, choice in ((0, "A"), (1, "B"), (3, "B")):
        table.submit({"type": "choose", "player": seat, "table": choice}, device=f"phone:{seat}")
    board = table.view()["game"]["scoreboard"]
    assert [p["table"] for p in board["players"]] == ["A", "B", "C", "B"]


def test_the_camera_reading_goes_to_the_first_player_awaited(journal: Journal) -> None:
    table = cincinnati_table(journal, True)
    for seat, choice in enumerate("ABCA"):
        table.submit({"type": "choose", "player": seat, "table": choice}, device="t")
    first = table.view()["game"]["awaiting"]["players"][0]
    table.set_reading([{"face": f, "colour": None} for f in (3, 3, 3, 1, 2)])
    table.confirm(device="button:confirm")
    board = table.view()["game"]["scoreboard"]
    assert board["players"][first]["dice"] == [1, 2, 3, 3, 3]
    assert first not in table.view()["game"]["awaiting"]["players"]


def test_the_clearing_summary_names_the_round_it_was_cleared_in() -> None:
    """Issue 54: the page titled round 1's clearing "Round 2", since its results stay on show after the
    round has moved on. The view names the clearing's own round, checked over three whole games."""
    from companion.games import get_rules

    rules = get_rules("cincinnati")
    for seed in (1, 2, 3):
        lines = list(simulated_lines("cincinnati", ["Ann", "Bob", "Cy", "Di"], seed=seed))
        state = rules.setup(("Ann", "Bob", "Cy", "Di"), json.loads(lines[0]).get("options", {}))
        cleared_in, carried_over = None, 0
        for line in lines[1:]:
            before = rules.scoreboard(state)["round"]
            state, events = rules.apply(state, rules.action_from_json(json.loads(line)["action"]))
            if any(e.kind in ("cleared", "not_cleared") for e in events):
                cleared_in = before
            board = rules.scoreboard(state)
            if board["cleared"]:
                assert board["cleared_round"] == cleared_in
                carried_over += board["round"] != cleared_in
        assert cleared_in == 12
        assert carried_over > 0, "the results were on show into the next round"
