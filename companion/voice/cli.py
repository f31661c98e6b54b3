"""``companion say``: try a voice. Speaks a text (or writes its WAV) with espeak-ng, as the table would."""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from companion.i18n.catalogs import LANGUAGES


def register(sub: Any) -> None:
    say = sub.add_parser("say", help="say a text aloud with the table's voice (espeak-ng), or write it to a WAV")
    say.add_argument("text", help="what to say, in the language given")
    say.add_argument("--lang", default="en", choices=list(LANGUAGES), help="its language (default: en)")
    say.add_argument("--out", type=Path, help="write a WAV file instead of playing it")
    say.add_argument("--volume", type=int, default=80, help="percent (default: 80)")
    say.add_argument("--rate", type=int, default=160, help="words a minute (default: 160)")
    say.add_argument("--voice", default="", help='an espeak-ng voice, e.g. "de+f3" (default: the language\'s)')
    say.set_defaults(func=_say)


def _say(args: argparse.Namespace) -> int:
    from companion.voice.backends import EspeakBackend, Utterance, espeak_args, espeak_available

    if not espeak_available():
        print("companion say: espeak-ng is not installed (sudo apt-get install espeak-ng)", file=sys.stderr)
        return 2
    utterance = Utterance(args.text, args.lang, "say", volume=args.volume, rate=args.rate, voice=args.voice)
    if args.out is not None:
        done = subprocess.run(espeak_args(utterance, wav=args.out), stderr=subprocess.PIPE, text=True)
        if done.returncode:
            print(f"companion say: espeak-ng failed: {done.stderr.strip()}", file=sys.stderr)
            return 1
        print(args.out)
        return 0
    EspeakBackend().say(utterance, threading.Event())
    return 0
