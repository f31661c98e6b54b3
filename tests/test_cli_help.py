"""Every ``--help`` reads as plain text: argparse prints descriptions as written, so the reST markup of
the docstrings they come from (double backticks) would show on the terminal."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def helps(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, str]]:
    """The help of a parser and of every subcommand under it, by command line."""
    yield path, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from helps(sub, f"{path} {name}")


def test_no_companion_help_shows_double_backticks() -> None:
    texts = dict(helps(build_parser(), "companion"))
    assert {"companion", "companion dice eval", "companion empty-tray capture"} <= set(texts)  # the walk went deep
    assert [(path, line) for path, text in texts.items() for line in text.splitlines() if "``" in line] == []


@pytest.mark.parametrize("module", ["companion.i18n.extract", "harness"])
def test_the_module_tools_help_is_plain_too(module: str) -> None:
    out = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("usage:") and "``" not in out
