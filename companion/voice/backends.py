"""Where speech goes: espeak-ng through the Pi's audio, a folder of texts and WAVs (mock mode), or nowhere.

A backend says one text and returns when it is said, or as soon as ``cancel`` is set (the table moved
on): the speaker's worker is the only caller, so a slow speaker only ever delays the speaker.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
APLAY = "aplay"


@dataclass(frozen=True)
class Utterance:
    """A rendered announcement: its words in one language, how loud and how fast."""

    text: str
    lang: str
    kind: str
    volume: int = 80  # percent
    rate: int = 160  # words a minute
    voice: str = ""  # an espeak-ng voice; "": the language's


class Backend(Protocol):
    name: str

    def say(self, utterance: Utterance, cancel: threading.Event) -> None: ...


def espeak_args(utterance: Utterance, *, wav: Path | None = None) -> list[str]:
    """espeak-ng's command line; ``wav``: write there instead of playing. Amplitude 0-200, 100 normal."""
    args = [ESPEAK, "-v", utterance.voice or utterance.lang, "-a", str(utterance.volume * 2), "-s", str(utterance.rate)]
    if wav is not None:
        args += ["-w", str(wav)]
    return [*args, "--", utterance.text]


def espeak_available() -> bool:
    return shutil.which(ESPEAK) is not None


class EspeakBackend:
    """espeak-ng speaking through ALSA: its own audio output when it has one (libpcaudio), else its WAV on
    standard output piped into ``aplay``. The process is killed when the announcement goes stale."""

    name = "espeak-ng"

    def __init__(self, *, pipe: bool = False) -> None:
        self.pipe = pipe  # True: espeak-ng --stdout | aplay (a system where espeak-ng cannot reach ALSA itself)

    def say(self, utterance: Utterance, cancel: threading.Event) -> None:
        args = espeak_args(utterance)
        procs: list[subprocess.Popen[bytes]] = []
        if self.pipe:
            speak = subprocess.Popen([*args[:-2], "--stdout", *args[-2:]], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
            procs = [speak, subprocess.Popen([APLAY, "-q"], stdin=speak.stdout, stderr=subprocess.DEVNULL)]
            assert speak.stdout is not None
            speak.stdout.close()  # aplay holds it now
        else:
            procs = [subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        _wait(procs, cancel)


def _wait(procs: list[subprocess.Popen[bytes]], cancel: threading.Event) -> None:
    while any(p.poll() is None for p in procs):
        if cancel.wait(0.05):
            for p in procs:
                if p.poll() is None:
                    p.kill()
            for p in procs:
                p.wait()
            return


class FolderBackend:
    """Mock mode: each announcement as ``NNNN-kind-lang.txt`` and, where espeak-ng exists, a ``.wav`` beside
    it, so tests read what would be said and a newcomer can listen to it."""

    name = "folder"

    def __init__(self, folder: Path, *, wav: bool | None = None) -> None:
        self.folder = folder
        self.wav = espeak_available() if wav is None else wav
        self.count = 0
        self._lock = threading.Lock()

    def say(self, utterance: Utterance, cancel: threading.Event) -> None:
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.count += 1
            stem = self.folder / f"{self.count:04d}-{utterance.kind}-{utterance.lang}"
        stem.with_suffix(".txt").write_text(utterance.text + "\n", encoding="utf-8")
        if self.wav:
            try:
                subprocess.run(espeak_args(utterance, wav=stem.with_suffix(".wav")), check=True, timeout=30,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            except (OSError, subprocess.SubprocessError) as exc:
                log.warning("no WAV for %s: %s", stem.name, exc)

    def said(self) -> list[str]:
        """The texts written so far, in order."""
        return [p.read_text(encoding="utf-8").rstrip("\n") for p in sorted(self.folder.glob("*.txt"))]


class SilentBackend:
    """Nothing on the Pi (no speaker, or voice off): the tablets may still speak."""

    name = "silent"

    def say(self, utterance: Utterance, cancel: threading.Event) -> None:
        return None
