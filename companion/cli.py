"""The ``companion`` command: run the daemon, replay records, read dice, check the config."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

# Subcommand groups living with the part they drive; each module has register(subparsers).
PLUGINS = (
    "companion.vision.cli",
    "companion.hardware.cli",
    "companion.table.empty_tray_cli",
    "companion.voice.cli",
    "companion.table.players_cli",
)


def plain(text: str | None) -> str:
    """A docstring as ``--help`` shows it: argparse prints text as written, so reST's double backticks
    would show."""
    return (text or "").replace("``", "")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=plain(__doc__))
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start the daemon: web app, journal, camera and buttons")
    run.add_argument("--config", help="companion.toml (default: built-in defaults)")
    run.add_argument("--mock", action="store_true", help="simulated camera and buttons, whatever is present")
    run.add_argument("--host", help="address to listen on (default from config: 0.0.0.0)")
    run.add_argument("--port", type=int, help="port to listen on (default from config: 8080)")
    run.add_argument("--data", help="folder for the journal (default from config: ./data)")
    run.add_argument(
        "--allow-default-pin", action="store_true", help="start with the table PIN still 1234 (with real devices)"
    )
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

    pin = sub.add_parser("pin", help="the table PIN: lift the lockouts, or set a new PIN")
    pin_sub = pin.add_subparsers(dest="pin_command", required=True)
    unlock = pin_sub.add_parser("unlock", help="let every device try the PIN again (after too many wrong ones)")
    pin_set = pin_sub.add_parser(
        "set", help="set a new table PIN (no old one needed; also mends a damaged PIN file); read from stdin"
    )
    for p in (unlock, pin_set):
        p.add_argument("--config", help="companion.toml (default: built-in defaults)")
        p.add_argument("--data", help="the companion's data folder (default from config)")
    unlock.set_defaults(func=_pin_unlock)
    pin_set.set_defaults(func=_pin_set)

    journal = sub.add_parser("journal", help="check the journal, or restore a backup of it (companion stopped)")
    journal_sub = journal.add_subparsers(dest="journal_command", required=True)
    jcheck = journal_sub.add_parser("check", help="is the journal whole? (changes nothing; exit 1 if damaged)")
    jrecover = journal_sub.add_parser("recover", help="put the newest good backup in place of a damaged journal")
    for p in (jcheck, jrecover):
        p.add_argument("--config", help="companion.toml (default: built-in defaults)")
        p.add_argument("--data", help="the companion's data folder (default from config)")
    jrecover.add_argument("--from", dest="source", help="this backup file instead of the newest good one")
    jrecover.add_argument("--empty", action="store_true", help="no backup: start an empty journal")
    jrecover.add_argument("--force", action="store_true", help="even if the journal is whole")
    jrecover.add_argument(
        "--no-salvage", action="store_true", help="do not carry over the damaged files' entries newer than the backup"
    )
    jcheck.set_defaults(func=_journal_check)
    jrecover.set_defaults(func=_journal_recover)

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
    from companion.store import RecordError, replay_file

    try:
        result = replay_file(args.record)
    except RecordError as exc:
        print(f"{args.record}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    from companion.i18n.render import localize

    json.dump(localize(result, "en"), sys.stdout, indent=2)  # the console reads English
    sys.stdout.write("\n")
    return 0


def _data_dir(args: argparse.Namespace) -> str:
    from companion.config import load

    return str(args.data) if getattr(args, "data", None) else load(args.config).store.data_dir


def _pin_unlock(args: argparse.Namespace) -> int:
    from companion.access.pin import request_unlock
    from companion.config import ConfigError

    try:
        path = request_unlock(_data_dir(args))
    except (ConfigError, OSError) as exc:
        print(f"companion pin unlock: {exc}", file=sys.stderr)
        return 2
    print(f"asked the companion to lift every PIN lockout ({path}); the next PIN a tablet sends applies it")
    return 0


def _pin_set(args: argparse.Namespace) -> int:
    from companion.access.console import set_pin
    from companion.config import ConfigError

    try:
        print(set_pin(Path(_data_dir(args)), sys.stdin))
    except (ConfigError, OSError, ValueError) as exc:
        print(f"companion pin set: {exc}", file=sys.stderr)
        return 2
    return 0


def _journal_path(args: argparse.Namespace) -> Path:
    from companion.config import StoreConfig

    return StoreConfig(data_dir=_data_dir(args)).journal_path


def _journal_check(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.store import backups_of, check, describe, inspect, list_backups

    try:
        path = _journal_path(args)
    except ConfigError as exc:
        print(f"companion journal check: {exc}", file=sys.stderr)
        return 2
    verdict = check(path)
    print(verdict.summary() if verdict.exists else f"{path}: no journal yet")
    for problem in verdict.problems:
        print(f"  damage: {problem}")
    for note in verdict.notes:
        print(f"  note: {note}")
    for backup in list_backups(backups_of(path)):
        print(f"  backup {'good' if inspect(backup).ok else 'DAMAGED'}: {describe(backup)}")
    return 0 if verdict.ok else 1


def _journal_recover(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.store import backups_of, check, describe, inspect, newest_good, restore

    try:
        path = _journal_path(args)
    except ConfigError as exc:
        print(f"companion journal recover: {exc}", file=sys.stderr)
        return 2
    verdict = check(path)
    if verdict.ok and not args.force:
        print(f"{verdict.summary()}: nothing to recover (--force to restore a backup anyway)")
        return 0
    source = None if args.empty else Path(args.source) if args.source else newest_good(backups_of(path))
    if source is None and not args.empty:
        print("companion journal recover: no good backup; --empty starts an empty journal", file=sys.stderr)
        return 2
    try:
        done = restore(path, source, salvage_damaged=not args.no_salvage)
    except (ValueError, OSError) as exc:
        print(f"companion journal recover: {exc}", file=sys.stderr)
        return 2
    after = done.verdict
    if done.aside is not None:
        print(f"the damaged journal's files were moved, untouched, to {done.aside}")
    if done.salvage is not None:
        print(f"salvage: {done.salvage.summary()}")
    print(f"restored {describe(source) if source else 'an empty journal'}: {after.summary()}")
    return 0 if after.ok and inspect(path).ok else 1


def _check_config(args: argparse.Namespace) -> int:
    """Print every problem at once; exit 1 if the companion could not start with this file."""
    from companion.config import ConfigError, load
    from companion.games import game_names
    from companion.hardware.debounce import ButtonTiming, ButtonTimingError
    from companion.hardware.pins import check_pins
    from companion.table.camera_source import camera_problems
    from companion.voice import problems as voice_problems

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
    errors += voice_problems(config.voice)
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
    from companion.table.simulate import simulated_lines

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
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`companion simulate ... | head`): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())
