"""``python -m harness [PART ...] [--long]``: run the reliability and security harness.

Parts: kills, corrupt, fuzz, records, pin, tablets, disk, abuse, phones (default: all). Short mode (the default) is
what ./scripts/test runs (tests/test_harness.py); ``--long`` gives the figures in docs/reliability.md.
Each part prints JSON lines; the last line of each is its summary.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

SHORT = {
    "kills": {"kills": 6, "early": 0.5},
    "corrupt": {"long": False},
    "fuzz": {"requests": 200},
    "records": {"examples": 150},
    "pin": {"guesses": 200, "burst_s": 1.0, "addresses": 16},
    "tablets": {"tablets": 20, "inputs": 60},
    "disk": {"stall_s": 2.0, "inputs": 10},
    "abuse": {"seconds": 2.5, "sockets": 100, "trickle_s": 1.0},
    "phones": {"phones": 40, "inputs": 40, "guesses": 400, "addresses": 16},
}
LONG = {
    "kills": {"kills": 1000},
    "corrupt": {"long": True},
    "fuzz": {"requests": 20000},
    "records": {"examples": 5000},
    "pin": {"guesses": 10000, "burst_s": 60.0, "addresses": 64},
    "tablets": {"tablets": 200, "inputs": 1200},
    "disk": {"stall_s": 10.0, "inputs": 20},
    "abuse": {"seconds": 60.0, "sockets": 520, "trickle_s": 8.0},
    "phones": {"phones": 40, "inputs": 400, "guesses": 10000, "addresses": 64},
}
MODULES = {
    "kills": "harness.kills",
    "corrupt": "harness.corrupt",
    "fuzz": "harness.fuzz",
    "records": "harness.records",
    "pin": "harness.bruteforce",
    "tablets": "harness.tablets",
    "disk": "harness.disk",
    "abuse": "harness.abuse",
    "phones": "harness.phones",
}


def main() -> int:
    import importlib

    parser = argparse.ArgumentParser(prog="python -m harness", description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"parts to run: {', '.join(MODULES)} (default: all)")
    parser.add_argument("--long", action="store_true", help="the long mode: the figures of docs/reliability.md")
    args = parser.parse_args()
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    settings = LONG if args.long else SHORT
    unknown = set(args.parts) - set(MODULES)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    for part in args.parts or list(MODULES):
        started = time.monotonic()
        module = importlib.import_module(MODULES[part])
        module.run(**settings[part])
        print(f"# {part}: {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
