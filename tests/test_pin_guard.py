"""The table PIN against guessing: a per-client limit on wrong PINs, lockouts the table can lift, a
PIN changed from the tablet, and no real start with the default PIN."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.access.pin import request_unlock
from companion.config import Config
from companion.table.session import Table
from companion.web import create_app

PIN = "4321"


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    return create_app(table, config=config).test_client()


def guess(client: FlaskClient, pin: str, addr: str = "10.0.0.5") -> int:
    res = client.post("/api/pin", headers={"X-Table-Pin": pin}, environ_base={"REMOTE_ADDR": addr})
    return res.status_code


def test_wrong_pins_lock_the_guesser_out_and_are_logged(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="companion.access.pin")
    codes = [guess(client, f"{n:04d}") for n in range(5, 25)]
    assert codes[:5] == [403] * 5 and set(codes[5:]) == {429}
    res = client.post("/api/pin", headers={"X-Table-Pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert res.status_code == 429  # even the right PIN waits: the guesser cannot test it
    assert int(res.headers["Retry-After"]) > 0 and "unlock" in res.get_json()["error"]
    assert sum("wrong table PIN from 10.0.0.5" in r.getMessage() for r in caplog.records) == 5
    # nobody else is locked out, and the guesser can still watch the game
    assert guess(client, PIN, addr="10.0.0.6") == 200
    assert client.get("/api/state", environ_base={"REMOTE_ADDR": "10.0.0.5"}).status_code == 200


def test_right_pins_do_not_count(client: FlaskClient) -> None:
    assert all(guess(client, PIN) == 200 for _ in range(50))


def test_the_table_lifts_a_lockout(client: FlaskClient, config: Config) -> None:
    for n in range(6):
        guess(client, f"9{n:03d}")
    assert guess(client, PIN) == 429
    request_unlock(config.store.data_dir)  # what `companion pin unlock` and a long reread press do
    assert guess(client, PIN) == 200
    assert not (Path(config.store.data_dir) / "pin-unlock").exists()


def test_a_restart_does_not_lift_a_lockout(table: Table, config: Config) -> None:
    client = create_app(table, config=config).test_client()
    for n in range(6):
        guess(client, f"9{n:03d}")
    assert guess(client, PIN) == 429
    restarted = create_app(table, config=config).test_client()  # a new daemon on the same data folder
    assert guess(restarted, PIN) == 429
    assert guess(restarted, PIN, addr="10.0.0.6") == 200  # only the guesser
    request_unlock(config.store.data_dir)
    assert guess(restarted, PIN) == 200
    assert guess(create_app(table, config=config).test_client(), PIN) == 200  # the unlock is kept too


def test_an_unreadable_guess_log_does_not_stop_the_start(table: Table, config: Config) -> None:
    (Path(config.store.data_dir) / "pin-guesses.log").write_bytes(b"{not a log\n\xff\xfe\x00\n")
    assert guess(create_app(table, config=config).test_client(), PIN) == 200


def test_a_long_reread_press_asks_for_the_unlock(table: Table, config: Config) -> None:
    from companion.table.rig import Rig

    rig = Rig(table, config, mock=True, seed=5)
    try:
        rig.press("reread", hold=3.0)
        rig.drain()
        assert (Path(config.store.data_dir) / "pin-unlock").exists()
    finally:
        rig.close()


def test_the_console_asks_for_the_unlock(tmp_path: Path) -> None:
    from companion.cli import main

    assert main(["pin", "unlock", "--data", str(tmp_path)]) == 0
    assert (tmp_path / "pin-unlock").exists()


def test_the_pin_is_changed_from_the_tablet_with_the_old_one(table: Table, config: Config) -> None:
    client = create_app(table, config=config).test_client()
    assert client.post("/api/pin/change", json={"old": "0000", "new": "86420"}).status_code == 403
    assert client.post("/api/pin/change", json={"old": PIN, "new": "1234"}).status_code == 400  # too easy
    assert client.post("/api/pin/change", json={"old": PIN, "new": "12ab"}).status_code == 400
    assert client.post("/api/pin/change", json={"old": PIN, "new": "86420"}).status_code == 200
    assert guess(client, "86420") == 200 and guess(client, PIN, addr="10.0.0.7") == 403
    again = create_app(table, config=config).test_client()  # a restart keeps the new PIN
    assert guess(again, "86420") == 200


def test_changing_the_pin_counts_wrong_old_pins(client: FlaskClient) -> None:
    codes = [
        client.post("/api/pin/change", json={"old": f"7{n:03d}", "new": "86420"}).status_code for n in range(8)
    ]
    assert codes[:5] == [403] * 5 and set(codes[5:]) == {429}


def test_run_refuses_the_default_pin_with_real_devices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = tmp_path / "c.toml"
    path.write_text(f'[server]\npin = "1234"\nport = 18089\n[store]\ndata_dir = "{tmp_path / "data"}"\n')
    assert main(["run", "--config", str(path)]) == 2
    assert "--allow-default-pin" in capsys.readouterr().err


def test_the_slow_hash_runs_once_for_a_pin_given_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every input carries the PIN: the salted hash (slow on purpose) runs for the first right one only,
    a wrong PIN is still hashed and refused, and a changed PIN forgets the old one at once."""
    import companion.access.pin as pin_module

    calls: list[str] = []
    real = pin_module._hash
    monkeypatch.setattr(pin_module, "_hash", lambda given, salt: (calls.append(given), real(given, salt))[1])
    table_pin = pin_module.TablePin("24680", tmp_path)
    calls.clear()
    assert all(table_pin.matches("24680") for _ in range(5))
    assert calls == ["24680"]
    assert not table_pin.matches("24681") and calls[-1] == "24681"
    table_pin.change("24680", "97531")
    assert not table_pin.matches("24680") and table_pin.matches("97531")
