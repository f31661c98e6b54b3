"""The budget of wrong PIN guesses on its own (companion/access/budget.py), on a virtual clock."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.access.budget as pin_budget
from companion.access.budget import GuessBudget, Refusal, client_key


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def wrong() -> bool:
    return False


def test_ten_thousand_guesses_from_any_number_of_addresses_take_over_a_year() -> None:
    """A guesser with 1,000 addresses tries the next address when one is refused, and waits only when
    every one would be (the table's budget is spent)."""
    clock = Clock()
    budget = GuessBudget(None, clock=clock)
    start, checked, address = clock.now, 0, 0
    while checked < 10_000:
        outcome = budget.spend(f"10.9.{address // 250}.{address % 250}", wrong)
        address = (address + 1) % 1000
        if isinstance(outcome, Refusal):
            if outcome.table:
                clock.now += outcome.retry_after + 0.001
            continue
        checked += 1
    assert (clock.now - start) / 86400 > 365


def test_a_client_waits_as_long_as_it_is_told() -> None:
    clock = Clock()
    budget = GuessBudget(None, clock=clock)
    for _ in range(5):
        assert budget.spend("10.0.0.1", wrong) is False
        clock.now += 1
    refusal = budget.spend("10.0.0.1", lambda: True)  # not even the right PIN is checked
    assert isinstance(refusal, Refusal) and not refusal.table and refusal.retry_after == 55
    clock.now += refusal.retry_after - 1
    assert isinstance(budget.spend("10.0.0.1", wrong), Refusal)
    clock.now += 1
    assert budget.spend("10.0.0.1", lambda: True) is True  # right PINs are not counted
    assert budget.counted("10.0.0.1") == 5 and budget.counted() == 5


def test_the_log_survives_a_restart_and_a_cut_line(tmp_path: Path) -> None:
    clock = Clock()
    budget = GuessBudget(tmp_path, clock=clock)
    for n in range(4):
        budget.spend(f"10.0.0.{n}", wrong)
    log = tmp_path / pin_budget.LOG_FILE
    log.write_bytes(log.read_bytes() + b"18000")  # a power cut in the middle of a line
    again = GuessBudget(tmp_path, clock=clock)
    assert again.counted() == 4 and again.counted("10.0.0.2") == 1
    assert log.read_bytes().endswith(b"\n")  # the cut line is dropped at start
    log.write_bytes(log.read_bytes() + b"18000" + b"1800000000.000 10.0.0.9\n")  # run together
    assert GuessBudget(tmp_path, clock=clock).counted("10.0.0.9") == 1  # counted now, not for ages
    clock.now += 86400  # a day later nothing counts, and the log is compacted at start
    assert GuessBudget(tmp_path, clock=clock).counted() == 0 and log.read_bytes() == b""


def test_the_log_is_compacted_when_it_grows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pin_budget, "COMPACT_BYTES", 200)
    clock = Clock()
    budget = GuessBudget(tmp_path, clock=clock)
    log = tmp_path / pin_budget.LOG_FILE
    for n in range(30):
        budget.spend(f"10.0.1.{n}", wrong)
        assert log.stat().st_size <= 200 + 40  # rewritten with what still counts once past 200 bytes
        clock.now += 86400  # a day apart: each guess forgets the one before
    assert log.read_text().splitlines()[-1].endswith(" 10.0.1.29") and budget.counted() == 0


def test_the_table_lifts_every_lockout(tmp_path: Path) -> None:
    clock = Clock()
    unlock = tmp_path / "pin-unlock"
    budget = GuessBudget(tmp_path, clock=clock, unlock=unlock)
    for n in range(30):
        budget.spend(f"10.0.2.{n}", wrong)
    assert isinstance(budget.spend("10.0.3.1", lambda: True), Refusal)
    unlock.write_text("unlock\n")
    assert budget.spend("10.0.3.1", lambda: True) is True
    assert not unlock.exists() and GuessBudget(tmp_path, clock=clock).counted() == 0


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("10.0.0.5", "10.0.0.5"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::/64"),  # another address of the same machine
        ("::ffff:10.0.0.5", "10.0.0.5"),
        (None, "unknown"),
    ],
)
def test_a_client_is_an_ipv4_address_or_an_ipv6_network(address: str | None, key: str) -> None:
    assert client_key(address) == key
