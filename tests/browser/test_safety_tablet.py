"""The tablet under the companion's content security policy, its PIN change, its lockout message and
its restore button (issue 28); it keeps a session, never the PIN (issue 53)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser
PIN = "4321"


def test_the_pages_break_no_rule_of_the_content_security_policy(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    table.new_game("heckmeck", ["Ann", "Bob"])
    for path in ("/", "/health"):
        response = page.goto(base + path)
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    page.goto(base)
    expect(page.get_by_test_id("connection")).to_have_text("live")
    assert violations == []


def test_the_pin_is_changed_on_the_tablet(page: Any, companion: tuple[str, Table]) -> None:
    base, _ = companion
    page.goto(base)
    page.get_by_test_id("pin-button").click()
    page.locator("#pin-change summary").click()
    page.get_by_test_id("pin-old").fill(PIN)
    page.get_by_test_id("pin-new").fill("80613")
    page.get_by_test_id("pin-change-ok").click()
    expect(page.locator("#toast")).to_contain_text("PIN is changed")
    expect(page.get_by_test_id("pin-button")).to_have_text("Unlocked")
    status = page.evaluate("fetch('/api/pin', {method: 'POST', headers: {'X-Table-Pin': '80613'}}).then(r => r.status)")
    assert status == 200


def test_a_locked_out_tablet_is_told_how_to_get_back_in(page: Any, companion: tuple[str, Table]) -> None:
    base, _ = companion
    page.goto(base)
    for n in range(6):
        page.get_by_test_id("pin-button").click()
        page.get_by_test_id("pin-input").fill(f"99{n:02d}")
        page.get_by_test_id("pin-ok").click()
        page.wait_for_timeout(200)
    expect(page.locator("#toast")).to_contain_text("Too many wrong PINs")
    expect(page.locator("#toast")).to_contain_text("reread")


def test_safe_mode_offers_the_backup(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    expect(page.get_by_test_id("restore")).to_be_hidden()
    table.set_status("banner", "Safe mode: the journal is damaged")
    table.set_status("recovery", {"offer": "journal-20261125T030000Z-g1-e31.sqlite3"})
    expect(page.get_by_test_id("restore")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("journal is damaged")


def test_the_tablet_keeps_a_session_never_the_pin(page: Any, companion: tuple[str, Table]) -> None:
    """Before: the PIN sat in localStorage and crossed the Wi-Fi with every input."""
    base, table = companion
    table.new_game("heckmeck", ["Ann", "Bob"])
    page.goto(base)
    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).to_have_text("Unlocked")
    kept = page.evaluate("JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")
    assert PIN not in kept and "session" in kept
    with page.expect_request("**/api/undo") as sent:
        page.evaluate("window.callApi('/api/undo', {}, {quiet: true}).catch(() => {})")
    headers = sent.value.headers
    assert "x-table-pin" not in headers and len(headers.get("x-table-session", "")) >= 40
    page.reload()  # the session outlives a reload
    expect(page.get_by_test_id("pin-button")).to_have_text("Unlocked")


def test_a_damaged_pin_file_shows_a_banner(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    page.goto(base)
    table.set_status("pin", "The table's kept PIN is damaged: companion pin set")
    expect(page.locator("#banner")).to_contain_text("companion pin set")
