"""The rating per game (companion/store/ratings.py): hand-worked examples, then properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.store.played import Played, Seat, places
from companion.store.ratings import START, deltas, expected, rate


def game(game_id: int, when: str, *ranked: tuple[int, int], name: str = "heckmeck") -> Played:
    """A game of players ``(id, place)``; scores follow the places."""
    seats = tuple(Seat(i, f"p{pid}", pid, 10 - place, place) for i, (pid, place) in enumerate(ranked))
    return Played(game_id, name, when, None, seats)


def test_two_players_equal_ratings_winner_takes_sixteen():
    # E = 1/2 each; K * (1 - 1/2) = 16, summed over one pair, divided by n - 1 = 1
    assert deltas([1500, 1500], [1, 2]) == pytest.approx([16, -16])


def test_two_players_the_favourite_gains_less():
    # E(1600 vs 1400) = 1 / (1 + 10^(-200/400)) = 1 / 1.316228 = 0.759747; 32 * 0.240253 = 7.688
    assert expected(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert deltas([1600, 1400], [1, 2]) == pytest.approx([7.688, -7.688], abs=1e-3)
    # the underdog winning: 32 * (1 - 0.240253) = 24.312
    assert deltas([1600, 1400], [2, 1]) == pytest.approx([-24.312, 24.312], abs=1e-3)


def test_three_players_equal_ratings():
    # first: (1/2 + 1/2) * 32 / 2 = 16; second: (-1/2 + 1/2) = 0; last: -16
    assert deltas([1500, 1500, 1500], [1, 2, 3]) == pytest.approx([16, 0, -16])


def test_three_players_unequal_ratings():
    # C (1400) wins, A (1600) second, B (1500) last.
    # C: 32 * ((1 - 0.240253) + (1 - 0.359935)) / 2 = 22.397
    # A: 32 * ((0 - 0.759747) + (1 - 0.640065)) / 2 = 16 * -0.399812 = -6.397
    # B: 32 * ((0 - 0.359935) + (0 - 0.640065)) / 2 = -16.0 (against 1600 and 1400 the two E sum to 1)
    got = deltas([1600, 1500, 1400], [2, 3, 1])
    assert got == pytest.approx([-6.397, -16.0, 22.397], abs=1e-3)
    assert sum(got) == pytest.approx(0)


def test_five_players_with_a_tie():
    # places 1, 2, 2, 4, 5 at 1500: a tie counts half, E = 1/2 throughout
    # 1st: 4 * 1/2 = 2 -> 64 / 4 = 16; 2nd: -1/2 + 0 + 1/2 + 1/2 = 1/2 -> 4; 4th: -1/2 * 3 + 1/2 = -1 -> -8;
    # 5th: -2 -> -16
    assert deltas([1500] * 5, [1, 2, 2, 4, 5]) == pytest.approx([16, 4, 4, -8, -16])


def test_a_tie_of_two_equals_changes_nothing():
    assert deltas([1500, 1500], [1, 1]) == pytest.approx([0, 0])


def test_a_tie_against_a_stronger_player_gains():
    got = deltas([1400, 1600], [1, 1])
    assert got[0] == pytest.approx(32 * (0.5 - 0.240253), abs=1e-3) and got[1] == pytest.approx(-got[0])


def test_games_count_in_the_order_played_and_each_game_name_apart():
    history = rate(
        [
            game(2, "2026-01-02T20:00:00+00:00", (1, 2), (2, 1)),
            game(1, "2026-01-01T20:00:00+00:00", (1, 1), (2, 2)),
            game(3, "2026-01-03T20:00:00+00:00", (1, 1), (2, 2), name="lasvegas"),
        ]
    )
    first = history["heckmeck"][1]
    assert [c.game_id for c in first] == [1, 2]
    assert first[0].after == pytest.approx(1516)
    # then 1516 loses to 1484: E = 1/(1+10^(-32/400)) = 0.545922; 32 * (0 - 0.545922) = -17.469
    assert first[1].after == pytest.approx(1516 - 17.469, abs=1e-3)
    assert history["lasvegas"][1][0].before == START


def test_places_rules_winners_first_then_scores_with_shared_places():
    assert places([5, 9, 9, 1], winners=[1, 2]) == [3, 1, 1, 4]
    assert places([9, 9, 3], winners=[1]) == [2, 1, 3]  # the rules broke the tie on score


@st.composite
def results(draw: st.DrawFn) -> tuple[list[float], list[int]]:
    n = draw(st.integers(2, 5))
    ratings = draw(st.lists(st.floats(1000, 2000), min_size=n, max_size=n))
    scores = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    return ratings, places(scores, [])


@given(results())
def test_a_sole_winner_never_loses_and_a_sole_last_never_gains(case):
    ratings, ranks = case
    change = deltas(ratings, ranks)
    if ranks.count(1) == 1:
        assert change[ranks.index(1)] >= 0
    worst = max(ranks)
    if ranks.count(worst) == 1 and worst > 1:
        assert change[ranks.index(worst)] <= 0
    assert sum(change) == pytest.approx(0, abs=1e-9)


@st.composite
def seasons(draw: st.DrawFn) -> list[Played]:
    out = []
    for gid in range(draw(st.integers(1, 12))):
        who = draw(st.lists(st.integers(1, 6), min_size=2, max_size=5, unique=True))
        scores = draw(st.lists(st.integers(0, 4), min_size=len(who), max_size=len(who)))
        ranks = places(scores, [])
        day = draw(st.integers(1, 28))
        out.append(game(gid, f"2026-02-{day:02d}T20:00:00+00:00", *zip(who, ranks, strict=True)))
    return out


@given(seasons(), st.randoms())
def test_the_same_games_in_another_order_rate_the_same(games, rng):
    shuffled = list(games)
    rng.shuffle(shuffled)
    # an import gives the games new ids: the order must come from when they were played and what they hold
    renumbered = [Played(100 + i, g.game, g.played, g.seconds, g.seats) for i, g in enumerate(shuffled)]
    before = {p: round(ch[-1].after, 6) for p, ch in rate(games).get("heckmeck", {}).items()}
    after = {p: round(ch[-1].after, 6) for p, ch in rate(renumbered).get("heckmeck", {}).items()}
    assert before == after
