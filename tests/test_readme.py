"""The README as a newcomer meets it on a fresh clone: the system packages come before the commands that
need them, the commands run as written from the checkout, and the files they name are shipped."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def commands() -> list[list[str]]:
    """The Commands section's command lines, without their comments, split as a shell would."""
    block = section("Commands").split("```sh\n", 1)[1].split("```", 1)[0]
    return [shlex.split(line.split("  #", 1)[0]) for line in block.splitlines() if line.strip()]


def command(*start: str) -> list[str]:
    return next(c for c in commands() if c[1:1 + len(start)] == list(start))


def test_the_packages_come_before_the_commands_that_need_them() -> None:
    assert README.index("sudo apt-get install") < README.index(".venv/bin/pip install -e .")
    assert README.index("sudo apt-get install") < README.index("./scripts/test")


def test_every_command_runs_from_a_fresh_shell() -> None:
    """A fresh shell has no ``companion`` on its PATH: the venv's is named."""
    assert len(commands()) >= 8
    assert [c for c in commands() if c[0] != ".venv/bin/companion"] == []


def test_the_files_the_commands_name_are_shipped() -> None:
    named = [arg for c in commands() for arg in c[1:]
             if "/" in arg and not arg.startswith(("/", "http")) and not arg.isupper() and not arg.endswith("/")]
    assert "firmware_config/companion.toml" in named and "tests/fixtures/dice/matteop65-webcam" in named
    assert [arg for arg in named if not (ROOT / arg).resolve().is_relative_to(ROOT)] == []  # a clone has only itself
    assert [arg for arg in named if not (ROOT / arg).exists()] == []


def test_no_command_writes_into_the_checkout() -> None:
    block = section("Commands")
    targets = re.findall(r">\s*(\S+)", block.split("```sh\n", 1)[1].split("```", 1)[0])
    assert targets and all(t.startswith("/tmp/") for t in targets)


def test_check_config_passes_on_the_shipped_default(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(command("check-config")[1:]) == 0
    assert ": ok" in capsys.readouterr().out


def test_dice_eval_scores_the_shipped_photos(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(command("dice", "eval")[1:]) == 0
    assert "per-die accuracy" in capsys.readouterr().out
