"""The reliability and security harness in its short mode (``python -m harness``; long mode figures
are in docs/reliability.md). Each part's own figures are the assertions."""

from __future__ import annotations

import pytest

from harness.__main__ import SHORT

pytestmark = pytest.mark.slow


def test_kill_9_loses_no_acknowledged_input() -> None:
    from harness import kills

    result = kills.run(**SHORT["kills"])  # type: ignore[arg-type]
    assert result["kills"] == SHORT["kills"]["kills"] and result["acknowledged"] > 0
    assert result["lost"] == 0 and result["mismatched"] == 0 and result["crashed_starts"] == 0
    assert result["kills_during_start"] > 0  # the seed puts some kills in start-up
    # safe mode follows a start that did not finish, and nothing else
    assert result["safe_after_finished"] == 0 and result["marker_after_finished"] == 0
    assert result["normal_after_unfinished"] == 0


def test_every_corruption_kind_is_whole_or_refused_with_a_banner() -> None:
    from harness import corrupt

    result = corrupt.run(**SHORT["corrupt"])  # type: ignore[arg-type]
    flips = sum(corrupt.FLIPS[False])
    assert result["kinds"] == len(corrupt.KINDS) + flips + 1 >= 90  # and the read-only root
    assert result["silent_losses"] == 0 and result["crashes"] == 0 and result["other_failures"] == 0, result["results"]
    assert result["refused_with_banner"] >= 50  # most kinds lose something: they must be caught, not played on
    assert result["safe_with_banner"] + result["skipped"] == 2  # a folder for the start marker; a read-only root
    refused = [r for r in result["results"].values() if r["outcome"] == "refused"]
    assert all(r["banner"] and r["untouched"] for r in refused)


def test_fuzzed_requests_get_no_server_error_and_refusals_change_nothing() -> None:
    from harness import fuzz

    result = fuzz.run(**SHORT["fuzz"])  # type: ignore[arg-type]
    assert result["requests"] >= 100 and result["accepted"] > 0 and result["refused"] > 0
    assert result["server_errors"] == 0 and result["refused_changes"] == 0, result["failures"][:5]


def test_importer_and_replay_take_any_bytes() -> None:
    from harness import records

    result = records.run(**SHORT["records"])  # type: ignore[arg-type]
    assert result["failures"] == 0 and result["imported"] > 0 and result["import_refused"] > 0


def test_pin_guessing_from_many_addresses_over_every_route_is_slowed_past_a_year() -> None:
    from harness import bruteforce

    result = bruteforce.run(**SHORT["pin"])  # type: ignore[arg-type]
    burst = result["burst"]
    assert burst["routes"] == 31 and burst["addresses"] == SHORT["pin"]["addresses"]
    assert burst["checked"] <= 25 < burst["sent"]  # one budget for the table, whatever the route and address
    assert burst["at_once_one_address"] == 5 and burst["at_once_60_addresses"] == 25
    assert result["virtual_days_for_all"] >= 7  # 200 guesses at 25 a day: the last comes on the eighth day
    assert result["extrapolated_days_for_10000"] > 365


def test_many_tablets_all_get_every_input() -> None:
    from harness import tablets

    result = tablets.run(**SHORT["tablets"])  # type: ignore[arg-type]
    assert result["connected"] == result["tablets"] and result["streams_lost"] == 0
    assert result["failed"] == 0 and result["missed_pairs"] == 0 and result["inputs"] == SHORT["tablets"]["inputs"]


def test_disk_full_read_only_and_stalled() -> None:
    from harness import disk

    result = disk.run(**SHORT["disk"])  # type: ignore[arg-type]
    full = result["full"]
    assert 503 in full["codes"] and not full["changed_while_full"] and all(c != 500 for c in full["codes"])
    assert full.get("lost", 0) == 0
    if "read_only" in result:
        ro = result["read_only"]
        assert ro["started"] and ro["safe_mode"] and ro["input_code"] == 503 and ro["entries_shown"] > 0
    assert result["stall"]["state_answered_s"] < 1 and result["stall"]["new_stream_s"] < 1


def test_a_hostile_guest_without_the_pin_does_not_hold_the_table_up() -> None:
    from harness import abuse

    result = abuse.run(**SHORT["abuse"])  # type: ignore[arg-type]
    attacks = ("slow_headers", "slow_bodies", "big_bodies", "streams", "reads", "reads_open")
    assert all(result[a]["tablet"]["failed"] == 0 and result[a]["tablet"]["inputs"] > 0 for a in attacks), result
    assert result["slow_headers"]["held_median"] <= 16 and result["slow_bodies"]["held_median"] <= 16
    assert result["big_bodies"]["spooled_peak_mb"] == 0 and "413" in result["big_bodies"]["attacker"]["statuses"]
    assert result["streams"]["new_streams"]["tablet"] == {"200": 20, "other": 0}
    assert result["reads"]["attacker"]["answers"] > 0 and result["reads_open"]["attacker"]["answers"] > 0


def test_forty_phones_a_withdrawn_one_on_every_route_and_codes_guessed_at_speed() -> None:
    from harness import phones

    crowd, revoked, guessing = phones.run(**SHORT["phones"])["parts"]  # type: ignore[arg-type]
    assert crowd["server_errors"] == 0 and crowd["others_money_sent"] == 0
    assert crowd["inputs"] == SHORT["phones"]["inputs"] and crowd["joined_at_end"] == len(phones.SEATS)
    assert revoked["routes_tried"] >= 50 and revoked["let_in"] == [] and not revoked["table_changed"]
    assert revoked["join_again"] == 403
    checked = guessing["answers"].get("403", 0)
    assert checked <= 10 * SHORT["phones"]["addresses"] and guessing["answers"].get("200", 0) == 0
    assert guessing["years_to_half_chance"] > 100
