"""The companion speaks: announcements of the table's events, a speaker with its own worker, and the words
each tablet says in its own language (docs/voice.md). Beside the table in the wings: it takes the table's
views as plain data and imports nothing of the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.voice.kinds import KINDS, LASTING, PRESETS
from companion.voice.service import Voice, choose_backend
from companion.voice.settings import VoiceSettings, problems, read
from companion.voice.speaker import Speaker

__all__ = ["KINDS", "LASTING", "PRESETS", "Speaker", "Voice", "VoiceSettings", "problems", "read", "start"]


def start(section: dict[str, Any], *, language: str, mock: bool, data_dir: str | Path, lights: Any = None) -> Voice:
    """The voice of a ``[voice]`` table (ValueError when it is wrong); ``language``: the table's default."""
    settings = read(section)
    backend = choose_backend(settings, mock=mock, data_dir=data_dir)
    speaker = Speaker(backend, settings, settings.language or language) if settings.enabled else None
    return Voice(settings, speaker, lights=lights)
