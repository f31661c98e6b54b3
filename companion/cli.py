"""The ``companion`` command: run the daemon, replay records, read dice, check the config."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

# Subcommand groups living with the part they drive; each module has register(subparsers).
PLUGINS = ("companion.vision.cli", "companion.hardware.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start the daemon: web app, journal, camera and buttons")
    run.add_argument("--config", help="companion.toml (default: built-in defaults)")
    run.add_argument("--mock", action="store_true", help="simulated camera and buttons, whatever is present")
    run.add_argument("--host", help="address to listen on (default from config: 0.0.0.0)")
    run.add_argument("--port", type=int, help="port to listen on (default from config: 8080)")
    run.add_argument("--data", help="folder for the journal (default from config: ./data)")
    run.set_defaults(func=_run)

    replay = sub.add_parser("replay", help="replay a game record and print the final state as JSON")
    replay.add_argument("record", help="a .jsonl game record")
    replay.set_defaults(func=_replay)

    check = sub.add_parser("check-config", help="validate the config (pins, buttons, camera, games) before start")
    check.add_argument("--config", help="companion.toml (default: built-in defaults)")
    check.set_defaults(func=_check_config)

    simulate = sub.add_parser("simulate", help="play a game with random legal inputs and print its record")
    simulate.add_argument("game")
    simulate.add_argument("players", nargs="+", help="player names in seat order")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--option", action="append", default=[], metavar="KEY=JSON", help="a game option")
    simulate.set_defaults(func=_simulate)

    for name in PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    from companion.daemon import run_daemon

    return run_daemon(args)


def _replay(args: argparse.Namespace) -> int:
    from companion.record import RecordError, replay_file

    try:
        result = replay_file(args.record)
    except RecordError as exc:
        print(f"{args.record}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _check_config(args: argparse.Namespace) -> int:
    """Print every problem at once; exit 1 if the companion could not start with this file."""
    from companion.config import ConfigError, load
    from companion.games import game_names
    from companion.hardware.debounce import ButtonTiming, ButtonTimingError
    from companion.hardware.pins import check_pins
    from companion.rig import camera_problems

    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"error: {exc}")
        return 1
    errors: list[str] = []
    warnings: list[str] = []
    pins = check_pins(config.pins or None)
    errors += [f"[pins] {e}" for e in pins.errors]
    warnings += [f"[pins] {w}" for w in pins.warnings]
    try:
        ButtonTiming.from_mapping(config.buttons)
    except ButtonTimingError as exc:
        errors += [f"[buttons] {e}" for e in exc.errors]
    errors += camera_problems(config.camera)
    if config.server.pin == "1234":
        warnings.append("[server] pin is still the default 1234: anyone on the Wi-Fi can change the game")
    for line in warnings:
        print(f"warning: {line}")
    for line in errors:
        print(f"error: {line}")
    games = ", ".join(game_names())
    print(f"{config.source}: {'not usable' if errors else 'ok'} (games: {games})")
    return 1 if errors else 0


def _simulate(args: argparse.Namespace) -> int:
    from companion.games.base import RuleViolation
    from companion.simulate import simulated_lines

    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    try:
        for line in simulated_lines(args.game, args.players, options, seed=args.seed):
            print(line)
    except RuleViolation as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
