"""Each tablet its own language: chosen per request, rendered on the way out, the stream per page."""

from __future__ import annotations

import dataclasses
import json
import threading
import time

import pytest
from flask.testing import FlaskClient

from companion.config import Config, ConfigError, check
from companion.table.session import Table
from companion.web import create_app
from companion.web.language import FrameCache

AUTH = {"X-Table-Pin": "4321", "X-Device": "t1"}


@pytest.fixture
def client(table: Table, config: Config) -> FlaskClient:
    client = create_app(table, config=config).test_client()
    res = client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"]}, headers=AUTH)
    assert res.status_code == 201
    return client


def prompt(client: FlaskClient, **kwargs: object) -> str:
    res = client.get("/api/state", **kwargs)  # type: ignore[arg-type]
    assert res.status_code == 200
    value = res.get_json()["game"]["awaiting"]["prompt"]
    assert isinstance(value, str)  # rendered: the page never sees a message id
    return value


def test_the_language_comes_from_the_switch_then_the_browser_then_the_table(client: FlaskClient) -> None:
    english = prompt(client)
    assert english == "Ann: roll 8 dice."
    assert prompt(client, headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}) != english
    client.set_cookie("lang", "ru")
    russian = prompt(client, headers={"Accept-Language": "it-IT"})  # the switch beats the browser
    assert russian == prompt(client, query_string={"lang": "ru"}) != english
    assert prompt(client, query_string={"lang": "de"}) not in (english, russian)  # ?lang= beats both
    client.delete_cookie("lang")
    assert prompt(client, headers={"Accept-Language": "fr-FR"}) == english  # none we have: the table's


def test_the_table_default_is_set_in_the_config(table: Table, config: Config) -> None:
    italian = dataclasses.replace(config, server=dataclasses.replace(config.server, language="it"))
    client = create_app(table, config=italian).test_client()
    client.post("/api/games", json={"game": "heckmeck", "players": ["Ann", "Bob"]}, headers=AUTH)
    assert prompt(client, headers={"Accept-Language": "fr"}) == prompt(client, query_string={"lang": "it"})
    with pytest.raises(ConfigError, match="language"):
        check(dataclasses.replace(config, server=dataclasses.replace(config.server, language="xx")))


def test_refusals_are_in_the_page_s_language(client: FlaskClient) -> None:
    bad = {"action": {"type": "roll", "dice": [1, 2]}}
    english = client.post("/api/input", json=bad, headers=AUTH).get_json()["error"]
    russian = client.post("/api/input", json=bad, headers={**AUTH, "Cookie": "lang=ru"}).get_json()["error"]
    assert english.startswith("Expected 8 dice") and isinstance(russian, str)
    assert client.post("/api/input", json=bad, headers=AUTH).headers["Content-Language"] == "en"


def test_the_page_bundle_carries_the_catalogue_and_the_plural_rule(client: FlaskClient) -> None:
    res = client.get("/api/i18n/ru.js")
    assert res.status_code == 200 and res.mimetype == "text/javascript"
    text = res.get_data(as_text=True)
    data = json.loads(text.split("window.I18N = ", 1)[1].split(";\n", 1)[0])
    assert data["lang"] == "ru" and set(data["languages"]) == {"en", "it", "ru", "de"}
    assert "n%10==1 && n%100!=11" in text  # Russian's three forms, from the catalogue's header
    assert "return Number((n != 1))" in client.get("/api/i18n/de.js").get_data(as_text=True)
    assert client.get("/api/i18n/xx.js").get_data(as_text=True).count('"lang": "en"') == 1


def test_a_stream_frame_is_rendered_once_per_language() -> None:
    cache = FrameCache()
    data = {"version": 3, "prompt": {"msg": "{player}: roll {n} die.", "params": {"player": "Ann", "n": 8},
                                     "plural": "{player}: roll {n} dice."}}
    english = cache.frame(3, json.dumps(data), "en")
    assert english.startswith(b"id: 3\nevent: view\ndata: {") and english.endswith(b"\n\n")
    assert '"prompt":"Ann: roll 8 dice."' in english.decode()
    assert cache.frame(3, json.dumps(data), "en") is english  # cached by version and language
    assert cache.frame(3, json.dumps(data), "it") != english
    assert cache.renderer("en")(3, json.dumps(data)) is english


def test_the_state_is_the_very_view_the_page_s_stream_is_sent(client: FlaskClient) -> None:
    """``/api/state`` answers from the stream's rendering (cached per version and language): the same
    text a page in that language gets, not a second walk through the view."""
    for lang in ("en", "it"):
        res = client.get("/api/state", query_string={"lang": lang})
        assert res.headers["Content-Language"] == lang and res.mimetype == "application/json"
        view = client.application.extensions["companion"]["table"].latest_view()
        frame = client.application.extensions["companion"]["frames"].frame(
            int(view["version"]), json.dumps(view, separators=(",", ":")), lang
        )
        assert frame == f"id: {view['version']}\nevent: view\ndata: {res.get_data(as_text=True)}\n\n".encode()
    assert prompt(client, query_string={"lang": "it"}) != prompt(client, query_string={"lang": "en"})


def test_streams_woken_together_wait_for_one_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    # 200 tablets wake for the same change at once: each rendering the view itself made every change
    # cost 200 renderings, and pages fell seconds behind as the game's log grew.
    from companion.web import language as module

    calls: list[str] = []

    def slow_localize(value: object, lang: str) -> object:
        calls.append(lang)
        time.sleep(0.02)  # long enough for every thread to arrive while the first one renders
        return real(value, lang)

    real = module.localize
    monkeypatch.setattr(module, "localize", slow_localize)
    cache = FrameCache()
    data = json.dumps({"version": 9, "n": 1})
    start = threading.Barrier(40)
    results: list[bytes] = []

    def page(lang: str) -> None:
        start.wait()
        results.append(cache.frame(9, data, lang))

    threads = [threading.Thread(target=page, args=("en" if i % 2 else "it",)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(calls) == ["en", "it"]  # once per language, not once per stream
    assert len(results) == 40 and len(set(map(id, results))) == 2
