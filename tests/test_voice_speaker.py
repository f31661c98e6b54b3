"""The speaker never stands in the table's way: its queue drops what went stale, it sleeps at night, and
a slow voice leaves inputs, the journal and the pages exactly as fast as no voice at all."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
import wave
from datetime import datetime
from pathlib import Path

import pytest
from live import EventStream, serve  # type: ignore[import-not-found]
from voice_play import HeldBackend, folder_voice  # type: ignore[import-not-found]

from companion.config import Config
from companion.games.messages import msg
from companion.table.session import Table
from companion.voice import Speaker, Voice, problems, read
from companion.voice.backends import FolderBackend, espeak_available
from companion.voice.events import Announcement
from companion.web import create_app

PIN = "4321"


def held_voice(hold: float = 2.0, preset: str = "everything") -> tuple[Voice, HeldBackend]:
    settings = read({"enabled": True, "preset": preset, "output": "silent"})
    backend = HeldBackend(hold)
    return Voice(settings, Speaker(backend, settings, "en")), backend


def test_a_held_back_voice_does_not_delay_an_input_reaching_the_page(table: Table, config: Config) -> None:
    """Speech is held back (2 s, or until released) while an input is made: the input is acknowledged,
    journalled and on the page, with what to say, before the voice has said anything."""
    voice, backend = held_voice()
    table.subscribe(voice.observe)
    app = create_app(table, config=config, voice=voice)
    with serve(app) as base:
        page = EventStream(base)
        page.next()
        post(base, "/api/games", {"game": "heckmeck", "players": ["Anna", "Benno"]})
        assert backend.started.wait(5)  # the voice is busy saying the new game's first words, and holds
        _, started = page.next()
        status, answer = post(base, "/api/input", {"action": {"type": "roll", "dice": [1, 1, 2, 2, 3, 3, 4, "worm"]}})
        assert status == 200 and answer
        _, view = page.next()  # the page has the roll...
        assert view["game"]["scoreboard"]["roll"] == [1, 1, 2, 2, 3, 3, 4, "worm"]
        assert list(table.journal.entries(table.game_id or 0))[-1]["action"]["type"] == "roll"  # ... and the journal
        assert view["voice"]["seq"] > started["voice"]["seq"]  # ... and what to say about it
        assert any(a["kind"] == "dice" for a in view["voice"]["say"])
        assert backend.said == []  # while the voice has not finished a single sentence
        backend.release.set()
        assert voice.speaker is not None and voice.speaker.wait_idle(10)
        page.close()
    # the new game's words were made stale by the roll: cut off, and the rest of them never said
    assert [u.kind for u in backend.cut] == ["turn"] and voice.speaker.dropped > 0
    assert [u.kind for u in backend.said][:1] == ["dice"]  # then the roll was said, first of its change


def post(base: str, path: str, body: object) -> tuple[int, object]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers={
        "X-Table-Pin": PIN, "Content-Type": "application/json", "X-Device": "tablet"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return res.status, json.loads(res.read())


def test_stale_announcements_are_dropped_and_lasting_ones_kept() -> None:
    settings = read({"enabled": True, "preset": "everything"})
    backend = HeldBackend(hold=30)
    speaker = Speaker(backend, settings, "en")
    speaker.offer([Announcement("ask", msg("first question"))])
    assert backend.started.wait(5)
    speaker.offer([Announcement("options", msg("an option")), Announcement("payout", msg("a payout"))])
    speaker.offer([Announcement("options", msg("another option"))])  # the first option went stale unsaid
    backend.release.set()
    assert speaker.wait_idle(10)
    speaker.close()
    assert [u.text for u in backend.cut] == ["first question"]  # cut off by the next change
    assert [u.text for u in backend.said] == ["a payout", "another option"]
    assert speaker.dropped == 1


def test_night_mode_and_kinds_decide_what_is_said() -> None:
    settings = read({"enabled": True, "preset": "quiet", "night_from": "22:30", "night_to": "08:00"})
    night, day = datetime(2026, 1, 1, 23, 0), datetime(2026, 1, 1, 12, 0)
    assert settings.is_night(night) and settings.is_night(datetime(2026, 1, 1, 7, 59))
    assert not settings.is_night(day) and not settings.is_night(datetime(2026, 1, 1, 8, 0))
    backend = HeldBackend(hold=0)
    clock = [night]
    speaker = Speaker(backend, settings, "en", now=lambda: clock[0])
    speaker.offer([Announcement("end", msg("at night"))])
    clock[0] = day
    speaker.offer([Announcement("dice", msg("not in the quiet preset")), Announcement("end", msg("by day"))])
    assert speaker.wait_idle(10)
    speaker.close()
    assert [u.text for u in backend.said] == ["by day"]


def test_voice_settings_are_checked() -> None:
    assert problems({}) == []
    assert problems({"enabled": True, "language": "de", "kinds": ["dice", "end"], "night_from": "22:00",
                     "night_to": "07:30", "volume": 40, "cue": "lights"}) == []
    found = problems({"enabled": "yes", "language": "fr", "preset": "loud", "kinds": ["gossip"], "volume": 300,
                      "night_from": "25:00", "output": "radio", "cue": "bell", "colour": "red"})
    assert len(found) == 9, found
    assert read({"preset": "quiet"}).kinds == frozenset({"unsure", "end", "notice"})


def test_check_config_reads_the_voice_table(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[server]\npin = "9876"\n[voice]\nenabled = true\nvolume = 300\n')
    done = subprocess.run([sys.executable, "-m", "companion", "check-config", "--config", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "[voice] volume must be a whole number from 0 to 100" in done.stdout


@pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed")
def test_mock_mode_writes_what_would_be_said_with_a_wav_each(tmp_path: Path, table: Table) -> None:
    settings = read({"enabled": True, "preset": "essential", "output": "folder", "language": "de"})
    backend = FolderBackend(tmp_path / "voice")
    assert backend.wav
    voice = Voice(settings, Speaker(backend, settings, "de"))
    table.subscribe(voice.observe)
    table.new_game("heckmeck", ["Anna", "Benno"])
    assert voice.speaker is not None and voice.speaker.wait_idle(30)
    table.submit({"type": "roll", "dice": [5, 5, 4, "worm", 1, 1, 2, 3]}, device="tablet")
    assert voice.speaker.wait_idle(30)
    voice.close()
    texts = sorted((tmp_path / "voice").glob("*.txt"))
    assert [p.read_text(encoding="utf-8").strip() for p in texts] == [
        "Anna ist dran.", "Anna würfelt: zwei Einsen, eine Zwei, eine Drei, eine Vier, zwei Fünfen und ein Wurm."
    ]
    for text in texts:
        with wave.open(str(text.with_suffix(".wav"))) as sound:
            assert sound.getnframes() > sound.getframerate() // 2  # at least half a second of speech


SAMPLES = {"en": "Casino 4 pays Benno 60000.", "it": "Il casinò 4 paga: Benno 60000.",
           "ru": "Казино 4 платит: Бенно 60000.", "de": "Kasino 4 zahlt: Benno 60000."}


@pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", list(SAMPLES))
def test_companion_say_writes_a_wav_in_each_language(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "try.wav"
    done = subprocess.run([sys.executable, "-m", "companion", "say", "--lang", lang, SAMPLES[lang],
                           "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with wave.open(str(out)) as sound:
        assert sound.getnframes() > sound.getframerate()  # a sentence: more than a second


def test_the_folder_keeps_each_announcement_in_order(tmp_path: Path, table: Table) -> None:
    voice, backend = folder_voice(tmp_path / "voice", "it", preset="essential")
    table.subscribe(voice.observe)
    table.new_game("heckmeck", ["Anna", "Benno"])
    assert voice.speaker is not None and voice.speaker.wait_idle(10)
    table.submit({"type": "roll", "dice": [5, 5, 4, "worm", 1, 1, 2, 3]}, device="tablet")
    assert voice.speaker.wait_idle(10)
    voice.close()
    assert backend.said() == [
        "È il turno di Anna.",
        "Anna tira due uno, un due, un tre, un quattro, due cinque e un verme.",
    ]


def test_the_daemon_s_voice_follows_its_voice_table(tmp_path: Path) -> None:
    from companion.voice import start
    from companion.voice.backends import EspeakBackend, SilentBackend

    off = start({}, language="de", mock=True, data_dir=tmp_path)
    assert off.speaker is None  # the Pi says nothing; the tablets still get the words
    mock = start({"enabled": True}, language="de", mock=True, data_dir=tmp_path)
    assert mock.speaker is not None and isinstance(mock.speaker.backend, FolderBackend)
    assert mock.speaker.backend.folder == tmp_path / "voice" and mock.speaker.lang == "de"
    real = start({"enabled": True, "language": "it"}, language="de", mock=False, data_dir=tmp_path)
    assert real.speaker is not None and real.speaker.lang == "it"
    assert isinstance(real.speaker.backend, EspeakBackend if espeak_available() else SilentBackend)
    for voice in (off, mock, real):
        voice.close()
    with pytest.raises(ValueError, match="volume"):
        start({"volume": 300}, language="en", mock=True, data_dir=tmp_path)


def test_espeak_is_asked_for_the_language_volume_and_rate_and_cut_off_when_stale(tmp_path: Path) -> None:
    import threading

    from companion.voice.backends import Utterance, _wait, espeak_args

    utterance = Utterance("Kasino 4 zahlt: Benno 60000.", "de", "payout", volume=50, rate=140)
    assert espeak_args(utterance) == ["espeak-ng", "-v", "de", "-a", "100", "-s", "140", "--",
                                      "Kasino 4 zahlt: Benno 60000."]
    assert espeak_args(Utterance("x", "ru", "end", voice="ru+f3"), wav=tmp_path / "a.wav")[1:3] == ["-v", "ru+f3"]
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    cancel = threading.Event()
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    _wait([slow], cancel)
    assert slow.returncode is not None and slow.returncode < 0  # killed by a signal, not finished


def test_the_daemon_refuses_a_voice_table_that_cannot_work(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(f'[server]\npin = "9876"\n[store]\ndata_dir = "{tmp_path}"\n[voice]\nnight_from = "22:00"\n')
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--mock", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "night_from and night_to must both be" in done.stderr


def test_a_page_that_skipped_a_view_still_gets_the_lasting_words_it_missed() -> None:
    """The pages are sent only the newest of several quick views: each view's words carry the lasting
    announcements of the few changes before it, each with its number, besides its own."""
    voice, _ = held_voice(hold=0)
    game = {"id": 1, "name": "heckmeck", "players": ["Anna", "Benno"], "inputs": 0, "awaiting": {"kind": "over"},
            "scoreboard": {"players": [{"worms": 3}, {"worms": 1}]}}
    voice.part({"version": 1, "status": {}, "game": game})
    claimed = {"kind": "claimed", "text": msg("x").to_json(), "data": {"player": 0, "tile": 25, "victim": None}}
    voice.part({"version": 2, "status": {}, "game": {**game, "inputs": 1, "news": [claimed]}})
    notice = {"text": msg("There is nothing to undo.").to_json(), "at": 5.0}
    part = voice.part({"version": 3, "status": {"notice": notice}, "game": {**game, "inputs": 1}})
    assert part["seq"] == 2
    assert [(a["kind"], a["seq"], a["version"]) for a in part["say"]] == [("payout", 1, 2), ("notice", 2, 3)]
    assert part["say"][0]["text"] == {"msg": "{player} takes tile {tile}.", "params": {"player": "Anna",
                                                                                      "tile": "25"}}
    voice.close()
