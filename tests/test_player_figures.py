"""300 random games across 12 players, imported through the journal: every figure on the players'
pages (companion/store/boards.py) matches a recount the test makes its own way from the records."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta

import pytest

from companion.store.boards import Boards
from companion.store.journal import Journal
from companion.store.players import Roster
from companion.store.record import final_view, replay_lines
from companion.table.session import Table
from companion.table.simulate import simulated_lines

PEOPLE = ["Anna", "Benno", "Carla", "Dora", "Emil", "Frida", "Gustav", "Hanna", "Ivo", "Jana", "Karl", "Lena"]
GAMES = 300


def timed(lines: list[str], start: datetime) -> list[str]:
    """The record with a time on every input, 20 seconds apart."""
    out = [lines[0]]
    for i, line in enumerate(lines[1:]):
        out.append(json.dumps({**json.loads(line), "at": (start + timedelta(seconds=20 * i)).isoformat()}))
    return out


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Boards, list[list[str]]]:
    rng = random.Random(55)
    journal = Journal(tmp_path_factory.mktemp("season") / "journal.sqlite3")
    table = Table(journal, rng=random.Random(0))
    records = []
    when = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)
    for seed in range(GAMES):
        game = rng.choice(["heckmeck", "lasvegas"])
        players = rng.sample(PEOPLE, rng.randint(2, 5))
        lines = timed(list(simulated_lines(game, players, seed=seed)), when)
        records.append(lines)
        # the next game: the same evening, or a later one
        when += timedelta(hours=rng.choice([1, 1, 2, 20, 48]))
    order = list(range(len(records)))
    rng.shuffle(order)  # imported in another order than played: the times decide
    for i in order:
        table.import_record(records[i])
    roster = Roster(journal)
    roster.sync()
    return Boards(roster.players(), roster.played()), records


def recount(records: list[list[str]]) -> list[tuple[str, str, list[tuple[str, int, int]]]]:
    """(game, ended, [(name, score, place)]) per record, oldest first, from each game's final view."""
    out = []
    for lines in records:
        view = final_view(replay_lines(lines))
        final = view["stats"]["series"][0]["values"][-1]
        winners = set(view["outcome"]["winners"])
        standing = [(seat in winners, score) for seat, score in enumerate(final)]
        ordered = sorted(standing, reverse=True)
        rows = [(name, final[i], ordered.index(standing[i]) + 1) for i, name in enumerate(view["players"])]
        ended = json.loads(lines[-1])["at"]
        out.append((view["game"], ended, rows))
    return sorted(out, key=lambda r: r[1])


def elo(games: list[tuple[str, str, list[tuple[str, int, int]]]], game: str) -> dict[str, float]:
    rating: dict[str, float] = defaultdict(lambda: 1500.0)
    for name, _, rows in games:
        if name != game:
            continue
        before = {n: rating[n] for n, _, _ in rows}
        for me, _, mine in rows:
            total = 0.0
            for other, _, theirs in rows:
                if other != me:
                    score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                    total += 32 * (score - 1 / (1 + 10 ** ((before[other] - before[me]) / 400)))
            rating[me] = before[me] + total / (len(rows) - 1)
    return dict(rating)


@pytest.mark.slow
def test_every_figure_matches_a_recount(season):
    boards, records = season
    games = recount(records)
    ids = {p["name"]: p["id"] for p in boards.all_players()}
    assert sorted(ids) == sorted(PEOPLE)
    for game in ["heckmeck", "lasvegas"]:
        ratings = elo(games, game)
        board = {row["name"]: row for row in boards.leaderboard(game)["players"]}
        for person in PEOPLE:
            mine = [(ended, r) for g, ended, rows in games if g == game for r in rows if r[0] == person]
            if not mine:
                assert person not in board
                continue
            row, page = board[person], boards.player(boards.players[ids[person] - 1])["games"][game]
            wins = [r[2] == 1 for _, r in mine]
            streak = best = 0
            for won in wins:
                streak = streak + 1 if won else 0
                best = max(best, streak)
            expected = {
                "games": len(mine),
                "wins": sum(wins),
                "win_rate": pytest.approx(sum(wins) / len(mine)),
                "average_place": pytest.approx(sum(r[2] for _, r in mine) / len(mine)),
                "best_score": max(r[1] for _, r in mine),
                "average_score": pytest.approx(sum(r[1] for _, r in mine) / len(mine)),
                "longest_streak": best,
                "rating": round(ratings[person]),
            }
            assert {k: row[k] for k in expected} == expected
            assert {k: page[k] for k in expected} == expected
            assert datetime.fromisoformat(page["last_played"]) == datetime.fromisoformat(mine[-1][0]).replace(
                microsecond=0
            )
            behind: Counter[str] = Counter()
            ahead: Counter[str] = Counter()
            for g, _, rows in games:
                me = next((r for r in rows if r[0] == person), None)
                if g != game or me is None:
                    continue
                better = [r for r in rows if r[2] < me[2]]
                ahead.update(r[0] for r in better)
                nearest = max((r[2] for r in better), default=None)
                behind.update(r[0] for r in better if r[2] == nearest)
            for key, counts in (("rival", behind), ("nemesis", ahead)):
                if not counts:
                    assert page[key] is None
                else:
                    top = max(counts.values())
                    assert page[key]["name"] in {n for n, c in counts.items() if c == top}
                    assert counts[page[key]["name"]] == top


@pytest.mark.slow
def test_nights_group_games_less_than_six_hours_apart(season):
    boards, records = season
    ends = sorted(datetime.fromisoformat(json.loads(lines[-1])["at"]) for lines in records)
    breaks = sum(1 for a, b in zip(ends, ends[1:], strict=False) if b - a >= timedelta(hours=6))
    nights = boards.nights()
    assert len(nights) == breaks + 1
    assert sum(len(n["games"]) for n in nights) == GAMES
    for night in nights:
        seconds = [g["seconds"] for g in night["games"]]
        assert night["longest"]["seconds"] == max(seconds)
        assert all(len(g["winners"]) >= 1 for g in night["games"])


def _stats(records: list[list[str]]) -> list[tuple[str, str, list[str], dict]]:
    """(game, ended, players, end-of-game statistics) per record, from the record's own final view."""
    out = []
    for lines in records:
        view = final_view(replay_lines(lines))
        out.append((view["game"], json.loads(lines[-1])["at"], view["players"], view["stats"]))
    return out


@pytest.mark.slow
def test_each_players_dice_match_the_end_of_game_statistics(season):
    boards, records = season
    ids = {p["name"]: p["id"] for p in boards.all_players()}
    stats = _stats(records)
    for person in PEOPLE:
        page = boards.player(boards.players[ids[person] - 1])["dice"]
        for kind, games in (("worm", ["heckmeck"]), ("plain", ["lasvegas"])):
            mine = [s["dice"][players.index(person)] for g, _, players, s in stats if g in games and person in players]
            if not mine:
                assert kind not in page
                continue
            counts = [sum(d["counts"][i] for d in mine) for i in range(6)]
            assert page[kind]["counts"] == counts and page[kind]["games"] == len(mine)
            assert page[kind]["dice"] == sum(counts) > 0
            assert 0 <= page[kind]["p"] <= 1


@pytest.mark.slow
def test_each_nights_luckiest_hand_and_biggest_swing_match_a_recount(season):
    boards, records = season
    by_id = {}
    stats = sorted(_stats(records), key=lambda r: r[1])
    for night in boards.nights():
        ends = {datetime.fromisoformat(g["played"]) for g in night["games"]}
        games = [s for s in stats if datetime.fromisoformat(s[1]).replace(microsecond=0) in ends]
        assert len(games) == len(night["games"])
        hands = [(d["z"], g, players[d["seat"]]) for g, _, players, s in games for d in s["dice"]
                 if d["dice"] >= 10]
        if not hands:
            assert night["luckiest"] is None
        else:
            z, game, name = max(hands, key=lambda h: h[0])
            assert night["luckiest"]["z"] == pytest.approx(z) and night["luckiest"]["name"] == name
        swings = []
        for _g, _, players, s in games:
            if s.get("swing"):
                final = s["series"][0]["values"][-1]
                share = abs(s["swing"]["delta"]) / (max(abs(v) for v in final) or 1)
                swings.append((share, players[s["swing"]["seat"]]))
        if swings:
            share, name = max(swings)
            assert night["swing"]["name"] in {n for sh, n in swings if sh == pytest.approx(share)}
        by_id[night["started"]] = night
    assert by_id
